#!/usr/bin/env python3
"""Runs every benchmark of BENCHMARKS.md and prints the table: each figure beside a reference measured in the same
run (nginx, a C floor, the same work done another way), their ratio and the target.

Usage: Benchmarks/harness/run.py [--write BENCHMARKS.md] [--quick]
Needs nginx, gcc and libsystemd-dev: scripts/benchmark installs them and calls this."""
import argparse
import datetime
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile

import daemon as daemon_module
import explore_cli
import fixtures
import inprocess
import load
import mcp_calls
import nginx as nginx_module
import pertest
import report
import scaling
import sessions
import startup
import stream_wakes
from report import Row, fmt_bytes, fmt_count, fmt_ms, fmt_us, ratio

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
STATE_PATH = "/v1/sessions/default/state"
FEED_FIXTURE = REPOSITORY / "scenarios/first-launch/fixtures/feed.json"


def say(message):
    print(message, file=sys.stderr, flush=True)


def build_daemon(work: pathlib.Path):
    """The daemon as the package ships it (release, Swift runtime linked statically), copied out of .build."""
    say("== release build of scenariod (--static-swift-stdlib, as packaged; in .build-static)")
    # A scratch path of its own: the static runtime changes every compile command, so sharing .build with the
    # benchmark plugin's (dynamic) release build would rebuild everything each time either runs.
    # The task hooks linked in as scripts/build-deb links them (TaskOwnershipCheck.linkerFlags), so the figures include them.
    wraps = [flag for name in ("swift_task_create", "dispatch_after_f", "dispatch_after", "dispatch_async", "dispatch_async_f")
             for flag in ("-Xlinker", f"--wrap={name}")]
    # And without exporting the program's symbols, as scripts/build-release links it.
    build = ["swift", "build", "-c", "release", "--static-swift-stdlib", *wraps, "-Xlinker", "--no-export-dynamic",
             "--scratch-path", ".build-static"]
    # Without the benchmarks, as scripts/build-deb builds: the wraps would reach the benchmark plugin's tool.
    environment = {**os.environ, "SCENARIOD_PACKAGING": "1"}
    subprocess.run([*build, "--product", "scenariod"], cwd=REPOSITORY, check=True, stdout=sys.stderr, env=environment)
    bin_path = subprocess.run([*build, "--show-bin-path"], cwd=REPOSITORY, check=True,
                              capture_output=True, text=True, env=environment).stdout.strip()
    binary = work / "scenariod"
    binary.write_bytes(pathlib.Path(bin_path, "scenariod").read_bytes())
    binary.chmod(0o755)
    return str(binary)


def build_release(product):
    """A product in release (dynamic, in .build beside the in-process benchmarks' release build, whose objects it
    shares); returns its path."""
    say(f"== release build of {product}")
    build = ["swift", "build", "-c", "release", "--product", product]
    subprocess.run(build, cwd=REPOSITORY, check=True, stdout=sys.stderr)
    bin_path = subprocess.run([*build, "--show-bin-path"], cwd=REPOSITORY, check=True, capture_output=True, text=True).stdout.strip()
    return str(pathlib.Path(bin_path, product))


def build_scenarioctl():
    """scenarioctl, the MCP client's server. Without the task hooks: scenarioctl hosts no Model."""
    return build_release("scenarioctl")


def probe_bodies(binary, work):
    """The exact bytes the control API answers, for nginx to serve: the default session's state, and a test's
    four steps (pertest)."""
    probe = daemon_module.Daemon(binary, REPOSITORY, work / "probe").start()
    try:
        connection = probe.connection()
        connection.request("GET", STATE_PATH)
        response = connection.getresponse()
        return {STATE_PATH: response.read(), **pertest.floor_files(probe)}
    finally:
        probe.stop()


