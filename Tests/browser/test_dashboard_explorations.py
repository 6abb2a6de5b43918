"""The explorations page (issue 52): an exploration started from the page runs on the daemon's engine and the page
shows its walks going by, then what it found; one started elsewhere (scenarioctl, a test run) shows up too, and a
running one is cancelled from the page, its sessions deleted. On the code before this change the page does not
exist: the first wait, for its form, fails."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from bridge import Bridge, chrome, shoot, wait
from daemon import Daemon


@pytest.fixture
def explorations(tmp_path):
    daemon = Daemon(tmp_path / "daemon", {}, ["--scenario", "offline-demo"]).start()
    bridge = Bridge(daemon.socket, tmp_path / "bridge.log")
    browser = chrome(1280, 900)
    try:
        yield daemon, bridge, browser
    finally:
        browser.quit()
        bridge.stop()
        daemon.stop()


def row(browser, exploration):
    # Read in the page: a row found here and read in a second call may be removed between the two (the list is drawn
    # again twice a second), which raises a stale-element error rather than reading "".
    return browser.execute_script("const row = document.querySelector(`#explorations tr[data-exploration=\"${arguments[0]}\"]`);"
                                  " return row ? row.innerText : ''", exploration)


def test_an_exploration_is_started_watched_and_cancelled_from_the_page(explorations):
    daemon, bridge, browser = explorations
    browser.get(bridge.page())
    browser.execute_script("location.hash = '#/explorations'")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#explore select[name=scenario]"), "the form")
    Select(browser.find_element(By.CSS_SELECTOR, "#explore select[name=scenario]")).select_by_value("offline-demo")
    walks = browser.find_element(By.CSS_SELECTOR, "#explore input[name=walks]")
    walks.clear()
    walks.send_keys("300")
    browser.find_element(By.CSS_SELECTOR, "#explore button[type=submit]").click()
    wait(browser, lambda: "every property held" in row(browser, "x1"), "x1's report", seconds=60)
    text = row(browser, "x1")
    assert "300/300 walks, 6000 steps" in text and "finished" in text, text
    # The same report the API gives, figure for figure.
    report = daemon.call("GET", "/v1/explorations/x1", expect=200).json()["report"]
    assert f"{report['steps']} steps in" in text and report["walksRun"] == 300
    shoot(browser, "explorations-finished")

    # One started elsewhere, long enough to watch: its progress moves on the page, then the page cancels it.
    daemon.call("POST", "/v1/explorations", expect=201, json={"scenario": "offline-demo", "walks": 100000, "seed": 9})
    wait(browser, lambda: "running" in row(browser, "x2"), "x2 listed as running")
    # The row stays while its progress moves, so the button found before is the one clicked after (a list drawn
    # anew twice a second replaced it under the pointer).
    cancel = browser.find_element(By.XPATH, '//tr[@data-exploration="x2"]//button[text()="Cancel"]')
    first = browser.find_element(By.CSS_SELECTOR, '#explorations tr[data-exploration="x2"] progress').get_attribute("value")
    wait(browser, lambda: browser.find_element(By.CSS_SELECTOR, '#explorations tr[data-exploration="x2"] progress').get_attribute("value") != first,
         "x2's progress to move on the page")
    shoot(browser, "explorations-running")
    cancel.click()
    wait(browser, lambda: not row(browser, "x2"), "x2 gone from the list once cancelled")
    assert daemon.call("GET", "/v1/explorations/x2").status_code == 404
    sessions = [session["id"] for session in daemon.call("GET", "/v1/sessions", expect=200).json()]
    assert sessions == ["default"], sessions
