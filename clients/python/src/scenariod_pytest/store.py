"""A session's key-value state as a Python mapping (GET, PUT and DELETE /v1/sessions/ID/kv/KEY)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, MutableMapping

from .errors import ScenariodError
from .wire import path_segment

if TYPE_CHECKING:
    from .client import ScenariodClient


class KeyValueStore(MutableMapping[str, Any]):
    """The key-value state the session's Model reads and writes, live: ``store["session"]``,
    ``store["session"] = {...}``, ``del store["session"]``, ``list(store)``.

    Each edit is a step of the session's history (setKeyValue, removeKeyValue) that a rewind replays. A key the
    store does not have raises ``KeyError``; values are any JSON.
    """

    def __init__(self, client: ScenariodClient, session_id: str) -> None:
        self._client = client
        self._path = f"/v1/sessions/{path_segment(session_id)}/kv"

    def __getitem__(self, key: str) -> Any:
        __tracebackhide__ = True
        try:
            return self._client.call("GET", f"{self._path}/{path_segment(key)}")
        except ScenariodError as error:
            if error.code == "unknownKey":
                raise KeyError(key) from None
            raise

    def __setitem__(self, key: str, value: Any) -> None:
        __tracebackhide__ = True
        self.put(key, value)

    def put(self, key: str, value: Any) -> Any:
        """Sets `key` to `value` and returns the value stored."""
        __tracebackhide__ = True
        return self._client.call("PUT", f"{self._path}/{path_segment(key)}", value)

    def __delitem__(self, key: str) -> None:
        __tracebackhide__ = True
        try:
            self._client.call("DELETE", f"{self._path}/{path_segment(key)}")
        except ScenariodError as error:
            if error.code == "unknownKey":
                raise KeyError(key) from None
            raise

    def keys_now(self) -> list[str]:
        """The keys, sorted, as one call (GET …/kv)."""
        keys: list[str] = self._client.call("GET", self._path)["keys"]
        return keys

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_now())

    def __len__(self) -> int:
        return len(self.keys_now())

    def __repr__(self) -> str:
        return f"KeyValueStore({self._path})"
