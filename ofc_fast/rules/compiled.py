"""Compile a :class:`RuleSet` into the C structs, once per rule set: ``ofc_rules`` (pair
scoring, :func:`compiled`) and ``ofc_table_rules`` (settlement of a table,
:func:`table_rules`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .._native import OK, ffi, lib
from ..errors import RulesError
from ..ranking import (
    STRENGTH_CARDS,
    STRENGTH_CATEGORY,
    STRENGTH_MAX,
    STRENGTH_RANKS,
    HandCategory,
)
from .fantasyland_text import front_threshold
from .model import (
    NATURAL_NAMES,
    Lowball,
    MajorityRule,
    NaturalsRule,
    OrderRule,
    RuleSet,
    Schedule,
    SettlementStart,
    StakesModel,
)

__all__ = [
    "LOW27",
    "compiled",
    "compiled_fl",
    "lowball_limit",
    "schedule_tables",
    "table_rules",
]

_SIZE = STRENGTH_MAX + 1
_CATEGORY = STRENGTH_CATEGORY.astype(np.intp)
_LEAD = np.minimum(STRENGTH_RANKS[:, 0], 12).astype(np.intp)
_THREE = STRENGTH_CARDS == 3
_FIVE = STRENGTH_CARDS == 5
LOW27 = np.array([lib.ofc_low27(s) for s in range(_SIZE)], dtype=np.int32)
"""2-7 value per strength (0 for 3-card strengths)."""

_ORDER = {OrderRule.NONSTRICT: 0, OrderRule.STRICT: 1}  # C ofc_order_rule
_MAJORITY = {MajorityRule.TWO_ROWS: 0, MajorityRule.MORE_ROWS: 1}
_START = {SettlementStart.LEFT_OF_BUTTON: 0, SettlementStart.BUTTON: 1}
STAKES = {StakesModel.WIN_CAP: 0, StakesModel.CHIPS: 1}
"""C ``ofc_stakes_model`` of each stakes model."""
_NATURALS_RULE = {
    NaturalsRule.HIGHER_FULL: 0,
    NaturalsRule.HIGHER_FULL_EQUAL_CANCEL: 1,
    NaturalsRule.DIFFERENCE: 2,
}


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
    valid: np.ndarray = (high_card & (lowball.limit >= _LEAD)) | (
        wheel & (lowball.limit == 12)
    )
    return valid


def lowball_limit(lowball: Lowball) -> int:
    """Smallest 2-7 value of a legal middle: every better low hand is legal too."""
    return int(LOW27[_lowball_valid(lowball)].min())


def _lowball_royalties(lowball: Lowball) -> np.ndarray:
    high = np.where(_CATEGORY == HandCategory.STRAIGHT, 12, _LEAD)  # the wheel: ace-high
    values = np.array(lowball.royalties, dtype=np.int16)[high]
    table = np.where(_lowball_valid(lowball), values, 0).astype(np.int16)
    table[LOW27.max() == LOW27] = lowball.nuts  # 7-5-4-3-2 not all one suit
    return table


def compiled(rules: RuleSet) -> Any:  # cdata 'ofc_rules *'
    """The C struct of a rule set; cached, shared read-only between threads.  Anything
    but a RuleSet raises RulesError (nothing unchecked reaches C)."""
    if not isinstance(rules, RuleSet):
        raise RulesError(f"expected a RuleSet, got {type(rules).__name__}")
    return _compile(rules)


@lru_cache(maxsize=128)
def _compile(rules: RuleSet) -> Any:  # cdata 'ofc_rules *'
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


def _min_five(cat: HandCategory) -> int:
    """The weakest 5-card strength of a category or better."""
    return int(np.flatnonzero(_FIVE & (int(cat) <= _CATEGORY))[0])


@lru_cache(maxsize=128)
def compiled_fl(rules: RuleSet) -> Any:  # cdata 'ofc_fl_rules *'
    """The C ``ofc_fl_rules`` of a rule set (disabled when it has no Fantasyland): the
    entry and stay rule that ``ofc_fl_next_cards`` and the solvers apply; cached."""
    c = ffi.new("ofc_fl_rules *")
    fl = rules.fantasyland
    if fl is None:
        return c
    if len(fl.entry) > lib.OFC_FL_MAX_ENTRY:
        raise RulesError(
            f"{rules.name}: the solver takes at most "
            f"{lib.OFC_FL_MAX_ENTRY} Fantasyland entries, "
            f"got {len(fl.entry)}"
        )
    c.enabled = 1
    c.n_entry = len(fl.entry)
    for i, (text, cards) in enumerate(fl.entry):
        c.entry_front[i] = front_threshold(text)
        c.entry_cards[i] = cards
    if rules.lowball is not None:
        c.lowball_entry = fl.lowball_entry
        c.lowball_both = fl.lowball_both
    if fl.stay_front is not None:
        c.stay_front = front_threshold(fl.stay_front)
    if fl.stay_middle is not None:
        c.stay_middle = _min_five(HandCategory(fl.stay_middle))
    if fl.stay_back is not None:
        c.stay_back = _min_five(HandCategory(fl.stay_back))
    if fl.stay_cards == "same":
        c.stay_cards = lib.OFC_FL_STAY_SAME
    elif fl.stay_cards == "entry":
        c.stay_cards = lib.OFC_FL_STAY_ENTRY
    else:
        c.stay_cards = int(fl.stay_cards)
    if lib.ofc_fl_rules_check(c) != OK:  # pragma: no cover - the model validated it
        raise RulesError(f"{rules.name}: Fantasyland rules do not compile")
    return c


@lru_cache(maxsize=128)
def table_rules(rules: RuleSet) -> Any:  # cdata 'ofc_table_rules *'
    """The C ``ofc_table_rules`` of a rule set (csrc/ofc_settle.h): everything beyond a
    pair that ``ofc_settle`` needs.  Cached, shared read-only between threads.

    >>> from ofc_fast import rules
    >>> t = table_rules(rules.HAWAIIAN_GARDENS)
    >>> t.house, t.stakes, t.start, t.surrender_cost
    (0, 1, 1, 3)
    """
    t = ffi.new("ofc_table_rules *")
    lib.ofc_table_rules_init(t)
    t.max_players = rules.max_players
    t.house = int(rules.house)
    t.start = _START[rules.settlement_start]
    t.stakes = STAKES[rules.stakes]
    if rules.pool is not None:
        t.pool_ante = rules.pool.ante
        t.pool_sweep_extra = rules.pool.sweep_extra
    t.single_winner = rules.single_winner
    t.surrender_cost = -1 if rules.surrender_cost is None else rules.surrender_cost
    if rules.aces_bet is not None:
        t.aces_bet = 1
        t.aces_value = list(rules.aces_bet)
    t.naturals_rule = _NATURALS_RULE[rules.naturals_rule]
    for rank, nat in enumerate(rules.naturals):
        n = NATURAL_NAMES.index(nat.name)
        t.natural_mask |= 1 << n
        t.natural_units[n] = nat.units
        t.natural_rank[n] = rank
    if lib.ofc_table_rules_check(t) != OK:
        raise RulesError(f"rule set {rules.name!r}: its table rules do not compile")
    return t
