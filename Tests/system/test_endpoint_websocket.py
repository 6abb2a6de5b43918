"""WebSocket upgrades on a session endpoint (issue 50, item 2): a client outside the daemon (here the websockets
library) opens a route's scripted conversation through the session's endpoint, on the session's clock. The opening,
each of the client's messages and its close are steps of the history, so a rewind replays the conversation; refused
handshakes are answered as a server refusing them would."""
import asyncio
import json

import pytest
import requests
import websockets

from daemon import until
from test_endpoint import open_session, outside

CHAT = """\
description: A chat server over WebSocket, for apps the daemon does not host.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
network:
  routes:
    - name: room
      request: { method: GET, url: wss://chat.example/room }
      response:
        webSocket:
          onConnect:
            - { json: { type: hello } }
            - { at: +2s, text: tick }
          replies:
            - when: { bodyFields: { /type: ping } }
              send:
                - { json: { type: pong } }
                - { at: +1s, text: late pong }
    - name: short
      request: { method: GET, url: wss://chat.example/short }
      response:
        webSocket:
          onConnect: [{ text: only }]
          close: { at: +1s, code: 4001, reason: done }
    - name: slow
      request: { method: GET, url: wss://chat.example/slow }
      response:
        delay: 3s
        webSocket:
          onConnect: [{ text: at last }]
    - name: page
      request: { method: GET, url: https://chat.example/page }
      response: { status: 200, body: a page }
    - name: missing
      request: { method: GET, url: wss://chat.example/missing }
      response: { status: 404, body: no such room }
    - name: reset
      request: { method: GET, url: wss://chat.example/reset }
      response: { fault: connectionReset }
"""

HANDSHAKE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
             "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def advance(daemon, session, by):
    daemon.call("POST", f"/v1/sessions/{session}/clock/advance", json={"by": by}, expect=200)


async def quiet(socket, seconds=0.3):
    """Whether nothing arrives within `seconds`: what is not yet due waits for the clock."""
    try:
        await asyncio.wait_for(socket.recv(), seconds)
    except asyncio.TimeoutError:
        return True
    return False


def test_a_conversation_runs_on_the_sessions_clock_and_a_rewind_replays_it(daemon_with):
    daemon = daemon_with({"chat": CHAT})
    url = open_session(daemon, "chat", "w", port=0, token=False)["endpoint"]["url"].replace("http:", "ws:")

    async def converse():
        # The endpoint's own address goes to the routes' first origin, in its WebSocket form.
        async with websockets.connect(f"{url}/room", subprotocols=["chat.v1", "chat.v0"]) as socket:
            assert socket.response_headers["Scenario-Sequence"].isdigit()
            # A client that offers subprotocols gets one: the first it offered.
            assert socket.subprotocol == "chat.v1"
            assert json.loads(await socket.recv()) == {"type": "hello"}
            assert await quiet(socket), "tick is due at +2s"
            await socket.send(json.dumps({"type": "ping"}))
            assert json.loads(await socket.recv()) == {"type": "pong"}
            await asyncio.to_thread(advance, daemon, "w", "2s")
            assert [await socket.recv(), await socket.recv()] == ["late pong", "tick"]
            await socket.send("not a ping")
            assert await quiet(socket), "no reply answers it"
        return int(socket.response_headers["Scenario-Sequence"])

    sequence = run(converse())
    entry = next(entry for entry in outside(daemon, "w") if entry["sequence"] == sequence)
    assert entry["url"] == "wss://chat.example/room" and entry["route"] == "room" and entry["status"] == 101
    chunks = entry["stream"]["chunks"]
    assert [(chunk.get("text"), chunk.get("sent", False)) for chunk in chunks] == [
        ('{"type":"hello"}', False), ('{"type": "ping"}', True), ('{"type":"pong"}', False),
        ("late pong", False), ("tick", False), ("not a ping", True)]
    assert entry["stream"]["state"] == "cancelled" and entry["stream"]["close"] == {"code": 1000, "reason": ""}
    # The close is a step once the endpoint has taken it, which may be after the client has read the server's close.
    until(lambda: len(daemon.call("GET", "/v1/sessions/w/history", expect=200).json()["steps"]) == 6, "the close's step")
    steps = daemon.call("GET", "/v1/sessions/w/history", expect=200).json()["steps"]
    assert [step["kind"] for step in steps] == ["start", "openSocket", "sendToSocket", "advanceClock", "sendToSocket", "closeSocket"]
    assert steps[2]["parameters"] == {"socket": sequence, "text": '{"type": "ping"}'}

    # The replay sends what the client sent, when it did: the same journal.
    before = daemon.journal("w")
    daemon.call("POST", "/v1/sessions/w/rewind", expect=200, json={"step": len(steps) - 1})
    assert daemon.journal("w") == before
    daemon.call("POST", "/v1/sessions/w/rewind", expect=200, json={"step": 3})
    replayed = next(entry for entry in daemon.journal("w") if entry["sequence"] == sequence)
    assert [chunk.get("text") for chunk in replayed["stream"]["chunks"]] == [
        '{"type":"hello"}', '{"type": "ping"}', '{"type":"pong"}', "late pong", "tick"]


