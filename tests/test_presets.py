"""Every preset of `ofc_fast.rules`: its pinned parameters, and a fixed set of boards scored
with settle(), checked against numbers worked out by hand from docs/rules.md (the
arithmetic is in the comments; nothing here was copied from the library's output).
"""

from __future__ import annotations

import pytest
from rules_helpers import assert_disjoint, items_net

import ofc_fast as ofc
from ofc_fast import Board, rules, score_pair, settle
from ofc_fast.rules import (
    Game,
    NaturalsRule,
    OrderRule,
    Schedule,
    SettlementStart,
    StakesModel,
)
from ofc_fast.rules import HandCategory as C

ALL = [
    "OFC",
    "PINEAPPLE",
    "PROGRESSIVE_PINEAPPLE",
    "ULTIMATE_PINEAPPLE",
    "PINEAPPLE_27",
    "CLASSIC_1_6",
    "CLASSIC_2_4",
    "MALAYAN",
    "VIETNAMESE",
    "SINGAPORE",
    "HAWAIIAN_GARDENS",
]
OFC_FAMILY = ["OFC", "PINEAPPLE", "PROGRESSIVE_PINEAPPLE", "ULTIMATE_PINEAPPLE"]


# ------------------------------------------------------------------ listing and lookup


def test_all_eleven_presets_listed() -> None:
    assert rules.names() == ALL
    assert list(rules.PRESETS) == ALL
    for name in ALL:
        preset = getattr(rules, name)
        assert preset.name == name
        assert rules.get(name) is preset
        assert rules.get(name.lower().replace("_", "-")) is preset
        assert preset.description.strip(), name  # one-line description for the listing


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        (" progressive  pineapple ", "PROGRESSIVE_PINEAPPLE"),
        ("Classic 2-4", "CLASSIC_2_4"),
        ("Pineapple--27", "PINEAPPLE_27"),
        ("OFC-Pineapple", "PINEAPPLE"),  # a game id: its "-" as written
    ],
)
def test_get_reads_preset_names_as_every_text_choice(name: str, preset: str) -> None:
    """A preset name is read as a rule set's words are (one reader): two spaces or
    ``-`` for one ``_`` were an unknown rule set."""
    assert rules.get(name) is getattr(rules, preset)


def test_get_unknown_preset_names_the_choices() -> None:
    with pytest.raises(ofc.RulesError, match=r"unknown rule set 'OFC2'.*PINEAPPLE"):
        rules.get("OFC2")


# --------------------------------------------------------------- pinned parameters


