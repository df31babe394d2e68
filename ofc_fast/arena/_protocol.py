r"""The wire protocol's vocabulary: framing, messages, cards and rows, the action a
bot answers and the deterministic filler placement.

Framing: JSON Lines, one compact object per ``\n``-terminated line, at most
:data:`MAX_LINE` bytes (64 KiB, the newline not counted); unknown fields and unknown
message types are ignored, never errors.  Messages are tagged on ``"t"``; events
(inside ``event`` messages) on ``"event"``.

Correlation (an ofc-fast extension, backward compatible: v1 bots ignore it): every
``act`` carries ``seq``, the number of acts this bot was sent before it (0, 1, ...).
An ``action`` may echo ``seq``, ``hand_no`` and ``seat``; what it echoes must name
the pending act (:func:`correlate`).  An action that answers an earlier act (a
smaller ``seq``, an earlier ``hand_no``, or, with no ``seq``, exactly the cards of
one of the bot's last acts) is stale and dropped, whatever its timing.

>>> encode({"t": "join"})
b'{"t":"join"}\n'
>>> decode(b'{"t":"hello","proto":1,"extra":[1]}')["t"]
'hello'
>>> filler_move(["Kd", "2c", "As"], place=2, rows=[[], [], []])
Move((('2c', Row.BACK), ('Kd', Row.BACK)), discard=51)
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from ..board import Row, free_slots
from ..cards import card_str, parse_card
from ..errors import CardError, ProtocolError
from ..game import Move

__all__ = [
    "MAX_LINE",
    "PROTO_VERSION",
    "ROW_NAMES",
    "ActKey",
    "ActionFault",
    "FaultKind",
    "LineSplitter",
    "Placement",
    "action_of_move",
    "bot_crashed",
    "card_id",
    "card_text",
    "correlate",
    "decode",
    "encode",
    "filler_move",
    "parse_action",
]

PROTO_VERSION = 1
MAX_LINE = 64 * 1024
"""Longest line in bytes, without its newline."""
ROW_NAMES = ("top", "middle", "bottom")
_ROW_OF_NAME = {name: i for i, name in enumerate(ROW_NAMES)}


class FaultKind:
    """The kinds of faults the arena counts per bot."""

    MALFORMED = "malformed"  #: an ``action`` whose shape is wrong
    ILLEGAL = "illegal"  #: a well-formed action the rules refuse
    TIMEOUT = "timeout"  #: no answer by the deadline
    DISCONNECT = "disconnect"  #: the bot's stream closed (exit, crash, killed)
    GARBAGE = "garbage"  #: a line that is no JSON object
    OVERLONG = "overlong"  #: a line over MAX_LINE bytes
    CRASH = "crash"  #: a built-in bot raised an exception
    FLOOD = "flood"  #: more lines queued than the arena keeps per bot (the rest dropped)

    ALL = (MALFORMED, ILLEGAL, TIMEOUT, DISCONNECT, GARBAGE, OVERLONG, CRASH, FLOOD)


def bot_crashed(exc: BaseException) -> bool:
    """Whether an exception a built-in bot's code raised is that bot's ``crash``
    fault: every one (``SystemExit``, ``GeneratorExit`` and the other
    ``BaseException`` subclasses included) but ``KeyboardInterrupt``, which stops
    the match as Ctrl-C does.  The sequential arena and the parallel one both ask.

    >>> bot_crashed(SystemExit(3)), bot_crashed(KeyboardInterrupt())
    (True, False)
    """
    return not isinstance(exc, KeyboardInterrupt)


class Placement(TypedDict):
    """One card placed on a row, in protocol form (``{"card": "As", "row": "front"}``)."""

    card: str
    row: str


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as a compact JSON line (ProtocolError when over MAX_LINE)."""
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode()
    if len(data) > MAX_LINE:
        raise ProtocolError(
            f"a {message.get('t')!r} message of {len(data)} bytes is over "
            f"the {MAX_LINE}-byte line limit"
        )
    return data + b"\n"


