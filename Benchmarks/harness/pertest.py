"""A test's whole overhead over the socket: create a session of offline-demo, perform one action, read the state,
delete the session, from clients that keep their connections (pertest.c), beside nginx answering the same four
requests from files of the same bytes (the floor for four round trips)."""
import json
import pathlib
import subprocess

import daemon as daemon_module

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
