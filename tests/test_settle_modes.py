"""settle() in every table mode (R-VAR-HOUSE-1, R-VAR-POOL-1, R-VAR-SINGLE-1,
R-VAR-SUR-*, R-VAR-ACES-1, R-VAR-OVR-1, sweep-all, R-STAKES-*), and hypothesis
properties over every preset with random options: zero sum, items add up, pair scores
antisymmetric, table-stakes caps never exceeded, the house never loses a tied row.
"""

from __future__ import annotations

import random

import pytest
from boards import _stacked, random_table
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import (
    assert_disjoint,
    items_net,
    kinds,
    pair_actual,
    ref_chips,
    ref_win_cap,
)

import ofc_fast as ofc
from ofc_fast import Board, apply_stakes, rules, score_pair, settle
from ofc_fast.rules import Pool, Schedule, StakesModel
from ofc_fast.rules.compiled import LOW27
from ofc_fast.scoring import evaluate_for_scoring, score_evaluated

SIMPLE = rules.CLASSIC_1_6.replace(name="simple", sweep_bonus=0, win_bonus=Schedule())
PRESETS = [rules.get(n) for n in rules.names()]

# Three legal boards without any bonus hand: X sweeps Y, Z sweeps X and Y.
X = "8h 8d 3c / Th Td 4c 4d 2h / Ks Kc Kd 6c 7d"  # 88 / TT44 / KKK
Y = "7h 7s 2d / 9h 9d 3h 3s 2s / Qs Qc Qh 5c 6d"  # 77 / 9933 / QQQ
Z = "Js Jh 5d / Ah Ad 5h 5s 9c / 9s Ts Jd Qd Kh"  # JJ / AA55 / K-high straight
V = "As 8s 3d / 6h 6s 4h 4s 2c / Ac Jc Tc 8c 7c"  # A-high / 6644 / flush: beats Z's back


# ------------------------------------------------------------------------ house


def test_house_plays_only_against_the_button() -> None:
    """R-VAR-HOUSE-1: others compare only with the house."""
    house = SIMPLE.replace(house=True)
    for button in range(4):
        res = settle([X, Y, Z, V], house, button=button)
        assert all(button in p for p, _ in res.pairs)
        assert len(res.pairs) == 3
        assert all(button in it.pair for it in res.items)


def test_house_wins_tied_rows_but_not_fouled_ones() -> None:
    """R-VAR-HOUSE-1: tied rows go to the house; a fouled house still loses every
    row (R-FOUL-3); two fouled boards exchange nothing (R-FOUL-4)."""
    tie_a = "Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d"
    tie_b = "As Kh 7d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c"
    house = rules.OFC.replace(house=True)
    # All rows tie: the house sweeps: 3 + 3 sweep bonus; royalties (straight 2) cancel.
    assert settle([tie_a, tie_b], house, button=0).net == [6, -6]
    assert settle([tie_a, tie_b], house, button=1).net == [-6, 6]
    fouled = "Ah Ad 4c / Kh Kd 3h 3d 8c / 6s 6h 7d 7c 8d"
    clean = "2h 3s 5c / 9s 9h Ts Jd Qc / Ac As Kc Ks 2c"
    assert_disjoint(fouled, clean)
    assert settle([fouled, clean], house, button=0).net == [-6, 6]
    both = "Qh Qd Ac / Qs Qc Kc 3s 2s / As Ts Jc Js 9s"  # EX-17 foul
    assert_disjoint(fouled, both)
    assert settle([fouled, both], house, button=0).net == [0, 0]


# ------------------------------------------------------------------------- pool


def test_pool_ties_split_odd_unit_first_in_order() -> None:
    """R-VAR-POOL-1 with a tie (Q-13, as documented in csrc/include/ofc_settle.h): tied
    row winners split the row's pot, the odd unit to the first in settlement order."""
    a = "Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d"
    b = "As Kh 7d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c"
    c = "2h 3h 5s / 6c 6d 7c 7s 9s / Ah Qh Jh 6h 5h"  # worse front and middle; back
    assert_disjoint(a, b, c)  # is a flush (best)
    pool = SIMPLE.replace(pool=Pool(ante=1))
    # Pot per row = 3.  Front and middle: a and b tie -> 2 to the first of them in
    # settlement order, 1 to the other.  Back: c takes 3.
    # button 0: order from seat 1 -> seats 1, 2, 0: b is first: b +2 +2, a +1 +1.
    #   a = 2 - 3 = -1; b = 4 - 3 = 1; c = 3 - 3 = 0
    assert settle([a, b, c], pool, button=0).net == [-1, 1, 0]
    # button 1: order from seat 2 -> 2, 0, 1: a is first.
    assert settle([a, b, c], pool, button=1).net == [1, -1, 0]


def test_pool_fouled_boards_win_nothing() -> None:
    pool = SIMPLE.replace(pool=Pool(ante=1))
    fouled = "Ah Ad 4c / Kh Kd 3h 3d 8c / 6s 6h 7d 7c 8d"
    weak = "2h 3s 5c / 9s 9h Ts Jd Qc / Tc Th 2c 2s 4h"
    assert_disjoint(fouled, weak)
    assert not Board.parse(weak).is_foul(SIMPLE)
    # weak takes all three pots of 2: +6 - 3 = +3.
    assert settle([fouled, weak], pool).net == [-3, 3]
    # Every board fouled: the antes go back.
    both = "Qh Qd Ac / Qs Qc Kc 3s 2s / As Ts Jc Js 9s"
    assert settle([fouled, both], pool).net == [0, 0]


