"""ofc-fast: fast hand ranking, fouls, royalties and scoring for Chinese Poker and
Open Face Chinese Poker, in C with a typed Python API.

>>> import ofc_fast as ofc
>>> ofc.rank3("Qh Qd 5c") > ofc.rank5("Qs Qc 4d 3h 2s")
True
>>> ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").royalties()
(7, 12, 25)
"""

from __future__ import annotations

import os
from importlib.machinery import PathFinder
from typing import TYPE_CHECKING

from .lazy import lazy_exports

# The compiled extension found (loaded with the first name used); a source tree
# without it fails here, with _native's one-line ImportError saying what to do.  A
# damaged one (truncated, another ABI) is found too: its loader's ImportError comes
# with the first name used, as the price of an import that loads nothing.
if not PathFinder.find_spec(
    f"{__name__}._native._ofc", [os.path.join(__path__[0], "_native")]
):
    from ._native import lib  # noqa: F401

if TYPE_CHECKING:
    from . import batch as batch
    from . import board as board
    from . import cards as cards
    from . import errors as errors
    from . import fantasyland as fantasyland
    from . import game as game
    from . import ranking as ranking
    from . import rules
    from . import scoring as scoring
    from ._version import __version__
    from .batch import BoardBatch, eval_boards, rank3_batch, rank5_batch, score_pairs
    from .board import Board, BoardEval, Row
    from .cards import card_str, cards_str, from_treys, parse_card, parse_cards, to_treys
    from .errors import (
        ArrayError,
        BoardError,
        CardError,
        GameError,
        HistoryError,
        MoveError,
        OfcError,
        RulesError,
        StrengthError,
        TableError,
    )
    from .fantasyland import fantasyland_cards
    from .game import (
        ACTION_SPACE,
        Game,
        GameResult,
        Match,
        Move,
        Observation,
        SeatStats,
        deal_seed,
    )
    from .ranking import (
        STRENGTH_MAX,
        HandCategory,
        category,
        describe,
        hand_ranks,
        kev_rank,
        low27,
        rank,
        rank3,
        rank5,
        strength_cards,
        strength_from_kev,
    )
    from .rules import RuleSet
    from .scoring import PairScore, score_pair
    from .scoring.naturals import NaturalHand, detect_naturals, natural_payment, naturals
    from .scoring.settlement import (
        Settlement,
        SettlementItem,
        apply_stakes,
        settle,
        settlement_order,
    )
    from .search import Advice, advise, best_completion
    from .solver import STAY_VALUE_DEFAULT, Solution, best_setting, solve_fantasyland
else:  # (every name loads on first use: ``ofc-fast`` handles Ctrl-C while they load)
    # (the names packed: the lists of their modules' __all__ stay one a line)
    # fmt: off
    __getattr__, __dir__ = lazy_exports(
        globals(),
        {
            ".": ("batch", "board", "cards", "errors", "fantasyland", "game", "ranking",
                "rules", "scoring"),
            "._version": ("__version__",),
            ".batch": ("BoardBatch", "eval_boards", "rank3_batch", "rank5_batch",
                "score_pairs"),
            ".board": ("Board", "BoardEval", "Row"),
            ".cards": ("card_str", "cards_str", "from_treys", "parse_card", "parse_cards",
                "to_treys"),
            ".errors": ("ArrayError", "BoardError", "CardError", "GameError",
                "HistoryError", "MoveError", "OfcError", "RulesError", "StrengthError",
                "TableError"),
            ".fantasyland": ("fantasyland_cards",),
            ".game": ("ACTION_SPACE", "Game", "GameResult", "Match", "Move", "Observation",
                "SeatStats", "deal_seed"),
            ".ranking": ("STRENGTH_MAX", "HandCategory", "category", "describe",
                "hand_ranks", "kev_rank", "low27", "rank", "rank3", "rank5",
                "strength_cards", "strength_from_kev"),
            ".rules": ("RuleSet",),
            ".scoring": ("PairScore", "score_pair"),
            ".scoring.naturals": ("NaturalHand", "detect_naturals", "natural_payment",
                "naturals"),
            ".scoring.settlement": ("Settlement", "SettlementItem", "apply_stakes",
                "settle", "settlement_order"),
            ".search": ("Advice", "advise", "best_completion"),
            ".solver": ("STAY_VALUE_DEFAULT", "Solution", "best_setting",
                "solve_fantasyland"),
        },
    )
    # fmt: on

__all__ = [
    "ACTION_SPACE",
    "STAY_VALUE_DEFAULT",
    "STRENGTH_MAX",
    "Advice",
    "ArrayError",
    "Board",
    "BoardBatch",
    "BoardError",
    "BoardEval",
    "CardError",
    "Game",
    "GameError",
    "GameResult",
    "HandCategory",
    "HistoryError",
    "Match",
    "Move",
    "MoveError",
    "NaturalHand",
    "Observation",
    "OfcError",
    "PairScore",
    "Row",
    "RuleSet",
    "RulesError",
    "SeatStats",
    "Settlement",
    "SettlementItem",
    "Solution",
    "StrengthError",
    "TableError",
    "__version__",
    "advise",
    "apply_stakes",
    "best_completion",
    "best_setting",
    "card_str",
    "cards_str",
    "category",
    "deal_seed",
    "describe",
    "detect_naturals",
    "eval_boards",
    "fantasyland_cards",
    "from_treys",
    "hand_ranks",
    "kev_rank",
    "low27",
    "natural_payment",
    "naturals",
    "parse_card",
    "parse_cards",
    "rank",
    "rank3",
    "rank3_batch",
    "rank5",
    "rank5_batch",
    "rules",
    "score_pair",
    "score_pairs",
    "settle",
    "settlement_order",
    "solve_fantasyland",
    "strength_cards",
    "strength_from_kev",
    "to_treys",
]
