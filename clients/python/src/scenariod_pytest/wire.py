"""How values travel to the daemon: path parameters, and the marker for a call without a body."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

#: A call's body when it has none (JSON null is a body of its own: a key's value may be null).
NO_BODY: Any = object()


def path_segment(text: str) -> str:
    """Percent-encodes one path parameter, `/` and `.` too, so a key such as `a/../b` stays one segment.

    The daemon percent-decodes path parameters; an unencoded `..` would be folded away by URL normalisation.
    """
    return quote(text, safe="").replace(".", "%2E")
