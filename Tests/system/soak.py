"""Soak under load: 16 clients against one daemon for a bounded time — sessions created and deleted at a steady rate,
actions, clock moves, key-value writes read back, journal reads, streamed replies and WebSockets (the Assistant's
scenarios), event streams hung up at once and slow watchers that fall behind, scripted sessions whose final state
must equal the same script's quiet reference run, event streams abandoned through the dashboard's bridge, an agent's
MCP tool calls through one `scenarioctl mcp`, explore walks over the socket, recordings against a real loopback
server saved and replayed byte for byte, and a live session whose server fails and restarts under it — sampling the
daemon's own figures (GET /metrics: memory, descriptors, threads, connections, sessions, streams, bytes held).

    python3 Tests/system/soak.py --seconds 600 [--clients 16] [--report soak.json] [--plot soak.svg]
    scripts/soak --minutes 60 --plot soak.svg

Prints a report and exits non-zero unless: zero errors (a refused or failed request, a key-value write not read back
as written before its session is deleted, a scripted session that ended otherwise than its reference run, a slow
watcher whose ids skip without an `event: gap` that counts them, a tool call that failed, an explore walk that
alarmed, a replay that differs from its recording, a live action not answered), resident memory after warm-up (the
first third) grows less than 10% (the median of its last five samples against that of its first five), what sessions
hold comes back to nothing,
descriptors, threads and connections come back to their baseline once the clients are gone, every journal stays
within its bound, and the bridge holds no daemon connection for the streams abandoned through it.
test_soak.py runs it for three minutes in CI (SOAK_SECONDS)."""
import argparse
import asyncio
import json
import pathlib
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx
import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from daemon import SCENARIOCTL, Daemon, unix_connections  # noqa: E402
from loopback import LoopbackServer  # noqa: E402

SCENARIOS = ["offline-demo", "feed-updates", "first-launch", "server-error", "ratings-signed-out", "slow-network",
             "assistant-happy", "assistant-slow-tokens", "assistant-dropped"]
JOURNAL_CAPACITY = 50
# Fixed scripts: each, run on a new session of its scenario, must end in the state its quiet reference run ended in.
SCRIPTS = {
    "reply": ("assistant-happy", [("act", "send", {"text": "hi"}), ("advance", "1s"), ("act", "send", {"text": "again"}), ("advance", "10s")]),
    "slow-reply": ("assistant-slow-tokens", [("act", "send", {"text": "hi"}), ("advance", "7s"), ("advance", "7s")]),
    "feed": ("feed-updates", [("act", "reload", {}), ("advance", "15m"), ("act", "reload", {}), ("advance", "1h")]),
    "ratings": ("ratings-signed-out", [("act", "signIn", {"user": "ana", "password": "secret"}), ("act", "fetchRating", {}),
                                       ("act", "rate", {"driver": 4, "bus": 5}), ("advance", "1m")]),
}
ACTIONS = {"FeedReader": ("reload", {}), "Ratings": ("fetchRating", {}), "Assistant": ("send", {"text": "hello"})}


def run_script(http, session, name):
    """Runs script `name` on a new session `session`; its final state (None when a step was refused)."""
    scenario, steps = SCRIPTS[name]
    if http.post("/v1/sessions", json={"scenario": scenario, "id": session}).status_code != 201:
        return None
    for kind, what, *rest in steps:
        if kind == "act":
            answer = http.post(f"/v1/sessions/{session}/actions/{what}", json=rest[0])
        else:
            answer = http.post(f"/v1/sessions/{session}/clock/advance", json={"by": what})
        if answer.status_code != 200:
            return None
    return http.get(f"/v1/sessions/{session}/state").json()


def metrics(http):
    """The daemon's figures from GET /metrics, by name (labelled ones by their whole series)."""
    figures = {}
    for line in http.get("/metrics").text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            figures[name] = float(value)
    return figures


