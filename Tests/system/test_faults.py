"""Faults: SIGTERM under load, no journal to log to, scenarios that vanish or break before a reload, and a durable
store whose disk fills up."""
import os
import shutil
import signal
import sqlite3
import subprocess
import threading
import time

import httpx
import pytest

from daemon import BINARY, REPOSITORY

STOP_LIMIT = 30  # seconds: TimeoutStopSec= in deploy/scenariod@.service, documented in scenariod(8)


def test_sigterm_under_load_finishes_what_is_in_flight_refuses_new_work_and_exits_zero(daemon_with):
    daemon = daemon_with({})
    for n in range(8):
        daemon.session("slow-network", f"load-{n}")
    outcomes = []
    lock = threading.Lock()
    stop = threading.Event()

    def load(n):
        with httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=60) as http:
            while not stop.is_set():
                try:
                    response = http.put(f"/v1/sessions/load-{n}/kv/k", json={"n": n})
                    outcome = response.status_code
                except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as error:
                    outcome = type(error).__name__
                with lock:
                    outcomes.append(outcome)
                if outcome not in (200,):
                    return

    workers = [threading.Thread(target=load, args=(n,)) for n in range(8)]
    for worker in workers:
        worker.start()
    time.sleep(1)
    sent = time.monotonic()
    daemon.process.send_signal(signal.SIGTERM)
    status = daemon.process.wait(timeout=STOP_LIMIT)
    took = time.monotonic() - sent
    stop.set()
    for worker in workers:
        worker.join(timeout=30)
    assert status == 0, daemon.log()
    assert took < STOP_LIMIT
    print(f"SIGTERM under load: exit 0 after {took:.2f} s, {len(outcomes)} requests answered or refused")
    # Every answer that came was a success; afterwards connections were refused or closed, never an error answer.
    answers = [outcome for outcome in outcomes if isinstance(outcome, int)]
    assert answers and set(answers) == {200}, set(outcomes)
    assert not os.path.exists(daemon.socket), "the socket file outlived the daemon"
    assert "stopping: finishing requests in flight" in daemon.log()


def test_with_no_journal_to_talk_to_logs_go_to_stderr(tmp_path):
    # A private mount namespace with an empty /run: no journald socket, as in a container without systemd.
    socket = tmp_path / "control.sock"
    script = (f"mount -t tmpfs tmpfs /run && exec {BINARY} --scenarios {REPOSITORY / 'scenarios'} --socket {socket} "
              f"--state-directory {tmp_path / 'state'} --log-target journal --scenario offline-demo")
    daemon = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", script],
                              stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(3000):
            if socket.exists() or daemon.poll() is not None:
                break
            time.sleep(0.01)
        assert socket.exists(), "the daemon did not start without a journal"
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(socket)), base_url="http://scenariod") as http:
            assert http.post("/v1/sessions/default/actions/reload", json={}).status_code == 200
    finally:
        daemon.send_signal(signal.SIGTERM)
        _, stderr = daemon.communicate(timeout=30)
    assert daemon.returncode == 0, stderr
    assert "ready: Scenario offline-demo" in stderr, stderr
    assert "action reload" in stderr, "a line logged after start-up went missing:\n" + stderr


def test_scenarios_that_break_or_vanish_before_a_reload_keep_serving(daemon_with, tmp_path):
    scenarios = tmp_path / "scenarios"
    shutil.copytree(REPOSITORY / "scenarios", scenarios)
    daemon = daemon_with({}, arguments=["--scenarios", str(scenarios)], directory=tmp_path / "d")
    (scenarios / "offline-demo/scenario.yaml").write_text("description: broken\nmodle: FeedReader\n")
    reloaded = daemon.call("POST", "/v1/scenarios/reload", expect=200).json()
    assert "offline-demo" in reloaded["servingLastGood"] and "offline-demo" not in reloaded["invalid"]
    listed = {entry["name"]: entry for entry in daemon.call("GET", "/v1/scenarios", expect=200).json()}
    assert listed["offline-demo"]["valid"] and "unknown key 'modle'" in listed["offline-demo"]["problems"][0]
    daemon.session("offline-demo", "still-there")

    shutil.move(scenarios, tmp_path / "away")
    reloaded = daemon.call("POST", "/v1/scenarios/reload", expect=200).json()
    assert f"({scenarios})" in reloaded["invalid"], reloaded
    assert reloaded["scenarios"] >= 12, "scenarios of a vanished directory keep serving"
    daemon.session("first-launch", "after-vanishing")
    assert "the scenarios directory cannot be read" in daemon.log()


DURABLE = """
description: A durable store on a disk that fills up.
extends: first-launch
keyValue:
  store: durable
"""


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "small-disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=768k", "tmpfs", str(mount)], check=True)
    yield mount
    subprocess.run(["umount", "--lazy", str(mount)], check=False)


def test_a_full_disk_is_a_clear_error_with_no_corruption_and_writes_resume_with_space(daemon_with, small_disk, tmp_path):
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * 256 * 1024)
    daemon = daemon_with({"full-disk": DURABLE}, arguments=["--state-directory", str(small_disk / "state")],
                         directory=tmp_path / "d")
    session = daemon.session("full-disk", "writer")
    written = []
    refusal = None
    for n in range(200):
        response = daemon.call("PUT", f"/v1/sessions/{session}/kv/k{n}", json="x" * 16 * 1024)
        if response.status_code != 200:
            refusal = response
            break
        written.append(f"k{n}")
    assert refusal is not None, "the disk never filled"
    error = refusal.json()
    assert refusal.status_code == 503 and error["code"] == "storeFailed", error
    assert "disk is full" in error["message"] and "full-disk" in error["message"], error
    assert sorted(daemon.call("GET", f"/v1/sessions/{session}/kv", expect=200).json()["keys"]) == sorted(written)

    filler.unlink()
    daemon.call("PUT", f"/v1/sessions/{session}/kv/after", json="space is back", expect=200)
    assert daemon.call("GET", f"/v1/sessions/{session}/kv/after", expect=200).json() == "space is back"
    daemon.stop()
    database = sqlite3.connect(small_disk / "state/stores/full-disk.sqlite")
    assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert database.execute("SELECT count(*) FROM entries WHERE key LIKE 'k%'").fetchone()[0] == len(written)
    database.close()
