"""Who may use the socket: each mutating request is logged with the caller's uid and pid from SO_PEERCRED, and an
optional allow-list (--allow-uid, --allow-group) refuses everyone else with 403. The caller is a second,
unprivileged user the test creates."""
import json
import os
import pwd
import grp
import subprocess
import tempfile

import pathlib
import pytest

from daemon import BINARY

USER = "scenariod-peer"
MEMBER_GROUP = "scenariod-peers"     # USER is a member
OTHER_GROUP = "scenariod-outsiders"  # USER is not


@pytest.fixture(scope="module")
def peer():
    """The unprivileged user and its groups (created once; left in place, as harmless as any system user)."""
    for group in (MEMBER_GROUP, OTHER_GROUP):
        subprocess.run(["groupadd", "--force", "--system", group], check=True)
    if subprocess.run(["id", USER], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER], check=True)
    subprocess.run(["usermod", "--append", "--groups", MEMBER_GROUP, USER], check=True)
    return pwd.getpwnam(USER).pw_uid


@pytest.fixture
def shared_directory():
    """A directory the second user can reach (pytest's own tmp_path is root's alone)."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="scenariod-peer-"))
    directory.chmod(0o755)
    yield directory
    subprocess.run(["rm", "-rf", str(directory)])


def as_peer(daemon, method, path, body=None):
    """curl run as the unprivileged user: (status, JSON body)."""
    os.chmod(daemon.socket, 0o666)  # the file mode lets it connect; the allow-list is what is under test
    command = ["runuser", "-u", USER, "--", "curl", "-sS", "--unix-socket", daemon.socket, "-X", method,
               "-o", "-", "-w", "\n%{http_code}", f"http://scenariod{path}"]
    if body is not None:
        command += ["-H", "Content-Type: application/json", "-d", json.dumps(body)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    text, status = result.stdout.rsplit("\n", 1)
    return int(status), json.loads(text) if text else None


def test_an_allow_list_refuses_others_with_403(peer, daemon_with, shared_directory):
    daemon = daemon_with({}, arguments=["--allow-group", OTHER_GROUP], directory=shared_directory / "d")
    status, body = as_peer(daemon, "POST", "/v1/sessions", {"scenario": "offline-demo", "id": "peer"})
    assert status == 403 and body["code"] == "notAllowed", body
    assert f"uid {peer}" in body["message"] and OTHER_GROUP in body["message"], body
    status, _ = as_peer(daemon, "GET", "/v1/health")
    assert status == 403, "reads are refused too"
    assert daemon.call("GET", "/v1/sessions", expect=200).json() == [], "the refused request changed nothing"
    # The daemon's own user (root here) is always allowed.
    daemon.call("POST", "/v1/sessions", json={"scenario": "offline-demo", "id": "mine"}, expect=201)
    assert f"refused POST /v1/sessions from uid {peer}" in daemon.log()


def test_a_sessions_socket_endpoint_keeps_the_allow_list(peer, daemon_with, shared_directory):
    """A session's socket endpoint is reached as the control socket is: the allow-list refuses the same callers."""
    daemon = daemon_with({}, arguments=["--allow-group", OTHER_GROUP], directory=shared_directory / "d")
    endpoint = daemon.call("POST", "/v1/sessions", json={"scenario": "offline-demo", "id": "web", "endpoint": {}}, expect=201).json()["endpoint"]
    # The modes let the user connect; the allow-list is what is under test.
    os.chmod(os.path.dirname(endpoint["socket"]), 0o755)
    os.chmod(endpoint["socket"], 0o666)
    command = ["runuser", "-u", USER, "--", "curl", "-sS", "--unix-socket", endpoint["socket"], "-o", "-", "-w", "\n%{http_code}",
               "http://localhost/feed.json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    text, status = result.stdout.rsplit("\n", 1)
    assert status == "403" and f"uid {peer}" in text, result
    assert not [entry for entry in daemon.journal("web") if entry.get("outside")], "the refused request reached no route"
    mine = subprocess.run(["curl", "-sS", "--unix-socket", endpoint["socket"], "http://localhost/feed.json"], capture_output=True, text=True, timeout=30)
    assert "Cocoa with Love" in mine.stdout, "the daemon's own user is always allowed"
    assert f"on the endpoint of session web from uid {peer}" in daemon.log()


@pytest.mark.parametrize("allow", [["--allow-group", MEMBER_GROUP], ["--allow-uid", "PEER"]], ids=["group", "uid"])
def test_an_allowed_user_gets_in(peer, daemon_with, shared_directory, allow):
    arguments = [str(peer) if value == "PEER" else value for value in allow]
    daemon = daemon_with({}, arguments=arguments, directory=shared_directory / "d")
    status, body = as_peer(daemon, "POST", "/v1/sessions", {"scenario": "offline-demo", "id": "peer"})
    assert status == 201 and body["id"] == "peer", body


def test_mutating_requests_are_logged_with_the_callers_uid_and_pid(peer, daemon_with, shared_directory):
    # No allow-list: the file mode decides. Audit lines are at level info.
    daemon = daemon_with({}, arguments=["--log-level", "info"], directory=shared_directory / "d")
    status, _ = as_peer(daemon, "POST", "/v1/sessions", {"scenario": "offline-demo", "id": "peer"})
    assert status == 201
    status, _ = as_peer(daemon, "PUT", "/v1/sessions/peer/kv/note", "hello")
    assert status == 200
    lines = [line for line in daemon.log().splitlines() if f"by uid {peer} " in line]
    assert any("POST /v1/sessions by" in line for line in lines), daemon.log()
    assert any("PUT /v1/sessions/peer/kv/note by" in line for line in lines), daemon.log()
    assert all(" pid " in line and "peer_pid=" in line for line in lines), lines
    status, _ = as_peer(daemon, "GET", "/v1/sessions/peer/state")
    assert status == 200
    assert not any("GET /v1/sessions/peer/state by" in line for line in daemon.log().splitlines()), "reads are not audited"


def test_an_unknown_group_stops_the_daemon_with_a_clear_error(tmp_path):
    result = subprocess.run([BINARY, "--allow-group", "no-such-group-here", "--socket", str(tmp_path / "s.sock"),
                             "--state-directory", str(tmp_path / "state")], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "--allow-group no-such-group-here: there is no such group" in result.stderr, result.stderr