def descriptor_targets(pid):
    """What each open descriptor of `pid` names (a file, `socket:[…]`, `anon_inode:…`), counted."""
    from collections import Counter
    targets = Counter()
    for descriptor in pathlib.Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = str(descriptor.readlink())
        except OSError:
            continue
        targets[re.sub(r"\[\d+\]", "[…]", target)] += 1
    return targets


def resident_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_descriptors(pid):
    return len(list(pathlib.Path(f"/proc/{pid}/fd").iterdir()))


class Client(threading.Thread):
    def __init__(self, number, socket, deadline, stats, references):
        super().__init__(daemon=True)
        self.number, self.deadline, self.stats, self.references = number, deadline, stats, references
        self.random = random.Random(number)
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=socket), base_url="http://scenariod", timeout=60)
        self.sessions = []
        self.created = 0
        # What each session's store was told and answered 200 to: read back before the session is deleted.
        self.written = {}
        # The socket of each session's endpoint, for those that have one.
        self.endpoints = {}

    def expect(self, response, *statuses):
        self.stats.count(response.request.method)
        if response.status_code not in statuses:
            self.stats.error(f"{response.request.method} {response.request.url.path}: {response.status_code} {response.text[:200]}")
        return response

    def run(self):
        try:
            while time.monotonic() < self.deadline:
                self.step()
        except Exception as error:  # a transport error is an error of the run, not of the harness
            self.stats.error(f"client {self.number}: {type(error).__name__}: {error}")
        finally:
            for session in self.sessions:
                self.delete(session)
            self.http.close()

    def delete(self, session):
        self.endpoints.pop(session, None)
        for key, value in self.written.pop(session, {}).items():
            stored = self.expect(self.http.get(f"/v1/sessions/{session}/kv/{key}"), 200)
            if stored.status_code == 200 and stored.json() != value:
                self.stats.error(f"lost acknowledged write: {session} kv/{key} reads {stored.text[:80]}, was written {value}")
        self.expect(self.http.delete(f"/v1/sessions/{session}"), 204)

    def step(self):
        if self.random.random() < 0.02:
            self.created += 1
            name = self.random.choice(sorted(SCRIPTS))
            session = f"script-{self.number}-{self.created}"
            final = run_script(self.http, session, name)
            self.stats.count("script")
            if final != self.references[name]:
                self.stats.error(f"script {name} on {session} ended otherwise than its reference run: {json.dumps(final)[:300]}")
            self.expect(self.http.delete(f"/v1/sessions/{session}"), 204)
            return
        if len(self.sessions) < 2 or self.random.random() < 0.05:
            self.created += 1
            session = f"soak-{self.number}-{self.created}"
            scenario = self.random.choice(SCENARIOS)
            # Half of them with a socket endpoint of their own, which goes with the session.
            body = {"scenario": scenario, "id": session, **({"endpoint": {}} if self.random.random() < 0.5 else {})}
            created = self.expect(self.http.post("/v1/sessions", json=body), 201)
            if created.status_code == 201 and "endpoint" in created.json():
                self.endpoints[session] = (created.json()["endpoint"]["socket"], scenario)
            self.sessions.append(session)
            if len(self.sessions) > 4:
                self.delete(self.sessions.pop(0))
            return
        session = self.random.choice(self.sessions)
        base = f"/v1/sessions/{session}"
        choice = self.random.random()
        if choice < 0.30:
            model = self.expect(self.http.get(base), 200).json()["model"]
            action, arguments = ACTIONS[model]
            self.expect(self.http.post(f"{base}/actions/{action}", json=arguments), 200)
        elif choice < 0.45:
            self.expect(self.http.post(f"{base}/clock/advance", json={"by": self.random.choice(["1s", "15m", "1h"])}), 200)
        elif choice < 0.65:
            key = f"k{self.random.randrange(20)}"
            value = {"n": self.random.randrange(1000), "pad": "x" * 200}
            if self.expect(self.http.put(f"{base}/kv/{key}", json=value), 200).status_code == 200:
                self.written.setdefault(session, {})[key] = value
            self.expect(self.http.get(f"{base}/kv/{key}"), 200)
        elif choice < 0.80:
            journal = self.expect(self.http.get(f"{base}/journal"), 200).json()
            self.stats.journal(len(journal["entries"]), journal["capacity"])
        elif choice < 0.90:
            with self.http.stream("GET", f"{base}/events") as stream:
                self.expect(stream, 200)
                for line in stream.iter_lines():
                    if line.startswith("data:"):
                        break  # the current state arrives first; then hang up mid-stream
        elif session in self.endpoints and self.endpoints[session][1] == "assistant-happy" and choice < 0.95:
            # An app's WebSocket through the endpoint: its message answered by the presence route's reply.
            heard = asyncio.run(presence(self.endpoints[session][0]))
            if heard != {"type": "typing", "typing": True}:
                self.stats.error(f"{session}'s presence socket answered {heard} to the client's message")
            with self.stats.lock:
                self.stats.endpoint_sockets += 1
        elif session in self.endpoints and choice < 0.95:
            # An app the daemon does not host, on a connection of its own: no route answers this path, at once.
            with httpx.Client(transport=httpx.HTTPTransport(uds=self.endpoints[session][0]), base_url="http://localhost", timeout=60) as app:
                answer = self.expect(app.get("/soak-probe"), 502)
            if answer.status_code == 502 and "scenario-sequence" not in answer.headers:
                self.stats.error(f"{session}'s endpoint answered without its journal sequence: {answer.headers}")
            with self.stats.lock:
                self.stats.endpoint_requests += 1
        else:
            self.expect(self.http.get(f"{base}/state"), 200)


