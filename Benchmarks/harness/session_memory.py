"""Resident bytes per idle session of one binary, for an A/B of two builds in one sitting:
`python3 Benchmarks/harness/session_memory.py BINARY SCENARIOS [COUNT]` starts the daemon on a socket in a temporary
directory, opens COUNT (default 3,000) sessions of offline-demo over it and prints the growth of its VmRSS per session.
"""
import os
import subprocess
import sys
import tempfile
import time

from daemon import UnixHTTPConnection, call, resident_bytes


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
            connection = UnixHTTPConnection(path)

            def open_session():
                call(connection, "POST", "/v1/sessions", {"scenario": "offline-demo"}, expect=201)

            open_session()
            time.sleep(0.5)
            before = resident_bytes(daemon.pid)
            for _ in range(count):
                open_session()
            time.sleep(1.0)
            print(f"{binary}: {(resident_bytes(daemon.pid) - before) / count / 1024:.1f} KiB per idle session")
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


if __name__ == "__main__":
    main()
