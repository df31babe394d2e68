"""Every worked example EX-1 .. EX-17 of docs/rules.md section 14, one named test each.

Already in tests/test_scoring.py (not repeated here):
  EX-2  test_ex2_classic_bonuses
  EX-4  test_ex4_kk3_beats_kk2
  EX-5  test_ex5_one_six_and_two_four
  EX-6  test_ex6_both_backs_flushes_royalties_cancel
  EX-7  test_ex7_foul_pays_six_plus_royalties
  EX-17 test_ex17_front_over_middle_fouls_in_scoring
  EX-13 (partly) test_settlement_order_ex13; completed below with Hawaiian Gardens and the
        order in which settle() actually books the pairs.

Every expected number is worked out by hand in the comments from the rule text.  At
the end, hand-picked pairs scored under every preset against the regional rule
values of section 8 (R-VAR-VIET-*, R-VAR-SG-*, R-VAR-HG-*, R-VAR-MAL-*) and R-FOUL-3.
"""

from __future__ import annotations

from rules_helpers import assert_disjoint, items_net, pair_actual

import ofc_fast as ofc
from ofc_fast import Board, apply_stakes, fantasyland_cards, rules, score_pair, settle
from ofc_fast.rules import CLASSIC_WIN_BONUS, Game, Pool, Schedule
from ofc_fast.rules import HandCategory as C

# R-SCORE-1, the simplest method: +1 a row won, -1 a row lost, no sweep bonus, no
# row bonuses.
SIMPLE = rules.CLASSIC_1_6.replace(name="simple", sweep_bonus=0, win_bonus=Schedule())

# ----------------------------------------------------------------------------- EX-1
# Four legal hands built to the implied row orders of EX-1 [DERIVED]:
#   front  S > N > E > W   (QQ2 > 882 > A-high > Q-high)
#   middle S > N > W > E   (KK > 99 > 66 > 33)
#   back   W > N > E > S   (aces full > T-high straight > JJ77 > TT55)
# They also honour the surviving facts: West's back is aces full; East holds a pair
# of sevens (in his back, not his middle; 7-7 in the middle would beat West's 6-6)
# and a pair of jacks (in his back).  All 52 cards are used.
EX1_N = "8c 8d 2d / 9c 9d 4d 5s 7s / 6h 7c 8h 9h Th"
EX1_E = "As 4h 2s / 3h 3s 4s 6s 9s / Jc Jd 7d 7h 2h"
EX1_S = "Qc Qd 2c / Kh Ks 3c 4c 5d / Tc Td 5c 5h 8s"
EX1_W = "Qh Js 3d / 6c 6d Ts Jh Qs / Ac Ad Ah Kc Kd"
# Seats clockwise W N E S (as in EX-13), South deals.
EX1_TABLE = [EX1_W, EX1_N, EX1_E, EX1_S]
W, N, E, S = range(4)


def test_ex1_four_player_simplest_method() -> None:
    """EX-1 (R-SCORE-1, R-CMP-3): any four legal hands with the EX-1 row orders give
    N +3, E -5, S +3, W -1, summing to zero."""
    assert_disjoint(*EX1_TABLE)
    assert len(set(ofc.parse_cards(" ".join(EX1_TABLE).replace("/", " ")))) == 52
    boards = [Board.parse(b) for b in EX1_TABLE]
    assert not any(b.is_foul(SIMPLE) for b in boards)
    strengths = [b.evaluate(SIMPLE).strengths for b in boards]
    by_row = [sorted(range(4), key=lambda seat: -strengths[seat][row]) for row in range(3)]
    assert by_row == [[S, N, E, W], [S, N, W, E], [W, N, E, S]]
    assert ofc.category(strengths[W][2]) == C.FULL_HOUSE
    result = settle(EX1_TABLE, SIMPLE, button=S)
    assert result.net == [-1, 3, -5, 3]  # W, N, E, S
    assert sum(result.net) == 0
    # The per-pair table of EX-1 (seen from the first-named player):
    #   N v E +3, N v S -1, N v W +1, E v S -1, E v W -1, S v W +1
    want = {(N, E): 3, (N, S): -1, (N, W): 1, (E, S): -1, (E, W): -1, (S, W): 1}
    for (i, j), net in want.items():
        assert score_pair(EX1_TABLE[i], EX1_TABLE[j], SIMPLE).net == net, (i, j)


