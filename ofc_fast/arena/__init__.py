"""Bots from any language: the poker-arena OFC wire protocol (v1), both sides.

* ``._protocol``: framing (JSON Lines, 64 KiB), messages, the action and the
  filler placement; ``._games``: game ids and our presets;
* ``._events``: a hand's events and their redaction per seat;
* :mod:`.client`: the bot side (``ofc-fast bot NAME``);
* ``._transport``: in-process, subprocess (``cmd:``) and TCP (``tcp:``) bots;
* ``._host``: the arena (``ofc-fast arena``), faults, duplicate matches;
* :mod:`.report`, ``._stats``: the match report and its intervals;
* :mod:`.history`: one JSON line per deal, its schema, import and replay;
* :mod:`.html`: the self-contained HTML match report;
* ``._signals``: Ctrl-C held back while a hand is booked (the parallel runs' too).

The names are imported when first asked for (:mod:`ofc_fast.lazy`): ``ofc-fast``
builds the arena's subcommands (:mod:`ofc_fast.arena.cli`) without the host, its
transports (subprocess, sockets) and its report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

__all__ = [
    "GAME_IDS",
    "Arena",
    "BotSpec",
    "game_id_of",
    "parse_bot_spec",
    "resolve_arena_rules",
    "rules_for_game_id",
]

if TYPE_CHECKING:
    from ._games import GAME_IDS, game_id_of, resolve_arena_rules, rules_for_game_id
    from ._host import Arena, BotSpec, parse_bot_spec
    from ._host import BotRecord as BotRecord  # for parallel.tournament
    from ._host import DealRecord as DealRecord
    from ._protocol import FaultKind as FaultKind  # for parallel.tournament
    from ._protocol import bot_crashed as bot_crashed  # for parallel.tournament
    from ._protocol import filler_move as filler_move  # for parallel.tournament
    from ._schema import MAX_DIGITS as MAX_DIGITS  # for serve (its bodies' integers)
    from ._schema import LongInteger as LongInteger  # for serve
    from ._schema import ManyDigits as ManyDigits  # for serve
    from ._schema import json_integer as json_integer  # for serve
    from ._schema import json_number as json_number  # for serve
    from ._schema import parse as parse  # for the files parallel and learned read
    from ._schema import reject_constant as reject_constant  # for serve
    from ._signals import sigint_deferred as sigint_deferred  # for parallel
    from ._signals import sigterm_as_sigint as sigterm_as_sigint  # for cli play
else:  # (mypy reads the names above: one it lacks stays an error)
    __getattr__, __dir__ = lazy_exports(
        globals(),
        {
            "._games": (
                "GAME_IDS",
                "game_id_of",
                "resolve_arena_rules",
                "rules_for_game_id",
            ),
            "._host": ("Arena", "BotRecord", "BotSpec", "DealRecord", "parse_bot_spec"),
            "._protocol": ("FaultKind", "bot_crashed", "filler_move"),
            "._schema": (
                "MAX_DIGITS",
                "LongInteger",
                "ManyDigits",
                "json_integer",
                "json_number",
                "parse",
                "reject_constant",
            ),
            "._signals": ("sigint_deferred", "sigterm_as_sigint"),
        },
    )
