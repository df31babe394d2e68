"""The rule-set model: every rule and variant of docs/rules.md as a frozen dataclass field.

Each open question of docs/rules.md section 15 is a field with a documented default; the
presets (``ofc_fast.rules.presets``) set the fields their rule texts call for.

>>> from ofc_fast.rules import OFC
>>> OFC.sweep_bonus, OFC.royalties.back[HandCategory.FLUSH]
(3, 4)
>>> custom = OFC.replace(name="my table", overall_bonus=1)
>>> RuleSet.from_dict(custom.to_dict()) == custom
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from .._native import lib
from ..errors import NamedLookup, RulesError, match_choice, quote
from ..ranking import HandCategory
from ._fields import RuleData, convert, hash_once, ranged, text

__all__ = [
    "NATURAL_NAMES",
    "Fantasyland",
    "GameKind",
    "HandCategory",
    "Lowball",
    "MajorityRule",
    "Natural",
    "NaturalsRule",
    "OrderRule",
    "Pool",
    "RuleSet",
    "Schedule",
    "SettlementStart",
    "StakesModel",
]

_BONUS = (0, 1000)
"""A bonus or royalty is never negative: a fouled board, which earns none, would
collect the other's (R-FOUL-3: a foul never wins)."""
FL_MAX_ENTRY: int = lib.OFC_FL_MAX_ENTRY
"""Most Fantasyland entries a rule set may list (the C solver's table size)."""
LABEL_FIELDS: tuple[str, ...] = ("name", "description")
"""The fields of a :class:`RuleSet` that label it and change nothing of how it plays
or scores (a renamed preset plays the preset's game)."""


class OrderRule(str, Enum, metaclass=NamedLookup, error=RulesError):
    """Row ordering (R-ORDER-1, Q-1).  [001]'s reading (front < middle <= back) is
    NONSTRICT: a 3-card front never ties a 5-card middle.

    >>> OrderRule("strict")
    <OrderRule.STRICT: 'strict'>
    """

    NONSTRICT = "nonstrict"  #: front <= middle <= back (default, [003])
    STRICT = "strict"  #: front < middle < back ([000])

    @classmethod
    def _missing_(cls, value: object) -> None:
        if match_choice(value, ("mixed",)) is not None:  # any case, as every choice
            raise RulesError(
                "'mixed' was removed: it fouled exactly the boards "
                "'nonstrict' fouls (a 3-card front never ties a 5-card "
                "middle); use 'nonstrict'"
            )
        return None


class MajorityRule(str, Enum, metaclass=NamedLookup, error=RulesError):
    """Who takes the majority bonus (R-SCORE-3, Q-4).

    >>> from ofc_fast import rules
    >>> rules.CLASSIC_2_4.majority_rule
    <MajorityRule.TWO_ROWS: 'two_rows'>
    """

    TWO_ROWS = "two_rows"  #: a side that won two or more rows ([003], default)
    MORE_ROWS = "more_rows"  #: a side that won more rows than the other ([001])


class GameKind(str, Enum, metaclass=NamedLookup, error=RulesError):
    """How the cards are dealt and set (game flow, R-FLOW-*).

    >>> from ofc_fast import rules
    >>> rules.OFC.game, rules.CLASSIC_1_6.game
    (<GameKind.OFC: 'ofc'>, <GameKind.CLASSIC: 'classic'>)
    """

    CLASSIC = "classic"  #: 13 cards face down, set at once (R-FLOW-CP-*)
    OFC = "ofc"  #: 5, then one at a time (R-FLOW-OFC-*)
    PINEAPPLE = "pineapple"  #: 5, then four rounds of 3: place 2, discard 1 (R-FLOW-PIN-*)


Game = GameKind
"""The former name of :class:`GameKind` (kept: ``rules.Game``); not to be confused with
:class:`ofc_fast.Game`, a deal being played."""


class StakesModel(str, Enum, metaclass=NamedLookup, error=RulesError):
    """Table stakes (R-STAKES-*, Q-5), used when ``settle`` gets stacks.

    >>> from ofc_fast import rules
    >>> rules.OFC.stakes, rules.HAWAIIAN_GARDENS.stakes
    (<StakesModel.WIN_CAP: 'win_cap'>, <StakesModel.CHIPS: 'chips'>)
    """

    WIN_CAP = "win_cap"  #: R-STAKES-1/2: pay at most your stack, win at most your start
    CHIPS = "chips"  #: R-STAKES-3: every chip used once, won or lost (EX-3)