# ----------------------------------------------------------------------------- EX-3
# A (dealer, seat 0) sweeps B; C sweeps A; D beats A's back only.  No row bonus hand
# anywhere (no front trips, middle full house, quads or straight flush), so under
# HAWAIIAN_GARDENS: 2 rows of 3 = 1, a sweep = 6 (R-VAR-HG-2).
EX3_A = "8h 8d 3c / Th Td 4c 4d 2h / Ks Kc Kd 6c 7d"  # 88 / TT44 / KKK
EX3_B = "7h 7s 2d / 9h 9d 3h 3s 2s / Qs Qc Qh 5c 6d"  # 77 / 9933 / QQQ
EX3_C = "Js Jh 5d / Ah Ad 5h 5s 9c / 9s Ts Jd Qd Kh"  # JJ / AA55 / K straight
EX3_D = "As 8s 3d / 6h 6s 4h 4s 2c / Ac Jc Tc 8c 7c"  # A-high / 6644 / flush
# Pairs in HG order from the dealer (R-SETTLE-3): A-B, A-C, A-D, B-C, B-D, C-D
#   A-B: A sweeps          +6     A-C: C sweeps      -6    A-D: A 2 of 3 (front, mid) +1
#   B-C: C sweeps          -6     B-D: B front, mid  +1    C-D: C front, mid          +1
# Nobody sweeps the whole table (C loses the back to D), so no sweep-all bonus.
EX3_NOMINAL = [6 - 6 + 1, -6 - 6 + 1, 6 + 6 + 1, -1 - 1 - 1]  # A 1, B -11, C 13, D -3


def test_ex3_chip_rule_apply_stakes() -> None:
    """EX-3 / R-STAKES-3: A has 8 chips; B pays A 6; A pays C only 2; nothing between
    A and D; A ends with 12.  Under R-STAKES-1/2 (WIN_CAP) A pays C the full 6 and has
    8 before the A-D comparison [DERIVED]."""
    transfers = [((0, 1), 6), ((0, 2), -6), ((0, 3), 0)]
    chips = apply_stakes(transfers, [8, 20, 20, 20], "chips")
    assert chips == [6, -2, 0]
    assert 8 + sum(chips) == 12
    win_cap = apply_stakes(transfers, [8, 20, 20, 20], "win_cap")
    assert win_cap == [6, -6, 0]
    assert 8 + win_cap[0] + win_cap[1] == 8


def test_ex3_chip_rule_settle_hawaiian_gardens() -> None:
    """EX-3 with real boards, settled by settle() under HAWAIIAN_GARDENS (chips,
    R-STAKES-3, order from the dealer R-SETTLE-3): A ends with 12."""
    table = [EX3_A, EX3_B, EX3_C, EX3_D]
    assert_disjoint(*table)
    hg = rules.HAWAIIAN_GARDENS
    assert settle(table, hg, button=0).net == EX3_NOMINAL
    result = settle(table, hg, button=0, stacks=[8, 20, 20, 20])
    # Capacities A8 B20 C20 D20:
    #   A-B 6: min(6, 8, 20) = 6     -> A cap 2, B 14
    #   A-C 6: min(6, 20, 2) = 2     -> A cap 0, C 18
    #   A-D 1: min(1, 0, 20) = 0
    #   B-C 6: min(6, 14, 18) = 6    -> B 8, C 12
    #   B-D 1: min(1, 8, 20) = 1     -> B 7, D 19
    #   C-D 1: min(1, 12, 19) = 1
    # A +6 -2 = +4 (ends 12); B -6 -6 +1 = -11; C +2 +6 +1 = +9; D -1 -1 = -2.
    assert result.net == [4, -11, 9, -2]
    assert result.stacks == [12, 9, 29, 18]
    assert pair_actual(result) == {
        (0, 1): 6,
        (0, 2): -2,
        (0, 3): 0,
        (1, 2): -6,
        (1, 3): 1,
        (2, 3): 1,
    }
    assert items_net(result, 4) == result.net