async def presence(endpoint):
    """A WebSocket client of the assistant's presence route through a session's socket endpoint: says it sent a
    message and returns the typing message that answers it (the online one may come first, as the clock has moved)."""
    async with websockets.unix_connect(endpoint, "ws://localhost/v1/presence") as socket:
        await socket.send(json.dumps({"type": "sent"}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 60))
            if message.get("type") == "typing":
                return message


class SlowWatcher(threading.Thread):
    """Watches a streaming session's events, reading slowly enough to fall behind, and checks that every id it does
    not get is counted by an `event: gap` before the next event it reads."""

    def __init__(self, number, socket, deadline, stats):
        super().__init__(daemon=True)
        self.number, self.socket, self.deadline, self.stats = number, socket, deadline, stats
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=socket), base_url="http://scenariod", timeout=60)

    def run(self):
        rounds = 0
        try:
            while time.monotonic() < self.deadline:
                rounds += 1
                self.watch(f"watched-{self.number}-{rounds}")
        except Exception as error:
            self.stats.error(f"watcher {self.number}: {type(error).__name__}: {error}")
        finally:
            self.http.close()

    def watch(self, session):
        self.http.post("/v1/sessions", json={"scenario": "assistant-happy", "id": session})
        mover = httpx.Client(transport=httpx.HTTPTransport(uds=self.socket), base_url="http://scenariod", timeout=60)
        with self.http.stream("GET", f"/v1/sessions/{session}/events") as stream:
            # Many events (every reply token, state, clock move and step) while the watcher reads nothing: its stream
            # falls more than its buffer behind.
            for _ in range(120):
                mover.post(f"/v1/sessions/{session}/actions/send", json={"text": "hi"})
                mover.post(f"/v1/sessions/{session}/clock/advance", json={"by": "4s"})
            final = len(mover.get(f"/v1/sessions/{session}/history").json()["steps"]) - 1
            previous, missed, block = None, 0, {}
            for line in stream.iter_lines():
                line = line.rstrip("\n")
                if line.startswith(":"):
                    continue  # the daemon's heartbeat
                if line:
                    field, _, value = line.partition(": ")
                    block[field] = value
                    continue
                if not block:
                    continue
                identifier, name, data = int(block["id"]), block["event"], json.loads(block["data"])
                block = {}
                if name == "gap":
                    missed = data.get("missed", 0)
                    continue
                if previous is not None and identifier != previous + 1 + missed:
                    self.stats.error(f"slow watcher on {session}: id {identifier} after {previous} with {missed} said missed")
                self.stats.event(missed)
                previous, missed = identifier, 0
                if name == "historyChanged" and data.get("newestStep") == final:
                    break
        mover.close()
        self.http.delete(f"/v1/sessions/{session}")


