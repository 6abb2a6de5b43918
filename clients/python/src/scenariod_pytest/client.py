"""A connection to one scenariod's control API (HTTP+JSON over its Unix socket), and the daemon-wide calls."""
from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Sequence, Union

import httpx

from .errors import ScenariodError, ScenariodUnreachable
from .session import ScenarioSession
from .session_endpoint import SessionEndpoint
from .wire import NO_BODY, path_segment


def default_timeout() -> float:
    """Seconds a call may take: `$SCENARIOD_TIMEOUT`, else 10 (as ScenarioTesting), so a hung daemon fails a test."""
    text = os.environ.get("SCENARIOD_TIMEOUT", "10")
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"SCENARIOD_TIMEOUT is '{text}'; set it to a number of seconds, such as 10") from None


class ScenariodClient:
    """One daemon's control API on a Unix socket.

    Daemon-wide calls live here (health, models, scenarios, sessions); a session's calls live on the
    :class:`ScenarioSession` that :meth:`create_session` or :meth:`session` returns. Every call is a documented
    operation of the daemon's OpenAPI document (``openapi/scenariod.yaml``). Refusals raise
    :class:`ScenariodError`; a socket nobody answers on raises :class:`ScenariodUnreachable`.

    Usable as a context manager, which closes its connections.
    """

    def __init__(self, socket_path: str, *, timeout: Optional[float] = None) -> None:
        self.socket_path = socket_path
        #: Seconds a call may take before it fails (event waits take their own).
        self.timeout = default_timeout() if timeout is None else timeout
        self.http = httpx.Client(transport=httpx.HTTPTransport(uds=socket_path), base_url="http://scenariod",
                                 timeout=self.timeout)

    def __enter__(self) -> ScenariodClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connections (sessions stay open in the daemon; delete them first)."""
        self.http.close()

    def call(self, method: str, path: str, body: Any = NO_BODY, *, content_type: str = "application/json") -> Any:
        """Makes one call; returns its JSON answer (None for an empty one).

        Raises :class:`ScenariodError` for a refusal, with the API's code and message, and
        :class:`ScenariodUnreachable` when no daemon answers.
        """
        __tracebackhide__ = True
        content = None if body is NO_BODY else json.dumps(body).encode()
        headers = {} if content is None else {"Content-Type": content_type}
        try:
            response = self.http.request(method, path, content=content, headers=headers)
        except httpx.TransportError as error:
            raise ScenariodUnreachable(
                f"{method} {path}: scenariod on {self.socket_path} did not answer ({type(error).__name__}: {error}). "
                f"Is the daemon running? Its log says why it stopped; set SCENARIOD_TIMEOUT (seconds, now "
                f"{self.timeout:g}) if it is only slow.") from error
        if response.status_code >= 400:
            raise ScenariodError.from_response(method, path, response)
        return response.json() if response.content else None

    def health(self) -> dict[str, Any]:
        """GET /v1/health: the daemon is up; its version and counts of scenarios and sessions."""
        result: dict[str, Any] = self.call("GET", "/v1/health")
        return result

    def version(self) -> dict[str, Any]:
        """GET /v1/version: the daemon's version and the API's (``v1``)."""
        result: dict[str, Any] = self.call("GET", "/v1/version")
        return result

    def models(self) -> list[dict[str, Any]]:
        """GET /v1/models: the Models the daemon hosts, with their actions and arguments."""
        result: list[dict[str, Any]] = self.call("GET", "/v1/models")
        return result

    def scenarios(self) -> list[dict[str, Any]]:
        """GET /v1/scenarios: every scenario the daemon loaded, valid or not, with its problems."""
        result: list[dict[str, Any]] = self.call("GET", "/v1/scenarios")
        return result

    def scenario(self, name: str) -> dict[str, Any]:
        """GET /v1/scenarios/NAME: one scenario resolved: its Model, clock, seed keys and routes."""
        result: dict[str, Any] = self.call("GET", f"/v1/scenarios/{path_segment(name)}")
        return result

    def reload_scenarios(self) -> dict[str, Any]:
        """POST /v1/scenarios/reload: reads the scenario directories again (as SIGHUP does)."""
        result: dict[str, Any] = self.call("POST", "/v1/scenarios/reload")
        return result

    def sessions(self) -> list[dict[str, Any]]:
        """GET /v1/sessions: the open sessions, sorted by id."""
        result: list[dict[str, Any]] = self.call("GET", "/v1/sessions")
        return result

    def create_session(self, scenario: str, *, id: Optional[str] = None,
                       overrides: Optional[Mapping[str, Any]] = None,
                       endpoint: Union[bool, Mapping[str, Any], None] = None) -> ScenarioSession:
        """POST /v1/sessions: starts a session of `scenario` and returns it, settled in its start state.

        ``overrides`` are scenario sections for this session only (``{"network": {"routes": [...]}}``,
        ``{"keyValue": {"seed": {...}}}``, ``{"clock": {"start": "..."}}``), read as a scenario file that extends
        `scenario` would be. ``id`` must match ``^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$``; the daemon picks one when it
        is left out. The session stays open until deleted (``with`` deletes it at the end of the block).

        ``endpoint`` gives the session its own HTTP listener, for an app the daemon does not host: ``True`` for a
        loopback port with a token, or the API's object (``{"port": 0, "origin": "https://api.example.com"}``,
        ``{}`` for a Unix socket). The session's :attr:`ScenarioSession.endpoint` says where it listens.
        """
        __tracebackhide__ = True
        body: dict[str, Any] = {"scenario": scenario}
        if id is not None:
            body["id"] = id
        if overrides is not None:
            body["overrides"] = dict(overrides)
        if endpoint is True:
            body["endpoint"] = {"port": 0}
        elif endpoint:
            body["endpoint"] = dict(endpoint)
        created = self.call("POST", "/v1/sessions", body)
        return ScenarioSession(self, created["id"], scenario=created.get("scenario", scenario),
                               endpoint=SessionEndpoint(created["endpoint"]) if "endpoint" in created else None)

    def session(self, id: str) -> ScenarioSession:
        """An open session by id (``default`` is the session of a daemon started with ``--scenario``).

        Checks that it exists (GET /v1/sessions/ID); leaving a ``with`` block of it deletes it.
        """
        __tracebackhide__ = True
        shown = self.call("GET", f"/v1/sessions/{path_segment(id)}")
        return ScenarioSession(self, shown["id"], scenario=shown.get("scenario"),
                               endpoint=SessionEndpoint(shown["endpoint"]) if "endpoint" in shown else None)

    def session_ids(self) -> Sequence[str]:
        """The ids of the open sessions."""
        return [session["id"] for session in self.sessions()]

    def explore(self, scenario: str, *, walks: int = 100, steps: int = 20, seed: int = 1, parallelism: int = 2,
                overrides: Optional[Mapping[str, Any]] = None, check: bool = True) -> dict[str, Any]:
        """POST /v1/explorations: explores `scenario` in the daemon, as ``scenarioctl explore`` does: seeded walks
        of random steps (the Model's actions, clock moves, network weather), the scenario's properties (its
        ``properties.yaml``) and the built-in ones checked after every step, on the daemon's engine.

        Follows the exploration's events to its end and returns its report: ``walksRun``, ``steps``, ``stepKinds``,
        ``routesNeverRequested``, and ``failure`` (the broken property and the minimal walk) when one broke. With
        ``check`` (the default) a broken property fails the test: an ``AssertionError`` names the property, where
        it is written, and the walk's steps. The same seed gives the same report. Waits as long as walks keep
        finishing; the client's timeout bounds the wait for each.
        """
        __tracebackhide__ = True
        body: dict[str, Any] = {"scenario": scenario, "walks": walks, "steps": steps, "seed": seed, "parallelism": parallelism}
        if overrides is not None:
            body["overrides"] = dict(overrides)
        exploration = self.call("POST", "/v1/explorations", body)
        path = f"/v1/explorations/{path_segment(exploration['id'])}/events"
        try:
            with self.http.stream("GET", path) as response:
                if response.status_code >= 400:
                    response.read()
                    raise ScenariodError.from_response("GET", path, response)
                for line in response.iter_lines():
                    if line.startswith("data:"):
                        exploration = json.loads(line[5:])
        except httpx.TransportError as error:
            raise ScenariodUnreachable(f"GET {path}: scenariod on {self.socket_path} stopped answering ({type(error).__name__}: {error}); "
                                       f"the exploration may still run (DELETE /v1/explorations/{exploration['id']} stops it).") from error
        if exploration["status"] != "finished":
            raise ScenariodError("GET", path, 200, "exploration" + exploration["status"].capitalize(),
                                 exploration.get("error") or f"exploration {exploration['id']} ended {exploration['status']}")
        report: dict[str, Any] = exploration["report"]
        failure = report.get("failure")
        if check and failure:
            broken = failure["property"]
            walk = "\n".join(f"  {number}. {json.dumps(step, sort_keys=True)}" for number, step in enumerate(failure["steps"], 1))
            changed = ", ".join(failure.get("stateDifference", [])) or "nothing"
            raise AssertionError(f"exploring {scenario} (seed {seed}): {broken['property']} "
                                 f"({broken.get('place', 'a built-in property')}) broke at step {broken['step']}: {broken['detail']}; "
                                 f"that step changed {changed}. The minimal walk:\n{walk}")
        return report
