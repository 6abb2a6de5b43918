#!/usr/bin/env bash
# A team's daemon from outside, as its users meet it: Examples/TodoDaemon's todod (built by its own package)
# started on its own scenarios and driven with the shipped scenarioctl; its offline check and its schema.
# Usage: Tests/Integration/example-daemon.sh [TODOD]   (after `swift build` here and in Examples/TodoDaemon; TODOD is the
# daemon that build made, Examples/TodoDaemon/.build/debug/todod unless it was built into another scratch path)
# Prints one line per check and closes with "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/check.sh"
cd "$(dirname "$0")/../.."
todod=${1:-Examples/TodoDaemon/.build/debug/todod}
scenarioctl=.build/debug/scenarioctl

directory=$(mktemp -d /tmp/todod-XXXX)
socket=$directory/control.sock
"$todod" --scenarios Examples/TodoDaemon/scenarios --scenario todo-due-soon --socket "$socket" \
    --state-directory "$directory/state" --log-target stderr --exit-with-parent 2>"$directory/todod.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$directory"' EXIT
for _ in $(seq 3000); do [ -S "$socket" ] && break; sleep 0.01; done
ctl() { "$scenarioctl" --socket "$socket" "$@"; }

check "todod starts on its own scenario and scenarioctl reads its state" \
    sh -c "'$scenarioctl' state --socket '$socket' | grep -q '\"todo-1\"'"
check "scenarioctl status names todod and its version" sh -c "'$scenarioctl' status --socket '$socket' | grep -q '^todod 1.0.0 at'"
check "an action through scenarioctl creates the next item" \
    sh -c "'$scenarioctl' do add title=Rehearse dueInMinutes=20 --socket '$socket' | grep -q '\"todo-3\"'"
check "the clock moved through scenarioctl makes an item overdue" \
    sh -c "'$scenarioctl' clock advance 6m --socket '$socket' >/dev/null && '$scenarioctl' state --json --socket '$socket' | python3 -c 'import json,sys; s=json.load(sys.stdin); assert [i[\"isOverdue\"] for i in s[\"items\"]] == [True, False, False], s'"
check "the journal shows the POST and the route that answered" \
    sh -c "'$scenarioctl' requests --socket '$socket' | grep -q create-item"
check "scenarioctl service lists todod's own notifications service as fake" \
    sh -c "'$scenarioctl' service --socket '$socket' | grep -q '^notifications *fake'"
check "the overdue item was notified into the fake inbox" \
    sh -c "'$scenarioctl' service show notifications --socket '$socket' | grep -q 'Write the demo script'"
check "scenarioctl service set replaces the inbox, and a wrong value is refused naming the field" \
    sh -c "'$scenarioctl' service set notifications '{\"permission\": \"denied\", \"delivered\": []}' --socket '$socket' | grep -q denied && '$scenarioctl' service set notifications '{\"permission\": \"maybe\"}' --socket '$socket' 2>&1 | grep -q 'notifications.permission'"
check "todod logged that it is ready, with its socket" sh -c "grep -q 'ready: Scenario todo-due-soon' '$directory/todod.log'"
check "todod --check accepts its own scenarios" "$todod" --check --scenarios Examples/TodoDaemon/scenarios
check "todod --check rejects an unknown Model with file:line:column" \
    sh -c "! '$todod' --check --scenarios Examples/TodoDaemon/Tests/bad-scenarios/unknown-model > '$directory/check.out'; grep -q 'unknown-model/scenario.yaml:2:8: unknown model .TodoLst.. Did you mean .TodoList.' '$directory/check.out'"
check "todod --check reports both problems of a notifications section with file:line:column, in words" \
    sh -c "! '$todod' --check --scenarios Examples/TodoDaemon/Tests/bad-scenarios/bad-notifications > '$directory/check.out'; grep -q \"bad-notifications/scenario.yaml:4:3: notifications.permission must be one of 'granted', 'denied', got 'maybe'.\" '$directory/check.out' && grep -q \"bad-notifications/scenario.yaml:5:3: unknown key 'delivred' in notifications. Did you mean 'delivered'?\" '$directory/check.out'"
check "todod --print-schema has the notifications section to full depth: the enum, the list's items, defaults" \
    sh -c "'$todod' --print-schema | python3 -c 'import json,sys; n=json.load(sys.stdin)[\"properties\"][\"notifications\"][\"properties\"]; assert n[\"permission\"] == {\"enum\": [\"granted\", \"denied\"], \"default\": \"granted\"}, n; assert set(n[\"delivered\"][\"items\"][\"properties\"]) == {\"title\", \"body\", \"at\"}, n; assert n[\"delivered\"][\"items\"][\"properties\"][\"at\"][\"format\"] == \"date-time\"'"
check "scenarioctl validate --daemon todod checks with todod's Models" \
    "$scenarioctl" validate --daemon "$todod" Examples/TodoDaemon/scenarios
check "scenarioctl validate --daemon todod finds todod on PATH, as a shell does" \
    sh -c "PATH=\"$PWD/$(dirname "$todod"):\$PATH\" '$scenarioctl' validate --daemon todod Examples/TodoDaemon/scenarios"
check "scenarioctl validate with scenariod refuses todod's scenarios (it does not host TodoList)" \
    sh -c "! '$scenarioctl' validate Examples/TodoDaemon/scenarios >/dev/null"
check "todod --print-schema names TodoList only" \
    sh -c "'$todod' --print-schema | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s[\"properties\"][\"model\"][\"enum\"] == [\"TodoList\"], s[\"properties\"][\"model\"]'"
check "todod --help is todod's" sh -c "'$todod' --help | grep -q 'USAGE: todod'"

kill -TERM $daemon; wait $daemon; status=$?
check "SIGTERM drains and exits 0" test "$status" = 0
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
