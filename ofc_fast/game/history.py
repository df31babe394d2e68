"""Histories: a deal as plain JSON-able data, and its replay with every recorded field
checked (HistoryError names the first that disagrees).

>>> import json
>>> from ofc_fast.game import Game
>>> g = Game("pineapple", players=2, seed=3)
>>> while not g.is_over:
...     g.play_action(g.legal_actions()[0])
>>> h = json.loads(json.dumps(g.history()))
>>> Game.replay(h) == g
True
>>> h["result"]["net"] = [5, -5]
>>> Game.replay(h)
Traceback (most recent call last):
...
ofc_fast.errors.HistoryError: result.net: the history records [5, -5], the replay gives ...
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..cards import is_many
from ..errors import GameError, HistoryError, MoveError, OfcError, quote
from ..lazy import lazy_module
from ..rules import RuleSet
from ..table import check_fantasyland, check_players, check_seat, check_seed, check_stacks
from ._engine import deck_cards, deck_of_seed, resolve_rules
from .moves import Move

if TYPE_CHECKING:
    from . import state as _state
else:
    _state = lazy_module("ofc_fast.game.state")

__all__ = ["HISTORY_VERSION", "replay"]

_T = TypeVar("_T")

HISTORY_VERSION = 2
"""Version 2: decks come from the C engine's generator (``ofc_deck_from_seed``)."""

_KEYS = {
    "version",
    "rules",
    "players",
    "button",
    "seed",
    "deck",
    "fantasyland",
    "moves",
    "stacks",
    "result",
}


def history_of(game: _state.Game) -> dict[str, Any]:
    """The JSON-able history of a game (see :meth:`Game.history`)."""
    h: dict[str, Any] = {
        "version": HISTORY_VERSION,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "button": game.button,
        "seed": game.seed,
        "deck": list(game.deck),
        "fantasyland": list(game.fantasyland),
        "moves": [m.to_dict() for m in game.moves],
    }
    if game.stacks is not None:
        h["stacks"] = list(game.stacks)
    if game.is_over:
        h["result"] = _recorded(game)
    return h


def _recorded(game: _state.Game) -> dict[str, Any]:
    r = game.result()
    return {**r.summary(), "boards": [str(b) for b in r.boards]}


def _rules_of(data: object) -> RuleSet:
    if isinstance(data, Mapping):
        try:
            return RuleSet.from_dict(dict(data))
        except OfcError as exc:
            raise HistoryError(f"rules: {exc}", "rules") from None
    try:
        return resolve_rules(data)  # type: ignore[arg-type]
    except GameError as exc:
        raise HistoryError(f"rules: {exc}", "rules") from None


def replay(cls: type[_state.Game], history: Mapping[str, Any]) -> _state.Game:
    """Rebuild a game from its history, checking every recorded field (what
    :meth:`Game.replay` calls).

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=3)
    >>> g.play_action(g.legal_actions()[0])
    >>> replay(Game, g.history()) == g
    True
    >>> replay(Game, {"moves": [], "rules": "pineapple", "players": 2})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.HistoryError: the history has neither a seed nor a deck
    """
    if not isinstance(history, Mapping) or "moves" not in history:
        line = isinstance(history, Mapping) and isinstance(history.get("history"), Mapping)
        raise HistoryError(
            "history must be a dict made by Game.history()"
            + (  # a line of a --history .jsonl file (hand_history.schema.json)
                ", got a hand-history line (--history PATH.jsonl): it holds the "
                'deal\'s history under "history": Game.replay(line["history"])'
                if line
                else ""
            ),
            "",
        )
    unknown = set(history) - _KEYS
    if unknown:
        raise HistoryError(
            f"unknown history key(s) {quote(sorted(map(str, unknown)))}",
            str(sorted(map(str, unknown))[0]),
        )
    if not _same(history.get("version", HISTORY_VERSION), HISTORY_VERSION):
        raise HistoryError(
            f"unknown history version {quote(history.get('version'))} "
            f"(this is version {HISTORY_VERSION})",
            "version",
        )
    for key in ("rules", "players"):
        if key not in history:
            raise HistoryError(f"the history has no {key!r}", key)
    rules = _rules_of(history["rules"])
    seed, deck = history.get("seed"), history.get("deck")
    if seed is None and deck is None:
        raise HistoryError("the history has neither a seed nor a deck", "seed")
    players = _table_field("players", check_players, history["players"], rules)
    button, stacks = history.get("button", 0), history.get("stacks")
    fantasyland = history.get("fantasyland")
    _table_field("button", check_seat, button, players)
    _table_field("stacks", check_stacks, stacks, players)
    # with no counts, a table one deck cannot deal is the seat count's fault
    fl_key = "players" if fantasyland is None else "fantasyland"
    _table_field(fl_key, check_fantasyland, fantasyland, players, rules)
    if seed is None:
        _table_field("deck", deck_cards, deck)
    else:
        _table_field("seed", check_seed, seed)
    g = _table_field(
        "players",  # (each field passed: what the engine refuses is the table's)
        cls,
        rules,
        players,
        seed=seed,
        button=button,
        fantasyland=fantasyland,
        stacks=stacks,
        deck=deck if seed is None else None,
    )
    if deck is not None and seed is not None and not _same_deck(deck, deck_of_seed(seed)):
        raise HistoryError(
            f"deck: seed {seed} deals another deck than the one recorded", "deck"
        )
    moves = history["moves"]
    if isinstance(moves, Mapping) or not is_many(moves):  # (text, a 0-d array: one value)
        raise HistoryError("moves must be a list of moves", "moves")
    for i, m in enumerate(moves):
        try:
            g.play(m if isinstance(m, Move) else Move.from_dict(m))
        except MoveError as exc:
            raise MoveError(f"history move {i}: {exc}", exc.reason) from None
    recorded = history.get("result")
    if recorded is not None:
        _check_result(g, recorded)
    return g


def _table_field(key: str, check: Callable[..., _T], *args: Any, **kw: Any) -> _T:
    """``check(*args, **kw)``: a table field of the history checked as :class:`Game`
    checks it (the same function), else HistoryError naming ``key``."""
    try:
        return check(*args, **kw)
    except GameError as exc:
        raise HistoryError(f"the history's table cannot be set up: {exc}", key) from None


def _same(recorded: object, actual: object) -> bool:
    """``recorded == actual`` for a value read from a history, whatever it holds (an
    array, say): False instead of an exception."""
    try:
        return bool(recorded == actual)
    except (TypeError, ValueError, RecursionError):
        return False


def _same_deck(recorded: object, dealt: Sequence[int]) -> bool:
    """True when the recorded deck is a list of the same card ids (whatever else it
    holds: False, never an exception)."""
    if not isinstance(recorded, (list, tuple)) or len(recorded) != len(dealt):
        return False
    for card, want in zip(recorded, dealt):
        try:
            if isinstance(card, bool) or operator.index(card) != want:
                return False
        except TypeError:
            return False
    return True


def _check_result(g: _state.Game, recorded: object) -> None:
    if not g.is_over:
        raise HistoryError(
            "result: the history records a result but its moves do not finish the deal",
            "result",
        )
    if not isinstance(recorded, Mapping):
        raise HistoryError("result must be a dict", "result")
    actual = _recorded(g)
    for key, value in recorded.items():
        if key not in actual:
            raise HistoryError(
                f"result.{str(key)[:30]}: not a recorded field", f"result.{key}"
            )
        if not _same(value, actual[key]):
            raise HistoryError(
                f"result.{key}: the history records {quote(value)}, the "
                f"replay gives {quote(actual[key])}",
                f"result.{key}",
            )