def test_pool_settles_under_table_stakes() -> None:
    """Pool gains are pair transfers in settlement order, so table
    stakes cap them like any pair transfer (it used to raise RulesError)."""
    pool = rules.CLASSIC_1_6.replace(pool={"ante": 1})
    assert settle([Y, X], pool).net == [-3, 3]  # X takes every row's pot
    assert settle([Y, X], pool, stacks=[10, 10]).stacks == [7, 13]
    for model in ("win_cap", "chips"):
        res = settle([Y, X], pool.replace(stakes=model), stacks=[1, 10])
        assert res.net == [-1, 1] and res.stacks == [0, 11]
        assert [(i.kind, i.payer, i.payee, i.amount) for i in res.items] == [
            ("pool", 0, 1, 3),
            ("stakes", 1, 0, 2),
        ]
    # X's win is capped at his own start (WIN_CAP) / his chips (CHIPS): 2
    assert settle([Y, X], pool, stacks=[10, 2]).net == [-2, 2]


# ---------------------------------------------------------------- single winner


def test_single_winner() -> None:
    """R-VAR-SINGLE-1: a seat beating every other seat on two rows or more collects
    the units from each; otherwise nobody pays (Q-13)."""
    sw = SIMPLE.replace(single_winner=2)
    res = settle([X, Y, Z], sw)
    assert res.winner == 2 and res.net == [-2, -2, 4]
    assert kinds(res) == {"single_winner": 4}
    # Add V: Z beats V on front and middle only -> still two rows: Z wins.
    assert settle([X, Y, Z, V], sw).net == [-2, -2, 6, -2]
    # X and V: X wins front and middle against V, V wins the back: X wins.
    assert settle([X, V], sw).winner == 0
    # Y and V: V wins the back only, Y wins front and middle: Y.
    res = settle([Y, V], sw)
    assert res.winner == 0 and res.net == [2, -2]


def test_single_winner_nobody() -> None:
    sw = SIMPLE.replace(single_winner=5)
    tie_a = "Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d"
    tie_b = "As Kh 7d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c"
    res = settle([tie_a, tie_b], sw)
    assert res.winner is None and res.net == [0, 0] and res.items == []


# --------------------------------------------------------------------- surrender


def test_surrender_needs_the_rule() -> None:
    with pytest.raises(ofc.RulesError, match="surrender"):
        settle([X, Y, Z], rules.OFC, surrendered=[1])
    with pytest.raises(ofc.BoardError, match="seat 5"):
        settle([X, Y, Z], SIMPLE.replace(surrender_cost=1), surrendered=[5])


def test_surrender_two_seats_pay_each_other_nothing() -> None:
    sur = SIMPLE.replace(surrender_cost=2)
    res = settle([X, None, None], sur, surrendered=[1, 2])
    assert res.net == [4, -2, -2]
    assert res.pairs == []


def test_aces_bet_with_hidden_surrendered_cards() -> None:
    """R-VAR-ACES-1 needs the cards: settle() must not invent an ace count for a seat
    whose cards it was not given (settle's docstring: a surrendered seat may give
    None).  Either refuse, or settle the same as with the real cards."""
    r = SIMPLE.replace(surrender_cost=1, aces_bet=(0, 1, 2, 6, 8))
    with_cards = settle([X, Y, V], r, surrendered=[2]).net  # V holds As, Ac: 2 aces
    try:
        hidden = settle([X, Y, None], r, surrendered=[2]).net
    except (ofc.BoardError, ofc.RulesError):
        return
    assert hidden == with_cards


# ------------------------------------------------------------------- overall point


def test_overall_point() -> None:
    """R-VAR-OVR-1: the net winner of each pair receives +1; bonus payments count
    when deciding the winner; an even pair pays nothing extra."""
    ovr = SIMPLE.replace(overall_bonus=1)
    assert score_pair(X, Y, ovr).net == 3 + 1
    assert score_pair(X, V, ovr).net == 1 + 1  # 2 of 3
    tie_a = "Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d"
    tie_b = "As Kh 7d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c"
    assert score_pair(tie_a, tie_b, ovr).net == 0
    # Royalties decide the winner in OFC: a loses 2 rows of 3 (-1) but has a back full
    # house (+6): net +5, so a is the net winner and takes the extra unit: +6.
    ofc_ovr = rules.OFC.replace(overall_bonus=1)
    a = "2c 3c 5d / 4h 4s 8c 8d Kc / 7h 7s 7d 9h 9s"  # 5-high / 8844 / FH: 6
    b = "Ac Kd 3d / Jc Jd 6c 6d 2s / Qh Qs Ts Th 2h"  # A-high / JJ66 / QQTT
    assert_disjoint(a, b)
    s = score_pair(a, b, ofc_ovr)
    assert s.rows == (-1, -1, 1)
    assert s.net == -1 + 6 + 1
    assert score_pair(b, a, ofc_ovr).net == -6


# ------------------------------------------------------------------ sweep of all


def test_sweep_all_needs_everyone_compared() -> None:
    """The sweep-all multiplier/bonus applies only when one seat swept every other
    seat; with a surrender or only two players it is a plain sweep."""
    hg = rules.HAWAIIAN_GARDENS
    assert settle([X, Y, Z], hg).net == [6 - 9, -6 - 9, 18]
    assert settle([Y, Z], hg).net == [-6, 6]
    sur = settle([X, Y, Z, V], hg, surrendered=[3])
    # V pays 3 to each; Z sweeps X and Y but V did not play: plain sweeps (6).
    assert sur.net == [6 - 6 + 3, -6 - 6 + 3, 12 + 3, -9]


