"""Events of a hand as the referee sees them, and each seat's redacted copy.

The information model (the same as :meth:`ofc_fast.game.Game.observation`): a seat
sees its own dealt cards and discards; of the other seats, how many cards they were
dealt and discarded, and their placements unless they were placed face down (a
Fantasyland set, a classic set), which are shown only at the showdown; never the deck.

>>> ev = deal_event(1, [51, 0, 4])
>>> redact(ev, viewer=0, face_down=False)
{'event': 'deal', 'seat': 1, 'cards': [], 'count': 3}
>>> redact(ev, viewer=1, face_down=False)["cards"]
['As', '2c', '3c']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import GameResult, Move
from ..rules import RulesLike, as_rules
from ..rules.compiled import compiled
from ._protocol import ROW_NAMES, action_of_move, card_text

__all__ = [
    "deal_event",
    "fantasyland_event",
    "place_event",
    "redact",
    "score_event",
    "showdown_event",
]


def fantasyland_event(seat: int, cards: int) -> dict[str, Any]:
    """``seat`` plays this hand in Fantasyland with ``cards`` cards (public)."""
    return {"event": "fantasyland", "seat": seat, "cards": cards}


def deal_event(seat: int, cards: Sequence[int]) -> dict[str, Any]:
    """Cards dealt to ``seat`` (the cards are private to it)."""
    return {
        "event": "deal",
        "seat": seat,
        "cards": [card_text(c) for c in cards],
        "count": len(cards),
    }


def place_event(seat: int, move: Move, dealt: Sequence[int] = ()) -> dict[str, Any]:
    """A decision's result: placements (public unless face down), discards
    (private), and the discard count (public).  With ``dealt``, cards are listed in
    deal order (the order the engine puts them in their rows)."""
    if dealt:
        move = move.in_order(dealt)
    body = action_of_move(move)
    return {
        "event": "place",
        "seat": seat,
        "placements": body["placements"],
        "discarded": body["discards"],
        "count": len(body["discards"]),
    }


def showdown_event(seat: int, rules: RulesLike, result: GameResult) -> dict[str, Any]:
    """The full board of ``seat`` with its row values, raw royalties per row (read
    from the royalty tables even for a fouled board), foul flag and the Fantasyland
    cards it earned for the next hand (None: none)."""
    rules = as_rules(rules, "showdown_event")
    board = result.boards[seat]
    ev = board.evaluate(rules)
    table = compiled(rules).royalty
    raw = [int(table[r][ev.strengths[r]]) for r in range(3)]
    values = board.row_values(rules)
    nxt = result.fantasyland[seat]
    out: dict[str, Any] = {"event": "showdown", "seat": seat}
    for r, name in enumerate(ROW_NAMES):
        out[name] = [card_text(c) for c in board.rows[r]]
    for r, name in enumerate(ROW_NAMES):
        out[f"{name}_value"] = values[r]
    out["royalties"] = dict(zip(ROW_NAMES, raw))
    out["fouled"] = bool(ev.foul)
    out["next_fantasyland"] = nxt or None
    return out


def score_event(seat: int, points: int) -> dict[str, Any]:
    """A ``score`` event: the points ``seat`` won (negative: lost) in the hand."""
    return {"event": "score", "seat": seat, "points": points}


def redact(ev: dict[str, Any], viewer: int, face_down: bool) -> dict[str, Any]:
    """The event as seat ``viewer`` may see it; ``face_down``: a ``place`` event of
    cards set face down (shown to others only at the showdown)."""
    kind = ev.get("event")
    if ev.get("seat") == viewer or kind not in ("deal", "place"):
        return ev
    if kind == "deal":
        return {**ev, "cards": []}
    return {**ev, "placements": [] if face_down else ev["placements"], "discarded": []}