class BridgeVisitor(threading.Thread):
    """A browser that keeps leaving pages: event streams opened through `scenarioctl dashboard` and abandoned at
    once. Samples the bridge's connections to the daemon, which must stay flat."""

    def __init__(self, daemon, deadline, stats, directory):
        super().__init__(daemon=True)
        self.deadline, self.stats = deadline, stats
        self.log = directory / "bridge.log"
        self.process = subprocess.Popen([SCENARIOCTL, "--socket", daemon.socket, "dashboard"], stdout=self.log.open("w"),
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.session = "bridged"
        daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "offline-demo", "id": self.session})
        self.connections = []

    def run(self):
        try:
            started = time.monotonic()
            while "token=" not in self.log.read_text():
                if time.monotonic() - started > 30:
                    raise RuntimeError(f"scenarioctl dashboard printed no URL: {self.log.read_text()!r}")
                time.sleep(0.05)
            match = re.search(r"127\.0\.0\.1:(\d+)/dashboard/#token=([0-9a-f]+)", self.log.read_text())
            port = int(match.group(1))
            # The printed link opens one tab: traded, as the page does, for the tab token every request carries.
            opened = httpx.post(f"http://127.0.0.1:{port}/bridge/tab", headers={"Authorization": f"Bearer {match.group(2)}"},
                                timeout=10)
            opened.raise_for_status()
            token = opened.json()["token"]
            opened = 0
            while time.monotonic() < self.deadline:
                with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
                    connection.sendall(f"GET /v1/sessions/{self.session}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                       f"Authorization: Bearer {token}\r\n\r\n".encode())
                    head = connection.recv(4096).split(b"\r\n", 1)[0]
                    if head != b"HTTP/1.1 200 OK":
                        self.stats.error(f"bridge: an event stream answered {head!r}")
                opened += 1
                if opened % 50 == 0:
                    self.connections.append(unix_connections(self.process.pid)[0])
                time.sleep(0.02)
            self.stats.count("bridge")
        except Exception as error:
            self.stats.error(f"bridge visitor: {type(error).__name__}: {error}")
        finally:
            self.process.terminate()
            self.process.wait(timeout=10)


class AgentCaller(threading.Thread):
    """A coding agent: one `scenarioctl mcp` for the whole run, spoken to as an MCP client does (JSON-RPC lines on
    stdio), opening a session, acting, moving the clock, reading the state and closing it, again and again."""

    def __init__(self, daemon, deadline, stats):
        super().__init__(daemon=True)
        self.deadline, self.stats = deadline, stats
        self.process = subprocess.Popen([SCENARIOCTL, "mcp", "--socket", daemon.socket], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.next_id = 0
        self.calls = 0

    def request(self, method, params):
        self.next_id += 1
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"scenarioctl mcp ended (exit {self.process.poll()}) during {method}")
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def call(self, tool, arguments):
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        self.calls += 1
        if result.get("isError"):
            self.stats.error(f"agent: {tool} {arguments}: {result['content'][0]['text'][:200]}")
        return json.loads(result["content"][0]["text"])

    def run(self):
        try:
            self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "soak", "version": "1"}})
            self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
            rounds = 0
            while time.monotonic() < self.deadline:
                rounds += 1
                session = f"agent-{rounds}"
                self.call("open_session", {"scenario": "offline-demo", "id": session})
                self.call("feedreader_reload", {"session": session})
                self.call("move_clock", {"session": session, "by": "1h"})
                state = self.call("read_state", {"session": session})["state"]
                if not state.get("items"):
                    self.stats.error(f"agent: {session} read a state without items: {json.dumps(state)[:200]}")
                self.call("close_session", {"session": session})
                self.stats.count("agent")
                time.sleep(0.05)
        except Exception as error:
            self.stats.error(f"agent: {type(error).__name__}: {error}")
        finally:
            self.process.stdin.close()
            self.process.wait(timeout=10)


