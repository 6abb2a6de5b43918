"""Big stream fixtures: a `.jsonl` of 100,000 events (17 MB) checked as a daemon loads it (`scenariod --check`),
written as Python's json.dumps writes it and as scenariod's recorder writes it (compact, keys sorted). The rate is
the fixture's bytes over the time its check adds to the same scenario with a one-event fixture; the reference is
reading the file.

Runs alone too: python3 Benchmarks/harness/fixtures.py BINARY"""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

from report import Row

EVENTS = 100_000
SCENARIO = """\
description: A reply streamed from a big fixture.
model: Assistant
network:
  routes:
    - name: reply
      request:
        method: POST
        url: https://assistant.example/reply
      response:
        stream:
          file: reply.jsonl
"""


def write_scenario(directory: pathlib.Path, name, lines):
    scenario = directory / name
    scenario.mkdir(parents=True)
    (scenario / "scenario.yaml").write_text(SCENARIO)
    with open(scenario / "reply.jsonl", "w") as fixture:
        for line in lines:
            fixture.write(line + "\n")
    return scenario / "reply.jsonl"


def event(number, **dumps):
    return json.dumps({"at": f"+{number}ms", "event": "token", "data": {"text": "x" * 100, "n": number, "done": False}}, **dumps)


def seconds_to_check(binary, directory, runs=3):
    """The best of `runs` whole `scenariod --check` runs over `directory`: the least disturbed by other work."""
    best = None
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run([binary, "--check", "--scenarios", str(directory)], capture_output=True, text=True)
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            raise RuntimeError(f"scenariod --check {directory} failed: {result.stdout}{result.stderr}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def seconds_to_read(path, runs=3):
    best = None
    for _ in range(runs):
        started = time.perf_counter()
        with open(path, "rb") as file:
            while file.read(1 << 20):
                pass
        best = min(best or 1e9, time.perf_counter() - started)
    return best


def measure(binary, work: pathlib.Path):
    work.mkdir(parents=True, exist_ok=True)
    figures = {}
    small = work / "one-event"
    write_scenario(small, "reply", [event(1)])
    floor = seconds_to_check(binary, small)
    styles = {"as json.dumps writes it": {}, "compact, keys sorted": {"separators": (",", ":"), "sort_keys": True}}
    for style, dumps in styles.items():
        directory = work / style.replace(" ", "-").replace(",", "").replace(".", "")
        fixture = write_scenario(directory, "reply", (event(number, **dumps) for number in range(EVENTS)))
        size = fixture.stat().st_size
        added = max(seconds_to_check(binary, directory) - floor, 1e-6)
        figures[style] = {"bytes": size, "seconds": added, "rate": size / added, "read_rate": size / seconds_to_read(fixture)}
    return figures


def rows(binary, work: pathlib.Path, say):
    say(f"== big stream fixtures: {EVENTS:,} events checked by scenariod --check")
    rows = []
    for style, figure in measure(binary, work).items():
        megabytes = figure["bytes"] / 1e6
        say(f"  {style}: {megabytes:.1f} MB in {figure['seconds'] * 1000:.0f} ms, {figure['rate'] / 1e6:.0f} MB/s")
        rows.append(Row(f"Big fixture: {EVENTS:,}-event .jsonl ({megabytes:.1f} MB) loaded, {style}",
                        f"{figure['rate'] / 1e6:,.0f} MB/s", f"reading the file {figure['read_rate'] / 1e6:,.0f} MB/s",
                        f"{figure['rate'] / figure['read_rate']:.3f}×", "≥ 100 MB/s", figure["rate"] >= 100e6))
    return rows


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="scenariod-fixtures-") as temporary:
        for row in rows(sys.argv[1], pathlib.Path(temporary), lambda message: print(message, file=sys.stderr)):
            print(row.cells())
