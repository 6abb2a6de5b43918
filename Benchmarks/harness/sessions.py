"""Idle sessions in the daemon's own memory: resident bytes per session, and whether a large fixture is shared by
the sessions of its scenario or copied into each."""
import time

from daemon import call, resident_bytes

LARGE_FIXTURE_BYTES = 1 << 20

LARGE_FIXTURE_SCENARIO = """\
description: offline-demo plus a 1 MiB fixture that no request at start-up asks for.
extends: offline-demo
network:
  routes:
    - name: archive
      request:
        method: GET
        url: https://www.cocoawithlove.com/archive.bin
      response:
        status: 200
        bodyFile: fixtures/archive.bin
"""


def write_large_fixture_scenario(root):
    directory = root / "large-fixture"
    (directory / "fixtures").mkdir(parents=True, exist_ok=True)
    (directory / "scenario.yaml").write_text(LARGE_FIXTURE_SCENARIO)
    # Incompressible-looking but reproducible bytes.
    (directory / "fixtures" / "archive.bin").write_bytes(bytes((index * 2654435761 >> 13) & 0xFF for index in range(LARGE_FIXTURE_BYTES)))


def settle_rss(pid):
    """RSS once it has stopped moving (sessions settle asynchronously), in bytes."""
    previous = resident_bytes(pid)
    for _ in range(20):
        time.sleep(0.25)
        current = resident_bytes(pid)
        if abs(current - previous) < 64 * 1024:
            return current
        previous = current
    return previous


def open_sessions(daemon, scenario, count, progress):
    connection = daemon.connection()
    started = time.monotonic()
    for index in range(count):
        call(connection, "POST", "/v1/sessions", {"scenario": scenario}, expect=201)
        if progress and (index + 1) % 2000 == 0:
            progress(f"  {index + 1:,} sessions of {scenario} ({time.monotonic() - started:.1f} s)")
    connection.close()


def measure(daemon, count, large_count, progress=None):
    """Opens `count` sessions of offline-demo, then `large_count` of large-fixture; bytes per session of each."""
    before = settle_rss(daemon.process.pid)
    open_sessions(daemon, "offline-demo", count, progress)
    after = settle_rss(daemon.process.pid)
    open_sessions(daemon, "large-fixture", large_count, progress)
    after_large = settle_rss(daemon.process.pid)
    open_now = call(daemon.connection(), "GET", "/v1/health")["sessions"]
    if open_now != 1 + count + large_count:
        raise RuntimeError(f"the daemon reports {open_now} open sessions, expected {1 + count + large_count}")
    return {"rss_before": before, "rss_after": after, "per_session": (after - before) / count,
            "per_large_session": (after_large - after) / large_count}
