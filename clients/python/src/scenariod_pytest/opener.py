"""The ``scenario`` fixture's value: opens sessions for one test, each with an id unique in the run, and deletes
them when the test ends."""
from __future__ import annotations

import hashlib
import re
from typing import Any, Mapping, Optional, Union

from .client import ScenariodClient
from .errors import ScenariodUnreachable
from .session import ScenarioSession


def session_id_prefix(test_name: str, worker: str, run: str, node_id: str) -> str:
    """``test_name-gw3-1a2b3c4d``: readable in the dashboard and in ``scenarioctl session list``, and unique
    across workers, tests and runs sharing one daemon (the hash is of the run's token and the test's node id).

    Fits the API's session id pattern, ``^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$``, with room for a counter.
    """
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", test_name).strip("._-")
    if len(readable) > 32:
        # The start names the test and the end its parameters, where parametrized tests differ: keep both.
        readable = readable[:8].rstrip("._-") + "-" + readable[-23:].lstrip("._-")
    readable = readable or "test"
    digest = hashlib.sha256(f"{run}:{node_id}".encode()).hexdigest()[:8]
    return f"{readable}-{re.sub(r'[^A-Za-z0-9]', '', worker)[:8]}-{digest}"


class ScenarioOpener:
    """Call it to open a session: ``session = scenario("offline-demo", overrides={...})``.

    Every session it opened is deleted when the test ends (a ``with`` block deletes one sooner), so a suite never
    leaks sessions into a shared daemon, which holds at most ``--max-sessions`` at once.
    """

    def __init__(self, client: ScenariodClient, id_prefix: str) -> None:
        #: The daemon's client.
        self.client = client
        #: The start of every session id this test opens.
        self.id_prefix = id_prefix
        #: The sessions opened so far, oldest first.
        self.opened: list[ScenarioSession] = []

    def __call__(self, name: str, overrides: Optional[Mapping[str, Any]] = None, *,
                 id: Optional[str] = None, endpoint: Union[bool, Mapping[str, Any], None] = None) -> ScenarioSession:
        """Opens a session of scenario `name`, settled in its start state.

        ``overrides`` are scenario sections for this session only, read as a scenario file extending `name` would
        be: ``{"network": {"routes": [...]}}`` (extra routes, or replacements of routes of the same name),
        ``{"keyValue": {"seed": {...}}}``, ``{"clock": {"start": "2027-01-01T00:00:00Z"}}``. ``id`` replaces the
        generated session id. ``endpoint=True`` gives the session its own loopback HTTP listener
        (``session.endpoint``) for an app the daemon does not host.
        """
        __tracebackhide__ = True
        if id is None:
            count = len(self.opened) + 1
            id = self.id_prefix if count == 1 else f"{self.id_prefix}-{count}"
        session = self.client.create_session(name, id=id, overrides=overrides, endpoint=endpoint)
        self.opened.append(session)
        return session

    def close(self) -> None:
        """Deletes every session this test opened that is still open; the first failure is raised after all
        were tried."""
        first: Optional[Exception] = None
        for session in self.opened:
            try:
                session.delete()
            except ScenariodUnreachable:
                # The daemon is gone, and its sessions with it: nothing to delete, and the next test says so once.
                return
            except Exception as error:  # noqa: BLE001 — every session is tried before one failure is reported
                first = first or error
        if first is not None:
            raise first
