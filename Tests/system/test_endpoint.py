"""A session endpoint (issue 50, items 2-5 and 7): a session's own HTTP listener, a Unix socket or a loopback port with a
token, answering every request through the session's network as origin server and forward proxy, streams and delays on
the session's clock, recording what an outside app sends, and closing with the session. Tried with the clients apps
use: curl (-x and --unix-socket), Python requests and httpx."""
import json
import os
import select
import socket
import stat
import subprocess
import threading

import httpx
import pytest
import requests

from daemon import REPOSITORY, SCENARIOCTL, until

FEED = (REPOSITORY / "scenarios/first-launch/fixtures/feed.json").read_bytes()

# Two hosts, one of them with a streamed answer and a delayed one.
SHOP = """\
description: A shop and its search service, for apps the daemon does not host.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
network:
  routes:
    - name: items
      request: { method: GET, url: https://shop.example/items }
      response: { status: 200, headers: { Content-Type: application/json }, body: { items: [apple, pear] } }
    - name: basket
      request:
        method: POST
        url: https://shop.example/basket
        bodyFields: { /sku: { regex: "[a-z]+" } }
      responses:
        - { status: 201, body: { items: 1 } }
        - { status: 201, body: { items: 2 } }
    - name: search
      request: { method: GET, urlPattern: 'https://search\\.example/q/\\w+' }
      response: { status: 200, body: found }
    - name: slow
      request: { method: GET, url: https://shop.example/slow }
      response: { status: 200, body: late, delay: 5s }
    - name: gone
      request: { method: GET, url: https://shop.example/timeout }
      response: { fault: timeout }
    - name: reset
      request: { method: GET, url: https://shop.example/reset }
      response: { fault: connectionReset }
    - name: prices
      request: { method: GET, url: https://shop.example/prices }
      response:
        headers: { Content-Type: text/event-stream }
        stream:
          events:
            - { at: +0s, event: price, data: { apple: 1 } }
            - { at: +2s, event: price, data: { apple: 2 } }
            - { at: +4s, event: done, data: {} }
"""


def ctl(daemon, *arguments, timeout=60):
    return subprocess.run([SCENARIOCTL, "--socket", daemon.socket, *arguments], capture_output=True, text=True, timeout=timeout)


def outside(daemon, session):
    """The session's journal without its Model's own requests (FeedReader reads its feed as it starts)."""
    return [entry for entry in daemon.journal(session) if entry.get("outside")]


def open_session(daemon, scenario, session_id, **endpoint):
    return daemon.call("POST", "/v1/sessions", expect=201,
                       json={"scenario": scenario, "id": session_id, "endpoint": endpoint}).json()