class ExploreRunner(threading.Thread):
    """`scenarioctl explore` over the socket, again and again with new seeds: short walks of the correct shipped
    Model, which must end with no alarm."""

    def __init__(self, daemon, deadline, stats, directory):
        super().__init__(daemon=True)
        self.daemon_socket, self.deadline, self.stats, self.directory = daemon.socket, deadline, stats, directory
        self.walks = 0

    def run(self):
        seed = 0
        try:
            while time.monotonic() < self.deadline:
                seed += 1
                result = subprocess.run([SCENARIOCTL, "--socket", self.daemon_socket, "explore", "offline-demo", "--walks", "4",
                                         "--steps", "8", "--seed", str(seed), "--parallel", "1"],
                                        capture_output=True, text=True, timeout=300, cwd=self.directory)
                if result.returncode != 0:
                    self.stats.error(f"explore seed {seed}: exit {result.returncode}: {(result.stdout + result.stderr)[-300:]}")
                self.walks += 4
                self.stats.count("explore")
                time.sleep(0.5)
        except Exception as error:
            self.stats.error(f"explore: {type(error).__name__}: {error}")


RECORD_SCENARIO = """description: Records FeedReader against the soak's loopback server.
model: FeedReader
clock:
  start: 2026-11-01T09:00:00Z
network:
  mode: record
  forward:
    https://www.cocoawithlove.com: {origin}
"""

LIVE_SCENARIO = """description: The shipped live scenario, its feed origin sent to a loopback server the soak restarts.
extends: live
network:
  forward:
    https://www.cocoawithlove.com: {origin}
"""


class RecordReplay(threading.Thread):
    """Records a FeedReader session against a real loopback server, saves the recording, replays it on a session of
    the saved scenario (whose state must be the recording's, byte for byte), then removes the saved scenario and
    reloads, as a team that records a fixture and cleans up would."""

    def __init__(self, daemon, deadline, stats, server):
        super().__init__(daemon=True)
        self.daemon, self.deadline, self.stats, self.server = daemon, deadline, stats, server
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=60)
        self.replays = 0

    def drive(self, session, actions):
        for action, arguments in actions:
            answer = self.http.post(f"/v1/sessions/{session}/actions/{action}", json=arguments)
            if answer.status_code != 200:
                raise RuntimeError(f"{session} {action}: {answer.status_code} {answer.text[:200]}")
        return self.http.get(f"/v1/sessions/{session}/state").text

    def run(self):
        import shutil
        try:
            while time.monotonic() < self.deadline:
                self.replays += 1
                recording, name = f"rec-{self.replays}", f"soak-recorded-{self.replays}"
                self.http.post("/v1/sessions", json={"scenario": "soak-record", "id": recording}).raise_for_status()
                url = json.loads(self.http.get(f"/v1/sessions/{recording}/state").text)["items"][1]["url"]
                actions = [("reload", {}), ("setIsRead", {"url": url, "value": True})]
                recorded = self.drive(recording, actions)
                saved = self.http.post(f"/v1/sessions/{recording}/recording", json={"name": name})
                if saved.status_code != 201:
                    raise RuntimeError(f"saving {recording}: {saved.status_code} {saved.text[:200]}")
                self.http.post("/v1/sessions", json={"scenario": name, "id": f"replay-{self.replays}"}).raise_for_status()
                replayed = self.drive(f"replay-{self.replays}", actions)
                if replayed != recorded:
                    self.stats.error(f"replay of {name} differs from its recording: {replayed[:200]} against {recorded[:200]}")
                for session in (recording, f"replay-{self.replays}"):
                    self.http.delete(f"/v1/sessions/{session}").raise_for_status()
                shutil.rmtree(saved.json()["directory"])
                self.http.post("/v1/scenarios/reload").raise_for_status()
                self.stats.count("replay")
                time.sleep(2)
        except Exception as error:
            self.stats.error(f"record and replay: {type(error).__name__}: {error}")
        finally:
            self.http.close()


