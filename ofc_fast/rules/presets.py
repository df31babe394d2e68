"""Named rule sets for every variant of docs/rules.md, and the alternative royalty schedules.

>>> from ofc_fast import rules
>>> rules.get("progressive-pineapple").fantasyland.entry
(('QQ', 14), ('KK', 15), ('AA', 16), ('222', 17))
>>> flat = rules.OFC.replace(royalties=rules.ROYALTIES_FLAT_TRIPS)   # R-ROY-OFC-4 [001]
>>> flat.royalties.front_trips[0], flat.royalties.front_trips[12]
(20, 20)
"""

from __future__ import annotations

from typing import TypeAlias

from ..ranking import HandCategory as C
from .model import (
    KNOWN_PRESETS,
    Fantasyland,
    Game,
    Lowball,
    Natural,
    NaturalsRule,
    RuleSet,
    Schedule,
    SettlementStart,
    StakesModel,
)

__all__ = [
    "CLASSIC_1_6",
    "CLASSIC_2_4",
    "CLASSIC_WIN_BONUS",
    "HAWAIIAN_GARDENS",
    "MALAYAN",
    "OFC",
    "PINEAPPLE",
    "PINEAPPLE_27",
    "PRESETS",
    "PROGRESSIVE_PINEAPPLE",
    "ROYALTIES_001_STANDARD",
    "ROYALTIES_ALT_2",
    "ROYALTIES_ALT_3",
    "ROYALTIES_ALT_4",
    "ROYALTIES_FLAT_TRIPS",
    "ROYALTIES_OFC",
    "SINGAPORE",
    "TYPICAL_NATURALS",
    "ULTIMATE_PINEAPPLE",
    "VIETNAMESE",
    "RulesLike",
]

_by = Schedule.by_category

# ----------------------------------------------------------- royalty schedules

ROYALTIES_OFC: Schedule = Schedule(
    front_pair=(0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9),  # 66 = 1 .. AA = 9
    front_trips=tuple(range(10, 23)),  # 222 = 10 .. AAA = 22
    middle=_by(
        {
            C.TRIPS: 2,
            C.STRAIGHT: 4,
            C.FLUSH: 8,
            C.FULL_HOUSE: 12,
            C.QUADS: 20,
            C.STRAIGHT_FLUSH: 30,
            C.ROYAL_FLUSH: 50,
        }
    ),
    back=_by(
        {
            C.STRAIGHT: 2,
            C.FLUSH: 4,
            C.FULL_HOUSE: 6,
            C.QUADS: 10,
            C.STRAIGHT_FLUSH: 15,
            C.ROYAL_FLUSH: 25,
        }
    ),
)
"""R-ROY-OFC-3/4, the schedule docs/design.md pins for OFC and PINEAPPLE: front trips by
rank (10..22), middle trips 2."""

ROYALTIES_FLAT_TRIPS: Schedule = ROYALTIES_OFC.replace(front_trips=(20,) * 13)
"""R-ROY-OFC-4, [001]'s standard front: any trips 20."""

ROYALTIES_001_STANDARD: Schedule = ROYALTIES_FLAT_TRIPS.replace(
    middle=ROYALTIES_OFC.middle[: C.TRIPS] + (0,) + ROYALTIES_OFC.middle[C.TRIPS + 1 :]
)
"""[001]'s standard list: front trips 20, middle trips not paid (R-ROY-OFC-3)."""

ROYALTIES_ALT_2: Schedule = ROYALTIES_OFC.replace(
    back=ROYALTIES_OFC.back[: C.TRIPS] + (1,) + ROYALTIES_OFC.back[C.TRIPS + 1 :]
)
"""R-ROY-ALT-2: middle trips 2 and back trips 1."""

