"""Per-session overrides without a file (issue 16, item 1): routes, seed and clock start at creation, and routes of
a running session added, replaced and removed; validated as scenario files are, with JSON pointers for places."""
import json
import subprocess

from daemon import SCENARIOCTL

FEED = {"method": "GET", "url": "https://www.cocoawithlove.com/feed.json"}


def ctl(daemon, *arguments):
    run = subprocess.run([SCENARIOCTL, *arguments, "--socket", daemon.socket], capture_output=True, text=True, timeout=30)
    return run.returncode, run.stdout.strip(), run.stderr


def test_a_session_with_overrides_and_its_reset(daemon_with):
    daemon = daemon_with({})
    overrides = {"clock": {"start": "2027-01-01T08:00:00Z"},
                 "keyValue": {"seed": {"readItems": ["https://www.cocoawithlove.com/blog/mock-views.html"]}},
                 "network": {"routes": [{"name": "feed", "request": FEED, "response": {"status": 503}},
                                        {"name": "extra", "request": {"method": "GET", "url": "https://x.example/"},
                                         "response": {"status": 204}}]}}
    created = daemon.call("POST", "/v1/sessions", expect=201,
                          json={"scenario": "first-launch", "id": "o", "overrides": overrides}).json()
    assert created["now"] == "2027-01-01T08:00:00Z" and created["scenario"] == "first-launch"
    assert daemon.state("o")["error"] == "The feed server answered 503."
    entry = daemon.journal("o")[0]
    assert (entry["route"], entry["override"], entry["status"]) == ("feed", True, 503), entry
    assert daemon.call("GET", "/v1/sessions/o/kv/readItems", expect=200).json() == [
        "https://www.cocoawithlove.com/blog/mock-views.html"]
    # A running session's route replaced, then removed; the reset returns to the session's own start.
    daemon.call("PUT", "/v1/sessions/o/routes/feed", expect=204,
                json={"request": FEED, "response": {"status": 200, "bodyFile": "fixtures/feed.json"}})
    assert len(daemon.act("o", "reload")["items"]) == 4
    daemon.call("DELETE", "/v1/sessions/o/routes/feed", expect=204)
    assert daemon.act("o", "reload")["error"] is not None
    assert daemon.call("GET", "/v1/sessions/o/journal/unmatched", expect=200).json()["entries"]
    daemon.call("POST", "/v1/sessions/o/reset", expect=200)
    assert daemon.state("o")["error"] == "The feed server answered 503."
    # Another session of the scenario is untouched.
    daemon.session("first-launch", "plain")
    assert len(daemon.state("plain")["items"]) == 4


def test_overrides_are_validated_as_scenario_files_are_with_json_pointers(daemon_with):
    daemon = daemon_with({})
    body = daemon.call("POST", "/v1/sessions", expect=422, json={"scenario": "first-launch", "overrides": {
        "clock": {"start": "2027-02-30T00:00:00Z"},
        "network": {"routes": [{"name": "feed", "request": {"method": "GETT"}, "responses": []},
                               {"name": "x", "respons": {"status": 200}}]}}}).json()
    assert body["code"] == "invalidOverrides"
    message = body["message"]
    for expected in ["/clock/start: clock.start: '2027-02-30T00:00:00Z' is not a date: February 2027 has 28 days",
                     "/network/routes/1/respons: unknown key 'respons' in network.routes[1]. Did you mean 'response'?"]:
        assert expected in message, message
    assert message.index("/clock/start") < message.index("/network/routes/0") < message.index("/network/routes/1")
    for overrides, expected in [({"model": "Ratings"}, "/model: overrides cannot change 'model'"), ([], "must be an object")]:
        response = daemon.call("POST", "/v1/sessions", expect=422, json={"scenario": "first-launch", "overrides": overrides})
        assert expected in response.json()["message"], response.text
    daemon.session("first-launch", "s")
    response = daemon.call("PUT", "/v1/sessions/s/routes/feed", expect=422, json={"request": FEED, "response": {"status": 2000}})
    assert "/response/status: network.routes[0].response.status must be an integer" in response.json()["message"], response.text
    response = daemon.call("PUT", "/v1/sessions/s/routes/feed", expect=422, json={"name": "other", "response": {"status": 200}})
    assert "/name: the route's name must be 'feed'" in response.json()["message"]
    response = daemon.call("DELETE", "/v1/sessions/s/routes/fed", expect=404).json()
    assert response["code"] == "unknownRoute" and "Did you mean 'feed'?" in response["message"], response


