"""`scenarioctl explore` against the release daemon (issue 52): the walks run inside the daemon, on its engine
(`POST /v1/explorations`), so the command should go at the engine's speed. Steps per second of the whole command,
from its start to its exit (process start, request, progress events and report included), best of three rounds
with 1 and with 2 walks at once, against the in-process exploration of the same run.

run.py calls rows(); alone: python3 explore_cli.py SCENARIOD SCENARIOCTL [WALKS] prints the figures as JSON."""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

import daemon as daemon_module
from report import Row, ratio

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


def measure(scenariod, scenarioctl, walks=2000, rounds=3):
    """The best steps/s of the whole command for each parallelism, and the daemon's own figure of that run."""
    with tempfile.TemporaryDirectory(prefix="scenariod-explore-") as work:
        daemon = daemon_module.Daemon(scenariod, REPOSITORY, pathlib.Path(work), extra=["--log-level", "warning"]).start()
        try:
            best = {}
            for _ in range(rounds):
                for parallel in (1, 2):
                    started = time.monotonic()
                    run = subprocess.run([scenarioctl, "--socket", daemon.socket, "explore", "offline-demo", "--walks", str(walks),
                                          "--parallel", str(parallel), "--json"], capture_output=True, text=True, check=True)
                    elapsed = time.monotonic() - started
                    report = json.loads(run.stdout)
                    if report.get("failure"):
                        raise RuntimeError(f"offline-demo's exploration failed: {report['failure']}")
                    figure = {"command": report["steps"] / elapsed, "daemon": report["stepsPerSecond"]}
                    if figure["command"] > best.get(parallel, {"command": 0})["command"]:
                        best[parallel] = figure
            return best
        finally:
            daemon.stop()


def rows(scenariod, scenarioctl, say, in_process, walks=2000):
    say(f"== scenarioctl explore offline-demo --walks {walks} against the release daemon, 1 and 2 walks at once")
    best = measure(scenariod, scenarioctl, walks)
    for parallel, figure in sorted(best.items()):
        say(f"  --parallel {parallel}: {figure['command']:,.0f} steps/s for the command, {figure['daemon']:,.0f} in the daemon's report")
    top = max(best.values(), key=lambda figure: figure["command"])
    return [Row("Explore from the CLI: scenarioctl explore offline-demo against the release daemon, steps/s (whole command, best of 1 and 2 walks at once)",
                f"{top['command']:,.0f}/s", f"explore in process {in_process:,.0f}/s", ratio(top["command"], in_process),
                "≥ 10,000/s", top["command"] >= 10_000)]


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2000)))
