"""Bots: anything with ``act(observation) -> Move`` can sit at a :class:`~ofc_fast.Game`.

* :class:`RandomBot` (:mod:`ofc_fast.bots.random`) plays a uniformly random legal move.
* :class:`HeuristicBot` (:mod:`ofc_fast.bots.heuristic`) samples futures and values the
  boards in C (:mod:`ofc_fast.bots.model`).
* :class:`SearchBot` (:mod:`ofc_fast.bots.search`) searches every decision with
  :func:`ofc_fast.search.advise` (rollouts with best completions, exact endgames;
  the learned value places its rollouts' cards where a model ships).
* :class:`ValueBot` (:mod:`ofc_fast.bots.value`) plays the move of best learned value
  (:mod:`ofc_fast.learned`), with no search.
* :mod:`ofc_fast.bots.base`: the :class:`Bot` protocol and its conventions (``rules``,
  ``seed``, keyword settings, ``settings()``, optional ``reset(seed)``).
* :mod:`ofc_fast.bots.registry`: bots by name (:func:`make_bot`, :func:`make_bots`,
  :func:`register`, :func:`bot_names`) or spec (``value@PATH`` and ``search@PATH``: a
  trained model file; ``policy:PATH``; ``module:attribute``), what ``ofc-fast play
  --bots`` reads.

>>> from ofc_fast import rules
>>> from ofc_fast.bots import make_bots
>>> from ofc_fast.game import Game, play_out
>>> g = Game(rules.PINEAPPLE, players=2, seed=3)
>>> sum(play_out(g, make_bots("heuristic,random", 2, seed=1)).net)
0
"""

from __future__ import annotations

from .base import Bot, ObservationLike, unseen_cards
from .heuristic import HeuristicBot
from .random import RandomBot
from .registry import BOTS, BotFactory, bot_names, make_bot, make_bots, register, unregister
from .registry import bot_key as bot_key  # serve reads bot names as make_bot does
from .search import SearchBot
from .value import ValueBot

__all__ = [
    "BOTS",
    "Bot",
    "BotFactory",
    "HeuristicBot",
    "ObservationLike",
    "RandomBot",
    "SearchBot",
    "ValueBot",
    "bot_names",
    "make_bot",
    "make_bots",
    "register",
    "unregister",
    "unseen_cards",
]

register("random", RandomBot)
register("heuristic", HeuristicBot)
register("search", SearchBot)
register("value", ValueBot)
