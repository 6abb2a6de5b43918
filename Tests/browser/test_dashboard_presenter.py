"""The page a presenter needs (issue 28, item 3), in a real headless Chromium: an error shows where the user is
looking at 1280×720 and at a 390-px-wide screen; an unknown or deleted session says so with a way back; what a
step changed is highlighted by the item's identity, not its position; the network is switched from the page; a
journal entry opens to its request, answer, route and near misses; the clock reads in the scenario's time zone;
presenter mode hides the developer's panels and is driven from the keyboard. On the code before this change each
test fails at its first assertion on an element it adds (#now-local, #network, #gone, #presenter, the disclosure
button) or, for the highlight, on the count of changed items."""
import json
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bridge import Bridge, banner_text, chrome, now_text, shoot, state_text, wait
from daemon import Daemon


@pytest.fixture
def presenter(tmp_path):
    """A daemon whose default session is `offline-demo`, its bridge, and a 1280×720 browser on that session."""
    daemon = Daemon(tmp_path / "daemon", {}, ["--scenario", "offline-demo"]).start()
    bridge = Bridge(daemon.socket, tmp_path / "bridge.log")
    browser = chrome(1280, 720)
    try:
        yield daemon, bridge, browser
    finally:
        browser.quit()
        bridge.stop()
        daemon.stop()


def in_view(browser, element_id):
    """Whether the element is shown and wholly inside the viewport."""
    return browser.execute_script("""
        const e = document.getElementById(arguments[0]);
        if (!e || e.hidden) return false;
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;""", element_id)


def open_session(browser, bridge, session="default"):
    browser.get(bridge.page(session))
    wait(browser, lambda: "items" in state_text(browser), f"session {session}'s state")


@pytest.mark.parametrize("width,height", [(1280, 720), (390, 844)])
def test_an_error_shows_where_the_user_is_looking(presenter, width, height):
    _, bridge, browser = presenter
    browser.set_window_size(width, height)
    open_session(browser, bridge)
    # Scrolled to the foot of the page, a refusal from the clock form still shows in the viewport.
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    instant = browser.find_element(By.ID, "set-to")
    browser.execute_script("arguments[0].scrollIntoView()", instant)
    instant.send_keys("not an instant")
    browser.find_element(By.CSS_SELECTOR, "#set-clock button").click()
    wait(browser, lambda: "ISO 8601" in banner_text(browser), "the clock's refusal")
    assert browser.execute_script("return scrollY") > 0, "the page should have been scrolled for this test to mean anything"
    assert in_view(browser, "banner"), "the error is outside the viewport"
    shoot(browser, f"presenter-error-{width}")


def test_an_unknown_or_deleted_session_says_so_with_a_way_back(presenter):
    daemon, bridge, browser = presenter
    browser.get(bridge.page("nobody"))
    wait(browser, lambda: browser.find_elements(By.ID, "gone"), "the page of a session that does not exist")
    assert "There is no session nobody" in browser.find_element(By.ID, "gone").text
    assert "Loading" not in browser.find_element(By.ID, "main").text

    daemon.session("offline", "short-lived")
    browser.get(bridge.page("short-lived"))
    wait(browser, lambda: "items" in state_text(browser), "the short-lived session")
    daemon.call("DELETE", "/v1/sessions/short-lived", expect=204)
    wait(browser, lambda: browser.find_elements(By.ID, "gone"), "the page to say the session went")
    again = browser.find_element(By.CSS_SELECTOR, "#gone button.primary")
    assert again.text == "Start a new session of offline"
    browser.find_element(By.LINK_TEXT, "Open sessions").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#sessions tr[data-session="default"]'), "the sessions page")


def test_a_new_item_is_highlighted_by_its_identity_not_its_position(presenter):
    daemon, bridge, browser = presenter
    daemon.session("feed-updates", "updates")
    open_session(browser, bridge, "updates")
    before = daemon.state("updates")["items"]
    daemon.call("POST", "/v1/sessions/updates/clock/advance", expect=200, json={"by": "15m"})
    after = daemon.state("updates")["items"]
    new = [item["id"] for item in after if item["id"] not in {old["id"] for old in before}]
    assert len(new) == 1 and after[0]["id"] == new[0], "feed-updates should insert one item at the top"
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, '#state li[data-key="items"] > ul > li')) == len(after), "the new item")
    changed = browser.execute_script("""
        return [...document.querySelectorAll('#state li[data-key="items"] > ul > li')]
            .filter((item) => item.querySelector('.changed')).map((item) => item.dataset.id);""")
    # By position every item below the new one would differ; by identity only the new one does.
    assert changed == new, changed
    shoot(browser, "presenter-new-item")