def test_scenarioctl_overrides_and_routes(daemon_with, tmp_path):
    daemon = daemon_with({})
    overrides = tmp_path / "overrides.json"
    overrides.write_text(json.dumps({"network": {"routes": [{"name": "feed", "request": FEED, "response": {"status": 503}}]}}))
    status, out, err = ctl(daemon, "session", "new", "first-launch", "--id", "c", "--overrides", f"@{overrides}")
    assert (status, out) == (0, "c"), err
    assert "503" in ctl(daemon, "state", "c")[1]
    route = json.dumps({"request": FEED, "response": {"status": 500}})
    assert ctl(daemon, "route", "set", "feed", route, "--session", "c")[0] == 0
    assert "500" in ctl(daemon, "do", "reload", "--session", "c")[1]
    assert ctl(daemon, "route", "rm", "feed", "--session", "c")[0] == 0
    status, _, err = ctl(daemon, "route", "rm", "feed", "--session", "c")
    assert status == 1 and "has no route 'feed'" in err, err
    status, _, err = ctl(daemon, "session", "new", "first-launch", "--overrides", "{not json")
    assert status == 2 and "not valid JSON" in err, err


def test_an_override_changes_one_field_of_a_scenario_route(daemon_with):
    """`extends: ROUTE` in overrides (issue 16, item 7): only the delay changes; the request and fixture stay."""
    daemon = daemon_with({})
    patch = {"network": {"routes": [{"extends": "feed", "response": {"delay": "3s"}}]}}
    daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "first-launch", "id": "p", "overrides": patch})
    assert daemon.state("p")["isLoading"] is True
    daemon.call("POST", "/v1/sessions/p/clock/advance", expect=200, json={"by": "3s"})
    assert len(daemon.state("p")["items"]) == 4
    entry = daemon.journal("p")[0]
    assert (entry["route"], entry["override"], entry["status"]) == ("feed", True, 200), entry
    # On a running session: the session's feed route with another status, its request, delay and place kept.
    daemon.call("PUT", "/v1/sessions/p/routes/feed", expect=204, json={"extends": "feed", "response": {"status": 500}})
    assert daemon.act("p", "reload")["isLoading"] is True
    daemon.call("POST", "/v1/sessions/p/clock/advance", expect=200, json={"by": "3s"})
    assert daemon.state("p")["error"] == "The feed server answered 500."
    body = daemon.call("PUT", "/v1/sessions/p/routes/feed", expect=422, json={"extends": "fed"}).json()
    assert "/extends: a route set by name changes the route of that name; 'extends' must be 'feed'" in body["message"], body
    body = daemon.call("PUT", "/v1/sessions/p/routes/fed", expect=422, json={"extends": "fed", "response": {"status": 500}}).json()
    assert "extends route 'fed', but 'first-launch' has no route of that name. Did you mean 'feed'?" in body["message"], body


def test_a_route_added_to_a_running_session_answers_and_is_journaled_as_an_override(daemon_with):
    daemon = daemon_with({})
    daemon.session("first-launch", "r")
    [scenarios] = daemon.journal("r")
    assert scenarios["route"] == "feed" and "override" not in scenarios, scenarios
    # A new name, tried before the scenario's routes: it answers the Model's next request.
    daemon.call("PUT", "/v1/sessions/r/routes/maintenance", expect=204,
                json={"request": FEED, "response": {"status": 503}})
    assert daemon.act("r", "reload")["error"] == "The feed server answered 503."
    entry = daemon.journal("r")[-1]
    assert (entry["sequence"], entry["route"], entry["status"], entry.get("override")) == (2, "maintenance", 503, True), entry
    counts = daemon.call("GET", "/v1/sessions/r/journal/counts", expect=200).json()
    assert counts["routes"] == {"feed": 1, "maintenance": 1} and counts["unmatched"] == 0, counts
    # Removed, the scenario's route answers again, and its entry is no override.
    daemon.call("DELETE", "/v1/sessions/r/routes/maintenance", expect=204)
    assert "error" not in daemon.act("r", "reload")
    entry = daemon.journal("r")[-1]
    assert (entry["sequence"], entry["route"], entry["status"]) == (3, "feed", 200) and "override" not in entry, entry
