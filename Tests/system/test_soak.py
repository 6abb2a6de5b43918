"""The short soak: Tests/system/soak.py for SOAK_SECONDS (default 60) with 16 clients; the 10-minute run and its
figures are in RELIABILITY.md."""
import os

from soak import JOURNAL_CAPACITY, soak


def test_a_minute_of_sixteen_clients_leaves_no_errors_no_growth_and_no_leaked_descriptors(tmp_path):
    report = soak(float(os.environ.get("SOAK_SECONDS", "60")), 16, tmp_path)
    summary = {key: value for key, value in report.items() if key != "samples"}
    print(summary)
    assert report["errors"] == 0, report["first_errors"]
    assert report["requests"] > 1000, summary
    assert report["rss_growth_after_warm_up_percent"] < 10, summary
    assert report["fds_end"] <= report["fds_baseline"], summary
    assert report["largest_journal"] <= JOURNAL_CAPACITY, summary
    assert report["sessions_left"] == 0, summary
