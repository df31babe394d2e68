"""What bounds a client: the API key (compared in constant time), the request body's
size and the time it takes to arrive, and the concurrency limit (computations on a
thread pool, a bounded queue in front of it, 503 with ``Retry-After`` beyond).

>>> key_ok(b"Bearer s3cret-key", "s3cret-key"), key_ok(b"Bearer nope", "s3cret-key")
(True, False)
>>> key_ok(b"bearer s3cret-key", "s3cret-key"), key_ok(b"Basic s3cret-key", "s3cret-key")
(True, False)
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

from ._problems import ApiError

__all__ = [
    "BODY_RATE",
    "BODY_SECONDS",
    "IDENTITY",
    "BodyWatch",
    "Limiter",
    "PerLoop",
    "body_seconds",
    "key_ok",
    "key_refusal",
    "read_body",
]

IDENTITY = "identity"
"""The one ``Content-Encoding`` a body is read in (a 415 for any other says so in
``Accept-Encoding``)."""

BODY_SECONDS = 30.0
"""The seconds a request body is given to arrive from the end of its headers, whatever
its size, before :data:`BODY_RATE`'s for the largest body the server takes
(:func:`body_seconds`; a 408 beyond, the connection closed): a client sending a byte a
second held its connection, one of the server's limited number, for as long as it
liked (1 MiB: 12 days)."""

BODY_RATE = 16 * 1024
"""The slowest upload, bytes a second, that still sends the server's largest body in
time (128 kbit/s: a weak mobile uplink): 1 MiB, the default, is given 30 + 64 s; a
``--max-body`` of 100 MiB, 30 + 6,400 s."""

_T = TypeVar("_T")


def body_seconds(max_body: int) -> float:
    """The seconds a request body is given to arrive where the server takes bodies of
    ``max_body`` bytes at most: :data:`BODY_SECONDS` plus ``max_body`` at
    :data:`BODY_RATE`.

    >>> body_seconds(1 << 20)
    94.0
    """
    return BODY_SECONDS + max_body / BODY_RATE


async def _before(awaitable: Awaitable[_T], deadline: float) -> _T:
    """What ``awaitable`` gives, or asyncio.TimeoutError once ``time.monotonic()`` has
    passed ``deadline``: on Python 3.11+ one timer on the loop (``asyncio.timeout_at``),
    where ``asyncio.wait_for`` made a Task of each message (some 27 us against 0.5 a
    request's body)."""
    if sys.version_info >= (3, 11):
        loop = asyncio.get_running_loop()
        async with asyncio.timeout_at(loop.time() + (deadline - time.monotonic())):
            return await awaitable
    return await asyncio.wait_for(awaitable, deadline - time.monotonic())


def key_ok(authorization: bytes | None, key: str) -> bool:
    """True when an ``Authorization`` header carries ``Bearer <key>``: the scheme in
    any case, then one or more spaces (RFC 9110, 11.4); the key's comparison takes the
    same time wherever the first difference is."""
    return key_refusal(authorization, key) is None


def key_refusal(authorization: bytes | None, key: str) -> str | None:
    """What is wrong with an ``Authorization`` header for ``key`` (a 401's detail),
    or None where it carries ``Bearer <key>`` (:func:`key_ok`): no header, another
    scheme (a key sent bare among them), or a token that is not the key.  It never
    quotes the header, which may hold the key.

    >>> key_refusal(None, "s3cret-key")
    "no API key: send the header 'Authorization: Bearer KEY'"
    >>> key_refusal(b"s3cret-key", "s3cret-key")
    "the Authorization header is not of the Bearer scheme: send 'Bearer KEY'"
    >>> key_refusal(b"Bearer nope", "s3cret-key")
    "the bearer token is not the server's API key"
    """
    if authorization is None or not authorization.strip(b" \t"):
        return "no API key: send the header 'Authorization: Bearer KEY'"
    scheme, _, token = authorization.partition(b" ")
    right = hmac.compare_digest(token.lstrip(b" "), key.encode("utf-8"))
    if scheme.lower() != b"bearer":
        return "the Authorization header is not of the Bearer scheme: send 'Bearer KEY'"
    return None if right else "the bearer token is not the server's API key"


async def read_body(
    receive: Callable[[], Awaitable[dict[str, Any]]],
    limit: int,
    declared: int | None,
    deadline: float,
    seconds: float,
) -> bytes:
    """The request body, at most ``limit`` bytes (413 as soon as the declared length or
    the bytes received go beyond: the rest is never buffered), all of it by
    ``deadline`` (``time.monotonic()``'s: :attr:`BodyWatch.deadline`, ``seconds`` after
    the headers; 408 once it has passed: a client that sends it a byte at a time
    holds its connection no longer)."""
    if declared is not None and declared > limit:
        raise ApiError(413, None, f"the body has {declared} bytes, at most {limit}")
    parts: list[bytes] = []
    size = 0
    while True:
        try:
            message = await _before(receive(), deadline)
        except asyncio.TimeoutError:
            raise ApiError(
                408,
                None,
                f"the body did not arrive within {seconds:g} s ({size} bytes "
                "came): send it at once",
            ) from None
        if message["type"] == "http.disconnect":
            raise ApiError(400, None, "the client went away")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise ApiError(413, None, f"the body has more than {limit} bytes")
        parts.append(chunk)
        if not message.get("more_body"):
            return b"".join(parts)


class BodyWatch:
    """A request's ``receive`` and ``send`` (ASGI), watching its body, which must
    arrive by ``deadline`` (``seconds`` from the headers: :func:`body_seconds`): a
    response sent
    before the client has sent all of it (a refusal before the body is read, or of
    the body itself: 413; a GET's, which reads none) first reads and drops the rest
    till then, so that a client that sends its whole body before it reads the answer
    reads it (not a broken pipe), then, the rest still unsent (a 408), says
    ``Connection: close``, and the server closes the connection once it is sent.
    Kept open, the server read and dropped the rest for as long as the client sent
    it (100 MB declared, a byte a second: for ever).

    >>> scope = {"headers": [(b"content-length", b"5")]}
    >>> BodyWatch(scope, None, None, 94).unread, BodyWatch({"headers": []}, None, None, 94).unread
    (True, False)
    """

    def __init__(
        self, scope: dict[str, Any], receive: Any, send: Any, seconds: float
    ) -> None:
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"0").strip()
        self.unread = length.lstrip(b"0") != b"" or b"transfer-encoding" in headers
        self._receive = receive
        self._send = send
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    async def receive(self) -> dict[str, Any]:
        """The next ASGI message of the request (its body read to the end: ``unread``
        no longer)."""
        message: dict[str, Any] = await self._receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            self.unread = False
        return message

    async def send(self, message: dict[str, Any]) -> None:
        """Send an ASGI message of the response, ``Connection: close`` added to its
        start where the body is not all read."""
        if message["type"] == "http.response.start" and self.unread:
            await self._drop_rest()
        if message["type"] == "http.response.start" and self.unread:
            closing = (b"connection", b"close")  # (RFC 9112, 9.6)
            message = {**message, "headers": [*message["headers"], closing]}
        await self._send(message)

    async def _drop_rest(self) -> None:
        """Read and drop the rest of the body, till it ends or ``deadline`` passes."""
        while self.unread and self.deadline > time.monotonic():
            try:
                await _before(self.receive(), self.deadline)
            except asyncio.TimeoutError:
                return


