"""Game flow, played by the C engine (``csrc/include/ofc_game.h``): one deal (:class:`Game`),
moves and action ids (:class:`Move`), what a seat sees (:class:`Observation`),
histories and replay, and many deals at one table (:class:`Match`).

>>> from ofc_fast.game import Game
>>> g = Game("pineapple", players=3, seed=11)
>>> while not g.is_over:
...     g.play_action(g.legal_actions()[-1])
>>> sum(g.result().net)
0

Modules: ``state`` (:class:`Game`), ``moves`` (:class:`Move`, action ids), ``observation``
(:class:`Observation`), ``history`` (history and replay), ``result``
(:class:`GameResult`), ``match`` (:class:`Match`); the private ``_engine`` bridges to
the C engine (its rules struct, seeds and decks, its status codes as exceptions).
"""

from __future__ import annotations

from ..board import ROW_SIZES
from ..errors import GameError, HistoryError, MoveError
from ._engine import deal_seed, deck_of_seed
from ._engine import resolve_rules as resolve_rules  # env and parallel resolve alike
from .history import HISTORY_VERSION
from .match import Match, SeatStats, max_fantasyland_cards
from .moves import (
    ACTION_SPACE,
    DISCARD,
    Move,
    action_for_move,
    actions_for,
    move_for_action,
    moves_for,
    random_move,
)
from .observation import Observation, ObservationResult, RuleSetDict
from .playout import play_out
from .result import GameResult
from .state import Game, cards_per_seat

__all__ = [
    "ACTION_SPACE",
    "DISCARD",
    "HISTORY_VERSION",
    "ROW_SIZES",
    "Game",
    "GameError",
    "GameResult",
    "HistoryError",
    "Match",
    "Move",
    "MoveError",
    "Observation",
    "ObservationResult",
    "RuleSetDict",
    "SeatStats",
    "action_for_move",
    "actions_for",
    "cards_per_seat",
    "deal_seed",
    "deck_of_seed",
    "max_fantasyland_cards",
    "move_for_action",
    "moves_for",
    "play_out",
    "random_move",
]
