#!/usr/bin/env bash
# A team's daemon as an OCI image, run as test farms run it: Examples/TodoDaemon's todod image (made by the
# package-daemon plugin) started with podman, its socket in a host directory mounted as the volume, driven from
# outside with scenarioctl; its state in a named volume that outlives the container (a saved session is there
# for the next one); then the example Kubernetes manifest (deploy/kubernetes) played with podman kube play.
# Usage: Tests/Integration/oci-image.sh PATH/TO/todod_VERSION.oci.tar
# Prints one line per check and closes with "N passed, N failed". Removes every container, pod, volume and image
# it made. Where podman cannot run at all (not installed, or `podman info` fails) it says why and skips.
set -uo pipefail
source "$(dirname "$0")/check.sh"
cd "$(dirname "$0")/../.."
if ! command -v podman >/dev/null; then
    echo "SKIP the image tests: podman is not installed (apt-get install podman runc)"; exit 0
fi
if ! why=$(podman info 2>&1 >/dev/null); then
    echo "SKIP the image tests: podman cannot run here: $(tail -1 <<<"$why")"; exit 0
fi
archive=$(realpath "$1")
scenarioctl=.build/debug/scenarioctl
work=$(mktemp -d /tmp/todod-oci-XXXX)
# podman here runs containers only with runc (crun refuses the host's hybrid cgroup layout) and the limits the
# sandbox allows; without the limits the container exits 126 ("error setting rlimit"). `podman run` takes them as
# flags, exactly as docs/running-in-containers.md writes the line; `podman kube play` has no such flags and reads
# them from a containers.conf.
run_flags=(--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=32768:32768)
cat > "$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
kube() { CONTAINERS_CONF=$work/containers.conf podman kube "$@"; }
container=todod-oci-test-$$
state_volume=todod-oci-state-$$
image=$(podman load --quiet --input "$archive" 2>&1 | sed -n 's/^Loaded image: //p' | tail -1)
cleanup() {
    kube down deploy/kubernetes/todod-sidecar.yaml >/dev/null 2>&1
    podman volume rm --force control state >/dev/null 2>&1
    podman rm --force --time 0 "$container" "$container-state-1" "$container-state-2" >/dev/null 2>&1
    podman volume rm --force "$state_volume" >/dev/null 2>&1
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
    podman run "${run_flags[@]}" --detach --name "$container" --network=none -v "$socket_dir:/run/todod" "$image" --scenario todo-due-soon
ctl() { "$scenarioctl" "$@" --socket "$socket_dir/control.sock"; }
check "scenarioctl wait sees it answer through the mounted socket" ctl wait --up-to 30s
check "scenarioctl status names todod" sh -c "'$scenarioctl' status --socket '$socket_dir/control.sock' | grep -q '^todod 1.0.0 at'"
check "the image's todod owns its Models' tasks (its check at start: complete)" \
    sh -c "'$scenarioctl' status --socket '$socket_dir/control.sock' | grep -q '^      tasks: owned, complete$'"
check "an action through the socket creates the next item" \
    sh -c "'$scenarioctl' do add title=Ship dueInMinutes=5 --socket '$socket_dir/control.sock' | grep -q todo-3"
check "a new session of another scenario, from outside" ctl session new todo-notifications-off --id off
check "the clock moves and the team's fake service reports the refusal" \
    sh -c "'$scenarioctl' clock advance 6m --session off --socket '$socket_dir/control.sock' >/dev/null && '$scenarioctl' state --session off --socket '$socket_dir/control.sock' | grep -q 'Notifications are off'"
pid=$(podman inspect --format '{{.State.Pid}}' "$container")
check "the daemon runs as a user of its own, not root (uid $(stat -c %u /proc/"$pid" 2>/dev/null))" \
    sh -c "test \"\$(stat -c %u /proc/$pid)\" = 65532"
check "the image holds nothing but the daemon, scenarioctl, what they link and the scenarios" \
    sh -c "! podman run ${run_flags[*]} --rm --entrypoint /bin/sh '$image' -c true >/dev/null 2>&1"
podman stop --time 30 "$container" >/dev/null
check "podman stop drains it and it exits 0" test "$(podman inspect --format '{{.State.ExitCode}}' "$container")" = 0

# --- the state directory: a named volume, a saved session, a new container ---------------------------------------
# The daemon saves sessions as scenarios (and keeps durable stores) in /var/lib/todod, which it must own: a new
# named volume takes the ownership of the image's directory.
state_run=$work/state-run
mkdir -m 0777 "$state_run"
podman volume create "$state_volume" >/dev/null
run_with_state() {
    podman run "${run_flags[@]}" --detach --name "$1" --network=none -v "$state_run:/run/todod" \
        -v "$state_volume:/var/lib/todod" "$image" --scenario todo-due-soon
}
sctl() { "$scenarioctl" "$@" --socket "$state_run/control.sock"; }
check "podman run with the named volume $state_volume as the state directory" run_with_state "$container-state-1"
check "it answers" sctl wait --up-to 30s
owner=$(stat -c %u "$(podman volume inspect --format '{{.Mountpoint}}' "$state_volume")")
check "the volume belongs to the daemon's user (uid $owner)" test "$owner" = 65532
check "an action in the default session" sh -c "'$scenarioctl' do add title=Survive dueInMinutes=5 --socket '$state_run/control.sock' | grep -q Survive"
check "scenarioctl session save writes the session into the state directory as 'kept-in-volume'" \
    sctl session save kept-in-volume --description "Saved by oci-image.sh"
podman stop --time 30 "$container-state-1" >/dev/null
podman rm "$container-state-1" >/dev/null
rm -f "$state_run/control.sock"
check "a new container on the same volume" run_with_state "$container-state-2"
check "it answers" sctl wait --up-to 30s
check "GET /v1/scenarios lists the saved scenario" \
    sh -c "curl -sf --unix-socket '$state_run/control.sock' http://localhost/v1/scenarios | jq -e '.. | objects | select(.name? == \"kept-in-volume\")' >/dev/null"
check "a session of it starts where the saved one stood" \
    sh -c "'$scenarioctl' session new kept-in-volume --id back --socket '$state_run/control.sock' >/dev/null && '$scenarioctl' state --session back --socket '$state_run/control.sock' | grep -q Survive"
podman stop --time 30 "$container-state-2" >/dev/null

# --- the example manifest, played ---------------------------------------------------------------------------------
# podman makes each emptyDir a new named volume, which takes the owner of the image's directory it is mounted on:
# nothing to create first (a volume left from an earlier run would be used as it is, so none is).
podman volume rm --force control state >/dev/null 2>&1
check "podman kube play deploy/kubernetes/todod-sidecar.yaml" kube play --quiet deploy/kubernetes/todod-sidecar.yaml
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
volume_owners=$(for volume in control state; do stat -c %u "$(podman volume inspect --format '{{.Mountpoint}}' "$volume")"; done | sort -u | xargs)
check "the emptyDir volumes belong to the daemon's user ($volume_owners)" test "$volume_owners" = 65532

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
