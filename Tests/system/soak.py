"""Soak under load: 16 clients mixing session create/delete, actions, clock moves, key-value writes, journal reads
and event streams against one daemon for a bounded time, sampling its memory and open descriptors.

    python3 Tests/system/soak.py --seconds 600 [--clients 16] [--report soak.json]

Prints a report and exits non-zero unless: zero errors, resident memory after warm-up grows less than 10%, open
descriptors return to their baseline once the clients are gone, and every journal stays within its bound.
test_soak.py runs it for a minute in CI."""
import argparse
import json
import pathlib
import random
import sys
import tempfile
import threading
import time

import httpx

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from daemon import Daemon  # noqa: E402

SCENARIOS = ["offline-demo", "feed-updates", "first-launch", "server-error", "ratings-signed-out", "slow-network"]
JOURNAL_CAPACITY = 50


def resident_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_descriptors(pid):
    return len(list(pathlib.Path(f"/proc/{pid}/fd").iterdir()))


class Client(threading.Thread):
    def __init__(self, number, socket, deadline, stats):
        super().__init__(daemon=True)
        self.number, self.deadline, self.stats = number, deadline, stats
        self.random = random.Random(number)
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=socket), base_url="http://scenariod", timeout=60)
        self.sessions = []
        self.created = 0

    def expect(self, response, *statuses):
        self.stats.count(response.request.method)
        if response.status_code not in statuses:
            self.stats.error(f"{response.request.method} {response.request.url.path}: {response.status_code} {response.text[:200]}")
        return response

    def run(self):
        try:
            while time.monotonic() < self.deadline:
                self.step()
        except Exception as error:  # a transport error is an error of the run, not of the harness
            self.stats.error(f"client {self.number}: {type(error).__name__}: {error}")
        finally:
            for session in self.sessions:
                self.expect(self.http.delete(f"/v1/sessions/{session}"), 204)
            self.http.close()

    def step(self):
        if len(self.sessions) < 2 or self.random.random() < 0.05:
            self.created += 1
            session = f"soak-{self.number}-{self.created}"
            scenario = self.random.choice(SCENARIOS)
            self.expect(self.http.post("/v1/sessions", json={"scenario": scenario, "id": session}), 201)
            self.sessions.append(session)
            if len(self.sessions) > 4:
                self.expect(self.http.delete(f"/v1/sessions/{self.sessions.pop(0)}"), 204)
            return
        session = self.random.choice(self.sessions)
        base = f"/v1/sessions/{session}"
        choice = self.random.random()
        if choice < 0.30:
            model = self.expect(self.http.get(base), 200).json()["model"]
            action = "reload" if model == "FeedReader" else "fetchRating"
            self.expect(self.http.post(f"{base}/actions/{action}", json={}), 200)
        elif choice < 0.45:
            self.expect(self.http.post(f"{base}/clock/advance", json={"by": self.random.choice(["1s", "15m", "1h"])}), 200)
        elif choice < 0.65:
            key = f"k{self.random.randrange(20)}"
            self.expect(self.http.put(f"{base}/kv/{key}", json={"n": self.random.randrange(1000), "pad": "x" * 200}), 200)
            self.expect(self.http.get(f"{base}/kv/{key}"), 200)
        elif choice < 0.80:
            journal = self.expect(self.http.get(f"{base}/journal"), 200).json()
            self.stats.journal(len(journal["entries"]), journal["capacity"])
        elif choice < 0.90:
            with self.http.stream("GET", f"{base}/events") as stream:
                self.expect(stream, 200)
                for line in stream.iter_lines():
                    if line.startswith("data:"):
                        break  # the current state arrives first; then hang up mid-stream
        else:
            self.expect(self.http.get(f"{base}/state"), 200)


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.errors = []
        self.largest_journal = 0
        self.journal_capacity = None

    def count(self, _method):
        with self.lock:
            self.requests += 1

    def error(self, text):
        with self.lock:
            self.errors.append(text)

    def journal(self, entries, capacity):
        with self.lock:
            self.largest_journal = max(self.largest_journal, entries)
            self.journal_capacity = capacity


def soak(seconds, clients, directory):
    daemon = Daemon(directory, {}, arguments=["--journal-capacity", str(JOURNAL_CAPACITY), "--log-level", "warning"]).start()
    try:
        time.sleep(0.5)
        baseline_fds = open_descriptors(daemon.pid)
        stats = Stats()
        started = time.monotonic()
        deadline = started + seconds
        warm_up = started + max(10, seconds * 0.2)
        workers = [Client(number, daemon.socket, deadline, stats) for number in range(clients)]
        for worker in workers:
            worker.start()
        samples = []
        while any(worker.is_alive() for worker in workers):
            samples.append({"t": round(time.monotonic() - started, 1), "rss_kib": resident_kib(daemon.pid),
                            "fds": open_descriptors(daemon.pid)})
            time.sleep(min(5, max(1, seconds / 60)))
        for worker in workers:
            worker.join(timeout=60)
        elapsed = time.monotonic() - started
        # Connections close asynchronously; give the descriptors a bounded moment to come back.
        for _ in range(100):
            if open_descriptors(daemon.pid) <= baseline_fds:
                break
            time.sleep(0.1)
        end_fds = open_descriptors(daemon.pid)
        after_warm_up = [sample["rss_kib"] for sample in samples if sample["t"] >= warm_up - started] or [samples[-1]["rss_kib"]]
        growth = (max(after_warm_up) - after_warm_up[0]) / after_warm_up[0] * 100
        sessions_left = daemon.call("GET", "/v1/sessions", expect=200).json()
        report = {
            "seconds": round(elapsed, 1), "clients": clients, "requests": stats.requests,
            "requests_per_second": round(stats.requests / elapsed, 1), "errors": len(stats.errors),
            "first_errors": stats.errors[:10], "rss_kib_at_warm_up": after_warm_up[0], "rss_kib_peak_after_warm_up": max(after_warm_up),
            "rss_growth_after_warm_up_percent": round(growth, 2), "fds_baseline": baseline_fds, "fds_end": end_fds,
            "largest_journal": stats.largest_journal, "journal_capacity": stats.journal_capacity,
            "sessions_left": len(sessions_left), "samples": samples,
        }
        report["passed"] = (not stats.errors and growth < 10 and end_fds <= baseline_fds
                            and stats.largest_journal <= JOURNAL_CAPACITY and not sessions_left)
        return report
    finally:
        daemon.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--report", type=pathlib.Path)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scenariod-soak-") as directory:
        report = soak(arguments.seconds, arguments.clients, pathlib.Path(directory))
    summary = {key: value for key, value in report.items() if key != "samples"}
    print(json.dumps(summary, indent=2))
    if arguments.report:
        arguments.report.write_text(json.dumps(report, indent=2) + "\n")
    sys.exit(0 if report["passed"] else 1)


if __name__ == "__main__":
    main()
