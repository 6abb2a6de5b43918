"""The dashboard in a real headless Chromium, opened through `scenarioctl dashboard` as a person would: start a
slow-network session, see it loading, advance the clock, mark an item read through its action form, see the journal
and the change highlighted, go back in the history, save the session as a scenario and open it, and watch a second
tab follow the first through the event stream. Each step leaves a screenshot in $SCENARIOD_SCREENSHOTS.

The bridge is issue 28's: its URL carries the token in the fragment (`/dashboard/#token=…[&session=…]`), the page
keeps it per tab and sends it in an Authorization header, so a second tab opens with that URL too. On the old
cookie-based bridge every test here fails at the fixture (bridge.Bridge: the printed URL was `/?token=…`)."""
import json

import pytest
from selenium.webdriver.common.by import By

from bridge import MOCK_VIEWS, Bridge, chrome, shoot, state_text, wait
from daemon import Daemon


@pytest.fixture
def dashboard(tmp_path):
    """A daemon, its bridge and a browser: (daemon, browser, the bridge: its printed URL, base and token)."""
    daemon = Daemon(tmp_path / "daemon", {}).start()
    bridge = browser = None
    try:
        bridge = Bridge(daemon.socket, tmp_path / "bridge.log")
        browser = chrome()
        yield daemon, browser, bridge
        print("bridge:", bridge.output(), "sessions:", daemon.call("GET", "/v1/sessions").text, "daemon:", daemon.log()[-3000:])
    finally:
        if browser:
            browser.quit()
        if bridge:
            bridge.stop()
        daemon.stop()


