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
    process's memory (resident, and in use by malloc), descriptors and threads, each with HELP and TYPE, and each moving as the daemon is used."""
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
                       ("process_resident_memory_bytes", "gauge"), ("scenariod_heap_in_use_bytes", "gauge"),
                       ("process_open_fds", "gauge"), ("process_threads", "gauge")]:
        assert f"# TYPE {name} {kind}" in text and name in before, (name, text)
    assert before["scenariod_sessions"] == 0 and before["scenariod_task_ownership_complete"] == 1
    assert before["process_resident_memory_bytes"] > 1_000_000 and before["process_open_fds"] > 3 and before["process_threads"] >= 2
    # What malloc handed out, read from glibc: an idle daemon already holds its catalog and its event loops.
    assert before["scenariod_heap_in_use_bytes"] > 100_000, before
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


def test_held_bytes_are_shown_bounded_and_refuse_new_work_past_the_daemons_bound(daemon_with):
    """Each session reports what its stores hold; a journal keeps within --journal-bytes; past --max-held-bytes new
    work answers 429 tooMuchHeld naming who holds what, while reads and deletes are served; deleting frees it all
    (GET /metrics' scenariod_held_bytes back to 0)."""
    daemon = daemon_with({}, ["--journal-bytes", "8KiB", "--max-held-bytes", "96KiB"])
    daemon.session("offline-demo", "big")
    for _ in range(40):
        daemon.act("big", "reload")
    body = daemon.call("GET", "/v1/sessions/big", expect=200).json()
    held = body["held"]
    assert set(held) == {"journal", "history", "events", "recording", "sent", "total"}, held
    assert 0 < held["journal"] <= 8 * 1024 and held["history"] > 0, held
    assert held["total"] == held["journal"] + held["history"] + held["events"] + held["recording"] + held["sent"]
    journal = daemon.call("GET", "/v1/sessions/big/journal", expect=200).json()
    assert journal["dropped"] > 0 and len(journal["entries"]) < 41, (journal["dropped"], len(journal["entries"]))

    value = {"text": "v" * 4096}
    refused = None
    for index in range(100):
        answer = daemon.call("PUT", f"/v1/sessions/big/kv/k{index}", json=value)
        if answer.status_code != 200:
            refused = answer
            break
    assert refused is not None, "a hundred 4 KiB writes were never refused past a 96 KiB bound"
    message = refusal(refused, "tooMuchHeld")
    assert "session 'big'" in message and "'big' " in message and "--max-held-bytes 96.0 KiB" in message, message
    refusal(daemon.call("POST", "/v1/sessions", json={"scenario": "offline", "id": "other"}), "tooMuchHeld")
    refusal(daemon.call("POST", "/v1/sessions/big/actions/reload", json={}), "tooMuchHeld")
    daemon.call("GET", "/v1/sessions/big/state", expect=200)
    daemon.call("GET", "/v1/sessions/big/history", expect=200)

    def held_metric():
        return {line.split(" ")[0]: float(line.split(" ")[1]) for line in daemon.call("GET", "/metrics", expect=200).text.splitlines()
                if line.startswith("scenariod_held_bytes{")}
    figures = held_metric()
    assert set(figures) == {f'scenariod_held_bytes{{store="{store}"}}' for store in ("journal", "history", "events", "recording", "sent")}, figures
    assert sum(figures.values()) >= 96 * 1024, figures
    daemon.call("DELETE", "/v1/sessions/big", expect=204)
    assert sum(held_metric().values()) == 0
    daemon.session("offline", "other")
    daemon.act("other", "reload")


def test_a_size_flag_that_is_not_a_size_is_refused_at_start(tmp_path):
    import subprocess
    from daemon import BINARY
    result = subprocess.run([BINARY, "--journal-bytes", "16XB", "--socket", str(tmp_path / "s.sock")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 64, result
    assert "--journal-bytes 16XB is not a size" in result.stderr and "16MiB" in result.stderr, result.stderr
