"""A request sent through a session's network from outside (issue 50, item 1): `POST …/network/requests` and
`scenarioctl send`, answered as the Model's network service would be, printed like `curl -i`, journaled as sent from
outside; a delayed answer waits for the session's clock; sessions stay apart."""
import json
import signal
import socket
import subprocess
import threading
import time

from daemon import REPOSITORY, SCENARIOCTL, until

SHOP = """\
description: A shop API answered from routes, for requests sent from outside.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
network:
  routes:
    - name: basket
      request:
        method: POST
        url: https://shop.example/basket
        headers:
          Authorization: { regex: "Bearer tok-[0-9]+" }
      responses:
        - { status: 201, headers: { Content-Type: application/json }, body: { items: 1 } }
        - { status: 201, headers: { Content-Type: application/json }, body: { items: 2 } }
    - name: slow
      request: { method: GET, url: https://shop.example/slow }
      response: { status: 200, body: late, delay: 5s }
"""


def ctl(daemon, *arguments, stdin=None, timeout=60):
    return subprocess.run([SCENARIOCTL, "--socket", daemon.socket, *arguments], capture_output=True, timeout=timeout,
                          input=stdin)


def test_send_prints_the_answer_as_curl_i_and_the_journal_marks_it(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo", "--log-level", "info"])
    state = daemon.state("default")
    run = ctl(daemon, "send", "GET", "https://www.cocoawithlove.com/feed.json", "-H", "Accept: application/json")
    assert run.returncode == 0, run.stderr
    fixture = (REPOSITORY / "scenarios/first-launch/fixtures/feed.json").read_bytes()
    head, body = run.stdout.split(b"\r\n\r\n", 1)
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 200 OK", head
    assert b"Content-Type: application/json" in head.split(b"\r\n")
    assert body == fixture
    entry = daemon.journal("default")[-1]
    assert (entry["outside"], entry["route"], entry["status"], entry["headers"]) == (True, "feed", 200, ["Accept: application/json"])
    # The Model was not told; the journal's reader shows who sent it.
    assert daemon.state("default") == state
    assert "200 (sent from outside)" in ctl(daemon, "requests").stdout.decode()
    assert "(sent from outside) → route feed (200)" in daemon.log()
    history = daemon.call("GET", "/v1/sessions/default/history", expect=200).json()["steps"]
    assert history[-1]["kind"] == "sendRequest" and history[-1]["parameters"]["headers"] == ["Accept: application/json"]


def test_a_request_no_route_answers_exits_1_naming_the_closest_route(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    run = ctl(daemon, "send", "GET", "https://www.cocoawithlove.com/feed.xml")
    assert run.returncode == 1 and run.stdout == b""
    assert "got no response: connectionRefused" in run.stderr.decode()
    assert "closest route 'feed' differs in /url: expected https://www.cocoawithlove.com/feed.json, got https://www.cocoawithlove.com/feed.xml" in run.stderr.decode()
    answer = json.loads(ctl(daemon, "--json", "send", "GET", "https://www.cocoawithlove.com/feed.xml").stdout)
    assert answer["fault"] == "connectionRefused" and answer["journal"]["nearMisses"][0]["route"] == "feed", answer
    for arguments, words in [(["GET", "feed.json"], "not an absolute http or https URL"),
                             (["G T", "https://a.example/"], "is not an HTTP method"),
                             (["GET", "https://a.example/", "-H", "no colon"], "is not a header field")]:
        run = ctl(daemon, "send", *arguments)
        assert run.returncode == 1 and words in run.stderr.decode(), run.stderr


def test_headers_bodies_and_sequences_answer_as_the_routes_say(daemon_with, tmp_path):
    daemon = daemon_with({"shop": SHOP})
    daemon.session("shop", "s")
    basket = ["send", "POST", "https://shop.example/basket", "--session", "s"]
    refused = ctl(daemon, *basket, "-d", '{"sku": "a"}')
    assert refused.returncode == 1 and "differs in /headers/authorization" in refused.stderr.decode(), refused.stderr
    (tmp_path / "item.json").write_text('{"sku": "b"}')
    first = ctl(daemon, *basket, "-H", "Authorization: Bearer tok-1", "-d", f"@{tmp_path / 'item.json'}")
    second = ctl(daemon, *basket, "-H", "Authorization: Bearer tok-1", "-d", "@-", stdin=b'{"sku": "c"}')
    assert first.stdout.startswith(b"HTTP/1.1 201 Created\r\n") and first.stdout.endswith(b'{"items":1}'), first.stdout
    assert second.stdout.endswith(b'{"items":2}'), second.stdout
    bodies = [entry.get("body") for entry in daemon.journal("s") if entry.get("outside")]
    assert bodies == ['{"sku":"a"}', '{"sku":"b"}', '{"sku":"c"}'], bodies
    # A rewind to before the second basket sends the first two again, and the sequence answers the second again.
    daemon.call("POST", "/v1/sessions/s/rewind", expect=200, json={"step": 2})
    again = ctl(daemon, *basket, "-H", "Authorization: Bearer tok-1", "-d", "{}")
    assert again.stdout.endswith(b'{"items":2}'), again.stdout


def test_a_delayed_answer_waits_for_the_clock_or_is_read_later(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    daemon.session("shop", "s")
    pending = ctl(daemon, "send", "GET", "https://shop.example/slow", "--session", "s", "--no-wait")
    assert pending.stdout.decode().strip() == ("request 2 is pending: its answer is delivered at 2026-11-01T09:00:05Z on the "
                                               "session's clock; read it then with scenarioctl sent 2"), pending.stdout
    assert b"is pending" in ctl(daemon, "sent", "2", "--session", "s").stdout
    # A send that waits returns when another client moves the clock.
    waiting = subprocess.Popen([SCENARIOCTL, "--socket", daemon.socket, "send", "GET", "https://shop.example/slow",
                                "--session", "s", "--timeout", "60s"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while len(daemon.journal("s")) < 3:
        assert time.monotonic() < deadline, daemon.journal("s")
        time.sleep(0.01)
    assert waiting.poll() is None
    daemon.call("POST", "/v1/sessions/s/clock/advance", expect=200, json={"by": "5s"})
    out, err = waiting.communicate(timeout=30)
    assert waiting.returncode == 0 and out.endswith(b"\r\n\r\nlate"), (out, err)
    assert ctl(daemon, "sent", "2", "--session", "s").stdout.endswith(b"\r\n\r\nlate")
    # The kept answer is held by the session, counted against the daemon's --max-held-bytes.
    assert daemon.call("GET", "/v1/sessions/s", expect=200).json()["held"]["sent"] == len(b"late")
    missing = ctl(daemon, "sent", "3", "--session", "s")
    assert missing.returncode == 1 and "keeps no request 3" in missing.stderr.decode()


def test_a_client_that_hangs_up_while_waiting_leaves_the_daemon_well(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    daemon.session("shop", "s")
    body = json.dumps({"url": "https://shop.example/slow"}).encode()
    for _ in range(50):
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(daemon.socket)
            client.sendall(b"POST /v1/sessions/s/network/requests HTTP/1.1\r\nHost: scenariod\r\nContent-Type: application/json\r\n"
                           + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            time.sleep(0.005)
    # Each request comes on a connection of its own, so the daemon may read the last ones after a clock move sent on
    # another: move it once every one is journaled.
    until(lambda: sum(1 for entry in daemon.journal("s") if entry.get("outside")) == 50, "the 50 requests journaled", 30)
    daemon.call("POST", "/v1/sessions/s/clock/advance", expect=200, json={"by": "5s"})
    entries = [entry for entry in daemon.journal("s") if entry.get("outside")]
    assert len(entries) == 50 and all(entry["pending"] is False and entry["status"] == 200 for entry in entries)
    daemon.call("DELETE", "/v1/sessions/s", expect=204)
    assert daemon.call("GET", "/v1/health", expect=200).json()["status"] == "ok"


def test_a_daemon_stops_while_a_send_waits_on_the_clock(daemon_with):
    """The server lets each request finish before it stops, and no clock moves once it stops accepting: a send still
    waiting on its session's clock is told the daemon is stopping, rather than holding the stop until systemd kills."""
    daemon = daemon_with({"shop": SHOP})
    daemon.session("shop", "s")
    waiting = [subprocess.Popen([SCENARIOCTL, "--socket", daemon.socket, "send", "GET", "https://shop.example/slow",
                                 "--session", "s", "--timeout", "300s"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for _ in range(3)]
    until(lambda: sum(1 for entry in daemon.journal("s") if entry.get("outside")) == 3, "the three requests journaled", 30)
    daemon.http.close()
    daemon.process.send_signal(signal.SIGTERM)
    assert daemon.process.wait(timeout=60) == 0, daemon.log()
    for client in waiting:
        out, err = client.communicate(timeout=60)
        assert client.returncode == 1 and out == b"", (out, err)
        assert "the daemon is stopping" in err.decode() and "waits on the session's clock" in err.decode(), err


def test_sixteen_sessions_send_side_by_side_each_on_its_own_routes(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    problems = []

    def client(index):
        try:
            session = daemon.session("shop", f"c{index}")
            for round_number in range(100):
                answer = daemon.call("POST", f"/v1/sessions/{session}/network/requests", expect=200, json={
                    "method": "POST", "url": "https://shop.example/basket", "headers": ["Authorization: Bearer tok-7"],
                    "body": json.dumps({"client": index, "round": round_number})}).json()
                # Each session's sequence is its own: the first answer once, then the last one repeats.
                expected = {"items": 1} if round_number == 0 else {"items": 2}
                if json.loads(answer["body"]) != expected or answer["sequence"] != round_number + 2:
                    problems.append((index, round_number, answer))
        except Exception as error:  # noqa: BLE001 -- reported below with the client's number
            problems.append((index, repr(error)))

    threads = [threading.Thread(target=client, args=(index,)) for index in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert problems == []
    for index in range(16):
        journal = daemon.journal(f"c{index}")
        assert [json.loads(entry["body"])["client"] for entry in journal if entry.get("outside")] == [index] * 100
