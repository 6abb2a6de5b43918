"""An app the daemon does not host, reaching its session through the session's endpoint: the example of
docs/serve-any-app.md, with only the installed plugin's fixtures."""
import json

import httpx
from websockets.sync.client import connect


def test_a_web_client_reads_the_feed_through_its_sessions_endpoint(scenario):
    session = scenario("offline-demo", endpoint=True)
    with httpx.Client(base_url=session.endpoint.url, headers=session.endpoint.headers) as app:
        feed = app.get("/feed.json").json()
    assert [item["title"] for item in feed["items"]][:1] == ["Testing actors in Swift"]
    sent = [entry for entry in session.journal() if entry.get("outside")]
    assert [entry["route"] for entry in sent] == ["feed"]


def test_a_chat_client_hears_the_assistant_on_the_sessions_clock(scenario):
    session = scenario("assistant-happy", endpoint=True)
    url = session.endpoint.url.replace("http://", "ws://")
    with connect(f"{url}/v1/presence", additional_headers=session.endpoint.headers) as presence:
        session.advance("100ms")
        assert json.loads(presence.recv()) == {"type": "online", "online": True}
        presence.send(json.dumps({"type": "sent"}))
        assert json.loads(presence.recv()) == {"type": "typing", "typing": True}
    session.wait_for_step(4)  # the close: a step once the endpoint has taken it
    kinds = [step["kind"] for step in session.history()]
    assert kinds == ["start", "openSocket", "advanceClock", "sendToSocket", "closeSocket"]
