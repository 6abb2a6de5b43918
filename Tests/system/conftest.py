"""Fixtures for the live-services tests: loopback HTTP and WebSocket servers and daemons of the test's own.

These tests never reach the internet: every live request is forwarded (`network.forward`) to the loopback
server, or meets a network namespace with no interfaces."""
import pytest

from daemon import Daemon
from loopback import LoopbackServer, SocketServer


@pytest.fixture
def loopback():
    server = LoopbackServer()
    yield server
    server.close()


@pytest.fixture
def socket_server():
    server = SocketServer()
    yield server
    server.close()


@pytest.fixture
def daemon_with(tmp_path):
    """daemon_with({name: yaml}, arguments=[], no_network=False) starts a daemon; all are stopped afterwards."""
    started = []

    def start(scenarios, arguments=(), no_network=False, directory=None):
        daemon = Daemon(directory or tmp_path / f"d{len(started)}", scenarios, arguments, no_network).start()
        started.append(daemon)
        return daemon

    yield start
    for daemon in started:
        if daemon.process.poll() is None:
            daemon.stop()