def test_sweep_all_against_a_fouled_board() -> None:
    """Beating a fouled board counts as a sweep (R-FOUL-3b), so Z sweeps the table."""
    fouled = "Ac As 4h / Qh Qs 3d 3h 8c / 6d 6h 7c 7h 2c"
    assert_disjoint(X, Z, fouled)
    assert Board.parse(fouled).is_foul(rules.HAWAIIAN_GARDENS)
    # Z v X: 9; Z v fouled: 9; X v fouled: 6.
    assert settle([X, fouled, Z], rules.HAWAIIAN_GARDENS).net == [6 - 9, -6 - 9, 18]


# ------------------------------------------------------------------ table stakes


def test_win_cap_hand_complete() -> None:
    """R-STAKES-2: once a seat's running win reaches its starting stack, the current
    opponent pays only the remainder, and the seat neither wins nor loses further."""
    # seat 0 starts with 5: wins 4 from 1, then 4 from 2 (only 1 more paid), then
    # would lose 10 to 3: nothing.
    transfers = [((0, 1), 4), ((0, 2), 4), ((0, 3), -10), ((1, 2), 3)]
    assert apply_stakes(transfers, [5, 50, 50, 50], "win_cap") == [4, 1, 0, 3]
    # Loss limited by the chips in front: seat 1 has 3, owes 4 then 4.
    assert apply_stakes([((0, 1), 4), ((2, 1), 4)], [50, 3, 50], "win_cap") == [3, 0]


def test_chips_every_chip_used_once() -> None:
    """R-STAKES-3: a seat with 5 chips can win 5 and then nothing more; a chip won
    cannot be lost again."""
    transfers = [((0, 1), 4), ((0, 2), 4), ((0, 3), -10)]
    assert apply_stakes(transfers, [5, 50, 50, 50], "chips") == [4, 1, 0]
    assert apply_stakes(transfers, [5, 50, 50, 50], StakesModel.CHIPS) == [4, 1, 0]


def test_apply_stakes_refuses_transfers_without_an_order() -> None:
    """apply_stakes caps transfers in their order (R-STAKES-3, EX-3: A pays C 2 after
    B paid A 6), yet took a set of transfers and capped them in its hash order, each
    result in that order; a set (as a dict already) is a BoardError naming transfers,
    and a list, a tuple, an iterator or a dict's items() keeps its order."""
    ex3 = [((0, 1), 6), ((2, 0), 6), ((0, 3), 0)]  # A (8 chips) sweeps B, C sweeps A
    for unordered in (set(ex3), frozenset(ex3)):
        with pytest.raises(ofc.BoardError, match="transfers: expected a sequence"):
            apply_stakes(unordered, [8, 20, 20, 20], "chips")  # type: ignore[arg-type]
    from collections import OrderedDict

    as_dict = dict(ex3)
    dict_items = (as_dict.items(), OrderedDict(ex3).items())  # insertion order kept
    for ordered in (ex3, tuple(ex3), iter(ex3), *dict_items):
        assert apply_stakes(ordered, [8, 20, 20, 20], "chips") == [6, 2, 0]  # type: ignore[arg-type]


def test_apply_stakes_reads_numpy_pairs_and_amounts() -> None:
    """A transfer whose seat pair is a NumPy row (``zip(pairs, amounts)`` of a (K, 2)
    array and a (K,) array, or the items of an object array) was refused as of another
    shape ("expected ((seat, seat), amount)"), though NumPy seats and amounts were
    read; it is the pair it holds (EX-3: A (8 chips) sweeps B, C sweeps A)."""
    import numpy as np

    pairs = np.array([[0, 1], [2, 0], [0, 3]], dtype=np.int64)
    amounts = np.array([6, 6, 0], dtype=np.int32)
    for transfers in (
        list(zip(pairs, amounts)),
        [(tuple(p), a) for p, a in zip(pairs.astype(np.uint8), amounts)],
        [(p, int(a)) for p, a in zip(pairs[:, ::-1][:, ::-1], amounts)],  # strided view
    ):
        assert apply_stakes(transfers, np.array([8, 20, 20, 20]), "chips") == [6, 2, 0]
    for bad in (
        [(np.array([0, 1, 2]), 6)],  # three seats
        [(np.array([[0, 1]]), 6)],  # a 2-d pair: one item, no seat
        [(np.array([0, 1]), np.array([6, 6]))],  # an amount that is no int
        [(np.array(["0", "1"]), 6)],  # seats that are text
        [({0, 1}, 6)],  # a set of seats: no order
    ):
        with pytest.raises(ofc.BoardError, match="transfer"):
            apply_stakes(bad, [8, 20], "chips")


def test_apply_stakes_validates_stacks() -> None:
    with pytest.raises((ofc.BoardError, ofc.RulesError, ValueError)):
        apply_stakes([((0, 1), 5)], [-3, 10], "chips")
    with pytest.raises((ofc.BoardError, ofc.RulesError)):
        apply_stakes([((0, 1), 5)], [3], "chips")


def test_settle_stacks_validation() -> None:
    for bad in ([10, 10], [10, -1, 10], [10, True, 10], [10, 1.5, 10]):
        with pytest.raises(ofc.BoardError, match="stacks"):
            settle([X, Y, Z], rules.OFC, stacks=bad)


# =================================================================== properties

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"  # complete straight


