"""Warming a bot up before a deadline runs: one rehearsal deal, whose decisions build
the tables and caches the bot's first real decision would otherwise build on the
clock (``ofc-fast bot`` calls a bot's ``warm_up(rules, players)`` after ``hello``)."""

from __future__ import annotations

from ..game import Game, play_out
from ..rules import RuleSet

__all__ = ["rehearse"]


def rehearse(bot: object, rules: RuleSet, players: int = 2) -> None:
    """Play one deal of ``rules`` (``players`` seats, seed 0) with ``bot`` in every
    seat.

    >>> from ofc_fast import rules
    >>> from ofc_fast.bots import RandomBot
    >>> rehearse(RandomBot(seed=0), rules.PINEAPPLE)
    """
    play_out(Game(rules, players=players, seed=0), [bot] * players)
