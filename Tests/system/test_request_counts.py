"""Counting (issue 16, item 5): per route, how many requests it answered, exact past the journal's capacity, through
the API and `scenarioctl requests --count`; reset and clearing start the counts again."""
import json
import subprocess

from daemon import SCENARIOCTL


def counts(daemon, session):
    return daemon.call("GET", f"/v1/sessions/{session}/journal/counts", expect=200).json()


def test_counts_stay_exact_past_the_journals_capacity(daemon_with):
    daemon = daemon_with({}, ["--journal-capacity", "2"])
    daemon.session("feed-updates", "s")
    assert counts(daemon, "s") == {"routes": {"feed": 1}, "unmatched": 0, "live": 0}
    for _ in range(4):  # a refresh every 15 minutes
        daemon.call("POST", "/v1/sessions/s/clock/advance", expect=200, json={"by": "15m"})
    journal = daemon.call("GET", "/v1/sessions/s/journal", expect=200).json()
    assert len(journal["entries"]) == 2 and journal["dropped"] == 3, journal
    assert counts(daemon, "s")["routes"] == {"feed": 5}

    run = subprocess.run([SCENARIOCTL, "requests", "--count", "--session", "s", "--socket", daemon.socket],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()]
    assert rows == [["ROUTE", "ANSWERED"], ["feed", "5"], ["(unmatched)", "0"]], run.stdout
    run = subprocess.run([SCENARIOCTL, "--json", "requests", "--count", "--session", "s", "--socket", daemon.socket],
                         capture_output=True, text=True, timeout=30)
    assert json.loads(run.stdout) == counts(daemon, "s")


def test_every_route_is_listed_and_unmatched_requests_are_counted_apart(daemon_with):
    daemon = daemon_with({})
    daemon.session("ratings-signed-out", "r")
    before = counts(daemon, "r")
    assert before["routes"] and set(before["routes"].values()) == {0}, before
    daemon.session("offline", "o")  # FeedReader with no routes: its start-up fetch matches nothing
    assert counts(daemon, "o") == {"routes": {}, "unmatched": 1, "live": 0}


def test_reset_and_clear_start_the_counts_again(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    daemon.act("default", "reload")
    assert counts(daemon, "default")["routes"] == {"feed": 2}
    daemon.call("POST", "/v1/sessions/default/journal/clear", expect=204)
    assert counts(daemon, "default")["routes"] == {"feed": 0}
    daemon.act("default", "reload")
    daemon.call("POST", "/v1/sessions/default/reset", expect=200)
    assert counts(daemon, "default")["routes"] == {"feed": 1}  # the Model's start-up fetch, again
    assert daemon.call("GET", "/v1/sessions/nope/journal/counts", expect=404).json()["code"] == "unknownSession"
