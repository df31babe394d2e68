"""The rules fingerprint a model file stores (:func:`ofc_fast.learned.rules_hash`),
and the fingerprints earlier versions gave the same rules written another way.

Fantasyland thresholds are now kept in one spelling, weakest first (``"qq"``
is ``"QQ"``, ``"1010"`` is ``"TT"``; ``("KK", 15), ("QQ", 14)`` is kept
``("QQ", 14), ("KK", 15)``); before, a rule set kept them as written, and the
fingerprint, of the rule set's JSON, followed.  A model trained then for rules
written another way still fits the same rules today: :func:`earlier_fingerprints`
lists what those rules' fingerprint was for each way of writing them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from ..rules import LABEL_FIELDS, PRESETS, RuleSet, differing_fields

__all__ = [
    "earlier_fingerprints",
    "fingerprint",
    "play_data",
    "presets_by_fingerprint",
    "trained_for",
]

_EVERY_ORDER = 4  # entries tried in every order (4! = 24); more: as kept and reversed
_MOST = 2048  # ways of writing one rule set tried at most (each about 100 us)


def play_data(rules: RuleSet) -> dict[str, Any]:
    """A rule set's canonical data less its labels (what the fingerprint covers)."""
    return {k: v for k, v in rules.to_dict().items() if k not in LABEL_FIELDS}


def _fnv(data: dict[str, Any]) -> int:
    """FNV-1a 32 of the canonical JSON of ``data`` (docs/learned.md)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


@lru_cache(maxsize=64)
def fingerprint(rules: RuleSet) -> int:
    """The fingerprint of a rule set, computed once per distinct rule set (a bot
    checks its model's rules at every decision; the JSON costs about 100 us)."""
    return _fnv(play_data(rules))


def _spellings(threshold: str) -> list[str]:
    """The ways an earlier version kept a threshold it was given: as the presets
    spell it, in small letters, with ``10`` for ``T`` (``"TT"``: TT tt 1010)."""
    ways = (threshold, threshold.replace("T", "10"))
    return list(dict.fromkeys(w for way in ways for w in (way, way.lower())))


def _written(fl: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The Fantasyland data ``fl`` (canonical) as an earlier version kept it for
    each way of writing it (at most :data:`_MOST`)."""
    entries = [tuple(e) for e in fl["entry"]]
    if len(entries) <= _EVERY_ORDER:
        orders: Any = itertools.permutations(entries)
    else:
        orders = (entries, entries[::-1])
    stays = [None] if fl["stay_front"] is None else _spellings(fl["stay_front"])
    ways = (
        {**fl, "entry": [[t, n] for t, (_, n) in zip(texts, order)], "stay_front": stay}
        for order in orders
        for texts in itertools.product(*(_spellings(t) for t, _ in order))
        for stay in stays
    )
    return itertools.islice(ways, _MOST)


@lru_cache(maxsize=64)
def earlier_fingerprints(rules: RuleSet) -> frozenset[int]:
    """The fingerprints earlier versions gave ``rules`` written another way: its
    Fantasyland entries in another order or spelling (``"qq"``, ``"1010"``), its
    ``stay_front`` in another spelling (empty without Fantasyland).

    >>> from ofc_fast import rules
    >>> fingerprint(rules.PINEAPPLE) in earlier_fingerprints(rules.PINEAPPLE)
    False
    >>> len(earlier_fingerprints(rules.PINEAPPLE))  # "qq" for "QQ"
    1
    """
    data = play_data(rules)
    fl = data.get("fantasyland")
    if fl is None:
        return frozenset()
    found = {_fnv({**data, "fantasyland": way}) for way in _written(fl)}
    return frozenset(found - {fingerprint(rules)})


@lru_cache(maxsize=1)
def presets_by_fingerprint() -> dict[int, tuple[RuleSet, ...]]:
    """The presets by :func:`fingerprint` (the rule sets a shipped model is named by)."""
    out: dict[int, tuple[RuleSet, ...]] = {}
    for preset in PRESETS.values():
        key = fingerprint(preset)
        out[key] = (*out.get(key, ()), preset)
    return out


def trained_for(trained: int, rules: RuleSet) -> str:
    """Which rules a model or policy of fingerprint ``trained`` was trained for, said
    against ``rules``: the preset's and the fields ``rules`` differ in, else that they
    are no preset's (both fingerprints)."""
    presets = presets_by_fingerprint().get(trained)
    if not presets:
        return (
            f"a rule set that is no preset: fingerprint {trained:08x}, these rules' "
            f"{fingerprint(rules):08x}"
        )
    fields = differing_fields(presets[0], rules)
    more = f" and {len(fields) - 6} more" if len(fields) > 6 else ""
    return f"the {presets[0].name} preset's; they differ in {', '.join(fields[:6])}{more}"
