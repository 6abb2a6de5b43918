"""A test's whole overhead over the socket: create a session of offline-demo, perform one action, read the state,
delete the session, from clients that keep their connections (pertest.c), beside nginx answering the same four
requests from files of the same bytes (the floor for four round trips)."""
import json
import pathlib
import subprocess

import daemon as daemon_module
from processes import cpu_seconds

HERE = pathlib.Path(__file__).resolve().parent
SCENARIO, ACTION = "offline-demo", "reload"
STEPS = [("POST", "/v1/sessions", json.dumps({"scenario": SCENARIO, "id": "{id}"})),
         ("POST", f"/v1/sessions/{{id}}/actions/{ACTION}", "{}"),
         ("GET", "/v1/sessions/{id}/state", "-"),
         ("DELETE", "/v1/sessions/{id}", "-")]
# nginx serves a file per step; its error_page turns the 405 a static file answers to POST or DELETE into a GET.
FLOOR_PATHS = ["/floor/create", "/floor/action", "/floor/state", "/floor/delete"]
NGINX_LOCATION = "location /floor/ { error_page 405 =200 $uri; }"


def build(directory: pathlib.Path):
    binary = directory / "pertest-client"
    subprocess.run(["gcc", "-O2", "-pthread", "-o", str(binary), str(HERE / "pertest.c")], check=True)
    return str(binary)


def floor_files(daemon):
    """The bytes scenariod answers each step with, for nginx to serve as files: {path: body}."""
    connection = daemon.connection()
    bodies = []
    for method, path, body in STEPS:
        path = path.replace("{id}", "probe")
        payload = None if body == "-" else body.replace("{id}", "probe").encode()
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json"} if payload else {})
        response = connection.getresponse()
        bodies.append(response.read())
        if response.status >= 300:
            raise RuntimeError(f"{method} {path} answered {response.status}: {bodies[-1][:300]!r}")
    return dict(zip(FLOOR_PATHS, bodies))


class HummingbirdFloor(daemon_module.Daemon):
    """Benchmarks/HummingbirdFloor on a socket of its own: the four steps' answers (`bodies`, as floor_files gives
    them) served from memory by Hummingbird alone, the HTTP stack scenariod is built on. Started and stopped as the
    daemon is (it answers GET /v1/health too)."""

    def __init__(self, binary, directory: pathlib.Path, bodies: dict):
        directory.mkdir(parents=True, exist_ok=True)
        for path in FLOOR_PATHS[:3]:
            (directory / path.rsplit("/", 1)[1]).write_bytes(bodies[path])
        self.socket = str(directory / "floor.sock")
        self.log_path = directory / "floor.log"
        self.command = [binary, self.socket, str(directory)]
        self.process = None


def run(binary, socket_path, clients, seconds, warm_up=1, max_tests=200_000, floor=False):
    """p50/p99 µs per test and tests/s at `clients` concurrent clients; bounded by `seconds` and `max_tests` each."""
    steps = [(method, FLOOR_PATHS[index], body) for index, (method, _, body) in enumerate(STEPS)] if floor else STEPS
    command = [binary, socket_path, str(clients), str(seconds), str(warm_up), str(max_tests)]
    for step in steps:
        command += list(step)
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + warm_up + 60)
    if result.returncode != 0:
        raise RuntimeError(f"pertest failed ({result.returncode}): {result.stderr}")
    return json.loads(result.stdout)


def main():
    """Compares daemon builds' per-test overhead in one sitting: `python3 Benchmarks/harness/pertest.py [--rounds N]
    [--seconds S] BINARY...` starts each release binary on the shipped scenarios in turn, round after round, and
    prints p50/p99 at 1 and 16 clients and the daemon's CPU per test at 1 client."""
    import argparse
    import shutil
    import tempfile
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=4)
    arguments = parser.parse_args()
    repository = HERE.parents[1]
    work = pathlib.Path(tempfile.mkdtemp(prefix="scenariod-pertest-"))
    client = build(work)
    for round_number in range(1, arguments.rounds + 1):
        print(f"round {round_number}:")
        for binary in arguments.binaries:
            directory = work / "daemon"
            shutil.rmtree(directory, ignore_errors=True)
            daemon = daemon_module.Daemon(binary, repository, directory).start()
            try:
                before = cpu_seconds(daemon.process.pid)
                one = run(client, daemon.socket, 1, arguments.seconds, warm_up=0)
                cpu = (cpu_seconds(daemon.process.pid) - before) / one["tests"]
                sixteen = run(client, daemon.socket, 16, arguments.seconds)
            finally:
                daemon.stop()
            print(f"  {binary}: 1 client p50 {one['p50_us']:.0f} us, p99 {one['p99_us']:.0f} us, daemon CPU {cpu * 1e6:.0f} us a test; "
                  f"16 clients p50 {sixteen['p50_us']:.0f} us, {sixteen['tests_per_second']:,.0f} tests/s", flush=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
