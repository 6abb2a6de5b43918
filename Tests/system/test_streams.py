"""Streams and WebSockets through the real daemon, steered with scenarioctl as a presenter would (issue 29)."""
import json
import subprocess

from daemon import SCENARIOCTL


def ctl(daemon, *arguments):
    result = subprocess.run([SCENARIOCTL, *arguments, "--socket", daemon.socket], capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout, result.stderr


def test_scenarioctl_lists_pushes_into_and_closes_streams(daemon_with):
    daemon = daemon_with({})
    session = daemon.session("assistant-stalled", "talk")
    daemon.act(session, "send", text="Hi")
    daemon.call("POST", f"/v1/sessions/{session}/clock/advance", json={"by": "1s"}, expect=200)

    status, out, err = ctl(daemon, "streams", "--session", session)
    assert status == 0, err
    lines = out.splitlines()
    # online, the Model's "sent", typing; "not typing" is due 3 s after the send.
    assert lines[0] == ("#1 webSocket GET wss://assistant.example/v1/presence (presence): delivered 3, pending 1, "
                        "next at 2026-11-01T09:00:03Z"), out
    assert lines[1] == "#2 events POST https://assistant.example/v1/replies (reply): delivered 1, pending 0", out

    status, out, err = ctl(daemon, "streams", "push", "2", '{"text":" hard"}', "--event", "token", "--session", session)
    assert status == 0, err
    assert json.loads(out)["messages"][-1]["text"] == "Thinking hard"

    status, out, err = ctl(daemon, "streams", "close", "1", "--code", "4001", "--reason", "maintenance", "--session", session)
    assert status == 0, err
    assert json.loads(out)["presenceError"] == "Presence closed (4001: maintenance)."

    status, out, err = ctl(daemon, "streams", "close", "2", "--fault", "timeout", "--session", session)
    assert status == 0, err
    assert json.loads(out)["error"] == "The reply was cut off: The request timed out."

    status, out, _ = ctl(daemon, "streams", "--session", session)
    assert status == 0 and out.strip() == "no open streams", out
    status, _, err = ctl(daemon, "streams", "close", "2", "--session", session)
    assert status != 0 and "has no open stream 2" in err, err
    status, _, err = ctl(daemon, "streams", "push", "2", "--session", session)
    assert status != 0 and "DATA or --text" in err, err

    history = [step["kind"] for step in daemon.call("GET", f"/v1/sessions/{session}/history", expect=200).json()["steps"]]
    assert history[-3:] == ["pushToStream", "closeStream", "closeStream"], history


def test_a_rewind_into_the_middle_of_a_stream_is_exact(daemon_with):
    """Issue 29, item 6: rewinding to a step in the middle of a stream rebuilds it byte for byte."""
    daemon = daemon_with({})
    session = daemon.session("assistant-happy", "mid")
    daemon.act(session, "send", text="Hi")
    seen = []
    for _ in range(6):
        daemon.call("POST", f"/v1/sessions/{session}/clock/advance", json={"by": "500ms"}, expect=200)
        seen.append((daemon.call("GET", f"/v1/sessions/{session}/state", expect=200).text,
                     json.dumps(daemon.journal(session), sort_keys=True)))
    for step in (5, 3, 2):
        daemon.call("POST", f"/v1/sessions/{session}/rewind", json={"step": step}, expect=200)
        state = daemon.call("GET", f"/v1/sessions/{session}/state", expect=200).text
        journal = json.dumps(daemon.journal(session), sort_keys=True)
        # Step 1 was the send; step N + 1 the Nth move.
        assert (state, journal) == seen[step - 2], step


def test_what_the_scenario_format_refuses_a_push_or_close_refuses_too(daemon_with):
    """A WebSocket's close reason is at most 123 bytes, only a WebSocket has a close frame, and a server-sent event
    goes only into an event stream: each is refused with 400 naming the stream, and nothing is a step. (Before: a
    200-byte reason was sent, a code on an SSE stream ignored, and an event pushed into a WebSocket sent as the text
    `event: x\\ndata: …`.)"""
    daemon = daemon_with({})
    session = daemon.session("assistant-stalled", "strict")
    daemon.act(session, "send", text="Hi")
    daemon.call("POST", f"/v1/sessions/{session}/clock/advance", json={"by": "1s"}, expect=200)
    steps = len(daemon.call("GET", f"/v1/sessions/{session}/history", expect=200).json()["steps"])

    def refused(path, body, *words):
        error = daemon.call("POST", f"/v1/sessions/{session}/streams/{path}", json=body, expect=400).json()
        assert error["code"] == "invalidRequest" and all(word in error["message"] for word in words), error

    refused("1/close", {"code": 4001, "reason": "x" * 124}, "124 bytes", "at most 123")
    refused("2/close", {"code": 4001}, "stream 2 is a stream of server-sent events", "'code' and 'reason' are a WebSocket's")
    refused("1/push", {"data": "hello", "event": "x"}, "stream 1 is a WebSocket", "as 'text'")
    assert len(daemon.call("GET", f"/v1/sessions/{session}/history", expect=200).json()["steps"]) == steps

    # What they allow still works: a 123-byte reason, and text into the WebSocket.
    daemon.call("POST", f"/v1/sessions/{session}/streams/1/push", json={"text": '{"type": "typing", "typing": true}'}, expect=200)
    state = daemon.call("POST", f"/v1/sessions/{session}/streams/1/close", json={"code": 4001, "reason": "é" * 61 + "x"}, expect=200).json()
    assert state["presenceError"] == f"Presence closed (4001: {'é' * 61}x).", state