def _random_rules(draw, players: int) -> tuple[ofc.RuleSet, dict]:
    base = draw(st.sampled_from(PRESETS))
    mode = draw(st.sampled_from(["pairs", "house", "pool", "single"]))
    changes: dict = {"house": False, "pool": None, "single_winner": 0, "max_players": 4}
    if mode == "house":
        changes["house"] = True
    elif mode == "pool":
        changes["pool"] = Pool(
            ante=draw(st.integers(1, 3)), sweep_extra=draw(st.integers(0, 3))
        )
    elif mode == "single":
        changes["single_winner"] = draw(st.integers(1, 5))
    if draw(st.booleans()):
        changes["aces_bet"] = tuple(
            draw(st.lists(st.integers(0, 10), min_size=5, max_size=5))
        )
    else:
        changes["aces_bet"] = None
    changes["surrender_cost"] = draw(st.one_of(st.none(), st.integers(0, 5)))
    changes["overall_bonus"] = draw(st.integers(0, 2))
    changes["stakes"] = draw(st.sampled_from(list(StakesModel)))
    changes["settlement_start"] = draw(st.sampled_from(["button", "left_of_button"]))
    return base.replace(**changes), {"mode": mode}


@st.composite
def tables(draw):
    players = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    boards = random_table(rng, players)
    r, info = _random_rules(draw, players)
    button = draw(st.integers(0, players - 1))
    surrendered: list[int] = []
    if r.surrender_cost is not None:
        surrendered = sorted(draw(st.sets(st.integers(0, players - 1), max_size=players)))
    stacks = None
    if draw(st.booleans()):  # pool too
        stacks = draw(st.lists(st.integers(0, 40), min_size=players, max_size=players))
    declared: dict[int, bool] = {}
    if r.naturals and draw(st.booleans()):
        # one seat holds the 13 ranks (a dragon, or three straights) and declares it
        seat = draw(st.integers(0, players - 1))
        dragon = ofc.parse_cards(DRAGON)
        rest = [c for c in range(52) if c not in dragon]
        rng.shuffle(rest)
        others = [i for i in range(players) if i != seat]
        boards[seat] = dragon
        for k, i in enumerate(others):
            boards[i] = _stacked(rest[13 * k : 13 * k + 13], rng)
        if seat not in surrendered:
            declared[seat] = True
    return boards, r, button, surrendered, stacks, declared


@settings(max_examples=600, deadline=None)
@given(tables())
def test_settle_properties(case) -> None:
    """Zero sum; the items add up to the nets; table stakes: a seat never loses more
    than its stack, under WIN_CAP never wins more than its starting stack, under CHIPS
    never moves more chips in total than its stack; the capped transfers equal an
    independent implementation of R-STAKES-2 / R-STAKES-3."""
    boards, r, button, surrendered, stacks, declared = case
    n = len(boards)
    res = settle(
        boards, r, button=button, stacks=stacks, surrendered=surrendered, declared=declared
    )
    assert sum(res.net) == 0
    assert items_net(res, n) == res.net
    if stacks is None:
        assert res.stacks is None
        return
    assert res.stacks == [s + d for s, d in zip(stacks, res.net)]
    assert all(s >= 0 for s in res.stacks)
    for seat in range(n):
        assert res.net[seat] >= -stacks[seat]
        if r.stakes is StakesModel.WIN_CAP:
            assert res.net[seat] <= stacks[seat]
    actual = pair_actual(res)
    if r.stakes is StakesModel.CHIPS:
        for seat in range(n):
            moved = sum(abs(v) for p, v in actual.items() if seat in p)
            assert moved <= stacks[seat]
    # Independent model: rebuild the nominal transfers from the uncapped settlement.
    nominal_res = settle(
        boards, r, button=button, surrendered=surrendered, declared=declared
    )
    nominal = pair_actual(nominal_res)
    order = ofc.settlement_order(n, button, r.settlement_start)
    # pairs paying a declared natural are settled first (R-SETTLE-3), the rest in
    # order (under house a pair without the house pays no natural, only side bets)
    natural = {it.pair for it in nominal_res.items if it.kind == "natural"}
    order = sorted(order, key=lambda p: p not in natural)
    transfers = [(p, nominal.get(p, 0)) for p in order]
    ref = ref_chips if r.stakes is StakesModel.CHIPS else ref_win_cap
    want = dict(zip(order, ref(transfers, stacks)))
    assert {p: actual.get(p, 0) for p in order} == want


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([(0, 1), (0, 2), (1, 2), (2, 0), (1, 0)]), st.integers(-30, 30)
        ),
        max_size=12,
    ),
    st.lists(st.integers(0, 25), min_size=3, max_size=3),
    st.sampled_from(list(StakesModel)),
)
def test_apply_stakes_matches_rule_text(transfers, stacks, model) -> None:
    """apply_stakes() against R-STAKES-2 / R-STAKES-3 re-implemented from docs/rules.md."""
    got = apply_stakes(transfers, stacks, model)
    ref = ref_chips if model is StakesModel.CHIPS else ref_win_cap
    assert got == ref(transfers, stacks)
    assert all(
        abs(g) <= abs(a) and (g == 0 or (g > 0) == (a > 0))
        for g, (_, a) in zip(got, transfers)
    )


all_presets = st.sampled_from(
    PRESETS
    + [
        rules.OFC.replace(overall_bonus=1, order="strict"),
        rules.CLASSIC_2_4.replace(majority_rule="more_rows", order="strict"),
        rules.VIETNAMESE.replace(foul_pays_sweep=False, overall_bonus=1),
    ]
)


