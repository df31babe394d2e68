"""Exhaustive ranking checks against the independent reference (tests/support/reference.py).

Every 5-card hand (2,598,960) and every 3-card hand (22,100) is ranked by the library
and compared with the pure-Python reference written from the rules: same order, same
ties, the standard category counts, Cactus Kev numbers, 2-7 lowball values, and the
one scale on which 3-card fronts and 5-card middles compare (R-ORDER-2).

The order test calls the reference on every hand.  The other 5-card tests (categories,
Kev numbers, 2-7 values) use the fact that the reference is a pure function of a
hand's sorted ranks and its flush flag (see ``reference._ranks_and_flush``): they
evaluate it once per (rank multiset, flush) class on a real hand of that class and
spread the result to every hand of the class; the order test checks that this
grouping gives the same ranks as the hand-by-hand evaluation.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
import reference as ref

import ofc_fast as ofc

pytestmark = pytest.mark.slow

N5 = 2_598_960
N3 = 22_100

# Standard 5-card category frequencies (any poker probability table).
CATEGORY_COUNTS_5 = {
    ref.ROYAL_FLUSH: 4,
    ref.STRAIGHT_FLUSH: 36,
    ref.QUADS: 624,
    ref.FULL_HOUSE: 3_744,
    ref.FLUSH: 5_108,
    ref.STRAIGHT: 10_200,
    ref.TRIPS: 54_912,
    ref.TWO_PAIR: 123_552,
    ref.ONE_PAIR: 1_098_240,
    ref.HIGH_CARD: 1_302_540,
}
# 3-card: trips 13*4, pair 13*6*12*4, high card C(13,3)*4^3.
CATEGORY_COUNTS_3 = {ref.TRIPS: 52, ref.ONE_PAIR: 3_744, ref.HIGH_CARD: 18_304}


def _all_hands(k: int) -> np.ndarray:
    n = {5: N5, 3: N3}[k]
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), k)),
        dtype=np.uint8,
        count=n * k,
    )
    return flat.reshape(n, k)


def _dense(values: np.ndarray) -> np.ndarray:
    """Dense rank (0 = smallest) of each value."""
    return np.unique(values, return_inverse=True)[1].reshape(-1)


class Five:
    """All 5-card hands with library strengths and reference data per class."""

    def __init__(self) -> None:
        self.hands = _all_hands(5)
        self.strength = ofc.rank5_batch(self.hands)
        ranks = (self.hands >> 2).astype(np.int64)  # rows ascending, so ranks sorted
        suits = self.hands & 3
        flush = (suits == suits[:, :1]).all(axis=1)
        code = (ranks * 13 ** np.arange(5)).sum(axis=1) * 2 + flush
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        self.cls_of_hand = inverse.reshape(-1)
        # One real hand per (rank multiset, flush) class.
        reps = [self.hands[i].tolist() for i in first]
        self.rep_cards = reps
        self.cls_key = [ref.hand_key(c) for c in reps]
        self.cls_cat = np.array([ref.category(c) for c in reps])
        self.cls_low = [ref.low27_key(c) for c in reps]
        self.cls_kev_key = [ref.kev_order_key(c) for c in reps]
        self.ref_dense = np.array(ref.dense_ranks(self.cls_key))[self.cls_of_hand]
        self.ref_cat = self.cls_cat[self.cls_of_hand]


@pytest.fixture(scope="module")
def five() -> Five:
    return Five()


@pytest.fixture(scope="module")
def three():
    hands = _all_hands(3)
    keys = [ref.hand_key(h) for h in hands.tolist()]
    return hands, ofc.rank3_batch(hands), keys


# --- 5-card hands -------------------------------------------------------------------


def test_every_5card_hand_same_order_and_ties_as_reference(five: Five) -> None:
    """R-RANK-1..4: dense rank of strengths == dense rank of reference keys, hand by
    hand (the reference called on each of the 2,598,960 hands, no grouping)."""
    assert five.hands.shape == (N5, 5)
    assert five.strength.dtype == np.int32 and five.strength.shape == (N5,)
    order = {k: i for i, k in enumerate(sorted(set(five.cls_key)))}
    hand_key = ref.hand_key
    direct = np.fromiter(
        (order[hand_key(h)] for h in five.hands.tolist()), dtype=np.int64, count=N5
    )
    lib_dense = _dense(five.strength)
    bad = np.nonzero(lib_dense != direct)[0]
    if bad.size:
        i = int(bad[0])
        pytest.fail(
            f"{bad.size} hands out of order, e.g. {ofc.cards_str(five.hands[i])}: "
            f"library dense rank {lib_dense[i]}, reference {direct[i]}"
        )
    # The per-class evaluation the other tests use gives the same ranks.
    assert np.array_equal(direct, five.ref_dense)


def test_exactly_7462_five_card_classes(five: Five) -> None:
    assert len(set(five.cls_key)) == 7462  # the reference agrees with the known count
    assert np.unique(five.strength).size == 7462


def test_standard_5card_category_counts(five: Five) -> None:
    """R-RANK-1, R-RANK-2: the known category frequencies, from the library and from
    the reference; and the library's category of each hand equals the reference's."""
    ref_counts = Counter(five.ref_cat.tolist())
    assert dict(ref_counts) == CATEGORY_COUNTS_5
    cat_of_strength = np.full(ofc.STRENGTH_MAX + 1, -1, dtype=np.int64)
    for s in np.unique(five.strength).tolist():
        cat_of_strength[s] = int(ofc.category(s))
    lib_cat = cat_of_strength[five.strength]
    assert dict(Counter(lib_cat.tolist())) == CATEGORY_COUNTS_5
    bad = np.nonzero(lib_cat != five.ref_cat)[0]
    assert bad.size == 0, (
        f"{bad.size} hands in the wrong category, e.g. "
        f"{ofc.cards_str(five.hands[bad[0]])}: "
        f"{lib_cat[bad[0]]} vs reference {five.ref_cat[bad[0]]}"
    )


def test_all_5card_strengths_are_5card_strengths(five: Five) -> None:
    for s in np.unique(five.strength).tolist():
        assert ofc.strength_cards(s) == 5


def test_kev_rank_matches_reference_order(five: Five) -> None:
    """Cactus Kev numbers 1 (royal) .. 7462 (7-5-4-3-2 offsuit): 1 + the number of
    strictly stronger classes in the reference order."""
    kev_dense = np.array(ref.dense_ranks(five.cls_kev_key))
    n = int(kev_dense.max()) + 1
    assert n == 7462
    ref_kev = (n - kev_dense)[five.cls_of_hand]  # strongest class -> 1
    kev_of_strength = np.zeros(ofc.STRENGTH_MAX + 1, dtype=np.int64)
    for s in np.unique(five.strength).tolist():
        kev_of_strength[s] = ofc.kev_rank(s)
    lib_kev = kev_of_strength[five.strength]
    bad = np.nonzero(lib_kev != ref_kev)[0]
    assert bad.size == 0, (
        f"{bad.size} hands with a wrong Kev number, e.g. "
        f"{ofc.cards_str(five.hands[bad[0]])}: {lib_kev[bad[0]]} vs "
        f"{ref_kev[bad[0]]}"
    )
    assert sorted(set(lib_kev.tolist())) == list(range(1, 7463))


def test_low27_matches_reference_low_order(five: Five) -> None:
    """R-27-2: 2-7 lowball order over every hand (ace high, A-2-3-4-5 no straight,
    straights and flushes count against the hand, 7-5-4-3-2 offsuit best = 7462)."""
    low_of_strength = np.zeros(ofc.STRENGTH_MAX + 1, dtype=np.int64)
    for s in np.unique(five.strength).tolist():
        low_of_strength[s] = ofc.low27(s)
    lib_low = low_of_strength[five.strength]
    ref_low_dense = np.array(ref.dense_ranks(five.cls_low))[five.cls_of_hand]
    assert int(ref_low_dense.max()) + 1 == 7462
    assert np.unique(lib_low).size == 7462
    assert int(lib_low.max()) == 7462
    lib_low_dense = _dense(lib_low)
    bad = np.nonzero(lib_low_dense != ref_low_dense)[0]
    assert bad.size == 0, (
        f"{bad.size} hands out of 2-7 order, e.g. {ofc.cards_str(five.hands[bad[0]])}"
    )
    # 7-5-4-3-2 offsuit (every suit combination that is not a flush) is the best.
    best = ofc.parse_cards("7c 5d 4h 3s 2c")
    assert ofc.low27(ofc.rank5(best)) == 7462
    assert ref.low27_key(best) == max(five.cls_low)


def test_low27_wheel_is_ace_high() -> None:
    """R-27-2: A-2-3-4-5 offsuit is just ace-high: worse than any king-high, better than
    any pair; 2-3-4-5-6 is a straight, worse than any high card and than trips."""

    def low(text: str) -> int:
        return ofc.low27(ofc.rank5(text))

    wheel = "Ac 2d 3h 4s 5c"
    assert ref.low27_key(ref.card_ids(wheel)) == ref.low27_key(
        ref.card_ids("Ad 5h 4c 3d 2s")
    )
    assert low(wheel) == low("Ad 5h 4c 3d 2s")
    assert low(wheel) < low("Kc 5d 4h 3s 2c") < low("7c 5d 4h 3s 2c")
    assert low(wheel) > low("Ac Kd Qh Js 9c") > low("2c 2d 5h 4s 3c")
    assert low("6c 5d 4h 3s 2c") < low("Ac Kd Qh Js 9c")  # a straight counts
    assert low("6c 5d 4h 3s 2c") < low("Ac Ad Ah Ks Qc")  # ... as a straight
    assert low("7s 5s 4s 3s 2s") < low("Ac Ad Kh Ks Qc")  # a flush counts too
    assert low("7s 5s 4s 3s 2s") < low("6c 5d 4h 3s 2c")  # flush worse than straight
    for a, b in [
        (wheel, "Kc 5d 4h 3s 2c"),
        (wheel, "Ac Kd Qh Js 9c"),
        ("6c 5d 4h 3s 2c", "Ac Ad Ah Ks Qc"),
        ("7s 5s 4s 3s 2s", "6c 5d 4h 3s 2c"),
    ]:
        assert (ref.low27_key(ref.card_ids(a)) < ref.low27_key(ref.card_ids(b))) == (
            low(a) < low(b)
        )


# --- 3-card hands -------------------------------------------------------------------


def test_every_3card_hand_same_order_as_reference(three) -> None:
    """R-RANK-5, R-RANK-6: 455 classes, order and ties as the reference."""
    hands, strength, keys = three
    assert strength.shape == (N3,) and strength.dtype == np.int32
    assert len(set(keys)) == 455
    assert np.unique(strength).size == 455
    assert np.array_equal(_dense(strength), np.array(ref.dense_ranks(keys)))


def test_3card_categories(three) -> None:
    hands, strength, _ = three
    ref_counts = Counter(ref.category(h) for h in hands.tolist())
    assert dict(ref_counts) == CATEGORY_COUNTS_3
    lib = [int(ofc.category(s)) for s in strength.tolist()]
    assert lib == [ref.category(h) for h in hands.tolist()]
    assert {ofc.strength_cards(s) for s in np.unique(strength).tolist()} == {3}


def test_one_scale_for_3_and_5_card_hands(five: Five, three) -> None:
    """R-ORDER-2: every 3-card class and every 5-card class, sorted by strength, is in
    strictly increasing reference order: no shared strengths, no misplaced front."""
    hands3, strength3, keys3 = three
    by_strength: dict[int, tuple] = {}
    for s, k in zip(strength3.tolist(), keys3):
        assert by_strength.setdefault(s, (3, k)) == (3, k)
    first5 = np.unique(five.strength, return_index=True)
    for s, i in zip(first5[0].tolist(), first5[1].tolist()):
        k = ref.hand_key(five.hands[i].tolist())
        assert s not in by_strength, f"strength {s} is both a 3-card and a 5-card hand"
        by_strength[s] = (5, k)
    assert sorted(by_strength) == list(range(1, ofc.STRENGTH_MAX + 1))
    assert ofc.STRENGTH_MAX == 7462 + 455
    ordered = [by_strength[s][1] for s in sorted(by_strength)]
    for s, (a, b) in enumerate(zip(ordered, ordered[1:]), start=1):
        assert a < b, f"strength {s} ({a}) is not below strength {s + 1} ({b})"


def test_random_front_vs_middle_pairs() -> None:
    """R-ORDER-2: 200,000 random (3-card front, 5-card middle) pairs of distinct cards
    compare as the reference says."""
    rng = np.random.default_rng(7)
    n = 200_000
    deal = np.argsort(rng.random((n, 52)), axis=1)[:, :8].astype(np.uint8)
    front = np.ascontiguousarray(deal[:, :3])
    middle = np.ascontiguousarray(deal[:, 3:])
    s3 = ofc.rank3_batch(front).tolist()
    s5 = ofc.rank5_batch(middle).tolist()
    wrong = []
    for f, m, a, b in zip(front.tolist(), middle.tolist(), s3, s5):
        ka, kb = ref.hand_key(f), ref.hand_key(m)
        if (ka > kb) - (ka < kb) != (a > b) - (a < b):
            wrong.append((ofc.cards_str(f), ofc.cards_str(m)))
    assert not wrong, f"{len(wrong)} wrong comparisons, e.g. {wrong[:3]}"


@pytest.mark.parametrize(
    "front, middle, front_stronger",
    [
        ("Qh Qd 5c", "Qs Qc 4d 3h 2s", True),  # R-ORDER-2 / DESIGN: QQ5 > QQ432
        ("Qh Qd 5c", "Qs Qc 5d 3h 2s", False),  # QQ5 < QQ532 (missing kickers below a 2)
        ("Qh Qd 7c", "Qs Qc 6d 5h 4s", True),  # QQ7 front vs QQ654 middle: foul
        ("Qh Qd Ac", "Qs Qc Kd 9h 8s", True),  # EX-17: QQA front vs QQK-x-y middle: foul
        ("Qh Qd Ac", "Qs Qc Kd Jh Ts", True),  # EX-17 with the best x-y
        ("Kh Kd 5c", "Ks Kc 5d 4h 3s", False),  # Q-2 settled: the middle is stronger
        ("Ah Kd Qc", "As Kc Qd 4h 3s", False),  # Q-2 settled, high cards
        ("Ah Ad Ac", "2s 2c 3d 3h 4s", True),  # front trips beat a two-pair middle
        ("Ah Ad Ac", "Ks Kc Kd 2h 3s", True),  # trips against trips
        ("Ah Ad Ac", "As Ks Qs Js 9s", False),  # R-ORDER-2: any category above trips wins
        ("Ah Ad Kc", "2s 2c 3d 3h 4s", False),  # two pair beats a front pair
        ("2h 2d 2c", "Ah Ad Kh Ks Qc", True),  # even 2-2-2 beats the best two pair
        ("2h 2d 2c", "3s 3c 3d 4h 5s", False),  # trips against trips: rank first
    ],
)
def test_pinned_front_vs_middle(front: str, middle: str, front_stronger: bool) -> None:
    """R-ORDER-2, EX-17 and docs/design.md's strength scale on pinned front/middle pairs."""
    assert (
        ref.hand_key(ref.card_ids(front)) > ref.hand_key(ref.card_ids(middle))
    ) == front_stronger
    assert (ofc.rank3(front) > ofc.rank5(middle)) == front_stronger
    assert ofc.rank3(front) != ofc.rank5(middle)


