"""Live, mixed and recorded scenarios through the real daemon, against a loopback server; never the internet."""
import json
import sqlite3
import subprocess
import threading
import time

import pytest
import yaml

from daemon import SCENARIOCTL, until

FEED_ITEMS = 4  # scenarios/first-launch/fixtures/feed.json


def live_feed(origin, extra=""):
    return f"""
description: The shipped live scenario, its feed origin sent to the test's loopback server.
extends: live
network:
  forward:
    https://www.cocoawithlove.com: {origin}
{extra}"""


def test_the_live_scenario_reads_a_real_server_and_keeps_read_marks_on_disk(loopback, daemon_with, tmp_path):
    scenarios = {"live-loopback": live_feed(loopback.origin)}
    daemon = daemon_with(scenarios, directory=tmp_path / "d")
    session = daemon.session("live-loopback", "a")
    state = daemon.state(session)
    assert len(state["items"]) == FEED_ITEMS and "error" not in state, state
    assert loopback.paths() == ["GET /feed.json"]
    [entry] = daemon.journal(session)
    assert entry["live"] is True and entry["status"] == 200 and "route" not in entry, entry

    url = state["items"][0]["url"]
    assert daemon.act(session, "setIsRead", url=url, value=True)["items"][0]["isRead"] is True
    refused = daemon.call("POST", f"/v1/sessions/{session}/clock/advance", json={"by": "1m"}, expect=409).json()
    assert refused["code"] == "clockNotMovable", refused

    # The read mark is in a database file that outlives the daemon.
    daemon.stop()
    again = daemon_with(scenarios, directory=tmp_path / "d")
    restarted = again.session("live-loopback", "b")
    assert [item["isRead"] for item in again.state(restarted)["items"] if item["url"] == url] == [True]
    database = sqlite3.connect(tmp_path / "d/state/stores/live-loopback.sqlite")
    assert database.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert json.loads(database.execute("SELECT value FROM entries WHERE key = 'readItems'").fetchone()[0]) == [url]
    database.close()


def test_server_errors_timeouts_and_refusals_reach_the_model_as_the_services_protocol_says(loopback, daemon_with):
    closed = f"http://127.0.0.1:{free_port()}"
    daemon = daemon_with({
        "live-loopback": live_feed(loopback.origin, "  timeouts:\n    read: 300ms\n"),
        "live-refused": live_feed(closed),
    })
    loopback.feed_mode = "error"
    error = daemon.state(daemon.session("live-loopback", "error"))["error"]
    assert error == "The feed server answered 500.", error

    loopback.feed_mode = "slow"
    timed_out = daemon.session("live-loopback", "slow")
    assert daemon.state(timed_out)["error"] == "Could not load the feed: The request timed out."
    assert daemon.journal(timed_out)[0]["fault"] == "timeout"

    refused = daemon.session("live-refused", "refused")
    assert daemon.state(refused)["error"] == "Could not load the feed: The server refused the connection."
    assert daemon.journal(refused)[0] == {**daemon.journal(refused)[0], "fault": "connectionRefused", "live": True}


def test_deleting_a_session_cancels_its_request_in_flight(loopback, daemon_with):
    loopback.feed_mode = "ok"
    daemon = daemon_with({"live-loopback": live_feed(loopback.origin)})
    session = daemon.session("live-loopback", "held")
    arrived = len(loopback.requests)
    loopback.feed_mode = "hold"  # the server keeps the next request open until the test ends
    loopback.hold = threading.Event()
    outcome = {}
    action = threading.Thread(target=lambda: outcome.update(
        response=daemon.http.post(f"/v1/sessions/{session}/actions/reload", json={})))
    action.start()
    wait_until(lambda: len(loopback.requests) > arrived, "the reload reached the server")
    daemon.call("DELETE", f"/v1/sessions/{session}", expect=204)
    action.join(timeout=30)
    loopback.hold.set()
    assert not action.is_alive(), "the action was still waiting on the server after its session was deleted"
    assert outcome["response"].status_code in (200, 404), outcome["response"].text


