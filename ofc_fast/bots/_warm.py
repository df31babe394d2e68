"""Warming a bot up before a deadline runs: one rehearsal deal, whose decisions build
the tables and caches the bot's first real decision would otherwise build on the
clock (``ofc-fast bot`` calls a bot's ``warm_up(rules, players)`` after ``hello``)."""

from __future__ import annotations

from ..errors import TableError
from ..game import Game, play_out
from ..rules import PINEAPPLE, RuleSet, as_rules
from ..table import check_players
from .base import Bot

__all__ = ["rehearse", "warm_seats", "warm_table"]


def warm_table(rules: object, own: RuleSet | None, who: str) -> RuleSet:
    """The rules a bot's ``warm_up(rules)`` rehearses: ``rules`` (None: the bot's
    ``own``, else PINEAPPLE) resolved as every taker of rules resolves them
    (:func:`~ofc_fast.rules.as_rules`, its RulesError naming ``who``): an empty name,
    0 or an empty list is refused, not read as none.

    >>> from ofc_fast import rules
    >>> warm_table(None, None, "a bot") is rules.PINEAPPLE
    True
    >>> warm_table("", rules.OFC, "a bot")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: unknown rule set ''; presets: OFC, ...
    """
    if rules is None:
        return PINEAPPLE if own is None else own
    return as_rules(rules, who)


def warm_seats(players: object, rules: RuleSet, who: str) -> int:
    """The seat count a bot's ``warm_up(rules, players)`` rehearses at: ``players``
    checked as every table checks it (:func:`~ofc_fast.table.check_players`), its
    TableError naming ``who`` (the bot and ``warm_up``).

    >>> from ofc_fast import rules
    >>> warm_seats(3, rules.PINEAPPLE, "a bot warm_up")
    3
    >>> warm_seats(0, rules.PINEAPPLE, "a bot warm_up")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: a bot warm_up: PINEAPPLE seats 2 to 3 players, got 0
    """
    try:
        return check_players(players, rules)
    except TableError as exc:
        raise TableError(f"{who}: {exc}") from None


def rehearse(bot: Bot, rules: RuleSet, players: int = 2) -> None:
    """Play one deal of ``rules`` (``players`` seats, seed 0) with ``bot`` in every
    seat.

    >>> from ofc_fast import rules
    >>> from ofc_fast.bots import RandomBot
    >>> rehearse(RandomBot(seed=0), rules.PINEAPPLE)
    """
    play_out(Game(rules, players=players, seed=0), [bot] * players)
