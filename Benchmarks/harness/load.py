"""Throughput and latency over a Unix socket with h2load (Debian's nghttp2-client), HTTP/1.1 keep-alive, one
request in flight per connection; latencies come from its per-request log."""
import re
import subprocess
import tempfile


def percentile(sorted_values, fraction):
    """The nearest-rank percentile of an ascending list."""
    if not sorted_values:
        raise ValueError("no samples")
    rank = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values) + 0.5) - 1))
    return sorted_values[rank]


def run(socket_path, path, connections, seconds, warm_up=1):
    """Loads `path` on `socket_path` for `seconds` (after `warm_up` seconds not counted).
    Returns requests/s and p50/p99 latency in microseconds."""
    with tempfile.NamedTemporaryFile(suffix=".tsv") as log:
        command = ["h2load", "--h1", "-B", f"unix:{socket_path}", "-c", str(connections), "-t", "1", "-m", "1",
                   "-D", str(seconds), f"--warm-up-time={warm_up}", f"--log-file={log.name}", f"http://localhost{path}"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + warm_up + 60)
        output = result.stdout + result.stderr
        if result.returncode != 0:
            raise RuntimeError(f"h2load failed ({result.returncode}):\n{output}")
        match = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", output)
        statuses = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", output)
        failed = re.search(r"(\d+) failed, (\d+) errored, (\d+) timeout", output)
        if not match or not statuses or not failed:
            raise RuntimeError(f"cannot read h2load's summary:\n{output}")
        if any(int(count) for count in statuses.groups()[1:]) or any(int(count) for count in failed.groups()):
            raise RuntimeError(f"h2load saw failures or non-2xx answers:\n{output}")
        latencies = sorted(int(line.split("\t")[2]) for line in open(log.name) if line.count("\t") >= 2)
    return {"rps": float(match.group(1)), "p50_us": percentile(latencies, 0.50), "p99_us": percentile(latencies, 0.99),
            "requests": len(latencies)}
