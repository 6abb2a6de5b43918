"""Throughput and latency of one GET over a Unix socket: HTTP/1.1 keep-alive, one request in flight per
connection, from loadgen.c, which reports its own CPU share so a reader can see that the client is not what limits
the reference (h2load at one thread was, issue 32)."""
import json
import pathlib
import subprocess

HERE = pathlib.Path(__file__).resolve().parent


def build(directory: pathlib.Path):
    binary = directory / "loadgen"
    subprocess.run(["gcc", "-O2", "-pthread", "-o", str(binary), str(HERE / "loadgen.c")], check=True)
    return str(binary)


def run(client, socket_path, path, connections, seconds, threads=1, warm_up=1):
    """Loads `path` on `socket_path` for `seconds` (after `warm_up` seconds not counted). Returns requests/s,
    p50/p99 latency in microseconds, and the client's CPU (cores busy, 1.0 = one)."""
    command = [client, socket_path, path, str(connections), str(threads), str(seconds), str(warm_up)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + warm_up + 60)
    if result.returncode != 0:
        raise RuntimeError(f"loadgen failed ({result.returncode}) on {socket_path}{path}: {result.stderr}")
    return json.loads(result.stdout)
