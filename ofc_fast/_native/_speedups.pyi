"""Types of the CPython extension ``ofc_fast._native._speedups`` (_speedups.c): the
METH_FASTCALL per-call builtins, linked with the C library: the rankers' fast path,
the game-state fast paths (observation, legal actions, apply), the card-list checks
and pair scoring.  Not built on PyPy, where ``ofc_fast._native._fast`` picks the
portable twins of ``ofc_fast._native._portable`` (the same signatures)."""

from collections.abc import Sequence
from typing import Any, TypeVar, overload

from ._portable import Booked

_T = TypeVar("_T")

def rank5(cards: object, /) -> int:
    """Strength of 5 distinct int card ids (a list or tuple), else -1."""

def rank3(cards: object, /) -> int:
    """Strength of 3 distinct int card ids (a list or tuple), else -1."""

def observe(game: bytearray, seat: int, template: dict[str, Any], /) -> dict[str, Any]:
    """A seat's observation of the ``ofc_game`` held by ``game`` (a copy of
    ``template`` filled in)."""

def legal_actions(game: bytearray, /) -> list[int] | None:
    """Legal action ids of the pending normal decision (None: none pending)."""

def plain(obs: object, /) -> bool:
    """True when the observation dict holds no NumPy value where ``plain_observation``
    reads (its values of plain types, its boards and Face-down counts lists)."""

def plain_seat(obs: object, most: int, /) -> int:
    """The observed seat when ``plain(obs)`` and its seat and players are in range (one
    board per player), else -1."""

def plain_copy(value: Any, /) -> Any:
    """New dicts and lists all the way down, the other values as they are."""

@overload
def place(game: bytearray, dest: tuple[int, ...], /) -> int:
    """Apply a placement; the engine's status (the state is unchanged on error)."""

@overload
def place(game: bytearray, dest: tuple[int, ...], booked: Booked, move: Any, /) -> int:
    """Apply a placement; the engine's status (the state is unchanged on error); an
    accepted one appends ``move`` to ``booked`` (None: none) in the same C call."""

def act(game: bytearray, action: int, booked: Booked = None, /) -> int:
    """Apply an action id; the engine's status (the state is unchanged on error); an
    accepted one is appended to ``booked`` (None: none) in the same C call."""

def card_ids(seq: object, /) -> tuple[int, ...] | None:
    """A list or tuple of 1 to 5 distinct int card ids as a tuple, else None."""

def distinct_ids(seq: object, /) -> bool:
    """A list or tuple of distinct int card ids 0..51."""

def moves(
    cls: type[Any], cards: Sequence[int], table: Sequence[Any], actions: Sequence[int], /
) -> list[Any] | None:
    """The moves (instances of ``cls``) of action ids (None when an id is bad)."""

def score_pair(
    cls: type[_T], a: tuple[int, ...], b: tuple[int, ...], rules: Any, /
) -> _T | None:
    """Board ``a`` against board ``b`` (13 card ids each) under the ``ofc_rules`` at
    address ``rules``: a new ``cls`` (PairScore) holding the fields, or None when
    refused."""
