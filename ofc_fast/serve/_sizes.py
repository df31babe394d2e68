"""The size limits of request fields: the server refuses a field beyond its limit
(400 naming it) and ``/openapi.json`` states the same limit (``maxItems`` /
``maxLength``), both from :data:`SIZES`, so that a client generated from the document
never sends what the server refuses.

>>> SIZES.hands, SIZES.boards, SIZES.opponents, SIZES.board_text
(64, 4, 3, 200)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..table import MAX_SEATS

__all__ = ["SIZES", "Sizes"]


@dataclass(frozen=True)
class Sizes:
    """The most items (``*s``) or characters (``*_text``) a request field may hold."""

    hands: int = 64
    """``hands`` (``/v1/evaluate``)."""
    boards: int = 4
    """``boards`` (``/v1/score``, ``/v1/evaluate``)."""
    opponents: int = 3
    """``opponents`` (``/v1/analyze``)."""
    stacks: int = 4
    """``stacks`` (``/v1/score``)."""
    cards: int = 52
    """A list of cards (``cards``, ``hands[i]``, an observation's card lists)."""
    fantasyland: int = MAX_SEATS
    """``fantasyland`` (``POST /v1/games``): the match takes one per seat (422
    otherwise), so never more than the largest table's seats."""
    bots: int = MAX_SEATS - 1
    """``bots`` (``POST /v1/games``): one per seat but yours at the largest table; a
    game of fewer ``players`` takes one name or ``players - 1`` (422 otherwise)."""
    board_text: int = 200
    """A board text (``board``, ``boards[i]``, ``opponents[i]``)."""
    dealt_text: int = 200
    """``dealt`` (``/v1/analyze``)."""
    dead_text: int = 400
    """``dead`` (``/v1/analyze``)."""
    hand_text: int = 64
    """Card text in one hand of ``/v1/evaluate`` ("10s 10h 10d 10c 9s": 18)."""
    rules_text: int = 64
    """``rules``."""
    objective_text: int = 20
    """``objective`` (``/v1/arrange``)."""


SIZES = Sizes()
"""The limits the server checks."""