@settings(max_examples=500, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    all_presets,
    st.sampled_from([-1, 0, 1]),
    st.booleans(),
    st.booleans(),
)
def test_pair_antisymmetry_every_preset(seed, preset, ties, a_all, b_all) -> None:
    """score(a, b) = -score(b, a) for every preset, also with house ties and the
    sweep-all context swapped."""
    a, b = random_table(random.Random(seed), 2)
    assert score_pair(a, b, preset).net == -score_pair(b, a, preset).net
    ea = evaluate_for_scoring(Board.from_cards(a), preset)
    eb = evaluate_for_scoring(Board.from_cards(b), preset)
    ab = score_evaluated(ea, eb, preset, ties, a_all, b_all)
    ba = score_evaluated(eb, ea, preset, -ties, b_all, a_all)
    assert ab.net == -ba.net
    assert ab.rows == tuple(-x for x in ba.rows)
    assert ab.sweep == -ba.sweep
    assert ab.row_points == -ba.row_points and ab.bonus == -ba.bonus


def _tied_opponent(rng: random.Random, board: list[int]) -> list[int]:
    """A board with the same ranks as ``board`` in most rows (other suits where the
    deck allows), filled up from the rest of the deck."""
    used = set(board)
    out: list[int] = []
    for idx in (range(0, 3), range(3, 8), range(8, 13)):
        copy_row = rng.random() < 0.7
        for k in idx:
            rank = board[k] // 4
            choices = [4 * rank + s for s in range(4) if 4 * rank + s not in used]
            if copy_row and choices:
                c = rng.choice(choices)
            else:
                c = rng.choice([x for x in range(52) if x not in used])
            used.add(c)
            out.append(c)
    return out


@settings(max_examples=500, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(PRESETS),
    st.integers(2, 4),
    st.integers(0, 3),
)
def test_house_never_loses_a_tied_row(seed, preset, players, house) -> None:
    """R-VAR-HOUSE-1: the house wins every tied row (fouls aside), for every preset;
    every other row goes to the stronger hand."""
    rng = random.Random(seed)
    house %= players
    hb = _stacked(rng.sample(range(52), 13), rng)
    opp = _tied_opponent(rng, hb)
    rest = [c for c in range(52) if c not in set(hb) | set(opp)]
    rng.shuffle(rest)
    boards: list = [None] * players
    boards[house] = hb
    boards[(house + 1) % players] = opp
    for i in range(players):
        if boards[i] is None:
            boards[i], rest = rest[:13], rest[13:]
    r = preset.replace(house=True, pool=None, single_winner=0, max_players=4)
    res = settle(boards, r, button=house)
    assert sum(res.net) == 0
    lowball = r.lowball is not None
    for (i, j), s in res.pairs:
        assert house in (i, j)
        ei = Board.from_cards(boards[i]).evaluate(r)
        ej = Board.from_cards(boards[j]).evaluate(r)
        if ei.foul or ej.foul:
            continue
        sign = 1 if i == house else -1
        for row in range(3):
            ki, kj = ei.strengths[row], ej.strengths[row]
            if lowball and row == 1:
                ki, kj = LOW27[ki], LOW27[kj]
            if ki == kj:
                assert s.rows[row] == sign, (boards[i], boards[j], row)
            else:
                assert s.rows[row] == (1 if ki > kj else -1)


# ================================================================ declared naturals
# R-NAT-2 / R-FLOW-CP-4 / R-SETTLE-3: declared naturals are settled first, against
# every opponent; the others then show and settle normally.  (DRAGON: see above.)
SIX_A = "2d 2h 3c 3h 4c 4d 5c 5d 6d 6h 7c 7h 9c"  # six pairs 2..7 + 9
SIX_B = "8c 8d 9d 9h Td Th Jc Jh Qc Qd Kc Kd As"  # six pairs 8..K + A
O3 = "5h 2s 3s / Ad Ah Kh 4s 6s / 7s 8s Ts Js Qs"  # ordinary: 5-high / AA / flush
# Two ordinary boards from the cards the dragon and SIX_A leave:
O1 = "Ah As 2s / Jc Jh Js 3s 4s / Kc Kd Kh 5h 6s"  # AA / JJJ / KKK
O2 = "Qc Qd 7s / 8c 8d 8s 9d Ad / Td Th Ts 9h Qs"  # QQ / 888 / TTT
# O1 sweeps O2 (AA > QQ, JJJ > 888, KKK > TTT); no row bonus hands.


def _naturals():
    return pytest.importorskip(
        "ofc_fast.scoring.naturals",
        reason="part of ofc_fast: install the whole package (pip install .)",
    )


def test_declared_dragon_singapore() -> None:
    """R-VAR-SG-1: the Dragon takes 13 from each; the others settle their rows; the
    sweep-all double is off when a natural is involved (R-VAR-SG-5)."""
    _naturals()
    assert_disjoint(DRAGON, O1, O2)
    res = settle([DRAGON, O1, O2], rules.SINGAPORE, declared={0: "dragon"})
    # dragon +13 +13; O1 v O2: 3 rows (1 a row, no single-sweep extra) -> +3.
    assert res.net == [26, -13 + 3, -13 - 3]
    assert kinds(res) == {"natural": 26, "rows": 3}
    assert [p for p, _ in res.pairs] == [(1, 2)]
    assert res.naturals[0].name == "dragon"
    # The natural may be given as 13 cards in any order; True = the best natural.
    assert settle([DRAGON, O1, O2], rules.SINGAPORE, declared={0: True}).net == res.net


