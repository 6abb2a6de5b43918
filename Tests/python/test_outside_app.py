"""An app the daemon does not host, reaching its session through the session's endpoint: the example of
docs/serve-any-app.md, with only the installed plugin's fixtures."""
import httpx


def test_a_web_client_reads_the_feed_through_its_sessions_endpoint(scenario):
    session = scenario("offline-demo", endpoint=True)
    with httpx.Client(base_url=session.endpoint.url, headers=session.endpoint.headers) as app:
        feed = app.get("/feed.json").json()
    assert [item["title"] for item in feed["items"]][:1] == ["Testing actors in Swift"]
    sent = [entry for entry in session.journal() if entry.get("outside")]
    assert [entry["route"] for entry in sent] == ["feed"]
