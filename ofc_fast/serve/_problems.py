"""Errors as RFC 9457 problem details (``application/problem+json``): every refusal of
the API is an :class:`ApiError` with a status, a title, a detail, the request field at
fault and, when the library refused the input, the name of the ``OfcError`` class.

>>> e = ApiError(422, "cards", "bad card 'Xx'", error="CardError")
>>> body = e.body("/v1/evaluate")
>>> body["status"], body["field"], body["error"], body["type"]
(422, 'cards', 'CardError', '/problems/invalid-input')
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from ..errors import OfcError
from ..search import position_part
from ._target import Target

__all__ = [
    "MAX_INSTANCE",
    "TITLES",
    "ApiError",
    "ProblemType",
    "at_field",
    "page",
    "refusal",
    "type_uri",
]


class ProblemType(NamedTuple):
    """A problem type: its ``slug`` (its page: ``/problems/<slug>``), its ``title``
    (RFC 9457, 3.1.3: the type's summary, true of each refusal of its status) and
    ``when`` it happens (its page says so; ``detail`` says which case it is)."""

    slug: str
    title: str
    when: str


TITLES: dict[int, ProblemType] = {
    400: ProblemType(
        "bad-request",
        "The request is malformed: its body, a header or its query",
        "the body is not UTF-8 JSON of the expected shape (not JSON, nested too "
        "deeply, a key given twice in one object, a number of too many digits, too "
        "many values, a field of the wrong type or longer than it takes), a Host "
        "that is not the server's, an Idempotency-Key that is none, or a query string "
        "(no endpoint takes one)",
    ),
    401: ProblemType(
        "unauthorized",
        "A valid API key is required",
        "the server has an API key and the request (to any /v1 endpoint but "
        "GET /v1/health) sent none, or another, as Authorization: Bearer KEY",
    ),
    404: ProblemType(
        "not-found",
        "No such resource",
        "no endpoint, page or game at the path (a game expired, or dropped), or a "
        "WebSocket handshake (the server offers none)",
    ),
    405: ProblemType(
        "method-not-allowed",
        "Method not allowed",
        "the path is answered with another method, which Allow names",
    ),
    408: ProblemType(
        "request-timeout",
        "The request body did not arrive in time",
        "the body did not arrive within its seconds from the request's headers (30 s "
        "plus the largest body the server takes at 16 KiB/s: 94 s at 1 MiB; a client "
        "sending it a byte at a time): the connection is closed",
    ),
    409: ProblemType(
        "conflict",
        "The request does not fit the resource's state",
        "a move after the deal is over or for a version the game is no longer at, "
        "next before the deal is over or once the match has played its deals, or an "
        "Idempotency-Key whose request is still running (Retry-After)",
    ),
    413: ProblemType(
        "too-large",
        "The request body is too large",
        "the body is larger than the server reads (1 MiB unless configured)",
    ),
    415: ProblemType(
        "unsupported-media-type",
        "The request body must be sent as plain UTF-8 JSON",
        "a browser's body not declared application/json, a body declared in a "
        "charset other than UTF-8, or sent with a Content-Encoding",
    ),
    422: ProblemType(
        "invalid-input",
        "The input was refused",
        "the library refused the input (bad cards, rules, boards, an illegal move, a "
        "number out of its range: field names the part at fault, error the OfcError "
        "class), a body field the endpoint does not take, or an Idempotency-Key sent "
        "before with another request",
    ),
    500: ProblemType(
        "internal-error",
        "Internal server error",
        "a bug of the server, never bad input: the server logs it",
    ),
    503: ProblemType(
        "busy",
        "The server is at its concurrency limit",
        "every worker and place in the queue is taken, or a new game would drop a "
        "game whose request is running, or the server is shutting down (Retry-After: "
        "when to try again)",
    ),
}
"""Every problem type the server gives, by status: the one table of them (a 400 is
a body, a ``Host``, an ``Idempotency-Key`` or a query string refused; a 415, a
body's media type, charset or ``Content-Encoding``: ``detail`` says which)."""


def type_uri(status: int, path: str | Target) -> str:
    """The ``type`` of a problem of ``status`` answering a request for ``path``: the
    full path of its page (``problems/<slug>`` beside ``/openapi.json``, under the
    server's root: :attr:`~ofc_fast.serve._target.Target.root`), one string from
    every request whatever its depth, as RFC 9457 (3.1.1) recommends of a relative
    type (one relative to the request's URL grew with its depth: a client comparing
    types found none equal).

    >>> type_uri(422, "/v1/score"), type_uri(404, "/v1/games/abc/moves")
    ('/problems/invalid-input', '/problems/not-found')
    >>> type_uri(404, Target("/a/b/c/d", 3, root="/ofc"))
    '/ofc/problems/not-found'
    """
    return _target(path).absolute(f"problems/{TITLES[status].slug}")


def _target(where: str | Target) -> Target:
    """``where``, a request's :class:`~ofc_fast.serve._target.Target`, or its path
    (its slashes as sent)."""
    if isinstance(where, Target):
        return where
    return Target(where, max(where.count("/") - 1, 0))


_PAGES = {f"/problems/{kind.slug}": status for status, kind in TITLES.items()}


def page(where: Target) -> bytes | None:
    """The HTML page of the problem type at the request's path (its ``type``,
    dereferenced), or None: it names the type as its problems carry it
    (:func:`type_uri`: ``/ofc/problems/...`` under the server's root), its links
    relative to the request's URL, as the problems' ``instance``.

    >>> b"<code>/ofc/problems/not-found</code>" in page(
    ...     Target("/problems/not-found", 1, root="/ofc"))
    True
    >>> page(Target("/problems/nope", 1)) is None
    True
    """
    status = _PAGES.get(where.path)
    if status is None:
        return None
    kind = TITLES[status]
    title, when = html.escape(kind.title), html.escape(kind.when)
    name = html.escape(type_uri(status, where))
    css, api = (html.escape(where.relative(f)) for f in ("app.css", "openapi.json"))
    return (
        '<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n'
        f"<title>{status} {title}</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'  # (as the app's: no /favicon.ico asked)
        f'<link rel="stylesheet" href="{css}">\n'
        f"<main>\n<h1>{status} {title}</h1>\n"
        f"<p>An <code>application/problem+json</code> document (RFC 9457) of status "
        f"{status}, type <code>{name}</code>, when {when}.</p>\n"
        "<p>Its <code>detail</code> says what is wrong, <code>field</code> the request "
        "field at fault and <code>error</code> the <code>OfcError</code> class that "
        f'refused the input, where there is one. <a href="{api}">The API</a>'
        "</p>\n</main>\n</html>\n"
    ).encode()


MAX_INSTANCE = 200
"""The longest ``instance`` a problem gives (a longer one is left out)."""


class ApiError(Exception):
    """A refusal: ``status`` (4xx / 503), ``field`` (the request field at fault, dotted,
    e.g. ``observation.dealt``, or None), ``detail`` (what is wrong), ``error`` (the
    OfcError class that refused it, or None) and extra response ``headers``."""

    def __init__(
        self,
        status: int,
        field: str | None,
        detail: str,
        *,
        error: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.field = field
        self.detail = detail
        self.error = error
        self.headers = headers or {}

    def body(self, where: str | Target) -> dict[str, Any]:
        """The problem document (RFC 9457 members plus ``field`` and ``error``) of a
        refusal of the request ``where`` (its target, or its path): its ``type``
        (:func:`type_uri`) and its ``instance``, the request's path relative to the
        request's URL, so that it resolves right behind a reverse proxy serving the
        server under a path.
        An ``instance`` longer than :data:`MAX_INSTANCE` is left out (RFC 9457: it is
        optional), where one cut short would resolve to another path; so is one
        from a path not in its normal form (``/v1/%2E//..``: a 401, asked for before
        the redirect to it, :meth:`Target.normal`), which a strict resolver (``%2E``
        no dot) and a normalising one would resolve apart.

        >>> ApiError(404, None, "x").body("/v1/games/abc/moves")["instance"]
        'moves'
        >>> "instance" in ApiError(404, None, "x").body("/v1/" + "a" * 300)
        False
        """
        at = _target(where)
        out: dict[str, Any] = {
            "type": type_uri(self.status, at),
            "title": TITLES[self.status].title,
            "status": self.status,
            "detail": self.detail[:500],
        }
        instance = at.instance()
        if len(instance) <= MAX_INSTANCE and at.normal():
            out["instance"] = instance
        if self.field is not None:
            out["field"] = self.field
        if self.error is not None:
            out["error"] = self.error
        return out


_PART = re.compile(
    r"([a-z_]+(?:\[\d+\])+): |([a-z_]+(?:\[\d+\])*) (?:must|holds) |seat (\d+): "
)
"""The part of a request field a library error names first: ``place[2]: bad card
...`` (``Move.from_dict``), ``declare must be ...``, ``seat 1: ...`` (an item of a
list of one per seat: ``fantasyland``); a position's part: :func:`position_part`."""


def _part(field: str, message: str) -> str:
    """``field`` (a request object, or a list of one item per seat) with the part of
    it that ``message`` (a library error's) names first, if any: ``move.place[2]``,
    ``observation.dealt``, ``fantasyland[1]``.

    >>> _part("move", "place[2]: bad row 'x': expected front, middle or back")
    'move.place[2]'
    >>> _part("observation", "observation: face_down_counts[1][1] must be an int")
    'observation.face_down_counts[1][1]'
    >>> _part("fantasyland", "seat 1: Fantasyland cards must be 0 or 13..17, got 12")
    'fantasyland[1]'
    >>> _part("observation", "observation: board 1 row 2 holds 99, not a card id 0..51")
    'observation.boards[1][2]'
    >>> _part("move", "8s is used twice"), _part("observation", "advise: 2d twice")
    ('move', 'observation')
    """
    position = position_part(message)  # the search's checks of a position
    if position is not None:
        return field if position.path is None else f"{field}.{position.path}"
    name = field.rsplit(".", 1)[-1]
    m = _PART.match(message.removeprefix(f"{name}: "))  # the object named: context
    if m is not None and m.group(3) is not None:  # a seat: its item
        return f"{field}[{m.group(3)}]"
    part = None if m is None else m.group(1) or m.group(2)
    return field if part is None or part == name else f"{field}.{part}"


def _text_said(sent: Sequence[str], message: str) -> tuple[str, str]:
    """The field of a position in the text form (``board``, ``dealt``, ``opponents``,
    ``dead``: :func:`ofc_fast.search.make_observation`'s arguments) that holds the part
    of the observation ``message`` names first (the ``argument`` of the part
    :func:`position_part` reads), and the message in the words of those fields
    (:meth:`PositionPart.said <ofc_fast.search.PositionPart.said>`, as ``ofc-fast
    advise`` words it with its options).  Where it names no part, the position as a
    whole is at fault: ``sent``, the text fields of the whole position
    (``board``, ``dealt``, ``opponents``) the caller sent, the first of them named.

    >>> for m in ("observation: dealt holds 2c, a card shown twice",
    ...           "observation: board 2 row 0 holds too many cards",
    ...           "make_observation: dead holds 2d, a card shown twice",
    ...           "observation: the boards fit no point of the deal",
    ...           "advise: the observation shows 2d twice"):
    ...     print(_text_said(("board", "dealt", "opponents"), m))
    ('dealt', 'dealt: holds 2c, a card shown twice')
    ('opponents[1]', 'opponents[1]: front row holds too many cards')
    ('dead', 'dead: holds 2d, a card shown twice')
    ('board', 'board, dealt, opponents: the boards fit no point of the deal')
    ('board', 'advise: the observation shows 2d twice')
    >>> _text_said(("dealt",), "observation: the boards fit no point of the deal")
    ('dealt', 'dealt: the boards fit no point of the deal')
    """
    part = position_part(message)
    if part is None:
        return sent[0], message
    argument = part.argument
    return argument or sent[0], part.said(argument or ", ".join(sent))


def refusal(
    exc: OfcError,
    field: str | None,
    status: int = 422,
    nested: bool = False,
    error: str | None = None,
    text: Sequence[str] = (),
) -> ApiError:
    """The problem for the library's refusal ``exc`` of the request's ``field``; where
    ``field`` is an object or a list of one item per seat (``nested``: a move, an
    observation, ``fantasyland``), the part of it that the error names first too
    (:func:`_part`); where it is a position in the text form (``text``: the text
    fields of the whole position the caller sent, of ``board``, ``dealt`` and
    ``opponents``), the text field holding the part the error names, the detail in
    its words (:func:`_text_said`; the first of ``text`` where it names none);
    ``error``: the class named (default: the error's own).

    >>> from ofc_fast.errors import CardError, MoveError
    >>> e = refusal(MoveError("discard[0]: bad card 99"), "move", nested=True)
    >>> e.status, e.field, e.error
    (422, 'move.discard[0]', 'MoveError')
    >>> refusal(CardError("observation: board 1 row 0 holds Qh, a card shown twice"),
    ...         "board", text=("board", "dealt")).body("/v1/analyze")["detail"]
    'opponents[0]: front row holds Qh, a card shown twice'
    """
    detail = str(exc)
    if nested and field is not None:
        field = _part(field, detail)
    if text:
        field, detail = _text_said(text, detail)
    return ApiError(status, field, detail, error=error or type(exc).__name__)


@contextmanager
def at_field(
    field: str | None,
    status: int = 422,
    nested: bool = False,
    text: Sequence[str] = (),
) -> Iterator[None]:
    """Turns an :class:`~ofc_fast.errors.OfcError` raised inside into an
    :class:`ApiError` (:func:`refusal`) naming ``field`` (and, ``nested``, the part of
    it the error names; ``text``, the text fields of a position sent: the one that
    holds it, :func:`refusal`) and
    the error's class.

    >>> from ofc_fast import parse_cards
    >>> try:
    ...     with at_field("cards"):
    ...         parse_cards("Xx")
    ... except ApiError as e:
    ...     print(e.status, e.field, e.error)
    422 cards CardError
    """
    try:
        yield
    except OfcError as exc:
        raise refusal(exc, field, status, nested, text=text) from None
