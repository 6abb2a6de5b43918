"""Clients that fail fast: scenarioctl (and so ScenarioClient, which ScenarioTesting uses) says at once that no
daemon answers, and reports a daemon that accepts but does not answer after its timeout, exit 3 each time.
The bounds are generous against the 60 s every client waited before; what they check is "at once" and "after
the timeout, not forever"."""
import os
import signal
import socket
import subprocess
import time

from daemon import SCENARIOCTL


def scenarioctl(*arguments):
    started = time.monotonic()
    result = subprocess.run([SCENARIOCTL, *arguments], capture_output=True, text=True, timeout=60)
    return result, time.monotonic() - started


def test_a_missing_socket_is_reported_at_once(tmp_path):
    missing = str(tmp_path / "missing.sock")
    result, seconds = scenarioctl("status", "--socket", missing)
    assert result.returncode == 3, result
    assert seconds < 1.5, seconds
    assert f"no daemon answers at {missing}: no such socket" in result.stderr
    assert "--socket PATH" in result.stderr


def test_a_stale_socket_file_is_reported_at_once(tmp_path):
    stale = str(tmp_path / "stale.sock")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(stale)
    listener.close()  # the file stays, nothing listens: what a crashed daemon leaves
    result, seconds = scenarioctl("status", "--socket", stale)
    assert result.returncode == 3, result
    assert seconds < 1.5, seconds
    assert "connection refused, a socket file with no daemon behind it" in result.stderr
    assert "(errno" not in result.stderr and "))" not in result.stderr, result.stderr


def test_a_stopped_daemon_is_reported_after_the_timeout(daemon_with):
    daemon = daemon_with({}, arguments=["--scenario", "offline-demo"])
    os.kill(daemon.pid, signal.SIGSTOP)
    try:
        result, seconds = scenarioctl("status", "--socket", daemon.socket, "--timeout", "2s")
        assert result.returncode == 3, result
        assert 1.9 < seconds < 3, seconds
        assert "got the request but gave no answer: no answer within 2s" in result.stderr
        assert "may have been applied" not in result.stderr, "a read changes nothing"

        result, _ = scenarioctl("do", "reload", "--socket", daemon.socket, "--timeout", "500ms")
        assert result.returncode == 3, result
        assert "The request may have been applied; check before repeating it." in result.stderr

    finally:
        os.kill(daemon.pid, signal.SIGCONT)
    daemon.call("GET", "/v1/health", expect=200)


def test_the_timeout_comes_from_the_environment_too(daemon_with):
    daemon = daemon_with({}, arguments=["--scenario", "offline-demo"])
    os.kill(daemon.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        result = subprocess.run([SCENARIOCTL, "status", "--socket", daemon.socket], capture_output=True, text=True,
                                timeout=60, env={**os.environ, "SCENARIOD_TIMEOUT": "1s"})
        seconds = time.monotonic() - started
        assert result.returncode == 3, result
        assert seconds < 2.5, seconds
        assert "no answer within 1s" in result.stderr
    finally:
        os.kill(daemon.pid, signal.SIGCONT)


def test_a_bad_timeout_is_refused_naming_it(tmp_path):
    result, _ = scenarioctl("status", "--socket", str(tmp_path / "x.sock"), "--timeout", "soon")
    assert result.returncode == 2, result  # bad usage, as scenarioctl(1) says
    assert "'soon' is not a duration" in result.stderr