def test_mixed_mode_sends_only_the_live_route_out(loopback, daemon_with):
    loopback.tokens["tok-alice-secret"] = "alice"
    scenarios = {"ratings-mixed": ratings_mixed(loopback.origin)}
    daemon = daemon_with(scenarios)
    session = daemon.session("ratings-mixed", "m")
    assert daemon.act(session, "signIn", user="alice", password="correct horse")["user"] == "alice"
    assert daemon.act(session, "fetchRating")["rating"] == {"average": 4.5, "count": 2}
    rated = daemon.act(session, "rate", driver=5, bus=4)
    assert rated["error"] == "Could not reach the ratings service: The server refused the connection.", rated
    assert loopback.paths() == ["GET /v1/rating?user=alice"], "only the live route may reach the network"

    sign_in, rating, rate = daemon.journal(session)
    assert sign_in["route"] == "sign-in" and "live" not in sign_in
    assert rating["route"] == "rating" and rating["live"] is True and rating["status"] == 200
    assert "route" not in rate and "live" not in rate and rate["fault"] == "connectionRefused"
    assert rate["nearMisses"][0]["route"] in ("sign-in", "rating")


def test_mixed_mode_without_a_network_fails_the_live_route_and_keeps_the_fakes(loopback, daemon_with):
    daemon = daemon_with({"ratings-mixed": ratings_mixed(loopback.origin)}, no_network=True)
    session = daemon.session("ratings-mixed", "offline")
    assert daemon.act(session, "signIn", user="alice", password="correct horse")["user"] == "alice"
    failed = daemon.act(session, "fetchRating")
    assert failed["error"] == "Could not reach the ratings service: The network is offline.", failed
    assert [entry.get("fault") for entry in daemon.journal(session)] == [None, "offline"]
    assert loopback.paths() == []


def test_a_recorded_feedreader_session_replays_to_the_same_bytes(loopback, daemon_with):
    daemon = daemon_with({"feed-record": record(loopback.origin, "FeedReader", "https://www.cocoawithlove.com")})
    recording = daemon.session("feed-record", "rec")
    url = daemon.state(recording)["items"][1]["url"]
    actions = [("reload", {}), ("setIsRead", {"url": url, "value": True})]
    recorded = drive(daemon, recording, actions)
    assert loopback.paths() == ["GET /feed.json", "GET /feed.json"]

    saved = daemon.call("POST", f"/v1/sessions/{recording}/recording", json={"name": "feed-recorded"}, expect=201).json()
    assert saved["routes"] == 1 and saved["files"] == 2, saved
    check_validates(saved["directory"])
    assert daemon.call("GET", "/v1/scenarios/feed-recorded", expect=200).json()["network"] == "fake"

    replay = daemon.session("feed-recorded", "replay")
    assert drive(daemon, replay, actions) == recorded
    assert len(loopback.requests) == 2, "replay must not reach the network"


def test_a_recorded_ratings_session_keeps_cause_and_effect_and_redacts_secrets(loopback, daemon_with):
    daemon = daemon_with({"ratings-record": record(loopback.origin, "Ratings", "https://api.busratings.example"),
                          "ratings-bob-only": RATINGS_BOB_ONLY}, arguments=["--log-level", "debug"])
    recording = daemon.session("ratings-record", "rec")
    actions = [("signIn", {"user": "alice", "password": "correct horse"}), ("fetchRating", {}),
               ("rate", {"driver": 2, "bus": 3}), ("fetchRating", {})]
    recorded = drive(daemon, recording, actions)
    assert json.loads(recorded)["rating"] == {"average": 3.67, "count": 3}, "the POST changed what the GET returns"
    assert "matched no route" not in daemon.log(), "recording is the expected path, not a miss"

    saved = daemon.call("POST", f"/v1/sessions/{recording}/recording", json={"name": "ratings-recorded"}, expect=201).json()
    text = (saved_path(saved) / "scenario.yaml").read_text()
    scenario = yaml.safe_load(text)
    rating = next(route for route in scenario["network"]["routes"]
                  if route["request"]["url"].endswith("/v1/rating") and route["request"]["method"] == "GET")
    rate = next(route for route in scenario["network"]["routes"] if route["request"]["method"] == "POST"
                and route["request"]["url"].endswith("/v1/ratings"))
    assert len(rating["responses"]) == 2, "the same GET with two answers"
    assert "after" not in rating["responses"][0] and rating["responses"][1]["after"] == rate["name"], \
        "the second answer follows the POST that changed it: " + text
    assert "Bearer" not in text and "cookie-secret" not in text and "<redacted>" in text
    for file in saved_path(saved).rglob("*"):
        if file.is_file():
            content = file.read_text(errors="replace")
            assert "correct horse" not in content and "tok-alice-secret" not in content, f"a credential in {file}"
    check_validates(saved["directory"])
    replay = daemon.session("ratings-recorded", "replay")
    assert drive(daemon, replay, actions) == recorded, "replay signs in with the redacted token and reaches the same state"
    # Cause, not count: reads repeated before the write get the before-answer; after it, the after-answer.
    causal = daemon.session("ratings-recorded", "causal")
    daemon.act(causal, "signIn", user="alice", password="correct horse")
    before = [daemon.act(causal, "fetchRating")["rating"] for _ in range(2)]
    daemon.act(causal, "rate", driver=2, bus=3)
    after = daemon.act(causal, "fetchRating")["rating"]
    assert before == [before[0], before[0]] and after == json.loads(recorded)["rating"] and after != before[0], (before, after)
    # A sign-in no route answers is logged as a miss, without the password it carried.
    daemon.session("ratings-bob-only", "miss")
    daemon.call("POST", "/v1/sessions/miss/actions/signIn", json={"user": "alice", "password": "correct horse"})
    log = daemon.log()
    assert "matched no route; closest route 'sign-in-bob' differs in /body/password" in log, log
    assert "correct horse" not in log and "tok-alice-secret" not in log, "no credential in the log at any level"

    kept = daemon.call("POST", f"/v1/sessions/{recording}/recording",
                       json={"name": "ratings-secrets", "keepSecrets": True}, expect=201).json()
    secret_text = (saved_path(kept) / "scenario.yaml").read_text()
    assert "Bearer tok-alice-secret" in secret_text and "cookie-secret" in secret_text
    assert drive(daemon, daemon.session("ratings-secrets", "replay-secrets"), actions) == recorded


