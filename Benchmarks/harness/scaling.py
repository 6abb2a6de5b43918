"""How the control path's costs grow with the work the daemon holds (issue 32, item 5): a state read and a test's
whole overhead with 1, 100 and 10,000 open sessions; state reads of 1 KiB, 100 KiB and 1 MiB states beside nginx
serving the same bytes; and a journal read at the journal's bound beside nginx serving its bytes."""
import json
import time

import daemon as daemon_module
import load
import nginx as nginx_module
import pertest
from daemon import call
from report import Row, fmt_bytes, fmt_count, fmt_us, ratio

STATE_SIZES = (1 << 10, 100 << 10, 1 << 20)
# One FeedReader item's share of the state, in bytes (a title, a summary, its URL twice, a date, isRead).
BYTES_PER_ITEM = 285
JOURNAL_CAPACITY = 1000  # RequestJournal.defaultCapacity


def feed_scenario(directory, items):
    """A FeedReader scenario whose feed has `items` items; its state after a reload holds them all."""
    (directory / "fixtures").mkdir(parents=True, exist_ok=True)
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": "Generated", "items": [
        {"id": f"https://www.cocoawithlove.com/blog/generated-{index}.html",
         "url": f"https://www.cocoawithlove.com/blog/generated-{index}.html",
         "title": f"Generated post number {index}", "summary": "A post generated to make the state as large as asked.",
         "date_published": "2026-10-20T00:00:00+00:00"} for index in range(items)]}
    (directory / "fixtures" / "feed.json").write_text(json.dumps(feed))
    (directory / "scenario.yaml").write_text("""\
description: A generated feed, to size the state.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
  mode: frozen
network:
  routes:
    - name: feed
      request:
        method: GET
        url: https://www.cocoawithlove.com/feed.json
      response:
        status: 200
        bodyFile: fixtures/feed.json
""")


def open_sessions(connection, count):
    for _ in range(count):
        call(connection, "POST", "/v1/sessions", {"scenario": "offline-demo"}, expect=201)


def read_bytes(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        raise RuntimeError(f"GET {path} answered {response.status}: {body[:300]!r}")
    return body


def rows(binary, repository, work, seconds, say, session_counts=(1, 100, 10_000)):
    client, per_test = load.build(work), pertest.build(work)
    scenarios = work / "scaling-scenarios"
    items = {size: max(1, round(size / BYTES_PER_ITEM)) for size in STATE_SIZES}
    for size, count in items.items():
        feed_scenario(scenarios / f"state-{size}", count)
    daemon = daemon_module.Daemon(binary, repository, work / "scaling", extra=[
        "--scenarios", str(scenarios), "--max-sessions", str(max(session_counts) + 10)]).start()
    connection = daemon.connection()
    result, files = [], {}
    try:
        say(f"== cost as work grows: {', '.join(f'{count:,}' for count in session_counts)} open sessions")
        by_count = {}
        for count in session_counts:
            open_now = call(connection, "GET", "/v1/health")["sessions"]
            open_sessions(connection, count - open_now)
            read = load.run(client, daemon.socket, "/v1/sessions/default/state", 16, seconds)
            test = pertest.run(per_test, daemon.socket, 1, seconds)
            by_count[count] = (read, test)
            say(f"  {count:>6,} sessions: state read {read['rps']:,.0f} req/s; a test p50 {test['p50_us']:.0f} µs, "
                f"p99 {test['p99_us']:.0f} µs")
        first_read, first_test = by_count[session_counts[0]]
        for count in session_counts[1:]:
            read, test = by_count[count]
            result.append(Row(f"Scaling: GET state with {count:,} open sessions, 16 connections, req/s", fmt_count(read["rps"]),
                              f"{session_counts[0]} session {fmt_count(first_read['rps'])}", ratio(read["rps"], first_read["rps"]),
                              "reported", None))
            result.append(Row(f"Scaling: a test's overhead with {count:,} open sessions, 1 client, p50", fmt_us(test["p50_us"]),
                              f"{session_counts[0]} session {fmt_us(first_test['p50_us'])}", ratio(test["p50_us"], first_test["p50_us"]),
                              "reported", None))

        say("== cost as work grows: state sizes and a journal at its bound")
        for size in STATE_SIZES:
            session = f"size-{size}"
            call(connection, "POST", "/v1/sessions", {"scenario": f"state-{size}", "id": session}, expect=201)
            call(connection, "POST", f"/v1/sessions/{session}/actions/reload", expect=200)
            files[f"/v1/sessions/{session}/state"] = read_bytes(connection, f"/v1/sessions/{session}/state")
        call(connection, "POST", "/v1/sessions", {"scenario": "first-launch", "id": "journal"}, expect=201)
        for _ in range(JOURNAL_CAPACITY + 10):
            call(connection, "POST", "/v1/sessions/journal/actions/reload", expect=200)
        files["/v1/sessions/journal/journal"] = read_bytes(connection, "/v1/sessions/journal/journal")
        entries = json.loads(files["/v1/sessions/journal/journal"])["entries"]
        if len(entries) != JOURNAL_CAPACITY:
            raise RuntimeError(f"the journal holds {len(entries)} entries, expected its bound {JOURNAL_CAPACITY}")
        reference = nginx_module.Nginx(work / "nginx-scaling", files, workers="1").start()
        try:
            for path, body in files.items():
                ours = load.run(client, daemon.socket, path, 16, seconds)
                theirs = load.run(client, reference.socket, path, 16, seconds)
                what = "a journal at its bound (1,000 entries)" if path.endswith("/journal") else "state"
                say(f"  GET {what} of {fmt_bytes(len(body))}: {ours['rps']:,.0f} req/s; nginx {theirs['rps']:,.0f}")
                journal = path.endswith("/journal")
                result.append(Row(f"Scaling: GET {what} of {fmt_bytes(len(body))}, 16 connections, req/s", fmt_count(ours["rps"]),
                                  f"nginx (1), same bytes {fmt_count(theirs['rps'])}", ratio(ours["rps"], theirs["rps"]),
                                  "≥ 1.0× nginx" if journal else "reported", ours["rps"] >= theirs["rps"] if journal else None))
        finally:
            reference.stop()
    finally:
        connection.close()
        daemon.stop()
    return result
