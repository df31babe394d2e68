"""Compile a :class:`RuleSet` into the C ``ofc_rules`` struct (once per rule set)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._native import OK, ffi, lib
from .errors import RulesError
from .ranking import STRENGTH_INFO, STRENGTH_MAX, HandCategory
from .rules.model import Lowball, MajorityRule, OrderRule, RuleSet, Schedule

__all__ = ["compiled", "schedule_tables", "lowball_limit", "LOW27"]

_SIZE = STRENGTH_MAX + 1
_INFO = np.array(STRENGTH_INFO, dtype=np.uint32)
_NCARDS = _INFO >> 24
_CATEGORY = ((_INFO >> 20) & 0xF).astype(np.intp)
_LEAD = np.minimum((_INFO >> 16) & 0xF, 12).astype(np.intp)
_THREE = _NCARDS == 3
_FIVE = _NCARDS == 5
LOW27 = np.array([lib.ofc_low27(s) for s in range(_SIZE)], dtype=np.int32)
"""2-7 value per strength (0 for 3-card strengths)."""

_ORDER = {OrderRule.NONSTRICT: 0, OrderRule.STRICT: 1, OrderRule.MIXED: 2}
_MAJORITY = {MajorityRule.TWO_ROWS: 0, MajorityRule.MORE_ROWS: 1}


def schedule_tables(schedule: Schedule) -> np.ndarray:
    """(3, 7918) int16 table: units by row and strength under a schedule."""
    table = np.zeros((3, _SIZE), dtype=np.int16)
    pair = np.array(schedule.front_pair, dtype=np.int16)[_LEAD]
    trips = np.array(schedule.front_trips, dtype=np.int16)[_LEAD]
    table[0] = np.where(_THREE & (_CATEGORY == HandCategory.ONE_PAIR), pair, 0)
    table[0] += np.where(_THREE & (_CATEGORY == HandCategory.TRIPS), trips, 0)
    for row, values in ((1, schedule.middle), (2, schedule.back)):
        table[row] = np.where(_FIVE, np.array(values, dtype=np.int16)[_CATEGORY], 0)
    return table


def _lowball_valid(lowball: Lowball) -> np.ndarray:
    """Per strength: a legal 2-7 middle (no pair, straight or flush; high card at most
    the limit; A-5-4-3-2 is no straight there but ace-high, legal only with an ace
    limit, R-27-2)."""
    high_card = _FIVE & (_CATEGORY == HandCategory.HIGH_CARD)
    wheel = _FIVE & (_CATEGORY == HandCategory.STRAIGHT) & (_LEAD == 3)  # A-5-4-3-2
    return (high_card & (_LEAD <= lowball.limit)) | (wheel & (lowball.limit == 12))


def lowball_limit(lowball: Lowball) -> int:
    """Smallest 2-7 value of a legal middle: every better low hand is legal too."""
    return int(LOW27[_lowball_valid(lowball)].min())


def _lowball_royalties(lowball: Lowball) -> np.ndarray:
    high = np.where(_CATEGORY == HandCategory.STRAIGHT, 12, _LEAD)  # the wheel: ace-high
    values = np.array(lowball.royalties, dtype=np.int16)[high]
    table = np.where(_lowball_valid(lowball), values, 0).astype(np.int16)
    table[LOW27 == LOW27.max()] = lowball.nuts  # 7-5-4-3-2 not all one suit
    return table


def compiled(rules: RuleSet):  # -> cdata 'ofc_rules *'
    """The C struct of a rule set; cached, shared read-only between threads.  Anything
    but a RuleSet raises RulesError (nothing unchecked reaches C)."""
    if not isinstance(rules, RuleSet):
        raise RulesError(f"expected a RuleSet, got {type(rules).__name__}")
    return _compile(rules)


@lru_cache(maxsize=128)
def _compile(rules: RuleSet):  # -> cdata 'ofc_rules *'
    c = ffi.new("ofc_rules *")
    royalty = schedule_tables(rules.royalties)
    if rules.lowball is not None:
        royalty[1] = _lowball_royalties(rules.lowball)
        c.middle_lowball = 1
        c.lowball_limit = lowball_limit(rules.lowball)
    ffi.buffer(c.royalty)[:] = royalty.tobytes()
    ffi.buffer(c.win_value)[:] = (schedule_tables(rules.win_bonus) + 1).tobytes()
    c.sweep_bonus = rules.sweep_bonus
    c.majority_bonus = rules.majority_bonus
    c.overall_bonus = rules.overall_bonus
    c.sweep_multiplier = rules.sweep_multiplier
    c.sweep_all_multiplier = rules.sweep_all_multiplier
    c.sweep_all_bonus = rules.sweep_all_bonus
    c.majority_rule = _MAJORITY[rules.majority_rule]
    c.order_rule = _ORDER[rules.order]
    c.foul_pays_sweep = int(rules.foul_pays_sweep)
    if lib.ofc_rules_check(c) != OK:
        raise RulesError(f"rule set {rules.name!r} does not compile")
    return c
