"""Event streams that resume (issue 16, item 6): every server-sent event has an `id:`; a client that reconnects with
`Last-Event-ID` (or `?lastEventId=`) gets what it missed, or a `gap` event and the current state when it is no
longer retained."""
import json
import subprocess

import httpx

import rawhttp
from daemon import SCENARIOCTL


def read_events(daemon, count, headers=None, query=""):
    """The first `count` events of a new stream, as (id, name, data)."""
    events, block = [], {}
    with httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=10) as http:
        with http.stream("GET", f"/v1/sessions/default/events{query}", headers=headers or {}) as response:
            assert response.status_code == 200, response.read()
            for line in response.iter_lines():
                line = line.rstrip("\n")  # httpx 0.23 (Debian's) keeps the line ending
                if line.startswith(":"):
                    continue  # the daemon's heartbeat
                if line == "" and not block:
                    continue
                if line == "":
                    events.append((int(block["id"]), block["event"], json.loads(block["data"])))
                    block = {}
                    if len(events) == count:
                        return events
                else:
                    field, _, value = line.partition(": ")
                    block[field] = value
    raise AssertionError(f"the stream ended after {events}")


def advance(daemon, by="1s"):
    daemon.call("POST", "/v1/sessions/default/clock/advance", expect=200, json={"by": by})


