"""A Model's escape seen in the dashboard, in a real headless Chromium. fixtured's test Model Escaper
(Tests/Fixtures/TaskModels) starts a `Task.detached` from its `detach` action; the daemon's default policy warns, so
the step is kept, and the page must say so in its banner: the step, what escaped and what to do instead, with the
session's state still on screen. Without the banner the escape would be visible only in the journal's log."""
from selenium.webdriver.common.by import By

from bridge import Bridge, banner_text, chrome, shoot, state_text, wait
from daemon import FIXTURED, Daemon

ESCAPER = """
description: A Model that escapes its session.
model: Escaper
"""


def test_an_escape_is_named_in_the_banner_and_the_state_stays(tmp_path):
    daemon = Daemon(tmp_path / "daemon", {"escaper": ESCAPER}, ["--scenario", "escaper"], binary=FIXTURED,
                    shipped_scenarios=False).start()
    bridge = browser = None
    try:
        bridge = Bridge(daemon.socket, tmp_path / "bridge.log", session="default")
        browser = chrome()
        browser.get(bridge.newest_printed())
        wait(browser, lambda: "steps: 0" in state_text(browser), "the Model's state")
        assert banner_text(browser) == ""

        browser.find_element(By.CSS_SELECTOR, 'form[data-action="detach"] button[type=submit]').click()
        wait(browser, lambda: "escaped its session" in banner_text(browser), "the escape in the banner")
        banner = banner_text(browser)
        shoot(browser, "escape-banner")
        assert "action 'detach'" in banner, banner
        assert "the Model started a Task.detached" in banner, banner
        assert ". Start the work with Task { … } (which the session owns) instead of Task.detached." in banner, banner
        # Warned, not refused: the step ran and its state is shown.
        wait(browser, lambda: "steps: 1" in state_text(browser) or "steps: 2" in state_text(browser), "the step's state")
        escapes = daemon.call("GET", "/v1/sessions/default").json()["escapes"]
        assert [escape["kind"] for escape in escapes] == ["detachedTask"], escapes
        wait(browser, lambda: browser.find_element(By.ID, "escapes").text, "the escape listed under the title")

        # A page opened after the escape lists it too: the banner only shows what it sees happen.
        browser.quit()
        browser = chrome()
        browser.get(bridge.newest_printed())
        wait(browser, lambda: "steps: " in state_text(browser), "the Model's state")
        listed = browser.find_element(By.ID, "escapes").text
        assert "during action 'detach': the Model started a Task.detached" in listed, listed
        assert banner_text(browser) == ""
    finally:
        if browser:
            browser.quit()
        if bridge:
            bridge.stop()
        daemon.stop()