def test_overhead_rows(binary, work, nginx, bodies, seconds, in_process_p50):
    """A test's four requests over the socket at 1 and 16 clients, beside nginx answering them from files and
    Hummingbird alone answering them from memory (`bodies`: the floor files of pertest)."""
    say(f"== a test's whole overhead: create + action + state + delete over the socket vs nginx ({seconds} s each)")
    client = pertest.build(work)
    daemon = daemon_module.Daemon(binary, REPOSITORY, work / "pertest").start()
    # The HTTP stack's own share: Hummingbird alone, answering the daemon's bytes from memory.
    hummingbird = pertest.HummingbirdFloor(build_release("HummingbirdFloor"), work / "hummingbird-floor", bodies).start()
    rows, stack = [], []
    try:
        for clients in (1, 16):
            ours = pertest.run(client, daemon.socket, clients, seconds)
            floor = pertest.run(client, nginx.socket, clients, seconds, floor=True)
            bare = pertest.run(client, hummingbird.socket, clients, seconds)
            say(f"  {clients:2} client(s): scenariod p50 {ours['p50_us']:.0f} µs, p99 {ours['p99_us']:.0f} µs "
                f"({ours['tests']:,} tests); nginx p50 {floor['p50_us']:.0f} µs, p99 {floor['p99_us']:.0f} µs; "
                f"Hummingbird alone p50 {bare['p50_us']:.0f} µs")
            plural = "s" if clients > 1 else ""
            for percentile in ("p50", "p99"):
                rows.append(Row(f"A test over the socket (create + action + state + delete), {clients} client{plural}, {percentile}",
                                fmt_us(ours[f"{percentile}_us"]), f"nginx, same 4 requests from files {fmt_us(floor[f'{percentile}_us'])}",
                                ratio(ours[f"{percentile}_us"], floor[f"{percentile}_us"]), "≤ 2.5× nginx",
                                ours[f"{percentile}_us"] <= 2.5 * floor[f"{percentile}_us"]))
            stack.append(Row(f"A test's 4 requests answered by Hummingbird alone (same bytes from memory), {clients} client{plural}, p50",
                             fmt_us(bare["p50_us"]), f"nginx, from files {fmt_us(floor['p50_us'])}",
                             ratio(bare["p50_us"], floor["p50_us"]), "reported", None))
    finally:
        daemon.stop()
        hummingbird.stop()
    rows += stack
    rows.append(Row("A test in process (ScenarioTesting withScenario, same 4 steps, p50)", fmt_us(in_process_p50),
                    f"over the socket, 1 client {rows[0].measured}", "—", "reported", None))
    return rows


def throughput_rows(binary, work, state_body, seconds, rounds):
    """Target 1: scenariod and nginx (one worker, and one per core) alternately, at 16 and at 1 connection, the
    median of `rounds` runs each, against the faster nginx; then the evidence that the client is not the limit:
    nginx's rate with twice the client threads and connections, and the client's own CPU."""
    say(f"== control API over the Unix socket vs nginx ({rounds} rounds of {seconds} s each, loadgen)")
    client = load.build(work)
    daemon = daemon_module.Daemon(binary, REPOSITORY, work / "throughput").start()
    references = {workers: nginx_module.Nginx(work / f"nginx-{workers}", {STATE_PATH: state_body}, workers=workers).start()
                  for workers in ("1", "auto")}
    servers = [("scenariod", daemon.socket)] + [(f"nginx ({workers})", nginx.socket) for workers, nginx in references.items()]
    results = {}
    try:
        for connections in (16, 1):
            runs = {}
            for _ in range(rounds):
                for name, socket_path in servers:
                    runs.setdefault(name, []).append(load.run(client, socket_path, STATE_PATH, connections, seconds))
            for name, measured in runs.items():
                results[name, connections] = {key: statistics.median(run[key] for run in measured) for key in measured[0]}
                figure = results[name, connections]
                say(f"  {name:13} {connections:2} conn: {figure['rps']:>9,.0f} req/s, p50 {figure['p50_us']:.0f} µs, "
                    f"p99 {figure['p99_us']:.0f} µs, client CPU {figure['client_cpu']:.2f}")
        def faster_nginx(connections):
            """The nginx that answered faster at `connections`, and the other."""
            first, second = sorted(("nginx (1)", "nginx (auto)"), key=lambda name: -results[name, connections]["rps"])
            return first, second

        best, _ = faster_nginx(16)
        # More client: if nginx answered faster with it, the client (not nginx) set the reference's rate.
        more = {}
        for connections, threads in ((16, 2), (32, 2)):
            measured = [load.run(client, dict(servers)[best], STATE_PATH, connections, seconds, threads=threads)
                        for _ in range(rounds)]
            more[connections, threads] = statistics.median(run["rps"] for run in measured)
            say(f"  {best} with {threads} client threads, {connections} conn: {more[connections, threads]:,.0f} req/s")
    finally:
        daemon.stop()
        for nginx in references.values():
            nginx.stop()
    rows = []
    for connections in (16, 1):
        ours = results["scenariod", connections]
        reference, slower = faster_nginx(connections)
        theirs, other = results[reference, connections], results[slower, connections]
        rows.append(Row(f"Control API: GET state, {connections} connection{'s' if connections > 1 else ''}, req/s",
                        fmt_count(ours["rps"]), f"{reference} {fmt_count(theirs['rps'])} (other {fmt_count(other['rps'])})",
                        ratio(ours["rps"], theirs["rps"]), "≥ 0.8× nginx", ours["rps"] >= 0.8 * theirs["rps"]))
        rows.append(Row(f"Control API: p99 latency, {connections} connection{'s' if connections > 1 else ''}",
                        fmt_us(ours["p99_us"]), f"{reference} {fmt_us(theirs['p99_us'])}",
                        ratio(ours["p99_us"], theirs["p99_us"]), "≤ 1 ms", ours["p99_us"] <= 1000))
    base, most = results[best, 16], max(more.values())
    rows.append(Row("Load client: nginx with 2 client threads and 16 or 32 connections, req/s (best)",
                    fmt_count(most), f"1 thread, 16 connections {fmt_count(base['rps'])}; client CPU {base['client_cpu']:.2f} cores",
                    ratio(most, base["rps"]), "≤ 1.1×: not client-bound", most <= 1.1 * base["rps"]))
    return rows