def test_ex3_win_cap_alternative_settle() -> None:
    """EX-3 [DERIVED] under R-STAKES-1/2 (WIN_CAP): A pays C the full 6 (he has 14 in
    front of him) and has 8 before the A-D comparison; here no cap bites at all."""
    table = [EX3_A, EX3_B, EX3_C, EX3_D]
    hg_win_cap = rules.HAWAIIAN_GARDENS.replace(stakes="win_cap")
    result = settle(table, hg_win_cap, button=0, stacks=[8, 20, 20, 20])
    # A-B: A wins 6 (room 8)          A 14, B 14
    # A-C: A pays 6 (has 14)          A 8,  C 26     <- "8 before the A-D comparison"
    # A-D: A wins 1 (room 16-8 = 8)   A 9,  D 19
    # B-C 6, B-D 1, C-D 1 all paid in full.
    assert result.net == EX3_NOMINAL
    assert result.stacks == [9, 9, 33, 17]


# ----------------------------------------------------------------------------- EX-8


def test_ex8_front_trips_against_higher_front_trips() -> None:
    """EX-8 / R-BON-CP-3: front trips lose to higher front trips: the lower pays 3
    for that row."""
    a = "5c 5d 5h / Qc Qd Qh 2c 3d / Ac Ad Ah 2d 4c"  # 555 / QQQ / AAA
    b = "9c 9d 9h / Jc Jd Jh 2h 3h / Kc Kd Kh 4d 2s"  # 999 / JJJ / KKK
    s = score_pair(a, b, rules.CLASSIC_1_6)
    assert s.rows == (-1, 1, 1)
    # front: B's trips win, 3 units; middle and back: A wins 1 each.
    assert s.row_points == -3 + 1 + 1
    assert s.net == -1
    # Against a third player whose front A's trips beat, A collects the 3
    # (R-BON-CP-3: "still counts against opponents it beats").
    c = "Tc Td 4h / 7d 7h 8c 8d 9s / Ks Qs Js 5s 3s"  # TT4 / 8877 / flush
    assert_disjoint(a, b, c)
    s2 = score_pair(a, c, rules.CLASSIC_1_6)
    assert s2.rows == (1, 1, -1)
    assert s2.net == 3 + 1 - 1
    # Three-handed: A = -1 + 3 = 2; B = +1 + (B v C: front 999 3, middle JJJ 1,
    # back KKK loses to the flush 1 -> +3) = 4; C = -3 - 3 = -6.
    assert settle([a, b, c], rules.CLASSIC_1_6).net == [2, 4, -6]


# ----------------------------------------------------------------------------- EX-9

HIGH_MIDDLE = rules.CLASSIC_1_6.replace(
    name="higher payment in the middle",
    win_bonus=CLASSIC_WIN_BONUS.replace(
        middle=Schedule.by_category(
            {C.FULL_HOUSE: 1, C.QUADS: 4, C.STRAIGHT_FLUSH: 5, C.ROYAL_FLUSH: 5}
        )
    ),
)
"""R-BON-CP-5: middle quads 5 (back 4), middle straight flush 6 (back 5)."""


def test_ex9_higher_payment_in_the_middle() -> None:
    """EX-9 / R-BON-CP-5: quads pay 5 in the middle, 4 in the back; a straight flush
    6 in the middle, 5 in the back."""
    # Quads: A wins the middle with quads, B wins front and back (royal: 5).
    a = "2c 3c 4d / 7c 7d 7h 7s 2d / 9c 9d 9h 9s 3d"
    b = "Ac Kc Qd / 8c 8d Td Th Jc / As Ks Qs Js Ts"
    assert score_pair(a, b, HIGH_MIDDLE).net == -1 + 5 - 5
    assert score_pair(a, b, rules.CLASSIC_1_6).net == -1 + 4 - 5
    # Straight flushes: A wins middle (SF) and back (SF), loses the front.
    a2 = "2s 3s 5h / 4c 5c 6c 7c 8c / 9d Td Jd Qd Kd"
    b2 = "Ah Kh Qh / 9h 9s 2h 3h 4h / Ac Ad As Ks Qs"
    assert score_pair(a2, b2, HIGH_MIDDLE).net == -1 + 6 + 5
    assert score_pair(a2, b2, rules.CLASSIC_1_6).net == -1 + 5 + 5
    # A quads back wins 4 under both.
    a3 = "2c 3c 4d / 8c 8d Td Th Jc / 9c 9d 9h 9s 3d"
    b3 = "2h 3h 5s / 7c 7d 6h 6s 2d / Ah Ad As Kh Ks"
    assert score_pair(a3, b3, HIGH_MIDDLE).rows == (-1, 1, 1)
    assert score_pair(a3, b3, HIGH_MIDDLE).net == -1 + 1 + 4


