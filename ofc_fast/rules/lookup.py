"""Looking rules up: by preset name or arena game id (:func:`get`), and the one resolver
every function that takes rules calls (:func:`as_rules`: a RuleSet, a preset name or a
game id).

>>> get("ofc-pineapple") is as_rules("pineapple")
True
"""

from __future__ import annotations

from ..errors import RulesError, quote
from .game_ids import GAME_IDS
from .model import RuleSet
from .presets import PRESETS

__all__ = ["as_rules", "get", "names"]


def names() -> list[str]:
    """Names of the presets."""
    return list(PRESETS)


def as_rules(rules: object, fn: str = "rules") -> RuleSet:
    """The one resolver of rules: ``rules`` itself when it is a :class:`RuleSet`, the
    preset a preset name or an arena game id names when it is text (:func:`get`),
    else :class:`RulesError` naming ``fn``.

    >>> from ofc_fast.rules import OFC, PINEAPPLE
    >>> as_rules("ofc") is OFC, as_rules("ofc-pineapple") is PINEAPPLE
    (True, True)
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return get(rules)
    raise RulesError(
        f"{fn}: rules must be a RuleSet, a preset name or a game id, got {quote(rules)}"
    )


def get(name: str) -> RuleSet:
    """A preset by name, case-insensitive, ``-`` or ``_`` (``"classic-2-4"``), or by
    its game id (``"ofc-pineapple"``, :data:`ofc_fast.rules.game_ids.GAME_IDS`: the
    names ``ofc-fast arena --rules`` takes).

    >>> from ofc_fast.rules import PINEAPPLE
    >>> get("pineapple") is PINEAPPLE is get("ofc-pineapple")
    True
    """
    if not isinstance(name, str):
        raise RulesError(f"a rule set name is text, got {quote(name)}")
    key = name.strip().upper().replace("-", "_").replace(" ", "_")
    key = GAME_IDS.get(name.strip().lower(), key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(
            f"unknown rule set {quote(name)}; presets: {', '.join(PRESETS)}; "
            f"or a game id: {', '.join(GAME_IDS)}"
        ) from None