class SettlementStart(str, Enum, metaclass=NamedLookup, error=RulesError):
    """First seat of the settlement order (R-SETTLE-*, Q-5).

    >>> from ofc_fast import rules
    >>> rules.OFC.settlement_start, rules.HAWAIIAN_GARDENS.settlement_start
    (<SettlementStart.LEFT_OF_BUTTON: 'left_of_button'>, <SettlementStart.BUTTON: 'button'>)
    """

    LEFT_OF_BUTTON = "left_of_button"  #: R-SETTLE-1/2 (OFC)
    BUTTON = "button"  #: R-SETTLE-3 (Hawaiian Gardens)


class NaturalsRule(str, Enum, metaclass=NamedLookup, error=RulesError):
    """Natural against natural (R-NAT-6, Q-9).

    >>> from ofc_fast import rules
    >>> rules.SINGAPORE.naturals_rule
    <NaturalsRule.HIGHER_FULL_EQUAL_CANCEL: 'higher_full_equal_cancel'>
    """

    HIGHER_FULL = "higher_full"
    """Typical: the higher natural (later in the list; same natural: R-NAT-5 tie-break)
    wins its full value; the lower gets nothing from that opponent."""
    HIGHER_FULL_EQUAL_CANCEL = "higher_full_equal_cancel"
    """Singapore: as HIGHER_FULL, but two naturals of equal value pay nothing."""
    DIFFERENCE = "difference"
    """Malayan / Hawaiian Gardens: the lower-valued pays the difference; equal = 0."""


NATURAL_NAMES: tuple[str, ...] = (
    "six_pairs",
    "three_straights",
    "three_flushes",
    "five_pairs_trips",
    "four_trips",
    "twelve_one_colour",
    "one_colour",
    "small_2_8",
    "small_2_9",
    "small_2_10",
    "big_8_a",
    "three_quads",
    "three_straight_flushes",
    "twelve_pictures",
    "dragon",
    "one_suit",
    "no_pictures",
)
"""Every special 13-card hand ofc_fast detects (R-NAT-4, R-NAT-7, R-VAR-NOPIC-1)."""
USUAL_UNITS: dict[str, int] = {
    "six_pairs": 3,
    "three_straights": 3,
    "three_flushes": 3,
    "dragon": 13,
}
"""The usual list of naturals and their units (R-NAT-4): the units of one of these a
rule set lists without them (:class:`Natural`)."""


@hash_once
@dataclass(frozen=True)
class Schedule(RuleData):
    """Units per row and hand: the front by the rank of its pair or trips (index 0..12 =
    2..A), the middle and back by :class:`HandCategory` (HIGH_CARD .. ROYAL_FLUSH).

    >>> Schedule().back
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    """

    front_pair: tuple[int, ...] = (0,) * 13
    front_trips: tuple[int, ...] = (0,) * 13
    middle: tuple[int, ...] = (0,) * 10
    back: tuple[int, ...] = (0,) * 10
    # (no range of its own: each value takes the range of the RuleSet field holding
    # the schedule, royalties 0..1000, win_bonus -1..1000, named in its refusal)

    def _validate(self) -> None:
        for name, n in (
            ("front_pair", 13),
            ("front_trips", 13),
            ("middle", 10),
            ("back", 10),
        ):
            if len(getattr(self, name)) != n:
                raise RulesError(
                    f"{self._key_prefix}{name}: expected {n} values, "
                    f"got {len(getattr(self, name))}"
                )

    @staticmethod
    def by_category(values: dict[HandCategory, int]) -> tuple[int, ...]:
        """A 10-entry row from ``{HandCategory: units}`` (others 0); a category may
        also be its number or name, as in a rules file.  RulesError for anything else
        (the units are checked by the rule set field holding the schedule)."""
        if not isinstance(values, Mapping):
            raise RulesError(
                f"Schedule.by_category: expected {{category: units}}, got {quote(values)}"
            )
        row = [0] * 10
        for cat, units in values.items():
            key = f"Schedule.by_category[{quote(cat)}]"
            row[convert(cat, HandCategory, key)] = units
        return tuple(row)