def test_declared_naturals_against_each_other() -> None:
    """R-NAT-6 by rule set: Singapore equal claims cancel and the Dragon is always paid
    in full; typical (Vietnamese) higher natural wins its full value; Hawaiian Gardens
    the lower pays the difference."""
    _naturals()
    table = [DRAGON, SIX_A, SIX_B, O3]
    assert_disjoint(*table)
    declared = {0: "dragon", 1: "six_pairs", 2: "six_pairs"}
    # Singapore: D v A 13, D v B 13, D v O3 13, A v B 0 (two 3-unit claims), A v O3 3,
    # B v O3 3.  D 39; A -13 + 3 = -10; B -10; O3 -13 - 3 - 3 = -19.
    assert settle(table, rules.SINGAPORE, declared=declared).net == [39, -10, -10, -19]
    # Vietnamese (typical, higher full): B's kings beat A's sevens: B takes 3 from A.
    # D 39; A -13 - 3 + 3 = -13; B -13 + 3 + 3 = -7; O3 -19.
    assert settle(table, rules.VIETNAMESE, declared=declared).net == [39, -13, -7, -19]
    # Hawaiian Gardens (six pairs 4): D v A 13 - 4 = 9, D v B 9, D v O3 13, A v B 0,
    # A v O3 4, B v O3 4.  D 31; A -9 + 4 = -5; B -5; O3 -13 - 8 = -21.
    assert settle(table, rules.HAWAIIAN_GARDENS, declared=declared).net == [31, -5, -5, -21]


def test_declared_naturals_settled_first_under_chip_cap() -> None:
    """R-SETTLE-3 / R-VAR-HG-5: natural payments are settled first, then the rows, all
    under the chip cap (R-STAKES-3)."""
    _naturals()
    assert_disjoint(O1, O2, DRAGON)
    hg = rules.HAWAIIAN_GARDENS
    table = [O1, O2, DRAGON]
    # Nominal: O1 v O2 rows: a sweep, 6; the dragon 13 from each.
    assert settle(table, hg, declared={2: "dragon"}).net == [6 - 13, -6 - 13, 26]
    # Stacks O1 5, O2 20, D 20.  Naturals first: O1 pays the dragon min(13, 5, 20) = 5
    # (O1 capacity 0, D 15); O2 pays min(13, 20, 15) = 13 (O2 7, D 2); then the rows:
    # O1 v O2 6 -> min(6, 0, 7) = 0.   O1 -5, O2 -13, D +18.
    res = settle(table, hg, stacks=[5, 20, 20], declared={2: "dragon"})
    assert res.net == [-5, -13, 18]
    # (Rows first would have given O1 +5 from O2 and nothing to the dragon.)


def test_declared_natural_with_a_bank() -> None:
    """R-VAR-MAL-4: a player's natural wins its value from the bank; the bank's from
    every player."""
    _naturals()
    mal = rules.MALAYAN
    table = [O1, O2, DRAGON]  # in Malayan the dragon cards are three straights (4)
    # Bank O1 (button 0): O2 v bank rows: bank sweeps, 3 (no extras); the natural
    # takes 4 from the bank.  Bank 3 - 4 = -1; O2 -3; D +4.
    assert settle(table, mal, button=0, declared={2: True}).net == [-1, -3, 4]
    # The natural holder is the bank (button 2): 4 from each player; players never
    # compare with each other.
    assert settle(table, mal, button=2, declared={2: True}).net == [-4, -4, 8]


def test_declared_natural_errors() -> None:
    _naturals()
    with pytest.raises(ofc.RulesError, match="no naturals"):
        settle([DRAGON, O1], rules.OFC, declared={0: True})
    with pytest.raises(ofc.BoardError, match="holds none"):
        settle([O1, O2], rules.SINGAPORE, declared={0: True})
    with pytest.raises(ofc.BoardError, match="declared 'six_pairs' but holds"):
        settle([DRAGON, O1], rules.SINGAPORE, declared={0: "six_pairs"})
    with pytest.raises(ofc.BoardError, match="surrender and declare"):
        settle([DRAGON, O1], rules.HAWAIIAN_GARDENS, declared={0: True}, surrendered=[0])


def test_single_winner_does_not_collect_from_a_natural() -> None:
    _naturals()
    r = rules.SINGAPORE.replace(single_winner=2)
    res = settle([DRAGON, O1, O2], r, declared={0: "dragon"})
    # The dragon takes 13 from each.  O1 beats O2 on every row; whether O1 then counts
    # as the single winner is open, but the dragon never pays it.
    assert not any(it.kind == "single_winner" and it.payer == 0 for it in res.items)


def test_a_surrendered_seat_pays_the_single_winner_its_surrender_only() -> None:
    """R-VAR-SUR-1/3: a surrender is a fixed agreed loss, paid to each opponent in
    place of the rows.  Under single winner (R-VAR-SINGLE-1, Q-13) the surrendered
    seat paid the winner twice: its surrender cost and the single-winner units on top
    (1 + 2 = 3 to the winner, 4 in all instead of 2)."""
    r = SIMPLE.replace(single_winner=2, surrender_cost=1)
    res = settle([X, Y, Z], r, surrendered=[0])
    assert res.winner == 2  # Z beats Y on two rows or more (test_single_winner)
    # independent reference: seat 0 pays its fixed cost to each of the two others;
    # the winner Z collects the single-winner units from Y, the one seat that played
    want = [-1 - 1, +1 - 2, +1 + 2]
    assert res.net == want
    assert sorted((i.kind, i.payer, i.payee, i.amount) for i in res.items) == [
        ("single_winner", 1, 2, 2),
        ("surrender", 0, 1, 1),
        ("surrender", 0, 2, 1),
    ]


