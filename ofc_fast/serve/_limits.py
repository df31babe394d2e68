"""What bounds a client: the API key (compared in constant time), the request body's
size, and the concurrency limit (computations on a thread pool, a bounded queue in
front of it, 503 with ``Retry-After`` beyond).

>>> key_ok(b"Bearer s3cret-key", "s3cret-key"), key_ok(b"Bearer nope", "s3cret-key")
(True, False)
>>> key_ok(b"bearer s3cret-key", "s3cret-key"), key_ok(b"Basic s3cret-key", "s3cret-key")
(True, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ._problems import ApiError

__all__ = ["Limiter", "key_ok", "read_body"]

_T = TypeVar("_T")


def key_ok(authorization: bytes | None, key: str) -> bool:
    """True when an ``Authorization`` header carries ``Bearer <key>``: the scheme in
    any case, then one or more spaces (RFC 9110, 11.4); the key's comparison takes the
    same time wherever the first difference is."""
    scheme, _, token = (authorization or b"").partition(b" ")
    right = hmac.compare_digest(token.lstrip(b" "), key.encode("utf-8"))
    return scheme.lower() == b"bearer" and right


async def read_body(
    receive: Callable[[], Awaitable[dict[str, Any]]], limit: int, declared: int | None
) -> bytes:
    """The request body, at most ``limit`` bytes (413 as soon as the declared length or
    the bytes received go beyond: the rest is never buffered)."""
    if declared is not None and declared > limit:
        raise ApiError(413, None, f"the body has {declared} bytes, at most {limit}")
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ApiError(400, None, "the client went away")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise ApiError(413, None, f"the body has more than {limit} bytes")
        parts.append(chunk)
        if not message.get("more_body"):
            return b"".join(parts)


class Limiter:
    """Runs computations on ``workers`` threads, off the event loop; at most ``queue``
    more wait, for a thread or for their game (``turn``), and a request beyond that
    gets 503 with ``Retry-After``."""

    def __init__(self, workers: int, queue: int, retry_after: int = 1) -> None:
        self.workers = workers
        self.queue = queue
        self.retry_after = retry_after
        self.pending = 0  # running + waiting (for a thread or a game)
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="ofc-serve")
        self._slots: asyncio.Semaphore | None = None

    async def run(
        self, fn: Callable[..., _T], *args: Any, turn: asyncio.Lock | None = None
    ) -> _T:
        """``fn(*args)`` on a worker thread, once one is free and, where ``turn`` is
        given (a game's: its requests are served one at a time), once ``turn`` is
        taken: the request waits for its game without holding a thread, and counts
        in the queue while it waits."""
        if self.pending >= self.workers + self.queue:
            raise ApiError(
                503,
                None,
                f"{self.workers} computations running and {self.queue} waiting: retry",
                headers={"retry-after": str(self.retry_after)},
            )
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        self.pending += 1
        try:
            game = turn if turn is not None else contextlib.nullcontext()
            async with game, self._slots:  # the game first: no thread held meanwhile
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self.executor, fn, *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        """Finish the running computations, drop the waiting ones."""
        self.executor.shutdown(wait=True, cancel_futures=True)
