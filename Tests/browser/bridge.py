"""What the browser tests share: `scenarioctl dashboard` started as a person would (its printed URL parsed to the
issue-28 contract), a headless Chromium, bounded waits and screenshots.

The printed line is `Dashboard of SOCKET: http://127.0.0.1:PORT/dashboard/#token=HEX64[&session=ID]`: the token
travels only in the fragment, which a browser never sends to any server."""
import os
import pathlib
import re
import socket
import subprocess
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "system"))
from daemon import SCENARIOCTL  # noqa: E402

SHOTS = pathlib.Path(os.environ.get("SCENARIOD_SCREENSHOTS", "/tmp/scenariod-screenshots"))
MOCK_VIEWS = "https://www.cocoawithlove.com/blog/mock-views.html"

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
        self.base = match.group("base")
        self.port = int(match.group("port"))
        self.token = match.group("token")
        # The session as printed may be percent-encoded (the page decodes it): what it decodes to must be the id.
        printed_session = match.group("session")
        assert (urllib.parse.unquote(printed_session) if printed_session is not None else None) == session, \
            f"--session {session!r} printed {first!r}"
        if port:
            assert self.port == port, first

    def page(self, session=None):
        """The address a person opens: the printed URL's form, for a session if given (a new tab needs it: the
        token is kept per tab)."""
        fragment = f"token={self.token}" + (f"&session={urllib.parse.quote(session, safe='')}" if session else "")
        return f"{self.base}/dashboard/#{fragment}"

    @property
    def authorization(self):
        return {"Authorization": f"Bearer {self.token}"}

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
        return WebDriverWait(browser, seconds).until(lambda _: condition(), message=f"waited {seconds} s for {what}")
    except Exception:
        # What the page showed instead: a screenshot and the banner's text.
        path = shoot(browser, "failed-" + re.sub(r"\W+", "-", what))
        raise AssertionError(f"waited {seconds} s for {what}; banner: {banner_text(browser)!r}; "
                             f"page: {browser.current_url}; screenshot: {path}")


def state_text(browser):
    # Read in the page: the tree is redrawn by every event, so element handles would go stale.
    return browser.execute_script("const tree = document.getElementById('state'); return tree ? tree.innerText : ''")


def now_text(browser):
    return browser.execute_script("const now = document.getElementById('now'); return now ? now.textContent : ''")