def test_the_network_is_switched_from_the_page_and_a_journal_entry_opens(presenter):
    daemon, bridge, browser = presenter
    daemon.session("first-launch", "weather")
    open_session(browser, bridge, "weather")
    browser.find_element(By.ID, "network-offline").click()
    wait(browser, lambda: browser.find_element(By.ID, "conditions").text == "offline", "the conditions shown")
    assert daemon.call("GET", "/v1/sessions/weather/network/conditions", expect=200).json()["offline"] is True
    slow = browser.find_element(By.CSS_SELECTOR, "#network-slow input")
    slow.clear()
    slow.send_keys("3s")
    browser.find_element(By.CSS_SELECTOR, "#network-slow button").click()
    wait(browser, lambda: "3s" in browser.find_element(By.ID, "conditions").text, "the delay shown")
    browser.find_element(By.ID, "network-normal").click()
    wait(browser, lambda: browser.find_element(By.ID, "conditions").text == "normal", "the network back to normal")

    # One route at a time: the feed fails with a timeout until reset.
    browser.find_element(By.CSS_SELECTOR, "#network details summary").click()
    route = browser.find_element(By.CSS_SELECTOR, '#network form[data-route="feed"]')
    route.find_element(By.TAG_NAME, "select").send_keys("fault: timeout")
    route.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda: daemon.call("GET", "/v1/sessions/weather/history").json()["steps"][-1]["kind"] == "setRoute", "the route set")
    daemon.act("weather", "reload")
    entries = daemon.journal("weather")
    assert entries[-1]["fault"] == "timeout" and entries[-1]["route"] == "feed", entries[-1]

    # The entry opens to what was sent, what came back and which route answered.
    row = f'#journal tr[data-sequence="{entries[-1]["sequence"]}"]'
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, row), "the journal row")
    browser.find_element(By.CSS_SELECTOR, f"{row} button.disclose").click()
    details = wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, f'tr[data-details="{entries[-1]["sequence"]}"]'), "the details")[0].text
    assert "GET https://www.cocoawithlove.com/feed.json" in details and "fault timeout" in details, details
    assert "feed, a route given to this session — in place of the scenario's, until a reset" in details, details
    # Not the scenario's own answers beside the fault this route gave.
    assert "answers 200" not in details, details
    shoot(browser, "presenter-journal-details")


def test_a_near_miss_is_explained_in_the_entry(presenter):
    daemon, bridge, browser = presenter
    daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "first-launch", "id": "missed", "overrides": {
        "network": {"routes": [{"name": "feed", "request": {"method": "GET", "url": "https://www.cocoawithlove.com/other.json"},
                                "response": {"status": 200}}]}}})
    open_session_without_items = bridge.page("missed")
    browser.get(open_session_without_items)
    sequence = daemon.journal("missed")[-1]["sequence"]
    row = f'#journal tr[data-sequence="{sequence}"]'
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, row), "the unmatched request")
    browser.find_element(By.CSS_SELECTOR, f"{row} button.disclose").click()
    details = wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, f'tr[data-details="{sequence}"]'), "the details")[0].text
    assert "Why no route matched" in details and "route feed differs in" in details, details


def test_the_clock_reads_in_the_scenarios_time_zone(presenter):
    _, bridge, browser = presenter
    open_session(browser, bridge)
    # offline-demo starts at 09:00 UTC and names Australia/Sydney, eleven hours ahead in November.
    assert now_text(browser) == "2026-11-01T09:00:00Z"
    local = browser.find_element(By.ID, "now-local").text
    assert "Australia/Sydney" in local and "8:00:00" in local, local


