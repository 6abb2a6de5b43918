"""Journal reads are assembled from each entry's JSON kept between reads, and the body is kept until the journal
changes (SessionJournal.encoded, SessionJournal.body): a read must
still show every change to the journal — an entry a delayed answer completed, entries dropped at the bound, a
clear, a reset — and the unmatched read only what matched no route. Keep-alive reads are answered on the event loop (DirectReadResponder):
the same bytes and headers the router answers, in order behind the requests before them on the connection."""
import json

import rawhttp
from test_state_reads import pipelined


def test_a_kept_entry_is_encoded_again_when_its_delayed_answer_completes(daemon_with):
    daemon = daemon_with({})
    daemon.session("slow-network", "slow")
    daemon.act("slow", "reload")
    pending = daemon.journal("slow")  # the load at start and the reload, both waiting on the clock
    assert pending and all(entry.get("pending") is True for entry in pending)
    assert daemon.journal("slow") == pending  # read twice: the second from what the first kept
    daemon.call("POST", "/v1/sessions/slow/clock/advance", expect=200, json={"by": "2s"})
    completed = daemon.journal("slow")
    assert all(entry["status"] == 200 and not entry.get("pending") for entry in completed)
    assert [entry["sequence"] for entry in completed] == [entry["sequence"] for entry in pending]


def test_reads_follow_the_bound_a_clear_and_a_reset(daemon_with):
    daemon = daemon_with({}, arguments=["--journal-capacity", "3"])
    daemon.session("first-launch", "j")
    sequences = []
    for _ in range(5):
        daemon.act("j", "reload")
        body = daemon.call("GET", "/v1/sessions/j/journal", expect=200).json()
        sequences.append([entry["sequence"] for entry in body["entries"]])
    # The load at start and five reloads: six requests, of which the newest three are kept.
    assert [len(kept) for kept in sequences] == [2, 3, 3, 3, 3]
    assert all(later[0] > earlier[0] for earlier, later in zip(sequences[1:], sequences[2:]))
    assert body["dropped"] == 3 and body["capacity"] == 3
    daemon.call("POST", "/v1/sessions/j/journal/clear", expect=204)
    assert daemon.journal("j") == []
    daemon.act("j", "reload")
    daemon.call("POST", "/v1/sessions/j/reset", expect=200)
    assert [entry["sequence"] for entry in daemon.journal("j")] == [1]  # only the new start's load


def test_the_unmatched_read_lists_only_what_matched_no_route(daemon_with):
    daemon = daemon_with({})
    daemon.session("offline", "off")
    daemon.act("off", "reload")
    everything = daemon.journal("off")
    unmatched = daemon.call("GET", "/v1/sessions/off/journal/unmatched", expect=200).json()["entries"]
    assert unmatched == [entry for entry in everything if entry.get("route") is None and not entry.get("live")
                         and entry.get("service") is None and entry.get("condition") is None]
    assert daemon.journal("off") == everything


def test_a_read_on_the_event_loop_answers_what_the_router_does_and_in_order(daemon_with):
    daemon = daemon_with({})
    daemon.session("offline", "loop")
    daemon.act("loop", "reload")
    for target in ("/v1/sessions/loop/journal", "/v1/sessions/loop/journal/unmatched"):
        # Connection: close takes the router's path; a kept connection the event loop's.
        routed = rawhttp.request(daemon.socket, "GET", target, headers=("Connection: close",))
        (direct,) = pipelined(daemon.socket, [("GET", target, None)])
        assert routed[0] == direct[0] == 200 and routed[2] == direct[2] and json.loads(direct[2])["entries"], target
        assert direct[1]["content-type"] == "application/json" and int(direct[1]["content-length"]) == len(direct[2])
    # Behind an action on the same connection, a read shows what the action journaled, never the body kept before it.
    responses = pipelined(daemon.socket, [
        ("GET", "/v1/sessions/loop/journal", None),
        ("POST", "/v1/sessions/loop/actions/reload", {}),
        ("GET", "/v1/sessions/loop/journal", None),
        ("GET", "/v1/sessions/loop/journal/unmatched", None),
    ])
    assert [status for status, _, _ in responses] == [200] * 4
    before, after = (len(json.loads(responses[index][2])["entries"]) for index in (0, 2))
    assert after == before + 1 and len(json.loads(responses[3][2])["entries"]) == after
    # A session gone is the router's to answer: 404 with why.
    daemon.call("DELETE", "/v1/sessions/loop", expect=204)
    (gone,) = pipelined(daemon.socket, [("GET", "/v1/sessions/loop/journal", None)])
    assert gone[0] == 404 and json.loads(gone[2])["code"] == "unknownSession"