def test_a_reconnecting_client_gets_exactly_what_it_missed(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    [(first_id, name, _)] = read_events(daemon, 1)
    assert name == "stateChanged"
    for _ in range(3):
        advance(daemon)
    # Missed while away: three clock moves, each followed by its history step, each event with its own id, in order;
    # no snapshot of the state first.
    missed = read_events(daemon, 6, headers={"Last-Event-ID": str(first_id)})
    assert [name for _, name, _ in missed] == ["clockMoved", "historyChanged"] * 3, missed
    assert [event_id for event_id, _, _ in missed] == [first_id + n for n in range(1, 7)]
    assert [data for _, _, data in missed[-2:]] == [{"now": "2026-11-01T09:00:03Z"}, {"newestStep": 3}]
    # The query item does the same, for clients that cannot set a header.
    assert read_events(daemon, 5, query=f"?lastEventId={first_id + 1}") == missed[1:]
    # Resuming at the newest id starts with what happens next.
    advance(daemon)
    [(event_id, name, data)] = read_events(daemon, 1, headers={"Last-Event-ID": str(first_id + 6)})
    assert (event_id, name, data) == (first_id + 7, "clockMoved", {"now": "2026-11-01T09:00:04Z"})


def test_events_no_longer_retained_give_a_gap_and_the_current_state(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    [(first_id, _, _)] = read_events(daemon, 1)
    for _ in range(150):  # 300 events (clockMoved, historyChanged), more than the 256 a session keeps
        advance(daemon)
    (gap_id, gap, data), (state_id, state, _) = read_events(daemon, 2, headers={"Last-Event-ID": str(first_id)})
    assert gap == "gap" and state == "stateChanged", (gap, state)
    # The gap's notice and the state after it are numbered past every event so far, each its own (issue 33, item 5).
    assert (gap_id, state_id) == (first_id + 301, first_id + 302)
    assert data["lastEventId"] == first_id and data["oldestRetained"] == first_id + 300 - 255, data
    assert "no longer retained" in data["message"]
    # An id the session never gave (from before a restart, say) is a gap too, not an error.
    assert read_events(daemon, 1, headers={"Last-Event-ID": "99999"})[0][1] == "gap"


def test_an_id_that_is_not_a_number_is_refused(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    body = daemon.call("GET", "/v1/sessions/default/events", expect=400, headers={"Last-Event-ID": "abc"}).json()
    assert body["code"] == "invalidRequest" and "'abc'" in body["message"], body


def test_scenarioctl_watch_numbers_events_and_resumes(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    [(first_id, _, _)] = read_events(daemon, 1)
    advance(daemon, "2s")
    watch = subprocess.Popen([SCENARIOCTL, "watch", "--json", "--after", str(first_id), "--socket", daemon.socket],
                             stdout=subprocess.PIPE, text=True)
    try:
        line = json.loads(watch.stdout.readline())
        assert line == {"id": first_id + 1, "event": "clockMoved", "data": {"now": "2026-11-01T09:00:02Z"}}, line
    finally:
        watch.terminate()
        watch.wait(timeout=10)


def test_clock_moved_events_keep_the_fraction_of_a_second(daemon_with):
    """As the clock's own answers do (2026-11-01T09:00:00.750Z), on a live stream and on a resumed one."""
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    live, block = [], {}
    with httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=10) as http:
        with http.stream("GET", "/v1/sessions/default/events") as response:
            assert response.status_code == 200
            lines = (line.rstrip("\n") for line in response.iter_lines())
            answers = []
            for line in lines:
                if line.startswith(":") or (line == "" and not block):
                    continue  # the daemon's heartbeat
                if line == "":
                    live.append((int(block["id"]), block["event"], json.loads(block["data"])))
                    block = {}
                    if len(live) == 1:  # the current state came: now the clock moves twice
                        answers = [daemon.call("POST", "/v1/sessions/default/clock/advance", expect=200,
                                               json={"by": "750ms"}).json() for _ in range(2)]
                    elif len(live) == 5:  # each move: clockMoved, then historyChanged
                        break
                else:
                    field, _, value = line.partition(": ")
                    block[field] = value
    # The answers name the next wake too (the feed's refresh); the events only the time.
    assert answers == [{"now": "2026-11-01T09:00:00.750Z", "nextWake": "2026-11-01T09:15:00Z"},
                       {"now": "2026-11-01T09:00:01.500Z", "nextWake": "2026-11-01T09:15:00Z"}]
    assert [(name, data) for _, name, data in live[1:] if name == "clockMoved"] == [("clockMoved", {"now": answer["now"]}) for answer in answers], live
    first_id = live[0][0]
    resumed = read_events(daemon, 4, headers={"Last-Event-ID": str(first_id)})
    assert resumed == live[1:], resumed


def test_no_id_is_seen_twice_across_connections_and_a_gap(daemon_with):
    """Issue 33, item 5: a client that de-duplicates by id (as EventSource resumes by it) must never meet an id
    again, whatever connections it opened. Before, a new stream's state and a gap's notice reused the last id."""
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    seen = [event_id for event_id, _, _ in read_events(daemon, 1)]
    advance(daemon)
    seen += [event_id for event_id, _, _ in read_events(daemon, 1)]  # a second client's opening state
    for _ in range(130):  # 260 events, more than the 256 kept, so the next resume is a gap
        advance(daemon)
    seen += [event_id for event_id, _, _ in read_events(daemon, 2, headers={"Last-Event-ID": str(seen[0])})]
    advance(daemon)
    seen += [event_id for event_id, _, _ in read_events(daemon, 1, headers={"Last-Event-ID": str(seen[-1])})]
    assert len(seen) == len(set(seen)) and seen == sorted(seen), seen


def test_a_reader_that_falls_behind_is_told_of_every_event_it_missed(daemon_with, tmp_path):
    """Attached to /events while a reply of 100,000 stream events is delivered, a reader that does not read meanwhile
    loses the oldest, and between any two events it reads, the ids it did not get are exactly what a `gap` event
    between them counts (`missed`, `lastMissed`, and how to catch up). Found: 4,282 events read with 3,163 gaps in
    the ids and no `gap`."""
    count = 100_000
    directory = tmp_path / "scenarios" / "long-reply"
    directory.mkdir(parents=True)
    with open(directory / "reply.jsonl", "w") as reply:
        for index in range(1, count + 1):
            reply.write(f'{{"at": "+{index}ms", "event": "token", "data": {{"text": "x"}}}}\n')
        reply.write(f'{{"at": "+{count + 1}ms", "event": "done", "data": {{}}}}\n')
    (directory / "scenario.yaml").write_text(
        "description: A reply of 100,000 tokens.\nextends: assistant-happy\nnetwork:\n  routes:\n"
        "    - extends: reply\n      response:\n        stream:\n          file: reply.jsonl\n")
    daemon = daemon_with({}, ["--scenarios", str(tmp_path / "scenarios")])
    daemon.session("long-reply", "long")
    daemon.act("long", "send", text="hi")
    reader = rawhttp.connect(daemon.socket, timeout=60)
    reader.sendall(b"GET /v1/sessions/long/events HTTP/1.1\r\nHost: scenariod\r\n\r\n")
    moves = count // 5_000 + 1
    for _ in range(moves):
        daemon.call("POST", "/v1/sessions/long/clock/advance", expect=200, json={"by": "5s"})
    final_step = len(daemon.call("GET", "/v1/sessions/long/history", expect=200).json()["steps"]) - 1
    # Now read it all, up to the last move's history event.
    buffer, frames = b"", []
    while not any(name == "historyChanged" and data.get("newestStep") == final_step for _, name, data in frames[-3:]):
        chunk = reader.recv(1 << 20)
        assert chunk, f"the stream ended after {len(frames)} frames"
        buffer += chunk
        *blocks, buffer = buffer.split(b"\n\n")
        for block in blocks:
            fields = dict(line.split(": ", 1) for line in block.decode().split("\n") if ": " in line and not line.startswith("HTTP/"))
            if "event" in fields:
                frames.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
    reader.close()
    gaps = [data for _, name, data in frames if name == "gap"]
    assert gaps, "the reader fell behind yet was told of no gap"
    read = [(identifier, name) for identifier, name, _ in frames if name != "gap"]
    missed = 0
    for index in range(1, len(frames)):
        identifier, name, data = frames[index]
        if name == "gap":
            following = frames[index + 1][0]
            assert data["lastEventId"] == frames[index - 1][0], (frames[index - 1], data)
            assert data["missed"] == following - data["lastEventId"] - 1 and data["lastMissed"] == following - 1, (data, following)
            assert "Last-Event-ID" in data["message"] and "fell behind" in data["message"], data
            missed += data["missed"]
        elif frames[index - 1][1] != "gap":
            assert identifier == frames[index - 1][0] + 1, f"ids {frames[index - 1][0]} then {identifier} with no gap between"
    assert len(read) + missed == read[-1][0] - read[0][0] + 1, (len(read), missed, read[0], read[-1])
