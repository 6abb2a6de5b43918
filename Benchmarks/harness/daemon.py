"""The release scenariod as a process on a socket of the harness's, and the reads the harness makes of it."""
import http.client
import json
import os
import pathlib
import signal
import socket
import subprocess
import time

import processes


class UnixHTTPConnection(http.client.HTTPConnection):
    """http.client over a Unix socket: keep-alive, standard library only."""

    def __init__(self, path, timeout=30):
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def call(connection, method, path, body=None, expect=200):
    """One request on a keep-alive connection; the decoded JSON answer."""
    payload = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if payload is not None else {}
    connection.request(method, path, body=payload, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status != expect:
        raise RuntimeError(f"{method} {path} answered {response.status}, expected {expect}: {data[:400]!r}")
    return json.loads(data) if data else None


def resident_bytes(pid):
    """VmRSS of `pid`, in bytes."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


class Daemon:
    """`binary` on `directory`/control.sock with the shipped scenarios and a default session of `scenario`."""

    def __init__(self, binary, repository: pathlib.Path, directory: pathlib.Path, scenario="offline-demo", extra=()):
        directory.mkdir(parents=True, exist_ok=True)
        self.socket = str(directory / "control.sock")
        self.log_path = directory / "scenariod.log"
        self.command = [binary, "--scenarios", str(repository / "scenarios"), *extra, "--scenario", scenario,
                        "--socket", self.socket, "--state-directory", str(directory / "state"), "--log-target", "stderr"]
        self.process = None

    def start(self):
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while True:
            try:
                call(UnixHTTPConnection(self.socket, timeout=2), "GET", "/v1/health")
                return self
            except (OSError, http.client.HTTPException):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"scenariod did not answer:\n{self.log_path.read_text()}")
                time.sleep(0.01)

    def connection(self):
        return UnixHTTPConnection(self.socket)

    def stop(self):
        if self.process and not processes.stop(self.process, signal.SIGTERM):
            raise RuntimeError("scenariod did not stop within 30 s of SIGTERM")
