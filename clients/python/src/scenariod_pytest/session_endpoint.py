"""A session's endpoint: its own HTTP listener, through which an app the daemon does not host reaches the session's
network."""
from __future__ import annotations

from typing import Any, Mapping, Optional


class SessionEndpoint:
    """Where a session's endpoint listens, and what its clients give it.

    Point the app under test at :attr:`url` (with :attr:`headers`), or use it as a proxy (:attr:`proxy`, or
    :attr:`proxies` for ``requests``); every request it makes is answered by the session's routes and journaled with
    ``outside`` true.
    """

    def __init__(self, body: Mapping[str, Any]) -> None:
        #: ``http://127.0.0.1:PORT``, or ``http://localhost`` for a Unix socket endpoint.
        self.url: str = body["url"]
        #: The Unix socket's path; None for a loopback endpoint.
        self.socket: Optional[str] = body.get("socket")
        #: The loopback port; None for a Unix socket endpoint.
        self.port: Optional[int] = body.get("port")
        #: The token a loopback endpoint asks for; None when it asks for none.
        self.token: Optional[str] = body.get("token")
        #: The endpoint as a proxy URL with the token as its password (``http_proxy``, ``curl -x``).
        self.proxy: Optional[str] = body.get("proxy")
        #: The origin a request to the endpoint's own address stands for, when one was given.
        self.origin: Optional[str] = body.get("origin")

    def __repr__(self) -> str:
        return f"SessionEndpoint(url={self.url!r}, socket={self.socket!r})"

    @property
    def headers(self) -> dict[str, str]:
        """The header that carries the token (empty when the endpoint asks for none): ``httpx.Client(base_url=
        endpoint.url, headers=endpoint.headers)``."""
        return {"Scenario-Token": self.token} if self.token else {}

    @property
    def proxies(self) -> dict[str, str]:
        """``requests``' proxies for plain-HTTP URLs: ``requests.get("http://api.example.com/items",
        proxies=endpoint.proxies)`` reaches the route for ``https://api.example.com/items``."""
        return {"http": self.proxy} if self.proxy else {}