def test_the_server_closes_a_delayed_handshake_opens_and_a_rewind_tells_the_client(daemon_with):
    daemon = daemon_with({"chat": CHAT})
    endpoint = open_session(daemon, "chat", "c", port=0)["endpoint"]
    url, token = endpoint["url"].replace("http:", "ws:"), endpoint["token"]

    async def scenes():
        headers = {"Scenario-Token": token}
        # A host the routes name, first in the path, selects that origin.
        async with websockets.connect(f"{url}/chat.example/short", extra_headers=headers) as socket:
            assert await socket.recv() == "only"
            await asyncio.to_thread(advance, daemon, "c", "1s")
            with pytest.raises(websockets.ConnectionClosed):
                await socket.recv()
            assert (socket.close_code, socket.close_reason) == (4001, "done")
        # The handshake waits for the clock, as the Model's would.
        async def connect_slow():
            return await websockets.connect(f"{url}/slow", extra_headers=headers)
        opening = asyncio.ensure_future(connect_slow())
        await asyncio.sleep(0.3)
        assert not opening.done(), "the handshake is due at +3s"
        await asyncio.to_thread(advance, daemon, "c", "3s")
        socket = await opening
        assert await socket.recv() == "at last"
        # A rewind replaces the session's socket with the replay's: this client's is gone, and it is told so.
        await asyncio.to_thread(daemon.call, "POST", "/v1/sessions/c/rewind", expect=200, json={"step": 1})
        with pytest.raises(websockets.ConnectionClosed):
            await socket.recv()
        assert socket.close_code == 1012, (socket.close_code, socket.close_reason)

    run(scenes())


def test_a_refused_handshake_is_answered_as_a_server_would(daemon_with):
    daemon = daemon_with({"chat": CHAT})
    endpoint = open_session(daemon, "chat", "r", port=0)["endpoint"]
    base, token = endpoint["url"], endpoint["token"]
    with_token = {**HANDSHAKE, "Scenario-Token": token}

    refused = requests.get(f"{base}/room", headers=HANDSHAKE, timeout=30)
    assert refused.status_code == 401 and "Scenario-Token" in refused.text, refused.text
    # A route that answers with no conversation: the handshake gets its answer, and no socket opens.
    missing = requests.get(f"{base}/missing", headers=with_token, timeout=30)
    assert (missing.status_code, missing.text, missing.headers["Connection"]) == (404, "no such room", "close")
    unmatched = requests.get(f"{base}/nowhere", headers=with_token, timeout=30)
    # No route: the scenario's unmatched fault (connectionRefused), with the near misses.
    assert unmatched.status_code == 502 and unmatched.headers["Scenario-Fault"] == "connectionRefused", unmatched.text
    assert "Closest routes:" in unmatched.text and "wss://chat.example/nowhere" in unmatched.text
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{base}/reset", headers=with_token, timeout=30)
    # Plain requests on the same endpoint still answer after the refusals.
    assert requests.get(f"{base}/page", headers={"Scenario-Token": token}, timeout=30).text == "a page"
    kinds = [step["kind"] for step in daemon.call("GET", "/v1/sessions/r/history", expect=200).json()["steps"]]
    assert kinds == ["start", "openSocket", "openSocket", "openSocket", "sendRequest"], kinds
    assert daemon.call("GET", "/v1/sessions/r/streams", expect=200).json()["streams"] == []