def startup_rows(binary, work, runs):
    """Target 2: exec to READY=1 with the shipped scenarios and with 1,000 more, beside the C floor."""
    say(f"== start-up: exec to READY=1 ({runs} runs each, median)")
    directory = work / "startup"
    directory.mkdir()
    floor_binary = startup.build_floor(directory)
    floor = startup.median_ms(lambda index: [floor_binary], directory, runs)

    def scenariod(extra):
        return lambda index: [binary, "--scenarios", str(REPOSITORY / "scenarios"), *extra, "--scenario", "offline-demo",
                              "--socket", str(directory / f"control-{index}.sock"),
                              "--state-directory", str(directory / "state"), "--log-target", "stderr"]
    shipped = startup.median_ms(scenariod([]), directory, runs)
    generated_root = work / "generated-scenarios"
    startup.generate_scenarios(generated_root, 1000, FEED_FIXTURE.read_bytes())
    generated = startup.median_ms(scenariod(["--scenarios", str(generated_root)]), directory, max(5, runs // 2))
    say(f"  C floor {floor:.1f} ms, shipped scenarios {shipped:.1f} ms, +1,000 generated {generated:.1f} ms")
    return [
        Row("Start-up: exec to READY=1, shipped scenarios (median)", fmt_ms(shipped), f"C sd_notify floor {fmt_ms(floor)}",
            ratio(shipped, floor), "≤ 8 ms", shipped <= 8),
        Row("Start-up: exec to READY=1, +1,000 generated scenarios (median)", fmt_ms(generated),
            f"shipped scenarios {fmt_ms(shipped)}", ratio(generated, shipped), "≤ 500 ms", generated <= 500),
    ]


def memory_rows(binary, work, count, large_count):
    """Target 3 (memory): resident bytes of idle sessions in the daemon itself."""
    say(f"== idle sessions: {count:,} of offline-demo, then {large_count:,} of a scenario with a 1 MiB fixture")
    extra = work / "memory-scenarios"
    sessions.write_large_fixture_scenario(extra)
    daemon = daemon_module.Daemon(binary, REPOSITORY, work / "memory", extra=["--scenarios", str(extra),
                                                          "--max-sessions", str(count + large_count + 1)]).start()
    try:
        figures = sessions.measure(daemon, count, large_count, progress=say)
    finally:
        daemon.stop()
    say(f"  RSS {fmt_bytes(figures['rss_before'])} → {fmt_bytes(figures['rss_after'])}; "
        f"{figures['per_session']:,.0f} B/session; with the 1 MiB fixture {figures['per_large_session']:,.0f} B/session")
    shared = figures["per_large_session"] - figures["per_session"] < sessions.LARGE_FIXTURE_BYTES / 10
    return [
        Row(f"Sessions: {count:,} idle sessions, daemon resident", fmt_bytes(figures["rss_after"]),
            f"daemon with 1 session {fmt_bytes(figures['rss_before'])}", ratio(figures["rss_after"], figures["rss_before"]),
            "≤ 300 MB", figures["rss_after"] <= 300e6),
        Row("Sessions: resident bytes per idle session", fmt_bytes(figures["per_session"]), "—", "—", "reported", None),
        Row("Sessions: bytes per session, scenario with an unfetched 1 MiB fixture",
            fmt_bytes(figures["per_large_session"]), f"offline-demo {fmt_bytes(figures['per_session'])}",
            ratio(figures["per_large_session"], figures["per_session"]), "fixture shared: < 0.1 MiB more", shared),
    ]


def inprocess_rows(figures):
    """Targets 3 (latency), 4 and 5, from ordo-one/benchmark's percentiles."""
    def p50(key, metric="wallClock"):
        return figures[key][metric][50]
    session, first_action = p50("session"), p50("reload_fake")
    fake, live = p50("reload_fake"), p50("reload_live")
    rows = [
        Row("Session: create offline-demo + first action, in process (p50)", fmt_us(session),
            f"the action alone {fmt_us(first_action)}", ratio(session, first_action), "≤ 60 µs", session <= 60),
        Row("FeedReader reload: fake network vs live network to nginx (p50)", fmt_us(fake), f"live {fmt_us(live)}",
            f"{live / fake:.1f}× faster", "≥ 20× faster", live >= 20 * fake),
    ]
    exchange_us, live_exchange_us = p50("exchange_fake"), p50("exchange_live")
    rows.append(Row("Network exchange alone: fake vs live network to nginx (p50)", fmt_us(exchange_us),
                    f"live {fmt_us(live_exchange_us)}", f"{live_exchange_us / exchange_us:.1f}× faster", "reported", None))
    control, floor = p50("control", "mallocCountTotal"), p50("control_floor", "mallocCountTotal")
    rows.append(Row("Allocations per control request (GET state, p50)", fmt_count(control),
                    f"Hummingbird, same body {fmt_count(floor)}", ratio(control, floor), "reported", None))
    exchange, live_exchange = p50("exchange_fake", "mallocCountTotal"), p50("exchange_live", "mallocCountTotal")
    rows.append(Row("Allocations per fake network exchange (p50)", fmt_count(exchange),
                    f"live exchange to nginx {fmt_count(live_exchange)}", ratio(exchange, live_exchange), "reported", None))
    control_us, floor_us = p50("control"), p50("control_floor")
    rows.append(Row("Control request in process, keep-alive round trip (p50)", fmt_us(control_us),
                    f"Hummingbird, same body {fmt_us(floor_us)}", ratio(control_us, floor_us), "reported", None))
    # An exploration of 200 steps: steps per second from the p50 of each.
    def rate(key):
        return 200 / (p50(key) / 1e6)
    explore, loop = max(rate("explore"), rate("explore_parallel")), rate("explore_loop")
    engine = max(rate("explore_engine"), rate("explore_engine_parallel"))
    rows.append(Row("Explore in process: offline-demo steps/s (checked, replayed; best of 1 and 2 walks at once)",
                    f"{explore:,.0f}/s", f"same steps, hand-written loop {loop:,.0f}/s", ratio(explore, loop),
                    "≥ 20,000/s", explore >= 20_000))
    rows.append(Row("Explore: the same steps on the engine, no API, no checks (best of 1 and 2 at once)", f"{engine:,.0f}/s",
                    "—", "—", "reported", None))
    # The other shipped Models, two walks at once: the target is for every shipped Model.
    for key, what in (("explore_ratings", "Ratings (ratings-signed-out, with its properties.yaml)"),
                      ("explore_assistant", "Assistant (assistant-happy, streamed replies)")):
        steps = rate(key)
        rows.append(Row(f"Explore in process: {what} steps/s, two walks at once", f"{steps:,.0f}/s",
                        f"offline-demo {explore:,.0f}/s", ratio(steps, explore), "≥ 20,000/s", steps >= 20_000))
    # A reply of 1,000 server-sent events read by the Assistant Model: events per second from the p50 of each.
    def events(key):
        return 1_000 / (p50(key) / 1e6)
    burst, timed, base = events("stream_burst"), events("stream_timed"), events("stream_baseline")
    rows.append(Row("Stream: SSE events delivered to the Assistant in process, all due at once (session, parse, journal)",
                    f"{burst:,.0f}/s", f"same bytes through an AsyncStream, same parse and decode {base:,.0f}/s",
                    ratio(burst, base), "≥ 100,000/s", burst >= 100_000))
    rows.append(Row("Stream: the same events 1ms apart, each woken by one clock move of 2s", f"{timed:,.0f}/s",
                    f"AsyncStream {base:,.0f}/s", ratio(timed, base), "reported", None))
    return rows


def in_process_explore_rate(figures):
    """Steps per second of the in-process exploration of 200 steps: the best of 1 and 2 walks at once."""
    return max(200 / (figures[key]["wallClock"][50] / 1e6) for key in ("explore", "explore_parallel"))


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "unknown")
    cores = len([line for line in open("/proc/cpuinfo") if line.startswith("processor")])
    memory = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal")) / (1 << 20)
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
    return (f"{cpu}, {cores} vCPUs, {memory:.0f} GiB; Linux {platform.release()}; {swift}; "
            f"{nginx.replace('nginx version: ', '')}")


def write_markdown(path: pathlib.Path, rows, command, started):
    """Replaces the generated part of `path` (between the markers) and keeps the hand-written rest."""
    begin, end = "<!-- generated by Benchmarks/harness/run.py: begin -->", "<!-- generated: end -->"
    generated = "\n".join([begin, "", f"Command: `{command}`  ", f"Date: {started:%Y-%m-%d %H:%M} UTC  ",
                           f"Machine: {machine()}", "", report.markdown(rows), "", end])
    text = path.read_text() if path.exists() else f"# Benchmarks\n\n{begin}\n{end}\n"
    if begin not in text or end not in text:
        raise RuntimeError(f"{path} has no generated-section markers")
    path.write_text(re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: generated, text, flags=re.S))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", type=pathlib.Path, help="update the generated table in this Markdown file")
    parser.add_argument("--quick", action="store_true", help="shorter runs (a smoke run; the figures are noisier)")
    arguments = parser.parse_args()
    started = datetime.datetime.now(datetime.timezone.utc)
    seconds, rounds, runs = (2, 1, 5) if arguments.quick else (5, 3, 21)
    with tempfile.TemporaryDirectory(prefix="scenariod-bench-") as temporary:
        work = pathlib.Path(temporary)
        work.chmod(0o755)  # nginx's workers read its files
        binary = build_daemon(work)
        bodies = probe_bodies(binary, work)
        nginx = nginx_module.Nginx(work / "nginx", {**bodies, "/feed.json": FEED_FIXTURE.read_bytes()},
                                   locations=[pertest.NGINX_LOCATION])
        nginx.start()
        try:
            say("== in-process benchmarks: swift package benchmark (the first run builds them in release: minutes)")
            figures = inprocess.run(REPOSITORY, work / "inprocess", nginx.origin, work / "inprocess.log")
            rows = throughput_rows(binary, work, bodies[STATE_PATH], seconds, rounds)
            rows += test_overhead_rows(binary, work, nginx, bodies, seconds, figures["test"]["wallClock"][50])
        finally:
            nginx.stop()
        rows += scaling.rows(binary, REPOSITORY, work, seconds, say,
                             session_counts=(1, 100, 1000) if arguments.quick else (1, 100, 10_000))
        rows += startup_rows(binary, work, runs)
        rows += fixtures.rows(binary, work / "fixtures", say)
        scenarioctl = build_scenarioctl()
        rows += mcp_calls.rows(binary, scenarioctl, say, calls=100 if arguments.quick else 500)
        rows += explore_cli.rows(binary, scenarioctl, say, in_process_explore_rate(figures), walks=500 if arguments.quick else 2000)
        rows += inprocess_rows(figures)
        rows += stream_wakes.rows(binary, work, say, rounds=10 if arguments.quick else 30)
        rows += memory_rows(binary, work, 1000 if arguments.quick else 10_000, 100 if arguments.quick else 1000)
    print(report.text(rows))
    if arguments.write:
        command = f"bash scripts/benchmark --write {arguments.write}" + (" --quick" if arguments.quick else "")
        write_markdown(arguments.write, rows, command, started)
        say(f"wrote the table into {arguments.write}")
    missed = [row.figure for row in rows if row.met is False]
    say(f"{len(missed)} target(s) missed" + (": " + "; ".join(missed) if missed else ""))


if __name__ == "__main__":
    main()
