"""Matching values, not only equality (issue 16, item 3): regex, contains, absent/present and numeric comparisons
on query items, headers and JSON body fields; a body near miss names the JSON path that differed."""
import json
import subprocess

from daemon import SCENARIOCTL

SCENARIO = """description: Ratings matched by shape, not by value.
model: Ratings
clock:
  start: 2026-11-01T09:00:00Z
network:
  routes:
    - name: sign-in
      request:
        method: POST
        url: https://api.busratings.example/v1/session
        headers:
          X-Debug: { absent: true }
        bodyFields:
          /user: { regex: "[a-z]+" }
          /password: { present: true }
      response:
        status: 201
        body: { token: tok-42 }
    - name: rating
      request:
        method: GET
        url: https://api.busratings.example/v1/rating
        headers:
          Authorization: { regex: "Bearer tok-[0-9]+" }
      response:
        body: { driver: 4.5, bus: 4, count: 12 }
    - name: rate
      request:
        method: POST
        url: https://api.busratings.example/v1/ratings
        headers:
          Authorization: { contains: tok- }
        bodyFields:
          /driver: { lte: 4 }
          /bus: { gt: 0 }
      response:
        status: 201
        body: { driver: 4.6, bus: 4, count: 13 }
    - name: bob-only
      request:
        method: POST
        url: https://api.busratings.example/v1/session
        body: { user: bob }
      response:
        status: 201
        body: { token: tok-bob }
"""


def unmatched(daemon, session):
    return daemon.call("GET", f"/v1/sessions/{session}/journal/unmatched", expect=200).json()["entries"]


def test_each_way_of_matching_decides_what_the_model_gets(daemon_with):
    daemon = daemon_with({"shapes": SCENARIO})
    daemon.session("shapes", "s")
    daemon.act("s", "signIn", user="alice", password="correct horse")
    daemon.act("s", "fetchRating")
    daemon.act("s", "rate", driver=4, bus=4)
    assert [entry.get("route") for entry in daemon.journal("s")] == ["sign-in", "rating", "rate"]

    daemon.act("s", "rate", driver=5, bus=4)  # lte 4 refuses it, and the near miss names the field
    miss = unmatched(daemon, "s")[-1]["nearMisses"][0]
    assert (miss["route"], miss["field"], miss["expected"], miss["actual"]) == ("rate", "/body/driver", "<= 4", "5"), miss

    daemon.session("shapes", "t")
    daemon.act("t", "signIn", user="Alice1", password="x")  # the regex must match the whole value
    misses = unmatched(daemon, "t")[-1]["nearMisses"]
    assert {"route": "sign-in", "field": "/body/user", "expected": "regex [a-z]+", "actual": "Alice1"} in [
        {key: miss[key] for key in ("route", "field", "expected", "actual")} for miss in misses], misses
    # A body subset that differs names the path that differed, not the whole body.
    bob = next(miss for miss in misses if miss["route"] == "bob-only")
    assert (bob["field"], bob["expected"], bob["actual"]) == ("/body/user", "bob", "Alice1"), bob


def test_validate_accepts_the_new_keys(tmp_path):
    directory = tmp_path / "scenarios/shapes"
    directory.mkdir(parents=True)
    (directory / "scenario.yaml").write_text(SCENARIO)
    run = subprocess.run([SCENARIOCTL, "validate", str(tmp_path / "scenarios")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_query_near_miss_names_the_query_item_by_json_pointer(daemon_with):
    """The shipped ratings-signed-in answers alice's rating only (`query: {user: alice}`): signed in as bob with
    alice's token, the Model asks for /v1/rating?user=bob, and the near miss points at /query/user."""
    daemon = daemon_with({"any-lowercase-user": """description: A rating for any lower-case user name.
extends: ratings-signed-in
network:
  routes:
    - name: rating
      request:
        method: GET
        url: https://api.busratings.example/v1/rating
        query:
          user: { regex: "[a-z]+" }
      response:
        body: { average: 3, count: 1 }
"""})
    daemon.session("ratings-signed-in", "q")
    assert daemon.act("q", "fetchRating")["rating"] == {"average": 4.5, "count": 12}
    daemon.call("PUT", "/v1/sessions/q/kv/session", json={"user": "bob", "token": "tok-alice-1"}, expect=200)
    state = daemon.act("q", "fetchRating")
    assert state["error"].startswith("Could not reach the ratings service"), state
    alice, bob = daemon.journal("q")
    assert (alice["url"], alice["route"]) == ("https://api.busratings.example/v1/rating?user=alice", "rating"), alice
    assert bob["url"] == "https://api.busratings.example/v1/rating?user=bob" and "route" not in bob, bob
    miss = next(miss for miss in bob["nearMisses"] if miss["route"] == "rating")
    assert (miss["field"], miss["expected"], miss["actual"]) == ("/query/user", "alice", "bob"), bob["nearMisses"]
    requests = subprocess.run([SCENARIOCTL, "requests", "--unmatched", "--session", "q", "--socket", daemon.socket],
                              capture_output=True, text=True, timeout=60)
    assert "/query/user" in requests.stdout and "expected alice, got bob" in requests.stdout, requests.stdout + requests.stderr

    # A query item matched by shape: any lower-case name, not 'Bob'.
    daemon.session("any-lowercase-user", "r")
    daemon.call("PUT", "/v1/sessions/r/kv/session", json={"user": "bob", "token": "tok-bob"}, expect=200)
    assert daemon.act("r", "fetchRating")["rating"] == {"average": 3, "count": 1}
    daemon.call("PUT", "/v1/sessions/r/kv/session", json={"user": "Bob", "token": "tok-bob"}, expect=200)
    daemon.act("r", "fetchRating")
    miss = next(miss for miss in unmatched(daemon, "r")[-1]["nearMisses"] if miss["route"] == "rating")
    assert (miss["field"], miss["expected"], miss["actual"]) == ("/query/user", "regex [a-z]+", "Bob"), miss


def test_a_body_is_matched_as_text_with_body_text(daemon_with):
    """`bodyText` matches the whole body as text, for bodies that are not JSON; its near miss says /bodyText."""
    daemon = daemon_with({"text-body": """description: Alice's sign-in, matched by the body's text.
model: Ratings
clock:
  start: 2026-11-01T09:00:00Z
network:
  routes:
    - name: sign-in
      request:
        method: POST
        url: https://api.busratings.example/v1/session
        bodyText: { contains: alice }
      response:
        status: 201
        body: { token: tok-42 }
"""})
    daemon.session("text-body", "b")
    daemon.act("b", "signIn", user="alice", password="x")
    daemon.act("b", "signIn", user="bob", password="x")
    first, second = daemon.journal("b")
    assert first["route"] == "sign-in" and "route" not in second, (first, second)
    miss = unmatched(daemon, "b")[-1]["nearMisses"][0]
    assert (miss["route"], miss["field"], miss["expected"]) == ("sign-in", "/bodyText", "contains alice"), miss
    assert "bob" in miss["actual"], miss
