"""A real HTTP server on 127.0.0.1 that plays the FeedReader feed, the bus-ratings API and the Assistant's streamed
replies (server-sent events, written one at a time with real pauses), and a WebSocket server that plays the
Assistant's presence channel, for live tests.

It keeps state (a rating changes once one is submitted), so recordings have cause and effect to keep, and it
records every request it got, so tests can prove what did and did not reach the network.
"""
import json
import pathlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
FEED = (REPOSITORY / "scenarios/first-launch/fixtures/feed.json").read_bytes()
# The Assistant's reply as the server streams it: each event written alone, PAUSE seconds after the last.
REPLY_EVENTS = [
    b'event: token\nid: 1\ndata: {"text":"Hel"}\n\n',
    b'event: token\nid: 2\ndata: {"text":"lo"}\n\n',
    b'event: token\nid: 3\ndata: {"access_token":"sk-live-secret","text":"!"}\n\n',
    b"event: done\nid: 4\ndata: {}\n\n",
]
PAUSE = 0.15


class LoopbackServer:
    def __init__(self, port=0):
        """`port`: 0 for any free one; a port given again starts a server where a closed one was (a restart)."""
        self.requests = []  # (method, path, headers dict, body bytes)
        self.feed_mode = "ok"  # ok | error | slow | hold
        self.hold = threading.Event()
        self.ratings = [4, 5]
        self.tokens = {}
        self._lock = threading.Lock()
        # Open connections, cut when the server closes, as a restarted server's are: a keep-alive connection must not
        # go on being served by the old server's thread.
        self._connections = set()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()
                with server._lock:
                    server._connections.add(self.connection)

            def log_message(self, *args):
                pass

            def _body(self):
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length else b""

            def _send(self, status, body=b"", content_type="application/json", extra=()):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                server._log(self, b"")
                if self.path == "/feed.json":
                    if server.feed_mode == "error":
                        return self._send(500, b"feed generator crashed", "text/plain")
                    if server.feed_mode == "slow":
                        time.sleep(3)
                    if server.feed_mode == "hold":
                        server.hold.wait(60)
                    return self._send(200, FEED, "application/feed+json")
                url = urlsplit(self.path)
                if url.path == "/v1/rating":
                    user = server._user(self)
                    if user is None:
                        return self._send(401, json.dumps({"message": "Sign in first."}).encode())
                    if parse_qs(url.query).get("user") != [user]:
                        return self._send(403, json.dumps({"message": f"{user} may read only {user}'s rating."}).encode())
                    with server._lock:
                        ratings = list(server.ratings)
                    summary = {"average": round(sum(ratings) / len(ratings), 2), "count": len(ratings)}
                    return self._send(200, json.dumps(summary).encode())
                self._send(404, json.dumps({"message": f"no {self.path}"}).encode())

            def do_POST(self):
                body = self._body()
                server._log(self, body)
                if self.path == "/v1/session":
                    credentials = json.loads(body or b"{}")
                    if credentials.get("password") != "correct horse":
                        return self._send(403, json.dumps({"message": "Unknown user or wrong password."}).encode())
                    token = f"tok-{credentials.get('user')}-secret"
                    with server._lock:
                        server.tokens[token] = credentials.get("user")
                    return self._send(201, json.dumps({"token": token}).encode(),
                                      extra=[("Set-Cookie", "sid=cookie-secret; HttpOnly")])
                if self.path == "/v1/replies":
                    # Server-sent events over a close-delimited body: no length, each event flushed, then a pause.
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Cache-Control", "no-cache")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.close_connection = True
                    for event in REPLY_EVENTS:
                        time.sleep(PAUSE)
                        self.wfile.write(event)
                        self.wfile.flush()
                    return
                if self.path == "/v1/ratings":
                    if server._user(self) is None:
                        return self._send(401, json.dumps({"message": "Sign in first."}).encode())
                    rating = json.loads(body or b"{}")
                    with server._lock:
                        server.ratings.append(rating.get("driver", 0))
                    return self._send(204, b"")
                self._send(404, json.dumps({"message": f"no {self.path}"}).encode())

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a client that hung up (a timeout or a cancelled request being tested) is expected here

        Server.allow_reuse_address = True
        self._server = Server(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def _log(self, handler, body):
        with self._lock:
            self.requests.append((handler.command, handler.path, dict(handler.headers), body))

    def _user(self, handler):
        authorization = handler.headers.get("Authorization", "")
        with self._lock:
            return self.tokens.get(authorization.removeprefix("Bearer "))

    def paths(self):
        with self._lock:
            return [f"{method} {path}" for method, path, _, _ in self.requests]

    def close(self):
        import socket
        self._server.shutdown()
        self._server.server_close()
        with self._lock:
            connections, self._connections = self._connections, set()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


# The Assistant's presence channel as the WebSocket server plays it: "online" PAUSE after the handshake (with a
# session token, a secret a recording leaves out); the first {"type":"sent"} is answered with typing, then not,
# PAUSE apart, and PAUSE later the server closes with 4001 "restarting".
PRESENCE_ONLINE = '{"type":"online","online":true,"session_token":"ws-live-secret"}'
PRESENCE_TYPING = ['{"type":"typing","typing":true}', '{"type":"typing","typing":false}']
PRESENCE_CLOSE = (4001, "restarting")
PRESENCE_BYE = (4002, "bye")


class SocketServer:
    """A real WebSocket server on 127.0.0.1 (the websockets library, on its own event loop and thread) that plays
    the presence channel, and keeps what each connection was sent."""

    def __init__(self, then=None):
        """`then`: after the online message, "close" closes with PRESENCE_BYE, "abort" drops the TCP connection
        without a close frame; None plays the whole presence conversation."""
        import asyncio
        import websockets
        self.received = []  # (path, message text)
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        started = threading.Event()

        async def presence(socket, path=None):
            path = path or socket.path
            await asyncio.sleep(PAUSE)
            await socket.send(PRESENCE_ONLINE)
            if then == "close":
                await asyncio.sleep(PAUSE)
                await socket.close(*PRESENCE_BYE)
                return
            if then == "abort":
                await asyncio.sleep(PAUSE)
                socket.transport.abort()
                return
            async for message in socket:
                with self._lock:
                    self.received.append((path, message))
                if json.loads(message).get("type") == "sent":
                    for update in PRESENCE_TYPING:
                        await socket.send(update)
                        await asyncio.sleep(PAUSE)
                    await socket.close(*PRESENCE_CLOSE)
                    return

        def run():
            asyncio.set_event_loop(self._loop)
            self._server = self._loop.run_until_complete(websockets.serve(presence, "127.0.0.1", 0))
            started.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the loopback WebSocket server did not start within 10 s")
        self.origin = f"ws://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    def messages(self):
        with self._lock:
            return list(self.received)

    def close(self):
        import asyncio

        async def stop():
            self._server.close()
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
