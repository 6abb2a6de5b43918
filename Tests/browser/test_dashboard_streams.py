"""An open stream's progress in the dashboard (issue 29, item 3), in a real headless Chromium: `assistant-stalled`'s
reply starts ("Thinking") and hangs with its stream open; the session page's Streams panel lists it (route, request,
kind, "delivered N, pending M", when the next chunk is due, the last chunk read), and a presenter pushes the rest of
the reply from the panel's form and ends the stream with Close or Drop. What the server sent is shown as text, never
as markup. On the dashboard before this change every test here fails at its first wait (there is no #streams)."""
import json

import pytest
from selenium.webdriver.common.by import By

from bridge import Bridge, banner_text, chrome, shoot, state_text, wait
from daemon import Daemon


@pytest.fixture
def streams(tmp_path):
    """A daemon on the shipped scenarios, its bridge and a browser: (daemon, bridge, browser)."""
    daemon = Daemon(tmp_path / "daemon", {}).start()
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


def stalled_reply(daemon, session):
    """A session of assistant-stalled whose reply has read its first event and hangs: its open stream of events."""
    daemon.session("assistant-stalled", session)
    daemon.act(session, "send", text="Hi")
    daemon.call("POST", f"/v1/sessions/{session}/clock/advance", expect=200, json={"by": "1s"})
    listed = daemon.call("GET", f"/v1/sessions/{session}/streams", expect=200).json()["streams"]
    # The Assistant's presence WebSocket is open too; the reply is the one stream of events.
    replies = [stream for stream in listed if stream["kind"] == "events"]
    assert len(replies) == 1 and replies[0]["delivered"] == 1 and replies[0]["state"] == "open", listed
    assert "Thinking" in replies[0]["lastChunk"]["text"], listed
    return replies[0]


def panel(browser):
    """The Streams panel as shown: each open stream's fields by name, and the panel's whole text."""
    return browser.execute_script("""
        const list = document.getElementById('streams');
        if (!list) return null;
        const field = (item, name) => { const e = item.querySelector(`[data-field="${name}"]`); return e && !e.hidden ? e.textContent : null; };
        return {
            open: [...list.querySelectorAll(':scope > li[data-stream]')].map((item) => ({
                stream: Number(item.dataset.stream), route: field(item, 'route'), request: field(item, 'request'),
                kind: field(item, 'kind'), counts: field(item, 'counts'), next: field(item, 'next'),
                lastTitle: field(item, 'last-chunk-title'), last: field(item, 'last-chunk'),
                markup: item.querySelectorAll('[data-field="last-chunk"] *').length})),
            text: list.innerText,
        };""")


def open_stream(browser, number):
    shown = panel(browser)
    return next((item for item in shown["open"] if item["stream"] == number), None) if shown else None


def last_message(daemon, session):
    return daemon.state(session)["messages"][-1]


def push(browser, number, data, event=None):
    item = browser.find_element(By.CSS_SELECTOR, f'#streams li[data-stream="{number}"]')
    if event is not None:
        name = item.find_element(By.NAME, "event")
        name.clear()
        name.send_keys(event)
    item.find_element(By.NAME, "data").send_keys(data)
    item.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def test_a_presenter_sees_a_stalled_reply_pushes_the_rest_and_closes_it(streams):
    daemon, bridge, browser = streams
    stream = stalled_reply(daemon, "stalled")
    number = stream["stream"]
    browser.get(bridge.page("stalled"))
    counts = f"delivered 1, pending {stream['pending']}"
    wait(browser, lambda: (open_stream(browser, number) or {}).get("counts") == counts, "the open stream in the panel")
    shown = open_stream(browser, number)
    assert shown["route"] == "reply", shown
    assert shown["request"] == "POST https://assistant.example/v1/replies", shown
    assert shown["kind"] == "events", shown
    assert "Thinking" in shown["last"] and "event: token" in shown["last"], shown
    assert stream["lastChunk"]["time"] in shown["lastTitle"], shown
    # When the next scripted chunk is due, as the API says: the stall has none.
    if "nextAt" in stream:
        assert shown["next"] == f"next due at {stream['nextAt']}", (stream, shown)
    else:
        assert shown["next"] == "nothing scripted is due", (stream, shown)
    assert '"Thinking"' in state_text(browser)
    shoot(browser, "streams-01-stalled")

    # "The server now sends this": the rest of the reply, pushed from the panel's form.
    push(browser, number, '{"text":" hard"}', event="token")
    wait(browser, lambda: last_message(daemon, "stalled")["text"] == "Thinking hard", "the Model to read the pushed token")
    wait(browser, lambda: '"Thinking hard"' in state_text(browser), "the pushed token in the page's state")
    wait(browser, lambda: ((open_stream(browser, number) or {}).get("counts") or "").startswith("delivered 2,"), "the panel to count the pushed chunk")
    shown = open_stream(browser, number)
    assert '{"text":" hard"}' in shown["last"] and "event: token" in shown["last"] and "(pushed)" in shown["lastTitle"], shown
    # What was sent left the field; the event name stays for the next push.
    item = browser.find_element(By.CSS_SELECTOR, f'#streams li[data-stream="{number}"]')
    wait(browser, lambda: item.find_element(By.NAME, "data").get_attribute("value") == "", "the data field cleared after the push")
    assert item.find_element(By.NAME, "event").get_attribute("value") == "token"
    assert banner_text(browser) == ""
    shoot(browser, "streams-02-pushed")

    browser.find_element(By.CSS_SELECTOR, f'#streams li[data-stream="{number}"] button[data-close="{number}"]').click()
    wait(browser, lambda: open_stream(browser, number) is None, "the closed stream to leave the panel")
    text = panel(browser)["text"]
    assert f"Stream {number} (reply) ended: closed" in text, text
    assert [s["kind"] for s in daemon.call("GET", "/v1/sessions/stalled/streams", expect=200).json()["streams"]] == ["webSocket"]
    assert last_message(daemon, "stalled")["text"] == "Thinking hard"
    shoot(browser, "streams-03-closed")
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors


