"""The words of a refused move: what the engine's refusal means for the move
(:func:`refusal_detail`), and whose move it was (:func:`seat_named`, the default
``illegal`` of :func:`ofc_fast.game.state.finish`, which hands a seat's illegal move
to its caller as the bot's own MoveError: no reading of an exception's chain)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._native import lib
from ..cards import cards_str
from ..errors import MoveError

if TYPE_CHECKING:
    from .moves import Move

__all__ = ["Illegal", "refusal_detail", "seat_named"]

Illegal = Callable[[int, MoveError], BaseException]
"""``illegal(seat, error)``: the error to raise for ``seat``'s illegal move, made from
the MoveError its move raised (the game is as it was before the move)."""


def refusal_detail(
    status: int, seat: int, move: Move, to_discard: int, dealt: Sequence[int], counts: Any
) -> str:
    """What ``move`` of ``seat`` (to discard ``to_discard`` of ``dealt``, its rows
    holding ``counts`` cards) did that the engine refused with ``status``."""
    if status == lib.OFC_E_DISCARDS:
        return (
            f"seat {seat} must discard exactly {to_discard} of "
            f"{cards_str(dealt)}, the move discards {len(move.discards)}"
        )
    if status == lib.OFC_E_ROW_FULL:
        for r, name, size in ((0, "front", 3), (1, "middle", 5), (2, "back", 5)):
            add = sum(1 for d in move.destinations if d == r)
            if counts[r] + add > size:
                return (
                    f"the {name} row of seat {seat} takes {size} cards; the move "
                    f"would put {counts[r] + add} there"
                )
    return f"seat {seat}"


def seat_named(bots: Sequence[Any]) -> Illegal:
    """The ``illegal`` of :func:`~ofc_fast.game.play_out`: a MoveError naming the seat
    and its bot's class, then the move's own words, of the same ``reason``.

    >>> seat_named([object()])(0, MoveError("card Ah was not dealt", "not_dealt"))
    MoveError('seat 0 (object): card Ah was not dealt')
    """

    def illegal(seat: int, exc: MoveError) -> MoveError:
        return MoveError(f"seat {seat} ({type(bots[seat]).__name__}): {exc}", exc.reason)

    return illegal
