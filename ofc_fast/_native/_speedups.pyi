"""Types of the CPython extension ``ofc_fast._native._speedups`` (_speedups.c): the
METH_FASTCALL per-call rankers, the game-state fast paths (observation, legal
actions, apply) and the card-list checks.  Not built on PyPy, where
ofc_fast.ranking and ofc_fast.game.observation use their pure-Python paths."""

from collections.abc import Callable, Sequence
from typing import Any

from ofc_fast.game.observation import Observation

def rank5(cards: object, /) -> int:
    """Strength of a 5-card hand (as ofc_fast.rank5)."""

def rank3(cards: object, /) -> int:
    """Strength of a 3-card front hand (as ofc_fast.rank3)."""

def set_fallback(fallback: Callable[[object, int], int], /) -> None:
    """``fallback(cards, n)`` handles every input the fast path does not."""

def observe(game: bytearray, seat: int, template: dict[str, Any], /) -> Observation:
    """A seat's observation of the ``ofc_game`` held by ``game`` (a copy of
    ``template`` filled in)."""

def legal_actions(game: bytearray, /) -> list[int] | None:
    """Legal action ids of the pending normal decision (None: none pending)."""

def place(game: bytearray, dest: int, /) -> int:
    """Apply a placement; the engine's status (the state is unchanged on error)."""

def act(game: bytearray, action: int, /) -> int:
    """Apply an action id; the engine's status (the state is unchanged on error)."""

def bind(
    observe: int,
    place: int,
    act: int,
    legal_of: Callable[[int, int, tuple[int, int, int]], Sequence[int]],
    /,
) -> None:
    """Bind the engine's functions (addresses) once, at import of ofc_fast.game."""

def card_ids(seq: object, /) -> tuple[int, ...] | None:
    """A list or tuple of 1 to 5 distinct int card ids as a tuple, else None."""

def distinct_ids(seq: object, /) -> bool:
    """A list or tuple of distinct int card ids 0..51."""

def moves(
    cls: type[Any], cards: Sequence[int], table: Sequence[Any], actions: Sequence[int], /
) -> list[Any] | None:
    """The moves (instances of ``cls``) of action ids (None when an id is bad)."""
