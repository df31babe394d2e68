"""The bot opponents of a :class:`~ofc_fast.env.VectorEnv` made with a bot's name
(``opponents="heuristic"`` ...): one bot per other seat of every table, seeded from its
table's match (:func:`make_bots`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules import RuleSet


def make_bots(
    opponents: str,
    rules: RuleSet,
    settings: Mapping[str, Any],
    seeds: Sequence[int],
    players: int,
    learner: int,
) -> list[list[Any]]:
    """Per table (``seeds``: each table's match seed), a bot ``opponents`` with
    ``settings`` at each seat but ``learner`` (None there), seed ``match seed + seat``;
    a bot that cannot play at a table of ``players`` seats is refused now."""
    from ..bots import make_bot
    from ..bots.registry import check_table

    tables = [
        [
            make_bot(opponents, rules, seed=(seed + s) % (1 << 64), **settings)
            if s != learner
            else None
            for s in range(players)
        ]
        for seed in seeds
    ]
    for bots in tables:
        for bot in bots:
            check_table(bot, players)
    return tables
