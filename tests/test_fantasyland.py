"""fantasyland_cards() for every preset (R-FL-1/3/9/10, R-27-6/7, Q-10): entry
thresholds, progressive counts 14-17, 2-7 entry, every stay rule, "same" and "entry"
stay counts, and fouled boards never qualifying.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import reference_fantasyland as reference_fl

import ofc_fast as ofc
from ofc_fast import Board, fantasyland_cards, rules
from ofc_fast.rules import Fantasyland
from ofc_fast.rules import HandCategory as C

# Standard boards: middle 8-high straight, back diamond flush; neither stays.
MID = "4c 5d 6h 7s 8c"
BACK = "Ad Jd 9d 7d 3d"
FRONTS = {
    "JJ": "Jh Js Tc",
    "QQ": "Qh Qs 2c",
    "KK": "Kh Ks 2c",
    "AA": "Ah As 2c",
    "222": "2h 2s 2c",
    "AAA": "Ah As Ac",
    "high": "Kh Qh Tc",
}


def board(front: str, middle: str = MID, back: str = BACK) -> Board:
    b = Board.parse(f"{FRONTS.get(front, front)} / {middle} / {back}")
    assert len(set(b.cards)) == 13
    return b


# Boards that stay under some rule: each satisfies exactly one stay condition.
STAY_TRIPS_FRONT = board("222")  # trips front
STAY_FH_MIDDLE = board("QQ", "9c 9h 9s 5c 5h", "Ah Ac Kc Kh Ks")  # FH middle (and back)
STAY_QUADS_BACK = board("AA", MID, "Tc Td Th Ts 3d")  # quads back
STAY_SF_BACK = board("high", MID, "9s Ts Js Qs Ks")  # straight flush back
NO_STAY = board("AA")  # AA front only


def test_boards_are_legal() -> None:
    for b in [board(f) for f in FRONTS] + [
        STAY_TRIPS_FRONT,
        STAY_FH_MIDDLE,
        STAY_QUADS_BACK,
        STAY_SF_BACK,
    ]:
        assert not b.is_foul(rules.OFC), b
    e = STAY_FH_MIDDLE.evaluate(rules.OFC)
    assert ofc.category(e.strengths[1]) == C.FULL_HOUSE
    assert ofc.category(e.strengths[2]) == C.FULL_HOUSE  # FH back: no quads
    assert ofc.category(STAY_SF_BACK.evaluate().strengths[2]) == C.STRAIGHT_FLUSH


# ------------------------------------------------------------------------ entry

ENTRY = {
    # R-FL-1: QQ or better (QQ, KK, AA, any trips); R-FL-3 counts per game.
    "OFC": {"JJ": 0, "QQ": 13, "KK": 13, "AA": 13, "222": 13, "AAA": 13, "high": 0},
    "PINEAPPLE": {"JJ": 0, "QQ": 14, "KK": 14, "AA": 14, "222": 14, "AAA": 14, "high": 0},
    # R-FL-3 progressive: QQ 14, KK 15, AA 16, trips 17 (any trips, 2-2-2 included).
    "PROGRESSIVE_PINEAPPLE": {
        "JJ": 0,
        "QQ": 14,
        "KK": 15,
        "AA": 16,
        "222": 17,
        "AAA": 17,
        "high": 0,
    },
    "ULTIMATE_PINEAPPLE": {
        "JJ": 0,
        "QQ": 14,
        "KK": 15,
        "AA": 16,
        "222": 17,
        "AAA": 17,
        "high": 0,
    },
}


@pytest.mark.parametrize("name", sorted(ENTRY))
@pytest.mark.parametrize("front", sorted(FRONTS))
def test_entry(name: str, front: str) -> None:
    assert fantasyland_cards(board(front), rules.get(name)) == ENTRY[name][front]


def test_entry_threshold_is_any_pair_of_queens() -> None:
    """QQ with the lowest kicker qualifies; JJ with an ace kicker does not."""
    r = rules.PINEAPPLE
    assert fantasyland_cards(board("Qh Qs 2c"), r) == 14
    assert fantasyland_cards(board("Jh Js Ac", "4c 5d 6h 7s 8c", "Kd Jd 9d 7d 3d"), r) == 0


@pytest.mark.parametrize(
    "name",
    [
        "CLASSIC_1_6",
        "CLASSIC_2_4",
        "MALAYAN",
        "VIETNAMESE",
        "SINGAPORE",
        "HAWAIIAN_GARDENS",
    ],
)
def test_classic_presets_have_no_fantasyland(name: str) -> None:
    r = rules.get(name)
    assert r.fantasyland is None
    for b in (board("AAA"), STAY_QUADS_BACK):
        assert fantasyland_cards(b, r) == 0
        assert fantasyland_cards(b, r, in_fantasyland=True) == 0


# ------------------------------------------------------------------------- stay

STAY = {
    # (trips front, FH middle, quads back, SF back, AA front only)
    # [001] OFC "some play": quads+ back, FH middle, trips front -> 13.
    "OFC": (13, 13, 13, 13, 0),
    # PINEAPPLE as [003]: trips front, FH+ middle, quads+ back -> 14.
    "PINEAPPLE": (14, 14, 14, 14, 0),
    # [000] Progressive: quads+ back or trips front -> 14 (a FH middle alone: no).
    "PROGRESSIVE_PINEAPPLE": (14, 0, 14, 14, 0),
}


@pytest.mark.parametrize("name", sorted(STAY))
def test_stay(name: str) -> None:
    r = rules.get(name)
    got = tuple(
        fantasyland_cards(b, r, in_fantasyland=True)
        for b in (STAY_TRIPS_FRONT, STAY_FH_MIDDLE, STAY_QUADS_BACK, STAY_SF_BACK, NO_STAY)
    )
    assert got == STAY[name]
    # in_fantasyland may also be the card count of the hand
    assert fantasyland_cards(STAY_QUADS_BACK, r, in_fantasyland=14) == STAY[name][2]


@pytest.mark.parametrize("name", sorted(STAY))
def test_in_fantasyland_takes_numpy_bools(name: str) -> None:
    """``in_fantasyland=np.True_`` (a flag read from an array) was a RulesError
    saying it "must be False, True or ..."; NumPy's bools are True and False."""
    r = rules.get(name)
    for flag in (True, False):
        want = fantasyland_cards(STAY_QUADS_BACK, r, in_fantasyland=flag)
        assert fantasyland_cards(STAY_QUADS_BACK, r, in_fantasyland=np.bool_(flag)) == want