def test_twenty_thousand_messages_each_answered_in_order_and_a_deleted_session_closes_its_sockets(daemon_with):
    daemon = daemon_with({"chat": CHAT})
    url = open_session(daemon, "chat", "m", port=0, token=False)["endpoint"]["url"].replace("http:", "ws:")
    count = 20_000

    async def many():
        async with websockets.connect(f"{url}/room", max_queue=None) as socket:
            assert json.loads(await socket.recv()) == {"type": "hello"}
            for number in range(count):
                await socket.send(json.dumps({"type": "ping", "n": number}))
                assert json.loads(await socket.recv()) == {"type": "pong"}
            others = [await websockets.connect(f"{url}/room") for _ in range(16)]
            for other in others:
                assert json.loads(await other.recv()) == {"type": "hello"}
            await asyncio.to_thread(daemon.call, "DELETE", "/v1/sessions/m", expect=204)
            for each in [socket, *others]:
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        await each.recv()

    run(many())


def test_a_live_conversation_recorded_through_the_endpoint_replays_offline(loopback, daemon_with):
    """Item 5 for WebSockets: in a record scenario the handshake goes to the real server and the conversation is kept;
    the saved scenario plays the server's side to the same client offline, on the session's clock."""
    from loopback import PRESENCE_CLOSE, PRESENCE_ONLINE, PRESENCE_TYPING, SocketServer
    server = SocketServer()
    try:
        daemon = daemon_with({"presence-record": f"""
description: Records the presence channel an outside app talks to, from the test's loopback server.
model: Assistant
clock:
  start: 2026-11-01T09:00:00Z
network:
  mode: record
  forward:
    https://assistant.example: {loopback.origin}
    wss://assistant.example: {server.origin}
"""})
        # The Model opens its own presence socket as it starts; the endpoint's client is a second one.
        recording = open_session(daemon, "presence-record", "rec", port=0, token=False,
                                 origin="https://assistant.example")["endpoint"]["url"].replace("http:", "ws:")

        async def talk(url, replay=False):
            async with websockets.connect(f"{url}/v1/presence") as socket:
                # A replay's recorded messages come as its frozen clock reaches them, at the offsets recorded: the
                # first after one of the server's pauses, the close after three (from the connection), the typing
                # ones after the client's message. The clock moves 10ms at a time until the first has come.
                heard = []
                for _ in range(1000 if replay else 1):
                    if replay:
                        await asyncio.to_thread(advance, daemon, "replay", "10ms")
                    try:
                        heard = [await asyncio.wait_for(socket.recv(), 0.2 if replay else 30)]
                        break
                    except asyncio.TimeoutError:
                        continue
                assert heard, "no first message"
                await socket.send(json.dumps({"type": "sent"}))
                if replay:
                    await asyncio.to_thread(advance, daemon, "replay", "10s")
                heard += [await socket.recv(), await socket.recv()]
                with pytest.raises(websockets.ConnectionClosed):
                    await socket.recv()
                return heard, (socket.close_code, socket.close_reason)

        recorded = run(talk(recording))
        assert recorded == ([PRESENCE_ONLINE, *PRESENCE_TYPING], PRESENCE_CLOSE), recorded
        until(lambda: sum(message == json.dumps({"type": "sent"}) for _, message in server.messages()) >= 1,
              "the client's message at the server")
        daemon.call("POST", "/v1/sessions/rec/recording", json={"name": "presence-replayed"}, expect=201)
        server.close()
        server = None
        replay = open_session(daemon, "presence-replayed", "replay", port=0, token=False)["endpoint"]["url"].replace("http:", "ws:")
        replayed = run(talk(replay, replay=True))
        # The secret in the server's first message was redacted in the recording.
        assert replayed[0][1:] == PRESENCE_TYPING and replayed[1] == PRESENCE_CLOSE, replayed
        assert "ws-live-secret" not in replayed[0][0], replayed
    finally:
        if server:
            server.close()
