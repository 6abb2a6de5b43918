"""pytest fixtures for scenariod: one daemon for the test run, an isolated scenario session per test.

Installed, the plugin is on in every pytest run of the environment (entry point ``pytest11: scenariod``); tests use
its fixtures by name: ``scenario``, ``scenario_session`` (with ``@pytest.mark.scenario``), ``scenariod`` and
``scenariod_socket``. The classes below are for annotations and for use outside fixtures.
"""
from .client import ScenariodClient
from .errors import ScenariodError, ScenariodUnreachable
from .events import Event, EventStream
from .matching import contains, first_difference
from .opener import ScenarioOpener
from .session import ScenarioSession
from .session_endpoint import SessionEndpoint
from .store import KeyValueStore

__all__ = [
    "Event",
    "EventStream",
    "KeyValueStore",
    "ScenarioOpener",
    "ScenarioSession",
    "ScenariodClient",
    "ScenariodError",
    "ScenariodUnreachable",
    "SessionEndpoint",
    "contains",
    "first_difference",
]