def byte_text(count):
    """`count` bytes as the dashboard and the daemon's messages write them: `512 B`, `64.0 KiB`, `15.3 MiB`."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} B"


def item_is_read(browser, url):
    """Whether the state tree shows the item with `url` as read, and whether that leaf is highlighted."""
    return tuple(browser.execute_script("""
        for (const item of document.querySelectorAll('#state > li[data-key="items"] > ul > li')) {
            if (!item.textContent.includes(JSON.stringify(arguments[0]))) continue;
            const leaf = item.querySelector('li[data-key="isRead"] > span:last-child');
            return [leaf.textContent === "true", leaf.classList.contains("changed")];
        }
        return [null, false];""", url))


def test_a_demo_in_the_dashboard(dashboard):
    daemon, browser, bridge = dashboard
    browser.get(bridge.newest_printed())
    # The token went into this tab's sessionStorage and left the address bar.
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#scenarios tr[data-scenario="slow-network"]'), "the scenarios")
    assert "token" not in browser.current_url and browser.current_url == f"{bridge.base}/dashboard/#/scenarios", browser.current_url
    assert not browser.find_element(By.ID, "banner").is_displayed()
    shoot(browser, "01-scenarios")

    browser.find_element(By.CSS_SELECTOR, '#scenarios tr[data-scenario="slow-network"] button').click()
    wait(browser, lambda: "isLoading: true" in state_text(browser), "loading")
    session = browser.current_url.rsplit("/", 1)[1]
    shoot(browser, "02-loading")

    duration = browser.find_element(By.ID, "advance-by")
    duration.clear()
    duration.send_keys("2s")
    browser.find_element(By.CSS_SELECTOR, "#advance button").click()
    wait(browser, lambda: "isLoading: false" in state_text(browser) and json.dumps(MOCK_VIEWS) in state_text(browser), "the items")
    wait(browser, lambda: browser.find_element(By.ID, "now").text == "2026-11-01T09:00:02Z", "the clock")
    shoot(browser, "03-items")

    # A second tab on the same session, before the change, opened by "Open in a new tab": a one-use link the bridge
    # mints for this tab (each tab keeps a token of its own).
    first = browser.current_window_handle
    before = set(browser.window_handles)
    browser.find_element(By.ID, "new-tab").click()
    wait(browser, lambda: set(browser.window_handles) - before, "the new tab")
    browser.switch_to.window((set(browser.window_handles) - before).pop())
    wait(browser, lambda: item_is_read(browser, MOCK_VIEWS)[0] is False, "the second tab's state")
    assert browser.current_url == f"{bridge.base}/dashboard/#/session/{session}", browser.current_url
    second = browser.current_window_handle
    browser.switch_to.window(first)

    form = browser.find_element(By.CSS_SELECTOR, 'form[data-action="setIsRead"]')
    form.find_element(By.NAME, "url").send_keys(MOCK_VIEWS)
    form.find_element(By.NAME, "value").click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda: item_is_read(browser, MOCK_VIEWS) == (True, True), "the item read and highlighted")
    journal = browser.find_element(By.ID, "journal").text
    assert "GET https://www.cocoawithlove.com/feed.json" in journal and "feed" in journal and "200" in journal
    assert "after 2s" in journal, journal  # slow-network's feed waits 2 s of clock time: the delay is shown
    # A request a test sends through the session's network from outside shows as such, as it arrives.
    daemon.call("POST", f"/v1/sessions/{session}/network/requests", expect=200, json={"url": "https://www.cocoawithlove.com/other.json"})
    wait(browser, lambda: "GET https://www.cocoawithlove.com/other.json sent from outside" in browser.find_element(By.ID, "journal").text,
         "the request sent from outside")
    browser.execute_script("document.getElementById('journal').scrollIntoView()")
    shoot(browser, "04b-sent-from-outside")
    history = browser.find_element(By.ID, "history").text
    assert "advance the clock by 2s" in history and "action setIsRead" in history
    shoot(browser, "04-marked-read")

    browser.switch_to.window(second)
    wait(browser, lambda: item_is_read(browser, MOCK_VIEWS) == (True, True), "the second tab to follow through the event stream")
    shoot(browser, "05-second-tab")
    browser.switch_to.window(first)

    # Back to the step before the mark: the item is unread again.
    step = browser.find_element(By.XPATH, '//ol[@id="history"]/li[contains(., "advance the clock by 2s")]')
    step.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda: item_is_read(browser, MOCK_VIEWS)[0] is False, "the item unread after going back")
    history = browser.find_element(By.ID, "history").text
    assert "action setIsRead" not in history and "null" not in history, history
    # What going back changed is highlighted, and nothing else: not the states the rebuild passed through.
    changed = browser.execute_script("return [...document.querySelectorAll('#state .changed')].map((e) => e.closest('li').dataset.key)")
    assert changed == ["isRead"] and item_is_read(browser, MOCK_VIEWS) == (False, True), changed
    shoot(browser, "06-rewound")

    # A key added in the dashboard, which the saved scenario must seed.
    browser.find_element(By.ID, "kv-new-key").send_keys("demo-note")
    browser.find_element(By.ID, "kv-new-value").send_keys('{"kept": true}')
    browser.find_element(By.CSS_SELECTOR, "#kv-new-key ~ button").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, 'textarea[data-key="demo-note"]'), "the new key")
    # What the session's stores hold is shown under its title, and follows each change (its history grew here).
    def held_shown():
        held = daemon.call("GET", f"/v1/sessions/{session}", expect=200).json()["held"]
        text = browser.find_element(By.ID, "held").text
        return held["history"] > 0 and text.startswith(f"Holds {byte_text(held['total'])}: journal {byte_text(held['journal'])}, history {byte_text(held['history'])}")
    wait(browser, held_shown, "the bytes the session holds")

    # Saved as a scenario, then a session of it: the same read marks, key-value state and clock. FeedReader fetches
    # its feed when it starts, and slow-network's feed takes 2 s of clock time, so the new session loads until its
    # clock moves.
    original = daemon.call("GET", f"/v1/sessions/{session}/state", expect=200).json()
    browser.find_element(By.ID, "save-name").send_keys("demo-from-browser")
    browser.find_element(By.CSS_SELECTOR, "#save button").click()
    wait(browser, lambda: browser.current_url.rsplit("/", 1)[1] != session and "demo-from-browser" in browser.find_element(By.TAG_NAME, "h1").text, "the saved scenario's session")
    saved = browser.current_url.rsplit("/", 1)[1]
    wait(browser, lambda: browser.find_element(By.ID, "now").text == "2026-11-01T09:00:02Z", "the saved clock")
    browser.find_element(By.CSS_SELECTOR, "#advance button").click()  # still 2s
    wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser), "the saved session's items")
    assert daemon.call("GET", f"/v1/sessions/{saved}/state", expect=200).json()["items"] == original["items"]
    assert item_is_read(browser, MOCK_VIEWS)[0] is False
    assert daemon.call("GET", f"/v1/sessions/{saved}/kv/demo-note", expect=200).json() == {"kept": True}
    shoot(browser, "07-saved-scenario")

    # A refusal shows the API's message in the banner.
    duration = browser.find_element(By.ID, "advance-by")
    duration.clear()
    duration.send_keys("soon")
    browser.find_element(By.CSS_SELECTOR, "#advance button").click()
    wait(browser, lambda: browser.find_element(By.ID, "banner").is_displayed(), "the error banner")
    assert "'soon' is not a duration" in browser.find_element(By.ID, "banner-text").text
    # The console has no error but that refusal: no missing file, no script error, no policy violation.
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert [m for m in errors if "/clock/advance" not in m] == [], errors


def test_a_phone_width_screen(dashboard):
    daemon, browser, bridge = dashboard
    daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "offline-demo", "id": "phone"})
    browser.set_window_size(390, 844)
    browser.get(bridge.page("phone"))
    wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser), "the state")
    # Nothing wider than the screen: the page does not scroll sideways.
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    shoot(browser, "08-phone")


def kv_keys(browser):
    return browser.execute_script("return [...document.querySelectorAll('#kv textarea[data-key]')].map((e) => e.dataset.key)")


def journal_rows(browser):
    return browser.execute_script("return document.querySelectorAll('#journal tbody tr').length")


def test_the_clock_the_store_and_a_second_tab_in_step(dashboard):
    """What a demo does besides actions: edit the store, set and play the clock, reset from elsewhere; a second tab
    follows every change, and the keyboard alone can drive the clock."""
    daemon, browser, bridge = dashboard
    daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "offline-demo", "id": "demo"})
    browser.get(bridge.page("demo"))
    wait(browser, lambda: json.dumps(MOCK_VIEWS) in state_text(browser), "the state")
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(bridge.page("demo"))
    wait(browser, lambda: "readItems" in kv_keys(browser), "the second tab's key-value state")
    second = browser.current_window_handle
    browser.switch_to.window(first)

    # A value that is false: it is stored and shown (the panel refreshes on any answer but a refusal).
    browser.find_element(By.ID, "kv-new-key").send_keys("muted")
    browser.find_element(By.ID, "kv-new-value").send_keys("false")
    browser.find_element(By.CSS_SELECTOR, "#kv-new-key ~ button").click()
    wait(browser, lambda: "muted" in kv_keys(browser), "the new key in this tab")
    assert daemon.call("GET", "/v1/sessions/demo/kv/muted", expect=200).json() is False

    # The keyboard alone: type a duration and press Enter; then set an instant the same way.
    duration = browser.find_element(By.ID, "advance-by")
    duration.clear()
    duration.send_keys("1m\n")
    wait(browser, lambda: browser.find_element(By.ID, "now").text == "2026-11-01T09:01:00Z", "the clock after Enter")
    browser.find_element(By.ID, "set-to").send_keys("2026-11-01T10:00:00Z\n")
    wait(browser, lambda: browser.find_element(By.ID, "now").text == "2026-11-01T10:00:00Z", "the clock after Set")

    browser.switch_to.window(second)
    wait(browser, lambda: "muted" in kv_keys(browser), "the second tab to show the key another tab added")
    wait(browser, lambda: browser.find_element(By.ID, "now").text == "2026-11-01T10:00:00Z", "the second tab's clock")
    wait(browser, lambda: "set key muted" in browser.find_element(By.ID, "history").text, "the second tab's history")
    shoot(browser, "09-second-tab-store-and-clock")
    browser.switch_to.window(first)

    # Play at 600×: ten minutes of clock a second, so FeedReader's 15-minute refresh happens while we watch.
    rows = journal_rows(browser)
    Select = __import__("selenium.webdriver.support.select", fromlist=["Select"]).Select
    Select(browser.find_element(By.ID, "play-rate")).select_by_value("600")
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda: journal_rows(browser) > rows and browser.find_element(By.ID, "now").text >= "2026-11-01T10:20:00Z",
         "a refresh while the clock plays", seconds=30)
    browser.find_element(By.ID, "play").click()
    assert browser.find_element(By.ID, "play").text == "Play"
    shoot(browser, "10-played")
    steps = daemon.call("GET", "/v1/sessions/demo/history", expect=200).json()["steps"]
    assert [step["kind"] for step in steps] == ["start", "setKeyValue", "advanceClock", "setClock", "playClock"], steps
    wait(browser, lambda: "play the clock for" in browser.find_element(By.ID, "history").text, "the play in the history")

    # A reset from elsewhere (a test, scenarioctl): both tabs go back to the start, journal and store included.
    daemon.call("POST", "/v1/sessions/demo/reset", expect=200)
    for handle in (first, second):
        browser.switch_to.window(handle)
        wait(browser, lambda: browser.find_element(By.ID, "now").text == "2026-11-01T09:00:00Z", "the clock after the reset")
        wait(browser, lambda: "muted" not in kv_keys(browser), "the store after the reset")
        wait(browser, lambda: journal_rows(browser) == len(daemon.call("GET", "/v1/sessions/demo/journal", expect=200).json()["entries"]),
             "the journal after the reset")
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors
