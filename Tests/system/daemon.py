"""A scenariod of the test's own: its scenarios (the shipped ones plus the test's), its state directory, its
socket; optionally inside a network namespace with nothing but loopback (`unshare -n`). Or another daemon built on
scenariod's library (FIXTURED, a team's daemon with a service of its own) on the test's scenarios alone."""
import os
import pathlib
import signal
import subprocess
import time

import httpx

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SCENARIOD_BINARY", str(REPOSITORY / ".build/debug/scenariod"))
SCENARIOCTL = os.environ.get("SCENARIOCTL_BINARY", str(pathlib.Path(BINARY).with_name("scenarioctl")))
# Tests/Fixtures/fixtured: Greeter and its `profile` service, which scenariod's Models do not have.
FIXTURED = os.environ.get("FIXTURED_BINARY", str(pathlib.Path(BINARY).with_name("fixtured")))


class Daemon:
    def __init__(self, directory: pathlib.Path, scenarios: dict, arguments=(), no_network=False, binary=BINARY,
                 shipped_scenarios=True):
        self.directory = directory
        self.extra = directory / "scenarios"
        for name, text in scenarios.items():
            (self.extra / name).mkdir(parents=True, exist_ok=True)
            (self.extra / name / "scenario.yaml").write_text(text)
        self.extra.mkdir(parents=True, exist_ok=True)
        self.state_directory = directory / "state"
        self.socket = str(directory / "control.sock")
        self.log_path = directory / "scenariod.log"
        self.binary = binary
        shipped = ["--scenarios", str(REPOSITORY / "scenarios")] if shipped_scenarios else []
        self.arguments = [*shipped, "--scenarios", str(self.extra),
                          "--socket", self.socket, "--state-directory", str(self.state_directory),
                          "--log-target", "stderr", "--log-level", "notice", *arguments]
        self.no_network = no_network
        self.process = None
        self.http = None

    def start(self):
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        command = [self.binary, *self.arguments]
        if self.no_network:
            # A new network namespace: only a loopback interface, and it is down. The Unix socket stays reachable.
            command = ["unshare", "--net", "--", *command]
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not os.path.exists(self.socket):
            assert self.process.poll() is None, f"scenariod exited with {self.process.returncode}:\n{self.log()}"
            assert time.monotonic() < deadline, f"scenariod did not listen within 30 s:\n{self.log()}"
            time.sleep(0.005)
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=self.socket), base_url="http://scenariod", timeout=30)
        return self

    @property
    def pid(self):
        """The daemon's own pid (unshare execs it, so it is the same process)."""
        return self.process.pid

    def log(self):
        return self.log_path.read_text() if self.log_path.exists() else ""

    def call(self, method, path, expect=None, **kwargs):
        response = self.http.request(method, path, **kwargs)
        if expect is not None:
            assert response.status_code == expect, f"{method} {path}: {response.status_code} {response.text}"
        return response

    def session(self, scenario, session_id):
        self.call("POST", "/v1/sessions", expect=201, json={"scenario": scenario, "id": session_id})
        return session_id

    def act(self, session, action, **arguments):
        return self.call("POST", f"/v1/sessions/{session}/actions/{action}", expect=200, json=arguments).json()

    def state(self, session):
        return self.call("GET", f"/v1/sessions/{session}/state", expect=200).json()

    def journal(self, session):
        return self.call("GET", f"/v1/sessions/{session}/journal", expect=200).json()["entries"]

    def stop(self):
        if self.http:
            self.http.close()
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(timeout=30) == 0, self.log()

    def kill(self):
        if self.http:
            self.http.close()
        self.process.kill()
        self.process.wait(timeout=30)


def unix_connections(pid):
    """(Unix-socket connections, open file descriptors) of process `pid`: for `scenarioctl dashboard`, whose only Unix
    sockets are its connections to the daemon."""
    inodes = set()
    descriptors = os.listdir(f"/proc/{pid}/fd")
    for descriptor in descriptors:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{descriptor}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    with open("/proc/net/unix") as table:
        unix = sum(1 for line in table.read().splitlines()[1:] if line.split()[6] in inodes)
    return unix, len(descriptors)


def until(probe, what, seconds=10):
    """probe()'s first truthy value, asked every 50 ms; fails after `seconds` (a bound, not a measurement)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")
