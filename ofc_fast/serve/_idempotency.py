"""The ``Idempotency-Key`` request header (as payment APIs take it): a request that
changes state (``POST /v1/games``, a game's ``/moves`` and ``/next``) sent again with
the same key by the same client gets the first one's answer instead of being done
twice, so a client whose answer never came (its wait ran out, the connection broke)
can send it again safely.  The key is the client's: 1 to :data:`MAX_KEY` printable
ASCII characters (400 naming the header otherwise); the same key with another request
is a 422, and a new game's key while its first request still runs a 409 (a game's
requests wait for each other: a move sent again gets the first's answer).  Only
answers given (200) are kept; a refusal changes nothing, so the same request sent
again is judged again.

>>> replies = Replies(size=2)
>>> k = keyed([(b"idempotency-key", b"a1")], "10.0.0.1", "/v1/games", {"seed": 1})
>>> replies.once(k, lambda: {"id": "x"}), replies.once(k, lambda: {"id": "y"})
({'id': 'x'}, {'id': 'x'})
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ._problems import ApiError

__all__ = ["HEADER", "MAX_KEY", "RUNNING_RETRY", "Keyed", "Replies", "keyed"]

HEADER = "Idempotency-Key"
MAX_KEY = 255
"""The longest key taken, in characters."""
RUNNING_RETRY = 1
"""The seconds of ``Retry-After`` on the 409 for a key whose request still runs."""
_KEY = re.compile(rb"[\x20-\x7e]+")
_NAME = HEADER.lower().encode()  # as ASGI gives header names


@dataclass(frozen=True)
class Keyed:
    """A request sent with a key: its ``client`` (the keys are each client's own),
    the ``key`` and ``digest``, what the request asks (its operation and body)."""

    client: str
    key: str
    digest: str

    @property
    def name(self) -> tuple[str, str]:
        """What the answer is remembered by: the client's key."""
        return self.client, self.key


def keyed(
    headers: Iterable[tuple[bytes, bytes]],
    client: str,
    operation: str,
    body: Any,
) -> Keyed | None:
    r"""The request's key (None: it sent none), else 400 naming the header: one header,
    1 to :data:`MAX_KEY` printable ASCII characters.  ``operation``: the path template
    (``/v1/games/{id}/moves``) and ``body`` the parsed body, whose canonical JSON
    (keys sorted, ``4.0`` read as ``4``) tells a request sent again from another.

    >>> keyed([(b"idempotency-key", b"\x01")], "-", "/v1/games", {})
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: Idempotency-Key must be 1 to 255 printable ASCII characters
    """
    values = [v for k, v in headers if k.lower() == _NAME]
    if not values:
        return None
    value = values[0].strip(b" \t")
    if len(values) > 1:
        raise ApiError(400, HEADER, f"give one {HEADER} header, got {len(values)}")
    if len(value) > MAX_KEY or not _KEY.fullmatch(value):
        raise ApiError(
            400, HEADER, f"{HEADER} must be 1 to {MAX_KEY} printable ASCII characters"
        )
    try:
        text = json.dumps([operation, body], sort_keys=True, separators=(",", ":"))
    except RecursionError:  # read deeper in the stack than here, just within its limit
        raise ApiError(400, None, "the body nests too deeply") from None
    return Keyed(client, value.decode("ascii"), hashlib.sha256(text.encode()).hexdigest())


_RUNNING: Any = None  # an answer not given yet: its request still runs


class Replies:
    """The answers of keyed requests, by client and key: at most ``size`` (None: no
    bound of its own; the caller drops each with what it answered), the oldest
    forgotten first."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], tuple[str, dict[str, Any] | None]] = (
            OrderedDict()
        )

    def __len__(self) -> int:
        return len(self._items)

    def find(self, k: Keyed) -> dict[str, Any] | None:
        """The answer given to ``k``'s key (None: none kept): 422 where the key came
        with another request, 409 where its request still runs."""
        entry = self._items.get(k.name)
        if entry is None:
            return None
        digest, answer = entry
        if digest != k.digest:
            raise ApiError(
                422,
                HEADER,
                f"this {HEADER} came with another request: a new request takes a new key",
            )
        if answer is _RUNNING:
            raise ApiError(
                409,
                HEADER,
                f"the request of this {HEADER} is still running: retry",
                headers={"retry-after": str(RUNNING_RETRY)},
            )
        return answer

    def keep(self, k: Keyed, answer: dict[str, Any] | None = _RUNNING) -> None:
        """Remember ``answer`` for ``k`` (by default: its request runs)."""
        self._items[k.name] = (k.digest, answer)
        self._items.move_to_end(k.name)
        while self.size is not None and len(self._items) > self.size:
            self._items.popitem(last=False)

    def forget(self, k: Keyed) -> None:
        """Drop what is kept for ``k`` (a game dropped, a request refused)."""
        self._items.pop(k.name, None)

    def once(self, k: Keyed | None, answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The answer kept for ``k``, else ``answer()``, kept for ``k`` (None: no key,
        nothing kept).  The caller runs requests of these replies one at a time."""
        if k is None:
            return answer()
        found = self.find(k)
        if found is None:
            found = answer()
            self.keep(k, found)
        return found
