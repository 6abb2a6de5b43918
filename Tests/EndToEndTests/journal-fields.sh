#!/usr/bin/env bash
# Runs inside `unshare --mount --propagation private`: a private /run (and journal directory) with a hand-started
# systemd-journald, so the daemon logs to a real journal that is not the host's.
# Usage: journal-fields.sh SCENARIOD SCENARIOS_DIR OUT_DIR   (writes OUT_DIR/journal.json)
set -euo pipefail
scenariod=$1 scenarios=$2 out=$3
mount -t tmpfs tmpfs /run
mkdir -p /run/systemd/journal
if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal; fi
/lib/systemd/systemd-journald &
journald=$!
trap 'kill $journald 2>/dev/null || true' EXIT
for _ in $(seq 500); do [ -S /run/systemd/journal/socket ] && break; sleep 0.01; done

socket=$out/j.sock
"$scenariod" --scenarios "$scenarios" --socket "$socket" --log-target journal --state-directory "$out/state" &
daemon=$!
for _ in $(seq 500); do [ -S "$socket" ] && break; sleep 0.01; done
api() { curl --silent --show-error --fail-with-body --unix-socket "$socket" -H 'Content-Type: application/json' "$@"; echo; }
api -X POST http://localhost/v1/sessions -d '{"scenario":"offline","id":"j1"}'
api -X POST http://localhost/v1/sessions -d '{"scenario":"offline-demo","id":"j2"}'
api -X POST http://localhost/v1/sessions/j2/actions/setIsRead -d '{"url":"https://www.cocoawithlove.com/blog/mock-views.html","value":true}'
api -X POST http://localhost/v1/sessions/j2/clock/advance -d '{"by":"15m"}'
kill -TERM $daemon
wait $daemon
journalctl -D /run/log/journal -o json --no-pager SYSLOG_IDENTIFIER=scenariod > "$out/journal.json"