def test_a_surrendered_seat_pays_a_natural_its_surrender_only() -> None:
    """R-VAR-SUR-1/3, Q-13: a surrender, made before the reveal, is a fixed agreed
    loss; a natural is shown at the reveal (R-NAT-2).  A surrendered seat facing a
    declared Dragon paid the natural's 13 units instead of its 3 (Hawaiian Gardens,
    R-VAR-SUR-2): net [26, -10, -16]."""
    dragon = "2c 3d 4h 5s 6c 7d 8h 9c Tc Jd Qh Kh Ac"
    played = "Ks Kd 3c / 8s 8c 8d 6d 2s / As Ad Qs Js Ts"
    res = settle(
        [dragon, played, None],
        rules.HAWAIIAN_GARDENS,
        declared={0: "dragon"},
        surrendered=[2],
    )
    # by hand: seat 1 pays the Dragon 13 (R-NAT-7, HG); seat 2 pays its surrender, 3,
    # to each of seats 0 and 1
    assert res.net == [13 + 3, -13 + 3, -3 - 3]
    assert sorted((i.kind, i.payer, i.payee, i.amount) for i in res.items) == [
        ("natural", 1, 0, 13),
        ("surrender", 2, 0, 3),
        ("surrender", 2, 1, 3),
    ]


# --------------------------------------------------------------- foul / majority


def test_foul_pays_rows_only_option() -> None:
    """Q-3 option foul_pays_sweep=False: beating a fouled board earns the rows only (no
    sweep or majority bonus, no sweep multiplier); royalties are still paid."""
    fouled = "Ac As 4h / Qh Qs 3d 3h 8c / 6d 6h 7c 7h 2c"
    assert_disjoint(X, fouled)
    # X's front 88 pays 3 in OFC.
    assert score_pair(X, fouled, rules.OFC).net == 3 + 3 + 3
    assert score_pair(X, fouled, rules.OFC.replace(foul_pays_sweep=False)).net == 3 + 3
    assert score_pair(X, fouled, rules.CLASSIC_2_4.replace(foul_pays_sweep=False)).net == 3
    assert score_pair(X, fouled, rules.VIETNAMESE).net == 6  # 3 rows x 2
    assert score_pair(X, fouled, rules.VIETNAMESE.replace(foul_pays_sweep=False)).net == 3
    royal = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    foul2 = "Ac Ad 4h / Kh Kd 3d 3h 8c / 6d 6h 7c 7h 2h"
    assert_disjoint(royal, foul2)
    assert score_pair(royal, foul2, rules.OFC.replace(foul_pays_sweep=False)).net == 3 + 44


def test_majority_rule_with_tied_rows() -> None:
    """R-SCORE-3 / Q-4: one row won and two tied: "two or more rows" [003] pays no
    majority; "more rows than the other" [001] does."""
    a = "Ac Kd 7h / 8c 8d 4c 4d 2c / Tc Jc Qc Kc 9d"  # ties b's middle and back
    b = "As Kh 6d / 8h 8s 4h 4s 2d / Th Js Qd Ks 9c"  # front A-K-6 < A-K-7
    assert_disjoint(a, b)
    two_rows = rules.CLASSIC_2_4
    more_rows = rules.CLASSIC_2_4.replace(majority_rule="more_rows")
    assert score_pair(a, b, two_rows).rows == (1, 0, 0)
    assert score_pair(a, b, two_rows).net == 1
    assert score_pair(a, b, more_rows).net == 2


# ------------------------------------------------- argument checks


def test_settle_button_float_is_a_board_error() -> None:
    with pytest.raises(ofc.BoardError, match="button"):
        settle([X, Y, Z], rules.OFC, button=0.0)  # type: ignore[arg-type]
    with pytest.raises(ofc.BoardError, match="button"):
        settle([X, Y, Z], rules.OFC, button=True)
    with pytest.raises(ofc.BoardError, match="button 3"):
        settle([X, Y, Z], rules.OFC, button=3)


def test_settle_surrendered_float_is_refused() -> None:
    sur = SIMPLE.replace(surrender_cost=1)
    with pytest.raises(ofc.BoardError, match="surrendered seat"):
        settle([X, Y, Z], sur, surrendered=[0.5])  # type: ignore[list-item]
    with pytest.raises(ofc.BoardError, match="surrendered"):
        settle([X, Y, Z], sur, surrendered="1")  # type: ignore[arg-type]
    with pytest.raises(ofc.BoardError, match="declaring seat"):
        settle([X, Y, Z], sur, declared={1.0: True})  # type: ignore[dict-item]