# ---------------------------------------------------------------------------- EX-10


def test_ex10_surrender_one_unit_each() -> None:
    """EX-10 / R-VAR-SUR-1: a surrendering player pays 1 unit to each other player;
    the others settle normally among themselves."""
    sur = SIMPLE.replace(surrender_cost=1)
    result = settle(EX1_TABLE, sur, button=S, surrendered=[E])
    # E pays 1 to W, N, S.  Others (EX-1 table): N v S -1, N v W +1, S v W +1.
    # N = -1 + 1 + 1 = 1; S = +1 + 1 + 1 = 3; W = -1 - 1 + 1 = -1; E = -3.
    assert result.net == [-1, 1, -3, 3]
    assert sum(it.amount for it in result.items if it.kind == "surrender") == 3
    # A surrendered seat need not show cards.
    hidden = settle([EX1_W, EX1_N, None, EX1_S], sur, button=S, surrendered=[E])
    assert hidden.net == result.net


def test_ex10_surrender_with_overall_point() -> None:
    """EX-10: with the overall point the surrender costs 2 each (R-VAR-SUR-1)."""
    sur = SIMPLE.replace(overall_bonus=1, surrender_cost=2)
    result = settle(EX1_TABLE, sur, button=S, surrendered=[E])
    # E pays 2 each.  N v S: S nets 1 + overall 1 = 2; N v W: N 2; S v W: S 2.
    # N = -2 + 2 + 2 = 2; S = 2 + 2 + 2 = 6; W = -2 - 2 + 2 = -2; E = -6.
    assert result.net == [-2, 2, -6, 6]


def test_ex10_surrender_hawaiian_gardens() -> None:
    """EX-10 / R-VAR-SUR-2: Hawaiian Gardens surrender costs 3 units per opponent."""
    assert rules.HAWAIIAN_GARDENS.surrender_cost == 3
    result = settle(EX1_TABLE, rules.HAWAIIAN_GARDENS, button=S, surrendered=[E])
    # E pays 3 each.  N v S, N v W, S v W are all 2 of 3 = 1 under HG (no bonus hands).
    # N = -1 + 1 + 3 = 3; S = 1 + 1 + 3 = 5; W = -1 - 1 + 3 = 1; E = -9.
    assert result.net == [1, 3, -9, 5]


def test_ex10_surrender_with_a_banker() -> None:
    """R-VAR-SUR-1: with a banker a surrendering player pays only the banker; a
    surrendering banker pays every player."""
    bank = SIMPLE.replace(house=True, surrender_cost=1)
    # W (seat 0) is the bank (the button).  E surrenders: pays W only.
    # N v W: N wins front, middle -> N +1;  S v W: S +1.
    r = settle(EX1_TABLE, bank, button=W, surrendered=[E])
    assert r.net == [-1 - 1 + 1, 1, -1, 1]
    # The bank surrenders: it pays 1 to each player; players never compare.
    r2 = settle(EX1_TABLE, bank, button=W, surrendered=[W])
    assert r2.net == [-3, 1, 1, 1]


# ---------------------------------------------------------------------------- EX-11
# Seat 0 wins every row of the table outright.
POOL_0 = "Ac Ad 2c / 9h 9s 9d 9c 3d / 2h 3h 4h 5h 6h"  # AA / quads 9 / SF
POOL_1 = "Kc Kd 3c / Th Tc Td 4c 4d / Jh Jc Jd Js 5c"  # KK / FH / quads J
POOL_2 = "7c 8d 2d / Qh Qs 5d 6d 7d / Kh Ks 8h 8s 7h"  # 8-high / QQ / KK88
POOL_3 = "2s 3s 8c / 6c 6s 4s 5s 7s / Qc Qd Ah As Ts"  # 8-high / 66 / AAQQ


