"""A dashboard left open through a presenter's day (issue 48, item 2), in a real headless Chromium: 1,000 page loads —
reloads, moves between a session and the sessions list, a session opened in the same tab — each abandon the event
stream the page held. The bridge gives each one's daemon connection back at once: its connections to the daemon and
its file descriptors stay flat, and the page still shows the session's state, with no banner. Before the fix the
bridge held every abandoned stream's connection until the session's next event, and from the 9th on answered 503, so
the page said "The daemon stopped — reconnecting…" for good."""
import pytest

from bridge import Bridge, banner_text, chrome, state_text, wait
from daemon import Daemon, unix_connections


@pytest.fixture
def stack(tmp_path):
    daemon = Daemon(tmp_path / "daemon", {}, ["--scenario", "offline-demo"]).start()
    bridge = browser = None
    try:
        bridge = Bridge(daemon.socket, tmp_path / "bridge.log")
        browser = chrome()
        yield daemon, bridge, browser
        print("bridge:", bridge.output(), "daemon:", daemon.log()[-3000:])
    finally:
        if browser:
            browser.quit()
        if bridge:
            bridge.stop()
        daemon.stop()


def test_a_thousand_page_loads_hold_no_daemon_connection(stack):
    daemon, bridge, browser = stack
    browser.get(bridge.page("default"))
    wait(browser, lambda: "lastRefresh:" in state_text(browser), "the default session's state")
    baseline = unix_connections(bridge.process.pid)
    samples = []
    for index in range(1_000):
        # A reload, a move to the list and back in the same tab: each page's stream is left as the next loads.
        if index % 3 == 0:
            browser.refresh()
        elif index % 3 == 1:
            browser.get(bridge.page())
        else:
            browser.get(bridge.page("default"))
        if index % 100 == 99:
            browser.get(bridge.page("default"))
            wait(browser, lambda: "lastRefresh:" in state_text(browser), f"the state after {index + 1} page loads")
            assert banner_text(browser) == "", (index, banner_text(browser))
            samples.append(unix_connections(bridge.process.pid))
    # The open page's stream, the one being let go of, and the reads' pool: AsyncHTTPClient keeps up to 8 idle, and a
    # page's load asks up to 10 things at once, so a sample taken as one settles may find a few more open (the CI saw
    # 11). What must not happen is growth with the 1,000 pages left behind (before the fix: one more for each, and
    # 503 from the 9th). The descriptors add the browser's own connections to the bridge (Chromium keeps up to 6).
    pool, page_reads, browser_connections = 8, 10, 6
    assert max(unix for unix, _ in samples) <= pool + page_reads, (baseline, samples)
    assert max(descriptors for _, descriptors in samples) <= baseline[1] - baseline[0] + pool + page_reads + browser_connections, (baseline, samples)
