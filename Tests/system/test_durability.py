"""Durability of the SQLite store: SIGKILL at random moments during a stream of `kv set` calls, 200 times.

Every write the daemon acknowledged must be there after each restart, with its value, and the database must
pass SQLite's integrity check at the end. Writes in flight at the kill may or may not be there: they were never
acknowledged."""
import json
import random
import sqlite3
import threading
import time

import httpx

CYCLES = 200
TIME_LIMIT = 240  # seconds; the loop stops early (and fails) rather than run unbounded

DURABLE = """
description: FeedReader with its key-value state in a database file, for the crash test.
extends: first-launch
keyValue:
  store: durable
"""


def test_every_acknowledged_write_survives_sigkill(daemon_with, tmp_path):
    rng = random.Random(20261123)  # fixed seed: the same kill moments every run
    acknowledged = {}
    directory = tmp_path / "crash"
    started = time.monotonic()
    cycles = 0
    for cycle in range(CYCLES):
        assert time.monotonic() - started < TIME_LIMIT, f"only {cycle} cycles in {TIME_LIMIT} s"
        daemon = daemon_with({"crash-store": DURABLE}, arguments=["--scenario", "crash-store"], directory=directory)
        present = set(daemon.call("GET", "/v1/sessions/default/kv", expect=200).json()["keys"])
        missing = set(acknowledged) - present
        assert not missing, f"cycle {cycle}: acknowledged writes lost after SIGKILL: {sorted(missing)[:5]}"

        stop = threading.Event()
        streaming = threading.Event()

        def write():
            with httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=10) as http:
                n = 0
                while not stop.is_set():
                    key = f"c{cycle}-{n}"
                    try:
                        response = http.put(f"/v1/sessions/default/kv/{key}", json={"cycle": cycle, "n": n})
                    except httpx.TransportError:
                        return  # the daemon died mid-request: that write was never acknowledged
                    if response.status_code == 200:
                        acknowledged[key] = {"cycle": cycle, "n": n}
                        streaming.set()
                    n += 1

        writer = threading.Thread(target=write)
        writer.start()
        # Kill at a random moment once writes are flowing, so every cycle kills a stream in progress.
        assert streaming.wait(timeout=30), f"cycle {cycle}: no write was acknowledged:\n{daemon.log()}"
        time.sleep(rng.uniform(0.0, 0.03))
        daemon.kill()
        stop.set()
        writer.join(timeout=30)
        assert not writer.is_alive()
        cycles += 1

    assert cycles == CYCLES and len(acknowledged) > CYCLES, f"{cycles} cycles, {len(acknowledged)} writes"
    database = sqlite3.connect(directory / "state/stores/crash-store.sqlite")
    assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    stored = {key: json.loads(value) for key, value in database.execute("SELECT key, value FROM entries")}
    database.close()
    wrong = {key: value for key, value in acknowledged.items() if stored.get(key) != value}
    assert not wrong, f"acknowledged writes missing or changed: {list(wrong.items())[:5]}"
    print(f"{cycles} SIGKILL cycles, {len(acknowledged)} acknowledged writes, all present; integrity ok")
