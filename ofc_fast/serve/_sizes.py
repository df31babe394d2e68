"""The size limits and the ranges of request fields: the server refuses a field beyond
its limit (400 naming it) or out of its range (422 naming it), and ``/openapi.json``
states the same limit (``maxItems`` / ``maxLength``) and range (``minimum`` /
``maximum``), both from :data:`SIZES` and :class:`Ranges`, so that a client generated
from the document never sends what the server refuses.

>>> SIZES.hands, SIZES.boards, SIZES.opponents, SIZES.board_text
(64, 4, 3, 200)
>>> RANGES.players, RANGES.action, Ranges.of(ServeConfig(max_samples=64)).samples
((2, 4), (0, 242), (1, 64))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import RANKS, SUITS
from ..game.moves import ACTION_SPACE
from ..table import MAX_SEATS, SEED_MAX, STACK_MAX
from ._config import ServeConfig

__all__ = ["RANGES", "SIZES", "Ranges", "Sizes"]


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
    declare_text: int = 64
    """A move's ``declare`` (``POST /v1/games/{id}/moves``): a natural's name
    (``three_flushes``)."""


SIZES = Sizes()
"""The limits the server checks."""


@dataclass(frozen=True)
class Ranges:
    """The lowest and the highest value (both taken) of each number field.  Where a
    field's own bound depends on the request (``players`` on the rule set's table,
    ``you`` on ``players``, ``button`` on the boards), this is the widest (the largest
    table's) and the narrower one is a 422 naming the field too."""

    players: tuple[int, int] = (2, MAX_SEATS)
    """``players`` (``POST /v1/games``): at most the rule set's ``max_players``."""
    you: tuple[int, int] = (0, MAX_SEATS - 1)
    """``you`` (``POST /v1/games``): a seat, below ``players``."""
    seed: tuple[int, int] = (0, SEED_MAX)
    """``seed`` (``/v1/analyze``, ``POST /v1/games``)."""
    hands: tuple[int, int] = (1, 10_000)
    """``hands`` (``POST /v1/games``): the deals of a match."""
    button: tuple[int, int] = (0, SIZES.boards - 1)
    """``button`` (``/v1/score``): a seat, below the boards' count."""
    stacks: tuple[int, int] = (0, STACK_MAX)
    """An item of ``stacks`` (``/v1/score``), as ``ofc_fast.table.check_stacks``."""
    action: tuple[int, int] = (0, ACTION_SPACE - 1)
    """``action`` (``POST /v1/games/{id}/moves``)."""
    version: tuple[int, int] = (0, 2**53 - 1)
    """``version`` (``POST /v1/games/{id}/moves``): a game's changes, counted (a JSON
    number every client reads exactly)."""
    card: tuple[int, int] = (0, len(RANKS) * len(SUITS) - 1)
    """A card id, as the library reads one."""
    row: tuple[int, int] = (0, 2)
    """A row id of a move's ``place`` (front, middle, back)."""
    samples: tuple[int, int] = (1, ServeConfig.max_samples)
    """``samples`` (``/v1/analyze``): at most ``--max-samples``."""
    time_budget: tuple[float, float] = (0.001, ServeConfig.max_time_budget)
    """``time_budget`` (``/v1/analyze``): at most ``--max-time-budget`` (which, below
    the least, is the least too)."""

    @classmethod
    def of(cls, config: ServeConfig) -> Ranges:
        """The ranges of a server of ``config`` (its ``--max-samples`` and
        ``--max-time-budget``).

        >>> Ranges.of(ServeConfig(max_time_budget=0.0005)).time_budget
        (0.0005, 0.0005)
        """
        cap = config.max_time_budget
        return cls(
            samples=(cls.samples[0], config.max_samples),
            time_budget=(min(cls.time_budget[0], cap), cap),
        )


RANGES = Ranges()
"""The ranges of a server of the default :class:`ServeConfig`."""
