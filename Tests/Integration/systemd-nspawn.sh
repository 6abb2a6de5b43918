#!/usr/bin/env bash
# The systemd integration test: the .deb installed into a minimal Debian bookworm root, booted for real with
# systemd-nspawn (never systemd against the host's root), and checked from outside with nsenter.
#
# Usage: Tests/Integration/systemd-nspawn.sh PATH/TO/scenariod_VERSION_amd64.deb [PATH/TO/todod_VERSION_amd64.deb]
# The second, a team's daemon packaged by package-daemon (Examples/TodoDaemon's todod), is installed beside
# scenariod's and checked the same way.
# The root is debootstrapped once into $SCENARIOD_TEST_CACHE/bookworm (default /var/cache/scenariod-test) and
# reused while it boots; the container boots it with --volatile=overlay, so the cached root is never changed.
# Everything started is stopped and removed at the end. Prints one line per check and closes with "N passed, N failed".
set -uo pipefail
deb=$(realpath "$1")
team_deb=${2:+$(realpath "$2")}
cache=${SCENARIOD_TEST_CACHE:-/var/cache/scenariod-test}/bookworm
machine=scenariod-test-$$
source "$(dirname "$0")/check.sh"

# --- the root, once, and the boot ------------------------------------------------------------------------------
# The container has no network, so the package's dependencies beyond minbase are included here.
root_has_everything() {
    [ -x "$cache/lib/systemd/systemd" ] && [ -x "$cache/usr/bin/man" ] && [ -x "$cache/usr/bin/curl" ] && ls "$cache"/usr/lib/*/libsqlite3.so.0 "$cache"/usr/lib/*/libcurl.so.4 >/dev/null 2>&1
}
build_root() {
    local mirror
    mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
    echo "building the bookworm root in $cache (about a minute, once per cache)"
    rm -rf "$cache.partial" && mkdir -p "$(dirname "$cache")"
    # debootstrap's root has no absolute paths baked in, so building it aside and renaming it is safe.
    debootstrap --variant=minbase --include=systemd,dbus,procps,man-db,libsqlite3-0,libcurl4,curl bookworm "$cache.partial" "${mirror:-http://deb.debian.org/debian}" >/dev/null \
        && rm -rf "$cache" && mv "$cache.partial" "$cache"
}

# nspawn leaves its (empty) cgroups and state behind on these hosts, and a stale set stops the next boot: remove
# them, innermost first, before booting (after an interrupted run) and after.
remove_nspawn_leftovers() {
    for hierarchy in systemd unified; do
        for group in payload supervisor; do
            [ -d "/sys/fs/cgroup/$hierarchy/$group" ] && find "/sys/fs/cgroup/$hierarchy/$group" -depth -type d -exec rmdir {} + 2>/dev/null
        done
    done
    rm -rf /run/systemd/nspawn
}
nspawn="" leader="" state=""
stop_container() {
    [ -n "$leader" ] && kill -RTMIN+4 "$leader" 2>/dev/null # systemd's "poweroff" signal
    if [ -n "$nspawn" ]; then
        for _ in $(seq 100); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$nspawn" 2>/dev/null; wait "$nspawn" 2>/dev/null
    fi
    nspawn="" leader=""
    remove_nspawn_leftovers
}
cleanup() { stop_container; rm -f "/tmp/$machine.console"; }
trap cleanup EXIT
in_container() { nsenter -t "$leader" -a "$@"; }
boot() { # boots the root; succeeds once its systemd says running (or degraded)
    remove_nspawn_leftovers
    systemd-nspawn -D "$cache" --volatile=overlay --register=no --keep-unit --private-network --machine="$machine" \
        --bind-ro="$deb:/root/scenariod.deb" ${team_deb:+--bind-ro="$team_deb:/root/todod.deb"} -b >/tmp/"$machine".console 2>&1 &
    nspawn=$!
    for _ in $(seq 200); do
        leader=$(ps --ppid "$nspawn" -o pid= | head -1 | tr -d ' ')
        [ -n "$leader" ] && [ "$(readlink /proc/"$leader"/exe 2>/dev/null)" = "/usr/lib/systemd/systemd" -o "$(cat /proc/"$leader"/comm 2>/dev/null)" = systemd ] && break
        sleep 0.05
    done
    state=""
    for _ in $(seq 300); do
        kill -0 "$nspawn" 2>/dev/null || return 1 # the container is gone: it will not boot
        state=$([ -n "$leader" ] && in_container systemctl is-system-running 2>/dev/null)
        case $state in running|degraded) return 0 ;; esac
        sleep 0.1
    done
    return 1
}

