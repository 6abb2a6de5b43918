"""JSON subsets, as the daemon's body matchers and ScenarioTesting read them, and where a value first differs."""
from __future__ import annotations

import json
from typing import Any, Optional


def _pointer(parent: str, token: object) -> str:
    """Appends one JSON pointer token (RFC 6901: `~` is `~0`, `/` is `~1`)."""
    return parent + "/" + str(token).replace("~", "~0").replace("/", "~1")


def show(value: Any) -> str:
    """A value as compact JSON, for messages."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def first_difference(actual: Any, expected: Any, at: str = "") -> Optional[str]:
    """Where `actual` first fails to contain `expected`, as ``/pointer: expected X, got Y``; None when it contains it.

    Objects contain the members they are given (others may be there too); arrays must have the same length and
    contain element by element; numbers compare by value (1 and 1.0 are equal); anything else must be equal, and a
    boolean is never a number.
    """
    where = at or "the value"
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {show(actual)}"
        for key, value in expected.items():
            if key not in actual:
                return f"{_pointer(at, key)}: expected {show(value)}, got nothing (no such member)"
            difference = first_difference(actual[key], value, _pointer(at, key))
            if difference:
                return difference
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{where}: expected an array, got {show(actual)}"
        if len(actual) != len(expected):
            return f"{where}: expected {len(expected)} elements, got {len(actual)}: {show(actual)}"
        for index, (element, pattern) in enumerate(zip(actual, expected)):
            difference = first_difference(element, pattern, _pointer(at, index))
            if difference:
                return difference
        return None
    if _is_number(expected) and _is_number(actual):
        return None if actual == expected else f"{where}: expected {show(expected)}, got {show(actual)}"
    if type(actual) is type(expected) and actual == expected:
        return None
    return f"{where}: expected {show(expected)}, got {show(actual)}"


def contains(actual: Any, expected: Any) -> bool:
    """Whether `actual` contains `expected` as a JSON subset (see :func:`first_difference`)."""
    return first_difference(actual, expected) is None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
