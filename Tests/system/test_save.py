"""Saving a session as a scenario (issue 15, item 2): the new scenario extends the session's, starts at its virtual
time with its key-value state, is written atomically into the state directory and loads at once; a session of it
shows the same state for a Model that restores its state from the store and the clock."""
import json
import subprocess

import yaml

from daemon import SCENARIOCTL

MOCK_VIEWS = "https://www.cocoawithlove.com/blog/mock-views.html"
WITH_EXTRA = """description: offline-demo with one more seeded key.
extends: offline-demo
keyValue:
  seed:
    extra: {"a": 1}
"""


def test_a_saved_session_starts_where_the_session_stood(daemon_with):
    daemon = daemon_with({"with-extra": WITH_EXTRA})
    daemon.session("with-extra", "s")
    daemon.act("s", "setIsRead", url=MOCK_VIEWS, value=True)
    daemon.call("DELETE", "/v1/sessions/s/kv/extra", expect=204)
    daemon.call("POST", "/v1/sessions/s/clock/advance", expect=200, json={"by": "15m"})  # FeedReader refreshes then
    saved = daemon.call("POST", "/v1/sessions/s/save", expect=201, json={"name": "after-reading"}).json()
    assert saved["scenario"] == "after-reading" and saved["extends"] == "with-extra", saved
    text = (daemon.state_directory / "scenarios" / "after-reading" / "scenario.yaml").read_text()
    written = yaml.safe_load(text)
    assert written["extends"] == "with-extra"
    assert "  start: 2026-11-01T09:15:00Z\n  mode: frozen\n" in text, text
    # The session removed a seeded key, so the seed replaces the parent's instead of merging with it.
    assert written["keyValue"]["inheritSeed"] is False and "extra" not in written["keyValue"]["seed"]
    listed = {s["name"]: s for s in daemon.call("GET", "/v1/scenarios", expect=200).json()}
    assert listed["after-reading"]["valid"] is True
    daemon.session("after-reading", "again")
    assert daemon.call("GET", "/v1/sessions/again/state", expect=200).content == \
        daemon.call("GET", "/v1/sessions/s/state", expect=200).content
    assert daemon.call("GET", "/v1/sessions/again/kv", expect=200).json() == {"keys": ["readItems"]}
    assert daemon.call("GET", "/v1/sessions/again/clock", expect=200).json()["now"] == "2026-11-01T09:15:00Z"
    body = daemon.call("POST", "/v1/sessions/s/save", expect=409, json={"name": "after-reading"}).json()
    assert body["code"] == "scenarioExists", body
    assert not [p for p in (daemon.state_directory / "scenarios").iterdir() if p.name.startswith(".")], "no staging left"


def test_session_save_through_scenarioctl(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])

    def ctl(*arguments):
        run = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, *arguments], capture_output=True, text=True, timeout=30)
        return run.returncode, run.stdout, run.stderr

    ctl("do", "setIsRead", f"url={MOCK_VIEWS}", "value=true")
    status, out, err = ctl("session", "save", "demo-read", "--description", "Three items read.")
    assert status == 0, err
    assert out.startswith("demo-read  (extends offline-demo; ") and out.rstrip().endswith("/scenarios/demo-read)"), out
    status, out, _ = ctl("scenarios", "--json")
    assert next(s for s in json.loads(out) if s["name"] == "demo-read")["description"] == "Three items read."
    status, out, _ = ctl("session", "new", "demo-read", "--id", "d")
    status, out, _ = ctl("state", "d")
    assert next(item for item in json.loads(out)["items"] if item["url"] == MOCK_VIEWS)["isRead"] is True
    status, _, err = ctl("session", "save", "demo-read")
    assert status == 1 and "a scenario 'demo-read' exists already; pick another name." in err, err


def test_a_session_a_saved_scenario_could_not_repeat_is_refused_saying_why(daemon_with):
    """A saved scenario extends the session's with its key-value state and time only: a session with other overrides,
    with routes changed while it ran, or with its network switched, is refused (409 notSavable), not saved wrong."""
    daemon = daemon_with({})
    route = {"name": "down", "request": {"method": "GET", "url": "https://www.cocoawithlove.com/feed.json"},
             "response": {"status": 503}}
    daemon.call("POST", "/v1/sessions", expect=201,
                json={"scenario": "offline-demo", "id": "o", "overrides": {"network": {"routes": [route]}}})
    body = daemon.call("POST", "/v1/sessions/o/save", expect=409, json={"name": "from-o"}).json()
    assert body["code"] == "notSavable" and "overrides (network)" in body["message"], body

    # Overrides of the seed and the clock are what a save keeps anyway.
    daemon.call("POST", "/v1/sessions", expect=201, json={
        "scenario": "offline-demo", "id": "k",
        "overrides": {"keyValue": {"seed": {"note": "hi"}}, "clock": {"start": "2026-12-24T18:00:00Z"}}})
    daemon.call("PUT", "/v1/sessions/k/routes/down", expect=204, json=route)
    body = daemon.call("POST", "/v1/sessions/k/save", expect=409, json={"name": "from-k"}).json()
    assert body["code"] == "notSavable" and "set route down" in body["message"] and "reset" in body["message"], body
    daemon.call("POST", "/v1/sessions/k/reset", expect=200)
    daemon.call("PUT", "/v1/sessions/k/network/conditions", expect=200, json={"offline": True})
    body = daemon.call("POST", "/v1/sessions/k/save", expect=409, json={"name": "from-k"}).json()
    assert body["code"] == "notSavable" and "'offline'" in body["message"], body
    daemon.call("PUT", "/v1/sessions/k/network/conditions", expect=200, json={})
    daemon.call("POST", "/v1/sessions/k/save", expect=201, json={"name": "from-k"})
    daemon.session("from-k", "k2")
    assert daemon.call("GET", "/v1/sessions/k2/kv/note", expect=200).json() == "hi"
    assert daemon.call("GET", "/v1/sessions/k2/clock", expect=200).json()["now"] == "2026-12-24T18:00:00Z"
    assert not (daemon.state_directory / "scenarios" / "from-o").exists()
    done = subprocess.run([SCENARIOCTL, "session", "save", "from-o", "--session", "o", "--socket", daemon.socket],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "cannot be saved" in done.stderr, (done.returncode, done.stderr)
