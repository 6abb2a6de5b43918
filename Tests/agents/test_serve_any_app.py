"""Apps the daemon does not host, through a session endpoint (issue 50): Chromium loading a page from a session whose
`fetch` calls reach the same session, and docs/serve-any-app.md's examples run as written (each fenced block there
is an excerpt of this file, which DocumentationExamplesTests checks)."""
import http.server
import json
import os
import pathlib
import subprocess
import threading

import httpx
from daemon import REPOSITORY, SCENARIOCTL, Daemon
from test_docs import run_example as run_page_example
from playwright.sync_api import sync_playwright

PAGE = """<!doctype html><title>loading</title><ul id="items"></ul><script type="module">
const shown = async () => {
  const items = await (await fetch('/api/items')).json();
  document.getElementById('items').innerHTML = items.map(item => `<li>${item}</li>`).join('');
  return items.length;
};
const before = await shown();
await fetch('/api/items', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({item: 'pear'})});
const after = await shown();
document.title = `${before} then ${after}`;
</script>"""

SHOP = {"shop-page": f"""
description: A web shop's page and the API its script calls, both answered by the session.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
network:
  routes:
    - name: page
      request: {{ method: GET, url: https://shop.example/ }}
      response:
        headers: {{ Content-Type: text/html; charset=utf-8 }}
        body: {json.dumps(PAGE)}
    - name: items
      request: {{ method: GET, url: https://shop.example/api/items }}
      responses:
        - {{ status: 200, body: [apple] }}
        - {{ after: add, status: 200, body: [apple, pear] }}
    - name: add
      request:
        method: POST
        url: https://shop.example/api/items
        bodyFields: {{ /item: pear }}
      response: {{ status: 201 }}
"""}

OPEN_EXAMPLE = """scenariod --scenarios scenarios --socket ./web.sock &
scenarioctl --socket ./web.sock wait
scenarioctl --socket ./web.sock session new offline-demo --id web --endpoint 0
export http_proxy=$(scenarioctl --socket ./web.sock session show web --proxy)
curl -s http://www.cocoawithlove.com/feed.json | grep -c '"title"'
scenarioctl --socket ./web.sock requests --session web
kill $!
"""

# Sources/ScenarioURLLoading/ScenarioURLLoading.docc/RunYourAppsUITestsAgainstAScenario.md
UI_TEST_EXAMPLE = """scenarioctl session new offline-demo --id ui-test --endpoint 0
scenarioctl session show ui-test --proxy
"""

RECORD_EXAMPLE = """scenarioctl --socket ./web.sock session new shop-record --id rec --endpoint 0 --origin https://www.cocoawithlove.com
"""


def test_chromium_loads_a_page_from_a_session_whose_fetch_calls_reach_the_same_session(tmp_path):
    """The browser reaches the session through its proxy settings, the token as the proxy's password: the page is the
    app's own URL (http://shop.example/), and the token goes to the endpoint alone, never to another local server the
    same browser opens."""
    daemon = Daemon(tmp_path, SHOP).start()
    elsewhere = HeaderServer()
    try:
        created = daemon.call("POST", "/v1/sessions", expect=201,
                              json={"scenario": "shop-page", "id": "web", "endpoint": {"port": 0}}).json()
        endpoint = created["endpoint"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless=new"],
                                                 proxy={"server": endpoint["url"], "username": "scenariod", "password": endpoint["token"],
                                                        "bypass": "127.0.0.1"})
            page = browser.new_page()
            page.goto("http://shop.example/")
            page.wait_for_function("document.title.includes('then')", timeout=30_000)
            assert page.title() == "1 then 2"
            assert page.locator("#items li").all_inner_texts() == ["apple", "pear"]
            # Another local server in the same browser, reached without the proxy, is handed nothing of the token.
            page.goto(f"http://127.0.0.1:{elsewhere.server_address[1]}/")
            assert elsewhere.headers and all(endpoint["token"] not in json.dumps(headers) for headers in elsewhere.headers), elsewhere.headers
            browser.close()
        # Chromium also asks for /favicon.ico, whenever it likes: that one matches no route and is left out here.
        sent = [entry for entry in daemon.journal("web") if entry.get("outside") and not entry["url"].endswith("/favicon.ico")]
        assert [(entry["method"], entry["url"], entry.get("route")) for entry in sent] == [
            ("GET", "https://shop.example/", "page"), ("GET", "https://shop.example/api/items", "items"),
            ("POST", "https://shop.example/api/items", "add"), ("GET", "https://shop.example/api/items", "items")], sent
        assert all(endpoint["token"] not in json.dumps(entry) for entry in sent)
        # Without the token, a page is refused.
        assert httpx.get(f"{endpoint['url']}/", timeout=30).status_code == 401
    finally:
        daemon.stop()
        elsewhere.shutdown()