def test_ex11_pool() -> None:
    """EX-11 / R-VAR-POOL-1: 4 players x 3 = 12 in the pool; each row winner takes 4;
    a sweeper takes the 12 plus 3 from each of the other three."""
    table = [POOL_0, POOL_1, POOL_2, POOL_3]
    assert_disjoint(*table)
    pool = SIMPLE.replace(pool=Pool(ante=1))
    # EX-1 table: S wins front and middle (8), W the back (4); everyone antes 3.
    # W = 4 - 3 = 1; N = -3; E = -3; S = 8 - 3 = 5.
    assert settle(EX1_TABLE, pool, button=S).net == [1, -3, -3, 5]
    # Sweeper without the extra: 12 - 3 = +9, others -3.
    assert settle(table, pool).net == [9, -3, -3, -3]
    # With the "some play" extra of 3 from each: 12 - 3 + 9 = +18, others -6.
    extra = SIMPLE.replace(pool=Pool(ante=1, sweep_extra=3))
    result = settle(table, extra)
    assert result.net == [18, -6, -6, -6]
    assert {it.kind for it in result.items} == {"pool"}


# ---------------------------------------------------------------------------- EX-12


def test_ex12_singapore_sweep_of_all() -> None:
    """EX-12 / R-VAR-SG-5: in Singapore sweeping all opponents pays 6 from each
    instead of 3 (base R-SCORE-1)."""
    table = [EX3_A, EX3_B, EX3_C]  # C sweeps A and B; A sweeps B
    result = settle(table, rules.SINGAPORE, button=0)
    # C v A: 3 x 2 = 6; C v B: 6; A v B: a plain sweep, 3 (not doubled).
    # A = 3 - 6 = -3; B = -3 - 6 = -9; C = 12.
    assert result.net == [-3, -9, 12]


def test_ex12_hawaiian_gardens_base() -> None:
    """EX-12 / R-VAR-HG-2: 2 of 3 -> 1; 3 of 3 -> 6; sweep of all -> 9 from each."""
    hg = rules.HAWAIIAN_GARDENS
    assert score_pair(EX3_A, EX3_D, hg).net == 1  # 2 of 3
    assert score_pair(EX3_A, EX3_B, hg).net == 6  # 3 of 3
    result = settle([EX3_A, EX3_B, EX3_C], hg, button=0)
    # C sweeps A and B: 9 from each.  A sweeps B: 6.
    # A = 6 - 9 = -3; B = -6 - 9 = -15; C = 18.
    assert result.net == [-3, -15, 18]
    # With D at the table C no longer sweeps everyone (D wins the back): 6 each.
    assert settle([EX3_A, EX3_B, EX3_C, EX3_D], hg, button=0).net == EX3_NOMINAL


# ---------------------------------------------------------------------------- EX-13


def test_ex13_settlement_orders() -> None:
    """EX-13 (R-SETTLE-1/2/3): OFC W N E S with S dealing -> W-N, W-E, W-S, N-E, N-S,
    E-S; three-handed -> BB-SB, SB-D, BB-D; HG with A dealing -> A-B, A-C, A-D, B-C,
    B-D, C-D.  Checked on the pairs settle() actually books, in order."""
    # OFC, 4 seats W N E S, S (3) deals.
    r = settle(EX1_TABLE, rules.OFC, button=S)
    assert [p for p, _ in r.pairs] == [(W, N), (W, E), (W, S), (N, E), (N, S), (E, S)]
    # Three-handed Hold'em seats: D = button 0, SB = 1, BB = 2.  BB-SB first, then
    # SB-D, then BB-D (pairs are unordered).
    r3 = settle([EX3_A, EX3_B, EX3_C], rules.OFC, button=0)
    d, sb, bb = 0, 1, 2
    assert [frozenset(p) for p, _ in r3.pairs] == [
        frozenset((bb, sb)),
        frozenset((sb, d)),
        frozenset((bb, d)),
    ]
    # Hawaiian Gardens, A (0) deals: from the dealer.
    hg = settle([EX3_A, EX3_B, EX3_C, EX3_D], rules.HAWAIIAN_GARDENS, button=0)
    assert [p for p, _ in hg.pairs] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    # ... and with the button elsewhere, HG still starts at the dealer.
    assert ofc.settlement_order(4, button=2, start="button") == [
        (2, 3),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (0, 1),
    ]
    assert ofc.settlement_order(4, button=2) == [
        (3, 0),
        (3, 1),
        (3, 2),
        (0, 1),
        (0, 2),
        (1, 2),
    ]


