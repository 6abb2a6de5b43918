#!/usr/bin/env bash
# Runs inside `unshare --mount --propagation private`: lays the built scenariod over /usr/bin (an overlay seen
# only in this namespace) so `systemd-analyze verify` can check the shipped units exactly as written.
# Usage: verify-units.sh BIN_DIR UNIT...     Prints what verify prints; the caller fails on any output.
set -euo pipefail
bin=$1; shift
extra=$(mktemp -d)
trap 'rm -rf "$extra"' EXIT
cp "$bin/scenariod" "$extra/"
mount -t overlay overlay -o "lowerdir=$extra:/usr/bin" /usr/bin
# Man pages are not installed on the test machine; their references are checked by the man page tests.
systemd-analyze verify --man=no "$@" 2>&1