def test_stay_same_count_ultimate() -> None:
    """R-FL-10 Ultimate: stay on trips front or quads+ back with as many cards as this
    Fantasyland hand ("same")."""
    r = rules.ULTIMATE_PINEAPPLE
    assert r.fantasyland.stay_cards == "same"
    for cards in (14, 15, 16, 17):
        assert fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=cards) == cards
        assert fantasyland_cards(STAY_QUADS_BACK, r, in_fantasyland=cards) == cards
        assert fantasyland_cards(STAY_FH_MIDDLE, r, in_fantasyland=cards) == 0
        assert fantasyland_cards(NO_STAY, r, in_fantasyland=cards) == 0
    for bad in (True, 12, 18):
        with pytest.raises(ofc.RulesError, match="in_fantasyland"):
            fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=bad)


def test_in_fantasyland_takes_a_numpy_int() -> None:
    """A NumPy int card count is that count (as a Python int is); NumPy floats and
    bools, and counts outside 13..17, are still a RulesError."""
    import numpy as np

    r = rules.ULTIMATE_PINEAPPLE
    for cards in (14, 17):
        for n in (np.int64(cards), np.uint8(cards), np.int8(cards)):
            assert fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=n) == cards
    entry = fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=0)  # a normal hand
    assert fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=np.int64(0)) == entry
    for bad in (np.float64(14), np.int64(12), np.bool_(True)):
        with pytest.raises(ofc.RulesError, match="in_fantasyland"):
            fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=bad)  # type: ignore[arg-type]


def test_stay_entry_count() -> None:
    """stay_cards="entry": a stay deals as many cards as entering with this board;
    a stay whose front would not enter gets the smallest entry count."""
    fl = rules.PROGRESSIVE_PINEAPPLE.fantasyland.replace(stay_cards="entry")
    r = rules.PROGRESSIVE_PINEAPPLE.replace(fantasyland=fl)
    assert fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=True) == 17
    assert fantasyland_cards(STAY_QUADS_BACK, r, in_fantasyland=True) == 16  # AA front
    assert fantasyland_cards(STAY_SF_BACK, r, in_fantasyland=True) == 14  # K-high
    assert fantasyland_cards(NO_STAY, r, in_fantasyland=True) == 0


def test_stay_conditions_one_by_one() -> None:
    """A custom table that stays only on a flush-or-better middle."""
    fl = Fantasyland(
        entry=(("QQ", 14),),
        stay_front=None,
        stay_middle=C.FLUSH,
        stay_back=None,
        stay_cards=15,
    )
    r = rules.PINEAPPLE.replace(fantasyland=fl)
    assert fantasyland_cards(STAY_FH_MIDDLE, r, in_fantasyland=True) == 15
    assert fantasyland_cards(STAY_TRIPS_FRONT, r, in_fantasyland=True) == 0
    assert fantasyland_cards(STAY_QUADS_BACK, r, in_fantasyland=True) == 0


