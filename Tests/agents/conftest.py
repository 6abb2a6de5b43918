import pathlib
import sys

import pytest

# The system tests' Daemon: a scenariod of the test's own, on its own socket.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "system"))
from daemon import Daemon, FIXTURED, REPOSITORY, SCENARIOCTL  # noqa: E402


@pytest.fixture
def daemon(tmp_path):
    started = Daemon(tmp_path, {}).start()
    yield started
    started.stop()


@pytest.fixture
def scenarioctl():
    return SCENARIOCTL


@pytest.fixture
def fixtured_with(tmp_path):
    """fixtured (which hosts the Fetcher Model) on scenario directories of the test's."""
    started = []

    def start(scenario_roots, arguments=()):
        directory = tmp_path / f"fixtured-{len(started)}"
        directory.mkdir()
        daemon = Daemon(directory, {}, binary=FIXTURED, shipped_scenarios=False,
                        arguments=[a for root in scenario_roots for a in ("--scenarios", str(root))] + list(arguments))
        started.append(daemon.start())
        return daemon

    yield start
    for daemon in started:
        daemon.stop()
