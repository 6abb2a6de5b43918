"""FeedReader through scenarios, from Python: a suite that uses only the installed pytest plugin (scenariod-pytest,
clients/python), as a team's own suite would. It has no conftest.py; the plugin's fixtures come by name."""
import pytest


def test_offline_demo_shows_the_feed_with_two_items_read(scenario):
    session = scenario("offline-demo")
    state = session.state()
    assert len(state["items"]) == 4
    assert sum(item["isRead"] for item in state["items"]) == 2
    session.expect_no_unmatched_requests()


def test_a_server_error_is_shown(scenario):
    state = scenario("server-error").perform("reload")
    assert state["error"] == "The feed server answered 500."


def test_slow_network_shows_loading_until_the_clock_passes_the_delay(scenario):
    session = scenario("slow-network")
    assert session.state()["isLoading"] is True
    session.advance("1999ms")
    assert session.state()["isLoading"] is True
    session.advance("1ms")
    state = session.state()
    assert state["isLoading"] is False
    assert len(state["items"]) == 4


def test_waiting_for_the_feed_moves_the_clock_until_it_has_loaded(scenario):
    session = scenario("slow-network")
    loaded = session.wait_for_state({"isLoading": False}, advancing_by="500ms", up_to="10s")
    assert len(loaded["items"]) == 4
    assert session.now() == "2026-11-01T09:00:02Z"


@pytest.mark.scenario("offline-demo")
def test_a_marked_test_gets_its_session(scenario_session):
    assert scenario_session.scenario == "offline-demo"
    scenario_session.expect_request("GET", "https://www.cocoawithlove.com/feed.json")


def test_a_variation_without_a_scenario_file(scenario):
    feed = {"method": "GET", "url": "https://www.cocoawithlove.com/feed.json"}
    session = scenario("first-launch", overrides={"network": {"routes": [
        {"name": "feed", "request": feed, "response": {"status": 503}}]}})
    assert session.state()["error"] == "The feed server answered 503."
    session.set_route("feed", {"request": feed, "response": {"status": 200, "bodyFile": "fixtures/feed.json"}})
    assert len(session.perform("reload")["items"]) == 4


def test_a_templated_answer_says_when_it_was_asked_for(scenario):
    templated = {"extends": "feed", "response": {"template": True, "body": {
        "version": "1", "title": "Templated", "items": [{"id": "{{request.url}}", "title": "Asked at {{now.time}}"}]}}}
    session = scenario("first-launch", overrides={"network": {"routes": [templated]}})
    assert [item["title"] for item in session.state()["items"]] == ["Asked at 09:00:00"]
    session.advance("90s")
    assert [item["title"] for item in session.perform("reload")["items"]] == ["Asked at 09:01:30"]


def test_rewinding_to_before_a_mark_shows_the_item_unread_again(scenario):
    session = scenario("offline-demo")
    url = "https://www.cocoawithlove.com/blog/mock-views.html"
    session.perform("setIsRead", url=url, value=True)
    session.advance("1m")
    assert [step["kind"] for step in session.history()] == ["start", "action", "advanceClock"]
    state = session.rewind(0)
    assert not next(item for item in state["items"] if item["url"] == url)["isRead"]
    assert len(session.history()) == 1


def test_a_state_reached_by_hand_is_saved_as_a_scenario(scenario):
    session = scenario("offline-demo")
    session.perform("setIsRead", url="https://www.cocoawithlove.com/blog/mock-views.html", value=True)
    saved = scenario(session.save(f"saved-{session.id}"))
    assert saved.state() == session.state()


def test_switched_offline_the_feed_shows_the_error_and_recovers(scenario):
    session = scenario("offline-demo")
    session.set_network_conditions(offline=True)
    assert session.perform("reload")["error"] == "Could not load the feed: The network is offline."
    session.set_network_conditions()
    assert session.perform("reload").get("error") is None
    session.expect_requests("feed", 2)  # the request made offline reached no route


def test_the_feed_refreshes_itself_after_fifteen_minutes(scenario):
    session = scenario("feed-updates")
    session.expect_requests("feed", 1)
    session.advance("15m")
    assert len(session.state()["items"]) == 5
    assert [entry["route"] for entry in session.requests()] == ["feed", "feed"]
    session.expect_requests("feed", 2)
    with pytest.raises(AssertionError) as failure:
        session.expect_requests("feed", 3)
    assert "answered 2 requests, not 3" in str(failure.value) and "GET https://www.cocoawithlove.com/feed.json" in str(failure.value)