# ---------------------------------------------------------------------------- EX-14


def test_ex14_aces_side_bet() -> None:
    """EX-14 / R-VAR-ACES-1: 1/2/6/8 for 1/2/3/4 aces; 3 aces vs 1 ace -> 6 - 1 = 5
    paid by the 1-ace player, on top of the game payments."""
    aces = SIMPLE.replace(aces_bet=(0, 1, 2, 6, 8))
    plain = settle(EX1_TABLE, SIMPLE, button=S)
    result = settle(EX1_TABLE, aces, button=S)
    # W holds Ac Ad Ah (6), E holds As (1), N and S none (0).
    # W v E 5, W v N 6, W v S 6, E v N 1, E v S 1, N v S 0.
    # W +17, N -7, E +1 +1 -5 = -3, S -7.
    side = [a - b for a, b in zip(result.net, plain.net)]
    assert side == [17, -7, -3, -7]
    we = [it for it in result.items if it.kind == "aces" and set(it.pair) == {W, E}]
    assert len(we) == 1 and we[0].payer == E and we[0].payee == W and we[0].amount == 5
    # 4 aces against none: 8 - 0 = 8; 2 aces against none: 2.
    four = "2c 3c 4c / 5c 5d 6c 6d 7c / Ac Ad Ah As Kc"
    none = "2d 3d 4d / 8c 8d 9c 9d Td / Kd Kh Qc Qd Qh"
    pay = SIMPLE.replace(aces_bet=(0, 1, 2, 6, 8))
    r4 = settle([four, none], pay)
    r0 = settle([four, none], SIMPLE)
    assert r4.net[0] - r0.net[0] == 8
    two_aces = "2h 3h 4h / 8h 8s 9h 9s Th / Ac Ad Kc Ks Qs"
    r2 = settle([two_aces, none], pay)
    assert r2.net[0] - settle([two_aces, none], SIMPLE).net[0] == 2


# ---------------------------------------------------------------------------- EX-15


def test_ex15_pineapple_card_counts() -> None:
    """EX-15 / R-FLOW-PIN-2/3: 5 + 4 x 3 = 17 cards seen, 13 kept; 3 players x 17 = 51
    of 52.  The library has no game flow yet (another issue), so this checks only the
    arithmetic and what the PINEAPPLE rule set says about the game."""
    seen = 5 + 4 * 3
    kept = 5 + 4 * 2
    assert (seen, kept) == (17, 13)
    assert rules.PINEAPPLE.game is Game.PINEAPPLE
    assert rules.PINEAPPLE.max_players == 3  # R-FLOW-PIN-1
    assert rules.PINEAPPLE.max_players * seen == 51 <= 52


# ---------------------------------------------------------------------------- EX-16


def test_ex16_fantasyland_card_counts() -> None:
    """EX-16 / R-FL-3 / R-27-6: progressive QQ 14, KK 15, AA 16, trips 17; 2-7: KK+
    front and 7-5-4-3-2 middle -> 15 cards."""
    prog = rules.PROGRESSIVE_PINEAPPLE
    middle_back = " / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    assert fantasyland_cards("Qh Qd 2c" + middle_back, prog) == 14
    assert fantasyland_cards("Kh Kd 2c" + middle_back, prog) == 15
    assert fantasyland_cards("Ah Ad 2c" + middle_back, prog) == 16
    assert fantasyland_cards("2h 2d 2c" + middle_back, prog) == 17
    p27 = rules.PINEAPPLE_27
    assert fantasyland_cards("Kh Kd 8c / 7c 5d 4h 3s 2d / As Ks Qs Js Ts", p27) == 15
    assert fantasyland_cards("Qh Qd 8c / 7c 5d 4h 3s 2d / As Ks Qs Js Ts", p27) == 14
    assert fantasyland_cards("Kh Kd 8c / 7c 6d 4h 3s 2d / As Ks Qs Js Ts", p27) == 14


