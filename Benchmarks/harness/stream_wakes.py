"""Timed stream events through the release daemon, for one build or several in one run (before → after): an
Assistant session whose reply is 1,000 server-sent events 1ms apart, the message sent, then one clock move of 2s that
wakes the reader for each event. The figure is events per second of that move, timed around
`POST …/clock/advance` (median of the rounds), beside the same reply with every event due at once.

Usage: python3 Benchmarks/harness/stream_wakes.py [--rounds 30] SCENARIOD [SCENARIOD …]"""
import argparse
import pathlib
import statistics
import tempfile
import time

import daemon as daemon_module
from daemon import call
from report import Row, ratio

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
COUNT = 1_000


def scenario(spaced):
    """The Assistant's reply as COUNT token events, each 1ms after the last when `spaced`, else all due at once."""
    lines = ["description: A reply of 1,000 tokens, for the stream benchmark.", "model: Assistant", "clock:",
             "  start: 2026-11-01T09:00:00Z", "network:", "  routes:", "    - name: reply",
             '      request: {method: POST, url: "https://assistant.example/v1/replies"}', "      response:",
             "        stream:", "          events:"]
    for index in range(1, COUNT + 1):
        at = f"at: +{index}ms, " if spaced else ""
        lines.append(f'            - {{{at}event: token, id: "{index}", data: {{text: "token "}}}}')
    lines.append(f"            - {{{f'at: +{COUNT + 1}ms, ' if spaced else ''}event: done, data: {{}}}}")
    return "\n".join(lines) + "\n"


def measure(connection, name, rounds):
    """Events per second: of the clock move for the spaced reply, of the action for the burst."""
    rates = []
    for number in range(rounds + 1):
        session = f"{name}-{number}"
        call(connection, "POST", "/v1/sessions", {"scenario": name, "id": session}, expect=201)
        started = time.perf_counter()
        call(connection, "POST", f"/v1/sessions/{session}/actions/send", {"text": "Hi"})
        if name == "stream-timed":
            started = time.perf_counter()
            call(connection, "POST", f"/v1/sessions/{session}/clock/advance", {"by": "2s"})
        elapsed = time.perf_counter() - started
        state = call(connection, "GET", f"/v1/sessions/{session}/state")
        if '"complete"' not in str(state).replace("'", '"'):
            raise RuntimeError(f"the reply did not complete: {str(state)[:200]}")
        call(connection, "DELETE", f"/v1/sessions/{session}", expect=204)
        if number:  # the first is a warm-up
            rates.append(COUNT / elapsed)
    return statistics.median(rates)


def figures(binary, work: pathlib.Path, rounds):
    """(events 1ms apart per second, events due at once per second) of `binary`, on a daemon of its own."""
    scenarios = work / "stream-scenarios"
    for name, spaced in (("stream-timed", True), ("stream-burst", False)):
        (scenarios / name).mkdir(parents=True, exist_ok=True)
        (scenarios / name / "scenario.yaml").write_text(scenario(spaced))
    daemon = daemon_module.Daemon(binary, REPOSITORY, work / f"stream-daemon-{pathlib.Path(binary).name}",
                                  extra=("--scenarios", str(scenarios), "--log-level", "warning")).start()
    try:
        connection = daemon.connection()
        return measure(connection, "stream-timed", rounds), measure(connection, "stream-burst", rounds)
    finally:
        daemon.stop()


def rows(binary, work: pathlib.Path, say, rounds=30):
    """The table's row: timed events through the daemon, against the same events due at once in the same run."""
    say("== timed stream events through the daemon (stream_wakes.py)")
    timed, burst = figures(binary, work, rounds)
    return [Row("Stream through the daemon: 1,000 SSE events 1ms apart, each woken by one clock move (p50 of the move)",
                f"{timed:,.0f}/s", f"the same events due at once {burst:,.0f}/s", ratio(timed, burst), "≥ 100,000/s",
                timed >= 100_000)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("binaries", nargs="+")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scenariod-streams-") as temporary:
        for binary in arguments.binaries:
            timed, burst = figures(binary, pathlib.Path(temporary), arguments.rounds)
            print(f"{binary}: events 1ms apart, each woken by the move: {timed:,.0f}/s; all due at once: {burst:,.0f}/s")

if __name__ == "__main__":
    main()