def test_settle_refusals_name_the_problem() -> None:
    """Every refusal of the C settlement arrives as a specific OfcError."""
    sur = SIMPLE.replace(surrender_cost=1, naturals=(ofc.rules.Natural(),))
    with pytest.raises(ofc.BoardError, match="both surrender and declare"):
        settle([X, Y, Z], sur, surrendered=[1], declared={1: True})
    with pytest.raises(ofc.BoardError, match="seat 2 declared a natural but holds none"):
        settle([X, Y, Z], sur, declared={2: True})
    with pytest.raises(ofc.BoardError, match="declared 'nonsense'"):
        settle(
            [DRAGON, "2d 3h 4s / 5c 6d 7h 8s 9c / Td Jh Qs Kc Ad"],
            sur,
            declared={0: "nonsense"},
        )
    with pytest.raises(ofc.BoardError, match="declared 'six_pairs' but holds dragon"):
        settle(
            [DRAGON, "2d 3h 4s / 5c 6d 7h 8s 9c / Td Jh Qs Kc Ad"],
            sur,
            declared={0: "six_pairs"},
        )
    with pytest.raises(ofc.RulesError, match="no naturals"):
        settle(
            [DRAGON, "2d 3h 4s / 5c 6d 7h 8s 9c / Td Jh Qs Kc Ad"],
            SIMPLE,
            declared={0: True},
        )
    with pytest.raises(ofc.RulesError, match="surrender is not allowed"):
        settle([X, Y, Z], SIMPLE, surrendered=[1])
    with pytest.raises(ofc.BoardError, match="aces side bet"):
        settle([X, Y, None], sur.replace(aces_bet=(0, 1, 2, 6, 8)), surrendered=[2])
    with pytest.raises(ofc.CardError, match="seat 1: a declared natural needs"):
        settle([X, None, Z], sur, declared={1: True})
    with pytest.raises(ofc.BoardError, match="card 8h is on board 0 and board 1"):
        settle([X, X, Z], rules.OFC)
    with pytest.raises(ofc.BoardError, match="stacks: at most"):
        settle([X, Y, Z], rules.OFC, stacks=[10, 10**9 + 1, 10])
    with pytest.raises(ofc.RulesError, match="stakes model"):
        apply_stakes([((0, 1), 5)], [3, 3], "nonsense")  # type: ignore[arg-type]
    with pytest.raises(ofc.BoardError, match="button"):
        ofc.settlement_order(3, button=1.0)  # type: ignore[arg-type]
    with pytest.raises(ofc.RulesError, match="settlement start"):
        ofc.settlement_order(3, start="nonsense")  # type: ignore[arg-type]


def test_apply_stakes_huge_amounts_pay_what_a_stack_allows() -> None:
    assert apply_stakes([((0, 1), 10**30), ((1, 0), -(10**30))], [5, 7], "win_cap") == [
        5,
        0,
    ]
    assert apply_stakes([((0, 1), -(10**30))], [5, 7], "chips") == [-5]


@pytest.mark.parametrize(
    "transfers",
    [
        [(0, 1)],  # no amount
        [((0, 1, 2), 3)],  # three seats
        [((0,), 3)],  # one seat
        [((0, 1), 3, 4)],  # an extra field
        None,
        5,
        {(0, 1): 3},  # a mapping, not a sequence of pairs
        "01",
        [None],
    ],
)
def test_apply_stakes_malformed_transfers_are_board_errors(transfers: object) -> None:
    """Every shape of ``transfers`` other than ((seat, seat), amount) items is a
    BoardError naming it, never a TypeError or an unpacking ValueError."""
    with pytest.raises(ofc.BoardError, match="transfer"):
        apply_stakes(transfers, [5, 5, 5], "chips")  # type: ignore[arg-type]


@pytest.mark.parametrize("model", ["chips", "win_cap"])
def test_apply_stakes_refuses_a_seat_paying_itself(model: str) -> None:
    """A transfer between a seat and itself is a BoardError naming it: under chips it
    used the seat's capacity twice, and the seat's next transfer came out reversed and
    over its nominal amount ([8, -6] here, where seat 1 owes seat 0 five)."""
    with pytest.raises(ofc.BoardError, match="different seats"):
        apply_stakes([((0, 0), 8), ((0, 1), 5)], [10, 10], model)  # type: ignore[arg-type]


def test_apply_stakes_empty_table() -> None:
    """No transfers and no stacks: nothing to cap (not min() of an empty sequence)."""
    assert apply_stakes([], [], "chips") == []
    assert apply_stakes([], [], "win_cap") == []


@pytest.mark.parametrize("model", list(StakesModel))
def test_apply_stakes_beyond_a_block_of_256_transfers(model: StakesModel) -> None:
    """700 transfers (the C library copies them in blocks of 256) against the rule
    text's reading, as a deal's pairs are paid one after another."""
    rng = random.Random(14)
    transfers = []
    for _ in range(700):
        i, j = rng.sample(range(5), 2)
        transfers.append(((i, j), rng.randint(-40, 40)))
    stacks = [400, 0, 1000, 2500, 90]
    ref = ref_chips if model is StakesModel.CHIPS else ref_win_cap
    assert apply_stakes(transfers, stacks, model) == ref(transfers, stacks)


def test_apply_stakes_stacks_none_names_stacks() -> None:
    with pytest.raises(ofc.TableError, match="stacks"):
        apply_stakes([((0, 1), 3)], None, "chips")  # type: ignore[arg-type]


def test_settle_boards_and_surrendered_shapes() -> None:
    """settle() takes any iterable of boards (a generator too) and refuses text, a
    number or an int ``surrendered`` with a BoardError, never a TypeError."""
    assert settle(iter([X, Y, Z])).net == settle([X, Y, Z]).net
    for bad in (X, 3, None):
        with pytest.raises(ofc.BoardError, match="boards"):
            settle(bad)  # type: ignore[arg-type]
    sur = SIMPLE.replace(surrender_cost=1)
    with pytest.raises(ofc.BoardError, match="surrendered"):
        settle([X, Y, Z], sur, surrendered=1)  # type: ignore[arg-type]
