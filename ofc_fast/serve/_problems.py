"""Errors as RFC 9457 problem details (``application/problem+json``): every refusal of
the API is an :class:`ApiError` with a status, a title, a detail, the request field at
fault and, when the library refused the input, the name of the ``OfcError`` class.

>>> e = ApiError(422, "cards", "bad card 'Xx'", error="CardError")
>>> body = e.body("/v1/evaluate")
>>> body["status"], body["field"], body["error"], body["type"]
(422, 'cards', 'CardError', '/problems/invalid-input')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..errors import OfcError
from ..search import position_part

__all__ = ["TITLES", "ApiError", "at_field", "refusal"]

TITLES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "The request is malformed: its body, a header or its query"),
    401: ("unauthorized", "A valid API key is required"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed"),
    409: ("conflict", "The request does not fit the resource's state"),
    413: ("too-large", "The request body is too large"),
    415: ("unsupported-media-type", "The request body must be sent as plain UTF-8 JSON"),
    422: ("invalid-input", "The input was refused"),
    503: ("busy", "The server is at its concurrency limit"),
}
"""Per status: the ``type`` slug (``/problems/<slug>``) and the ``title``, the type's
summary (RFC 9457, 3.1.3), true of each refusal of its status (a 400 is a body, a
``Host``, an ``Idempotency-Key`` or a query string refused; a 415, a body's media
type, charset or ``Content-Encoding``): ``detail`` says which."""


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

    def body(self, instance: str) -> dict[str, Any]:
        """The problem document (RFC 9457 members plus ``field`` and ``error``)."""
        slug, title = TITLES.get(self.status, ("error", "Error"))
        out: dict[str, Any] = {
            "type": f"/problems/{slug}",
            "title": title,
            "status": self.status,
            "detail": self.detail[:500],
            "instance": instance[:200],
        }
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
