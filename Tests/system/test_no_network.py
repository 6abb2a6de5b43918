"""The guarantee: a session whose scenario has no live route opens no network socket at all.

Shown twice: the daemon runs in a network namespace with nothing but a loopback interface that is down
(`unshare --net`), and every fake scenario still works there unchanged; and, in or out of that namespace, every
socket the daemon holds after driving fake sessions is a Unix socket."""
import os
import pathlib

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

# What each shipped fake scenario shows right after its session starts (FeedReader: items, read, error).
FAKE_SCENARIOS = {
    "offline-demo": (4, 2, None),
    "first-launch": (4, 0, None),
    "empty-feed": (0, 0, None),
    "offline": (0, 0, "Could not load the feed: The network is offline."),
}


def inodes(table, column):
    found = set()
    for line in pathlib.Path(table).read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) > column:
            found.add(fields[column])
    return found


def socket_kinds(pid):
    """The daemon's sockets by kind. A Unix connection accepted from a client in another namespace belongs to
    the client's namespace, so Unix sockets are looked up in both; IP sockets in the daemon's own tables."""
    unix = inodes(f"/proc/{pid}/net/unix", 6) | inodes("/proc/self/net/unix", 6)
    ip = set().union(*(inodes(f"/proc/{pid}/net/{table}", 9)
                       for table in ["tcp", "tcp6", "udp", "udp6", "raw", "raw6"]))
    kinds = []
    for fd in pathlib.Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:
            continue
        if target.startswith("socket:["):
            inode = target[8:-1]
            kinds.append("unix" if inode in unix else "ip" if inode in ip else f"other:{inode}")
    return kinds


@pytest.mark.parametrize("no_network", [True, False], ids=["in an empty network namespace", "on the host"])
def test_fake_scenarios_work_unchanged_and_hold_only_unix_sockets(daemon_with, no_network):
    daemon = daemon_with({}, no_network=no_network)
    for name, (items, read, error) in FAKE_SCENARIOS.items():
        session = daemon.session(name, f"s-{name}")
        state = daemon.act(session, "reload")
        assert (len(state.get("items", [])), sum(item["isRead"] for item in state.get("items", [])), state.get("error")) \
            == (items, read, error), f"{name}: {state}"
    ratings = daemon.session("ratings-signed-out", "r")
    assert daemon.act(ratings, "signIn", user="alice", password="correct horse")["user"] == "alice"
    assert daemon.act(ratings, "fetchRating")["rating"] == {"average": 4.5, "count": 12}

    kinds = socket_kinds(daemon.pid)
    assert "unix" in kinds, "the control socket should be among the daemon's sockets"
    assert set(kinds) == {"unix"}, f"the daemon holds non-Unix sockets: {kinds}"
    if no_network:
        assert os.readlink(f"/proc/{daemon.pid}/ns/net") != os.readlink("/proc/self/ns/net")
