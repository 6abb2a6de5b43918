"""One MCP action tool call against the same action over the control socket, and the CPU `scenarioctl mcp` uses
while an agent is idle (issue 52). The client is the official MCP Python SDK over stdio, as a coding agent's is.

run.py calls rows(), which installs the SDK into its own venv under $SCENARIOD_TEST_CACHE and runs this file there:
    python mcp.py SCENARIOD SCENARIOCTL [CALLS]   prints the figures as JSON."""
import asyncio
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from processes import cpu_seconds
from report import Row, ratio

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
SDK = "1.29.1"
URL = "https://www.cocoawithlove.com/blog/testing-actors-in-swift.html"
IDLE_SECONDS = 3


async def measure(scenariod, scenarioctl, calls):
    import httpx
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    with tempfile.TemporaryDirectory(prefix="scenariod-mcp-") as work:
        socket = f"{work}/control.sock"
        daemon = subprocess.Popen([scenariod, "--scenarios", str(REPOSITORY / "scenarios"), "--scenario", "offline-demo",
                                   "--socket", socket, "--log-target", "stderr", "--log-level", "warning"],
                                  stderr=subprocess.DEVNULL)
        try:
            for _ in range(3000):
                if os.path.exists(socket):
                    break
                time.sleep(0.01)
            # The same action both ways, alternating the value so that every call changes the state.
            socket_times = []
            async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(uds=socket), base_url="http://scenariod") as http:
                (await http.post("/v1/sessions", json={"scenario": "offline-demo", "id": "over-socket"})).raise_for_status()
                for index in range(calls):
                    started = time.perf_counter()
                    answer = await http.post("/v1/sessions/over-socket/actions/setIsRead", json={"url": URL, "value": index % 2 == 0})
                    socket_times.append(time.perf_counter() - started)
                    answer.raise_for_status()
            tool_times = []
            parameters = StdioServerParameters(command=scenarioctl, args=["mcp", "--socket", socket])
            async with stdio_client(parameters) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    opened = await session.call_tool("open_session", {"scenario": "offline-demo", "id": "over-mcp"})
                    assert not opened.isError, opened.content
                    for index in range(calls):
                        started = time.perf_counter()
                        called = await session.call_tool("feedreader_setIsRead", {"session": "over-mcp", "url": URL, "value": index % 2 == 0})
                        tool_times.append(time.perf_counter() - started)
                        assert not called.isError, called.content
                    # Idle: connected, nothing asked. CPU is read from /proc for scenarioctl (the SDK's child).
                    child = subprocess.run(["pgrep", "-n", "-f", f"mcp --socket {socket}"], capture_output=True, text=True).stdout.split()
                    before = cpu_seconds(int(child[0]))
                    await asyncio.sleep(IDLE_SECONDS)
                    idle = (cpu_seconds(int(child[0])) - before) / IDLE_SECONDS
            return {"socket_p50": statistics.median(socket_times), "tool_p50": statistics.median(tool_times),
                    "idle_cpu": idle, "calls": calls}
        finally:
            daemon.terminate()
            daemon.wait(timeout=30)


def sdk_python():
    """A venv of its own with the pinned SDK (made once per cache, checked by importing it)."""
    venv = pathlib.Path(os.environ.get("SCENARIOD_TEST_CACHE", "/var/cache/scenariod-test")) / f"benchmark-mcp-{SDK}"
    python = venv / "bin/python"
    if not (venv / ".installed").exists() or subprocess.run([python, "-c", "import mcp, httpx"]).returncode != 0:
        subprocess.run(["rm", "-rf", str(venv)], check=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", f"mcp=={SDK}", "httpx"], check=True)
        (venv / ".installed").touch()
    return str(python)


def rows(scenariod, scenarioctl, say, calls=500):
    say(f"== MCP: {calls} action tool calls over stdio (the official Python SDK {SDK}) against the same action over the socket")
    run = subprocess.run([sdk_python(), __file__, scenariod, scenarioctl, str(calls)], check=True, capture_output=True, text=True)
    figure = json.loads(run.stdout)
    tool, over_socket, idle = figure["tool_p50"] * 1000, figure["socket_p50"] * 1000, figure["idle_cpu"]
    say(f"  tool call {tool:.2f} ms, socket call {over_socket:.2f} ms, idle CPU {idle * 100:.2f} % of a core")
    return [
        Row("MCP: one action tool call over stdio (p50)", f"{tool:.2f} ms", f"the same action over the socket {over_socket:.2f} ms",
            ratio(tool, over_socket), "≤ socket + 1 ms", tool <= over_socket + 1),
        Row(f"MCP: scenarioctl mcp's CPU while the agent is idle ({IDLE_SECONDS} s)", f"{idle * 100:.2f} % of a core", "none",
            "", "0 (under 0.1 %)", idle < 0.001),
    ]


if __name__ == "__main__":
    print(json.dumps(asyncio.run(measure(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 500))))
