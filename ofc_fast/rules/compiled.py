"""Compile a :class:`RuleSet` into the C structs, once per rule set: one
:class:`CompiledRules` owns them all (an ``ofc_game_rules`` holding the pair scoring
``ofc_rules``, the settlement ``ofc_table_rules`` and the Fantasyland
``ofc_fl_rules``, plus the solver's ``ofc_ev_tables`` when asked), kept in one cache
(:func:`compile_rules`).  :func:`compiled`, :func:`compiled_fl`, :func:`table_rules`
and :func:`game_struct` hand out the parts; each part keeps its owner alive.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import OK, ffi, lib
from .._native._fast import rules_handle
from ..errors import RulesError
from ..ranking import (
    STRENGTH_CARDS,
    STRENGTH_CATEGORY,
    STRENGTH_MAX,
    STRENGTH_RANKS,
    HandCategory,
)
from ._fantasyland_text import front_threshold
from ._lookup import as_rules
from .model import (
    NATURAL_NAMES,
    GameKind,
    Lowball,
    MajorityRule,
    NaturalsRule,
    OrderRule,
    RuleSet,
    Schedule,
    SettlementStart,
    StakesModel,
)
from .presets import RulesLike

__all__ = ["CompiledRules", "compile_rules", "game_struct", "table_rules"]

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


def schedule_tables(schedule: Schedule) -> npt.NDArray[Any]:
    """(3, 7918) int16 table: units by row and strength under a schedule."""
    table = np.zeros((3, _SIZE), dtype=np.int16)
    pair = np.array(schedule.front_pair, dtype=np.int16)[_LEAD]
    trips = np.array(schedule.front_trips, dtype=np.int16)[_LEAD]
    table[0] = np.where(_THREE & (_CATEGORY == HandCategory.ONE_PAIR), pair, 0)
    table[0] += np.where(_THREE & (_CATEGORY == HandCategory.TRIPS), trips, 0)
    for row, values in ((1, schedule.middle), (2, schedule.back)):
        table[row] = np.where(_FIVE, np.array(values, dtype=np.int16)[_CATEGORY], 0)
    return table


def _lowball_valid(lowball: Lowball) -> npt.NDArray[Any]:
    """Per strength: a legal 2-7 middle (no pair, straight or flush; high card at most
    the limit; A-5-4-3-2 is no straight there but ace-high, legal only with an ace
    limit, R-27-2)."""
    high_card = _FIVE & (_CATEGORY == HandCategory.HIGH_CARD)
    wheel = _FIVE & (_CATEGORY == HandCategory.STRAIGHT) & (_LEAD == 3)  # A-5-4-3-2
    valid: npt.NDArray[Any] = (high_card & (lowball.limit >= _LEAD)) | (
        wheel & (lowball.limit == 12)
    )
    return valid


def lowball_limit(lowball: Lowball) -> int:
    """Smallest 2-7 value of a legal middle: every better low hand is legal too."""
    return int(LOW27[_lowball_valid(lowball)].min())


def _lowball_royalties(lowball: Lowball) -> npt.NDArray[Any]:
    high = np.where(_CATEGORY == HandCategory.STRAIGHT, 12, _LEAD)  # the wheel: ace-high
    values = np.array(lowball.royalties, dtype=np.int16)[high]
    table = np.where(_lowball_valid(lowball), values, 0).astype(np.int16)
    table[LOW27.max() == LOW27] = lowball.nuts  # 7-5-4-3-2 not all one suit
    return table


KIND = {GameKind.CLASSIC: 0, GameKind.OFC: 1, GameKind.PINEAPPLE: 2}
"""C ``ofc_game_kind`` of each game kind."""

_CACHE_SIZE = 128
_BY_ID: dict[int, CompiledRules] = {}  # id(rule set) -> its compiled rules (fast path)
_BY_RULES: dict[RuleSet, CompiledRules] = {}  # equal rule sets share one compile
_LOCK = threading.RLock()  # builds and lazy parts, one thread at a time


def _part(owner: Any, field: str) -> Any:
    """A pointer to ``owner.field`` that keeps ``owner`` alive as long as it lives
    (the destructor holds the owner; it frees nothing)."""
    return ffi.gc(ffi.addressof(owner, field), lambda _p, _owner=owner: None)


class CompiledRules:
    """A rule set compiled into C once: one ``ofc_game_rules`` (about 100 KB) owns
    the scoring, table and Fantasyland structs every consumer passes to C.  A part
    that does not compile raises RulesError when it is asked for, not before (a rule
    set that scores pairs may still be no game the engine deals).  Shared read-only,
    also between threads.

    >>> from ofc_fast import rules
    >>> c = compile_rules(rules.OFC)
    >>> c is compile_rules(rules.OFC), c.game.kind, c.table.max_players
    (True, 1, 4)
    """

    __slots__ = (
        "_ev",
        "_fl",
        "_game",
        "_table",
        "rules",
        "scoring",
        "scoring_handle",
        "struct",
    )

    def __init__(self, rules: RulesLike) -> None:
        self.rules = rules = as_rules(rules, "CompiledRules")
        self.struct = g = ffi.new("ofc_game_rules *")
        _write_scoring(g.scoring, rules)
        if lib.ofc_rules_check(ffi.addressof(g, "scoring")) != OK:
            raise RulesError(f"rule set {rules.name!r} does not compile")
        self.scoring = _part(g, "scoring")
        #: ``scoring`` as the fast path's ``score_pair`` takes it (``_native._fast``):
        #: its address, so a caller holds this object until the call returns (the
        #: cache may drop it, and another thread's compile free it, meanwhile)
        self.scoring_handle: Any = rules_handle(self.scoring)
        self._table: Any = None
        self._fl: Any = None
        self._game: Any = None
        self._ev: Any = None

    def _once(self, slot: str, build: Callable[[], Any]) -> Any:
        """The part kept in ``slot``, built by ``build`` on first use (one thread
        builds, the others wait)."""
        value = getattr(self, slot)
        if value is None:
            with _LOCK:
                value = getattr(self, slot)
                if value is None:
                    value = build()
                    setattr(self, slot, value)
        return value

    @property
    def table(self) -> Any:  # cdata 'ofc_table_rules *'
        """The ``ofc_table_rules`` (csrc/include/ofc_settle.h) that ``ofc_settle`` needs."""
        return self._once("_table", self._build_table)

    @property
    def fl(self) -> Any:  # cdata 'ofc_fl_rules *'
        """The ``ofc_fl_rules``: the Fantasyland entry and stay rule (disabled
        without Fantasyland)."""
        return self._once("_fl", self._build_fl)

    @property
    def game(self) -> Any:  # cdata 'ofc_game_rules *'
        """The whole ``ofc_game_rules`` the game engine deals under."""
        return self._once("_game", self._build_game)

    @property
    def ev(self) -> Any:  # cdata 'ofc_ev_tables *'
        """The solver's ``ofc_ev_tables`` (about 380 KB, built on first use)."""
        return self._once("_ev", self._build_ev)

    def _build_table(self) -> Any:
        _write_table(self.struct.table, self.rules)
        return _part(self.struct, "table")

    def _build_fl(self) -> Any:
        if self.rules.game is GameKind.CLASSIC and self.rules.fantasyland is not None:
            own = ffi.new("ofc_fl_rules *")  # a classic game deals no Fantasyland
            _write_fl(own, self.rules)
            return own
        _write_fl(ffi.addressof(self.struct, "fl"), self.rules)
        return _part(self.struct, "fl")

    def _build_game(self) -> Any:
        rules, g = self.rules, self.struct
        _ = self.table, self.fl
        g.kind = KIND[rules.game]
        g.max_players = rules.max_players
        g.face_down_final = (
            rules.face_down_final if rules.game is not GameKind.CLASSIC else 0
        )
        if lib.ofc_game_rules_check(g) != OK:
            raise RulesError(f"rule set {rules.name!r} does not compile into a game")
        return g

    def _build_ev(self) -> Any:
        t = ffi.new("ofc_ev_tables *")
        status = lib.ofc_ev_tables_init(self.scoring, t)
        if status != OK:  # pragma: no cover - compiled rules are valid
            raise RulesError(
                f"{self.rules.name}: expected-points tables do not build ({status})"
            )
        return t