# A cached root is trusted only once it boots: one that does not is rebuilt and booted again.
built=false
if ! root_has_everything; then
    build_root || { echo "FAIL debootstrap"; echo "0 passed, 1 failed"; exit 1; }
    built=true
fi
if ! boot && [ "$built" = false ]; then
    echo "the cached root in $cache did not boot (state: ${state:-none}); rebuilding it"
    stop_container
    build_root || { echo "FAIL debootstrap"; echo "0 passed, 1 failed"; exit 1; }
    boot
fi
check "the container booted ($state)" sh -c "case '$state' in running|degraded) true ;; *) false ;; esac"
if [ -z "$leader" ] || ! kill -0 "$leader" 2>/dev/null; then
    echo "     systemd-nspawn said:"; tail -20 "/tmp/$machine.console" | sed 's/^/     /'
    echo "$passed passed, $((failed + 1)) failed"; exit 1
fi

# --- install ---------------------------------------------------------------------------------------------------
check "apt-get install ./scenariod.deb" in_container sh -c 'cd /root && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./scenariod.deb'
check "the scenariod group exists" in_container getent group scenariod

# --- start, status, scenarioctl --------------------------------------------------------------------------------
check "systemctl start scenariod@offline-demo" in_container systemctl start scenariod@offline-demo
check "it is active" in_container systemctl is-active --quiet scenariod@offline-demo
status=$(in_container systemctl status scenariod@offline-demo --no-pager 2>&1)
check "Status: shows the daemon's STATUS line" grep -q 'Status: "Scenario offline-demo; 1 session' <<<"$status"
check "scenarioctl reads the demo's state through /run/scenariod/offline-demo" \
    sh -c "nsenter -t $leader -a scenarioctl state --instance offline-demo | grep -q 'Testing actors in Swift'"
owner=$(in_container stat -c '%a %U %G' /run/scenariod/offline-demo/control.sock)
check "started directly, its socket still comes from the socket unit: 0660 root scenariod ($owner)" test "$owner" = "660 root scenariod"

# --- a session endpoint: a socket in the unit's runtime directory, reached by curl as an app would ----------------
endpoint=/run/scenariod/offline-demo/sessions/endpoints/web.sock
check "scenarioctl session new --endpoint socket" in_container scenarioctl session new offline-demo --id web --endpoint socket --instance offline-demo
endpoint_owner=$(in_container stat -c '%a %G' "$endpoint")
check "its socket is $endpoint, 0660 group scenariod ($endpoint_owner)" test "$endpoint_owner" = "660 scenariod"
check "curl reaches the session's routes through it" \
    sh -c "nsenter -t $leader -a curl -sf --unix-socket $endpoint http://localhost/feed.json | grep -q 'Testing actors in Swift'"
check "the journal marks the request as sent from outside" \
    sh -c "nsenter -t $leader -a scenarioctl requests --session web --instance offline-demo | grep -q 'sent from outside'"
check "deleting the session removes its socket" \
    sh -c "nsenter -t $leader -a scenarioctl session rm web --instance offline-demo && ! nsenter -t $leader -a test -e $endpoint"