def test_stay_entry_count_with_lowball_only_entry() -> None:
    fl = Fantasyland(
        entry=(), lowball_entry=14, stay_front="222", stay_back=C.QUADS, stay_cards="entry"
    )
    r = rules.PINEAPPLE_27.replace(fantasyland=fl)
    stays = Board.parse("9c 9d 9h / 8d 7d 5h 3h 2h / Ts Js Qs 4s 5s")  # trips front
    assert not stays.is_foul(r)
    assert 13 <= fantasyland_cards(stays, r, in_fantasyland=True) <= 17


# ------------------------------------------------------------------------ fouls


@pytest.mark.parametrize("name", rules.names())
def test_fouled_boards_never_qualify(name: str) -> None:
    """Q-10: a fouled board never earns or keeps Fantasyland."""
    r = rules.get(name)
    # Trips aces in front over a pair of nines: fouled in every preset (2-7 too: the
    # middle has a pair).  Quads in the back would otherwise stay.
    b = Board.parse("Ah As Ac / 9c 9d 2h 3h 4d / Kc Kd Kh Ks 5c")
    assert b.is_foul(r)
    assert fantasyland_cards(b, r) == 0
    assert fantasyland_cards(b, r, in_fantasyland=True) == 0
    assert fantasyland_cards(b, r, in_fantasyland=15) == 0
    # KK front and a 7-5-4-3-2 middle, but the back (pair of sixes) is not above the
    # front: fouled under 2-7 (R-27-4) and under the high rules as well.
    b27 = Board.parse("Kh Ks 9h / 7c 5d 4h 3s 2d / 6c 6d Tc Jd Qh")
    assert b27.is_foul(r)
    assert fantasyland_cards(b27, r) == 0
    assert fantasyland_cards(b27, r, in_fantasyland=True) == 0


def test_incomplete_board_raises() -> None:
    with pytest.raises(ofc.BoardError, match="finished board"):
        fantasyland_cards(Board.parse("Qh Qs / 4c 5d / Ad"), rules.PINEAPPLE)


# ---------------------------------------------------------------------- 2-7 (R-27-6/7)

NUTS = "7c 5d 4h 3s 2d"  # 7-5-4-3-2, not one suit
NOT_NUTS = "8d 7d 5h 3h 2h"  # 8-high
B27 = "Ts Js Qs 4s 5s"  # spade flush: above any front, below quads


@pytest.mark.parametrize(
    "front, middle, want",
    [
        ("Kh Kd 9h", NOT_NUTS, 14),  # KK
        ("Ah Ad 9h", NOT_NUTS, 14),  # AA
        ("9c 9d 9h", NOT_NUTS, 14),  # trips
        ("Qh Qd 9h", NOT_NUTS, 0),  # QQ is not enough in 2-7
        ("Qh Qd 9h", NUTS, 14),  # 7-5-4-3-2 middle alone
        ("Kh Kd 9h", NUTS, 15),  # both (EX-16)
        ("9c 9d 9h", NUTS, 15),
        ("Jh 8c 6c", NUTS, 14),
        ("Jh 8c 6c", "7c 6d 4h 3s 2d", 0),  # 7-6-4-3-2: seven-high but not the nuts
    ],
)
def test_pineapple_27_entry(front: str, middle: str, want: int) -> None:
    r = rules.PINEAPPLE_27
    b = Board.parse(f"{front} / {middle} / {B27}")
    assert len(set(b.cards)) == 13
    assert not b.is_foul(r)
    assert fantasyland_cards(b, r) == want


def test_pineapple_27_suited_wheel_nuts_is_a_flush() -> None:
    """7-5-4-3-2 of one suit is a flush: it fouls the 2-7 middle, no Fantasyland."""
    b = Board.parse("Kh Kd 9h / 7c 5c 4c 3c 2c / Ts Js Qs 4s 5s")
    assert b.is_foul(rules.PINEAPPLE_27)
    assert fantasyland_cards(b, rules.PINEAPPLE_27) == 0


@pytest.mark.parametrize(
    "front, middle, back, want",
    [
        ("9c 9d 9h", NOT_NUTS, B27, 14),  # trips front
        ("Kh Kd 9h", NOT_NUTS, "6c 6d 6h 6s Tc", 14),  # quads back
        ("Kh Kd 9h", NOT_NUTS, "9s Ts Js Qs Ks", 14),  # straight flush back
        ("Kh Kd 9h", NUTS, B27, 0),  # entry conditions do not stay
        ("Ah Ad 9h", NOT_NUTS, "Kc Kd Kh 8c 8s", 0),  # FH back: not quads
    ],
)
def test_pineapple_27_stay(front: str, middle: str, back: str, want: int) -> None:
    """R-27-7: trips in front or quads or better in back -> another 14."""
    r = rules.PINEAPPLE_27
    b = Board.parse(f"{front} / {middle} / {back}")
    assert len(set(b.cards)) == 13
    assert not b.is_foul(r)
    assert fantasyland_cards(b, r, in_fantasyland=True) == want