def decode(line: bytes | str) -> dict[str, Any]:
    """The object of one line (ProtocolError: too long, not JSON, nested too deep,
    not an object with a string ``"t"``).

    >>> decode(b"[" * 30000 + b"]" * 30000)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ProtocolError: not JSON (nested too deep): b'[[[[[[...
    """
    raw = line.encode() if isinstance(line, str) else bytes(line)
    raw = raw.rstrip(b"\r\n")
    if len(raw) > MAX_LINE:
        raise ProtocolError(f"a line of {len(raw)} bytes is over the {MAX_LINE}-byte limit")
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"not JSON: {raw[:40]!r}") from None
    except RecursionError:
        raise ProtocolError(f"not JSON (nested too deep): {raw[:40]!r}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
        raise ProtocolError(f"not a message object with a string 't': {raw[:40]!r}")
    return obj


class LineSplitter:
    r"""Cuts a byte stream into lines; a line over MAX_LINE is reported once as
    ``None`` and skipped up to its newline (the stream stays in step).

    >>> s = LineSplitter()
    >>> s.feed(b'{"t":"a"}\n{"t"'), s.feed(b':"b"}\n')
    ([b'{"t":"a"}'], [b'{"t":"b"}'])
    >>> s.feed(b"x" * (MAX_LINE + 1) + b"\nok\n")
    [None, b'ok']
    >>> s.feed(b'{"t":'), s.partial()
    ([], b'{"t":')
    """

    __slots__ = ("_buf", "_skipping")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | None]:
        """The complete lines in ``data`` (after what earlier calls left), ``None``
        for each overlong one."""
        out: list[bytes | None] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if not self._skipping:
                self._buf += chunk
                if len(self._buf) > MAX_LINE:
                    out.append(None)
                    self._buf.clear()
                    self._skipping = True
            if nl < 0:
                return out
            if not self._skipping:
                out.append(bytes(self._buf).rstrip(b"\r"))
            self._buf.clear()
            self._skipping = False
            start = nl + 1

    def partial(self) -> bytes:
        """What was fed after the last newline: a line not ended yet (at the end of
        the stream, a line cut off); empty while an over-long line is skipped."""
        return bytes(self._buf)


def card_text(card: int) -> str:
    """``"As"`` for a card id."""
    return card_str(card)


def card_id(text: object) -> int:
    """The id of a card written as the protocol writes it (``"As"``, ``"Td"``);
    ProtocolError for anything else."""
    if not isinstance(text, str) or len(text) != 2:
        raise ProtocolError(f"bad card {str(text)[:20]!r}: expected text such as 'As'")
    try:
        return parse_card(text)
    except CardError:
        raise ProtocolError(f"bad card {text!r}: expected text such as 'As'") from None


def action_of_move(move: Move) -> dict[str, Any]:
    """The ``action`` body of a move: ``{"placements": [...], "discards": [...]}``."""
    return {
        "placements": [
            {"card": card_str(c), "row": ROW_NAMES[int(r)]} for c, r in move.placements
        ],
        "discards": [card_str(c) for c in move.discards],
    }


class ActionFault(Exception):
    """Why an ``action`` was refused: ``kind`` is FaultKind.MALFORMED or ILLEGAL."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _malformed(message: str) -> ActionFault:
    return ActionFault(FaultKind.MALFORMED, message)


def parse_action(
    message: Mapping[str, Any], dealt: Sequence[int], place: int, discard: int
) -> Move:
    """The move an ``action`` message says, checked against the decision: exactly
    ``place`` placements and ``discard`` discards, all of the just-dealt cards, each
    once.  Row capacity is the referee's (:meth:`Game.play`) to check."""
    body = message.get("action")
    if not isinstance(body, Mapping):
        raise _malformed("an action message needs an 'action' object")
    placements, discards = body.get("placements"), body.get("discards", [])
    if not isinstance(placements, list) or not isinstance(discards, list):
        raise _malformed("'placements' and 'discards' must be lists")
    pairs: list[tuple[int, Row]] = []
    for p in placements:
        row = p.get("row") if isinstance(p, Mapping) else None
        if not isinstance(row, str) or row not in _ROW_OF_NAME:  # ([] is unhashable)
            raise _malformed(
                f"bad placement {str(p)[:60]}: expected {{card, row: top|middle|bottom}}"
            )
        try:
            pairs.append((card_id(p.get("card")), Row(_ROW_OF_NAME[row])))
        except ProtocolError as exc:
            raise _malformed(str(exc)) from None
    try:
        thrown = [card_id(c) for c in discards]
    except ProtocolError as exc:
        raise _malformed(str(exc)) from None
    if len(pairs) != place or len(thrown) != discard:
        raise ActionFault(
            FaultKind.ILLEGAL,
            f"expected {place} placements and {discard} "
            f"discards, got {len(pairs)} and {len(thrown)}",
        )
    used = [c for c, _ in pairs] + thrown
    if sorted(used) != sorted(dealt):
        raise ActionFault(
            FaultKind.ILLEGAL, "the action must use each just-dealt card exactly once"
        )
    return Move(pairs, thrown or None)


