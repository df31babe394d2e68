"""The protocol's bounds on what a host sends a bot, checked field by field for the
bot client (:mod:`ofc_fast.arena.client`): every failure is a ProtocolError that
names the message and the field, so that ``ofc-fast bot`` stops with one line
instead of a traceback or a multi-gigabyte allocation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ProtocolError, quote
from ._protocol import MAX_LINE, ROW_NAMES, card_id, decode

__all__ = [
    "MAX_CARDS",
    "MAX_DEADLINE_MS",
    "MAX_HAND_NO",
    "MAX_SEATS",
    "card_list",
    "count",
    "deadline_ms",
    "decode_host_line",
    "int_field",
    "object_field",
    "optional_int",
    "placements",
    "text_field",
]

MAX_SEATS = 4
"""The most seats any game of the protocol has (``ofc``: 2..4)."""
MAX_CARDS = 17
"""The most cards one deal or one decision holds (a progressive Fantasyland)."""
MAX_DEADLINE_MS = 24 * 3600 * 1000
"""The longest deadline taken as one (a day); longer ones are an error."""
MAX_HAND_NO = 2**53
"""Hand numbers are JSON integers a double holds exactly."""


def decode_host_line(line: bytes | None) -> dict[str, Any]:
    """The message of one line from the host (None: a line the LineSplitter found
    over-long): ProtocolError when it is over-long, not JSON, nested too deeply for
    the parser, or not an object with a string ``t``."""
    if line is None:
        raise ProtocolError(f"a line over the {MAX_LINE}-byte limit")
    try:
        return decode(line)
    except RecursionError:  # json.loads on a deeply nested array or object
        raise ProtocolError("JSON nested too deeply") from None


def _where(msg: Mapping[str, Any], key: str) -> str:
    return f"{msg.get('t')!s:.20} message: {key!r}"


def _got(msg: Mapping[str, Any], key: str) -> str:
    """What the host sent as ``msg[key]``, as an error names it: ``nothing`` for a
    missing field (not ``None``, which reads as a JSON null sent)."""
    return "nothing" if key not in msg else quote(msg[key])


def optional_int(msg: Mapping[str, Any], key: str, low: int, high: int) -> int | None:
    """``msg[key]``, a JSON integer within ``low..high``, or None (missing or null)."""
    value = msg.get(key)
    if value is None:
        return None
    return int_field(msg, key, low, high)


def int_field(msg: Mapping[str, Any], key: str, low: int, high: int) -> int:
    """``msg[key]``, a JSON integer within ``low..high`` (one value where they meet)."""
    value = msg.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        wanted = str(low) if low == high else f"an integer {low}..{high}"
        raise ProtocolError(f"{_where(msg, key)} must be {wanted}, got {_got(msg, key)}")
    return value


def count(msg: Mapping[str, Any], key: str) -> int:
    """``msg[key]``: a card count 0..MAX_CARDS."""
    return int_field(msg, key, 0, MAX_CARDS)


def deadline_ms(msg: Mapping[str, Any], key: str) -> int | None:
    """``msg[key]``: a deadline in ms (1..MAX_DEADLINE_MS), or None (null: none)."""
    return optional_int(msg, key, 1, MAX_DEADLINE_MS)


def object_field(msg: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """``msg[key]``, a JSON object."""
    value = msg.get(key)
    if not isinstance(value, Mapping):
        raise ProtocolError(f"{_where(msg, key)} must be an object, got {_got(msg, key)}")
    return value


def text_field(msg: Mapping[str, Any], key: str) -> str:
    """``msg[key]``, a JSON string."""
    value = msg.get(key)
    if not isinstance(value, str):
        raise ProtocolError(f"{_where(msg, key)} must be text, got {_got(msg, key)}")
    return value


def _list(msg: Mapping[str, Any], key: str, default: list[Any] | None) -> list[Any]:
    value = msg.get(key, default)
    if not isinstance(value, list) or len(value) > MAX_CARDS:
        raise ProtocolError(
            f"{_where(msg, key)} must be a list of at most {MAX_CARDS}, "
            f"got {_got(msg, key) if default is None else quote(value)}"
        )
    return value


def card_list(
    msg: Mapping[str, Any], key: str, default: list[Any] | None = None
) -> list[int]:
    """``msg[key]``: at most MAX_CARDS distinct cards (``"As"``), as card ids."""
    try:
        cards = [card_id(c) for c in _list(msg, key, default)]
    except ProtocolError as exc:
        raise ProtocolError(f"{_where(msg, key)}: {exc}") from None
    if len(set(cards)) != len(cards):
        raise ProtocolError(f"{_where(msg, key)} repeats a card")
    return cards


def placements(msg: Mapping[str, Any], key: str) -> list[tuple[int, int]]:
    """``msg[key]``: at most MAX_CARDS ``{"card": "As", "row": "top"}`` objects, as
    (card id, row index) pairs."""
    out = []
    for p in _list(msg, key, []):
        if not isinstance(p, Mapping) or p.get("row") not in ROW_NAMES:
            raise ProtocolError(
                f"{_where(msg, key)}: bad placement {quote(p)}: "
                "expected {card, row: top|middle|bottom}"
            )
        try:
            out.append((card_id(p.get("card")), ROW_NAMES.index(p["row"])))
        except ProtocolError as exc:
            raise ProtocolError(f"{_where(msg, key)}: {exc}") from None
    return out
