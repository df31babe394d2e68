"""Unpickling a :class:`~ofc_fast.game.Game` (``Game.__reduce__``): the pickled table
checked as a new game's, the engine's state bytes by C (``ofc_game_state_check``)
before any other function reads them, and against the table; what a subclass adds,
which its copies and pickles carry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._native import check_error, ffi, lib
from ..errors import GameError, quote
from ..rules import RuleSet
from ..table import check_seed, check_table
from ._engine import game_rules
from .moves import Move

__all__ = ["checked", "own_attributes"]

WHAT = "a pickled Game"


@dataclass(frozen=True)
class Pickled:
    """The checked fields of a pickled game (``r``: the engine's rules of ``rules``)."""

    rules: RuleSet
    players: int
    button: int
    seed: int | None
    fantasyland: tuple[int, ...]
    stacks: tuple[int, ...] | None
    r: Any


def checked(table: object, stacks: Any, state: object, moves: object) -> Pickled:
    """The fields of a pickled game once the table passed :func:`check_table`, the
    state bytes ``ofc_game_state_check`` under its rules and agree with the table, and
    ``moves`` is a list of the moves the state made (Moves or action ids); GameError
    naming the first problem of a damaged or edited pickle."""
    if not isinstance(table, tuple) or len(table) != 5:
        raise GameError(f"{WHAT} of another ofc_fast version (its table)")
    rules, players, button, seed, fantasyland = table
    if not isinstance(rules, RuleSet):
        raise GameError(f"{WHAT}'s rules must be a RuleSet, got {quote(rules)}")
    players, button, stacks_t, fl = check_table(rules, players, button, stacks, fantasyland)
    seed_v = None if seed is None else check_seed(seed)
    if not isinstance(state, bytes) or len(state) != ffi.sizeof("ofc_game"):
        raise GameError(f"{WHAT} of another ofc_fast build (its C state)")
    r = game_rules(rules)
    c = ffi.cast("ofc_game *", ffi.from_buffer(state))
    why = ffi.new("char **")
    status = lib.ofc_game_state_check(r, c, why)
    if status:
        raise check_error(status, why, WHAT, GameError)
    if (c.players, c.button, tuple(c.fl)[:players]) != (players, button, fl):
        raise GameError(f"{WHAT}: its state is not a deal of its table")
    if c.seed != (seed_v or 0):
        raise GameError(f"{WHAT}: its state's seed is not its seed {seed_v}")
    if not isinstance(moves, list) or len(moves) != c.step:
        raise GameError(f"{WHAT}: its moves must be a list of the {c.step} made")
    for m in moves:
        if not isinstance(m, Move) and type(m) is not int:
            raise GameError(f"{WHAT}: a move must be a Move or an action, got {quote(m)}")
    return Pickled(rules, players, button, seed_v, fl, stacks_t, r)


def own_attributes(g: object, base: type) -> dict[str, Any]:
    """What a subclass of ``base`` adds to ``g``: its ``__dict__`` and the slots its
    classes declare (those set), by attribute name."""
    out = dict(getattr(g, "__dict__", {}))
    for name in _slot_names(type(g), base):
        if hasattr(g, name):
            out[name] = getattr(g, name)
    return out


def _slot_names(cls: type, base: type) -> tuple[str, ...]:
    """The slots the classes of ``cls`` below ``base`` declare, by attribute name (a
    private slot's mangled), worked out once a class."""
    known = _SLOT_NAMES.get((cls, base))
    if known is not None:
        return known
    names = []
    for c in cls.__mro__:
        if c is base:
            break
        slots = c.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{c.__name__.lstrip('_')}{name}"
            if name not in ("__dict__", "__weakref__"):
                names.append(name)
    known = _SLOT_NAMES[cls, base] = tuple(names)
    return known


_SLOT_NAMES: dict[tuple[type, type], tuple[str, ...]] = {}