def test_a_recorded_stream_replays_the_same_bytes_at_the_same_offsets(loopback, daemon_with):
    """Issue 29, item 4: an SSE reply recorded from a real server replays byte for byte on the virtual clock."""
    from loopback import PAUSE, REPLY_EVENTS
    daemon = daemon_with({"assistant-record": record(loopback.origin, "Assistant", "https://assistant.example")})
    recording = daemon.session("assistant-record", "rec")
    # A live stream's reads count as work under way, so the action returns once the server has ended the stream.
    daemon.act(recording, "send", text="Hi")
    recorded = daemon.state(recording)
    assert recorded["messages"][-1] == {"role": "assistant", "text": "Hello!", "status": "complete"}, recorded
    entry = next(entry for entry in daemon.journal(recording) if entry["url"].endswith("/replies"))
    assert entry["live"] is True and entry["stream"]["state"] in ("closed", "cancelled"), entry
    live_chunks = [chunk["text"] for chunk in entry["stream"]["chunks"]]
    assert "".join(live_chunks).encode() == b"".join(REPLY_EVENTS), live_chunks

    kept = daemon.call("POST", f"/v1/sessions/{recording}/recording", json={"name": "assistant-kept", "keepSecrets": True},
                       expect=201).json()
    redacted = daemon.call("POST", f"/v1/sessions/{recording}/recording", json={"name": "assistant-recorded"}, expect=201).json()
    fixtures = list((saved_path(kept) / "fixtures").glob("*.jsonl"))
    assert len(fixtures) == 1, fixtures
    lines = [json.loads(line) for line in fixtures[0].read_text().splitlines()]
    # Each chunk at its offset from the head: the server's pauses, to within scheduling noise (never earlier).
    offsets = [float(line["at"].removeprefix("+").removesuffix("ms")) / 1000 if line["at"].endswith("ms")
               else float(line["at"].removeprefix("+").removesuffix("s")) for line in lines]
    assert offsets == sorted(offsets) and offsets[-1] >= PAUSE * (len(REPLY_EVENTS) - 1), offsets
    assert "sk-live-secret" not in "".join(path.read_text() for path in saved_path(redacted).rglob("*") if path.is_file())
    assert "sk-live-secret" in fixtures[0].read_text()

    for name in ("assistant-kept", "assistant-recorded"):
        replay = daemon.session(name, f"replay-{name}")
        daemon.act(replay, "send", text="Hi")
        daemon.call("POST", f"/v1/sessions/{replay}/clock/advance", json={"by": "10s"}, expect=200)
        assert daemon.state(replay) == recorded, name
        chunks = next(entry["stream"]["chunks"] for entry in daemon.journal(replay) if entry["url"].endswith("/replies"))
        chunks = [chunk["text"] for chunk in chunks]
        if name == "assistant-kept":
            assert chunks == live_chunks, "the replay sends the recorded bytes, chunk for chunk"
        else:
            assert len(chunks) == len(live_chunks) and "sk-live-secret" not in "".join(chunks)
    assert "matched no route" not in daemon.log()


