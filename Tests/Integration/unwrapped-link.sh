#!/usr/bin/env bash
# A link the task-ownership hooks cannot serve: scenariod with a static Swift runtime but without
# TaskOwnershipCheck.linkerFlags. It must not crash; it must say what its sessions cannot own (scenarioctl status, the
# log) and, under --model-escapes fail, refuse to start with one line and exit status 1.
# Usage: Tests/Integration/unwrapped-link.sh   (after scripts/build-deb: only relinks its release build, twice)
# Prints one line per check and closes with "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/check.sh"
cd "$(dirname "$0")/../.."
scenarioctl=.build/debug/scenarioctl
link_flags=(-Xlinker --no-export-dynamic)  # as scripts/build-release links
wraps=(-Xlinker --wrap=swift_task_create -Xlinker --wrap=dispatch_after_f -Xlinker --wrap=dispatch_after -Xlinker --wrap=dispatch_async -Xlinker --wrap=dispatch_async_f)
directory=$(mktemp -d /tmp/unwrapped-XXXX)
binary=$directory/scenariod
# The objects are the Debian package's: without the flags only the link is done again, and with them after. The
# package graph is the packaged build's too (no benchmarks; see scripts/build-deb).
export SCENARIOD_PACKAGING=1
swift build -c release -Xswiftc -static-stdlib "${link_flags[@]}" --product scenariod >/dev/null 2>&1
cp .build/release/scenariod "$binary"
swift build -c release -Xswiftc -static-stdlib "${wraps[@]}" "${link_flags[@]}" --product scenariod >/dev/null 2>&1

socket=$directory/control.sock
"$binary" --scenarios scenarios --scenario offline-demo --socket "$socket" --log-target stderr --exit-with-parent 2>"$directory/log" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$directory"' EXIT
for _ in $(seq 3000); do [ -S "$socket" ] && break; sleep 0.01; done
check "it starts under --model-escapes warn and answers" sh -c "'$scenarioctl' state --socket '$socket' | grep -q items"
check "scenarioctl status says which parts it lacks and the flags that bring them" \
    sh -c "'$scenarioctl' status --socket '$socket' | grep -q '^      tasks: incomplete: a Task {} runs on its session.s executor; .* -Xlinker --wrap=swift_task_create'"
check "GET /v1/health says taskOwnership.complete is false" \
    sh -c "'$scenarioctl' status --json --socket '$socket' | python3 -c 'import json,sys; t=json.load(sys.stdin)[\"taskOwnership\"]; assert not t[\"complete\"] and \"a Date() read is reported\" in t[\"works\"], t'"
check "its log warns, naming the flags" grep -q 'sessions cannot own all of their Models.*--wrap=dispatch_async_f' "$directory/log"
"$binary" --scenarios scenarios --socket "$directory/fail.sock" --model-escapes fail --log-target stderr >"$directory/fail.out" 2>&1
status=$?
check "under --model-escapes fail it does not start: exit status 1 ($status)" test "$status" = 1
check "and says so in one line" sh -c "test \$(wc -l < '$directory/fail.out') = 1 && grep -q \"^Error: cannot own the Models' tasks (--model-escapes fail): task ownership is incomplete: \" '$directory/fail.out'"
check "and never listened" test ! -e "$directory/fail.sock"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
