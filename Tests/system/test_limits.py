"""The daemon's limits, end to end: below them nothing is refused; past them the documented 429 with a code that
names the limit; the daemon stays healthy and frees a place when a session is deleted or a stream is closed."""
import time

import rawhttp

LIMITS = ["--max-sessions", "3", "--max-subscribers-per-session", "2", "--max-subscribers", "3"]


def open_stream(daemon, session):
    """An event stream held open on its own connection: (status, connection) once its head has arrived."""
    connection = rawhttp.connect(daemon.socket, timeout=10)
    connection.sendall(f"GET /v1/sessions/{session}/events HTTP/1.1\r\nHost: scenariod\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, "the daemon closed the event stream before its head"
        data += chunk
    return int(data.split(b" ", 2)[1]), connection


def refusal(response, code):
    assert response.status_code == 429, f"{response.status_code} {response.text}"
    body = response.json()
    assert body["code"] == code, body
    return body["message"]


def test_sessions_past_the_limit_are_refused_with_429_until_one_is_deleted(daemon_with):
    daemon = daemon_with({}, LIMITS + ["--scenario", "offline-demo"])  # the default session counts
    daemon.session("offline", "a")
    daemon.session("offline", "b")
    message = refusal(daemon.call("POST", "/v1/sessions", json={"scenario": "offline", "id": "c"}), "tooManySessions")
    assert "3 sessions are open, the limit" in message and "--max-sessions" in message
    ids = [session["id"] for session in daemon.call("GET", "/v1/sessions", expect=200).json()]
    assert ids == ["a", "b", "default"]
    assert daemon.call("GET", "/v1/health", expect=200).json()["sessions"] == 3

    daemon.call("DELETE", "/v1/sessions/a", expect=204)
    daemon.session("offline", "c")
    daemon.act("c", "reload")  # the sessions below the limit work as ever


def test_event_streams_past_the_limits_are_refused_and_closing_one_frees_its_place(daemon_with):
    daemon = daemon_with({}, LIMITS)
    daemon.session("offline", "a")
    daemon.session("offline", "b")
    first, second = open_stream(daemon, "a"), open_stream(daemon, "a")
    assert (first[0], second[0]) == (200, 200)

    message = refusal(daemon.call("GET", "/v1/sessions/a/events"), "tooManySubscribers")
    assert "session 'a' has 2 event streams open, its limit" in message
    third = open_stream(daemon, "b")
    assert third[0] == 200
    message = refusal(daemon.call("GET", "/v1/sessions/b/events"), "tooManySubscribers")
    assert "3 event streams are open across all sessions, the limit" in message

    # A client that goes away gives its place back, with no event needed to notice.
    first[1].close()
    deadline = time.monotonic() + 10
    while True:
        status, connection = open_stream(daemon, "a")
        if status == 200:
            break
        connection.close()
        assert time.monotonic() < deadline, "closing an event stream did not free its place within 10 s"
        time.sleep(0.05)
    # Deleting a session ends its streams and frees their places.
    daemon.call("DELETE", "/v1/sessions/a", expect=204)
    fourth = open_stream(daemon, "b")
    assert fourth[0] == 200
    assert daemon.call("GET", "/v1/health", expect=200).json()["status"] == "ok"
    for stream in (second, third, fourth, (status, connection)):
        stream[1].close()


def test_limits_below_one_are_refused_at_start(tmp_path):
    import subprocess
    from daemon import BINARY
    result = subprocess.run([BINARY, "--max-sessions", "0", "--socket", str(tmp_path / "s.sock")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 64, result  # the daemon's usage error (scenariod(8))
    assert "--max-sessions 0 must be at least 1" in result.stderr


def test_metrics_show_the_daemons_figures_in_prometheus_text(daemon_with):
    """GET /metrics: sessions, event streams, connections, requests by route and status, dropped events and the
    process's memory, descriptors and threads, each with HELP and TYPE, and each moving as the daemon is used."""
    import re
    daemon = daemon_with({})

    def scrape():
        answer = daemon.call("GET", "/metrics", expect=200)
        assert answer.headers["content-type"].startswith("text/plain; version=0.0.4"), answer.headers
        figures = {}
        for line in answer.text.splitlines():
            if line.startswith("#"):
                assert re.fullmatch(r"# (HELP|TYPE) [a-z_]+ .+", line), line
                continue
            name, value = line.rsplit(" ", 1)
            figures[name] = float(value)
        return figures, answer.text

    before, text = scrape()
    for name, kind in [("scenariod_sessions", "gauge"), ("scenariod_event_streams", "gauge"), ("scenariod_connections", "gauge"),
                       ("scenariod_events_dropped_total", "counter"), ("scenariod_task_ownership_complete", "gauge"),
                       ("process_resident_memory_bytes", "gauge"), ("process_open_fds", "gauge"), ("process_threads", "gauge")]:
        assert f"# TYPE {name} {kind}" in text and name in before, (name, text)
    assert before["scenariod_sessions"] == 0 and before["scenariod_task_ownership_complete"] == 1
    assert before["process_resident_memory_bytes"] > 1_000_000 and before["process_open_fds"] > 3 and before["process_threads"] >= 2
    for index in range(3):
        daemon.session("offline-demo", f"m{index}")
    daemon.call("GET", "/v1/sessions/no-such/state", expect=404)
    for _ in range(5):
        daemon.call("GET", "/v1/sessions/m0/state", expect=200)
    with daemon.http.stream("GET", "/v1/sessions/m0/events") as stream:
        assert stream.status_code == 200
        during, _ = scrape()
    assert during["scenariod_sessions"] == 3 and during["scenariod_event_streams"] == 1, during
    # The client's leaving reaches the daemon as the connection closes: wait for it, within a bound.
    deadline = time.monotonic() + 10
    while (after := scrape()[0])["scenariod_event_streams"] != 0:
        assert time.monotonic() < deadline, f"the closed event stream is still counted: {after}"
        time.sleep(0.05)
    created = 'scenariod_http_requests_total{method="POST",route="/v1/sessions",status="201"}'
    reads = 'scenariod_http_requests_total{method="GET",route="/v1/sessions/{session}/state",status="200"}'
    missing = 'scenariod_http_requests_total{method="GET",route="/v1/sessions/{session}/state",status="404"}'
    assert after[created] == 3 and after[reads] >= 5 and after[missing] == 1, after