def test_a_pushed_chunk_shows_as_text_and_drop_breaks_the_stream_off(streams):
    daemon, bridge, browser = streams
    number = stalled_reply(daemon, "dropped")["stream"]
    browser.get(bridge.page("dropped"))
    wait(browser, lambda: open_stream(browser, number) is not None, "the open stream in the panel")

    # Markup in what the server sent is text on the page: no element is made of it.
    push(browser, number, json.dumps({"text": " <b>bold</b><img src=x onerror=\"document.title='pwned'\">"}), event="token")
    wait(browser, lambda: "<b>bold</b>" in ((open_stream(browser, number) or {}).get("last") or ""), "the pushed chunk as text")
    shown = open_stream(browser, number)
    assert shown["markup"] == 0 and browser.title != "pwned", shown
    assert last_message(daemon, "dropped")["text"].startswith("Thinking <b>bold</b>")

    # Drop breaks the stream off with a transport error; the panel keeps a line saying how it ended.
    browser.execute_script("window.stashed = document.querySelector(`#streams li[data-stream='${arguments[0]}']`)", number)
    browser.find_element(By.CSS_SELECTOR, f'#streams li[data-stream="{number}"] button[data-drop="{number}"]').click()
    wait(browser, lambda: open_stream(browser, number) is None, "the dropped stream to leave the panel")
    text = panel(browser)["text"]
    assert f"Stream {number} (reply) ended: dropped (connectionReset)" in text, text
    wait(browser, lambda: (daemon.state("dropped").get("error") or "").startswith("The reply was cut off:"), "the Model to see the drop")
    assert [s["kind"] for s in daemon.call("GET", "/v1/sessions/dropped/streams", expect=200).json()["streams"]] == ["webSocket"]
    assert banner_text(browser) == ""
    shoot(browser, "streams-04-dropped")

    # A Close clicked just as the stream ended elsewhere (its entry put back as it was): the API's refusal is shown
    # in the banner, as every API error is.
    browser.execute_script("document.getElementById('streams').prepend(window.stashed)")
    browser.find_element(By.CSS_SELECTOR, f'#streams li[data-stream="{number}"] button[data-close="{number}"]').click()
    wait(browser, lambda: f"has no open stream {number}" in banner_text(browser), "the refusal in the banner")
    assert f"POST /v1/sessions/dropped/streams/{number}/close" in banner_text(browser), banner_text(browser)
    shoot(browser, "streams-05-refused")


def test_a_followed_vehicles_grpc_call_is_listed_without_a_push_and_close_ends_it_ok(streams):
    """trips-happy's follow opens the operator's gRPC stream: the panel lists it as kind rpc with its messages as JSON,
    offers no field to push into it (its messages are protobuf its route writes), and Close ends it with OK, which the
    Model reads as the trip's end."""
    daemon, bridge, browser = streams
    daemon.session("trips-happy", "trips")
    daemon.act("trips", "follow", tripID="t-0912")
    daemon.call("POST", "/v1/sessions/trips/clock/advance", expect=200, json={"by": "30s"})
    listed = daemon.call("GET", "/v1/sessions/trips/streams", expect=200).json()["streams"]
    calls = [stream for stream in listed if stream["kind"] == "rpc"]
    assert len(calls) == 1 and calls[0]["delivered"] == 1, listed
    number = calls[0]["stream"]
    browser.get(bridge.page("trips"))
    wait(browser, lambda: (open_stream(browser, number) or {}).get("kind") == "rpc", "the gRPC call in the panel")
    shown = open_stream(browser, number)
    assert shown["route"] == "vehicle-positions", shown
    assert shown["request"] == "POST https://vehicles.example/transit.Vehicles/Follow", shown
    assert '"lat":59.9111' in shown["last"], shown
    item = browser.find_element(By.CSS_SELECTOR, f'#streams li[data-stream="{number}"]')
    assert not item.find_element(By.NAME, "data").is_displayed()
    assert not item.find_element(By.CSS_SELECTOR, "button[type=submit]").is_displayed()
    shoot(browser, "streams-06-grpc")

    item.find_element(By.CSS_SELECTOR, f'button[data-close="{number}"]').click()
    wait(browser, lambda: open_stream(browser, number) is None, "the closed call to leave the panel")
    wait(browser, lambda: (daemon.state("trips").get("following") or {}).get("ended") is True, "the Model to read the call's end")
    following = daemon.state("trips")["following"]
    assert following["updates"] == 1 and daemon.state("trips").get("error") is None, following
    entry = daemon.journal("trips")[-1]
    assert entry["stream"]["kind"] == "rpc" and entry["stream"]["close"] == {"code": 0, "reason": ""}, entry
    assert banner_text(browser) == ""
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors
