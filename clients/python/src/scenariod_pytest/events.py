"""A session's event stream (GET /v1/sessions/ID/events, server-sent events), read one event at a time."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Optional

import httpx

from .errors import ScenariodError, ScenariodUnreachable
from .wire import path_segment

if TYPE_CHECKING:
    from .client import ScenariodClient


@dataclass(frozen=True)
class Event:
    """One server-sent event.

    ``name`` is its ``event:`` (``stateChanged``, ``requestJournaled``, ``clockMoved``, ``serviceChanged``,
    ``historyChanged``, ``modelEscaped``, ``gap``), ``data`` its JSON data decoded (the text itself when it is not
    JSON), and ``id`` its ``id:`` as sent, which a client gives back as ``last_event_id`` to resume after it.
    """

    name: str
    data: Any
    id: Optional[str] = None


class EventStream:
    """The events of one session, oldest first, as a context manager and an iterator.

    The first event is the session's current state (``stateChanged``), unless ``last_event_id`` resumes after an
    earlier event: then the events missed come first, or a ``gap`` when they are no longer kept. The stream ends
    when the session is deleted. Reading waits at most ``timeout`` seconds for each event, then raises
    ``httpx.ReadTimeout``.
    """

    def __init__(self, client: ScenariodClient, session_id: str, *, last_event_id: Optional[str] = None,
                 timeout: Optional[float] = None) -> None:
        self.client = client
        self.session_id = session_id
        self.last_event_id = last_event_id
        self.timeout = client.timeout if timeout is None else timeout
        self._response: Optional[httpx.Response] = None
        self._opened: Any = None
        self._lines: Optional[Iterator[str]] = None

    def __enter__(self) -> EventStream:
        __tracebackhide__ = True
        path = f"/v1/sessions/{path_segment(self.session_id)}/events"
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        self._opened = self.client.http.stream("GET", path, headers=headers, timeout=httpx.Timeout(self.timeout))
        try:
            response = self._opened.__enter__()
        except httpx.TransportError as error:
            raise ScenariodUnreachable(f"GET {path}: scenariod on {self.client.socket_path} did not answer: {error}") from error
        if response.status_code >= 400:
            response.read()
            self.close()
            raise ScenariodError.from_response("GET", path, response)
        self._response = response
        self._lines = response.iter_lines()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Ends the stream (the daemon frees its place among the session's subscribers)."""
        if self._opened is not None:
            opened, self._opened, self._lines = self._opened, None, None
            opened.__exit__(None, None, None)

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> Event:
        if self._lines is None:
            raise RuntimeError("the event stream is not open: use it in a `with` block")
        name, event_id = "message", None
        data: list[str] = []
        started = time.monotonic()
        for line in self._lines:
            if line == "":
                if data:
                    return Event(name=name, data=_decoded("\n".join(data)), id=event_id)
                name, event_id = "message", None
                continue
            if line.startswith(":"):
                # A comment: the daemon's heartbeat, sent while nothing happens, so a read never times out by
                # itself; the wait for an event is bounded here instead.
                if time.monotonic() - started > self.timeout:
                    raise httpx.ReadTimeout(f"no event within {self.timeout:g} s (only the daemon's heartbeat)")
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                event_id = value
        raise StopIteration


def _decoded(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
