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