CHAT_PAGE = """<!doctype html><title>connecting</title><script type="module">
const socket = new WebSocket(`ws://${location.host}/room`, ['chat.v2', 'chat.v1']);
const heard = [];
socket.onmessage = (message) => {
  heard.push(JSON.parse(message.data).type);
  if (heard.length === 1) socket.send(JSON.stringify({type: 'ping'}));
  if (heard.length === 2) { document.title = `${heard.join(' then ')} in ${socket.protocol}`; socket.close(); }
};
</script>"""

CHAT = {"chat-page": f"""
description: A chat page and its WebSocket, both answered by the session.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
network:
  routes:
    - name: page
      request: {{ method: GET, url: https://chat.example/ }}
      response:
        headers: {{ Content-Type: text/html; charset=utf-8 }}
        body: {json.dumps(CHAT_PAGE)}
    - name: room
      request: {{ method: GET, url: wss://chat.example/room }}
      response:
        webSocket:
          onConnect: [{{ json: {{ type: hello }} }}]
          replies:
            - when: {{ bodyFields: {{ /type: ping }} }}
              send: [{{ at: +1s, json: {{ type: pong }} }}]
"""}


def test_chromium_talks_to_a_sessions_websocket_on_its_clock(tmp_path):
    """A page opened from a no-token endpoint's own address opens a WebSocket there, offering subprotocols: the
    session plays the server, the pong waiting for the session's clock; the conversation is in the journal."""
    daemon = Daemon(tmp_path, CHAT).start()
    try:
        endpoint = daemon.call("POST", "/v1/sessions", expect=201,
                               json={"scenario": "chat-page", "id": "chat", "endpoint": {"port": 0, "token": False}}).json()["endpoint"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless=new"])
            page = browser.new_page()
            page.goto(f"{endpoint['url']}/")
            # The page's ping is a step of the session once the endpoint has taken it.
            for _ in range(300):
                if "sendToSocket" in [step["kind"] for step in daemon.call("GET", "/v1/sessions/chat/history", expect=200).json()["steps"]]:
                    break
                page.wait_for_timeout(100)
            else:
                raise AssertionError("the page's ping never reached the session")
            assert page.title() == "connecting", "the pong waits for the clock"
            daemon.call("POST", "/v1/sessions/chat/clock/advance", expect=200, json={"by": "1s"})
            page.wait_for_function("document.title.includes('then')", timeout=30_000)
            # The page offered subprotocols, so the handshake picked one (Chromium fails one that picks none).
            assert page.title() == "hello then pong in chat.v2"
            browser.close()
        socket = next(entry for entry in daemon.journal("chat") if entry["url"] == "wss://chat.example/room")
        assert socket["outside"] and [chunk["text"] for chunk in socket["stream"]["chunks"]] == [
            '{"type":"hello"}', '{"type":"ping"}', '{"type":"pong"}'], socket
    finally:
        daemon.stop()


class HeaderServer(http.server.ThreadingHTTPServer):
    """Another local server, which keeps the header fields of every request it gets."""

    def __init__(self):
        self.headers = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(handler):
                self.headers.append(dict(handler.headers))
                handler.send_response(200)
                handler.send_header("Content-Length", "2")
                handler.end_headers()
                handler.wfile.write(b"ok")

            def log_message(handler, *_):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def run_example(tmp_path, script):
    return run_page_example(tmp_path, script, page="docs/serve-any-app.md", beside="scenarios")


def test_the_open_example(tmp_path):
    printed = run_example(tmp_path, OPEN_EXAMPLE)
    lines = printed.splitlines()
    assert lines[1:3] == ["web", "5"], printed
    assert "(sent from outside)" in lines[-1] and "www.cocoawithlove.com/feed.json" in lines[-1], printed


def test_the_ui_test_example(daemon):
    article = "Sources/ScenarioURLLoading/ScenarioURLLoading.docc/RunYourAppsUITestsAgainstAScenario.md"
    script = f"export SCENARIOD_SOCKET={daemon.socket}\n{UI_TEST_EXAMPLE}"
    assert f"```sh\n{UI_TEST_EXAMPLE}```" in (REPOSITORY / article).read_text()
    session_id, proxy = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120,
                                       env={**os.environ, "PATH": f"{pathlib.Path(SCENARIOCTL).parent}:{os.environ['PATH']}"}).stdout.splitlines()
    endpoint = daemon.call("GET", "/v1/sessions/ui-test", expect=200).json()["endpoint"]
    assert session_id == "ui-test" and proxy == f"http://scenariod:{endpoint['token']}@127.0.0.1:{endpoint['port']}"