# ------------------------------------------- one pair under every preset (section 8)
# A sweeps B: front K-K over Q-Q (a pair: no bonus anywhere), middle quads over a
# full house, back a royal flush over a full house.  Worked out from the rule text:
# OFC family (R-SCORE-2, R-ROY-OFC-3/4): 3 rows + 3 sweep, royalties netted
#   A: front KK 8 + middle quads 20 + back royal 25 = 53;
#   B: front QQ 7 + middle full house 12 + back full house 6 = 25  -> 6 + 28 = 34.
# PINEAPPLE_27 (R-27-4): a middle of quads or a full house fouls under 2-7; both foul,
#   nothing changes hands (R-FOUL-4).
# CLASSIC_1_6 (R-BON-CP-2): front 1, middle quads 4, back straight flush 5, +3 sweep.
# CLASSIC_2_4 (R-SCORE-3): the same rows, +1 for the majority instead.
# MALAYAN (R-VAR-MAL-1/2/5, A is the bank on the button): 1 a row, no sweep bonus;
#   extras win or lose, netted: A middle quads 6 + back royal 6, B middle full house
#   2  -> 3 + 12 - 2.
# VIETNAMESE (R-VAR-VIET-1/2): won rows 1 + 8 (middle quads) + 5 (straight flush),
#   a swept opponent pays double (Q-7: the row units).
# SINGAPORE (R-VAR-SG-4): 1 + 8 + 7 (back straight flush); no plain sweep bonus.
# HAWAIIAN_GARDENS (R-VAR-HG-2/3, Q-7 extras in place of the unit): 1 + 8 + 5 and
#   all three rows 6 instead of 3: +3.
SWEEPER = "Kh Kd 3c / 8s 8h 8d 8c 2s / As Ks Qs Js Ts"
SWEPT = "Qh Qd 4c / 7s 7h 7d 2c 2d / 9h 9d 9c 5h 5d"
OFC_FAMILY = (3 + 3) + (8 + 20 + 25) - (7 + 12 + 6)
SWEEP_BY_PRESET = {
    "OFC": OFC_FAMILY,
    "PINEAPPLE": OFC_FAMILY,
    "PROGRESSIVE_PINEAPPLE": OFC_FAMILY,
    "ULTIMATE_PINEAPPLE": OFC_FAMILY,
    "PINEAPPLE_27": 0,
    "CLASSIC_1_6": 1 + 4 + 5 + 3,
    "CLASSIC_2_4": 1 + 4 + 5 + 1,
    "MALAYAN": 3 + (6 + 6) - 2,
    "VIETNAMESE": (1 + 8 + 5) * 2,
    "SINGAPORE": 1 + 8 + 7,
    "HAWAIIAN_GARDENS": 1 + 8 + 5 + 3,
}


def test_one_sweep_under_every_preset() -> None:
    """The regional row values (R-VAR-VIET-1, R-VAR-SG-4, R-VAR-HG-3), sweeps
    (R-VAR-VIET-2, R-VAR-HG-2) and extras (R-VAR-MAL-2) against the rule text, on one
    pair, under every preset, from either seat."""
    assert set(SWEEP_BY_PRESET) == set(rules.names())
    assert_disjoint(SWEEPER, SWEPT)
    assert_disjoint(SWEEPER, FOULED)
    for name, units in SWEEP_BY_PRESET.items():
        r = rules.get(name)
        assert settle([SWEEPER, SWEPT], r).net == [units, -units], name
        assert settle([SWEPT, SWEEPER], r, button=1).net == [-units, units], name


