"""Types of the CPython extension ``ofc_fast._native._speedups`` (_speedups.c): the
METH_FASTCALL per-call rankers and the observation reader.  Not built on PyPy, where
ofc_fast.ranking and ofc_fast.game.observation use their pure-Python paths."""

from collections.abc import Callable, Sequence

from ofc_fast.game.observation import Observation

def rank5(cards: object, /) -> int:
    """Strength of a 5-card hand (as ofc_fast.rank5)."""

def rank3(cards: object, /) -> int:
    """Strength of a 3-card front hand (as ofc_fast.rank3)."""

def set_fallback(fallback: Callable[[object, int], int], /) -> None:
    """``fallback(cards, n)`` handles every input the fast path does not."""

def observation(raw: bytes, rules: str, game: str, lowball: bool,
                legal: Sequence[int] | None, /) -> Observation:
    """An ofc_observation's bytes as the dict of ofc_fast.game.Observation."""