def test_presenter_mode_hides_the_developer_panels_and_follows_the_keyboard(presenter):
    daemon, bridge, browser = presenter
    open_session(browser, bridge)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("p")
    wait(browser, lambda: "presenter" in body.get_attribute("class"), "presenter mode")
    assert not browser.find_element(By.ID, "journal").is_displayed() and not browser.find_element(By.ID, "history").is_displayed()
    assert browser.find_element(By.ID, "state").is_displayed()
    assert browser.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)") >= 20
    shoot(browser, "presenter-mode")

    duration = browser.find_element(By.ID, "advance-by")
    duration.clear()
    duration.send_keys("1m")
    body.click()  # the keys act when no field has the focus
    body.send_keys("n")
    wait(browser, lambda: now_text(browser) == "2026-11-01T09:01:00Z", "n: the next step")
    body.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda: now_text(browser) == "2026-11-01T09:02:00Z", "→: the next step")
    body.send_keys("b")
    wait(browser, lambda: now_text(browser) == "2026-11-01T09:01:00Z", "b: one step back")
    steps = daemon.call("GET", "/v1/sessions/default/history", expect=200).json()["steps"]
    assert [step["kind"] for step in steps][-1] == "advanceClock" and len(steps) == 2, json.dumps(steps)
    body.send_keys("r")
    wait(browser, lambda: now_text(browser) == "2026-11-01T09:00:00Z", "r: reset")
    # Typing in a field is typing, not a command.
    duration.send_keys("n")
    assert now_text(browser) == "2026-11-01T09:00:00Z"
    # Space on a focused button presses that button: "+1 s" moves the clock a second and Play stays off.
    plus_one = browser.find_element(By.XPATH, '//button[normalize-space()="+1 s"]')
    plus_one.send_keys(Keys.SPACE)
    wait(browser, lambda: now_text(browser) == "2026-11-01T09:00:01Z", "Space on +1 s: a second on")
    assert browser.find_element(By.ID, "play").text == "Play", browser.find_element(By.ID, "play").text
    body.click()
    body.send_keys("r")
    wait(browser, lambda: now_text(browser) == "2026-11-01T09:00:00Z", "r: reset")
    # The mode survives a reload of the tab, and p leaves it.
    browser.refresh()
    wait(browser, lambda: "presenter" in browser.find_element(By.TAG_NAME, "body").get_attribute("class"), "presenter mode after a reload")
    browser.find_element(By.TAG_NAME, "body").send_keys("p")
    wait(browser, lambda: "presenter" not in browser.find_element(By.TAG_NAME, "body").get_attribute("class"), "presenter mode left")


def test_at_420_px_no_table_is_wider_than_its_panel(presenter):
    """Scenarios and sessions become a card per row on a phone, the journal's columns are set so a URL wraps in its
    own (between its parts); the scenarios table was 414 px wide in a 388-px panel, its descriptions broken
    mid-word."""
    daemon, bridge, browser = presenter
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 420, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    daemon.session("first-launch", "narrow")
    daemon.act("narrow", "reload")
    overflowing = """
        return [document.documentElement.scrollWidth > innerWidth ? ["the page", document.documentElement.scrollWidth] : null,
                ...[...document.querySelectorAll("table")].map((table) =>
                    table.scrollWidth > table.parentElement.clientWidth ? [table.id, table.scrollWidth, table.parentElement.clientWidth] : null)]
               .filter(Boolean);"""
    browser.get(bridge.page())
    for page, ready in [("#/scenarios", "#scenarios tbody tr"), ("#/sessions", "#sessions tbody tr"), ("#/session/narrow", "#journal tbody tr")]:
        browser.execute_script("location.hash = arguments[0]", page)  # within the tab: its token stays
        wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ready), f"{page} shown")
        assert browser.execute_script(overflowing) == [], page
    # A URL breaks after its parts: the feed's path starts a line of its own rather than a cut word.
    cell = browser.find_elements(By.CSS_SELECTOR, "#journal tbody tr td.wrap")[-1]
    breaks, offset = browser.execute_script("""
        const span = arguments[0].querySelector("span"), range = document.createRange();
        range.selectNodeContents(span.lastChild);
        return [span.querySelectorAll("wbr").length, Math.round(range.getClientRects()[0].left - span.getBoundingClientRect().left)];""", cell)
    assert breaks == 3 and offset == 0, (breaks, offset, cell.text)
    shoot(browser, "narrow-journal-420")


