"""Every call a session makes, against the run's daemon (the plugin's own `scenario` and `scenariod` fixtures)."""
import httpx
import pytest

from scenariod_pytest import ScenariodClient, ScenariodError, ScenarioSession

FEED = "https://www.cocoawithlove.com/feed.json"


def test_a_refused_call_carries_the_apis_code_and_message(scenario):
    with pytest.raises(ScenariodError) as refused:
        scenario("no-such-scenario")
    assert refused.value.code == "unknownScenario" and refused.value.status == 404
    assert "POST /v1/sessions → 404 unknownScenario" in str(refused.value)
    session = scenario("offline-demo")
    with pytest.raises(ScenariodError) as refused:
        session.perform("noSuchAction")
    assert refused.value.code == "unknownAction"


def test_a_session_in_a_with_block_is_deleted_at_its_end(scenario, scenariod: ScenariodClient):
    with scenario("offline-demo") as session:
        assert session.id in scenariod.session_ids()
    assert session.id not in scenariod.session_ids()
    session.delete()  # twice is harmless


def test_the_store_is_a_mapping_and_its_edits_are_steps(scenario):
    session = scenario("offline-demo")
    odd = "a/../b c"
    session.store[odd] = {"n": [1, None]}
    assert session.store[odd] == {"n": [1, None]}
    assert odd in list(session.store)
    del session.store[odd]
    with pytest.raises(KeyError):
        session.store[odd]
    with pytest.raises(KeyError):
        del session.store[odd]
    assert [step["kind"] for step in session.history()][-2:] == ["setKeyValue", "removeKeyValue"]


def test_the_clock_moves_and_is_set(scenario):
    session = scenario("offline-demo")
    assert session.now() == "2026-11-01T09:00:00Z"
    assert session.advance("1h30m") == "2026-11-01T10:30:00Z"
    assert session.set_clock("2026-12-24T18:00:00Z") == "2026-12-24T18:00:00Z"
    assert session.now() == "2026-12-24T18:00:00Z"


def test_requests_leave_out_configuration_changes_and_counts_match_them(scenario):
    session = scenario("offline-demo")
    session.set_network_conditions(delay="2s")
    assert session.network_conditions() == {"offline": False, "delay": "2s"}
    session.set_network_conditions()
    session.perform("reload")
    session.store["note"] = "x"
    made = session.requests()
    assert [entry["url"] for entry in made] == [FEED, FEED]
    assert session.request_counts()["routes"]["feed"] == len(made)
    session.clear_journal()
    assert session.requests() == [] and session.request_counts()["routes"]["feed"] == 0


def test_a_test_sends_a_request_through_the_sessions_routes(scenario):
    session = scenario("slow-network")
    pending = session.send("GET", FEED, headers={"Accept": "application/json"}, wait=False)
    assert pending["pending"] is True and pending["journal"]["outside"] is True, pending
    assert session.sent(pending["sequence"])["pending"] is True
    session.advance("2s")
    answer = session.sent(pending["sequence"])
    assert answer["status"] == 200 and "Cocoa with Love" in answer["body"], answer
    missed = session.send("POST", FEED, body=b"\xff\x00")
    assert missed["fault"] == "connectionRefused" and missed["journal"]["nearMisses"][0]["field"] == "/method", missed
    # The test's own requests are not the Model's: it made one, as it started.
    assert [entry["sequence"] for entry in session.requests()] == [1]
    assert [entry.get("outside") for entry in session.journal()][-2:] == [True, True]


def test_an_app_the_daemon_does_not_host_reaches_the_session_through_its_endpoint(scenario, scenariod: ScenariodClient):
    session = scenario("offline-demo", endpoint=True)
    endpoint = session.endpoint
    assert endpoint is not None and endpoint.url == f"http://127.0.0.1:{endpoint.port}" and endpoint.token
    with httpx.Client(base_url=endpoint.url, headers=endpoint.headers, timeout=30) as app:
        answer = app.get("/feed.json")
        assert answer.status_code == 200 and "Cocoa with Love" in answer.text
        assert app.get("/feed.json", headers={"Scenario-Token": "wrong"}).status_code == 401
    # As a proxy for a plain-HTTP URL of the routes' host: answered by the route for its https URL.
    with httpx.Client(proxy=endpoint.proxy, timeout=30) as app:
        assert app.get("http://www.cocoawithlove.com/feed.json").status_code == 200
    sent = [entry for entry in session.journal() if entry.get("outside")]
    assert [(entry["url"], entry["route"]) for entry in sent] == [(FEED, "feed")] * 2, sent
    assert len(session.requests()) == 1, "the app's requests are not the Model's: it made one, as it started"
    assert scenariod.session(session.id).endpoint.url == endpoint.url
    session.delete()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{endpoint.url}/feed.json", timeout=30)


def test_routes_change_while_the_session_runs_and_a_reset_undoes_them(scenario):
    session = scenario("offline-demo")
    session.set_route("feed", {"extends": "feed", "response": {"status": 500}})
    assert session.perform("reload")["error"] == "The feed server answered 500."
    session.reset()
    assert session.perform("reload").get("error") is None
    session.remove_route("feed")
    assert session.perform("reload")["error"]
    assert session.unmatched()[-1]["url"] == FEED