def test_ofc_and_pineapple_schedule_pinned_by_design() -> None:
    """Pinned (design.md): back straight 2, flush 4, full house 6, quads 10, SF 15, royal 25;
    middle trips 2, straight 4, flush 8, FH 12, quads 20, SF 30, royal 50; front pair
    66=1 .. AA=9, trips 222=10 .. AAA=22; 1-6 scoring."""
    for name in OFC_FAMILY:
        r = getattr(rules, name)
        roy = r.royalties
        assert roy.back == (0, 0, 0, 0, 2, 4, 6, 10, 15, 25)
        assert roy.middle == (0, 0, 0, 2, 4, 8, 12, 20, 30, 50)
        assert roy.front_pair == (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
        assert roy.front_trips == tuple(range(10, 23))
        assert (r.sweep_bonus, r.majority_bonus, r.overall_bonus) == (3, 0, 0)
        assert r.win_bonus == Schedule()
        assert r.order is OrderRule.NONSTRICT  # Q-1 default
        assert r.foul_pays_sweep and not r.house and r.pool is None
        assert r.lowball is None
    assert rules.OFC.game is Game.OFC
    assert rules.PINEAPPLE.game is Game.PINEAPPLE


def test_alternative_royalty_schedules() -> None:
    """R-ROY-OFC-4 flat 20 trips, [001] standard (no middle trips), R-ROY-ALT-2/3/4."""
    assert rules.ROYALTIES_FLAT_TRIPS.front_trips == (20,) * 13
    assert rules.ROYALTIES_FLAT_TRIPS.middle[C.TRIPS] == 2
    assert rules.ROYALTIES_001_STANDARD.front_trips == (20,) * 13
    assert rules.ROYALTIES_001_STANDARD.middle[C.TRIPS] == 0
    assert rules.ROYALTIES_001_STANDARD.middle[C.STRAIGHT :] == (4, 8, 12, 20, 30, 50)
    alt2 = rules.ROYALTIES_ALT_2
    assert (alt2.middle[C.TRIPS], alt2.back[C.TRIPS]) == (2, 1)
    alt3 = rules.ROYALTIES_ALT_3
    assert (alt3.back[C.QUADS], alt3.back[C.STRAIGHT_FLUSH], alt3.back[C.ROYAL_FLUSH]) == (
        8,
        10,
        20,
    )
    assert (
        alt3.middle[C.QUADS],
        alt3.middle[C.STRAIGHT_FLUSH],
        alt3.middle[C.ROYAL_FLUSH],
    ) == (16, 20, 40)
    alt4 = rules.ROYALTIES_ALT_4
    assert (
        alt4.back[C.STRAIGHT],
        alt4.back[C.STRAIGHT_FLUSH],
        alt4.back[C.ROYAL_FLUSH],
    ) == (4, 15, 25)
    # "middle = three times the back": straight 12, SF 45, royal 75; middle trips 2.
    assert (
        alt4.middle[C.STRAIGHT],
        alt4.middle[C.STRAIGHT_FLUSH],
        alt4.middle[C.ROYAL_FLUSH],
        alt4.middle[C.TRIPS],
    ) == (12, 45, 75, 2)
    for cat in (
        C.STRAIGHT,
        C.FLUSH,
        C.FULL_HOUSE,
        C.QUADS,
        C.STRAIGHT_FLUSH,
        C.ROYAL_FLUSH,
    ):
        assert alt4.middle[cat] == 3 * alt4.back[cat]
    # One-line replacement works and scores: front trips 2-2-2 now pays 20.
    flat = rules.OFC.replace(royalties=rules.ROYALTIES_FLAT_TRIPS)
    assert Board.parse("2c 2d 2h / 5s 5h 5d 9c 9d / As Ks Qs Js Ts").royalties(flat) == (
        20,
        12,
        25,
    )


def test_classic_presets_pinned_by_design() -> None:
    """Pinned (design.md): CLASSIC_1_6 / CLASSIC_2_4 win-only scale: front trips 3, middle FH 2,
    quads 4, straight flush or royal 5 (as units of the won row)."""
    for r, sweep, majority in ((rules.CLASSIC_1_6, 3, 0), (rules.CLASSIC_2_4, 0, 1)):
        wb = r.win_bonus
        assert set(wb.front_trips) == {2} and set(wb.front_pair) == {0}
        assert wb.middle == Schedule.by_category(
            {C.FULL_HOUSE: 1, C.QUADS: 3, C.STRAIGHT_FLUSH: 4, C.ROYAL_FLUSH: 4}
        )
        assert wb.back == Schedule.by_category(
            {C.QUADS: 3, C.STRAIGHT_FLUSH: 4, C.ROYAL_FLUSH: 4}
        )
        assert r.royalties == Schedule()
        assert (r.sweep_bonus, r.majority_bonus) == (sweep, majority)
        assert r.game is Game.CLASSIC and r.fantasyland is None


def test_regional_presets_parameters() -> None:
    """docs/rules.md section 8, as the presets read it."""
    mal = rules.MALAYAN
    assert mal.house and mal.sweep_bonus == 0 and mal.win_bonus == Schedule()
    assert mal.naturals_rule is NaturalsRule.DIFFERENCE
    # R-VAR-MAL-3: the Malayan column in ascending list order.
    assert [(n.name, n.units) for n in mal.naturals] == [
        ("three_flushes", 3),
        ("three_straights", 4),
        ("six_pairs", 4),
        ("five_pairs_trips", 5),
        ("four_trips", 6),
        ("one_colour", 10),
        ("small_2_8", 10),
        ("big_8_a", 10),
        ("three_quads", 16),
        ("three_straight_flushes", 18),
        ("twelve_pictures", 18),
        ("one_suit", 26),
    ]
    viet = rules.VIETNAMESE
    assert [(n.name, n.units) for n in viet.naturals] == [
        ("six_pairs", 3),
        ("three_straights", 3),
        ("three_flushes", 3),
        ("five_pairs_trips", 6),
        ("dragon", 13),
        ("one_suit", 26),
    ]
    sg = rules.SINGAPORE
    assert sg.naturals_rule is NaturalsRule.HIGHER_FULL_EQUAL_CANCEL
    assert {n.name: n.units for n in sg.naturals} == {
        "six_pairs": 3,
        "three_straights": 3,
        "three_flushes": 3,
        "small_2_9": 3,
        "dragon": 13,
    }
    hg = rules.HAWAIIAN_GARDENS
    assert hg.surrender_cost == 3 and hg.stakes is StakesModel.CHIPS
    assert hg.settlement_start is SettlementStart.BUTTON
    assert hg.naturals_rule is NaturalsRule.DIFFERENCE
    assert {n.name: n.units for n in hg.naturals} == {
        "six_pairs": 4,
        "three_straights": 4,
        "three_flushes": 4,
        "twelve_one_colour": 4,
        "one_colour": 6,
        "dragon": 13,
        "one_suit": 39,
    }
    for r in (rules.CLASSIC_1_6, rules.CLASSIC_2_4, mal, viet, sg, hg):
        assert r.game is Game.CLASSIC and r.lowball is None


# ======================================================================= OFC family
# Three seats, button 0 (settled from seat 1).  Royalties under R-ROY-OFC-3/4:
P0 = "Kh Kd Kc / 2s 3s 7s 9s Js / Ac Ad Ah 4c 4d"  # KKK 21 / flush 8 / FH 6     = 35
P1 = "6c 6d 2d / Qs Qd Qc 3c 4h / 5h 6h 7h 8h 9h"  # 66 1  / trips 2 / SF 15     = 18
P2 = "Jd 9d 3d / 2c 3h 4s 5s 6s / Tc Td Th Ts 2h"  # J-hi 0 / straight 4 / quads 10 = 14
# Rows:  front KKK > 66 > J-high;  middle flush > straight > trips;  back SF > quads > FH
#   P0 v P1: P0 front, middle; P1 back -> rows +1;  royalties 35 - 18 = 17   -> P0 +18
#   P0 v P2: P0 front, middle; P2 back -> rows +1;  royalties 35 - 14 = 21   -> P0 +22
#   P1 v P2: P1 front, back;  P2 middle -> rows +1; royalties 18 - 14 = 4    -> P1 +5
OFC_NET = [18 + 22, -18 + 5, -22 - 5]  # [40, -13, -27]
# A fouled board (middle two pair over a back pair of eights), from the 13 cards left:
PF = "Jc Jh 9c / 5c 5d 7c 7d 8c / 8d 8s Qh Ks As"


@pytest.mark.parametrize("name", OFC_FAMILY)
def test_ofc_family_table(name: str) -> None:
    r = getattr(rules, name)
    assert_disjoint(P0, P1, P2)
    assert [Board.parse(b).royalties(r) for b in (P0, P1, P2)] == [
        (21, 8, 6),
        (1, 2, 15),
        (0, 4, 10),
    ]
    result = settle([P0, P1, P2], r, button=0)
    assert result.net == OFC_NET
    assert items_net(result, 3) == OFC_NET
    # Button elsewhere: same nets (no stakes), other order.
    assert settle([P0, P1, P2], r, button=2).net == OFC_NET


@pytest.mark.parametrize("name", OFC_FAMILY)
def test_ofc_family_foul(name: str) -> None:
    """R-FOUL-3: the fouled board pays the sweep (6 in all) plus the opponent's
    royalties: P0 collects 3 rows + 3 + 35 = 41."""
    r = getattr(rules, name)
    assert_disjoint(P0, PF)
    assert Board.parse(PF).is_foul(r)
    assert settle([P0, PF], r).net == [41, -41]
    # Three-handed with the foul: P1 collects 6 + 18 = 24 from PF.
    assert_disjoint(P1, P2, PF)
    assert settle([P1, P2, PF], r).net == [5 + 24, -5 + 6 + 14, -24 - 20]


# ======================================================================== 2-7 Pineapple
L0 = "Qh Qd 3c / 7c 5d 4h 3s 2d / As Ks Qs Js Ts"  # QQ 7 / 7-5-4-3-2 8 / royal 25 = 40
L1 = "Kh Kd 4c / 8c 6d 5h 3h 2h / 9c 9d 9h 9s 2c"  # KK 8 / 8-high 2 / quads 10   = 20
L2 = "Ac Ad 4d / Tc 8d 6c 5c 2s / Jh Jc Jd 4s 3d"  # AA 9 / 10-high 0 / trips 0   = 9
# Rows:  front AA > KK > QQ;  middle (low wins) 75432 > 86532 > T8652;
#        back royal > quads > trips
#   L0 v L1: L1 front; L0 middle, back -> +1; royalties 40 - 20 = 20  -> L0 +21
#   L0 v L2: L2 front; L0 middle, back -> +1; royalties 40 - 9 = 31   -> L0 +32
#   L1 v L2: L2 front; L1 middle, back -> +1; royalties 20 - 9 = 11   -> L1 +12
P27_NET = [21 + 32, -21 + 12, -32 - 12]  # [53, -9, -44]


def test_pineapple_27_table() -> None:
    r = rules.PINEAPPLE_27
    assert_disjoint(L0, L1, L2)
    assert [Board.parse(b).royalties(r) for b in (L0, L1, L2)] == [
        (7, 8, 25),
        (8, 2, 10),
        (9, 0, 0),
    ]
    assert settle([L0, L1, L2], r).net == P27_NET
    # The same boards under plain PINEAPPLE: every middle is weaker than its front
    # pair, so all three foul and nothing changes hands (R-FOUL-4).
    assert settle([L0, L1, L2], rules.PINEAPPLE).net == [0, 0, 0]


def test_pineapple_27_foul_pays_sweep_and_royalties() -> None:
    """A 2-7 middle with a pair fouls (R-27-4): L0 collects 6 + 40 = 46."""
    fouled = "Kc Kd 2c / 9c 9d 5h 3h 2h / Ac Ad Ah 8c 8d"  # middle pair of 9s
    assert_disjoint(L0, fouled)
    assert Board.parse(fouled).is_foul(rules.PINEAPPLE_27)
    assert settle([L0, fouled], rules.PINEAPPLE_27).net == [46, -46]


# ============================================================================ classic
# Table 1: four seats; nobody sweeps the table.
B0 = "6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh Ks 8d"  # trips 6 / FH 4s / quads K
B1 = "Qc Qd 7c / Jc Jd Jh 2c 2d / 5c 5d 5h 5s Ac"  # QQ / FH Js / quads 5
B2 = "Ah Ad 2h / Tc Td Th 3c 3d / 7s 8s 9s Ts Js"  # AA / FH Ts / SF J-high (back)
B3 = "2s 4s 6s / 7d 7h 3h 3s 9h / Qh Qs 8c 8h As"  # 6-high / 7733 / QQ88
TABLE1 = [B0, B1, B2, B3]
# Rows: front  B0 (trips) > B2 (AA) > B1 (QQ) > B3
#       middle B1 (FH J) > B2 (FH T) > B0 (FH 4) > B3
#       back   B2 (SF) > B0 (quads K) > B1 (quads 5) > B3
#   B0 v B1: B0 front (trips), B1 middle (FH), B0 back (quads)     2-1 for B0
#   B0 v B2: B0 front (trips), B2 middle (FH), B2 back (SF)        2-1 for B2
#   B1 v B2: B2 front (pair),  B1 middle (FH), B2 back (SF)        2-1 for B2
#   B0, B1, B2 each sweep B3 (B3 wins nothing).

# Table 2: three seats; C0 sweeps the whole table, C1 sweeps C2.
C0 = "Ac Ad 2c / 9h 9s 9d 9c 3d / 2h 3h 4h 5h 6h"  # AA / quads 9 (middle) / SF (back)
C1 = "Kc Kd 3c / Th Tc Td 4c 4d / Jh Jc Jd Js 5c"  # KK / FH (middle) / quads J (back)
C2 = "7c 8d 2d / Qh Qs 5d 6d 7d / Kh Ks 8h 8s 7h"  # 8-high / QQ / KK88
TABLE2 = [C0, C1, C2]

CLASSIC_EXPECTED = {
    # CLASSIC_1_6 (R-SCORE-2, R-BON-CP-2: front trips 3, middle FH 2, quads 4, SF 5;
    # sweep +3):
    #   B0 v B1 = 3 - 2 + 4 = +5      B0 v B2 = 3 - 2 - 5 = -4    B0 v B3 = 3+2+4+3 = 12
    #   B1 v B2 = -1 + 2 - 5 = -4     B1 v B3 = 1+2+4+3 = 10       B2 v B3 = 1+2+5+3 = 11
    #   B0 = 5-4+12 = 13; B1 = -5-4+10 = 1; B2 = 4+4+11 = 19; B3 = -12-10-11 = -33
    #   C0 v C1 = 1 + 4 (mid quads) + 5 (SF) + 3 = 13; C0 v C2 = 13;
    #   C1 v C2 = 1 + 2 (FH) + 4 (quads) + 3 = 10
    #   C0 = 26; C1 = -13 + 10 = -3; C2 = -23
    "CLASSIC_1_6": ([13, 1, 19, -33], [26, -3, -23]),
    # CLASSIC_2_4 (R-SCORE-3: +1 for two rows or more, no sweep bonus):
    #   B0 v B1 = 3-2+4+1 = 6; B0 v B2 = 3-2-5-1 = -5; B0 v B3 = 9+1 = 10
    #   B1 v B2 = -1+2-5-1 = -5; B1 v B3 = 7+1 = 8; B2 v B3 = 8+1 = 9
    #   B0 = 6-5+10 = 11; B1 = -6-5+8 = -3; B2 = 5+5+9 = 19; B3 = -27
    #   C0 v C1 = 10+1 = 11; C0 v C2 = 11; C1 v C2 = 7+1 = 8
    #   C0 = 22; C1 = -11+8 = -3; C2 = -19
    "CLASSIC_2_4": ([11, -3, 19, -27], [22, -3, -19]),
    # VIETNAMESE (R-VAR-VIET-1/2: won rows front trips 3, middle FH 2, quads 4 back /
    # 8 middle, SF 5 back / 10 middle; 1 a row; a sweep doubled, a table sweep tripled):
    #   B0 v B1 = 3-2+4 = 5; B0 v B2 = 3-2-5 = -4; B0 v B3 = (3+2+4) x 2 = 18
    #   B1 v B2 = -1+2-5 = -4; B1 v B3 = (1+2+4) x 2 = 14; B2 v B3 = (1+2+5) x 2 = 16
    #   B0 = 5-4+18 = 19; B1 = -5-4+14 = 5; B2 = 4+4+16 = 24; B3 = -48
    #   C0 sweeps the table: C0 v C1 = (1+8+5) x 3 = 42; C0 v C2 = (1+8+5) x 3 = 42
    #   C1 v C2 = (1+2+4) x 2 = 14
    #   C0 = 84; C1 = -42+14 = -28; C2 = -56
    "VIETNAMESE": ([19, 5, 24, -48], [84, -28, -56]),
    # SINGAPORE (R-VAR-SG-4/5: front trips 3, middle FH 2, quads 4/8, SF 7 back /
    # 14 middle; 1 a row; sweeping the table doubles, a single sweep is not paid extra):
    #   B0 v B1 = 3-2+4 = 5; B0 v B2 = 3-2-7 = -6; B0 v B3 = 3+2+4 = 9
    #   B1 v B2 = -1+2-7 = -6; B1 v B3 = 1+2+4 = 7; B2 v B3 = 1+2+7 = 10
    #   B0 = 5-6+9 = 8; B1 = -5-6+7 = -4; B2 = 6+6+10 = 22; B3 = -26
    #   C0 v C1 = (1+8+7) x 2 = 32; C0 v C2 = 32; C1 v C2 = 1+2+4 = 7
    #   C0 = 64; C1 = -32+7 = -25; C2 = -39
    "SINGAPORE": ([8, -4, 22, -26], [64, -25, -39]),
    # HAWAIIAN_GARDENS (R-VAR-HG-2/3, rows at the HG values SF 5/10, quads 4/8,
    # middle FH 2, front trips 3; sweep +3 (3 of 3 = 6); table sweep +3 more (9)):
    #   table 1 as CLASSIC_1_6 (only back quads / back SF appear): 13, 1, 19, -33
    #   C0 v C1 = 1 + 8 + 5 + 3 + 3 = 20; C0 v C2 = 20; C1 v C2 = 1+2+4+3 = 10
    #   C0 = 40; C1 = -20+10 = -10; C2 = -30
    "HAWAIIAN_GARDENS": ([13, 1, 19, -33], [40, -10, -30]),
}


@pytest.mark.parametrize("name", sorted(CLASSIC_EXPECTED))
def test_classic_presets_tables(name: str) -> None:
    r = getattr(rules, name)
    assert_disjoint(*TABLE1)
    assert_disjoint(*TABLE2)
    assert not any(Board.parse(b).is_foul(r) for b in TABLE1 + TABLE2)
    want1, want2 = CLASSIC_EXPECTED[name]
    res1 = settle(TABLE1, r, button=0)
    assert res1.net == want1
    assert items_net(res1, 4) == want1
    res2 = settle(TABLE2, r, button=0)
    assert res2.net == want2
    assert items_net(res2, 3) == want2


def test_classic_pair_bonus_details() -> None:
    """Spot checks of single pairs (CLASSIC_1_6): B0 v B1 is EX-2's shape with quads
    in the back; B3 never wins a row and pays 3 + bonuses each time."""
    s = score_pair(B0, B1, rules.CLASSIC_1_6)
    assert s.rows == (1, -1, 1) and s.row_points == 3 - 2 + 4 and s.bonus == 0
    s = score_pair(B2, B3, rules.CLASSIC_1_6)
    assert s.rows == (1, 1, 1) and s.row_points == 1 + 2 + 5 and s.bonus == 3


# ============================================================================ Malayan
# Extras paid win or lose (R-VAR-MAL-2): front trips 2; middle FH 2; back quads 4;
# middle quads 6; back SF 6; middle SF 8.  Table 1 extras:
#   B0: trips 2 + FH 2 + quads 4 = 8;  B1: 0 + 2 + 4 = 6;  B2: 0 + 2 + 6 = 8;  B3: 0


def test_malayan_table_bank_on_button() -> None:
    """R-VAR-MAL-1/2/5: three players against the bank (the button), 1 a row, extras
    win or lose, no sweep bonus, players never compare with each other."""
    r = rules.MALAYAN
    assert [sum(Board.parse(b).royalties(r)) for b in TABLE1] == [8, 6, 8, 0]
    # Bank B0 (button 0):
    #   B1 v B0: B0 wins front, back -> B0 +1; extras 8 - 6 = 2  -> B0 +3
    #   B2 v B0: B2 wins middle, back -> B0 -1; extras 8 - 8 = 0 -> B0 -1
    #   B3 v B0: B0 wins 3 rows -> +3; extras 8 - 0             -> B0 +11
    res = settle(TABLE1, r, button=0)
    assert res.net == [3 - 1 + 11, -3, 1, -11]
    assert {frozenset(p) for p, _ in res.pairs} == {frozenset((0, k)) for k in (1, 2, 3)}
    # Bank B2 (button 2):  B2 v B0 +1 (extras 0); B2 v B1: front, back +1, extras
    # 8 - 6 = 2 -> +3; B2 v B3: 3 + 8 = 11.  B2 = 15.
    assert settle(TABLE1, r, button=2).net == [-1, -3, 15, -11]
    # Table 2 with the bank on C2: C0 v C2: 3 rows + extras (0 + 6 + 6) - 0 = 15;
    # C1 v C2: 3 rows + extras (0 + 2 + 4) = 9.  The bank pays 24.
    assert [sum(Board.parse(b).royalties(r)) for b in TABLE2] == [12, 6, 0]
    assert settle(TABLE2, r, button=2).net == [15, 9, -24]


def test_malayan_bank_wins_tied_rows() -> None:
    """R-VAR-MAL-1 / R-VAR-HOUSE-1: the bank wins every tied row."""
    bank = "Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d"  # A-K-7 / 8844 / K straight
    player = "As Kh 7d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c"  # identical ranks
    assert_disjoint(bank, player)
    s = settle([bank, player], rules.MALAYAN, button=0)
    # All three rows tie -> the bank wins all three: 3 units (no sweep bonus).
    assert s.net == [3, -3]
    s = settle([bank, player], rules.MALAYAN, button=1)  # now the player is the bank
    assert s.net == [-3, 3]
    # Without a bank the same boards exchange nothing (R-CMP-2).
    assert settle([bank, player], rules.CLASSIC_1_6).net == [0, 0]


def test_malayan_fouled_bank_pays_everyone() -> None:
    """R-FOUL-3 with a bank: a fouled bank loses every row to each player, who also
    collects his own extras (the fouled bank earns none)."""
    b3_fouled = "Qh Qs 2s / 8c 8h 9h 4s 6s / 3h 3s 7d 7h As"  # QQ front over a pair
    table = [B0, B1, B2, b3_fouled]
    assert_disjoint(*table)
    assert Board.parse(b3_fouled).is_foul(rules.MALAYAN)
    # B0: 3 rows + extras 8 = 11; B1: 3 + 6 = 9; B2: 3 + 8 = 11; the bank pays 31.
    assert settle(table, rules.MALAYAN, button=3).net == [11, 9, 11, -31]