class LiveFlapper(threading.Thread):
    """A live session's server fails and restarts under it: every few seconds the loopback server answers 500 for a
    while, then goes away and comes back on the same port. Every action must be answered (200, the Model showing the
    feed or the error), none may hang, and the daemon must not hold what the failed connections left."""

    def __init__(self, daemon, deadline, stats, server):
        super().__init__(daemon=True)
        self.daemon, self.deadline, self.stats, self.server = daemon, deadline, stats, server
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=daemon.socket), base_url="http://scenariod", timeout=60)
        self.restarts = 0
        self.outcomes = {"items": 0, "error": 0}

    def run(self):
        port = int(self.server.origin.rsplit(":", 1)[1])
        try:
            self.http.post("/v1/sessions", json={"scenario": "soak-live", "id": "live-flapped"}).raise_for_status()
            started = time.monotonic()
            while time.monotonic() < self.deadline:
                phase = int(time.monotonic() - started) % 6
                if phase == 3 and self.server.feed_mode == "ok":
                    self.server.feed_mode = "error"
                elif phase == 5 and self.server.feed_mode == "error":
                    self.server.close()
                    time.sleep(0.3)
                    self.server = LoopbackServer(port=port)
                    self.restarts += 1
                answer = self.http.post("/v1/sessions/live-flapped/actions/reload", json={})
                if answer.status_code != 200:
                    self.stats.error(f"live: reload answered {answer.status_code} {answer.text[:200]}")
                else:
                    self.outcomes["error" if answer.json().get("error") else "items"] += 1
                self.stats.count("live")
                time.sleep(0.1)
            self.http.delete("/v1/sessions/live-flapped").raise_for_status()
        except Exception as error:
            self.stats.error(f"live server restarts: {type(error).__name__}: {error}")
        finally:
            self.http.close()
            self.server.close()


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.errors = []
        self.largest_journal = 0
        self.journal_capacity = None
        self.watched_events = 0
        self.missed_events = 0
        self.endpoint_requests = 0
        self.endpoint_sockets = 0

    def count(self, _method):
        with self.lock:
            self.requests += 1

    def error(self, text):
        with self.lock:
            self.errors.append(text)

    def event(self, missed):
        with self.lock:
            self.watched_events += 1
            self.missed_events += missed

    def journal(self, entries, capacity):
        with self.lock:
            self.largest_journal = max(self.largest_journal, entries)
            self.journal_capacity = capacity


def slope_per_minute(samples, key, since):
    """The least-squares slope of `key` over the samples from `since` seconds on, per minute."""
    points = [(sample["t"], sample[key]) for sample in samples if sample["t"] >= since]
    if len(points) < 3:
        return 0.0
    mean_t = sum(t for t, _ in points) / len(points)
    mean_v = sum(v for _, v in points) / len(points)
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    return 0.0 if spread == 0 else sum((t - mean_t) * (v - mean_v) for t, v in points) / spread * 60