def test_progressive_entry_is_best_threshold_met() -> None:
    """Fantasyland.entry docstring: "the best threshold met gives the cards".  With a
    table ordered the usual way this is also the largest count."""
    r = rules.PROGRESSIVE_PINEAPPLE
    assert fantasyland_cards(board("KK"), r) == 15


def test_entry_uses_best_threshold_not_largest_count() -> None:
    fl = Fantasyland(entry=(("QQ", 17), ("KK", 14)))
    r = rules.PINEAPPLE.replace(fantasyland=fl)
    assert fantasyland_cards(board("QQ"), r) == 17
    assert fantasyland_cards(board("KK"), r) == 14  # best threshold met: KK


# ------------------------------------------- against the independent reference


def _lowball_boards(rng: random.Random, n: int) -> list[list[int]]:
    """2-7 boards: a front from pairs and trips, a low unpaired middle (often
    7-5-4-3-2), a back of the remaining cards with a pair or better."""
    out = []
    for i in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        ranks = [0, 1, 2, 3, 5] if i % 3 == 0 else rng.sample(range(7), 5)
        middle = [4 * r + rng.randrange(4) for r in ranks]
        rest = [c for c in deck if c not in middle]
        r = rng.choice([c // 4 for c in rest if c // 4 >= 7])
        same = [c for c in rest if c // 4 == r][: 2 + (i % 4 == 1)]
        front = (same + [c for c in rest if c not in same])[:3]
        rest = [c for c in rest if c not in front]
        pair = [c for c in rest if c // 4 == rest[0] // 4][:3]
        back = (pair + [c for c in rest if c not in pair])[:5]
        out.append(front + middle + back)
    return out


def _qualifying_boards(rng: random.Random, n: int) -> list[list[int]]:
    """Random boards, half of them with a pair or trips in front and the rest stacked
    low to high, so entries, stays and fouls all occur often."""
    out = []
    for i in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        if i % 2:
            r = rng.randrange(13)
            same = [c for c in deck if c // 4 == r][: 2 + (i % 4 == 1)]
            rest = [c for c in deck if c not in same]
            front = (same + rest)[:3]
            others = sorted(
                (c for c in rest if c not in front), key=lambda c: c // 4 + rng.random() * 6
            )[-10:]
            out.append(front + others)
        else:
            cards = sorted(deck[:13], key=lambda c: c // 4 + rng.random() * 4)
            out.append(cards)
    return out


CUSTOM = {
    "best threshold": rules.PINEAPPLE.replace(
        fantasyland=Fantasyland(entry=(("QQ", 17), ("KK", 14), ("222", 15)))
    ),
    "stay entry": rules.PROGRESSIVE_PINEAPPLE.replace(
        fantasyland=rules.PROGRESSIVE_PINEAPPLE.fantasyland.replace(stay_cards="entry")
    ),
    "stay middle": rules.PINEAPPLE.replace(
        fantasyland=Fantasyland(
            entry=(("KK", 15),),
            stay_front=None,
            stay_middle=C.FLUSH,
            stay_back=None,
            stay_cards=16,
        )
    ),
    "2-7 entry stay": rules.PINEAPPLE_27.replace(
        fantasyland=Fantasyland(
            entry=(("AA", 16),),
            lowball_entry=14,
            lowball_both=17,
            stay_front="222",
            stay_back=C.QUADS,
            stay_cards="entry",
        )
    ),
    "2-7 no both": rules.PINEAPPLE_27.replace(
        fantasyland=Fantasyland(entry=(("KK", 14),), lowball_entry=15, stay_cards="same")
    ),
}
REFERENCE_RULES = {
    name: rules.get(name)
    for name in rules.names()
    if rules.get(name).fantasyland is not None
} | CUSTOM


@pytest.mark.parametrize("name", sorted(REFERENCE_RULES))
def test_against_reference(name: str) -> None:
    """fantasyland_cards (the C rule) equals the reference on random boards: entry and
    the stay of 13..17-card hands, fouled boards included."""
    r = REFERENCE_RULES[name]
    rng = random.Random(name)
    lowball = r.lowball is not None
    counts: dict[int, int] = {}
    boards = _lowball_boards(rng, 1500) if lowball else _qualifying_boards(rng, 1500)
    for cards in boards:
        b = Board.from_cards(cards)
        fouled = b.is_foul(r)
        for in_fl in (0, 14, 17):
            want = reference_fl.next_cards(r.fantasyland, cards, fouled, lowball, in_fl)
            arg = in_fl if in_fl else False
            assert fantasyland_cards(b, r, in_fantasyland=arg) == want, (str(b), in_fl)
            counts[want] = counts.get(want, 0) + 1
    assert counts.get(0, 0) > 100 and len(counts) >= 2, counts  # both kinds occurred
