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


FEED = {"method": "GET", "url": "https://www.cocoawithlove.com/feed.json"}


def everything(daemon, session):
    """What a step may change, as the API's bytes: the Model's state, the journal, the keys and each key's value."""
    base = f"/v1/sessions/{session}"
    keys = daemon.call("GET", f"{base}/kv", expect=200)
    values = {key: daemon.call("GET", f"{base}/kv/{key}", expect=200).content for key in keys.json()["keys"]}
    return {"state": daemon.call("GET", f"{base}/state", expect=200).content,
            "journal": daemon.call("GET", f"{base}/journal", expect=200).content,
            "keys": keys.content, "values": values}


def test_history_records_every_kind_of_step_with_its_parameters_and_rewinds_to_each(daemon_with):
    daemon = daemon_with({})
    daemon.session("offline-demo", "k")
    base = "/v1/sessions/k"
    unavailable = {"request": FEED, "response": {"status": 503}}
    # (method, path, body, status, the step's kind, its parameters)
    steps = [
        ("POST", "actions/setIsRead", {"url": URLS[3], "value": True}, 200,
         "action", {"action": "setIsRead", "arguments": {"url": URLS[3], "value": True}}),
        ("POST", "clock/advance", {"by": "15m"}, 200, "advanceClock", {"by": "15m"}),
        ("PUT", "clock", {"now": "2026-11-01T09:40:00.250Z"}, 200, "setClock", {"now": "2026-11-01T09:40:00.250Z"}),
        ("PUT", "kv/note", {"step": 4}, 200, "setKeyValue", {"key": "note", "value": {"step": 4}}),
        ("DELETE", "kv/readItems", None, 204, "removeKeyValue", {"key": "readItems"}),
        ("PUT", "routes/unavailable", unavailable, 204, "setRoute", {"route": "unavailable", "body": unavailable}),
        ("POST", "actions/reload", None, 200, "action", {"action": "reload", "arguments": {}}),
        ("DELETE", "routes/unavailable", None, 204, "removeRoute", {"route": "unavailable"}),
        ("POST", "actions/reload", None, 200, "action", {"action": "reload", "arguments": {}}),
        ("PUT", "network/conditions", {"offline": True}, 200, "setNetworkConditions", {"conditions": "offline"}),
        ("POST", "actions/reload", None, 200, "action", {"action": "reload", "arguments": {}}),
        ("POST", "journal/clear", None, 204, "clearJournal", {}),
        ("POST", "reset", None, 200, "reset", {}),
    ]
    after = [everything(daemon, "k")]
    for method, path, body, status, _, _ in steps:
        daemon.call(method, f"{base}/{path}", expect=status, **({} if body is None else {"json": body}))
        after.append(everything(daemon, "k"))
    # The steps really changed things: the read mark, the 503, the refresh after the route went, offline, the reset.
    assert json.loads(after[1]["values"]["readItems"]) == sorted(json.loads(after[0]["values"]["readItems"]) + [URLS[3]])
    assert json.loads(after[7]["state"])["error"] == "The feed server answered 503."
    assert "error" not in json.loads(after[9]["state"])
    assert json.loads(after[11]["state"])["error"].startswith("Could not load the feed")
    assert json.loads(after[12]["journal"])["entries"] == []
    assert after[13] == after[0], "a reset returns to the scenario's start"

    history = daemon.call("GET", f"{base}/history", expect=200).json()
    assert "notRewindable" not in history
    recorded = history["steps"]
    assert [s["step"] for s in recorded] == list(range(len(steps) + 1))
    assert (recorded[0]["kind"], recorded[0]["parameters"]) == ("start", {})
    for number, (method, path, _, _, kind, parameters) in enumerate(steps, start=1):
        assert (recorded[number]["kind"], recorded[number]["parameters"]) == (kind, parameters), (method, path, recorded[number])
        # Its requests are the journal entries that appeared with it.
        sequences = [{e["sequence"] for e in json.loads(after[n]["journal"])["entries"]} for n in (number - 1, number)]
        assert recorded[number]["requests"] == sorted(sequences[1] - sequences[0]), (kind, recorded[number])
    assert [s["time"] for s in recorded[2:4]] == ["2026-11-01T09:15:00Z", "2026-11-01T09:40:00.250Z"]
    assert recorded[2]["requests"] and recorded[3]["requests"], "the refreshes"
    # A switch of network conditions is a step, not a request: the journal holds requests only (issue 33, item 4).
    assert recorded[10]["kind"] == "setNetworkConditions" and recorded[10]["requests"] == [], recorded[10]
    assert recorded[13]["time"] == "2026-11-01T09:00:00Z"

    # Rewound to each step, latest first: state, journal and key-value state are byte for byte those after it.
    for target in range(len(steps), -1, -1):
        rewound = daemon.call("POST", f"{base}/rewind", expect=200, json={"step": target}).content
        assert rewound == after[target]["state"], f"step {target}"
        now = everything(daemon, "k")
        for part in ["state", "journal", "keys", "values"]:
            assert now[part] == after[target][part], f"step {target}: {part}\n{now[part]}\n{after[target][part]}"
        assert daemon.call("GET", f"{base}/history", expect=200).json()["steps"] == recorded[:target + 1]


