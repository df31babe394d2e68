"""Where two rule sets differ, and what keys them by how they play: the one
comparison of rule sets field by field, their labels aside (for the arena's game ids,
a model or policy trained for other rules, and the caches of models by rule set)."""

from __future__ import annotations

import dataclasses
from typing import Any

from .model import LABEL_FIELDS, RuleSet

__all__ = ["differing_fields", "play_key"]


def differing_fields(rules: RuleSet, other: RuleSet) -> list[str]:
    """The fields, dotted as in a rules file (``fantasyland.entry``), where ``rules``
    and ``other`` differ, their labels aside (:data:`LABEL_FIELDS`: a preset renamed
    or described anew differs in none), in the order a rules file holds them.

    >>> from ofc_fast import rules
    >>> differing_fields(rules.PINEAPPLE, rules.PINEAPPLE.replace(name="home"))
    []
    >>> differing_fields(rules.PINEAPPLE, rules.PINEAPPLE.replace(sweep_bonus=9))
    ['sweep_bonus']
    """
    a, b = rules.to_dict(), other.to_dict()
    return [
        f
        for k in _keys(a, b)
        if k not in LABEL_FIELDS
        for f in _differences(a.get(k), b.get(k), k)
    ]


def _differences(a: Any, b: Any, key: str) -> list[str]:
    """The dotted keys under ``key`` where the data ``a`` and ``b`` differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            f for k in _keys(a, b) for f in _differences(a.get(k), b.get(k), f"{key}.{k}")
        ]
    return [] if a == b else [key]


def _keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys of ``a``, then those only ``b`` has, each once, in their order."""
    return list(dict.fromkeys([*a, *b]))


def play_key(rules: RuleSet) -> tuple[object, ...]:
    """``rules`` as one hashable value of how they play and score: their fields but
    the labels (:data:`LABEL_FIELDS`), equal exactly for rule sets that play alike (a
    preset renamed or described anew), so a cache keyed by it shares one entry
    between them and never one between rule sets that differ (a 32-bit fingerprint
    can collide).

    >>> from ofc_fast import rules
    >>> play_key(rules.PINEAPPLE) == play_key(rules.PINEAPPLE.replace(name="home"))
    True
    >>> play_key(rules.PINEAPPLE) == play_key(rules.PINEAPPLE.replace(sweep_bonus=9))
    False
    """
    try:  # made once per rule set (frozen): bots ask for it at every decision
        cached: tuple[object, ...] = rules.__dict__["_play_key"]
        return cached
    except KeyError:
        key = tuple(
            getattr(rules, f.name)
            for f in dataclasses.fields(rules)
            if f.name not in LABEL_FIELDS
        )
        object.__setattr__(rules, "_play_key", key)
        return key
