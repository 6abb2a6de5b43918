"""Session history and rewind (issue 15, item 1): every change kept with its virtual time and the requests it
caused; rewinding rebuilds the session from its scenario and replays, byte for byte; refused where a replay could
not be exact."""
import json
import subprocess

from daemon import SCENARIOCTL

URLS = ["https://www.cocoawithlove.com/blog/testing-actors-in-swift.html",
        "https://www.cocoawithlove.com/blog/swiftui-natural-pattern.html",
        "https://www.cocoawithlove.com/blog/services-layer.html",
        "https://www.cocoawithlove.com/blog/mock-views.html"]


def step(daemon, session, number):
    """One of five kinds of change, by number, so 500 of them cover every kind many times."""
    base = f"/v1/sessions/{session}"
    match number % 5:
        case 0: daemon.call("POST", f"{base}/actions/setIsRead", expect=200, json={"url": URLS[number % 4], "value": number % 3 == 0})
        case 1: daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "7m30s"})  # crosses the 15-minute refresh
        case 2: daemon.call("PUT", f"{base}/kv/note", expect=200, json={"step": number})
        case 3: daemon.call("POST", f"{base}/actions/reload", expect=200)
        case 4: daemon.call("PUT", f"{base}/network/conditions", expect=200, json={"delay": "1s"} if number % 2 else {})


def raw_state(daemon, session):
    return daemon.call("GET", f"/v1/sessions/{session}/state", expect=200).content


def test_rewinding_a_500_step_history_gives_the_state_the_session_had_at_that_step(daemon_with):
    daemon = daemon_with({})
    daemon.session("offline-demo", "h")
    states = [raw_state(daemon, "h")]
    for number in range(1, 501):
        step(daemon, "h", number)
        states.append(raw_state(daemon, "h"))
    journal = daemon.call("GET", "/v1/sessions/h/journal", expect=200).content
    history = daemon.call("GET", "/v1/sessions/h/history", expect=200).json()
    assert "notRewindable" not in history
    assert [s["step"] for s in history["steps"]] == list(range(501))
    assert [s["kind"] for s in history["steps"][1:6]] == ["advanceClock", "setKeyValue", "action", "setNetworkConditions", "action"]
    assert any(s["requests"] for s in history["steps"] if s["kind"] == "advanceClock"), "a clock move caused a refresh"
    # Replaying all 500 steps rebuilds the same state and the same journal, byte for byte.
    assert daemon.call("POST", "/v1/sessions/h/rewind", expect=200, json={"step": 500}).content == states[500]
    assert daemon.call("GET", "/v1/sessions/h/journal", expect=200).content == journal
    for target in [499, 250, 137, 1, 0]:
        rewound = daemon.call("POST", "/v1/sessions/h/rewind", expect=200, json={"step": target}).content
        assert rewound == states[target], f"step {target}"
        assert raw_state(daemon, "h") == states[target]
        assert daemon.call("GET", "/v1/sessions/h/history", expect=200).json()["steps"] == history["steps"][:target + 1]
    body = daemon.call("POST", "/v1/sessions/h/rewind", expect=422, json={"step": 3}).json()
    assert body["code"] == "unknownStep" and "steps 0 to 0" in body["message"], body


def test_history_and_rewind_through_scenarioctl(daemon_with):
    daemon = daemon_with({}, ["--scenario", "slow-network"])

    def ctl(*arguments):
        run = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, *arguments], capture_output=True, text=True, timeout=30)
        return run.returncode, run.stdout, run.stderr

    ctl("clock", "advance", "2s")
    ctl("do", "setIsRead", f"url={URLS[3]}", "value=true")
    status, before, _ = ctl("history", "--json")
    # A reload whose answer waits 2 s on the clock: the rewind stops it undelivered, and that late word of the
    # request replaced must not land in the rebuilt session's journal or steps.
    ctl("do", "reload")
    status, out, _ = ctl("history")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["STEP", "TIME", "REQUESTS", "CHANGE"]
    assert lines[1].split()[:3] == ["0", "2026-11-01T09:00:00Z", "#1"] and "the session started" in lines[1]
    assert "advance the clock by 2s" in lines[2] and lines[2].split()[2] == "#1"  # the delayed feed arrived then
    assert "action setIsRead" in lines[3]
    assert "action reload" in lines[4] and lines[4].split()[2] == "#2"
    status, out, _ = ctl("rewind", "2")
    assert status == 0
    assert ctl("history", "--json")[1] == before, "the rebuilt session's steps are the original's, requests and all"
    assert [e["sequence"] for e in json.loads(ctl("requests", "--json")[1])["entries"]] == [1]
    status, out, _ = ctl("rewind", "1")
    assert status == 0 and not next(i for i in json.loads(out)["items"] if i["url"] == URLS[3])["isRead"]
    status, out, _ = ctl("history", "--json")
    assert [s["kind"] for s in json.loads(out)["steps"]] == ["start", "advanceClock"]
    status, _, err = ctl("rewind", "5")
    assert status == 1 and "has no step 5; its history has steps 0 to 1" in err, err


def test_a_session_that_a_replay_could_not_repeat_is_not_rewound(daemon_with):
    running = "description: Running clock.\nextends: offline-demo\nclock:\n  mode: running\n"
    daemon = daemon_with({"running-demo": running})
    for scenario, reason in [("live", "its answers come from the live network"),
                             ("running-demo", "its clock is running")]:
        daemon.session(scenario, scenario)
        body = daemon.call("POST", f"/v1/sessions/{scenario}/rewind", expect=409, json={"step": 0}).json()
        assert body["code"] == "notRewindable" and reason in body["message"], body
        assert reason in daemon.call("GET", f"/v1/sessions/{scenario}/history", expect=200).json()["notRewindable"]