def test_a_recorded_websocket_conversation_replays_the_same_messages(loopback, socket_server, daemon_with):
    """Issue 29, item 4: a WebSocket conversation recorded from a real server replays message for message, its
    replies cued by the Model's messages and the server's close code kept, with secrets left out."""
    from loopback import PRESENCE_CLOSE, PRESENCE_ONLINE, PRESENCE_TYPING
    daemon = daemon_with({"assistant-socket-record": f"""
description: Records the Assistant's presence channel against the test's loopback WebSocket server.
model: Assistant
clock:
  start: 2026-11-01T09:00:00Z
network:
  mode: record
  forward:
    https://assistant.example: {loopback.origin}
    wss://assistant.example: {socket_server.origin}
"""})
    recording = daemon.session("assistant-socket-record", "rec")
    # Waiting for the server's next message is not work under way: the session settles with the socket open, and
    # each message that comes is published once the Model has taken it.
    assert daemon.state(recording)["assistantOnline"] is False
    until(lambda: daemon.state(recording)["assistantOnline"], "the server's online message")
    listed = daemon.call("GET", f"/v1/sessions/{recording}/streams", expect=200).json()["streams"]
    assert [(stream["kind"], stream.get("live"), stream["state"]) for stream in listed] == [("webSocket", True, "open")], listed
    refused = daemon.call("POST", f"/v1/sessions/{recording}/streams/{listed[0]['stream']}/push", json={"text": "x"}, expect=409).json()
    assert refused["code"] == "liveStream" and "real server" in refused["message"], refused
    shown = subprocess.run([SCENARIOCTL, "streams", "--session", recording, "--socket", daemon.socket], capture_output=True, text=True, timeout=60)
    assert shown.stdout.startswith("#1 webSocket live GET wss://assistant.example/v1/presence: delivered 1, pending 0"), shown
    daemon.act(recording, "send", text="Hi")
    recorded = until(lambda: daemon.state(recording) if daemon.state(recording).get("presenceError") else None,
                     "the server's close")
    assert recorded["presenceError"] == f"Presence closed ({PRESENCE_CLOSE[0]}: {PRESENCE_CLOSE[1]}).", recorded
    assert recorded["messages"][-1] == {"role": "assistant", "text": "Hello!", "status": "complete"}, recorded
    assert socket_server.messages() == [("/v1/presence", '{"type":"sent"}')]
    entry = next(entry for entry in daemon.journal(recording) if entry["url"].endswith("/presence"))
    assert entry["live"] is True and entry["status"] == 101 and entry["stream"]["kind"] == "webSocket", entry
    assert entry["stream"]["state"] == "closed" and entry["stream"]["close"] == {"code": 4001, "reason": "restarting"}, entry
    live = [(chunk["text"], chunk.get("sent", False)) for chunk in entry["stream"]["chunks"]]
    assert live == [(PRESENCE_ONLINE, False), ('{"type":"sent"}', True)] + [(update, False) for update in PRESENCE_TYPING], live

    kept = daemon.call("POST", f"/v1/sessions/{recording}/recording", json={"name": "socket-kept", "keepSecrets": True},
                       expect=201).json()
    redacted = daemon.call("POST", f"/v1/sessions/{recording}/recording", json={"name": "socket-recorded"}, expect=201).json()
    written = (saved_path(redacted) / "scenario.yaml").read_text()
    assert "ws-live-secret" not in written and "<redacted>" in written, written
    assert "ws-live-secret" in (saved_path(kept) / "scenario.yaml").read_text()
    assert "code: 4001" in written and "reason: restarting" in written, written

    presence = next(route for route in yaml.safe_load(written)["network"]["routes"] if route["request"]["url"].endswith("/presence"))
    online_at = presence["response"]["webSocket"]["onConnect"][0]["at"].removeprefix("+")
    for name in ("socket-kept", "socket-recorded"):
        replay = daemon.session(name, f"replay-{name}")
        # As recorded: the Model sends once the server has said it is online.
        daemon.call("POST", f"/v1/sessions/{replay}/clock/advance", json={"by": online_at}, expect=200)
        assert daemon.state(replay)["assistantOnline"] is True
        daemon.act(replay, "send", text="Hi")
        daemon.call("POST", f"/v1/sessions/{replay}/clock/advance", json={"by": "10s"}, expect=200)
        assert daemon.state(replay) == recorded, name
        entry = next(entry for entry in daemon.journal(replay) if entry["url"].endswith("/presence"))
        replayed = [(chunk["text"], chunk.get("sent", False)) for chunk in entry["stream"]["chunks"]]
        assert entry["stream"]["close"] == {"code": 4001, "reason": "restarting"}, entry
        if name == "socket-kept":
            assert replayed == live, "the replay sends the recorded messages, cued by the Model's"
        else:
            assert len(replayed) == len(live) and "ws-live-secret" not in str(replayed), replayed
    assert len(socket_server.messages()) == 1, "replay must not reach the network"