def compile_rules(rules: RulesLike) -> CompiledRules:
    """The :class:`CompiledRules` of a rule set, from the one cache (at most 128 rule
    sets; equal rule sets share one).  ``rules``: a RuleSet, a preset name or an
    arena game id; anything else raises RulesError (nothing unchecked reaches C).

    >>> from ofc_fast import rules
    >>> compile_rules(rules.OFC) is compile_rules(rules.OFC)
    True
    """
    c = _BY_ID.get(id(rules))
    if c is not None and c.rules is rules:
        return c
    if not isinstance(rules, RuleSet):
        rules = as_rules(rules, "compile_rules")  # a preset name or a game id
    with _LOCK:
        c = _BY_RULES.get(rules)
        if c is None:
            if len(_BY_RULES) >= _CACHE_SIZE:  # forget the oldest
                old = _BY_RULES.pop(next(iter(_BY_RULES)))
                _BY_ID.pop(id(old.rules), None)
            c = _BY_RULES[rules] = CompiledRules(rules)
            _BY_ID[id(rules)] = c  # the key's object lives as long as c holds it
    return c


def compiled(rules: RulesLike) -> Any:  # cdata 'ofc_rules *'
    """The C ``ofc_rules`` (pair scoring) of a rule set; cached, shared read-only
    between threads.  Anything but a RuleSet raises RulesError."""
    return compile_rules(rules).scoring