# --- network isolation -----------------------------------------------------------------------------------------
# PIDs from systemctl are the container's own, so the namespace checks run inside it.
netns() { in_container readlink "/proc/$1/ns/net"; }
pid=$(in_container systemctl show -p MainPID --value scenariod@offline-demo)
routes=$(in_container nsenter -t "$pid" -n cat /proc/net/route) || routes="(nsenter failed)"
links=$(in_container nsenter -t "$pid" -n cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' ')
check "the service runs (main PID $pid in the container)" test "${pid:-0}" != 0
check "PrivateNetwork: no route out of the service's namespace" test "$(printf '%s\n' "$routes" | tail -n +2)" = "" -a "$routes" != "(nsenter failed)"
check "PrivateNetwork: only loopback in it ($(echo $links))" test "$(echo $links)" = lo
check "the fake instance has a network namespace of its own" test "$(netns "$pid")" != "$(netns 1)"
# The shipped live scenario (the container itself has no way out, so its feed request fails: never the internet).
check "systemctl start scenariod@live" in_container systemctl start scenariod@live
live_pid=$(in_container systemctl show -p MainPID --value scenariod@live)
check "the live instance shares the container's network through its drop-in" test "${live_pid:-0}" != 0 -a "$(netns "$live_pid")" = "$(netns 1)"

# --- durable key-value state under StateDirectory= --------------------------------------------------------------
check "scenarioctl kv set on the live instance (a durable store)" in_container scenarioctl kv set note '"kept"' --instance live
in_container systemctl restart scenariod@live
check "the value survives a restart of the service" \
    sh -c "nsenter -t $leader -a scenarioctl kv get note --instance live | grep -q kept"
check "the store is a SQLite file in the service's state directory" in_container test -s /var/lib/private/scenariod/stores/live.sqlite
in_container systemctl stop scenariod@live.socket scenariod@live

# --- journal fields --------------------------------------------------------------------------------------------
in_container scenarioctl do reload --instance offline-demo >/dev/null
fields=$(in_container journalctl -u scenariod@offline-demo SESSION=default -o json --no-pager)
has() { grep -q "$1" <<<"$fields" || { echo "no $1 in the session's entries"; return 1; }; }
structured_fields() {
    has '"SCENARIO":"offline-demo"' && has '"ACTION":"reload"' && has '"ROUTE":"feed"' && has '"MODEL":"FeedReader"' \
        && has '"HTTP_URL":"https://www.cocoawithlove.com/feed.json"' && has '"CODE_FILE":'
}
check "journalctl -u scenariod@offline-demo SESSION=default shows the fields" structured_fields
audited() {
    local entries
    entries=$(in_container journalctl -u scenariod@offline-demo PEER_UID=0 -o json --no-pager)
    grep -q '"PEER_PID":' <<<"$entries" && grep -q 'actions/reload by uid 0' <<<"$entries" || { echo "no audit entry: $entries" | head -c 600; return 1; }
}
check "a change is audited with the caller's uid and pid (PEER_UID=0, PEER_PID)" audited


# --- reload ----------------------------------------------------------------------------------------------------
in_container sh -c 'mkdir -p /etc/scenariod/scenarios/offline-demo && printf "description: Reloaded by the test.\nextends: first-launch\n" > /etc/scenariod/scenarios/offline-demo/scenario.yaml'
in_container systemctl reload scenariod@offline-demo
reloaded=false
for _ in $(seq 100); do
    in_container scenarioctl scenario show offline-demo --instance offline-demo 2>/dev/null | grep -q "Reloaded by the test" && { reloaded=true; break; }
    sleep 0.1
done
check "systemctl reload re-reads the scenarios" $reloaded

# --- graceful stop ---------------------------------------------------------------------------------------------
check "systemctl stop scenariod@offline-demo" in_container systemctl stop scenariod@offline-demo
check "it exited 0" test "$(in_container systemctl show -p ExecMainStatus --value scenariod@offline-demo)" = 0
check "the journal shows it stopping" sh -c "nsenter -t $leader -a journalctl -u scenariod@offline-demo --no-pager | grep -q 'stopping: finishing requests in flight'"

# --- socket activation -----------------------------------------------------------------------------------------
check "systemctl start scenariod@offline-demo.socket" in_container systemctl start scenariod@offline-demo.socket
check "the service is not running before the first call" sh -c "! nsenter -t $leader -a systemctl is-active --quiet scenariod@offline-demo.service"
check "the first scenarioctl call starts the service and gets an answer" \
    sh -c "nsenter -t $leader -a scenarioctl status --instance offline-demo | grep -q 'scenarios: [0-9][0-9]* valid'"
