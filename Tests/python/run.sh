#!/usr/bin/env bash
# Runs the Python suite in parallel (pytest-xdist) against one scenariod shared by every worker.
# Usage: Tests/python/run.sh [SCENARIOD_BINARY]
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$repository/.build/debug/scenariod}
directory=$(mktemp -d /tmp/scenariod-pytest-XXXX)
# The daemon logs to a file, shown only when a test fails, so pytest's output stays readable.
"$binary" --scenarios "$repository/scenarios" --socket "$directory/control.sock" --log-target stderr --log-level warning \
    --state-directory "$directory/state" 2>"$directory/scenariod.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$directory"' EXIT
for _ in $(seq 3000); do [ -S "$directory/control.sock" ] && break; sleep 0.01; done
SCENARIOD_SOCKET=$directory/control.sock /usr/bin/python3 -m pytest -n 4 -p no:cacheprovider "$repository/Tests/python" \
    || { echo "scenariod's log:"; cat "$directory/scenariod.log"; exit 1; }
