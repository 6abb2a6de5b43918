"""One session of a scenario: its Model's actions and state, clock, key-value state, network, journal, history."""
from __future__ import annotations

import base64
import re
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence, Union

import httpx

from . import journal
from .journal import URL as RequestURL
from .errors import ScenariodError
from .events import Event, EventStream
from .matching import first_difference, show
from .session_endpoint import SessionEndpoint
from .store import KeyValueStore
from .wire import path_segment

if TYPE_CHECKING:
    from .client import ScenariodClient

#: What :meth:`ScenarioSession.wait_for_state` waits for: a predicate of the state, or a JSON subset of it.
StateMatch = Union[Callable[[Any], bool], Mapping[str, Any]]

_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def duration_seconds(text: str) -> float:
    """Seconds in a duration as the API writes them (``500ms``, ``2s``, ``1h30m``)."""
    parts = _DURATION.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        raise ValueError(f"'{text}' is not a duration; write one such as 500ms, 2s, 15m or 1h30m")
    return sum(float(number) * _UNIT_SECONDS[unit] for number, unit in parts)


def instant(text: str) -> datetime:
    """An RFC 3339 instant as the daemon writes them (``2026-11-01T09:00:00Z``, ``…:00.750Z``)."""
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


class ScenarioSession:
    """One running session of a scenario in a daemon: an isolated Model with its own clock, store and journal.

    Get one from the ``scenario`` fixture, the ``scenario_session`` fixture (with ``@pytest.mark.scenario``) or
    :meth:`ScenariodClient.create_session`. As a context manager it deletes the session when the block ends.

    Calls the daemon refuses raise :class:`ScenariodError` (with the API's ``code``); the ``expect_*`` and
    ``wait_*`` helpers raise ``AssertionError`` with an explanation of what was there instead.
    """

    def __init__(self, client: ScenariodClient, id: str, *, scenario: Optional[str] = None,
                 endpoint: Optional[SessionEndpoint] = None) -> None:
        #: The daemon's client this session's calls go through.
        self.client = client
        #: Its own HTTP listener, when it was opened with ``endpoint=``; None otherwise.
        self.endpoint = endpoint
        #: The session's id (unique in its daemon).
        self.id = id
        #: The scenario it was started from.
        self.scenario = scenario
        #: Its key-value state, as a mapping.
        self.store = KeyValueStore(client, id)
        self._path = f"/v1/sessions/{path_segment(id)}"
        self.deleted = False

    def __repr__(self) -> str:
        return f"ScenarioSession(id={self.id!r}, scenario={self.scenario!r})"

    def __enter__(self) -> ScenarioSession:
        return self

    def __exit__(self, *_: object) -> None:
        self.delete()

    def _call(self, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        return self.client.call(method, self._path + path, *args, **kwargs)

    # The session itself

    def delete(self) -> None:
        """Stops and forgets the session (its event streams end); deleting it twice is harmless."""
        if self.deleted:
            return
        try:
            self._call("DELETE", "")
        except ScenariodError as error:
            if error.code != "unknownSession":
                raise
        self.deleted = True

    def info(self) -> dict[str, Any]:
        """The session as the daemon lists it: scenario, Model, clock, request counts, and ``escapes``: work of the
        Model the session could not see or order (``modelEscaped``), empty when its run was wholly the session's."""
        result: dict[str, Any] = self._call("GET", "")
        return result

    def reset(self) -> dict[str, Any]:
        """Back to the scenario's start (with the session's overrides): seed, clock, routes, journal."""
        result: dict[str, Any] = self._call("POST", "/reset")
        return result

    # The Model

    def perform(self, _action: str, /, **arguments: Any) -> Any:
        """Performs an action with its arguments; returns the Model's state once it has settled.

        ``session.perform("setIsRead", url=url, value=True)``. An unknown action or argument answers
        :class:`ScenariodError` (``unknownAction``, ``unknownField``, ``invalidArguments``).
        """
        __tracebackhide__ = True
        return self._call("POST", f"/actions/{path_segment(_action)}", arguments)

    def state(self) -> Any:
        """The Model's state, as the Model encodes it."""
        __tracebackhide__ = True
        return self._call("GET", "/state")

    # The clock

    def now(self) -> str:
        """The session's clock, as an RFC 3339 instant."""
        now: str = self._call("GET", "/clock")["now"]
        return now

    def advance(self, by: str) -> str:
        """Moves the clock forward (``"2s"``, ``"15m"``, ``"1h30m"``); what falls due has run when this returns.

        Returns the new time.
        """
        __tracebackhide__ = True
        now: str = self._call("POST", "/clock/advance", {"by": by})["now"]
        return now

    def set_clock(self, now: Union[str, datetime]) -> str:
        """Sets the clock to an instant (a ``datetime`` with a zone, or RFC 3339 text); returns the new time."""
        __tracebackhide__ = True
        text = now.isoformat() if isinstance(now, datetime) else now
        result: str = self._call("PUT", "/clock", {"now": text})["now"]
        return result

    # A team's services

    def services(self) -> list[dict[str, Any]]:
        """The daemon's team services, each fake or live in this session."""
        result: list[dict[str, Any]] = self._call("GET", "/services")["services"]
        return result

    def service_state(self, service: str) -> Any:
        """The whole state of a team service's fake."""
        return self._call("GET", f"/services/{path_segment(service)}")

    def set_service_state(self, service: str, state: Any) -> Any:
        """Replaces the whole state of a team service's fake; returns the state stored."""
        __tracebackhide__ = True
        return self._call("PUT", f"/services/{path_segment(service)}", state)

    def patch_service_state(self, service: str, patch: Any) -> Any:
        """Changes part of a team service's fake state with a JSON merge patch (RFC 7396); returns the whole state."""
        __tracebackhide__ = True
        return self._call("PATCH", f"/services/{path_segment(service)}", patch,
                          content_type="application/merge-patch+json")

    # The network

    def set_route(self, name: str, route: Mapping[str, Any]) -> None:
        """Adds route `name` to the running session, or replaces its route of that name.

        Written as in a scenario file's ``network.routes``; ``{"extends": name, "response": {...}}`` changes only
        what it says of the route the session started with. Requests it answers are journaled with
        ``override: true``; a reset undoes it.
        """
        __tracebackhide__ = True
        self._call("PUT", f"/routes/{path_segment(name)}", dict(route))

    def remove_route(self, name: str) -> None:
        """Removes route `name` from the running session; a reset restores it."""
        __tracebackhide__ = True
        self._call("DELETE", f"/routes/{path_segment(name)}")

    def set_network_conditions(self, *, offline: bool = False, fault: Optional[str] = None,
                               delay: Optional[str] = None) -> dict[str, Any]:
        """Switches the session's network, as a browser's developer tools do; returns the conditions now.

        ``offline=True``: every request fails with ``offline``; ``fault="timeout"`` (or ``connectionReset``, …):
        every request fails so; ``delay="2s"``: added to every answer, on the session's clock. No arguments switch
        back to the scenario's network, and so does a reset.
        """
        __tracebackhide__ = True
        body: dict[str, Any] = {}
        if offline:
            body["offline"] = True
        if fault is not None:
            body["fault"] = fault
        if delay is not None:
            body["delay"] = delay
        result: dict[str, Any] = self._call("PUT", "/network/conditions", body)
        return result

    def network_conditions(self) -> dict[str, Any]:
        """What the session's network is switched into (``{"offline": false}`` when it is the scenario's)."""
        result: dict[str, Any] = self._call("GET", "/network/conditions")
        return result

    def send(self, method: str, url: str, *, headers: Union[Mapping[str, str], Sequence[str], None] = None,
             body: Union[str, bytes, None] = None, wait: bool = True) -> dict[str, Any]:
        """Sends one request through the session's network from outside, exactly as its Model's network service
        would (routes, sequences, network conditions, faults, delays), and returns what it got: ``status``,
        ``headers`` (``name: value`` lines) and ``body`` (or ``bodyBase64``), or the transport error as ``fault`` and
        ``message``; with ``sequence`` and the request's ``journal`` entry (its route, or its near misses).

        The Model is not told; the journal marks the request ``outside``, and :meth:`requests` leaves it out. An
        answer that waits on the session's clock is waited for (another client moves the clock), unless
        ``wait=False``: then it comes back with ``pending`` and its ``sequence``, for :meth:`sent`.
        """
        __tracebackhide__ = True
        request: dict[str, Any] = {"method": method, "url": url}
        if headers:
            request["headers"] = [f"{name}: {value}" for name, value in headers.items()] if isinstance(headers, Mapping) else list(headers)
        if isinstance(body, bytes):
            try:
                request["body"] = body.decode("utf-8")
            except UnicodeDecodeError:
                request["bodyBase64"] = base64.b64encode(body).decode("ascii")
        elif body is not None:
            request["body"] = body
        if not wait:
            request["wait"] = False
        result: dict[str, Any] = self._call("POST", "/network/requests", request)
        return result

    def sent(self, sequence: int) -> dict[str, Any]:
        """The answer of a request :meth:`send` sent with ``wait=False``, once the session's clock has delivered it;
        ``{"pending": True, ...}`` until then."""
        __tracebackhide__ = True
        result: dict[str, Any] = self._call("GET", f"/network/requests/{int(sequence)}")
        return result

    # The journal

    def journal(self) -> list[dict[str, Any]]:
        """Every journal entry, oldest first, as the daemon lists them (bounded: the oldest are dropped)."""
        entries: list[dict[str, Any]] = self._call("GET", "/journal")["entries"]
        return entries

    def requests(self) -> list[dict[str, Any]]:
        """The requests the Model made, oldest first: the journal without configuration changes."""
        return [entry for entry in self.journal() if journal.is_request(entry)]

    def unmatched(self) -> list[dict[str, Any]]:
        """The requests that matched no route, each with ``nearMisses``: its closest routes and where they differ."""
        entries: list[dict[str, Any]] = self._call("GET", "/journal/unmatched")["entries"]
        return [entry for entry in entries if journal.is_request(entry)]

    def request_counts(self) -> dict[str, Any]:
        """How many requests each route answered, and how many matched none, counted by the daemon as they
        arrived (exact however many entries the journal dropped): ``{"routes": {...}, "unmatched": n, "live": n}``."""
        result: dict[str, Any] = self._call("GET", "/journal/counts")
        return result

    def near_misses(self) -> list[str]:
        """Why each request that matched no route missed, in the daemon's words: ``#3 GET https://… → matched no
        route`` followed by its closest routes and the first field each differed in (empty when every request
        matched)."""
        return journal.explain_unmatched(self.unmatched())

    def clear_journal(self) -> None:
        """Empties the journal and its counts."""
        self._call("POST", "/journal/clear")

    def expect_request(self, method: str, url: RequestURL, *, body_containing: Any = None,
                       headers: Optional[Mapping[str, str]] = None, ignore_query: bool = False) -> dict[str, Any]:
        """Asserts that the Model made a request; returns its journal entry (the newest that fits).

        `url` is the whole URL, query included, or with ``ignore_query=True`` the URL before its ``?`` (any query
        fits); or a compiled pattern (``re.compile(r"https://api\\.example/items/\\d+(\\?.*)?")``) the whole URL
        must match. ``body_containing`` is a JSON subset the request's body must contain; ``headers`` values the
        request's headers must have (names without case). When none fits, the message shows the closest requests
        and where each first differs, the requests made, and the daemon's near misses for those that matched no
        route.
        """
        __tracebackhide__ = True
        entries = self.requests()
        fitting = [entry for entry in entries
                   if journal.difference(entry, method, url, body_containing, headers, ignore_query) is None]
        if fitting:
            return fitting[-1]
        wanted = f"{method} {journal.shown(url)}" + (" (any query)" if ignore_query and isinstance(url, str) else "")
        if body_containing is not None:
            wanted += f" with a body containing {show(body_containing)}"
        if headers:
            wanted += " with headers " + ", ".join(f"{name}: {value}" for name, value in headers.items())
        lines = [f"session {self.id} made no request {wanted}."]
        closest = journal.closest(entries, method, url, body_containing, headers, ignore_query=ignore_query)
        if closest:
            lines.append("Closest:")
            lines.extend(f"  {line}" for line in closest)
        lines.append("It made:" if entries else "It made no requests.")
        lines.extend(f"  {journal.describe(entry)}" for entry in entries)
        unmatched = [entry for entry in entries if entry.get("nearMisses")]
        if unmatched:
            lines.append("Of those, these matched no route:")
            lines.extend(journal.explain_unmatched(unmatched))
        raise AssertionError("\n".join(lines))

    def expect_requests(self, route: str, times: int) -> None:
        """Asserts that route `route` answered exactly `times` requests since the session started (or was reset,
        or its journal cleared). The daemon counts them as they arrive, so the count is exact however long the
        journal grows. A wrong count lists the requests the route answered; an unknown route, the routes there are.
        """
        __tracebackhide__ = True
        counts = self.request_counts()["routes"]
        if route not in counts:
            raise AssertionError(f"session {self.id}'s scenario has no route '{route}'; "
                                 f"its routes are {', '.join(sorted(counts)) or 'none'}.")
        answered = counts[route]
        if answered == times:
            return
        made = [f"  {journal.describe(entry)}" for entry in self.requests() if entry.get("route") == route]
        plural = "" if answered == 1 else "s"
        raise AssertionError("\n".join([f"route '{route}' of session {self.id} answered {answered} request{plural}, "
                                        f"not {times}" + (":" if made else "."), *made]))

    def expect_no_unmatched_requests(self) -> None:
        """Asserts that every request matched a route; otherwise explains each unmatched one with the daemon's
        near misses: its closest routes and the first field that differed."""
        __tracebackhide__ = True
        unmatched = self.unmatched()
        if unmatched:
            plural = "" if len(unmatched) == 1 else "s"
            raise AssertionError("\n".join([f"session {self.id} made {len(unmatched)} request{plural} that matched no route:",
                                            *journal.explain_unmatched(unmatched)]))

    # History

    def history(self) -> list[dict[str, Any]]:
        """What clients did to the session, step by step: step 0 is its start, then each action (with its
        arguments), clock move, key-value edit, route, network conditions and reset."""
        steps: list[dict[str, Any]] = self._call("GET", "/history")["steps"]
        return steps

    def newest_step(self) -> int:
        """The number of the history's newest step (0 before any change)."""
        step: int = self.history()[-1]["step"]
        return step

    def rewind(self, step: int) -> Any:
        """Returns the session to the moment after `step` (0: its start) by replaying its history from the
        scenario; later steps are forgotten. Returns the Model's state. Refused (``notRewindable``) for a session
        whose answers depend on the live network, the system clock or randomness, or a durable store."""
        __tracebackhide__ = True
        return self._call("POST", "/rewind", {"step": step})

    def save(self, name: str, *, description: Optional[str] = None) -> str:
        """Saves the session as a new scenario `name` that starts where it stands; returns the scenario's name."""
        __tracebackhide__ = True
        body: dict[str, Any] = {"name": name}
        if description is not None:
            body["description"] = description
        scenario: str = self._call("POST", "/save", body)["scenario"]
        return scenario

    def save_recording(self, name: str, *, keep_secrets: bool = False) -> dict[str, Any]:
        """Saves what a recording session sent to the live network as a new scenario `name`."""
        __tracebackhide__ = True
        result: dict[str, Any] = self._call("POST", "/recording", {"name": name, "keepSecrets": keep_secrets})
        return result

    # Events

    def events(self, *, last_event_id: Optional[str] = None, timeout: Optional[float] = None) -> EventStream:
        """The session's event stream, to use in a ``with`` block: ``stateChanged`` first (the state now), then
        every change as it happens, each change ending with ``historyChanged`` (``{"newestStep": N}``).

        ``last_event_id`` resumes after an event seen before. Each read waits at most ``timeout`` seconds
        (default: the client's timeout).
        """
        return EventStream(self.client, self.id, last_event_id=last_event_id, timeout=timeout)

    def events_until(self, until: Union[str, Callable[[Event], bool]], *, last_event_id: Optional[str] = None,
                     timeout: Optional[float] = None) -> list[Event]:
        """Reads the session's events until one is `until` (an event name, such as ``"historyChanged"``, or a
        predicate of the event); returns every event read, that one last.

        Starts with the state now (or after ``last_event_id``, resuming: the events missed come first, or a
        ``gap``). Fails after `timeout` seconds of wall time (default: the client's timeout), naming the events it
        read.
        """
        __tracebackhide__ = True
        fits = (lambda event: event.name == until) if isinstance(until, str) else until
        wanted = f"an event '{until}'" if isinstance(until, str) else "an event that fits"
        limit = self.client.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        read: list[Event] = []
        with self.events(last_event_id=last_event_id, timeout=limit) as stream:
            while True:
                seen = ", ".join(event.name for event in read[-10:]) or "none"
                event = self._next_event(stream, deadline, f"{wanted} (read {len(read)}: the last {seen})")
                read.append(event)
                if fits(event):
                    return read

    def wait_for_step(self, step: int, *, timeout: Optional[float] = None) -> int:
        """Waits until the session's history reaches `step`, whoever makes the changes (another thread, a
        process, a person at the dashboard); returns the newest step then.

        Built on the event stream's ``historyChanged`` (its ``newestStep``), which the daemon sends last for every
        change, so the change's state, clock and journal are all there when this returns. Fails after `timeout`
        seconds of wall time (default: the client's timeout).
        """
        __tracebackhide__ = True
        limit = self.client.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        with self.events(timeout=limit) as stream:
            self._next_event(stream, deadline, f"the history to reach step {step}")  # subscribed from here on
            newest = self.newest_step()
            while newest < step:
                event = self._next_event(stream, deadline, f"the history to reach step {step} (it is at {newest})")
                if event.name == "historyChanged" and isinstance(event.data, dict):
                    newest = int(event.data.get("newestStep", newest))
            return newest

    def wait_for_state(self, match: StateMatch, *, advancing_by: Optional[str] = None, up_to: str = "1h",
                       timeout: Optional[float] = None) -> Any:
        """Waits until the Model's state matches; returns that state.

        `match` is a predicate of the state or a JSON subset it must contain (``{"isLoading": False}``). With
        ``advancing_by`` the session's clock moves forward that much at a time until the state matches, bounded by
        `up_to` of clock time, never by wall time; without it, the wait is for changes someone else makes, for at
        most `timeout` seconds of wall time (default: the client's timeout). Built on the event stream's
        ``stateChanged`` events. The failure names the last state and how it differs.
        """
        __tracebackhide__ = True
        step = duration_seconds(advancing_by) if advancing_by is not None else None
        if step is not None and step <= 0:
            raise ValueError(f"advancing_by must be longer than nothing, not '{advancing_by}'")
        limit = duration_seconds(up_to)
        wall = self.client.timeout if timeout is None else timeout
        deadline = time.monotonic() + wall
        matches = match if callable(match) else (lambda state: first_difference(state, match) is None)
        last: Any = None
        seen = False
        moved = 0.0
        target: Optional[datetime] = None
        with self.events(timeout=wall) as stream:
            while True:
                waiting_for = self._state_wanted(match, last, seen)
                event = self._next_event(stream, deadline, waiting_for)
                if event.name == "stateChanged":
                    last, seen = event.data, True
                    if matches(last):
                        return last
                    if target is not None or step is None:
                        continue
                elif event.name == "clockMoved" and target is not None and isinstance(event.data, dict):
                    # A move's clockMoved comes after the state it produced: only then is the next move made.
                    if instant(str(event.data.get("now"))) < target:
                        continue
                else:
                    continue
                if step is None:
                    continue
                if moved >= limit:
                    raise AssertionError(f"session {self.id}: no state matched within {up_to} of clock time "
                                         f"(moving {advancing_by} at a time): wanted {self._state_wanted(match, last, seen)}")
                moved += step
                target = instant(self.advance(str(advancing_by)))

    def _state_wanted(self, match: StateMatch, last: Any, seen: bool) -> str:
        """What wait_for_state waits for, and how the last state differs from it."""
        if not seen:
            return "a state that matches; none came"
        if callable(match):
            return f"a state that matches; the last was {show(last)}"
        return f"a state that matches; the last differs at {first_difference(last, match)}"

    def _next_event(self, stream: EventStream, deadline: float, waiting_for: str) -> Event:
        __tracebackhide__ = True
        try:
            if time.monotonic() > deadline:
                raise httpx.ReadTimeout("deadline passed")
            return next(stream)
        except httpx.ReadTimeout:
            raise AssertionError(f"session {self.id}: waited {stream.timeout:g} s of wall time for {waiting_for}") from None
        except StopIteration:
            raise AssertionError(f"session {self.id} ended (deleted, or the daemon stopped) while waiting for "
                                 f"{waiting_for}") from None