# B's full house of nines in the middle over sevens in the back: a foul.  A collects
# as for a sweep (R-FOUL-3, Q-3): the same as above, but B earns nothing: OFC 6 + 53;
# MALAYAN 3 + 12 (B's middle extra is lost with the foul); the others as the sweep.
FOULED = "Qh Qd 4c / 9h 9d 9c 5h 5d / 7s 7h 7d 2c 2d"
FOUL_BY_PRESET = {
    **SWEEP_BY_PRESET,
    **{n: 6 + 53 for n in SWEEP_BY_PRESET if SWEEP_BY_PRESET[n] == OFC_FAMILY},
    "MALAYAN": 3 + 12,
}


def test_a_fouled_board_under_every_preset() -> None:
    """R-FOUL-3 under every preset: the clean board collects every row at its
    won-row value, the sweep (multiplied where a sweep is, Q-3, Q-7) and its own
    royalties or extras; the fouled board earns none (R-FOUL-3c)."""
    for name, units in FOUL_BY_PRESET.items():
        r = rules.get(name)
        assert settle([SWEEPER, FOULED], r).net == [units, -units], name


# MALAYAN with its bank (R-VAR-MAL-1/2): two players against the bank on the button.
# Player 1 ties the bank's front (6-6-3 each): the bank takes the tie, and the other two
# rows: 3 units; extras: bank 12, player 1 a middle full house 2  -> the bank +13.
# Player 2 takes the front (A-A) and loses two rows: 1 unit; extras 12 - 0  -> +13.
# The players are not compared with each other.
BANK = "6h 6d 3c / 8s 8h 8d 8c 2s / As Ks Qs Js Ts"
PLAYER_1 = "6c 6s 3d / 7s 7h 7d 2c 2d / 9h 9d 9c 5h 5d"
PLAYER_2 = "Ah Ad 4c / Tc Th 4d 4h 5c / Kh Kd Kc Qh Qd"


def test_malayan_bank_takes_ties_and_extras_net() -> None:
    """R-VAR-MAL-1 (the bank takes a tied row, players meet only the bank) with the
    Malayan extras (R-VAR-MAL-2) netted per pair (Q-12)."""
    assert_disjoint(BANK, PLAYER_1, PLAYER_2)
    res = settle([BANK, PLAYER_1, PLAYER_2], rules.MALAYAN, button=0)
    assert res.net == [3 + 12 - 2 + (1 + 12), -(3 + 12 - 2), -(1 + 12)]
    assert {p for p, _ in res.pairs} == {(1, 0), (2, 0)}
    moved = settle([PLAYER_1, BANK, PLAYER_2], rules.MALAYAN, button=1)
    assert moved.net == [-13, 26, -13]


# R-ROY-ALT-5 as docs/rules.md reads it (per row, only the row's winner collects its
# royalty: the schedule as win_bonus).  A takes the front with K-K (royalty 8) and the
# back with an ace-high flush (4); B the middle with an ace-high straight (4).
#   standard OFC: rows 2 - 1 = +1, royalties netted (8 + 4 + 4) - (7 + 4 + 4) = +1 -> 2;
#   R-ROY-ALT-5:  front 1 + 8, back 1 + 4, middle -(1 + 4)                       -> 9.
ALT5_A = "Kh Kd 3c / 5s 6s 7d 8c 9c / Ah Qh 9h 6h 4h"
ALT5_B = "Qc Qd 4c / Tc Jd Qs Ks Ad / 2s 3s 4s 7s Js"


def test_only_the_row_winner_collects_its_royalty() -> None:
    """R-ROY-ALT-5, read per row (``OFC.replace(royalties=Schedule(),
    win_bonus=ROYALTIES_OFC)``), against the standard netting (R-ROY-OFC-2)."""
    assert_disjoint(ALT5_A, ALT5_B)
    alt5 = rules.OFC.replace(royalties=Schedule(), win_bonus=rules.ROYALTIES_OFC)
    assert score_pair(ALT5_A, ALT5_B, rules.OFC).net == (2 - 1) + (16 - 15)
    assert score_pair(ALT5_A, ALT5_B, alt5).net == (1 + 8) + (1 + 4) - (1 + 4)
    assert score_pair(ALT5_B, ALT5_A, alt5).net == -9
