"""State reads answered from a settled session's last state (SettledStateResponder) must be exactly what the router
would answer: in order on a pipelined connection, never stale after an action, a clock move or a reset, and the same
bytes and headers as the action that produced the state."""
import json

import rawhttp

URL = "https://www.cocoawithlove.com/blog/mock-views.html"


def pipelined(socket_path, requests):
    """Sends every request in one write on one connection; the responses in the order they came."""
    connection = rawhttp.connect(socket_path)
    try:
        data = b""
        for method, target, body in requests:
            payload = json.dumps(body).encode() if body is not None else b""
            head = f"{method} {target} HTTP/1.1\r\nHost: scenariod\r\nContent-Length: {len(payload)}\r\n"
            if payload:
                head += "Content-Type: application/json\r\n"
            data += head.encode() + b"\r\n" + payload
        connection.sendall(data)
        return read_responses(connection, len(requests))
    finally:
        connection.close()


def read_responses(connection, count):
    """`count` responses off one connection, keeping what arrives beyond each (rawhttp reads one at a time)."""
    buffered, responses = b"", []
    while len(responses) < count:
        head_end = buffered.find(b"\r\n\r\n")
        if head_end >= 0:
            lines = buffered[:head_end].decode("latin-1").split("\r\n")
            headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
            end = head_end + 4 + int(headers.get("content-length", "0"))
            if len(buffered) >= end:
                responses.append((int(lines[0].split()[1]), headers, buffered[head_end + 4:end]))
                buffered = buffered[end:]
                continue
        chunk = connection.recv(65536)
        assert chunk, f"the connection closed after {len(responses)} of {count} responses"
        buffered += chunk
    return responses


def is_read(state, url):
    return next(item["isRead"] for item in state["items"] if item["url"] == url)


def test_a_pipelined_read_after_an_action_sees_the_action(daemon_with):
    daemon = daemon_with({})
    daemon.session("first-launch", "s")
    assert not is_read(daemon.state("s"), URL)  # the state is now settled and held for reads
    responses = pipelined(daemon.socket, [
        ("GET", "/v1/sessions/s/state", None),
        ("POST", "/v1/sessions/s/actions/setIsRead", {"url": URL, "value": True}),
        ("GET", "/v1/sessions/s/state", None),
        ("POST", "/v1/sessions/s/actions/setIsRead", {"url": URL, "value": False}),
        ("GET", "/v1/sessions/s/state", None),
    ])
    assert [status for status, _, _ in responses] == [200] * 5
    states = [json.loads(body) for _, _, body in responses]
    assert [is_read(state, URL) for state in states] == [False, True, True, False, False]
    # A read answers the very bytes and headers the action that made the state answered.
    assert responses[2][2] == responses[1][2] and responses[4][2] == responses[3][2]
    for _, headers, body in responses:
        assert headers["content-type"] == "application/json" and int(headers["content-length"]) == len(body)


def test_reads_follow_clock_moves_resets_and_deletes(daemon_with):
    daemon = daemon_with({})
    daemon.session("slow-network", "slow")
    daemon.act("slow", "reload")
    assert daemon.state("slow")["isLoading"] is True  # the response waits on the frozen clock
    daemon.call("POST", "/v1/sessions/slow/clock/advance", expect=200, json={"by": "2s"})
    assert daemon.state("slow")["isLoading"] is False
    daemon.call("POST", "/v1/sessions/slow/reset", expect=200)
    after_reset = daemon.state("slow")
    assert after_reset == daemon.state("slow")
    daemon.call("DELETE", "/v1/sessions/slow", expect=204)
    status, _, body = rawhttp.request(daemon.socket, "GET", "/v1/sessions/slow/state")
    assert status == 404 and json.loads(body)["code"] == "unknownSession"


def test_reads_see_key_value_edits_once_the_model_reloads(daemon_with):
    daemon = daemon_with({})
    daemon.session("first-launch", "kv")
    assert not is_read(daemon.state("kv"), URL)
    daemon.call("PUT", "/v1/sessions/kv/kv/readItems", expect=200, json=[URL])
    daemon.act("kv", "reload")
    assert is_read(daemon.state("kv"), URL)


