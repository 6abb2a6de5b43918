"""The in-process figures: `swift package benchmark` (ordo-one/benchmark) runs Benchmarks/ScenarioBenchmarks and
exports every metric's percentiles, which are read back here."""
import os
import pathlib
import shutil
import subprocess

NAMES = {
    "session": "session: create offline-demo + first action",
    "test": "test: withScenario create + action + state + delete, in process",
    "reload_fake": "reload: FeedReader, fake network",
    "reload_live": "reload: FeedReader, live network to nginx",
    "exchange_fake": "exchange: fake network",
    "exchange_live": "exchange: live network to nginx",
    "control": "control: GET session state",
    "control_floor": "control floor: Hummingbird, same body",
    "explore": "explore: offline-demo, 10 walks of 20 steps, one at a time",
    "explore_parallel": "explore: offline-demo, 10 walks of 20 steps, two at a time",
    "explore_ratings": "explore: ratings-signed-out, 10 walks of 20 steps, two at a time",
    "explore_assistant": "explore: assistant-happy, 10 walks of 20 steps, two at a time",
    "explore_loop": "explore baseline: the same 200 steps as a hand-written loop",
    "explore_engine": "explore floor: the same 200 steps on the engine, no API, one at a time",
    "explore_engine_parallel": "explore floor: the same 200 steps on the engine, no API, two at a time",
    "stream_burst": "stream: 1,000 SSE events due at once, to the Assistant",
    "stream_timed": "stream: 1,000 SSE events at offsets, to the Assistant on one clock move",
    "stream_baseline": "stream baseline: the same 1,000 events through an AsyncStream",
}


def run(repository: pathlib.Path, output: pathlib.Path, nginx_origin, log):
    """Runs every benchmark; returns {key: {"wallClock": {percentile: µs}, "mallocCountTotal": {...}}}."""
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)
    command = ["swift", "package", "--allow-writing-to-directory", str(output), "benchmark", "--target", "ScenarioBenchmarks",
               "--format", "histogramPercentiles", "--path", str(output), "--no-progress"]
    environment = dict(os.environ, SCENARIOD_BENCH_NGINX=nginx_origin)
    with open(log, "w") as sink:
        result = subprocess.run(command, cwd=repository, env=environment, stdout=sink, stderr=subprocess.STDOUT)
    # The plugin reports a benchmark whose setup failed but may still exit 0 (and a setup that fails for all of them
    # only as "setup failed", with no benchmark run).
    text = pathlib.Path(log).read_text()
    if result.returncode != 0 or "benchmarks failed" in text or "setup failed" in text:
        raise RuntimeError(f"swift package benchmark failed ({result.returncode}); its output is in {log}")
    return {key: read(output, name) for key, name in NAMES.items()}


def read(output: pathlib.Path, name):
    """The percentile tables of one benchmark, by metric: {"wallClock": {50: 12.3, 99: ...}, ...}."""
    # The plugin names files "<baseline>.<target>.<name>.<metric>..." with "/" and " " made "_".
    stem = name.replace("/", "_").replace(" ", "_")
    metrics = {}
    for metric in ("wallClock", "mallocCountTotal"):
        path = output / f"Current_run.ScenarioBenchmarks.{stem}.{metric}.histogram.percentiles.tsv"
        if not path.exists():
            raise RuntimeError(f"no {metric} percentiles for '{name}': {path} is missing")
        lines = path.read_text().splitlines()[1:]
        metrics[metric] = {int(p): float(v) for p, v in (line.split("\t") for line in lines if line)}
    return metrics
