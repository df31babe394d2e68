"""The ASGI application: a small router of its own over plain ASGI (measured about
twice as fast as the same routes on Starlette, docs/serve.md), serving the JSON API
under ``/v1``, ``/openapi.json`` and the web app's static files.

Cheap endpoints (``score``, ``evaluate``, ``health``) answer on the event loop;
everything that searches, solves or lets the bots move runs on the
:class:`~ofc_fast.serve._limits.Limiter`'s threads.  Every refusal is a problem
document (``ofc_fast.serve._problems``); an access-log line goes to the
``ofc_fast.serve.access`` logger per request.

>>> app = create_app()
>>> callable(app), app.config.host
(True, '127.0.0.1')
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .. import __version__
from ..arena import LongInteger, ManyDigits, json_integer, json_number, reject_constant
from ..errors import RulesError
from ..rules import unique_keys
from ..table import SEED_MAX
from ._config import ServeConfig, checked_config, host_allowed, host_names
from ._fields import check_known, check_query, given
from ._headers import check_charset, check_coding, check_media_type
from ._idempotency import Keyed, keyed
from ._limits import BodyWatch, Limiter, body_seconds, key_refusal, read_body
from ._problems import ApiError, page
from ._replay import replay
from ._routes import analyze, arrange, evaluate, fantasyland, score
from ._schemas import GAME_ID, OPERATIONS, openapi, request_fields
from ._sessions import SessionStore
from ._target import Target, target

__all__ = ["App", "create_app"]

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Handler = Callable[..., dict[str, Any]]

ACCESS_LOG = logging.getLogger("ofc_fast.serve.access")
_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}
_SECURITY = [
    (b"x-content-type-options", b"nosniff"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
        b"base-uri 'none'; form-action 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
]
_GAME = re.compile(rf"^/v1/games/({GAME_ID})(/moves|/next)?$")


@dataclass(frozen=True)
class _Route:
    method: str
    handler: Handler
    pooled: bool  # runs on the limiter's threads
    fields: frozenset[str] | None = None  # the body's (None: no body read)
    turn: asyncio.Lock | None = None  # taken before a thread: a game's, one at a time
    caller: bool = False  # the handler takes the caller (:func:`_caller`) last
    template: str = ""  # the operation's path in /openapi.json
    idempotent: bool = False  # the handler takes ``key=`` (Idempotency-Key, or None)
    stoppable: bool = False  # the handler takes ``stop=``: set once the client has gone


def _method(template: str) -> str:
    """The method of the operation at ``template`` (a path of ``/openapi.json``).

    >>> _method("/v1/health"), _method("/v1/games/{id}/next")
    ('GET', 'POST')
    """
    (method,) = OPERATIONS[template]
    return method.upper()


def _served(
    template: str,
    handler: Handler,
    turn: asyncio.Lock | None = None,
    caller: bool = False,
    stoppable: bool = False,
) -> _Route:
    """The route of the operation at ``template``: its method, its body (a request of
    ``/openapi.json``: any other field is refused) and where it runs are the
    operation's (:data:`~ofc_fast.serve._schemas.OPERATIONS`), so the document lists
    the statuses the route can answer; ``stoppable``: the handler takes ``stop=`` (a
    ``threading.Event`` set once the client has gone away while it runs)."""
    op = OPERATIONS[template][_method(template).lower()]
    fields = None if op.request is None else request_fields(op.request)
    return _Route(
        op.method,
        handler,
        op.pooled,
        fields,
        turn,
        caller,
        template,
        op.idempotent,
        stoppable,
    )


def _health(
    sessions: SessionStore, limiter: Limiter, config: ServeConfig
) -> dict[str, Any]:
    """``GET /v1/health``: the games kept, the computations running or waiting."""
    return {
        "status": "ok",
        "version": __version__,
        "sessions": len(sessions),
        "busy": limiter.pending,
        "max_time_budget": config.max_time_budget,
    }


def _caller(scope: dict[str, Any]) -> str:
    """Who sent a request: its remote address (``-`` where the server knows none).
    The access log names it, and a client's games are counted by it (one key serves
    every client, so the key tells none apart).

    >>> _caller({"client": ("10.0.0.7", 51234)}), _caller({"client": None})
    ('10.0.0.7', '-')
    """
    client = scope.get("client")
    return str(client[0]) if client else "-"


def _loggable(text: str) -> str:
    r"""``text`` (a request's path, percent-decoded by the server, or its client, which
    behind a proxy is ``X-Forwarded-For``'s text) for a log line: control characters
    and non-ASCII escaped, so that a path holding ``%0A`` or a header holding a NEL
    (``\x85``, read as Latin-1) cannot forge a line.

    >>> print(_loggable('/v1/x\r\n1.2.3.4 "GET /" 200'))
    /v1/x\r\n1.2.3.4 "GET /" 200
    """
    return text.encode("unicode_escape").decode("ascii")


def _not_allowed(path: str, method: str) -> ApiError:
    """405 for ``path``, which takes ``method``; its ``Allow`` lists every method the
    path answers (RFC 9110, 15.5.6): HEAD too where GET is taken.

    >>> _not_allowed("/v1/health", "GET").headers
    {'allow': 'GET, HEAD'}
    >>> _not_allowed("/v1/score", "POST").headers
    {'allow': 'POST'}
    """
    allow = "GET, HEAD" if method == "GET" else method
    return ApiError(405, None, f"{path[:100]} takes {method}", headers={"allow": allow})


def _server_methods() -> str:
    """The methods the server answers, for ``OPTIONS *`` (RFC 9110, 9.3.7): those of
    its operations, HEAD where GET is, and OPTIONS itself.

    >>> _server_methods()
    'GET, HEAD, OPTIONS, POST'
    """
    methods = {m.upper() for ops in OPERATIONS.values() for m in ops} | {"OPTIONS"}
    return ", ".join(sorted(methods | ({"HEAD"} if "GET" in methods else set())))


async def _gone(receive: Receive) -> None:
    """Returns once the client has gone away (the rest of a body it sent is read and
    dropped: a request's body is read, where it is, before it waits in the queue)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _long_integer(exc: LongInteger) -> str:
    """What a 400 says of an integer of the body with more digits than the
    interpreter reads as one (:func:`~ofc_fast.arena.json_integer`).

    >>> _long_integer(LongInteger(5000))
    'the body holds an integer of 5000 digits: no field takes one of more than 20'
    """
    return f"the body holds {exc}: no field takes one of more than {len(str(SEED_MAX))}"


class _Repeated(dict[str, Any]):
    """An object of a body that gives ``key`` twice (kept empty: it is refused)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        seen: set[str] = set()
        self.key = ""
        for key, _ in pairs:
            if key in seen:
                self.key = key
                break
            seen.add(key)


def _repeated(value: Any) -> str | None:
    """The path in the body (``observation.seat``, ``hands[0].x``) of a key that an
    object gives twice (a :class:`_Repeated`; an object before the objects it holds,
    then in the text's order), or None.

    >>> _repeated({"a": [1, {"b": _Repeated([("c", 1), ("c", 2)])}]})
    'a[1].b.c'
    """
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, _Repeated):
            return f"{path}.{item.key}" if path else item.key
        if isinstance(item, dict):
            inner = [(v, f"{path}.{k}" if path else k) for k, v in item.items()]
        elif isinstance(item, list):
            inner = [(v, f"{path}[{i}]") for i, v in enumerate(item)]
        else:
            continue
        stack.extend(reversed(inner))
    return None


MAX_VALUES = 10_000
"""The most JSON values (objects, arrays, strings, numbers, ...) a body holds: no
request needs as many (64 ``hands`` of 52 card ids, the most items its fields take:
3,400; an observation: some 400), and a body held while it waits in the queue
stays small (1 MiB of ``[], [], ...``: 20 MB of Python objects)."""


class _ManyValues(ValueError):
    """A body holds more than :data:`MAX_VALUES` values (:class:`_Values`)."""


_UNCALLED = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"?([ \t\n\r]*:)?|\[|true|false|null', re.DOTALL
)
"""What the JSON parser makes without calling back (an array, a string, ``true``,
``false``, ``null``), and a key (a string then ``:``, group 1), in a body's text: each
character read once (a string's loop unrolled, its pieces disjoint, and all after it
optional: nothing backtracks into it; a string left open runs to the end).  No
possessive quantifiers: Python 3.10, which the package supports, has none."""


class _Values:
    r"""The JSON values of a body's ``text``, counted as the body is read: the arrays,
    strings and ``true``/``false``/``null`` in the text first, before it is parsed
    (the parser makes them without calling back; at most ``2 * most`` steps, since a
    key, also seen, holds one value), then each number and object as the parser
    makes it (:meth:`take`).  Beyond ``most``, a :class:`_ManyValues`: a body of
    ``[], [], ...`` or ``4.0, 4.0, ...`` is read no further than its ``most``-th
    value, never parsed whole on the event loop.

    >>> _Values('{"a": [1, "b", null, {"c": [], "d": true}]}', 7).left  # 1, {...}: later
    2
    >>> _Values('["x:", [], "\\"]", false]', 5).left
    0
    >>> _Values('["x:", [], "\\"]", false]', 4).left
    Traceback (most recent call last):
    ...
    ofc_fast.serve._app._ManyValues
    """

    def __init__(self, text: str, most: int) -> None:
        self.left = most
        keys = 0
        for m in _UNCALLED.finditer(text):
            if m.group(1) is None:
                self.take()
            else:
                keys += 1
                if keys > most:  # each with its own value
                    raise _ManyValues

    def take(self) -> None:
        """Count one value more."""
        self.left -= 1
        if self.left < 0:
            raise _ManyValues


def _parse(raw: bytes, digits: int = 1 << 20) -> dict[str, Any]:
    """The body as a JSON object (400 naming what is wrong: not UTF-8, empty, not JSON,
    NaN or Infinity, nested too deeply, a key given twice in one object, since
    parsers differ on which of the two values counts: ``field`` names its path);
    whole numbers are ints (:func:`~ofc_fast.arena.json_number`), those written with
    a fraction or an exponent of at most ``digits`` digits in all (the body's size limit: as many as
    the body could write out); at most :data:`MAX_VALUES` values.

    >>> _parse(b'{"a": [1e400, 1e400]}', digits=1000)["a"] == [10**400] * 2
    True
    >>> try:
    ...     _parse(b'{"a": [1e400, 1e400, 1e400]}', digits=1000)
    ... except ApiError as e:
    ...     print(e.detail[:67])
    the body's numbers written with an exponent or a fraction make more

    >>> try:
    ...     _parse(b'{"seed": 1, "observation": {"seat": 0, "seat": 1}}')
    ... except ApiError as e:
    ...     print(e.field, "|", e.detail)
    observation.seat | observation.seat is repeated in its object (parsers differ on which counts)
    """
    try:  # a byte order mark first (Notepad's, PowerShell's files) read as none
        text = raw.decode("utf-8").removeprefix("\ufeff")  # (RFC 8259, 8.1: MAY)
    except UnicodeDecodeError as exc:
        raise ApiError(400, None, f"the body is not UTF-8 (byte {exc.start})") from None
    if text.startswith("\ufeff"):  # (json.loads would say "Unexpected UTF-8 BOM")
        detail = "the body is not JSON: it starts with more than one byte order mark"
        raise ApiError(400, None, detail)
    if not text.strip(" \t\n\r"):  # (the parser's "Expecting value: line 1 ...")
        detail = "the body is empty: send a JSON object ({} where no field is needed)"
        raise ApiError(400, None, detail)
    repeated: list[bool] = []  # a key given twice: found once the text is read
    budget = [digits]

    def integer(literal: str) -> int:
        values.take()
        return json_integer(literal)

    def number(literal: str) -> float | int:
        values.take()
        return json_number(literal, budget)

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        values.take()
        try:
            return unique_keys(pairs)
        except RulesError:
            repeated.append(True)
            return _Repeated(pairs)

    try:
        values = _Values(text, MAX_VALUES)
        value = json.loads(
            text,
            parse_float=number,
            parse_int=integer,
            parse_constant=reject_constant,
            object_pairs_hook=unique,
        )
    except RecursionError:
        raise ApiError(400, None, "the body nests too deeply") from None
    except _ManyValues:
        raise ApiError(
            400,
            None,
            f"the body holds more than {MAX_VALUES:,} JSON values (objects, arrays, "
            "strings, numbers...): no request takes as many",
        ) from None
    except LongInteger as exc:
        raise ApiError(400, None, _long_integer(exc)) from None
    except ManyDigits:
        raise ApiError(
            400,
            None,
            f"the body's numbers written with an exponent or a fraction make more than "
            f"{digits:,} digits in all (more than the body may hold written out): no "
            f"field takes one of more than {len(str(SEED_MAX))}",
        ) from None
    except ValueError as exc:
        raise ApiError(400, None, f"the body is not JSON: {str(exc)[:120]}") from None
    path = _repeated(value) if repeated else None
    if path is not None:
        shown = path[:100]
        detail = f"{shown} is repeated in its object (parsers differ on which counts)"
        raise ApiError(400, shown, detail)
    if not isinstance(value, dict):
        raise ApiError(400, None, "the body must be a JSON object")
    return value


class App:
    """The ASGI callable (see the module doc); ``config`` is checked first.  Any ASGI
    server runs it (``ofc-fast serve``: uvicorn).

    One request, sent in-process:

    >>> import asyncio, json
    >>> sent = []
    >>> async def receive(): return {"type": "http.request", "body": b""}
    >>> async def send(message): sent.append(message)
    >>> scope = {"type": "http", "method": "GET", "path": "/v1/health",
    ...          "headers": [(b"host", b"127.0.0.1:8000")]}
    >>> asyncio.run(App(ServeConfig(workers=1))(scope, receive, send))
    >>> sent[0]["status"], json.loads(sent[1]["body"])["status"]
    (200, 'ok')
    """

    def __init__(self, config: ServeConfig | None = None) -> None:
        self.config = checked_config(config)
        c = self.config
        self.sessions = SessionStore(
            c.max_sessions,
            c.session_ttl,
            time_cap=c.max_time_budget,
            per_client=c.max_sessions_per_client,
            retry_after=c.retry_after,
        )
        self._hosts = host_names(c)  # the Host names answered without a key
        self._methods = _server_methods().encode()  # OPTIONS *'s Allow
        self.limiter = Limiter(c.workers, c.queue, c.retry_after)
        self._openapi = json.dumps(openapi(__version__, c)).encode()
        web = resources.files("ofc_fast.serve") / "web"
        self._static = {
            path: (web.joinpath(name).read_bytes(), ctype.encode())
            for path, (name, ctype) in _STATIC.items()
        }
        self._routes: dict[str, _Route] = {
            "/v1/analyze": _served(
                "/v1/analyze", lambda b, stop: analyze(b, c, stop), stoppable=True
            ),
            "/v1/fantasyland": _served("/v1/fantasyland", lambda b: fantasyland(b, c)),
            "/v1/arrange": _served("/v1/arrange", lambda b: arrange(b, c)),
            "/v1/replay": _served("/v1/replay", lambda b: replay(b, c)),
            "/v1/score": _served("/v1/score", score),
            "/v1/evaluate": _served("/v1/evaluate", evaluate),
            # (the app's parts, not the app: a route holding it, a cycle, kept a
            # dropped app's games and threads until a full garbage collection)
            "/v1/games": _served("/v1/games", self.sessions.open, caller=True),
            "/v1/health": _served(
                "/v1/health", functools.partial(_health, self.sessions, self.limiter, c)
            ),
        }
        # the paths answered without the key (their operations are keyless)
        self._keyless = frozenset(
            path for path, ops in OPERATIONS.items() if all(o.keyless for o in ops.values())
        )

    def __repr__(self) -> str:
        """Address and workers of its config (never raising: half-made too)."""
        c = getattr(self, "config", None)
        where = "(no config)" if c is None else f"{c.host}:{c.port} workers={c.workers}"
        return f"<App {where}>"

    def __reduce_ex__(self, protocol: object) -> Any:
        """Pickling and copies (``copy.copy``, ``copy.deepcopy``): refused with a
        TypeError saying why, not one about a lock deep inside, nor a second app
        sharing this one's games."""
        raise TypeError(
            "an App serves live games (its sessions, worker threads and locks): it "
            "cannot be pickled or copied; make another with create_app(app.config)"
        )

    # -- ASGI
    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Serve one ASGI connection scope (HTTP, lifespan, and WebSocket handshakes,
        refused)."""
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] not in ("http", "websocket"):
            return
        t0 = time.perf_counter()
        if scope["type"] == "http":
            status, size = await self._http(scope, receive, send)
        else:
            status, size = await self._websocket(scope, receive, send)
        ACCESS_LOG.info(
            '%s "%s %s" %d %d %.1fms',
            _loggable(_caller(scope)[:100]),  # (X-Forwarded-For's text, behind a proxy)
            scope.get("method", "WEBSOCKET"),
            _loggable(scope.get("path", "-")[:200]),
            status,
            size,
            (time.perf_counter() - t0) * 1000,
        )

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.limiter.open()  # (after a shutdown: served again)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.limiter.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _websocket(
        self, scope: dict[str, Any], receive: Receive, send: Send
    ) -> tuple[int, int]:
        """A WebSocket handshake (the server offers none): a 404 problem document where
        the server can answer a handshake with a response (the ASGI
        ``websocket.http.response`` extension), else the handshake closed, which the
        server answers 403.  An app that returned without either would have the server
        log an error and answer 500."""
        where = target(scope, self.config.root_path)
        await receive()  # websocket.connect
        if "websocket.http.response" in (scope.get("extensions") or {}):
            error = ApiError(404, None, f"no WebSocket endpoint {where.path[:100]}")
            return await self._problem(send, where, error, kind="websocket.http")
        await send({"type": "websocket.close", "code": 1008})
        return 403, 0

    async def _http(
        self, scope: dict[str, Any], receive: Receive, send: Send
    ) -> tuple[int, int]:
        # a body left unread: the connection closed once the answer is sent
        watch = BodyWatch(scope, receive, send, body_seconds(self.config.max_body))
        receive, send = watch.receive, watch.send
        where = target(scope, self.config.root_path)  # the path routed: a run of
        # slashes as one, below the ASGI server's root_path
        path, method = where.path, scope.get("method", "GET")
        try:
            headers = dict(scope.get("headers") or [])
            key = self.config.api_key
            strict = where.strict()  # (a keyed endpoint, however spelled, needs it)
            refused = (
                key_refusal(headers.get(b"authorization"), key)
                if key
                and any(p[:4] == "/v1/" and p not in self._keyless for p in (path, strict))
                else None
            )
            if refused is not None:  # (which: no header, another scheme, another key)
                raise ApiError(
                    401, "Authorization", refused, headers={"www-authenticate": "Bearer"}
                )
            if not where.normal():  # sent to its normal form (as Go's ServeMux),
                # the only URL a reference relative to it resolves from alike
                return await _moved(send, where)
            if not path.startswith("/v1/"):
                return await self._plain(where, method, send)
            if not key and not host_allowed(self._hosts, headers.get(b"host")):
                raise ApiError(
                    400,
                    "Host",
                    "this server answers only requests for its own host name "
                    "(ofc-fast serve --allowed-host NAME adds one)",
                )
            head = method == "HEAD"  # a GET without the body (RFC 9110, 9.3.2)
            route, fn, args = self._route(path, "GET" if head else method)
            check_query(scope.get("query_string", b""))
            body: dict[str, Any] | None = None
            if method == "POST":  # every POST, /next's (no field) too
                check_media_type(headers)
                check_charset(headers)
                check_coding(headers)
            if route.fields is not None and method == "POST":
                declared = headers.get(b"content-length")
                try:
                    length = int(declared) if declared is not None else None
                except ValueError:
                    raise ApiError(400, "Content-Length", "bad Content-Length") from None
                limit = self.config.max_body
                sent = await read_body(
                    receive, limit, length, watch.deadline, watch.seconds
                )
                empty = not route.fields and not sent.strip()  # (none taken: none sent)
                body = {} if empty else _parse(sent, self.config.max_body)
                check_known(body, route.fields)
                body = given(body) if route.fields else None  # null: absent
            call_args = (*([] if body is None else [body]), *args)
            who = _caller(scope) if route.caller or route.idempotent else ""
            if route.caller:
                call_args = (*call_args, who)
            if route.idempotent:  # the request's Idempotency-Key, or None
                raw = scope.get("headers") or []
                idem = keyed(raw, who, route.template, body)
                fn = functools.partial(fn, key=idem)
            stop = threading.Event() if route.stoppable else None
            if stop is not None:  # an analysis: stopped once its client has gone
                fn = functools.partial(fn, stop=stop)
            if route.pooled:  # a game's request waits for it in the queue
                out = await self.limiter.run(
                    fn,
                    *call_args,
                    turn=route.turn,
                    gone=lambda: _gone(receive),
                    stop=stop,
                )
            else:
                out = fn(*call_args)
            data = json.dumps(out, allow_nan=False, separators=(",", ":")).encode()
            return await _send(send, 200, data, b"application/json", head=head)
        except ApiError as exc:
            return await self._problem(send, where, exc, method == "HEAD")
        except Exception:  # a bug, never bad input: logged, answered as a problem
            logging.getLogger("ofc_fast.serve").exception(
                "%s %s failed", method, _loggable(path[:200])
            )
            error = ApiError(500, None, "internal error")
            return await self._problem(send, where, error, method == "HEAD")

    @staticmethod
    async def _problem(
        send: Send, where: Target, exc: ApiError, head: bool = False, kind: str = "http"
    ) -> tuple[int, int]:
        data = json.dumps(exc.body(where)).encode()
        extra = [(k.encode(), v.encode()) for k, v in exc.headers.items()]
        ctype = b"application/problem+json"
        return await _send(send, exc.status, data, ctype, extra, head=head, kind=kind)

    def _route(self, path: str, method: str) -> tuple[_Route, Handler, tuple[Any, ...]]:
        route = self._routes.get(path)
        if route is not None:
            if method != route.method:
                raise _not_allowed(path, route.method)
            return route, route.handler, ()
        m = _GAME.fullmatch(path)  # `$` alone lets a trailing newline through
        if m is None:
            raise ApiError(404, None, f"no endpoint {path[:100]}")
        sid, tail = m.group(1), m.group(2)
        template = "/v1/games/{id}" + (tail or "")
        want = _method(template)
        if method != want:
            raise _not_allowed(path, want)
        s = self.sessions.get(sid)

        def call(*body: dict[str, Any], key: Keyed | None = None) -> dict[str, Any]:
            # a request that waited for its game while the game was dropped (its
            # client's newer games, the store full) is its 404; one running keeps
            # its game, so that the move it answers is the game's
            with s.lock, self.sessions.using(sid):
                # a keyed move or deal sent again: the answer it had, still kept?
                if tail == "/moves":
                    return s.replies.once(key, lambda: s.play(body[0]))
                if tail == "/next":
                    return s.replies.once(key, s.next_deal)
                return s.state()

        return _served(template, call, turn=s.turn), call, ()

    async def _plain(self, where: Target, method: str, send: Send) -> tuple[int, int]:
        path = where.path
        if path == "*":  # the server as a whole (RFC 9110, 9.3.7): OPTIONS alone
            if method != "OPTIONS":
                raise _not_allowed(path, "OPTIONS")
            return await _send(send, 204, b"", b"", [(b"allow", self._methods)])
        if path == "/openapi.json":
            item: tuple[bytes, bytes] | None = (self._openapi, b"application/json")
        else:
            item = self._static.get(path)
        problem = page(where) if item is None else None  # a problem type's page
        if problem is not None:
            item = (problem, b"text/html; charset=utf-8")
        if item is None:
            raise ApiError(404, None, f"no page {path[:100]}")
        if method not in ("GET", "HEAD"):
            raise _not_allowed(path, "GET")
        if item[1].startswith(b"text/html") and not where.normal(slashes=True):
            # its relative links resolve from its normal form's URL, a run of
            # slashes one folder: a 308 there
            return await _moved(send, where)
        return await _send(send, 200, item[0], item[1], head=method == "HEAD")


async def _send(
    send: Send,
    status: int,
    data: bytes,
    ctype: bytes,
    extra: list[tuple[bytes, bytes]] | None = None,
    head: bool = False,
    kind: str = "http",
) -> tuple[int, int]:
    """Send one response (``kind``: ``websocket.http`` answers a WebSocket handshake;
    a 204 has no content, so neither of its headers: RFC 9110, 8.6)."""
    content = [(b"content-type", ctype), (b"content-length", str(len(data)).encode())]
    headers = [
        *(content if status != 204 else []),
        (b"cache-control", b"no-store"),
        *_SECURITY,
        *(extra or []),
    ]
    await send({"type": f"{kind}.response.start", "status": status, "headers": headers})
    await send({"type": f"{kind}.response.body", "body": b"" if head else data})
    return status, len(data)


async def _moved(send: Send, where: Target) -> tuple[int, int]:
    """A ``308 Permanent Redirect`` (its method and body kept: RFC 9110, 15.4.9) to
    the request's normal form, its query kept (:meth:`Target.location`)."""
    to = [(b"location", where.location().encode())]
    return await _send(send, 308, b"", b"text/plain; charset=utf-8", to)


def create_app(config: ServeConfig | None = None) -> App:
    """The application for ``config`` (default: :class:`ServeConfig`'s defaults), for
    an ASGI server (``uvicorn.run(create_app(), port=8000)``).

    >>> app = create_app(ServeConfig(workers=2, max_time_budget=0.5))
    >>> app.config.workers, app.config.max_time_budget, app.limiter.workers
    (2, 0.5, 2)
    """
    return App(config)