class StateReader:
    """GETs of one session's state on one keep-alive connection, so the reads share what the connection keeps of
    the last state it answered."""

    def __init__(self, socket_path, session):
        self.connection = rawhttp.connect(socket_path)
        self.target = f"/v1/sessions/{session}/state"

    def read(self, *headers):
        request = [f"GET {self.target} HTTP/1.1", "Host: scenariod", *headers, "", ""]
        self.connection.sendall("\r\n".join(request).encode())
        status, response_headers, body = rawhttp.read_response(self.connection)
        assert status is not None, "the connection closed"
        return status, response_headers, body

    def close(self):
        self.connection.close()


def test_a_state_read_is_tagged_and_a_client_holding_the_tag_is_told_not_modified(daemon_with):
    daemon = daemon_with({})
    daemon.session("first-launch", "t")
    reader = StateReader(daemon.socket, "t")
    try:
        status, headers, body = reader.read()
        tag = headers["etag"]
        assert status == 200 and tag.startswith('"') and tag.endswith('"') and len(tag) == 18
        for condition in (tag, f"W/{tag}", f'"other", {tag}', "*"):
            status, headers, body = reader.read(f"If-None-Match: {condition}")
            assert (status, headers.get("etag"), body) == (304, tag, b""), condition
            assert "content-length" not in headers or headers["content-length"] == "0"
        status, headers, body = reader.read('If-None-Match: "other"')
        assert (status, headers["etag"]) == (200, tag) and json.loads(body)["items"]
        # The router answers the same when a request does not keep its connection (so does not take the fast path).
        for condition, expected in ((tag, 304), ('"other"', 200)):
            status, headers, _ = rawhttp.request(daemon.socket, "GET", "/v1/sessions/t/state",
                                                 headers=("Connection: close", f"If-None-Match: {condition}"))
            assert (status, headers["etag"]) == (expected, tag)
    finally:
        reader.close()


def test_the_tag_and_bytes_follow_every_step_rewind_reset_and_override(daemon_with):
    daemon = daemon_with({})
    daemon.session("first-launch", "c")
    reader = StateReader(daemon.socket, "c")
    base = "/v1/sessions/c"
    try:
        _, headers, first = reader.read()
        seen = {headers["etag"]: first}

        def read_after(change, answered=None):
            """After `change`: the read is the session's state (what the change answered, when it answers a state)
            under a tag that names these bytes alone; the tag of the read before is no longer 'not modified'."""
            previous = list(seen)[-1]
            status, headers, body = reader.read(f"If-None-Match: {previous}")
            if answered is not None:
                assert body == answered or (status == 304 and seen[previous] == answered), change
            tag = headers["etag"]
            if status == 304:
                assert tag == previous, change
                return tag
            assert status == 200 and seen.get(tag, body) == body, f"{change}: a tag names two states"
            assert tag != previous, f"{change}: new bytes under the old tag"
            seen[tag] = body
            return tag

        marked = daemon.call("POST", f"{base}/actions/setIsRead", expect=200, json={"url": URL, "value": True}).content
        after_action = read_after("an action", marked)
        daemon.call("POST", f"{base}/actions/reload", expect=200)
        daemon.call("PUT", f"{base}/kv/readItems", expect=200, json=[])
        reloaded = daemon.call("POST", f"{base}/actions/reload", expect=200).content
        read_after("a store edit and a reload", reloaded)
        daemon.call("POST", f"{base}/clock/advance", expect=200, json={"by": "1h"})
        read_after("a clock move")
        rewound = daemon.call("POST", f"{base}/rewind", expect=200, json={"step": 1}).content
        assert read_after("a rewind", rewound) == after_action  # the same bytes, the same tag
        daemon.call("PUT", f"{base}/routes/feed", expect=204, json={"extends": "feed", "response": {"status": 503}})
        failed = daemon.call("POST", f"{base}/actions/reload", expect=200).content
        read_after("a route override and a reload", failed)
        daemon.call("POST", f"{base}/reset", expect=200)
        assert read_after("a reset") == list(seen)[0]  # back to the scenario's start: its bytes and tag
    finally:
        reader.close()
