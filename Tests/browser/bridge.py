"""What the browser tests share: `scenarioctl dashboard` started as a person would (its printed URL parsed to the
issue-28 contract), a headless Chromium, bounded waits and screenshots.

The printed line is `Dashboard of SOCKET: http://127.0.0.1:PORT/dashboard/#token=HEX64[&session=ID]`: the token
travels only in the fragment, which a browser never sends to any server. It opens one tab (the page trades it for a
tab token of its own), and each use prints the next URL; a tab asks for more links (POST /bridge/link)."""
import os
import pathlib
import re
import socket
import subprocess
import sys
import time
import urllib.parse

import httpx
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "system"))
from daemon import SCENARIOCTL  # noqa: E402

SHOTS = pathlib.Path(os.environ.get("SCENARIOD_SCREENSHOTS", "/tmp/scenariod-screenshots"))
MOCK_VIEWS = "https://www.cocoawithlove.com/blog/mock-views.html"

NEXT = re.compile(r"^A tab opened that URL, which opens one tab only; for another tab: "
                  r"http://127\.0\.0\.1:\d+/dashboard/#token=(?P<token>[0-9a-f]{64})(?:&session=\S+)?$")
PRINTED = re.compile(r"^Dashboard of (?P<socket>.+): (?P<base>http://127\.0\.0\.1:(?P<port>\d+))"
                     r"/dashboard/#token=(?P<token>[0-9a-f]{64})(?:&session=(?P<session>\S+))?$")


class BridgeDidNotStart(AssertionError):
    """The bridge exited (or printed nothing) before its first line: e.g. its --port was still taken."""


class Bridge:
    """A running `scenarioctl --socket S dashboard [--port N] [--session ID]`, its output in `log`."""

    def __init__(self, socket_path, log, port=None, session=None):
        self.socket = str(socket_path)
        self.log = pathlib.Path(log)
        command = [SCENARIOCTL, "--socket", self.socket, "dashboard"]
        if port is not None:
            command += ["--port", str(port)]
        if session is not None:
            command += ["--session", session]
        self.process = subprocess.Popen(command, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, text=True)
        deadline = time.monotonic() + 30
        while "\n" not in self.log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise BridgeDidNotStart(f"scenarioctl dashboard printed {self.log.read_text()!r} (exit {self.process.returncode})")
            time.sleep(0.05)
        first = self.log.read_text().splitlines()[0]
        match = PRINTED.match(first)
        if not match:
            self.stop()
            raise AssertionError(f"the first line is not `Dashboard of {self.socket}: http://127.0.0.1:PORT/dashboard/"
                                 f"#token=HEX64[&session=ID]`: {first!r}")
        assert match.group("socket") == self.socket, first
        self.url = first[match.start("base"):]
        self.session = session
        self.base = match.group("base")
        self.port = int(match.group("port"))
        self.token = match.group("token")
        # The session as printed may be percent-encoded (the page decodes it): what it decodes to must be the id.
        printed_session = match.group("session")
        assert (urllib.parse.unquote(printed_session) if printed_session is not None else None) == session, \
            f"--session {session!r} printed {first!r}"
        if port:
            assert self.port == port, first

        # The harness's own tab, opened with the first URL: the page() links are minted through it, and the URL
        # printed next stays unused for a test that opens what a person would (`newest_printed()`).
        answer = self.open_tab(self.token)
        assert answer.status_code == 200, answer.text
        self._tab = answer.json()["token"]
        self.wait_for_printed(2)

    def page(self, session=None):
        """A one-use link for a new tab (or a tab that has none), as "Open in a new tab" mints it, for a session if
        given: the harness's own tab asks the bridge for it, so the printed URLs stay for the tests that open them."""
        answer = httpx.post(f"{self.base}/bridge/link", headers=self.authorization, timeout=10)
        assert answer.status_code == 200, answer.text
        return self.link(answer.json()["token"], session)

    def link(self, token, session=None):
        fragment = f"token={token}" + (f"&session={urllib.parse.quote(session, safe='')}" if session else "")
        return f"{self.base}/dashboard/#{fragment}"

    def printed_links(self):
        """The tokens of every URL printed so far, oldest first: the first line's, then one per use."""
        lines = self.output().splitlines()
        return [self.token] + [m.group("token") for m in map(NEXT.match, lines[1:]) if m]

    def open_tab(self, token):
        """Trades a link's token for a tab's, as the page does: the answer of POST /bridge/tab."""
        return httpx.post(f"{self.base}/bridge/tab", headers={"Authorization": f"Bearer {token}"}, timeout=10)

    def wait_for_printed(self, count, seconds=10):
        """Waits until `count` URLs were printed (each use of the newest prints the next)."""
        deadline = time.monotonic() + seconds
        while len(self.printed_links()) < count:
            assert time.monotonic() < deadline, f"{count} URLs not printed in {seconds} s: {self.output()!r}"
            time.sleep(0.05)

    def newest_printed(self):
        """The URL printed last, which no tab has opened yet, as a person would open it (with --session's session)."""
        return self.link(self.printed_links()[-1], self.session)

    @property
    def authorization(self):
        return {"Authorization": f"Bearer {self._tab}"}

    def output(self):
        return self.log.read_text() if self.log.exists() else ""

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def free_port():
    """A loopback port nobody listens on now (for --port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def chrome(width=1280, height=1000):
    """A headless Chromium of its own (a fresh profile: no cookies, no storage); the caller quits it."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    SHOTS.mkdir(parents=True, exist_ok=True)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def all_cookies(browser):
    """Every cookie the browser holds, for any host and port (Chrome DevTools), not only the current page's."""
    return browser.execute_cdp_cmd("Storage.getCookies", {})["cookies"]


def shoot(browser, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"{name}.png"))
    return SHOTS / f"{name}.png"


def banner_text(browser):
    return browser.execute_script(
        "const b = document.getElementById('banner'); return b && !b.hidden ? b.innerText : ''")


def wait(browser, condition, what, seconds=10):
    try:
        # The page redraws on every event and on each move to another session, so an element found a moment ago may be
        # gone when its text is read: that is the page still moving, and the condition is asked again.
        return WebDriverWait(browser, seconds, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(
            lambda _: condition(), message=f"waited {seconds} s for {what}")
    except Exception as error:
        # What the page showed instead: a screenshot and the banner's text. Any other error the condition raised ends
        # the wait early, so the message names it rather than claiming the whole wait.
        path = shoot(browser, "failed-" + re.sub(r"\W+", "-", what))
        raise AssertionError(f"waited up to {seconds} s for {what} ({type(error).__name__}: {str(error).strip()[:300]}); "
                             f"banner: {banner_text(browser)!r}; page: {browser.current_url}; screenshot: {path}") from error


def state_text(browser):
    # Read in the page: the tree is redrawn by every event, so element handles would go stale.
    return browser.execute_script("const tree = document.getElementById('state'); return tree ? tree.innerText : ''")


def now_text(browser):
    return browser.execute_script("const now = document.getElementById('now'); return now ? now.textContent : ''")
