"""The plugin's own tests: pytester runs suites in a subprocess, each with its own pytest and daemon."""
from typing import Iterator

import pytest

from scenariod_pytest.plugin import daemon_binary, scenario_directories

pytest_plugins = ["pytester"]


@pytest.fixture
def inner_environment(pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An inner run starts its own daemon: the outer run's binary and scenarios, and no SCENARIOD_SOCKET."""
    binary = daemon_binary(pytestconfig)
    assert binary, "the plugin's tests need a daemon binary: --scenariod PATH or SCENARIOD_BINARY"
    monkeypatch.setenv("SCENARIOD_BINARY", binary)
    monkeypatch.setenv("SCENARIOD_SCENARIOS", ":".join(scenario_directories(pytestconfig)))
    monkeypatch.delenv("SCENARIOD_SOCKET", raising=False)
    monkeypatch.delenv("SCENARIOD_DAEMON", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    yield
