"""The bridge to the C game engine (``csrc/include/ofc_game.h``): a rule set compiled into an
``ofc_game_rules`` (once per rule set, shared read-only) and the engine's status codes
as exceptions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from .._native import ffi, lib, move_error
from ..cards import parse_card, refuse_unordered
from ..errors import CardError, GameError, GameRulesError, RulesError, quote
from ..rules import RuleSet, RulesLike, as_rules
from ..rules.compiled import KIND, game_struct
from ..table import SEED_MAX, check_seed

__all__ = [
    "KIND",
    "SEED_MAX",
    "deal_seed",
    "deck_cards",
    "deck_of_seed",
    "game_rules",
    "raise_move_error",
    "resolve_rules",
]


def resolve_rules(rules: RuleSet | str) -> RuleSet:
    """A rule set, or the preset a preset name or an arena game id names
    (:func:`ofc_fast.rules.as_rules`); otherwise :class:`GameRulesError`, a
    RulesError and a GameError, so that either ``except`` catches it."""
    try:
        return as_rules(rules, "rules")
    except RulesError as exc:
        raise GameRulesError(str(exc)) from None


def game_rules(rules: RulesLike) -> Any:  # cdata 'ofc_game_rules *'
    """The C ``ofc_game_rules`` of a rule set (about 100 KB; compiled once with every
    other C struct of the rule set, :func:`ofc_fast.rules.compiled.compile_rules`, and
    shared read-only, also between threads)."""
    return game_struct(rules)


def deck_of_seed(seed: int) -> tuple[int, ...]:
    """The deck a seed deals (``ofc_deck_from_seed``: SplitMix64 + Fisher-Yates).

    >>> deck_of_seed(0)[:5] == deck_of_seed(0)[:5]
    True
    """
    deck = ffi.new("uint8_t[52]")
    lib.ofc_deck_from_seed(check_seed(seed), deck)
    return tuple(deck)


def deck_cards(deck: Sequence[object], seed: object = None) -> list[int]:
    """The card ids of a game's explicit ``deck`` (each of the 52 cards once, as ids
    or text), else GameError; also when a ``seed`` is given with it (the deck is dealt
    as it is: the seed would be dropped).

    >>> deck_cards(range(52), seed=5)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.GameError: seed and deck: give one (a deck is dealt as given, a seed shuffles one), got seed 5 and a deck
    """  # noqa: E501 - the error message as the user sees it
    if seed is not None:
        raise GameError(
            "seed and deck: give one (a deck is dealt as given, a seed shuffles one), "
            f"got seed {quote(seed)} and a deck"
        )
    try:
        refuse_unordered(deck)
    except CardError as exc:
        raise GameError(f"deck: {exc}") from None
    try:
        cards = [parse_card(c) for c in deck]  # type: ignore[arg-type]
    except TypeError:
        raise GameError("deck must be a sequence of the 52 cards") from None
    if sorted(cards) != list(range(52)):
        raise GameError("deck must hold each of the 52 cards exactly once")
    return cards


def deal_seed(run_seed: int, i: int) -> int:
    """The game seed of deal ``i`` of a run with seed ``run_seed``: deal ``i`` depends
    only on ``(run_seed, i)``.

    Raises TableError for a run seed outside 0..2**64-1, GameError for a deal index
    outside it.

    >>> from ofc_fast import Match
    >>> Match("pineapple", seed=1).next_game().seed == deal_seed(1, 0)
    True
    """
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= SEED_MAX:
        raise GameError(f"deal index must be an int 0..2**64-1, got {quote(i)}")
    return int(lib.ofc_deal_seed(check_seed(run_seed), i))


_HINTS = {
    lib.OFC_E_COUNT: "the move does not use every dealt card",
    lib.OFC_E_FULL_SET: "play a Move",
}
"""What an engine status means for a Game move, where C's message is generic."""


def raise_move_error(status: int, detail: str = "") -> NoReturn:
    """Raise the MoveError of an engine status (the state is unchanged): C's message,
    then what it means here and ``detail``."""
    raise move_error(status, "; ".join(t for t in (_HINTS.get(status, ""), detail) if t))