def test_the_sessions_list_follows_sessions_made_and_deleted_elsewhere(presenter):
    """A test run or an agent makes and deletes sessions while the list is open: it showed them only on a reload."""
    daemon, bridge, browser = presenter
    browser.get(bridge.page())
    browser.execute_script("location.hash = '#/sessions'")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#sessions tr[data-session="default"]'), "the list")
    daemon.session("first-launch", "made-elsewhere")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#sessions tr[data-session="made-elsewhere"]'), "the new session listed")
    daemon.call("DELETE", "/v1/sessions/made-elsewhere", expect=204)
    wait(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, '#sessions tr[data-session="made-elsewhere"]'), "the deleted one gone")
    # Leaving the list stops it: a session made then does not draw the list over the page shown.
    browser.execute_script("location.hash = '#/scenarios'")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#scenarios tbody tr"), "the scenarios")
    daemon.session("first-launch", "made-later")
    time.sleep(2.5)  # past one poll's period: what must not happen has had its chance
    assert browser.find_elements(By.CSS_SELECTOR, "#scenarios tbody tr") and not browser.find_elements(By.ID, "sessions")


def test_a_sessions_endpoint_is_shown_and_opens_what_the_session_serves(presenter):
    """Issue 50: a session with its own HTTP listener shows it. One without a token is a link that opens, in the
    presenter's browser, what the session's routes answer there; one with a token is no link, and no URL on the page
    carries its token (a browser hands URLs and cookies to other servers)."""
    daemon, bridge, browser = presenter
    home = {"name": "home", "request": {"method": "GET", "url": "https://www.cocoawithlove.com/"},
            "response": {"headers": {"Content-Type": "text/html"}, "body": "<h1>Cocoa with Love, from the session</h1>"}}
    overrides = {"network": {"routes": [home]}}
    guarded = daemon.call("POST", "/v1/sessions", expect=201, json={
        "scenario": "offline-demo", "id": "guarded", "overrides": overrides, "endpoint": {"port": 0}}).json()["endpoint"]
    open_session(browser, bridge, "guarded")
    shown = browser.find_element(By.ID, "endpoint")
    # The token is hidden on the page until asked for (a projected screen shows it to the room).
    masked = guarded["proxy"].replace(guarded["token"], "••••••••")
    assert guarded["url"] in shown.text and masked in shown.text and guarded["token"] not in shown.text and shown.is_displayed(), shown.text
    shoot(browser, "04c-session-endpoint")
    browser.find_element(By.ID, "endpoint-reveal").click()
    assert guarded["proxy"] in shown.text and browser.find_element(By.ID, "endpoint-reveal").text == "hide token", shown.text
    browser.find_element(By.ID, "endpoint-reveal").click()
    assert guarded["token"] not in shown.text, shown.text
    assert not shown.find_elements(By.TAG_NAME, "a"), "a token's endpoint is reached through the proxy settings, not a link"
    assert browser.execute_script("return [...document.querySelectorAll('[href], [src]')].filter("
                                  "e => (e.href || e.src || '').includes(arguments[0])).length", guarded["token"]) == 0

    endpoint = daemon.call("POST", "/v1/sessions", expect=201, json={
        "scenario": "offline-demo", "id": "web", "overrides": overrides, "endpoint": {"port": 0, "token": False}}).json()["endpoint"]
    open_session(browser, bridge, "web")
    wait(browser, lambda: browser.execute_script("""
        const title = document.querySelector("h1"), link = document.querySelector("#endpoint a");
        return !!title && title.textContent.includes("web") && !!link;"""), "the web session's page, its endpoint a link")
    dashboard = browser.current_window_handle
    browser.find_element(By.CSS_SELECTOR, "#endpoint a").click()
    wait(browser, lambda: len(browser.window_handles) == 2, "the endpoint's tab")
    browser.switch_to.window([handle for handle in browser.window_handles if handle != dashboard][0])
    wait(browser, lambda: "from the session" in browser.find_element(By.TAG_NAME, "body").text, "the page the session serves")
    assert browser.current_url == f"{endpoint['url']}/"
    browser.close()
    browser.switch_to.window(dashboard)
    sent = [entry for entry in daemon.journal("web") if entry.get("outside")]
    assert [(entry["url"], entry.get("route")) for entry in sent][:1] == [("https://www.cocoawithlove.com/", "home")], sent
    # Without an endpoint the line is not there (read in one script: the page is rendered anew as it changes session).
    browser.get(bridge.page("default"))
    wait(browser, lambda: browser.execute_script("""
        const title = document.querySelector("h1"), line = document.getElementById("endpoint");
        return !!title && title.textContent.includes("default") && !!line && line.hidden;"""), "the default session's page, with no endpoint line")
