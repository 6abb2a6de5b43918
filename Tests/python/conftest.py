"""pytest fixtures for testing against scenariod: one daemon for the run, one isolated session per test.

Nothing here is Swift-specific: the control API is HTTP+JSON on a Unix socket, and httpx speaks that directly.
Set SCENARIOD_SOCKET to use a running daemon (run.sh starts one shared by every xdist worker); otherwise a
private daemon is started from SCENARIOD_BINARY or the repository's debug build.
"""
import os
import pathlib
import subprocess
import tempfile
import time
import uuid

import httpx
import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


class ScenarioSession:
    """One session of a scenario: actions, state, clock and journal."""

    def __init__(self, http: httpx.Client, session_id: str):
        self.http = http
        self.id = session_id

    def _call(self, method, path, **kwargs):
        response = self.http.request(method, f"/v1/sessions/{self.id}{path}", **kwargs)
        if response.status_code >= 400:
            error = response.json()
            raise AssertionError(f"{method} {path} → {response.status_code} {error['code']}: {error['message']}")
        return response.json() if response.content else None

    def perform(self, action, **arguments):
        """Performs an action; returns the Model's state once it has settled."""
        return self._call("POST", f"/actions/{action}", json=arguments)

    def state(self):
        return self._call("GET", "/state")

    def advance(self, duration):
        """Moves the clock forward ("2s", "15m"); what falls due has run when this returns."""
        return self._call("POST", "/clock/advance", json={"by": duration})["now"]

    def requests(self):
        return self._call("GET", "/journal")["entries"]

    def history(self):
        """What the test did, step by step: step 0 is the start, then each action, clock move, edit…"""
        return self._call("GET", "/history")["steps"]

    def save(self, name):
        """Saves the session as a new scenario `name` that starts where it stands; returns the scenario's name."""
        return self._call("POST", "/save", json={"name": name})["scenario"]

    def rewind(self, step):
        """Returns the session to the moment after `step` (0: its start); returns the Model's state."""
        return self._call("POST", "/rewind", json={"step": step})

    def set_route(self, name, route):
        """Adds route `name`, or replaces the session's route of that name; a reset undoes it."""
        self._call("PUT", f"/routes/{name}", json=route)

    def remove_route(self, name):
        self._call("DELETE", f"/routes/{name}")

    def set_network_conditions(self, **conditions):
        """Switches the session's network: offline=True, fault="timeout" or delay="2s"; no arguments switch it back."""
        return self._call("PUT", "/network/conditions", json=conditions)

    def expect_requests(self, route, times):
        """Fails unless route `route` answered exactly `times` requests (the daemon counts them as they arrive)."""
        counts = self._call("GET", "/journal/counts")
        if route not in counts["routes"]:
            raise AssertionError(f"the scenario has no route '{route}'; its routes are {', '.join(sorted(counts['routes']))}")
        answered = counts["routes"][route]
        if answered != times:
            made = [f"  #{e['sequence']} {e['method']} {e['url']}" for e in self.requests() if e.get("route") == route]
            raise AssertionError("\n".join([f"route '{route}' answered {answered} requests, not {times}", *made]))

    def assert_no_unmatched_requests(self):
        """Fails with each unmatched request's closest routes and the first field that differed."""
        unmatched = self._call("GET", "/journal/unmatched")["entries"]
        if unmatched:
            lines = []
            for entry in unmatched:
                lines.append(f"{entry['method']} {entry['url']} matched no route")
                for miss in entry.get("nearMisses", []):
                    lines.append(f"  closest route '{miss['route']}' differs in {miss['field']}: "
                                 f"expected {miss['expected']}, got {miss['actual']}")
            raise AssertionError("\n".join(lines))


@pytest.fixture(scope="session")
def scenariod_socket():
    socket = os.environ.get("SCENARIOD_SOCKET")
    if socket:
        yield socket
        return
    binary = os.environ.get("SCENARIOD_BINARY", str(REPOSITORY / ".build/debug/scenariod"))
    with tempfile.TemporaryDirectory(prefix="scenariod-py-") as directory:
        socket = os.path.join(directory, "control.sock")
        daemon = subprocess.Popen([binary, "--scenarios", str(REPOSITORY / "scenarios"), "--socket", socket,
                                   "--log-target", "stderr", "--log-level", "warning",
                                   "--state-directory", os.path.join(directory, "state")])
        for _ in range(3000):
            if os.path.exists(socket) or daemon.poll() is not None:
                break
            time.sleep(0.01)
        assert os.path.exists(socket), f"scenariod did not start (exit status {daemon.poll()})"
        yield socket
        daemon.terminate()
        daemon.wait(timeout=30)


@pytest.fixture
def scenario(scenariod_socket):
    """Opens a session of the named scenario for this test; deletes it afterwards."""
    http = httpx.Client(transport=httpx.HTTPTransport(uds=scenariod_socket), base_url="http://scenariod", timeout=30)
    opened = []

    def open_session(name, overrides=None):
        """overrides: scenario sections for this session only, e.g. {"network": {"routes": [...]}}."""
        session_id = f"py-{name}-{uuid.uuid4().hex[:8]}"
        body = {"scenario": name, "id": session_id, **({"overrides": overrides} if overrides is not None else {})}
        response = http.post("/v1/sessions", json=body)
        assert response.status_code == 201, response.text
        opened.append(session_id)
        return ScenarioSession(http, session_id)

    yield open_session
    for session_id in opened:
        http.delete(f"/v1/sessions/{session_id}")
    http.close()