def test_the_event_stream_starts_with_the_state_and_ends_each_change_with_its_step(scenario):
    session = scenario("offline-demo")
    with session.events() as events:
        first = next(events)
        assert first.name == "stateChanged" and len(first.data["items"]) == 4
        session.advance("1m")
        names = []
        for event in events:
            names.append(event.name)
            if event.name == "historyChanged":
                assert event.data == {"newestStep": 1}
                break
        assert "clockMoved" in names


def test_rewind_and_save(scenario, scenariod: ScenariodClient):
    session = scenario("offline-demo")
    before = session.state()
    session.perform("setIsRead", url="https://www.cocoawithlove.com/blog/mock-views.html", value=True)
    assert session.newest_step() == 1
    assert session.rewind(0) == before
    session.perform("setIsRead", url="https://www.cocoawithlove.com/blog/mock-views.html", value=True)
    name = session.save(f"saved-{session.id}", description="saved by the plugin's tests")
    assert scenariod.scenario(name)["description"] == "saved by the plugin's tests"
    assert scenario(name).state() == session.state()


def test_a_session_opened_by_id_is_the_same_session(scenario, scenariod: ScenariodClient):
    opened = scenario("offline-demo")
    again = scenariod.session(opened.id)
    assert isinstance(again, ScenarioSession) and again.scenario == "offline-demo"
    again.advance("5s")
    assert opened.now() == "2026-11-01T09:00:05Z"


def test_the_daemon_wide_calls(scenariod: ScenariodClient):
    assert scenariod.health()["status"] == "ok"
    assert scenariod.version()["api"] == "v1"
    assert {"FeedReader", "Ratings"} <= {model["name"] for model in scenariod.models()}
    assert "offline-demo" in {scenario["name"] for scenario in scenariod.scenarios()}


def test_explore_runs_in_the_daemon_and_a_broken_property_fails_the_test(scenariod: ScenariodClient):
    report = scenariod.explore("offline-demo", walks=20, steps=8, seed=7)
    assert report["walksRun"] == 20 and report["steps"] == 160 and "failure" not in report, report
    # The same seed, the same walks: only the timings differ.
    again = scenariod.explore("offline-demo", walks=20, steps=8, seed=7)
    timeless = lambda r: {key: value for key, value in r.items() if key not in ("seconds", "stepsPerSecond")}
    assert timeless(again) == timeless(report)
    broken = {"network": {"routes": [{"extends": "feed", "response": {"status": 500}}]}}
    with pytest.raises(AssertionError) as failed:
        scenariod.explore("offline-demo", walks=20, seed=7, overrides=broken)
    assert "the demo feed keeps its four items" in str(failed.value) and "properties.yaml:5:11" in str(failed.value), failed.value
    unchecked = scenariod.explore("offline-demo", walks=20, seed=7, overrides=broken, check=False)
    assert unchecked["failure"]["property"]["property"] == "the demo feed keeps its four items"
    with pytest.raises(ScenariodError) as refused:
        scenariod.explore("offline-dem")
    assert refused.value.code == "unknownScenario"


def test_expect_request_takes_a_pattern_or_ignores_the_query(scenario):
    import re
    session = scenario("ratings-signed-in")
    session.perform("fetchRating")
    with pytest.raises(AssertionError) as exact:
        session.expect_request("GET", "https://api.busratings.example/v1/rating")
    assert "/url: expected https://api.busratings.example/v1/rating, got https://api.busratings.example/v1/rating?" in str(exact.value)
    entry = session.expect_request("GET", "https://api.busratings.example/v1/rating", ignore_query=True)
    assert entry["url"].startswith("https://api.busratings.example/v1/rating?")
    assert session.expect_request("GET", re.compile(r"https://api\.busratings\.example/v1/rating\?user=\w+")) == entry
    with pytest.raises(AssertionError) as pattern:
        session.expect_request("GET", re.compile(r"https://elsewhere\.example/.*"))
    assert "matching /https://elsewhere\\.example/.*/" in str(pattern.value)


def test_near_misses_and_events_until(scenario):
    session = scenario("ratings-signed-in")
    assert session.near_misses() == []
    session.store["session"] = {"user": "alice", "token": "tok-stale"}
    session.perform("fetchRating")
    misses = session.near_misses()
    assert misses[0].startswith("  #1 GET https://api.busratings.example/v1/rating") and "matched no route" in misses[0], misses
    assert "closest route 'rating' differs in /headers/authorization" in misses[1], misses
    first = session.events_until("stateChanged")  # subscribed: the session keeps its events from now on
    assert [event.name for event in first] == ["stateChanged"]
    session.advance("1s")
    resumed = session.events_until(lambda event: event.name == "historyChanged", last_event_id=first[-1].id)
    names = [event.name for event in resumed]
    assert names[-1] == "historyChanged" and "clockMoved" in names and "gap" not in names, names
    with pytest.raises(AssertionError) as waited:
        session.events_until("clockMoved", timeout=0.5)
    assert "waited 0.5 s of wall time for an event 'clockMoved' (read 1: the last stateChanged)" in str(waited.value)
