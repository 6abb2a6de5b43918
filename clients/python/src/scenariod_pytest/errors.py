"""The two ways a call to scenariod fails: the daemon refused it, or no daemon answered."""
from __future__ import annotations

from typing import Any

import httpx


class ScenariodError(Exception):
    """The daemon refused a call: an HTTP status of 400 or more with the API's JSON error.

    ``code`` is the API's stable machine-readable code (``unknownScenario``, ``invalidArguments``, …; the list is
    in the OpenAPI document's ``Error`` schema), ``message`` its human explanation, ``status`` the HTTP status, and
    ``method`` and ``path`` the call that was refused.
    """

    def __init__(self, method: str, path: str, status: int, code: str, message: str) -> None:
        self.method = method
        self.path = path
        self.status = status
        self.code = code
        self.message = message
        super().__init__(f"{method} {path} → {status} {code}: {message}")

    @classmethod
    def from_response(cls, method: str, path: str, response: httpx.Response) -> ScenariodError:
        """Reads the API's error body; a body that is not one (a proxy's page, a truncated answer) is quoted."""
        body: Any
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and isinstance(body.get("code"), str) and isinstance(body.get("message"), str):
            return cls(method, path, response.status_code, body["code"], body["message"])
        return cls(method, path, response.status_code, "httpError", f"the answer is not an API error: {response.text[:500]!r}")


class ScenariodUnreachable(Exception):
    """No daemon answered on the socket: it is not running, crashed, or did not answer within the timeout."""