def test_a_real_miss_in_a_mixed_scenario_still_warns(loopback, daemon_with):
    daemon = daemon_with({"feed-mixed": f"""
description: Fake, but one route goes to the live network (forwarded to the loopback server).
model: FeedReader
network:
  forward:
    https://www.cocoawithlove.com: {loopback.origin}
  routes:
    - name: other-live
      live: true
      request:
        url: https://www.cocoawithlove.com/other.json
"""})
    daemon.state(daemon.session("feed-mixed", "mixed"))
    assert "GET https://www.cocoawithlove.com/feed.json matched no route" in daemon.log()
    assert loopback.paths() == [], "the unmatched request never left"


def test_saving_is_refused_clearly(loopback, daemon_with):
    daemon = daemon_with({"feed-record": record(loopback.origin, "FeedReader", "https://www.cocoawithlove.com")})
    daemon.session("offline-demo", "fake")
    refused = daemon.call("POST", "/v1/sessions/fake/recording", json={"name": "x"}, expect=409).json()
    assert refused["code"] == "notRecording" and "network: record" in refused["message"]
    daemon.session("feed-record", "rec")
    taken = daemon.call("POST", "/v1/sessions/rec/recording", json={"name": "offline-demo"}, expect=409).json()
    assert taken["code"] == "scenarioExists"
    for name in ["../escape", "a/b", ".hidden", "x" * 65]:
        bad = daemon.call("POST", "/v1/sessions/rec/recording", json={"name": name}, expect=400).json()
        assert bad["code"] == "invalidScenarioName", bad


def ratings_mixed(origin):
    return f"""
description: Sign-in is fake, the rating comes from the real server, and nothing else may go out.
model: Ratings
clock:
  start: 2026-11-01T09:00:00Z
network:
  forward:
    https://api.busratings.example: {origin}
  routes:
    - name: sign-in
      request:
        method: POST
        url: https://api.busratings.example/v1/session
      response:
        status: 201
        body: {{ token: tok-alice-secret }}
    - name: rating
      live: true
      request:
        method: GET
        url: https://api.busratings.example/v1/rating
"""


RATINGS_BOB_ONLY = """
description: Only bob can sign in.
model: Ratings
network:
  routes:
    - name: sign-in-bob
      request:
        method: POST
        url: https://api.busratings.example/v1/session
        body:
          user: bob
          password: hunter2
      response:
        status: 201
        body:
          token: tok-bob
"""


def record(origin, model, upstream):
    return f"""
description: Records {model} against the test's loopback server.
model: {model}
clock:
  start: 2026-11-01T09:00:00Z
network:
  mode: record
  forward:
    {upstream}: {origin}
"""


def drive(daemon, session, actions):
    """Performs the actions and returns the state's bytes as the daemon sent them."""
    for action, arguments in actions:
        daemon.act(session, action, **arguments)
    return daemon.call("GET", f"/v1/sessions/{session}/state", expect=200).text


def saved_path(saved):
    import pathlib
    return pathlib.Path(saved["directory"])


def check_validates(directory):
    result = subprocess.run([SCENARIOCTL, "validate", directory], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition, what, limit=30):
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.005)


