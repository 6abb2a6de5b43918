"""Network conditions on a running session (issue 16, item 2): offline, a fault, or a delay on every answer, and
back, through the API and scenarioctl; journaled; undone by a reset."""
import json
import subprocess

from daemon import SCENARIOCTL


def ctl(daemon, *arguments):
    run = subprocess.run([SCENARIOCTL, *arguments, "--socket", daemon.socket], capture_output=True, text=True, timeout=30)
    return run.returncode, run.stdout.strip(), run.stderr


def conditions(daemon, body=None):
    if body is None:
        return daemon.call("GET", "/v1/sessions/default/network/conditions", expect=200).json()
    return daemon.call("PUT", "/v1/sessions/default/network/conditions", expect=200, json=body).json()


def test_offline_a_fault_and_a_delay_and_back(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    assert conditions(daemon) == {"offline": False}
    assert ctl(daemon, "network", "offline")[1] == "offline"
    assert daemon.act("default", "reload")["error"] == "Could not load the feed: The network is offline."
    entry = daemon.journal("default")[-1]
    assert (entry["fault"], entry["condition"], entry.get("route")) == ("offline", "offline", None), entry
    assert daemon.call("GET", "/v1/sessions/default/journal/unmatched", expect=200).json()["entries"] == []

    assert conditions(daemon, {"fault": "timeout"}) == {"offline": False, "fault": "timeout"}
    assert "timed out" in daemon.act("default", "reload")["error"]

    assert ctl(daemon, "network", "delay", "2s")[1] == "delay 2s"
    assert daemon.act("default", "reload")["isLoading"] is True
    entry = daemon.journal("default")[-1]
    assert (entry["route"], entry["pending"], entry["condition"]) == ("feed", True, "delay 2s"), entry
    daemon.call("POST", "/v1/sessions/default/clock/advance", expect=200, json={"by": "2s"})
    assert daemon.state("default")["isLoading"] is False

    assert ctl(daemon, "network", "online")[1] == "normal"
    assert daemon.act("default", "reload").get("error") is None
    # The switches are steps of the history, not journal entries: the journal holds the requests only.
    steps = daemon.call("GET", "/v1/sessions/default/history", expect=200).json()["steps"]
    switches = [step["summary"] for step in steps if step["kind"] == "setNetworkConditions"]
    assert switches == ["network conditions offline", "network conditions fault timeout", "network conditions delay 2s",
                        "network conditions normal"], switches
    assert all(entry["method"] == "GET" for entry in daemon.journal("default"))
    assert "network conditions set: offline" in daemon.log()


def test_a_reset_switches_back_and_bad_conditions_are_refused(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    status, out, _ = ctl(daemon, "--json", "network", "offline")
    assert status == 0 and json.loads(out) == {"offline": True}
    daemon.call("POST", "/v1/sessions/default/reset", expect=200)
    assert conditions(daemon) == {"offline": False}
    for body, words in [({"fault": "gremlins"}, "not a fault"), ({"delay": "soon"}, "not a duration"),
                        ({"offline": True, "fault": "timeout"}, "give one"), ({"speed": 1}, "unknown field")]:
        response = daemon.call("PUT", "/v1/sessions/default/network/conditions", expect=400, json=body).json()
        assert words in response["message"], response
    status, _, err = ctl(daemon, "network", "fault", "gremlins")
    assert status == 1 and "not a fault" in err


def test_the_journal_counts_requests_only(daemon_with):
    """Issue 33, item 4: configuration changes (conditions, a route override, a store edit) are steps of the
    history, never journal entries, so a test that counts the journal counts the Model's requests. Before, each
    switch of conditions was an entry (`SET network:conditions`) with a sequence number of its own."""
    daemon = daemon_with({})
    daemon.session("first-launch", "counted")
    base = "/v1/sessions/counted"
    made = len(daemon.journal("counted"))  # the Model's first fetch, as it starts
    daemon.call("PUT", f"{base}/network/conditions", expect=200, json={"offline": True})
    daemon.act("counted", "reload")
    made += 1
    daemon.call("PUT", f"{base}/network/conditions", expect=200, json={})
    daemon.call("PUT", f"{base}/routes/feed", expect=204, json={"extends": "feed", "response": {"status": 503}})
    daemon.call("PUT", f"{base}/kv/readItems", expect=200, json=["https://www.cocoawithlove.com/blog/mock-views.html"])
    daemon.act("counted", "reload")
    made += 1
    entries = daemon.journal("counted")
    assert len(entries) == made and [entry["sequence"] for entry in entries] == list(range(1, made + 1)), entries
    assert all(entry["url"] == "https://www.cocoawithlove.com/feed.json" for entry in entries), entries
    counts = daemon.call("GET", f"{base}/journal/counts", expect=200).json()
    assert sum(counts["routes"].values()) + counts["unmatched"] + counts.get("live", 0) + 1 == made, counts  # + the offline one
