"""Front-hand thresholds written as text in rule sets: ``"QQ"``, ``"KK"``, ``"222"``.

>>> from ofc_fast import rank3
>>> front_threshold("QQ") == rank3("Qc Qd 2h")      # the weakest pair of queens
True
>>> front_threshold("222") == rank3("2c 2d 2h")     # the weakest trips
True
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import RANKS
from ..errors import RulesError, quote
from ..ranking import rank3

__all__ = ["front_threshold", "threshold_text"]


def _canonical(text: str) -> str:
    """A threshold as the rule sets keep it: ``" qq"`` -> ``"QQ"``, ``"1010"`` ->
    ``"TT"``, ``"QQ+"`` (queens or better, as the presets' descriptions write it)
    -> ``"QQ"``."""
    t = text.strip().upper()
    if t.endswith("+"):
        t = t[:-1].rstrip()
    return t.replace("10", "T")


@lru_cache(maxsize=64)
def _threshold(text: str) -> int:
    t = _canonical(text)
    if t and all(ch == t[0] for ch in t) and t[0] in RANKS and len(t) in (2, 3):
        r = RANKS.index(t[0])
        if len(t) == 3:
            return rank3([4 * r, 4 * r + 1, 4 * r + 2])
        kicker = 1 if r == 0 else 0
        return rank3([4 * r, 4 * r + 1, 4 * kicker + 2])
    raise ValueError(text)


def front_threshold(text: str, key: str = "threshold") -> int:
    """Strength of the weakest front hand a threshold admits (``"QQ"``: a pair of
    queens with a deuce; ``"222"``: trip deuces).  Raises RulesError naming ``key``.

    >>> from ofc_fast import rank3
    >>> front_threshold("QQ") == rank3("Qh Qd 2c")
    True
    """
    if not isinstance(key, str):  # (a label the errors below write out)
        raise RulesError(
            f"front_threshold: key must be text, the rule key its errors name, "
            f"got {quote(key)}"
        )
    if not isinstance(text, str):
        raise RulesError(
            f"{key}: expected front hand text such as 'QQ' or '222', got {quote(text)}"
        )
    try:
        return _threshold(text)
    except ValueError:
        raise RulesError(
            f"{key}: {quote(text)} is not a front threshold; write a pair as "
            f"'QQ' or trips as '222'"
        ) from None


def threshold_text(text: str, key: str = "threshold") -> str:
    """A threshold checked (:func:`front_threshold`) and spelled one way, so that two
    rule sets with one threshold are equal: ``"qq"``, ``" QQ "``, ``"QQ+"`` ->
    ``"QQ"``; ``"101010"`` -> ``"TTT"``.

    >>> threshold_text("qq"), threshold_text("1010")
    ('QQ', 'TT')
    """
    front_threshold(text, key)
    return _canonical(text)