@pytest.mark.parametrize("then", ["close", "abort"])
def test_a_live_websockets_end_reaches_the_model_when_it_happens(loopback, daemon_with, then):
    """Found: a live server's close (4002, "bye") was journaled at once, but the Model's state kept
    `assistantOnline: true` with no `presenceError` until its next action; a server that dropped the connection was
    journaled `closed` with no fault. Now the end reaches the Model as it happens, with no step and no clock move,
    as a scripted one does: closed with its code and reason, or dropped with its fault."""
    from loopback import PRESENCE_BYE, SocketServer
    server = SocketServer(then=then)
    try:
        daemon = daemon_with({"assistant-live-end": f"""
description: The Assistant's presence channel on a loopback server that ends it.
model: Assistant
clock:
  start: 2026-11-01T09:00:00Z
network:
  mode: live
  forward:
    https://assistant.example: {loopback.origin}
    wss://assistant.example: {server.origin}
"""})
        session = daemon.session("assistant-live-end", "live-end")
        ended = until(lambda: daemon.state(session) if daemon.state(session).get("presenceError") else None,
                      f"the server's {then} to reach the Model")
        assert ended["assistantOnline"] is False, ended
        entry = next(entry for entry in daemon.journal(session) if entry["url"].endswith("/presence"))
        if then == "close":
            assert ended["presenceError"] == f"Presence closed ({PRESENCE_BYE[0]}: {PRESENCE_BYE[1]}).", ended
            assert entry["stream"]["state"] == "closed" and entry["stream"]["close"] == {"code": 4002, "reason": "bye"}, entry
        else:
            assert ended["presenceError"].startswith("Presence was cut off:"), ended
            assert entry["stream"]["state"] == "dropped" and entry["stream"].get("fault"), entry
        # The step that saw it is the Model's own: no action was taken.
        steps = daemon.call("GET", f"/v1/sessions/{session}/history", expect=200).json()["steps"]
        assert [step["kind"] for step in steps] == ["start"], steps
    finally:
        server.close()


def test_the_shipped_live_scenario_starts_without_an_escape(daemon_with):
    """AsyncHTTPClient builds its TLS context on a DispatchQueue from the call that needs it: the live network's
    machinery, which the shipped `live` scenario reported as its Model's dispatchQueue escape at every start (and
    `--model-escapes fail` would refuse). The daemon is fresh, so its client has no TLS context yet."""
    daemon = daemon_with({}, ["--model-escapes", "fail"], no_network=True)
    session = daemon.session("live", "live-start")
    until(lambda: daemon.journal(session), "the feed's request")
    assert daemon.call("GET", f"/v1/sessions/{session}", expect=200).json()["escapes"] == []
    assert daemon.journal(session)[0]["url"] == "https://www.cocoawithlove.com/feed.json", daemon.journal(session)


def test_a_seeded_session_reports_answers_from_outside_as_unordered(loopback, daemon_with):
    """A schedule seed orders what the session runs, not when a live server or a database file answers: a seeded
    session says so (unorderedArrival), rather than promise a run it cannot repeat; an unseeded one does not."""
    daemon = daemon_with({"live-loopback": live_feed(loopback.origin)})
    daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "live-loopback", "id": "seeded",
                                                          "overrides": {"schedule": {"seed": 7}}})
    kinds = {escape["kind"]: escape for escape in daemon.call("GET", "/v1/sessions/seeded", expect=200).json()["escapes"]}
    assert set(kinds) == {"unorderedArrival"}, kinds
    details = [escape["detail"] for escape in daemon.call("GET", "/v1/sessions/seeded").json()["escapes"]]
    assert details == ["the durable key-value store answered when it answered, which the schedule seed cannot order",
                       "a live server answered when it answered, which the schedule seed cannot order"], details
    assert "fake the route" in kinds["unorderedArrival"]["remedy"], kinds
    daemon.session("live-loopback", "unseeded")
    assert daemon.call("GET", "/v1/sessions/unseeded", expect=200).json()["escapes"] == []
    # Under --model-escapes fail the seeded session is refused, saying why.
    strict = daemon_with({"live-loopback": live_feed(loopback.origin)}, ["--model-escapes", "fail"])
    refused = strict.call("POST", "/v1/sessions", expect=409, json={"scenario": "live-loopback", "id": "seeded",
                                                                    "overrides": {"schedule": {"seed": 7}}}).json()
    assert refused["code"] == "modelEscaped" and "unorderedArrival" in refused["message"], refused
