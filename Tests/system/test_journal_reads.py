"""Journal reads are assembled from each entry's JSON kept between reads, and the body is kept until the journal
changes (SessionJournal.encoded, SessionJournal.body): a read must
still show every change to the journal — an entry a delayed answer completed, entries dropped at the bound, a
clear, a reset — and the unmatched read only what matched no route."""


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