@hash_once
@dataclass(frozen=True)
class Natural(RuleData):
    """A special 13-card hand and what it wins from each opponent (R-NAT-*).

    >>> from ofc_fast import rules
    >>> rules.MALAYAN.naturals[0]
    Natural(name='three_flushes', units=3)
    """

    name: str = "dragon"
    units: int = ranged(None, 0, 1000)
    """Left out (None): the natural's value in the usual list (:data:`USUAL_UNITS`,
    R-NAT-4); a natural of no usual list needs its units (R-NAT-1)."""

    def __post_init__(self) -> None:
        if self.units is None:  # not given: the usual list's value, or none to take
            name = match_choice(self.name, NATURAL_NAMES)
            if name is not None and name not in USUAL_UNITS:
                raise RulesError(
                    f"{self._key_prefix}units: {name!r} is in no usual list of naturals "
                    "(R-NAT-4): give its units, the value the players agree on (R-NAT-1)"
                )
            # (an unknown name keeps 0 here: the name's own check refuses it)
            object.__setattr__(self, "units", USUAL_UNITS.get(name or "", 0))
        super().__post_init__()

    def _validate(self) -> None:
        name = match_choice(self.name, NATURAL_NAMES)  # spelled one way: "Dragon"
        if name is not None:
            object.__setattr__(self, "name", name)
        else:
            raise RulesError(
                f"{self._key_prefix}name: unknown natural {quote(self.name)}; "
                f"known: {', '.join(NATURAL_NAMES)}"
            )


@hash_once
@dataclass(frozen=True)
class Lowball(RuleData):
    """2-7 middle row (R-27-*): ranked low, ace high, A-2-3-4-5 no straight.  The back
    must beat the front (R-27-4); whether "beat" is strict (Q-11) never matters on the
    one strength scale, where a 3-card front never equals a 5-card back.

    >>> from ofc_fast import rules
    >>> rules.PINEAPPLE_27.lowball.limit, rules.OFC.lowball
    (8, None)
    """

    limit: int = ranged(8, 5, 12)
    """Highest card rank a middle may hold (8 = ten-high, R-27-4); a pair, straight
    or flush, or a higher card, fouls."""
    royalties: tuple[int, ...] = ranged((0, 0, 0, 0, 0, 4, 2, 1, 0, 0, 0, 0, 0), *_BONUS)
    """Middle royalty by highest card rank (index 5 = seven-high: 4; eight-high 2;
    nine-high 1; ten-high 0; R-27-5)."""
    nuts: int = ranged(8, *_BONUS)
    """Royalty of 7-5-4-3-2 (not all one suit), in place of the seven-high value."""

    def _validate(self) -> None:
        if len(self.royalties) != 13:
            raise RulesError(f"{self._key_prefix}royalties: expected 13 values")