check "the service is active after it" in_container systemctl is-active --quiet scenariod@offline-demo.service
# The packaged binary links the Swift runtime statically: its check at start tried every part of task ownership.
check "the packaged scenariod owns its Models' tasks (its check at start: complete)" \
    sh -c "nsenter -t $leader -a scenarioctl status --instance offline-demo | grep -q '^      tasks: owned, complete$'"
# And a Model's timer runs on the session's clock in it: the feed's 15-minute refresh is a second request, made
# (and journaled) before the clock move answers.
check "a 15-minute clock move runs the feed's timer in the packaged binary: a second request, at 09:15" \
    sh -c "nsenter -t $leader -a scenarioctl clock advance 15m --instance offline-demo >/dev/null \
        && nsenter -t $leader -a scenarioctl requests --instance offline-demo | grep -q '^2  2026-11-01T09:15:00Z  GET'"
socket_mode=$(in_container stat -c '%a %G' /run/scenariod/offline-demo/control.sock)
check "the socket is 0660, group scenariod ($socket_mode)" test "$socket_mode" = "660 scenariod"

# --- watchdog --------------------------------------------------------------------------------------------------
in_container sh -c 'mkdir -p /etc/systemd/system/scenariod@offline-demo.service.d && printf "[Service]\nWatchdogSec=2s\n" > /etc/systemd/system/scenariod@offline-demo.service.d/watchdog.conf && systemctl daemon-reload && systemctl restart scenariod@offline-demo.service'
old_pid=$(in_container systemctl show -p MainPID --value scenariod@offline-demo)
# Never "kill -STOP 0": that would stop this script's own process group.
if [ "${old_pid:-0}" -gt 0 ]; then in_container kill -STOP "$old_pid"; fi
restarted=false
for _ in $(seq 150); do
    new_pid=$(in_container systemctl show -p MainPID --value scenariod@offline-demo)
    if [ "$new_pid" != "$old_pid" ] && [ "$new_pid" != 0 ] && in_container systemctl is-active --quiet scenariod@offline-demo; then restarted=true; break; fi
    sleep 0.1
done
check "a daemon stopped with SIGSTOP is restarted after WatchdogSec" $restarted
check "the journal says why" sh -c "nsenter -t $leader -a journalctl -u scenariod@offline-demo --no-pager | grep -qi 'watchdog timeout'"

# --- units -----------------------------------------------------------------------------------------------------
verify=$(in_container systemd-analyze verify /lib/systemd/system/scenariod@.service /lib/systemd/system/scenariod@.socket 2>&1)
check "systemd-analyze verify prints nothing" test -z "$verify"
[ -n "$verify" ] && echo "$verify" | sed 's/^/     /'
security=$(in_container systemd-analyze security scenariod@offline-demo.service 2>&1 | grep 'Overall exposure level')
echo "     $security"
exposure=$(sed -E 's/.*: ([0-9.]+) .*/\1/' <<<"$security")
check "systemd-analyze security rates it SAFE, exposure $exposure <= 1.0" \
    sh -c "echo '$security' | grep -q SAFE && awk 'BEGIN { exit !($exposure <= 1.0) }'"