@dataclass(frozen=True)
class ActKey:
    """The ``act`` an action should answer: its hand, the seat asked and its ``seq``."""

    hand_no: int
    seat: int
    seq: int


def _echoed(message: Mapping[str, Any], name: str) -> int | None:
    value = message.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _malformed(f"an action's {name!r} must be an int, got {str(value)[:20]!r}")
    return value


def _cards_named(message: Mapping[str, Any]) -> frozenset[int] | None:
    """The cards an action places and discards, None when it names no clean list."""
    body = message.get("action")
    if not isinstance(body, Mapping):
        return None
    placements, discards = body.get("placements"), body.get("discards", [])
    if not isinstance(placements, list) or not isinstance(discards, list):
        return None
    named = [p.get("card") if isinstance(p, Mapping) else None for p in placements]
    try:
        return frozenset(card_id(c) for c in named + discards)
    except ProtocolError:
        return None


def correlate(
    message: Mapping[str, Any],
    pending: ActKey,
    dealt: Collection[int],
    earlier: Collection[frozenset[int]] = (),
) -> bool:
    """Whether an ``action`` answers the ``pending`` act (True) or an earlier one
    (False: stale, to be dropped).  ``earlier``: the dealt cards of the bot's last
    acts, for actions that echo no ``seq`` (a v1 bot's late or repeated answer names
    the cards of the act it answers).  ActionFault (MALFORMED) when the action names
    another seat, another or a later hand, or an act never sent.

    >>> act = ActKey(hand_no=3, seat=1, seq=12)
    >>> correlate({"t": "action", "seq": 12, "hand_no": 3, "seat": 1}, act, [])
    True
    >>> correlate({"t": "action", "seq": 11}, act, [])
    False
    >>> correlate({"t": "action", "seat": 99, "hand_no": -5}, act, [])
    Traceback (most recent call last):
    ...
    ofc_fast.arena._protocol.ActionFault: the action names hand -5, seat 99: the pending ...
    """
    seq, hand, seat = (_echoed(message, k) for k in ("seq", "hand_no", "seat"))
    if seq is not None and 0 <= seq < pending.seq:
        return False
    if seq is not None and seq != pending.seq:
        raise _malformed(
            f"the action answers act {seq}, never sent (pending: {pending.seq})"
        )
    if seq is None and hand is not None and 0 <= hand < pending.hand_no:
        return False
    if (hand is not None and hand != pending.hand_no) or (
        seat is not None and seat != pending.seat
    ):
        raise _malformed(
            f"the action names hand {hand}, seat {seat}: the pending act is hand "
            f"{pending.hand_no}, seat {pending.seat}"
        )
    if seq is None:
        cards = _cards_named(message)
        if cards is not None and cards != frozenset(dealt) and cards in earlier:
            return False
    return True


def filler_move(
    dealt: Sequence[int | str], place: int, rows: Sequence[Sequence[int]]
) -> Move:
    """The document's deterministic filler: the dealt cards ascending by id, the first
    ``place`` each into the bottom if it has room, else the middle, else the top; the
    rest discarded."""
    cards = sorted(parse_card(c) for c in dealt)
    free = list(free_slots(rows))
    pairs = []
    for c in cards[:place]:
        r = next((r for r in (2, 1, 0) if free[r] > 0), 2)
        free[r] -= 1
        pairs.append((c, Row(r)))
    rest = cards[place:]
    return Move(pairs, rest or None)