def sample(daemon, started):
    figures = metrics(daemon.http)
    return {"t": round(time.monotonic() - started, 1), "rss_kib": int(figures["process_resident_memory_bytes"] // 1024),
            "heap_kib": int(figures["scenariod_heap_in_use_bytes"] // 1024),
            "fds": int(figures["process_open_fds"]), "threads": int(figures["process_threads"]),
            "connections": int(figures["scenariod_connections"]), "sessions": int(figures["scenariod_sessions"]),
            "event_streams": int(figures["scenariod_event_streams"]),
            # What sessions hold by the daemon's own count (each store's bytes), which must come back to 0.
            "held_bytes": int(sum(value for name, value in figures.items() if name.startswith("scenariod_held_bytes{")))}


def soak(seconds, clients, directory):
    recorded_server, live_server = LoopbackServer(), LoopbackServer()
    daemon = Daemon(directory, {"soak-record": RECORD_SCENARIO.format(origin=recorded_server.origin),
                                "soak-live": LIVE_SCENARIO.format(origin=live_server.origin)},
                    arguments=["--journal-capacity", str(JOURNAL_CAPACITY), "--log-level", "warning"]).start()
    try:
        time.sleep(0.5)
        # Each script's quiet reference run, before any load.
        references = {name: run_script(daemon.http, f"reference-{name}", name) for name in SCRIPTS}
        for name in SCRIPTS:
            daemon.call("DELETE", f"/v1/sessions/reference-{name}", expect=204)
        assert all(references.values()), references
        # What the daemon opens once and keeps by design, opened before the baseline: a durable scenario's database
        # (shared by its sessions) and the live network's event loop.
        for scenario in ("soak-live", "soak-record"):
            daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": scenario, "id": "warm-up"})
            daemon.call("POST", "/v1/sessions/warm-up/actions/reload", expect=200, json={})
            daemon.call("DELETE", "/v1/sessions/warm-up", expect=204)
        baseline = sample(daemon, time.monotonic())
        baseline_targets = descriptor_targets(daemon.pid)
        stats = Stats()
        started = time.monotonic()
        deadline = started + seconds
        # The first third: the Models' state encodings fill their tables (4 MiB of encodings each) in the first minutes.
        warm_up = max(10, seconds / 3)
        workers = [Client(number, daemon.socket, deadline, stats, references) for number in range(clients)]
        workers += [SlowWatcher(number, daemon.socket, deadline, stats) for number in range(2)]
        visitor = BridgeVisitor(daemon, deadline, stats, directory)
        agent, explorer = AgentCaller(daemon, deadline, stats), ExploreRunner(daemon, deadline, stats, directory)
        replayer, flapper = RecordReplay(daemon, deadline, stats, recorded_server), LiveFlapper(daemon, deadline, stats, live_server)
        workers += [visitor, agent, explorer, replayer, flapper]
        for worker in workers:
            worker.start()
        samples = []
        while any(worker.is_alive() for worker in workers):
            samples.append(sample(daemon, started))
            time.sleep(min(5, max(1, seconds / 60)))
        for worker in workers:
            worker.join(timeout=60)
        elapsed = time.monotonic() - started
        daemon.call("DELETE", f"/v1/sessions/{visitor.session}", expect=204)
        # Connections close asynchronously; give them a bounded moment to come back.
        for _ in range(100):
            end = sample(daemon, started)
            if (end["fds"] <= baseline["fds"] and end["connections"] <= baseline["connections"] and end["threads"] <= baseline["threads"] + 2
                    and end["held_bytes"] == 0):
                break
            time.sleep(0.1)
        after_warm_up = [each["rss_kib"] for each in samples if each["t"] >= warm_up] or [samples[-1]["rss_kib"]]
        # Growth from the median of the first five samples after warm-up to that of the last five: a peak against one
        # sample taken in a trough measured the load's swings (held bytes go 2 → 20 MiB and back), not a trend.
        first, last = statistics.median(after_warm_up[:5]), statistics.median(after_warm_up[-5:])
        growth = (last - first) / first * 100
        sessions_left = daemon.call("GET", "/v1/sessions", expect=200).json()
        bridge_connections = visitor.connections or [0]
        report = {
            "seconds": round(elapsed, 1), "clients": clients, "requests": stats.requests,
            "requests_per_second": round(stats.requests / elapsed, 1), "errors": len(stats.errors),
            "first_errors": stats.errors[:10], "rss_kib_at_warm_up": first, "rss_kib_at_end": last, "rss_kib_peak_after_warm_up": max(after_warm_up),
            "rss_growth_after_warm_up_percent": round(growth, 2),
            "rss_kib_slope_per_minute_after_warm_up": round(slope_per_minute(samples, "rss_kib", warm_up), 1),
            "threads_slope_per_minute_after_warm_up": round(slope_per_minute(samples, "threads", warm_up), 3),
            "heap_kib_baseline": baseline["heap_kib"], "heap_kib_end": end["heap_kib"],
            "fds_baseline": baseline["fds"], "fds_end": end["fds"], "threads_baseline": baseline["threads"], "threads_end": end["threads"],
            "connections_baseline": baseline["connections"], "connections_end": end["connections"],
            "held_bytes_peak": max(each["held_bytes"] for each in samples), "held_bytes_end": end["held_bytes"],
            "largest_journal": stats.largest_journal, "journal_capacity": stats.journal_capacity,
            "watched_events": stats.watched_events, "missed_events_said_by_gaps": stats.missed_events,
            "bridge_daemon_connections_max": max(bridge_connections), "bridge_samples": len(visitor.connections),
            "agent_tool_calls": agent.calls, "explore_walks": explorer.walks, "record_replays": replayer.replays,
            "live_server_restarts": flapper.restarts, "live_reloads": flapper.outcomes, "endpoint_requests": stats.endpoint_requests,
            "endpoint_sockets": stats.endpoint_sockets,
            "sessions_left": len(sessions_left), "samples": samples,
            # What the daemon holds open that it did not before the load: empty when it let go of everything.
            "descriptors_left": sorted((descriptor_targets(daemon.pid) - baseline_targets).elements()),
        }
        report["passed"] = (not stats.errors and growth < 10 and end["fds"] <= baseline["fds"]
                            and end["connections"] <= baseline["connections"] and end["threads"] <= baseline["threads"] + 2
                            and stats.largest_journal <= JOURNAL_CAPACITY and not sessions_left
                            and max(bridge_connections) <= 10 and end["held_bytes"] == 0)
        return report
    finally:
        daemon.stop()
        recorded_server.close()


def plot(report, path):
    """The run's curves as an SVG a browser shows: resident memory, descriptors, threads, connections and sessions
    over time, each scaled to its own range (written by hand: no plotting library on these machines)."""
    samples = report["samples"]
    series = [("rss_kib", "resident memory (KiB)", "#c0392b"), ("fds", "open descriptors", "#2980b9"),
              ("threads", "threads", "#27ae60"), ("connections", "connections", "#8e44ad"), ("sessions", "sessions", "#7f8c8d"),
              ("held_bytes", "held by sessions' stores (bytes)", "#d35400")]
    width, height, left, top, row = 900, 140, 70, 30, 150
    end = max(sample["t"] for sample in samples) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + left + 20}" height="{top + row * len(series) + 30}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="{left}" y="18">scenariod soak: {report["seconds"]:.0f} s, {report["clients"]} clients, '
             f'{report["requests"]} requests, {report["errors"]} errors</text>']
    for index, (key, label, colour) in enumerate(series):
        values = [sample[key] for sample in samples]
        low, high = min(values), max(values)
        span = (high - low) or 1
        y0 = top + index * row
        points = " ".join(f"{left + sample['t'] / end * width:.1f},{y0 + height - (sample[key] - low) / span * (height - 20):.1f}"
                          for sample in samples)
        parts += [f'<rect x="{left}" y="{y0}" width="{width}" height="{height}" fill="none" stroke="#ccc"/>',
                  f'<text x="{left + 4}" y="{y0 + 14}">{label}: {low}–{high}</text>',
                  f'<text x="4" y="{y0 + height}">{end:.0f} s</text>',
                  f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"/>']
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--report", type=pathlib.Path)
    parser.add_argument("--plot", type=pathlib.Path, help="Write the run's curves to this SVG file.")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scenariod-soak-") as directory:
        report = soak(arguments.seconds, arguments.clients, pathlib.Path(directory))
    summary = {key: value for key, value in report.items() if key != "samples"}
    print(json.dumps(summary, indent=2))
    if arguments.report:
        arguments.report.write_text(json.dumps(report, indent=2) + "\n")
    if arguments.plot:
        plot(report, arguments.plot)
    sys.exit(0 if report["passed"] else 1)


if __name__ == "__main__":
    main()
