"""Reading the journal for people: which entries are requests, how one is written, why one is not the one wanted."""
from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Pattern, Sequence, Union

from .matching import first_difference, show

Entry = Mapping[str, Any]
#: A URL as an expectation gives it: the exact URL, or a compiled pattern the whole URL must match.
URL = Union[str, Pattern[str]]


def url_fits(actual: str, url: URL, ignore_query: bool = False) -> bool:
    """Whether a journaled URL is the one wanted: equal (to the part before ``?`` with `ignore_query`), or, for a
    pattern, wholly matched by it."""
    if isinstance(url, str):
        return (actual.split("?", 1)[0] if ignore_query else actual) == url
    return url.fullmatch(actual) is not None


def shown(url: URL) -> str:
    """A URL or pattern as a message shows it."""
    return url if isinstance(url, str) else f"matching /{url.pattern}/"


def is_request(entry: Entry) -> bool:
    """Whether a journal entry is a request the Model made.

    Read defensively, so the same code works whichever daemon answers: an entry with a ``kind`` other than
    ``request``, or a network-conditions switch (``url`` ``network:conditions``), is a configuration change, not a
    request; one the test sent itself (``outside``, :meth:`ScenarioSession.send`) is not the Model's.
    """
    if entry.get("outside"):
        return False
    kind = entry.get("kind")
    if kind is not None and kind != "request":
        return False
    return not str(entry.get("url", "")).startswith("network:")


def describe(entry: Entry) -> str:
    """``#3 POST https://… → 201 {"user":"alice"}``: one line per entry, saying what answered it."""
    answer = entry.get("status", entry.get("fault", entry.get("outcome")))
    if "route" in entry or entry.get("live") or "service" in entry:
        outcome = "" if answer is None else f" → {answer}"
    elif entry.get("condition"):
        outcome = f" → {answer} (network conditions: {entry['condition']})"
    else:
        outcome = " → matched no route" + ("" if answer is None else f" ({answer})")
    body = f" {entry['body']}" if entry.get("body") else ""
    return f"#{entry.get('sequence', '?')} {entry.get('method', '?')} {entry.get('url', '?')}{outcome}{body}"


def near_misses(entry: Entry) -> list[str]:
    """The daemon's explanation of an unmatched request: each closest route and the first field that differed."""
    return [f"closest route '{miss.get('route')}' differs in {miss.get('field')}: "
            f"expected {miss.get('expected')}, got {miss.get('actual')}" for miss in entry.get("nearMisses", [])]


def explain_unmatched(entries: Sequence[Entry]) -> list[str]:
    """Lines explaining each unmatched request, its near misses indented under it."""
    lines = []
    for entry in entries:
        misses = near_misses(entry)
        lines.append(f"  {describe(entry)}" + ("" if misses else " (no route came close)"))
        lines.extend(f"    {miss}" for miss in misses)
    return lines


def header_value(entry: Entry, name: str) -> Optional[str]:
    """A request header's value (names compare without case); the journal lists headers as ``Name: value``."""
    for header in entry.get("headers", []):
        header_name, _, value = str(header).partition(":")
        if header_name.strip().lower() == name.lower():
            return value.strip()
    return None


def difference(entry: Entry, method: str, url: URL, body_containing: Any = None,
               headers: Optional[Mapping[str, str]] = None, ignore_query: bool = False) -> Optional[str]:
    """How a request differs from the one wanted, as ``/pointer: expected X, got Y``; None when it is the one.

    Pointers name the request's parts: ``/method``, ``/url``, ``/headers/NAME`` and ``/body/...``.
    """
    if entry.get("method") != method:
        return f"/method: expected {method}, got {entry.get('method')}"
    if not url_fits(str(entry.get("url")), url, ignore_query):
        ignoring = " (its query ignored)" if ignore_query and isinstance(url, str) else ""
        return f"/url: expected {shown(url)}{ignoring}, got {entry.get('url')}"
    for name, value in (headers or {}).items():
        actual = header_value(entry, name)
        if actual != value:
            got = "no such header" if actual is None else actual
            return f"/headers/{name.lower()}: expected {value}, got {got}"
    if body_containing is not None:
        text = entry.get("body")
        if text is None:
            return f"/body: expected {show(body_containing)}, got no body"
        try:
            body = json.loads(text)
        except ValueError:
            return f"/body: expected JSON containing {show(body_containing)}, got {text!r}"
        body_difference = first_difference(body, body_containing, "/body")
        if body_difference:
            return body_difference
    return None


def closest(entries: Sequence[Entry], method: str, url: URL, body_containing: Any = None,
            headers: Optional[Mapping[str, str]] = None, limit: int = 3, ignore_query: bool = False) -> list[str]:
    """The requests that came closest to the one wanted, each with where it first differs.

    A request of the same method and URL is closer than one of the same URL, which is closer than one of the same
    method; among equals, the newest first.
    """
    def closeness(entry: Entry) -> int:
        return (2 if url_fits(str(entry.get("url")), url, ignore_query) else 0) + (1 if entry.get("method") == method else 0)
    candidates = [entry for entry in reversed(entries) if closeness(entry) > 0]
    candidates.sort(key=closeness, reverse=True)
    return [f"{describe(entry)}\n      differs in {difference(entry, method, url, body_containing, headers, ignore_query)}"
            for entry in candidates[:limit]]
