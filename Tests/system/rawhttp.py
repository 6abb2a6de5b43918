"""HTTP/1.1 by hand over a Unix socket, for requests no client library will send (slow drips, broken bytes)."""
import socket
import time


def connect(path, timeout=30):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(timeout)
    connection.connect(path)
    return connection


def read_response(connection, limit=30):
    """One response: (status, headers dict, body bytes); (None, {}, b"") when the server closed first."""
    data = b""
    deadline = time.monotonic() + limit
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None, {}, b""
        data += chunk
        assert time.monotonic() < deadline, "no response head in time"
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest[:length]


def request(path, method, target, body=b"", headers=()):
    """Sends one request on a new connection and returns (status, headers, body)."""
    connection = connect(path)
    try:
        lines = [f"{method} {target} HTTP/1.1", "Host: scenariod", f"Content-Length: {len(body)}", *headers, "", ""]
        connection.sendall("\r\n".join(lines).encode("latin-1") + body)
        return read_response(connection)
    finally:
        connection.close()


def closed_by_peer(connection, limit):
    """Whether the server closes the connection within `limit` seconds (reads until EOF or the limit)."""
    connection.settimeout(limit)
    try:
        while connection.recv(65536):
            pass
        return True
    except socket.timeout:
        return False
    except ConnectionResetError:
        return True