@hash_once
@dataclass(frozen=True)
class Fantasyland(RuleData):
    """Fantasyland entry, size and stay (R-FL-*, R-27-6/7).  A fouled board never
    enters or stays (Q-10, every preset).

    Front thresholds are text: ``"QQ"`` = a pair of queens or better, ``"222"`` =
    any trips.

    >>> from ofc_fast import rules
    >>> rules.PINEAPPLE.fantasyland.entry, rules.PINEAPPLE.fantasyland.stay_cards
    ((('QQ', 14),), 14)
    """

    entry: tuple[tuple[str, int], ...] = (("QQ", 14),)
    """(front threshold, cards) pairs, each threshold once: the best threshold met
    gives the cards.  Kept weakest threshold first, each spelled as the presets
    spell it (``"qq"`` is ``"QQ"``)."""
    lowball_entry: int = 0
    """2-7: cards for a 7-5-4-3-2 middle alone (0 = no such entry)."""
    lowball_both: int = 0
    """2-7: cards when the front and the 7-5-4-3-2 middle both qualify (0 = the larger
    of the two counts; needs ``lowball_entry``)."""
    stay_front: str | None = "222"
    """Stay with this front or better (None: no front condition)."""
    stay_middle: HandCategory | None = None
    """Stay with this middle category or better (None: none; always None under a 2-7
    middle, where no middle category counts)."""
    stay_back: HandCategory | None = HandCategory.QUADS
    """Stay with this back category or better (None: none)."""
    stay_cards: int | Literal["entry", "same"] = 14
    """Cards for a stay: a number, "entry" (the entry table, as if entering again: the
    best threshold the front meets; a stay that would enter with nothing, on its middle
    or back, gets the smallest count of any entry, ``lowball_entry`` included) or
    "same" (as many as this Fantasyland hand: Ultimate, R-FL-10)."""
    button_frozen: bool = True
    """The button does not move for a Fantasyland hand (R-FL-6)."""

    def _validate(self) -> None:
        # local: avoids a cycle
        from ._fantasyland_text import front_threshold, threshold_text

        if not self.entry and not self.lowball_entry:
            raise RulesError(f"{self._key_prefix}entry: no way to enter Fantasyland")
        if len(self.entry) > FL_MAX_ENTRY:
            raise RulesError(
                f"{self._key_prefix}entry: at most {FL_MAX_ENTRY} entries "
                f"(the C solver's limit), got {len(self.entry)}"
            )
        seen: dict[int, int] = {}  # threshold strength -> its entry
        for i, pair in enumerate(self.entry):
            strength = front_threshold(pair[0], f"{self._key_prefix}entry[{i}]")
            if strength in seen:  # (two counts for one front: which one was played?)
                raise RulesError(
                    f"{self._key_prefix}entry[{i}]: {quote(pair[0])} repeats the "
                    f"threshold of entry[{seen[strength]}]: one card count per threshold"
                )
            seen[strength] = i
            if not isinstance(pair[1], int) or not 13 <= pair[1] <= 17:
                raise RulesError(
                    f"{self._key_prefix}entry[{i}]: cards must be 13..17, "
                    f"got {quote(pair[1])}"
                )
        # each threshold spelled one way ("qq" is "QQ"), the weakest first (the best
        # one met counts, whatever the order): equal rules compare equal
        by_strength = sorted(seen.items())
        object.__setattr__(
            self,
            "entry",
            tuple(
                (threshold_text(self.entry[i][0]), self.entry[i][1]) for _, i in by_strength
            ),
        )
        if self.stay_front is not None:
            text = threshold_text(self.stay_front, f"{self._key_prefix}stay_front")
            object.__setattr__(self, "stay_front", text)
        if isinstance(self.stay_cards, int) and not 13 <= self.stay_cards <= 17:
            raise RulesError(
                f"{self._key_prefix}stay_cards: {quote(self.stay_cards)} is outside 13..17"
            )
        for key in ("lowball_entry", "lowball_both"):
            v = getattr(self, key)
            if v and not 13 <= v <= 17:
                raise RulesError(
                    f"{self._key_prefix}{key}: {quote(v)} is outside 13..17 (or 0: none)"
                )
        if self.lowball_both and not self.lowball_entry:
            raise RulesError(
                f"{self._key_prefix}lowball_both: a front and a 7-5-4-3-2 middle "
                f"together need the 7-5-4-3-2 entry (lowball_entry) set"
            )


@hash_once
@dataclass(frozen=True)
class Pool(RuleData):
    """Pool settlement (R-VAR-POOL-1): no pairwise comparison; each player antes
    ``ante`` units per row; the best row of each kind takes that row's pot.  The gains
    are paid as pair transfers in settlement order, so table stakes cap them like any
    pair transfer.

    >>> from ofc_fast import rules
    >>> rules.CLASSIC_1_6.replace(pool=Pool(ante=3)).pool
    Pool(ante=3, sweep_extra=0)
    """

    ante: int = ranged(1, 1, 1000)
    sweep_extra: int = ranged(0, 0, 1000)
    """A player who wins all three rows also receives this from each other player
    ("some" play: 3)."""


