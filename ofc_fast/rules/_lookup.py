"""Looking rules up: by preset name or arena game id (:func:`get`), and the one resolver
every function that takes rules calls (:func:`as_rules`: a RuleSet, a preset name or a
game id).

>>> get("ofc-pineapple") is as_rules("pineapple")
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..errors import RulesError, match_choice, quote
from .game_ids import GAME_IDS
from .model import RuleSet
from .presets import PRESETS

__all__ = ["as_rules", "get", "names"]


def names() -> list[str]:
    """Names of the presets.

    >>> names()[:3]
    ['OFC', 'PINEAPPLE', 'PROGRESSIVE_PINEAPPLE']
    """
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
    """A preset by name, read as every text choice is
    (:func:`~ofc_fast.errors.match_choice`: in any case, with a ``-`` or a space for
    each ``_``: ``"classic-2-4"``, ``"Classic 2 4"``; not without it: ``"classic24"``
    is unknown), or by its game id, in any case, with its ``-`` as written
    (``"ofc-pineapple"``, :data:`ofc_fast.rules.game_ids.GAME_IDS`: the names
    ``ofc-fast arena --rules`` takes); surrounding spaces are ignored.  RulesError
    for another name, listing the presets and game ids.

    >>> from ofc_fast.rules import CLASSIC_2_4, PINEAPPLE
    >>> get("pineapple") is PINEAPPLE is get("OFC-Pineapple")
    True
    >>> get("Classic 2 4") is CLASSIC_2_4 is get("classic-2-4")
    True
    >>> get("progressivepineapple")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: unknown rule set 'progressivepineapple'; presets: OFC, ...
    """
    if not isinstance(name, str):
        raise RulesError(f"a rule set name is text, got {quote(name)}")
    key = GAME_IDS.get(name.strip().lower()) or match_choice(name, PRESETS)
    if key is None:
        raise RulesError(
            f"unknown rule set {quote(name)}; presets: {', '.join(PRESETS)}; "
            f"or a game id: {', '.join(GAME_IDS)}"
        )
    return PRESETS[key]


def carried_rules(rules: RuleSet | str) -> dict[str, Any] | None:
    """What a game's observation carries under ``"rule_set"``: None when ``rules`` is
    exactly a preset (its ``"rules"`` name says it all), else the rule set as the
    JSON-able dict a rules file holds (:meth:`RuleSet.to_dict`).

    >>> from ofc_fast.rules import OFC
    >>> carried_rules(OFC) is None, carried_rules(OFC.replace(sweep_bonus=4))["name"]
    (True, 'custom')
    """
    rules = as_rules(rules, "carried_rules")
    preset = PRESETS.get(rules.name)
    if preset is rules or (preset is not None and preset == rules):  # `is`: the fast way
        return None
    return rules.to_dict()


def observation_rules(
    observation: Mapping[str, Any],
    own: RuleSet | None = None,
    memo: list[Any] | None = None,
) -> RuleSet:
    """The rule set an observation is played under: the ``"rule_set"`` it carries
    (a game whose rules are not exactly a preset), else ``own`` when its name is the
    observation's ``"rules"`` and no preset's (or ``own`` is that preset), else the
    preset of that name (:func:`get`); a carried
    dict that is no rule set is a RulesError naming ``rule_set``.  ``memo`` (a list
    the caller keeps, e.g. on a bot) holds the last carried dict and its rule set, so
    that a bot parses each distinct dict once.

    >>> from ofc_fast.rules import OFC
    >>> table = OFC.replace(sweep_bonus=4)
    >>> observation_rules({"rules": "custom", "rule_set": table.to_dict()}) == table
    True
    >>> observation_rules({"rule_set": table.to_dict()}) == table  # (no name needed)
    True
    >>> observation_rules({"rules": "ofc"}) is OFC
    True
    """
    data = observation.get("rule_set")
    if data is not None:
        last = tuple(memo or ())  # one read: a thread sharing the memo may replace it
        if last and last[0] == data:
            rules: RuleSet = last[1]
            return rules
        try:
            rules = RuleSet.from_dict(data)
        except RulesError as exc:  # the field at fault is the observation's
            raise RulesError(f"observation: rule_set: {exc}") from None
        if memo is not None:  # a copy: a caller that mutates the dict gets a new parse
            memo[:] = (copy.deepcopy(data), rules)
        return rules
    name = observation["rules"]  # (none needed where the rules are carried)
    # own only when it is the rules so named: a preset's name (an edited copy of a
    # preset's rules file keeps it) names the preset, which carries no rule_set
    if own is not None and own.name == name and own is PRESETS.get(name, own):
        return own
    return get(name)
