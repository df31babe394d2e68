"""Compile a :class:`RuleSet` into the C ``ofc_rules`` struct (once per rule set)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._native import OK, ffi, lib
from .errors import RulesError
from .ranking import STRENGTH_MAX, HandCategory
from .rules import MajorityRule, OrderRule, RuleSet, Schedule

__all__ = ["compiled", "schedule_tables"]

_SIZE = STRENGTH_MAX + 1
_INFO = np.array([lib.ofc_strength_info(s) for s in range(_SIZE)], dtype=np.uint32)
_NCARDS = _INFO >> 24
_CATEGORY = ((_INFO >> 20) & 0xF).astype(np.intp)
_LEAD = ((_INFO >> 16) & 0xF).astype(np.intp)
_THREE = _NCARDS == 3
_FIVE = _NCARDS == 5
_LEAD_CLIPPED = np.minimum(_LEAD, 12)

_ORDER = {OrderRule.NONSTRICT: 0, OrderRule.STRICT: 1, OrderRule.MIXED: 2}
_MAJORITY = {MajorityRule.TWO_ROWS: 0, MajorityRule.MORE_ROWS: 1}


def schedule_tables(schedule: Schedule) -> np.ndarray:
    """(3, 7918) int16 table: units by row and strength under a schedule."""
    table = np.zeros((3, _SIZE), dtype=np.int16)
    pair = np.array(schedule.front_pair, dtype=np.int16)[_LEAD_CLIPPED]
    trips = np.array(schedule.front_trips, dtype=np.int16)[_LEAD_CLIPPED]
    front_cat = _CATEGORY
    table[0] = np.where(_THREE & (front_cat == HandCategory.ONE_PAIR), pair, 0)
    table[0] += np.where(_THREE & (front_cat == HandCategory.TRIPS), trips, 0)
    for row, values in ((1, schedule.middle), (2, schedule.back)):
        table[row] = np.where(_FIVE, np.array(values, dtype=np.int16)[_CATEGORY], 0)
    return table


@lru_cache(maxsize=128)
def compiled(rules: RuleSet):  # -> cdata 'ofc_rules *'
    """The C struct of a rule set; cached, shared read-only between threads."""
    c = ffi.new("ofc_rules *")
    ffi.buffer(c.royalty)[:] = schedule_tables(rules.royalties).tobytes()
    ffi.buffer(c.win_value)[:] = (schedule_tables(rules.win_bonus) + 1).tobytes()
    c.sweep_bonus = rules.sweep_bonus
    c.majority_bonus = rules.majority_bonus
    c.overall_bonus = rules.overall_bonus
    c.majority_rule = _MAJORITY[rules.majority_rule]
    c.order_rule = _ORDER[rules.order]
    if lib.ofc_rules_check(c) != OK:
        raise RulesError(f"rule set {rules.name!r} does not compile")
    return c