ROYALTIES_ALT_3: Schedule = ROYALTIES_OFC.replace(
    back=_by(
        {
            C.STRAIGHT: 2,
            C.FLUSH: 4,
            C.FULL_HOUSE: 6,
            C.QUADS: 8,
            C.STRAIGHT_FLUSH: 10,
            C.ROYAL_FLUSH: 20,
        }
    ),
    middle=_by(
        {
            C.TRIPS: 2,
            C.STRAIGHT: 4,
            C.FLUSH: 8,
            C.FULL_HOUSE: 12,
            C.QUADS: 16,
            C.STRAIGHT_FLUSH: 20,
            C.ROYAL_FLUSH: 40,
        }
    ),
)
"""R-ROY-ALT-3: back quads 8, straight flush 10, royal 20; the middle doubles the back
(unlisted categories unchanged)."""

ROYALTIES_ALT_4: Schedule = ROYALTIES_OFC.replace(
    back=_by(
        {
            C.STRAIGHT: 4,
            C.FLUSH: 4,
            C.FULL_HOUSE: 6,
            C.QUADS: 10,
            C.STRAIGHT_FLUSH: 15,
            C.ROYAL_FLUSH: 25,
        }
    ),
    middle=_by(
        {
            C.TRIPS: 2,
            C.STRAIGHT: 12,
            C.FLUSH: 12,
            C.FULL_HOUSE: 18,
            C.QUADS: 30,
            C.STRAIGHT_FLUSH: 45,
            C.ROYAL_FLUSH: 75,
        }
    ),
)
"""R-ROY-ALT-4: back straight 4, straight flush 15, royal 25, middle three times the
back, middle trips 2 (unlisted back values read as 4 / 6 / 10)."""

CLASSIC_WIN_BONUS: Schedule = Schedule(
    front_trips=(2,) * 13,
    middle=_by({C.FULL_HOUSE: 1, C.QUADS: 3, C.STRAIGHT_FLUSH: 4, C.ROYAL_FLUSH: 4}),
    back=_by({C.QUADS: 3, C.STRAIGHT_FLUSH: 4, C.ROYAL_FLUSH: 4}),
)
"""R-BON-CP-2 as extra units over 1: a row won with front trips pays 3, middle full
house 2, quads 4, straight flush or royal 5."""

TYPICAL_NATURALS = (
    Natural("six_pairs", 3),
    Natural("three_straights", 3),
    Natural("three_flushes", 3),
    Natural("dragon", 13),
)
"""R-NAT-4: the typical naturals, ascending (add with ``naturals=TYPICAL_NATURALS``)."""


def _win_values(front_trips: int, middle: dict[C, int], back: dict[C, int]) -> Schedule:
    """A win_bonus schedule from the units a won row pays (bonus = units - 1)."""
    return Schedule(
        front_trips=(front_trips - 1,) * 13,
        middle=_by({c: v - 1 for c, v in middle.items()}),
        back=_by({c: v - 1 for c, v in back.items()}),
    )


# --------------------------------------------------------------------- presets