def test_kk3_beats_kk2_R_RANK_8_EX_4() -> None:
    """R-RANK-8 / EX-4: front K-K-3 beats K-K-2 (the pairs tie, kicker 3 > 2)."""
    assert ref.hand_key(ref.card_ids("Kh Ks 3c")) > ref.hand_key(ref.card_ids("Kd Kc 2c"))
    assert ofc.rank3("Kh Ks 3c") > ofc.rank3("Kd Kc 2c")
    assert ofc.rank3([46, 47, 4]) > ofc.rank3([45, 44, 0])


def test_rank5_per_call_equals_batch_and_ignores_card_order() -> None:
    """rank5/rank3 per call == rank5_batch/rank3_batch, for any order of the cards."""
    rng = random.Random(99)
    for k, per_call, batch in (
        (5, ofc.rank5, ofc.rank5_batch),
        (3, ofc.rank3, ofc.rank3_batch),
    ):
        hands = [rng.sample(range(52), k) for _ in range(20_000)]
        arr = np.array(hands, dtype=np.uint8)
        expected = batch(arr).tolist()
        permuted = np.ascontiguousarray(np.random.default_rng(5).permuted(arr, axis=1))
        assert batch(permuted).tolist() == expected
        for h, e in zip(hands, expected):
            assert per_call(h) == e
            shuffled = h[:]
            rng.shuffle(shuffled)
            assert per_call(tuple(shuffled)) == e
        for h, e in zip(hands[:2000], expected):
            assert per_call(ofc.cards_str(h)) == e
            assert ofc.rank(h) == e


def test_every_strength_reads_its_packed_description() -> None:
    """Regression: ``import ofc_fast`` spent about 6 ms (of each start) building the
    per-strength answers of ``category`` and ``hand_ranks`` one enum call and one
    filtered row at a time; they are now built from whole columns.  For every strength
    they are still the packed description of ``ofc_strength_info()``: its card count,
    its category (the very ``HandCategory`` member) and its ranks in reading order."""
    from ofc_fast._native import lib

    for s in range(1, ofc.STRENGTH_MAX + 1):
        info = lib.ofc_strength_info(s)
        n = info >> 24
        ranks = tuple((info >> shift) & 0xF for shift in (16, 12, 8, 4, 0))
        assert ofc.strength_cards(s) == n, s
        assert ofc.category(s) is ofc.HandCategory((info >> 20) & 0xF), s
        assert ofc.hand_ranks(s) == ranks[:n] and 0xF not in ranks[:n], s
        assert set(ranks[n:]) <= {0xF}, s