def compiled_fl(rules: RulesLike) -> Any:  # cdata 'ofc_fl_rules *'
    """The C ``ofc_fl_rules`` of a rule set (disabled when it has no Fantasyland): the
    entry and stay rule that ``ofc_fl_next_cards`` and the solvers apply; cached."""
    return compile_rules(rules).fl


def table_rules(rules: RulesLike) -> Any:  # cdata 'ofc_table_rules *'
    """The C ``ofc_table_rules`` of a rule set (csrc/include/ofc_settle.h): everything beyond a
    pair that ``ofc_settle`` needs.  Cached, shared read-only between threads.

    >>> from ofc_fast import rules
    >>> t = table_rules(rules.HAWAIIAN_GARDENS)
    >>> t.house, t.stakes, t.start, t.surrender_cost
    (0, 1, 1, 3)
    """
    return compile_rules(rules).table


def game_struct(rules: RulesLike) -> Any:  # cdata 'ofc_game_rules *'
    """The C ``ofc_game_rules`` of a rule set (about 100 KB; cached and shared
    read-only, also between threads).

    >>> from ofc_fast import rules
    >>> game_struct(rules.OFC)
    <cdata 'struct ofc_game_rules *' owning ... bytes>
    """
    return compile_rules(rules).game


def _write_scoring(c: Any, rules: RuleSet) -> None:
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


def _min_five(cat: HandCategory) -> int:
    """The weakest 5-card strength of a category or better."""
    return int(np.flatnonzero(_FIVE & (int(cat) <= _CATEGORY))[0])


def _write_fl(c: Any, rules: RuleSet) -> None:
    fl = rules.fantasyland
    if fl is None:
        return
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


def _write_table(t: Any, rules: RuleSet) -> None:
    lib.ofc_table_rules_init(ffi.addressof(t))
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
    if lib.ofc_table_rules_check(ffi.addressof(t)) != OK:
        raise RulesError(f"rule set {rules.name!r}: its table rules do not compile")