OFC: RuleSet = RuleSet(
    name="OFC",
    description="Open Face Chinese Poker: 1-6 scoring, standard royalties netted "
    "(R-SCORE-2, R-ROY-OFC-3/4); 5 then 1 at a time; Fantasyland QQ+ 13 "
    "cards, stay on trips front / full house middle / quads back",
    game=Game.OFC,
    max_players=4,
    royalties=ROYALTIES_OFC,
    fantasyland=Fantasyland(
        entry=(("QQ", 13),),
        stay_front="222",
        stay_middle=C.FULL_HOUSE,
        stay_back=C.QUADS,
        stay_cards=13,
    ),
)
PINEAPPLE: RuleSet = OFC.replace(
    name="PINEAPPLE",
    description="Pineapple OFC: OFC scoring; 5 then 4 rounds of 3 (place 2, discard "
    "1) (R-FLOW-PIN-*); Fantasyland QQ+ 14 cards, stay as [003]",
    game=Game.PINEAPPLE,
    max_players=3,
    fantasyland=Fantasyland(
        entry=(("QQ", 14),),
        stay_front="222",
        stay_middle=C.FULL_HOUSE,
        stay_back=C.QUADS,
        stay_cards=14,
    ),
)
_PROGRESSIVE_ENTRY = (("QQ", 14), ("KK", 15), ("AA", 16), ("222", 17))
PROGRESSIVE_PINEAPPLE: RuleSet = PINEAPPLE.replace(
    name="PROGRESSIVE_PINEAPPLE",
    description="Progressive Pineapple: Fantasyland QQ 14, KK 15, AA 16, trips 17 "
    "(R-FL-3); stay on trips front or quads+ back with 14 ([000])",
    fantasyland=Fantasyland(
        entry=_PROGRESSIVE_ENTRY, stay_front="222", stay_back=C.QUADS, stay_cards=14
    ),
)
ULTIMATE_PINEAPPLE: RuleSet = PINEAPPLE.replace(
    name="ULTIMATE_PINEAPPLE",
    description="Ultimate Pineapple: progressive entry (14-17); stay on trips front or "
    "quads+ back with as many cards as the hand that earned it (R-FL-10)",
    fantasyland=Fantasyland(
        entry=_PROGRESSIVE_ENTRY, stay_front="222", stay_back=C.QUADS, stay_cards="same"
    ),
)
PINEAPPLE_27: RuleSet = PINEAPPLE.replace(
    name="PINEAPPLE_27",
    description="Pineapple 2-7: low middle (ace high, 10-high or better, royalties 9-high "
    "1 .. 7-5-4-3-2 8) (R-27-*); Fantasyland KK+ front or 7-5-4-3-2 middle "
    "14, both 15; stay on trips front or quads+ back",
    royalties=ROYALTIES_OFC.replace(middle=(0,) * 10),
    lowball=Lowball(),
    fantasyland=Fantasyland(
        entry=(("KK", 14),),
        lowball_entry=14,
        lowball_both=15,
        stay_front="222",
        stay_back=C.QUADS,
        stay_cards=14,
    ),
)
CLASSIC_1_6: RuleSet = RuleSet(
    name="CLASSIC_1_6",
    description="Classic Chinese Poker, 1-6 method (1 a row, +3 sweep) with win-only "
    "bonuses: front trips 3, middle full house 2, quads 4, straight flush 5 "
    "(R-SCORE-2, R-BON-CP-2)",
    game=Game.CLASSIC,
    max_players=4,
    win_bonus=CLASSIC_WIN_BONUS,
)
CLASSIC_2_4: RuleSet = CLASSIC_1_6.replace(
    name="CLASSIC_2_4",
    description="Classic Chinese Poker, 2-4 method (1 a row, +1 for two or more rows) "
    "with the win-only bonuses of CLASSIC_1_6 (R-SCORE-3, R-BON-CP-2)",
    sweep_bonus=0,
    majority_bonus=1,
)
MALAYAN: RuleSet = CLASSIC_1_6.replace(
    name="MALAYAN",
    description="Malayan Sap Sam Cheung: three players against the bank (button), bank "
    "wins ties, 1 a row, extras paid win or lose, Malayan naturals by "
    "difference (R-VAR-MAL-*)",
    house=True,
    sweep_bonus=0,
    win_bonus=Schedule(),
    royalties=Schedule(
        front_trips=(2,) * 13,
        middle=_by({C.FULL_HOUSE: 2, C.QUADS: 6, C.STRAIGHT_FLUSH: 8, C.ROYAL_FLUSH: 8}),
        back=_by({C.QUADS: 4, C.STRAIGHT_FLUSH: 6, C.ROYAL_FLUSH: 6}),
    ),
    naturals=(
        Natural("three_flushes", 3),
        Natural("three_straights", 4),
        Natural("six_pairs", 4),
        Natural("five_pairs_trips", 5),
        Natural("four_trips", 6),
        Natural("one_colour", 10),
        Natural("small_2_8", 10),
        Natural("big_8_a", 10),
        Natural("three_quads", 16),
        Natural("three_straight_flushes", 18),
        Natural("twelve_pictures", 18),
        Natural("one_suit", 26),
    ),
    naturals_rule=NaturalsRule.DIFFERENCE,
)
VIETNAMESE: RuleSet = CLASSIC_1_6.replace(
    name="VIETNAMESE",
    description="Vietnamese Xap Xam: 1 a row, won rows pay trips 3 front, full house 2, "
    "quads 4/8, straight flush 5/10 (back/middle); a sweep pays double, a "
    "sweep of the table triple; Vietnamese naturals (R-VAR-VIET-*)",
    sweep_bonus=0,
    sweep_multiplier=2,
    sweep_all_multiplier=3,
    win_bonus=_win_values(
        3,
        {C.FULL_HOUSE: 2, C.QUADS: 8, C.STRAIGHT_FLUSH: 10, C.ROYAL_FLUSH: 10},
        {C.QUADS: 4, C.STRAIGHT_FLUSH: 5, C.ROYAL_FLUSH: 5},
    ),
    naturals=(
        Natural("six_pairs", 3),
        Natural("three_straights", 3),
        Natural("three_flushes", 3),
        Natural("five_pairs_trips", 6),
        Natural("dragon", 13),
        Natural("one_suit", 26),
    ),
)
SINGAPORE: RuleSet = CLASSIC_1_6.replace(
    name="SINGAPORE",
    description="Singapore: 1 a row, won rows pay trips 3 front, full house 2, quads "
    "4/8, straight flush 7/14; sweeping the table pays double; claims "
    "(naturals) with the Dragon 13, equal claims cancel (R-VAR-SG-*)",
    sweep_bonus=0,
    sweep_all_multiplier=2,
    win_bonus=_win_values(
        3,
        {C.FULL_HOUSE: 2, C.QUADS: 8, C.STRAIGHT_FLUSH: 14, C.ROYAL_FLUSH: 14},
        {C.QUADS: 4, C.STRAIGHT_FLUSH: 7, C.ROYAL_FLUSH: 7},
    ),
    naturals=(
        Natural("six_pairs", 3),
        Natural("three_straights", 3),
        Natural("three_flushes", 3),
        Natural("small_2_9", 3),
        Natural("dragon", 13),
    ),
    naturals_rule=NaturalsRule.HIGHER_FULL_EQUAL_CANCEL,
)
HAWAIIAN_GARDENS: RuleSet = CLASSIC_1_6.replace(
    name="HAWAIIAN_GARDENS",
    description="Hawaiian Gardens casino: 2 of 3 rows 1, all 3 rows 6, the whole table "
    "9 each; won rows pay straight flush 5/10, quads 4/8, middle full house "
    "2, front trips 3; surrender 3; chip cap; settled from the dealer; HG "
    "naturals, lower pays the difference (R-VAR-HG-*)",
    sweep_all_bonus=3,
    win_bonus=_win_values(
        3,
        {C.FULL_HOUSE: 2, C.QUADS: 8, C.STRAIGHT_FLUSH: 10, C.ROYAL_FLUSH: 10},
        {C.QUADS: 4, C.STRAIGHT_FLUSH: 5, C.ROYAL_FLUSH: 5},
    ),
    surrender_cost=3,
    stakes=StakesModel.CHIPS,
    settlement_start=SettlementStart.BUTTON,
    naturals=(
        Natural("six_pairs", 4),
        Natural("three_straights", 4),
        Natural("three_flushes", 4),
        Natural("twelve_one_colour", 4),
        Natural("one_colour", 6),
        Natural("dragon", 13),
        Natural("one_suit", 39),
    ),
    naturals_rule=NaturalsRule.DIFFERENCE,
)

PRESETS: dict[str, RuleSet] = {
    r.name: r
    for r in (
        OFC,
        PINEAPPLE,
        PROGRESSIVE_PINEAPPLE,
        ULTIMATE_PINEAPPLE,
        PINEAPPLE_27,
        CLASSIC_1_6,
        CLASSIC_2_4,
        MALAYAN,
        VIETNAMESE,
        SINGAPORE,
        HAWAIIAN_GARDENS,
    )
}
"""Every preset by name."""
KNOWN_PRESETS.update(PRESETS)  # what RuleSet.replace() and repr() recognise


RulesLike: TypeAlias = RuleSet | str
"""What a function taking a rule set accepts: a :class:`RuleSet`, a preset name or an
arena game id (:func:`ofc_fast.rules.as_rules`)."""
