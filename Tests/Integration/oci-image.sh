#!/usr/bin/env bash
# A team's daemon as an OCI image, run as test farms run it: Examples/TodoDaemon's todod image (made by the
# package-daemon plugin) started with podman, its socket in a host directory mounted as the volume, driven from
# outside with scenarioctl; then the example Kubernetes manifest (deploy/kubernetes) played with podman kube play.
# Usage: Tests/Integration/oci-image.sh PATH/TO/todod_VERSION.oci.tar
# Prints one line per check and closes with "N passed, N failed". Removes every container, pod and image it made.
set -uo pipefail
source "$(dirname "$0")/check.sh"
cd "$(dirname "$0")/../.."
archive=$(realpath "$1")
scenarioctl=.build/debug/scenarioctl
work=$(mktemp -d /tmp/todod-oci-XXXX)
# podman here runs containers only with runc and the limits the sandbox allows (docs/running-in-containers.md).
cat > "$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF=$work/containers.conf
container=todod-oci-test-$$
image=$(podman load --quiet --input "$archive" 2>&1 | sed -n 's/^Loaded image: //p' | tail -1)
cleanup() {
    podman kube down deploy/kubernetes/todod-sidecar.yaml >/dev/null 2>&1
    podman volume rm --force control state >/dev/null 2>&1
    podman rm --force --time 0 "$container" >/dev/null 2>&1
    [ -n "$image" ] && podman rmi --force "$image" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
check "the archive loads as an image ($image)" test -n "$image"
size=$(podman image inspect --format '{{.Size}}' "$image" 2>/dev/null)
echo "     image size: $((size / 1024 / 1024)) MiB"

# --- run it with a host directory as the socket volume ------------------------------------------------------------
socket_dir=$work/run
mkdir -m 0777 "$socket_dir"
check "podman run the image on todo-due-soon, no network" \
    podman run --detach --name "$container" --network=none -v "$socket_dir:/run/todod" "$image" --scenario todo-due-soon
ctl() { "$scenarioctl" "$@" --socket "$socket_dir/control.sock"; }
check "scenarioctl wait sees it answer through the mounted socket" ctl wait --up-to 30s
check "scenarioctl status names todod" sh -c "'$scenarioctl' status --socket '$socket_dir/control.sock' | grep -q '^todod 1.0.0 at'"
check "an action through the socket creates the next item" \
    sh -c "'$scenarioctl' do add title=Ship dueInMinutes=5 --socket '$socket_dir/control.sock' | grep -q todo-3"
check "a new session of another scenario, from outside" ctl session new todo-notifications-off --id off
check "the clock moves and the team's fake service reports the refusal" \
    sh -c "'$scenarioctl' clock advance 6m --session off --socket '$socket_dir/control.sock' >/dev/null && '$scenarioctl' state --session off --socket '$socket_dir/control.sock' | grep -q 'Notifications are off'"
pid=$(podman inspect --format '{{.State.Pid}}' "$container")
check "the daemon runs as a user of its own, not root (uid $(stat -c %u /proc/"$pid" 2>/dev/null))" \
    sh -c "test \"\$(stat -c %u /proc/$pid)\" = 65532"
check "the image holds nothing but the daemon, scenarioctl, what they link and the scenarios" \
    sh -c "! podman run --rm --entrypoint /bin/sh '$image' -c true >/dev/null 2>&1"
podman stop --time 30 "$container" >/dev/null
check "podman stop drains it and it exits 0" test "$(podman inspect --format '{{.State.ExitCode}}' "$container")" = 0

# --- the example manifest, played ---------------------------------------------------------------------------------
# podman makes an emptyDir a volume owned by root; created first, owned by the daemon's user, it is used as is.
for volume in control state; do
    podman volume rm --force "$volume" >/dev/null 2>&1
    podman volume create --opt type=tmpfs --opt device=tmpfs --opt o=uid=65532,gid=65532,mode=0770 "$volume" >/dev/null
done
check "podman kube play deploy/kubernetes/todod-sidecar.yaml" podman kube play --quiet deploy/kubernetes/todod-sidecar.yaml
waited=""
for _ in $(seq 300); do
    waited=$(podman inspect --format '{{.State.Status}} {{.State.ExitCode}}' todod-tests-tests 2>/dev/null)
    [ "${waited%% *}" = exited ] && break
    sleep 0.1
done
check "the test container reached the sidecar through the shared emptyDir socket (tests: $waited)" test "$waited" = "exited 0"
check "its log shows the daemon's status line" sh -c "podman logs todod-tests-tests 2>&1 | grep -q '^todod 1.0.0 at /run/todod/control.sock: ok'"
check "the sidecar's readiness probe command answers inside it" \
    podman exec todod-tests-todod /usr/bin/scenarioctl status --socket /run/todod/control.sock --timeout 2s

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