class FeedServer(http.server.ThreadingHTTPServer):
    """The feed, as the real site would serve it: what the record example records."""

    def __init__(self):
        self.requests = []
        feed = (REPOSITORY / "scenarios/first-launch/fixtures/feed.json").read_bytes()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(handler):
                self.requests.append(handler.path)
                handler.send_response(200)
                handler.send_header("Content-Type", "application/feed+json")
                handler.send_header("Content-Length", str(len(feed)))
                handler.end_headers()
                handler.wfile.write(feed)

            def log_message(handler, *_):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def test_the_record_example(tmp_path):
    server = FeedServer()
    page = (REPOSITORY / "docs/serve-any-app.md").read_text()
    scenario = page.split("# scenarios/shop-record/scenario.yaml\n", 1)[1].split("```", 1)[0]
    # The page's scenario, its requests forwarded to the test's server rather than the internet.
    forwarded = scenario + f"  forward:\n    https://www.cocoawithlove.com: http://127.0.0.1:{server.server_address[1]}\n"
    daemon = Daemon(tmp_path / "daemon", {"shop-record": forwarded})
    daemon.socket = str(tmp_path / "web.sock")
    daemon.arguments[daemon.arguments.index("--socket") + 1] = daemon.socket
    daemon.start()
    try:
        assert run_example(tmp_path, RECORD_EXAMPLE) == "rec\n"
        # FeedReader fetched the feed as its session started; the app's request follows it to the server.
        assert server.requests == ["/feed.json"]
        endpoint = daemon.call("GET", "/v1/sessions/rec", expect=200).json()["endpoint"]
        answer = httpx.get(f"{endpoint['url']}/feed.json", headers={"Scenario-Token": endpoint["token"]}, timeout=30)
        assert answer.status_code == 200 and "Testing actors in Swift" in answer.text
        assert server.requests == ["/feed.json"] * 2
        saved = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, "record", "save", "shop-replay", "--session", "rec"],
                               capture_output=True, text=True, timeout=60)
        assert saved.returncode == 0 and "saved scenario 'shop-replay'" in saved.stdout, saved
        replay = daemon.call("POST", "/v1/sessions", expect=201,
                             json={"scenario": "shop-replay", "id": "replay", "endpoint": {"port": 0}}).json()["endpoint"]
        replayed = httpx.get(f"{replay['url']}/feed.json", headers={"Scenario-Token": replay["token"]}, timeout=30)
        assert replayed.text == answer.text and server.requests == ["/feed.json"] * 2, "the replay is offline"
    finally:
        daemon.stop()
        server.shutdown()