def test_a_loopback_endpoint_answers_from_the_routes_with_its_token_only(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    endpoint = open_session(daemon, "shop", "s", port=0)["endpoint"]
    url, token = endpoint["url"], endpoint["token"]
    assert url == f"http://127.0.0.1:{endpoint['port']}" and len(token) == 32, endpoint
    assert endpoint["proxy"] == f"http://scenariod:{token}@127.0.0.1:{endpoint['port']}"

    refused = requests.get(f"{url}/items", timeout=30)
    assert refused.status_code == 401 and "refuses a request with no token" in refused.text, refused.text
    wrong = requests.get(f"{url}/items", headers={"Scenario-Token": "0" * 32}, timeout=30)
    assert wrong.status_code == 401 and "a wrong token" in wrong.text
    assert outside(daemon, "s") == [], "a refused request reaches no route"

    # Origin form: the endpoint's own address stands for the routes' first origin.
    answer = requests.get(f"{url}/items", headers={"Scenario-Token": token, "Accept": "application/json"}, timeout=30)
    assert (answer.status_code, answer.json()) == (200, {"items": ["apple", "pear"]})
    entry = outside(daemon, "s")[-1]
    assert answer.headers["Scenario-Sequence"] == str(entry["sequence"])
    assert (entry["url"], entry["route"], entry["outside"]) == ("https://shop.example/items", "items", True), entry
    assert "Accept: application/json" in entry["headers"]
    assert not [header for header in entry["headers"] if header.lower().startswith(("scenario-token", "host", "connection"))], entry

    # Bodies, sequences and matchers as the Model's requests get them; httpx as another client.
    with httpx.Client(base_url=url, headers={"Scenario-Token": token}, timeout=30) as client:
        assert client.post("/basket", json={"sku": "apple"}).json() == {"items": 1}
        assert client.post("/basket", json={"sku": "pear"}).json() == {"items": 2}
        # A host of the routes as the first path segment; a pattern's host counts.
        assert client.get("/search.example/q/pears").text == "found"
        unmatched = client.post("/basket", json={"sku": "42"})
    assert unmatched.status_code == 502 and unmatched.headers["Scenario-Fault"] == "connectionRefused", unmatched.text
    assert "basket: /body/sku expected" in unmatched.text, unmatched.text
    assert daemon.journal("s")[-1]["nearMisses"][0]["route"] == "basket"


def test_the_endpoint_is_a_forward_proxy_for_curl_and_requests(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    endpoint = open_session(daemon, "shop", "p", port=0)["endpoint"]
    proxy = endpoint["proxy"]
    # An http:// URL of a host the routes name gets the routes' scheme: the endpoint does not tunnel TLS.
    run = subprocess.run(["curl", "-sS", "-i", "-x", proxy, "http://shop.example/items"], capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr
    head, body = run.stdout.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 200 OK") and json.loads(body) == {"items": ["apple", "pear"]}, run.stdout
    answer = requests.get("http://search.example/q/x", proxies={"http": proxy}, timeout=30)
    assert answer.text == "found"
    assert [entry["url"] for entry in outside(daemon, "p")] == ["https://shop.example/items", "https://search.example/q/x"]

    bare = proxy.replace(f"scenariod:{endpoint['token']}@", "")
    refused = requests.get("http://shop.example/items", proxies={"http": bare}, timeout=30)
    assert refused.status_code == 407 and refused.headers["Proxy-Authenticate"] == 'Basic realm="scenariod session p"'
    tunnel = subprocess.run(["curl", "-sS", "-x", proxy, "https://shop.example/items"], capture_output=True, text=True, timeout=60)
    assert tunnel.returncode != 0, "the endpoint answers CONNECT 501: it does not tunnel TLS"
    # curl reads the lower-case name only.
    environment = {**os.environ, "http_proxy": ctl(daemon, "session", "show", "p", "--proxy").stdout.strip()}
    assert environment["http_proxy"] == proxy
    shown = subprocess.run(["curl", "-sS", "http://shop.example/items"], capture_output=True, text=True, timeout=60, env=environment)
    assert json.loads(shown.stdout) == {"items": ["apple", "pear"]}, shown


def test_no_url_or_cookie_carries_the_token(daemon_with):
    """A browser hands a URL to the servers it links to and a cookie of 127.0.0.1 to every server on 127.0.0.1: the
    token is taken only as a header or as the proxy's password, and no answer sets a cookie."""
    daemon = daemon_with({"shop": SHOP})
    endpoint = open_session(daemon, "shop", "b", port=0)["endpoint"]
    for refused in [requests.get(f"{endpoint['url']}/items?scenariod-token={endpoint['token']}", timeout=30),
                    requests.get(f"{endpoint['url']}/items", cookies={"scenariod-token": endpoint["token"]}, timeout=30)]:
        assert refused.status_code == 401 and "Set-Cookie" not in refused.headers, refused.headers
    taken = requests.get(f"{endpoint['url']}/items", headers={"Scenario-Token": endpoint["token"]}, timeout=30)
    assert taken.status_code == 200 and "Set-Cookie" not in taken.headers
    assert endpoint["token"] not in json.dumps(daemon.journal("b"))


def test_a_unix_socket_endpoint_follows_the_control_socket_and_goes_with_its_session(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    shown = ctl(daemon, "session", "new", "shop", "--id", "u", "--endpoint", "socket")
    assert shown.returncode == 0 and shown.stdout == "u\n", shown
    endpoint = daemon.call("GET", "/v1/sessions/u", expect=200).json()["endpoint"]
    path = endpoint["socket"]
    assert path == os.path.join(os.path.dirname(daemon.socket), "endpoints", "u.sock") and "token" not in endpoint, endpoint
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o660
    details = ctl(daemon, "session", "show", "u").stdout
    assert f"endpoint:  {path}   (curl --unix-socket {path} http://localhost/PATH)" in details, details
    run = subprocess.run(["curl", "-sS", "--unix-socket", path, "http://localhost/items"], capture_output=True, text=True, timeout=60)
    assert json.loads(run.stdout) == {"items": ["apple", "pear"]}, run
    with httpx.Client(transport=httpx.HTTPTransport(uds=path), base_url="http://localhost", timeout=30) as client:
        assert client.get("/search.example/q/z").text == "found"
        ctl(daemon, "session", "rm", "u")
        with pytest.raises(httpx.TransportError):
            client.get("/items")
    assert not os.path.exists(path), "the socket goes with its session"


def test_a_delayed_answer_and_a_stream_wait_for_the_sessions_clock(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    endpoint = open_session(daemon, "shop", "c", port=0, token=False)["endpoint"]
    assert "token" not in endpoint and endpoint["proxy"] == endpoint["url"]
    url = endpoint["url"]
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(requests.get(f"{url}/slow", timeout=60)))
    waiting.start()
    until(lambda: outside(daemon, "c") and outside(daemon, "c")[-1].get("pending"), "the delayed request's arrival")
    waiting.join(0.3)
    assert answers == [], "answered before the clock reached its delay"
    daemon.call("POST", "/v1/sessions/c/clock/advance", json={"by": "5s"}, expect=200)
    waiting.join(60)
    assert answers[0].text == "late"

    # Server-sent events, written as the clock delivers each.
    with socket.create_connection(("127.0.0.1", endpoint["port"]), timeout=30) as connection:
        connection.sendall(b"GET /prices HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        reader = ChunkedReader(connection)
        head = reader.head()
        assert head[0] == "HTTP/1.1 200 OK" and "transfer-encoding: chunked" in [line.lower() for line in head], head
        assert reader.chunk() == b'event: price\ndata: {"apple":1}\n\n'
        assert not reader.has_more(0.3), "the next event waits for the clock"
        daemon.call("POST", "/v1/sessions/c/clock/advance", json={"by": "2s"}, expect=200)
        assert reader.chunk() == b'event: price\ndata: {"apple":2}\n\n'
        daemon.call("POST", "/v1/sessions/c/clock/advance", json={"by": "2s"}, expect=200)
        assert reader.chunk() == b"event: done\ndata: {}\n\n"
        assert reader.chunk() == b"", "the stream ends when its script does"

    # Faults as an HTTP client sees them: a timeout is 504, a reset closes the connection.
    timeout = requests.get(f"{url}/timeout", timeout=30)
    assert timeout.status_code == 504 and timeout.headers["Scenario-Fault"] == "timeout"
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{url}/reset", timeout=30)


def clock_example(name):
    """A scenario of docs/serve-any-app.md's "Clocks for outside clients", as the page writes it."""
    page = (REPOSITORY / "docs/serve-any-app.md").read_text()
    return page.split(f"# scenarios/{name}/scenario.yaml", 1)[1].split("\n", 1)[1].split("```", 1)[0]


def test_the_pages_clocks_a_delay_on_the_virtual_clock_and_a_stream_in_real_time(daemon_with):
    daemon = daemon_with({name: clock_example(name) for name in ("feed-slow", "assistant-live-clock")})
    url = open_session(daemon, "feed-slow", "slow", port=0, token=False)["endpoint"]["url"]
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(requests.get(f"{url}/feed.json", timeout=60)))
    waiting.start()
    until(lambda: outside(daemon, "slow") and outside(daemon, "slow")[-1].get("pending"), "the request's arrival")
    daemon.call("POST", "/v1/sessions/slow/clock/advance", json={"by": "5s"}, expect=200)
    waiting.join(60)
    assert answers[0].content == FEED

    # On the system clock nobody moves the clock: the reply's events come as real time passes.
    socket_path = open_session(daemon, "assistant-live-clock", "live")["endpoint"]["socket"]
    run = subprocess.run(["curl", "-sS", "-N", "--unix-socket", socket_path, "-X", "POST", "-d", "{}", "http://localhost/v1/replies"],
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.count("event: token") >= 2 and "event: done" in run.stdout, run
    entry = outside(daemon, "live")[-1]
    times = [chunk["time"] for chunk in entry["stream"]["chunks"]]
    assert times == sorted(times) and times[0] < times[-1], "each event was delivered at its own moment"
    assert daemon.call("GET", "/v1/sessions/live/history", expect=200).json()["steps"][-1]["kind"] == "sendRequest"


def test_sixteen_sessions_each_answer_on_their_own_endpoint(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    endpoints = {}
    for index in range(16):
        overrides = {"network": {"routes": [{"name": "items", "request": {"method": "GET", "url": "https://shop.example/items"},
                                             "response": {"status": 200, "body": f"session {index}"}}]}}
        body = daemon.call("POST", "/v1/sessions", expect=201, json={
            "scenario": "shop", "id": f"s{index}", "overrides": overrides, "endpoint": {"port": 0}}).json()
        endpoints[index] = body["endpoint"]
    assert len({endpoint["port"] for endpoint in endpoints.values()}) == 16
    assert len({endpoint["token"] for endpoint in endpoints.values()}) == 16
    failures = []

    def drive(index):
        endpoint = endpoints[index]
        with httpx.Client(base_url=endpoint["url"], headers={"Scenario-Token": endpoint["token"]}, timeout=60) as client:
            for _ in range(100):
                answer = client.get("/items")
                if answer.text != f"session {index}":
                    failures.append((index, answer.status_code, answer.text))
            # Another session's token opens nothing here.
            other = endpoints[(index + 1) % 16]["token"]
            if client.get("/items", headers={"Scenario-Token": other}).status_code != 401:
                failures.append((index, "another session's token was taken"))

    threads = [threading.Thread(target=drive, args=(index,)) for index in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert failures == []
    for index in range(16):
        journal = outside(daemon, f"s{index}")
        assert [entry["sequence"] for entry in journal] == list(range(2, 102)), index
    for index in range(16):
        daemon.call("DELETE", f"/v1/sessions/s{index}", expect=204)
        with pytest.raises(requests.ConnectionError):
            requests.get(f"{endpoints[index]['url']}/items", timeout=30)


def test_refusals_say_what_is_wrong_and_leave_no_session(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    port = open_session(daemon, "shop", "first", port=0)["endpoint"]["port"]
    taken = daemon.call("POST", "/v1/sessions", expect=409,
                        json={"scenario": "shop", "id": "second", "endpoint": {"port": port}}).json()
    assert taken["code"] == "endpointUnavailable" and f"127.0.0.1:{port}" in taken["message"], taken
    for endpoint, words in [({"port": 70000}, "is not a TCP port"), ({"origin": "ftp://x"}, "is not an http or https origin")]:
        refused = daemon.call("POST", "/v1/sessions", expect=400, json={"scenario": "shop", "id": "third", "endpoint": endpoint}).json()
        assert words in refused["message"], refused
    assert [session["id"] for session in daemon.call("GET", "/v1/sessions", expect=200).json()] == ["first"]
    run = ctl(daemon, "session", "new", "shop", "--endpoint", "here")
    assert run.returncode != 0 and "--endpoint takes 'socket' or a port number" in run.stderr, run.stderr
    run = ctl(daemon, "session", "show", "first", "--proxy")
    assert run.returncode == 0 and run.stdout.startswith("http://scenariod:"), run


def test_an_endpoints_connections_keep_the_daemons_timeouts(daemon_with):
    """A client that never sends a head, or never finishes a body, does not hold a connection for the session's life."""
    daemon = daemon_with({"shop": SHOP}, ["--request-timeout", "300ms", "--body-timeout", "300ms"])
    port = open_session(daemon, "shop", "t", port=0, token=False)["endpoint"]["port"]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as idle:
        assert idle.recv(1) == b"", "an idle connection is closed"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as slow:
        slow.sendall(b"POST /basket HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{}")
        answer = b""
        while chunk := slow.recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer
    with socket.create_connection(("127.0.0.1", port), timeout=30) as large:
        large.sendall(b"POST /basket HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n" % (64 << 20))
        assert large.recv(65536).startswith(b"HTTP/1.1 413"), "a body over the endpoint's 32 MiB is refused at its head"
    assert outside(daemon, "t") == [], "none of them reached the routes"


def test_a_given_origin_and_the_daemons_stop_close_every_endpoint(daemon_with):
    daemon = daemon_with({"shop": SHOP})
    endpoint = open_session(daemon, "shop", "o", origin="https://search.example")["endpoint"]
    assert endpoint["origin"] == "https://search.example"
    run = subprocess.run(["curl", "-sS", "--unix-socket", endpoint["socket"], "http://localhost/q/abc"], capture_output=True,
                         text=True, timeout=60)
    assert run.stdout == "found", run
    daemon.stop()
    assert not os.path.exists(endpoint["socket"])


def test_an_app_recorded_through_its_endpoint_replays_offline(loopback, daemon_with):
    """Item 5: with network: record, what an outside app sends goes to the real network and is kept; the saved scenario
    answers the same app offline."""
    daemon = daemon_with({"feed-record": f"""
description: Records the feed an outside app reads, from the test's loopback server.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
network:
  mode: record
  forward:
    https://www.cocoawithlove.com: {loopback.origin}
"""})
    endpoint = open_session(daemon, "feed-record", "rec", port=0)["endpoint"]
    headers = {"Scenario-Token": endpoint["token"]}
    # With no routes, a request to the endpoint's own address names no origin: it is not sent (sent on, it would come
    # back to the endpoint), and the answer says what to do.
    nowhere = requests.get(f"{endpoint['url']}/feed.json", headers=headers, timeout=30)
    assert nowhere.status_code == 421 and "Create the endpoint with an origin" in nowhere.text, nowhere.text
    daemon.call("DELETE", "/v1/sessions/rec", expect=204)
    endpoint = open_session(daemon, "feed-record", "rec", port=0, origin="https://www.cocoawithlove.com")["endpoint"]
    headers = {"Scenario-Token": endpoint["token"]}
    recorded = requests.get(f"{endpoint['url']}/feed.json", headers=headers, timeout=30)
    assert recorded.status_code == 200 and recorded.content == FEED
    before = len(loopback.requests)
    saved = daemon.call("POST", "/v1/sessions/rec/recording", json={"name": "feed-replayed"}, expect=201).json()
    assert saved["scenario"] == "feed-replayed", saved
    replay = open_session(daemon, "feed-replayed", "replay", port=0)["endpoint"]
    replayed = requests.get(f"{replay['url']}/feed.json", headers={"Scenario-Token": replay["token"]}, timeout=30)
    assert replayed.content == FEED
    assert len(loopback.requests) == before, "the replay must not reach the network"


class ChunkedReader:
    """A response read off a socket as it comes: its head, then its chunked body chunk by chunk."""

    def __init__(self, connection):
        self.connection = connection
        self.buffer = b""

    def _line(self):
        while b"\r\n" not in self.buffer:
            self._receive()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _receive(self):
        data = self.connection.recv(65536)
        assert data, "the connection closed"
        self.buffer += data

    def head(self):
        lines = []
        while (line := self._line().decode()) != "":
            lines.append(line)
        return lines

    def chunk(self):
        """The next chunk; b"" for the last."""
        size = int(self._line(), 16)
        while len(self.buffer) < size + 2:
            self._receive()
        chunk, self.buffer = self.buffer[:size], self.buffer[size + 2:]
        return chunk

    def has_more(self, seconds):
        """Whether more of the body is here, or comes within `seconds`."""
        return bool(self.buffer) or bool(select.select([self.connection], [], [], seconds)[0])


def test_thousands_of_connections_and_sessions_leave_no_descriptor_behind(daemon_with):
    """A daemon under a presenter or a CI farm for days: connections that come and go, clients that hang up in the
    middle of a stream, endpoints opened and closed with their sessions, and 100,000 requests on one connection, end
    with the daemon holding what it held before."""
    daemon = daemon_with({"shop": SHOP})
    path = open_session(daemon, "shop", "soak", token=False)["endpoint"]["socket"]
    descriptors = lambda: len(os.listdir(f"/proc/{daemon.pid}/fd"))
    before = descriptors()
    for _ in range(2000):
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(path)
            connection.sendall(b"GET /items HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            assert connection.recv(65536).startswith(b"HTTP/1.1 200 OK")
    for _ in range(200):
        # A client of a stream that hangs up once its first event came.
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(path)
            connection.sendall(b"GET /prices HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert ChunkedReader(connection).head()[0] == "HTTP/1.1 200 OK"
    until(lambda: descriptors() <= before, f"the daemon's descriptors back to {before} (now {descriptors()})", seconds=30)

    with socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        reader = ChunkedReader(connection)
        for _ in range(100_000):
            connection.sendall(b"GET /items HTTP/1.1\r\nHost: localhost\r\n\r\n")
            head = reader.head()
            length = int(next(line.split(":", 1)[1] for line in head if line.lower().startswith("content-length:")))
            while len(reader.buffer) < length:
                reader._receive()
            reader.buffer = reader.buffer[length:]
        sequence = next(line.split(":", 1)[1].strip() for line in head if line.lower().startswith("scenario-sequence:"))
    entries = daemon.call("GET", "/v1/sessions/soak/journal", expect=200).json()
    # Every request numbered in turn; the journal keeps its newest thousand.
    assert int(sequence) == entries["entries"][-1]["sequence"] and entries["dropped"] > 0, (sequence, entries["dropped"])

    for index in range(200):
        created = open_session(daemon, "shop", f"brief-{index}", **({"port": 0} if index % 2 else {}))
        daemon.call("DELETE", f"/v1/sessions/brief-{index}", expect=204)
        assert created["endpoint"]["url"]
    daemon.call("DELETE", "/v1/sessions/soak", expect=204)
    assert os.listdir(os.path.dirname(path)) == [], "every socket went with its session"
    until(lambda: descriptors() < before, f"the daemon's descriptors below {before} once the endpoint closed (now {descriptors()})", seconds=30)
