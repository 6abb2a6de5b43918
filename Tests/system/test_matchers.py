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
