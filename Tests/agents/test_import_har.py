"""The HAR round trip: Playwright's Chromium records a page of a local server into a HAR file, `scenarioctl import
har` turns it into a scenario, fixtured's Fetcher Model replays every recorded request in that scenario, and each
answer is byte for byte what the server sent."""
import base64
import http.server
import json
import subprocess
import threading

import pytest
from daemon import FIXTURED, REPOSITORY
from playwright.sync_api import sync_playwright

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x80, 0x7F, 0x00])
PAGE = b"""<!doctype html><title>loading</title><script type="module">
const items = async () => (await fetch('/api/items')).text();
const before = await items();
// Every body is read: Chromium keeps in the HAR only the bodies the page consumed.
await (await fetch('/api/items', {method: 'POST', headers: {'Content-Type': 'application/json', 'Authorization': 'Bearer secret-token-123'},
                           body: JSON.stringify({title: 'milk', quantity: 2})})).text();
const after = await items();
await (await fetch('/api/search?q=swift&page=2')).text();
await (await fetch('/logo.png')).arrayBuffer();
document.title = before !== after ? 'done' : 'unchanged';
</script>"""


class RecordingServer(http.server.ThreadingHTTPServer):
    """A server whose answers change (a POST adds an item) and which keeps every answer it sent, by request."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.items = []
        self.sent = []
        self.lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def answer(self, status, body, content_type):
        with self.server.lock:
            self.server.sent.append((self.command, self.path, status, body))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/":
            self.answer(200, PAGE, "text/html; charset=utf-8")
        elif self.path == "/api/items":
            self.answer(200, json.dumps({"items": self.server.items}).encode(), "application/json")
        elif self.path.startswith("/api/search"):
            self.answer(200, json.dumps({"query": self.path.split("?", 1)[1], "hits": 3}).encode(), "application/json")
        elif self.path == "/logo.png":
            self.answer(200, PNG, "image/png")
        else:
            self.answer(404, b"not here", "text/plain")

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.items.append(body)
        self.answer(201, json.dumps({"id": len(self.server.items), **body}).encode(), "application/json")


@pytest.fixture
def server():
    server = RecordingServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def record_har(url, path):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless=new"])
        context = browser.new_context(record_har_path=str(path))
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("document.title !== 'loading'", timeout=30_000)
        assert page.title() == "done"
        context.close()  # writes the HAR
        browser.close()


def test_a_har_recorded_by_chromium_imports_and_replays_byte_identically(tmp_path, server, scenarioctl, fixtured_with):
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    har = tmp_path / "shop.har"
    record_har(url, har)
    entries = json.loads(har.read_text())["log"]["entries"]
    assert len(entries) >= 6, [e["request"]["url"] for e in entries]

    out = tmp_path / "scenarios"
    imported = subprocess.run([scenarioctl, "import", "har", str(har), "--model", "Fetcher", "--daemon", str(FIXTURED), "--out", str(out), "--json"],
                              capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr
    summary = json.loads(imported.stdout)
    assert summary["scenario"] == "shop" and summary["routes"] >= 5
    yaml = (out / "shop" / "scenario.yaml").read_text()
    assert "secret-token-123" not in yaml and "after: post-items" in yaml, yaml
    assert [p.read_bytes() for p in (out / "shop" / "fixtures").iterdir()].count(PNG) == 1

    checked = subprocess.run([scenarioctl, "validate", "--daemon", FIXTURED, str(out / "shop")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    daemon = fixtured_with([out])
    assert daemon.http.post("/v1/sessions", json={"scenario": "shop", "id": "replay"}).status_code == 201
    with server.lock:
        sent = list(server.sent)
    for entry in entries:
        request = entry["request"]
        post = request.get("postData", {}).get("text")
        arguments = {"method": request["method"], "url": request["url"],
                     "body": base64.b64encode(post.encode()).decode() if post else None}
        state = daemon.http.post("/v1/sessions/replay/actions/fetch", json=arguments).json()
        answer = state["answers"][-1]
        path = "/" + request["url"].split("/", 3)[3]
        original = next(s for s in sent if (s[0], s[1]) == (request["method"], path))
        sent.remove(original)
        assert answer["status"] == original[2], (request["url"], answer)
        assert base64.b64decode(answer["body"]) == original[3], request["url"]
    # The browser's own favicon request is not the page's, and a HAR leaves it out.
    assert [s for s in sent if s[1] != "/favicon.ico"] == [], f"requests the server answered that the HAR lacks: {sent}"
    assert daemon.http.get("/v1/sessions/replay/journal/unmatched").json()["entries"] == []


def test_bad_har_files_are_refused_with_their_place_and_nothing_is_written(tmp_path, scenarioctl):
    out = tmp_path / "scenarios"
    truncated = tmp_path / "cut.har"
    truncated.write_text('{"log": {"version": "1.2", "entries": [{"startedDateTime": "2026-11-01T09:00:00Z",\n  "request": {"method": "GET", "url": "ht')
    result = subprocess.run([scenarioctl, "import", "har", str(truncated), "--model", "Fetcher", "--daemon", str(FIXTURED), "--out", str(out)], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"{truncated}:2:" in result.stderr and "Nothing was written" in result.stderr, result.stderr
    assert not out.exists()


def test_a_model_the_daemon_does_not_run_is_refused_before_anything_is_written(tmp_path, scenarioctl):
    """--model is checked against the daemon's Models (scenariod beside scenarioctl, or --daemon), offline: before,
    `--model NoSuchModel` exited 0 and wrote a scenario that validate and the daemon refused."""
    har = REPOSITORY / "docs/examples/feed.har"
    out = tmp_path / "scenarios"
    for arguments, words in [(["--model", "NoSuchModel"], ["there is no Model 'NoSuchModel'", "FeedReader", "Ratings"]),
                             (["--model", "feedreader"], ["Did you mean 'FeedReader'?"]),
                             (["--model", "FeedReader", "--daemon", str(FIXTURED)], ["there is no Model 'FeedReader'", "Fetcher"]),
                             (["--model", "Fetcher", "--daemon", "no-such-daemon"], ["no executable 'no-such-daemon'"])]:
        result = subprocess.run([scenarioctl, "import", "har", str(har), *arguments, "--out", str(out)], capture_output=True, text=True)
        assert result.returncode != 0 and all(word in result.stderr for word in words), (arguments, result.stderr)
        assert not out.exists(), arguments
    # The shipped daemon runs FeedReader: the same import is written.
    result = subprocess.run([scenarioctl, "import", "har", str(har), "--model", "FeedReader", "--out", str(out)], capture_output=True, text=True)
    assert result.returncode == 0 and (out / "feed" / "scenario.yaml").exists(), result.stderr


def test_import_verbs_show_their_usage(scenarioctl):
    for verb in ["har", "wiremock", "openapi"]:
        result = subprocess.run([scenarioctl, "import", verb, "--help"], capture_output=True, text=True)
        assert result.returncode == 0 and "USAGE: scenarioctl import " + verb in result.stdout, result.stdout + result.stderr
        assert "--model" in result.stdout and "--out" in result.stdout
