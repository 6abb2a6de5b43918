"""Start-up: from exec to READY=1 on a NOTIFY_SOCKET of the harness's, as systemd would see it; next to the floor,
a C program that does nothing but send READY=1 through libsystemd, timed the same way."""
import os
import pathlib
import shutil
import signal
import socket
import statistics
import subprocess
import time

import processes

FLOOR_SOURCE = """\
#include <systemd/sd-daemon.h>
#include <unistd.h>
int main(void) { sd_notify(0, "READY=1"); pause(); return 0; }
"""


def build_floor(directory: pathlib.Path):
    source = directory / "notify-floor.c"
    source.write_text(FLOOR_SOURCE)
    binary = directory / "notify-floor"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(source), "-lsystemd"], check=True)
    return str(binary)


def time_to_ready(command, directory: pathlib.Path, timeout=30):
    """Seconds from spawning `command` to its READY=1; the process is then stopped with SIGTERM."""
    notify_path = directory / "notify.sock"
    if notify_path.exists():
        notify_path.unlink()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(str(notify_path))
        environment = dict(os.environ, NOTIFY_SOCKET=str(notify_path))
        environment.pop("INVOCATION_ID", None)
        with open(directory / "output.log", "a") as log:
            started = time.perf_counter()
            process = subprocess.Popen(command, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        try:
            deadline = started + timeout
            while True:
                notify.settimeout(max(0.001, deadline - time.perf_counter()))
                try:
                    message = notify.recv(65536)
                except socket.timeout:
                    raise RuntimeError(f"{command[0]} sent no READY=1 within {timeout} s; see {directory / 'output.log'}")
                if b"READY=1" in message.split(b"\n"):
                    return time.perf_counter() - started
        finally:
            processes.stop(process, signal.SIGTERM)


def median_ms(command_for_run, directory: pathlib.Path, runs):
    """Median milliseconds to READY=1 over `runs` spawns (one discarded warm-up first, for the page cache)."""
    samples = []
    for index in range(runs + 1):
        seconds = time_to_ready(command_for_run(index), directory)
        if index:
            samples.append(seconds * 1000)
    return statistics.median(samples)


def generate_scenarios(root: pathlib.Path, count, fixture: bytes):
    """`count` FeedReader scenarios, each with its own fixture file, a route and a seed, as a team's suite might
    have them."""
    if root.exists():
        shutil.rmtree(root)
    for index in range(count):
        directory = root / f"generated-{index:04}"
        (directory / "fixtures").mkdir(parents=True)
        (directory / "fixtures" / "feed.json").write_bytes(fixture)
        (directory / "scenario.yaml").write_text(f"""\
description: Generated scenario {index} of {count}.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
keyValue:
  seed:
    readItems: ["https://example.com/{index}"]
network:
  routes:
    - name: feed
      request:
        method: GET
        url: https://www.cocoawithlove.com/feed.json
      response:
        status: 200
        bodyFile: fixtures/feed.json
""")


def main():
    """Compares daemon binaries' start-up in one sitting: `python3 Benchmarks/harness/startup.py [--runs N]
    [--scenarios DIR] BINARY...` times each, alternating, for `--rounds` rounds, beside the C floor, and prints
    each median (offline-demo as the default session, the shipped scenarios, plus DIR if given)."""
    import argparse
    import tempfile
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=31, help="starts per median (default 31)")
    parser.add_argument("--rounds", type=int, default=3, help="medians per binary, alternating (default 3)")
    parser.add_argument("--scenarios", help="a directory of more scenarios, read after the shipped ones")
    parser.add_argument("--shipped", help="a directory read instead of the shipped scenarios (it must hold offline-demo)")
    arguments = parser.parse_args()
    repository = pathlib.Path(__file__).resolve().parents[2]
    directory = pathlib.Path(tempfile.mkdtemp(prefix="scenariod-startup-"))
    floor = build_floor(directory)
    extra = ["--scenarios", arguments.scenarios] if arguments.scenarios else []
    for round_number in range(1, arguments.rounds + 1):
        print(f"round {round_number}: C floor {median_ms(lambda index: [floor], directory, arguments.runs):.1f} ms")
        for binary in arguments.binaries:
            def command(index, binary=binary):
                return [binary, "--scenarios", arguments.shipped or str(repository / "scenarios"), *extra, "--scenario", "offline-demo",
                        "--socket", str(directory / f"control-{index}.sock"),
                        "--state-directory", str(directory / "state"), "--log-target", "stderr"]
            print(f"  {binary}: {median_ms(command, directory, arguments.runs):.1f} ms", flush=True)
    shutil.rmtree(directory)


if __name__ == "__main__":
    main()