def test_a_play_is_one_step_and_rewinds_to_where_it_stopped(daemon_with):
    """The dashboard's Play advances the clock in small moves marked as a play's: the history keeps them as one step,
    so a long play neither fills the history nor hides where it started; a rewind replays each move."""
    daemon = daemon_with({})
    daemon.session("offline-demo", "p")
    base = "/v1/sessions/p"
    daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "1m"})
    for _ in range(40):  # 40 × 30s crosses FeedReader's 15-minute refresh
        daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "30s", "play": True})
    after_play = raw_state(daemon, "p"), daemon.call("GET", f"{base}/journal", expect=200).content
    daemon.act("p", "setIsRead", url=URLS[0], value=True)
    daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "10s", "play": True})  # a new play
    steps = daemon.call("GET", f"{base}/history", expect=200).json()["steps"]
    assert [s["kind"] for s in steps] == ["start", "advanceClock", "playClock", "action", "playClock"], steps
    assert steps[2]["parameters"] == {"by": "20m", "moves": 40}, steps[2]
    assert steps[2]["summary"] == "play the clock for 20m (40 moves)" and steps[2]["time"] == "2026-11-01T09:21:00Z"
    assert steps[2]["requests"], "the refresh the play crossed is its request"
    assert steps[4]["parameters"] == {"by": "10s", "moves": 1}
    daemon.call("POST", f"{base}/rewind", expect=200, json={"step": 2})
    assert (raw_state(daemon, "p"), daemon.call("GET", f"{base}/journal", expect=200).content) == after_play
    # A play that goes on after a rewind to a play continues that step.
    daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "30s", "play": True})
    steps = daemon.call("GET", f"{base}/history", expect=200).json()["steps"]
    assert len(steps) == 3 and steps[2]["parameters"] == {"by": "20m30s", "moves": 41}, steps
    body = daemon.call("POST", f"{base}/clock/advance", expect=400, json={"by": "1s", "play": "yes"}).json()
    assert body["code"] == "invalidRequest", body


def test_every_change_tells_watchers_so_a_second_view_stays_in_step(daemon_with):
    """A key-value edit changes no state and moves no clock, yet another view of the session must see it: every kept
    step sends historyChanged (after the change's other events); a reset also says where its clock went."""
    daemon = daemon_with({})
    daemon.session("offline-demo", "w")
    base = "/v1/sessions/w"
    daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "5m"})
    import httpx
    seen, block = [], {}
    with httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=10) as http:
        with http.stream("GET", f"{base}/events") as response:
            for line in response.iter_lines():
                line = line.rstrip("\n")
                if line.startswith(":"):
                    continue  # the daemon's heartbeat
                if line:
                    field, _, value = line.partition(": ")
                    block[field] = value
                    continue
                if not block:
                    continue
                seen.append((block["event"], json.loads(block["data"])))
                block = {}
                if len(seen) == 1:  # the current state: now change things
                    daemon.call("PUT", f"{base}/kv/note", expect=200, json="hello")
                    daemon.call("POST", f"{base}/reset", expect=200)
                    daemon.call("POST", f"{base}/rewind", expect=200, json={"step": 1})
                elif seen[-1] == ("historyChanged", {"newestStep": 1}) or len(seen) > 20:
                    break
    names = [name for name, _ in seen]
    assert names[0] == "stateChanged"
    assert seen[1] == ("historyChanged", {"newestStep": 2}), seen  # the kv edit
    reset = names.index("historyChanged", 2)
    assert seen[reset] == ("historyChanged", {"newestStep": 3}), seen
    assert ("clockMoved", {"now": "2026-11-01T09:00:00Z"}) in seen[2:reset], seen
    assert seen[-2:] == [("clockMoved", {"now": "2026-11-01T09:05:00Z"}), ("historyChanged", {"newestStep": 1})], seen
