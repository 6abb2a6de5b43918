"""Resident bytes per idle session of one binary, for an A/B of two builds in one sitting:
`python3 Benchmarks/harness/session_memory.py BINARY SCENARIOS [COUNT]` starts the daemon on a socket in a temporary
directory, opens COUNT (default 3,000) sessions of offline-demo over it and prints the growth of its VmRSS per session.
"""
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


class UnixHTTP(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost")
        self.socket_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(self.socket_path)


def resident(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))


def main():
    binary, scenarios = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 3_000
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "control.sock")
        daemon = subprocess.Popen([binary, "--scenarios", scenarios, "--socket", path, "--log-level", "error"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while not os.path.exists(path) and time.monotonic() < deadline:
                time.sleep(0.05)
            connection = UnixHTTP(path)

            def open_session():
                connection.request("POST", "/v1/sessions", body=json.dumps({"scenario": "offline-demo"}),
                                   headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                if response.status != 201:
                    raise RuntimeError(f"POST /v1/sessions answered {response.status}")

            open_session()
            time.sleep(0.5)
            before = resident(daemon.pid)
            for _ in range(count):
                open_session()
            time.sleep(1.0)
            print(f"{binary}: {(resident(daemon.pid) - before) / count / 1024:.1f} KiB per idle session")
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


if __name__ == "__main__":
    main()