class PerLoop(Generic[_T]):
    """An asyncio lock or semaphore (``make()``) of the event loop running now: one
    is bound to the loop it first waited in, so an app served again in another loop
    (a lifespan after a shutdown: a server started again, a test's next client) gets
    one made anew there, never the old loop's (a RuntimeError, a 500, under load).

    >>> turn = PerLoop(asyncio.Lock)
    >>> async def same() -> bool: return turn.get() is turn.get()
    >>> asyncio.run(same()), asyncio.run(same())
    (True, True)
    """

    def __init__(self, make: Callable[[], _T]) -> None:
        self._make = make
        self._made: tuple[asyncio.AbstractEventLoop, _T] | None = None

    def get(self) -> _T:
        """The one of the running loop (made on its first call in that loop)."""
        loop = asyncio.get_running_loop()
        if self._made is None or self._made[0] is not loop:
            self._made = (loop, self._make())
        return self._made[1]


class Limiter:
    """Runs computations on ``workers`` threads, off the event loop; at most ``queue``
    more wait, for a thread or for their game (``turn``), and a request beyond that
    gets 503 with ``Retry-After``.  A request whose client goes away while it waits is
    dropped, never run for nobody."""

    def __init__(self, workers: int, queue: int, retry_after: int = 1) -> None:
        self.workers = workers
        self.queue = queue
        self.retry_after = retry_after
        self.pending = 0  # running + waiting (for a thread or a game)
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="ofc-serve")
        self._slots = PerLoop(functools.partial(asyncio.Semaphore, workers))
        self._closed = False

    async def run(
        self,
        fn: Callable[..., _T],
        *args: Any,
        turn: asyncio.Lock | None = None,
        gone: Callable[[], Awaitable[object]] | None = None,
        stop: threading.Event | None = None,
    ) -> _T:
        """``fn(*args)`` on a worker thread, once one is free and, where ``turn`` is
        given (a game's: its requests are served one at a time), once ``turn`` is
        taken: the request waits for its game without holding a thread, and counts
        in the queue while it waits.  ``gone()``: done once the client has gone
        away; if it is done first, the request leaves the queue (400, which nobody reads)
        and ``fn`` never runs.  ``stop``: an event ``fn`` watches (an analysis: between
        its batches of samples), set where ``gone()`` is done while ``fn`` runs, so
        that it ends early and frees its thread (its answer goes to nobody)."""
        if self.pending >= self.workers + self.queue:
            from ..errors import counted  # (a count of one in the singular)

            running = counted(self.workers, "computation")
            raise ApiError(
                503,
                None,
                f"{running} running and {self.queue} waiting: retry",
                headers={"retry-after": str(self.retry_after)},
            )
        self.pending += 1
        try:
            if not await self._take(turn, gone):
                raise ApiError(400, None, "the client went away")
            try:
                work = self._submit(fn, *args)
                if stop is not None and gone is not None:
                    await _stop_when(work, gone, stop)
                return await work
            finally:
                self._release(turn)
        finally:
            self.pending -= 1

    def _submit(self, fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        """``fn(*args)`` started on a worker thread; 503 with ``Retry-After`` where the
        limiter is closed (the app's lifespan shut down, not started again): its
        threads are gone (a RuntimeError there, which was answered 500)."""
        if self._closed:
            raise ApiError(
                503,
                None,
                "the server is shutting down (its lifespan ended): retry",
                headers={"retry-after": str(self.retry_after)},
            )
        return asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def _acquire(self, turn: asyncio.Lock | None) -> None:
        """The game's ``turn`` first, then a thread's slot: no thread held meanwhile."""
        if turn is not None:
            await turn.acquire()
        try:
            await self._slots.get().acquire()
        except BaseException:
            if turn is not None:
                turn.release()
            raise

    def _release(self, turn: asyncio.Lock | None) -> None:
        self._slots.get().release()
        if turn is not None:
            turn.release()

    async def _take(
        self, turn: asyncio.Lock | None, gone: Callable[[], Awaitable[object]] | None
    ) -> bool:
        """True once the request holds its ``turn`` and a slot; False, holding
        neither, where ``gone()`` is done first."""
        taking = asyncio.ensure_future(self._acquire(turn))
        watch = None if gone is None else asyncio.ensure_future(gone())
        try:
            await asyncio.wait(
                [t for t in (taking, watch) if t is not None],
                return_when=asyncio.FIRST_COMPLETED,
            )
        except BaseException:  # the request itself cancelled (the server stopping)
            taking.cancel()
            await asyncio.wait([taking])
            if not taking.cancelled() and taking.exception() is None:
                self._release(turn)
            raise
        finally:
            if watch is not None:
                _let_go(watch)
        if not taking.done():
            taking.cancel()  # _acquire gives back what it took
            await asyncio.wait([taking])
        if taking.cancelled():
            return False
        taking.result()
        return True

    def open(self) -> None:
        """Serve again after :meth:`close` (an ASGI lifespan's startup: an app whose
        server stopped, served again, as a test's client does for each test): new
        worker threads (the event loop that serves now has its own slots:
        :class:`PerLoop`).

        >>> limiter = Limiter(1, 0)
        >>> limiter.close(); limiter.open()
        >>> limiter.executor.submit(sum, [1, 2]).result()
        3
        """
        if self._closed:
            self.executor = ThreadPoolExecutor(self.workers, thread_name_prefix="ofc-serve")
            self._closed = False

    def close(self) -> None:
        """Finish the running computations, drop the waiting ones."""
        self._closed = True
        self.executor.shutdown(wait=True, cancel_futures=True)


async def _stop_when(
    work: asyncio.Future[Any], gone: Callable[[], Awaitable[object]], stop: threading.Event
) -> None:
    """Returns once ``work`` is done; sets ``stop`` where ``gone()`` is done first (the
    client went away) or the request is cancelled (the server stopping)."""
    watch = asyncio.ensure_future(gone())
    try:
        await asyncio.wait([work, watch], return_when=asyncio.FIRST_COMPLETED)
        if not work.done():
            stop.set()
            await asyncio.wait([work])
    except BaseException:
        stop.set()
        raise
    finally:
        _let_go(watch)


def _let_go(watch: asyncio.Future[Any]) -> None:
    """Drop a watch on the client: cancelled if still waiting, its failure read if
    it failed (a receive that failed: the client is gone too)."""
    if not watch.cancel() and not watch.cancelled():
        watch.exception()
