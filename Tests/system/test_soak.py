"""The CI soak: Tests/system/soak.py (what `scripts/soak` runs) for SOAK_SECONDS (default 180) with 16 clients, two
slow watchers and a visitor of the dashboard's bridge; longer runs and their curves are in RELIABILITY.md."""
import os

from soak import JOURNAL_CAPACITY, soak


def test_three_minutes_of_mixed_load_leave_no_errors_no_growth_and_nothing_held(tmp_path):
    report = soak(float(os.environ.get("SOAK_SECONDS", "180")), 16, tmp_path)
    summary = {key: value for key, value in report.items() if key != "samples"}
    print(summary)
    # Errors include a key-value write not read back, a scripted session that ended otherwise than its reference
    # run, and a slow watcher whose ids skipped without an event: gap counting them.
    assert report["errors"] == 0, report["first_errors"]
    assert report["requests"] > 1000 and report["watched_events"] > 0, summary
    assert report["missed_events_said_by_gaps"] > 0, "the slow watchers never fell behind: the gap path went untested"
    assert report["rss_growth_after_warm_up_percent"] < 10, summary
    assert report["fds_end"] <= report["fds_baseline"], summary
    assert report["threads_end"] <= report["threads_baseline"] + 2, summary
    assert report["connections_end"] <= report["connections_baseline"], summary
    assert report["largest_journal"] <= JOURNAL_CAPACITY, summary
    assert report["bridge_samples"] > 0 and report["bridge_daemon_connections_max"] <= 10, summary
    assert report["sessions_left"] == 0, summary
    # The daemon's count of what sessions hold rose under the load and came back to nothing once they were deleted.
    assert report["held_bytes_peak"] > 0 and report["held_bytes_end"] == 0, summary
    # Every kind of work ran: an agent's tool calls, explore walks, recordings replayed, a live server restarted, apps
    # through sessions' endpoints.
    assert report["agent_tool_calls"] > 0 and report["explore_walks"] > 0 and report["record_replays"] > 0, summary
    assert report["endpoint_requests"] > 0 and report["endpoint_sockets"] > 0, summary
    assert report["live_server_restarts"] > 0 and report["live_reloads"]["items"] > 0 and report["live_reloads"]["error"] > 0, summary