@hash_once
@dataclass(frozen=True)
class RuleSet(RuleData):
    """How a table plays and scores.  Frozen: derive variants with :meth:`replace`.

    Pair scoring (R-SCORE-*): each row won pays ``1 + win_bonus`` units for the
    winner's hand; winning all three rows adds ``sweep_bonus``; the majority of rows
    adds ``majority_bonus``; a swept pair's units are multiplied by
    ``sweep_multiplier`` (``sweep_all_multiplier`` plus ``sweep_all_bonus`` per
    opponent when one player swept the whole table of 3+); both players collect
    ``royalties`` for the hands they made whether or not the row wins, netted; the net
    winner adds ``overall_bonus``.  A fouled board loses every row and earns nothing;
    two fouled boards exchange nothing (R-FOUL-3/4).

    ``name`` holds at most 64 characters, ``description`` at most 1000, each valid
    Unicode text (no lone surrogate; else :class:`~ofc_fast.errors.RulesError` naming
    the field): both are echoed in error messages, logs and replies.

    >>> from ofc_fast import rules
    >>> thursday = rules.OFC.replace(sweep_bonus=0)
    >>> thursday, thursday.sweep_bonus, rules.OFC.sweep_bonus
    (<RuleSet 'custom': OFC with sweep_bonus=0>, 0, 3)
    """

    name: str = text("custom", 64)
    description: str = text("", 1000)
    game: GameKind = GameKind.OFC
    max_players: int = ranged(4, 2, 4)
    """Most seats the rules seat and score (2..4).  Not checked against one deck: a
    table that cannot be dealt (Pineapple's 17 cards a seat at 4 seats) is refused
    when set up (TableError naming ``players``; docs/rules.md, Q-14)."""
    face_down_final: int = ranged(0, 0, 8)
    """The last N rounds are placed face down (R-FLOW-OFC-7: 3 single cards in OFC);
    at most the rounds the game deals after the first five cards: OFC 8, Pineapple 4,
    classic 0."""
    # -- scoring of a pair
    sweep_bonus: int = ranged(3, *_BONUS)
    majority_bonus: int = ranged(0, *_BONUS)
    majority_rule: MajorityRule = MajorityRule.TWO_ROWS
    overall_bonus: int = ranged(0, *_BONUS)
    sweep_multiplier: int = ranged(1, 1, 100)
    sweep_all_multiplier: int = ranged(1, 1, 100)
    sweep_all_bonus: int = ranged(0, *_BONUS)
    royalties: Schedule = field(default_factory=Schedule, metadata={"range": _BONUS})
    """Paid for the hand made whatever the row result, netted (OFC royalties,
    R-BON-CP-6 extras for losing hands, Malayan extras).  Each 0..1000 (a negative
    one would be paid to a fouled board, which earns none); under a
    2-7 middle (``lowball``) the middle values are 0 (``lowball.royalties`` is paid)."""
    win_bonus: Schedule = field(default_factory=Schedule, metadata={"range": (-1, 1000)})
    """Extra units for winning a row with the hand (R-BON-CP-2 front trips: 2, so the
    row pays 3).  Each -1..1000 (-1: that row pays 0)."""
    lowball: Lowball | None = None
    """2-7 middle (R-27-*); None = normal high middle."""
    order: OrderRule = OrderRule.NONSTRICT
    foul_pays_sweep: bool = True
    """Beating a fouled board counts as a sweep (R-FOUL-3b, Q-3); False: rows only."""
    # -- the table
    house: bool = False
    """The button seat is the house/bank: other seats play only against it, and it
    wins tied rows (R-VAR-HOUSE-1, R-VAR-MAL-1)."""
    pool: Pool | None = None
    single_winner: int = ranged(0, 0, 1000)
    """Single-winner mode when > 0 (R-VAR-SINGLE-1): a seat that beats every other
    seat on two rows or more collects this from each that set its rows (a seat that
    surrendered pays its ``surrender_cost`` only, one that declared a natural its
    natural's due); nobody else pays anything."""
    surrender_cost: int | None = ranged(None, *_BONUS)
    """Units a surrendering seat pays each opponent (None: surrender not allowed;
    R-VAR-SUR-1: 1, or 2 with the overall point; Hawaiian Gardens 3)."""
    aces_bet: tuple[int, ...] | None = ranged(None, *_BONUS)
    """Aces side bet: value of holding 0..4 aces (R-VAR-ACES-1: 0, 1, 2, 6, 8)."""
    naturals: tuple[Natural, ...] = ()
    """Special 13-card hands in ascending rank; empty = none (R-NAT-1)."""
    naturals_rule: NaturalsRule = NaturalsRule.HIGHER_FULL
    stakes: StakesModel = StakesModel.WIN_CAP
    settlement_start: SettlementStart = SettlementStart.LEFT_OF_BUTTON
    fantasyland: Fantasyland | None = None

    def _changed_fields(self, other: RuleSet) -> list[str]:
        """Fields (other than the labels, :data:`LABEL_FIELDS`) where ``self`` differs
        from ``other``."""
        return [
            f.name
            for f in dataclasses.fields(self)
            if f.name not in LABEL_FIELDS
            and getattr(self, f.name) != getattr(other, f.name)
        ]

    def _preset(self) -> RuleSet | None:
        """The preset this rule set is (same name and fields), or None."""
        preset = KNOWN_PRESETS.get(self.name)
        return preset if preset == self else None

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed, validated like a new one.

        A preset changed in any rule no longer carries the preset's name and
        description: unless ``name`` / ``description`` are given, the copy is named
        ``"custom"`` and described by what changed.

        >>> from ofc_fast.rules import OFC
        >>> table = OFC.replace(overall_bonus=1)
        >>> table.name, table.description
        ('custom', 'OFC with overall_bonus changed')
        >>> OFC.replace(name="home game", overall_bonus=1).name
        'home game'

        Giving a high middle a 2-7 one (``lowball``) also clears what only a high
        middle has, unless given too: the middle royalties (``lowball.royalties``
        are paid) and Fantasyland's ``stay_middle`` (no 2-7 middle is a category);
        taking a 2-7 middle away (``lowball=None``) clears what only a 2-7 middle has,
        Fantasyland's 7-5-4-3-2 entries (``lowball_entry``, ``lowball_both``).

        >>> from ofc_fast.rules import PINEAPPLE, Lowball
        >>> low = PINEAPPLE.replace(lowball=Lowball())
        >>> low.royalties.middle, low.fantasyland.stay_middle
        ((0, 0, 0, 0, 0, 0, 0, 0, 0, 0), None)
        >>> low.replace(lowball=None).fantasyland.lowball_entry
        0
        """
        if "lowball" in changes and (changes["lowball"] is None) != (self.lowball is None):
            changes = {**self._other_middle_cleared(changes), **changes}
        new: RuleSet = super().replace(**changes)
        if "name" in changes and "description" in changes:
            return new
        preset = self._preset()
        changed = new._changed_fields(self) if preset is not None else []
        if not changed:
            return new
        return dataclasses.replace(
            new,
            name=changes.get("name", "custom"),
            description=changes.get(
                "description", f"{self.name} with {', '.join(changed)} changed"
            ),
        )

    def _other_middle_cleared(self, changes: dict[str, Any]) -> dict[str, Any]:
        """The fields the middle ``changes`` gives rules out (:meth:`_validate`),
        cleared where set and not in ``changes``: under a 2-7 middle the middle
        royalties and Fantasyland's ``stay_middle``; under a high middle (``lowball``
        None) Fantasyland's 7-5-4-3-2 entries, as a dict read as the field is (a
        Fantasyland left with no entry is refused naming ``fantasyland.entry``)."""
        cleared: dict[str, Any] = {}
        fl = self.fantasyland
        if changes["lowball"] is None:
            if "fantasyland" not in changes and fl is not None and fl.lowball_entry:
                low = {"lowball_entry": 0, "lowball_both": 0}
                cleared["fantasyland"] = {**fl.to_dict(), **low}
            return cleared
        if "royalties" not in changes and any(self.royalties.middle):
            middle = (0,) * len(self.royalties.middle)
            cleared["royalties"] = self.royalties.replace(middle=middle)
        if "fantasyland" not in changes and fl is not None and fl.stay_middle is not None:
            cleared["fantasyland"] = fl.replace(stay_middle=None)
        return cleared

    def __repr__(self) -> str:
        """Short, so that signatures with a preset default stay readable:
        ``rules.OFC`` for a preset, else the name and what differs from the nearest
        preset.

        >>> from ofc_fast import rules
        >>> rules.OFC
        rules.OFC
        >>> rules.OFC.replace(name="home", overall_bonus=1)
        <RuleSet 'home': OFC with overall_bonus=1>
        """
        if self._preset() is not None:
            return f"rules.{self.name}"
        base = min(KNOWN_PRESETS.values(), key=lambda p: len(self._changed_fields(p)))
        changed = [_short_field(f, getattr(self, f)) for f in self._changed_fields(base)]
        if len(changed) > 4:
            changed = changed[:4] + [f"{len(changed) - 4} more"]
        return (
            f"<RuleSet {self.name!r}: {base.name} with {', '.join(changed) or 'no change'}>"
        )

    def _validate(self) -> None:
        p = self._key_prefix
        # (each value's range, royalties 0..1000 and win_bonus -1..1000 included, is
        # the field's, checked as the field is read: _fields.ranged)
        if self.aces_bet is not None and len(self.aces_bet) != 5:
            raise RulesError(
                f"{p}aces_bet: expected 5 values (0..4 aces), got {len(self.aces_bet)}"
            )
        fl = self.fantasyland
        if (
            fl is not None
            and self.lowball is None
            and (fl.lowball_entry or fl.lowball_both)
        ):
            raise RulesError(
                f"{p}fantasyland.lowball_entry: a 7-5-4-3-2 entry needs a 2-7 "
                f"middle (lowball)"
            )
        if fl is not None and not fl.entry and self.lowball is None:
            raise RulesError(f"{p}fantasyland.entry: no way to enter Fantasyland")
        names = [n.name for n in self.naturals]
        for i, name in enumerate(names):
            if name in names[:i]:  # (which one: a Malayan list holds twelve)
                raise RulesError(
                    f"{p}naturals: a natural is listed twice: naturals[{i}] "
                    f"{quote(name)} repeats naturals[{names.index(name)}]"
                )
        if self.pool is not None and (self.house or self.single_winner):
            raise RulesError(f"{p}pool: pool mode excludes house and single_winner")
        if self.house and self.single_winner:
            raise RulesError(f"{p}house: house mode excludes single_winner")
        # Every other combination settles (ofc_settle / ofc_table_rules_check accept
        # what passes here; tests/test_rules_model.py checks it on random rule sets).
        rounds = _ROUNDS[self.game]
        if self.face_down_final > rounds:  # (the engine hid every round: as many)
            most = (
                "classic Chinese Poker deals all 13 cards at once, already face "
                "down: it must be 0"
                if rounds == 0
                else f"{self.game.name.title()} deals {rounds} rounds after the first "
                f"five cards: at most {rounds}"
            )
            raise RulesError(f"{p}face_down_final: {most}, got {self.face_down_final}")
        if self.lowball is not None and self.game is GameKind.CLASSIC:
            raise RulesError(f"{p}lowball: a 2-7 middle is an OFC / Pineapple variant")
        if self.lowball is not None and any(self.royalties.middle):
            raise RulesError(  # (the engine paid lowball.royalties, these never)
                f"{p}royalties.middle: a 2-7 middle (lowball) pays lowball.royalties "
                f"and lowball.nuts; these must be 0, got {list(self.royalties.middle)}"
            )
        if self.lowball is not None and fl is not None and fl.stay_middle is not None:
            raise RulesError(  # (a legal 2-7 middle holds no category to meet)
                f"{p}fantasyland.stay_middle: a 2-7 middle (lowball) is ranked low, "
                f"so no middle category keeps Fantasyland: leave it out (null), got "
                f"{fl.stay_middle.name}"
            )
        if self.fantasyland is not None and self.game is GameKind.CLASSIC:
            raise RulesError(
                f"{p}fantasyland: classic Chinese Poker has no Fantasyland "
                f"(an OFC / Pineapple rule)"
            )


_ROUNDS = {GameKind.CLASSIC: 0, GameKind.OFC: 8, GameKind.PINEAPPLE: 4}
"""Rounds a seat plays after its first five cards (R-FLOW-OFC-4: 8 of one card;
R-FLOW-PIN-2: 4 of three), the most ``face_down_final`` can hide."""

KNOWN_PRESETS: dict[str, RuleSet] = {}
"""The presets by name, for :meth:`RuleSet.replace` (a changed preset is named
``"custom"``) and ``repr``: filled once by :mod:`ofc_fast.rules.presets` as it defines
them (so this module imports none of its dependents)."""


def _short_field(name: str, value: object) -> str:
    """``name=value`` when the value prints short, else just the field name."""
    text = repr(value.value if isinstance(value, Enum) else value)
    return f"{name}={text}" if len(text) <= 24 else name