# --- a team's daemon, packaged by package-daemon, beside scenariod -------------------------------------------------
if [ -n "$team_deb" ]; then
    check "apt-get install ./todod.deb beside scenariod" in_container sh -c 'cd /root && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./todod.deb'
    check "the todod group exists" in_container getent group todod
    check "systemctl start todod@todo-due-soon" in_container systemctl start todod@todo-due-soon
    check "it is active" in_container systemctl is-active --quiet todod@todo-due-soon
    check "scenarioctl reaches it through /run/todod/todo-due-soon/control.sock" \
        sh -c "nsenter -t $leader -a scenarioctl status --socket /run/todod/todo-due-soon/control.sock | grep -q '^todod 1.0.0 at'"
    check "the team's packaged todod owns its Models' tasks (its check at start: complete)" \
        sh -c "nsenter -t $leader -a scenarioctl status --socket /run/todod/todo-due-soon/control.sock | grep -q '^      tasks: owned, complete$'"
    # The team's Model looks at its clock every minute in a run loop of its own: a move past todo-1's 09:05 must
    # find it overdue when the move answers, in the binary the plugin linked.
    todo_socket=/run/todod/todo-due-soon/control.sock
    check "todod's run loop on the session's clock: nothing overdue at 09:00, todo-1 overdue after a 6-minute move" \
        sh -c "! nsenter -t $leader -a scenarioctl state --socket $todo_socket | grep -q '\"isOverdue\" : true' \
            && nsenter -t $leader -a scenarioctl clock advance 6m --socket $todo_socket >/dev/null \
            && nsenter -t $leader -a scenarioctl state --socket $todo_socket | grep -q '\"isOverdue\" : true'"
    check "an action through the socket, and the team's service through the API" \
        sh -c "nsenter -t $leader -a scenarioctl do add title=Ship dueInMinutes=5 --socket /run/todod/todo-due-soon/control.sock | grep -q todo-3 && nsenter -t $leader -a scenarioctl service --socket /run/todod/todo-due-soon/control.sock | grep -q '^notifications *fake'"
    team_fields=$(in_container journalctl -u todod@todo-due-soon SYSLOG_IDENTIFIER=todod -o json --no-pager)
    team_journal() { grep -q '"SCENARIO":"todo-due-soon"' <<<"$team_fields" && grep -q '"MODEL":"TodoList"' <<<"$team_fields"; }
    check "its journal entries carry SYSLOG_IDENTIFIER=todod, its scenario and its Model" team_journal
    check "its man page is installed" in_container test -s /usr/share/man/man8/todod.8.gz
    # Both packages carry scenarioctl and offer it through update-alternatives (scripts/package-daemon): no file
    # conflict, and either one alone is complete.
    offered=$(in_container update-alternatives --list scenarioctl 2>&1 | sort | xargs)
    check "both packages offer scenarioctl ($offered)" test "$offered" = "/usr/lib/scenariod/scenarioctl /usr/lib/todod/scenarioctl"
    team_verify=$(in_container systemd-analyze verify /lib/systemd/system/todod@.service /lib/systemd/system/todod@.socket 2>&1)
    check "systemd-analyze verify of todod's units prints nothing" test -z "$team_verify"
    [ -n "$team_verify" ] && echo "$team_verify" | sed 's/^/     /'
    team_security=$(in_container systemd-analyze security todod@todo-due-soon.service 2>&1 | grep 'Overall exposure level')
    echo "     $team_security"
    team_exposure=$(sed -E 's/.*: ([0-9.]+) .*/\1/' <<<"$team_security")
    check "systemd-analyze security rates todod SAFE, exposure $team_exposure <= 1.0" \
        sh -c "echo '$team_security' | grep -q SAFE && awk 'BEGIN { exit !($team_exposure <= 1.0) }'"
    check "systemctl stop todod@todo-due-soon exits 0" \
        sh -c "nsenter -t $leader -a systemctl stop todod@todo-due-soon && test \"\$(nsenter -t $leader -a systemctl show -p ExecMainStatus --value todod@todo-due-soon)\" = 0"

    # --- the team's package alone: scenariod removed, scenarioctl and its pages are todod's -----------------------
    check "apt-get remove scenariod" in_container sh -c 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq scenariod'
    check "scenarioctl is now todod's copy" test "$(in_container readlink -f /usr/bin/scenarioctl)" = /usr/lib/todod/scenarioctl
    check "scenarioctl reaches todod through the socket unit" \
        sh -c "nsenter -t $leader -a systemctl start todod@todo-due-soon.socket && nsenter -t $leader -a scenarioctl status --socket /run/todod/todo-due-soon/control.sock | grep -q '^todod 1.0.0 at'"
    pages() {
        local page path
        for page in "1 scenarioctl" "5 scenariod.scenario"; do
            path=$(in_container man -w $page) && [ "$(in_container readlink -f "$path")" = "/usr/share/todod/scenarioctl/${path##*/}" ] \
                || { echo "man -w $page: '$path' is not todod's copy"; return 1; }
        done
    }
    check "man finds scenarioctl(1) and scenariod.scenario(5), todod's copies" pages
    check "the bash completion follows" test "$(in_container readlink -f /usr/share/bash-completion/completions/scenarioctl)" = /usr/share/todod/scenarioctl/scenarioctl.bash
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
