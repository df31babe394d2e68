"""Naturals (R-NAT-1..7, R-VAR-MAL-3/4, R-VAR-VIET-3, R-VAR-SG-1..3, R-VAR-HG-1,
R-VAR-NOPIC-1): detection, tie-break keys and boards against the independent
reference (tests/support/reference_naturals.py), the presets' lists, natural-vs-natural
payments for every NaturalsRule, bad input."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

import pytest
import reference_naturals as ref

from ofc_fast import Board, CardError, RulesError, parse_cards, rules, settle
from ofc_fast._native import E_CARD, E_COUNT, E_DUPLICATE, OK, ffi, lib
from ofc_fast.rules import NATURAL_NAMES, Natural, NaturalsRule
from ofc_fast.scoring.naturals import (
    NaturalHand,
    detect_naturals,
    natural_payment,
    naturals,
)

PICTURES = (9, 10, 11)  # J, Q, K
BLACK, RED = (0, 3), (1, 2)
SPLIT_NATURALS = ("three_straights", "three_flushes", "three_straight_flushes")
KEYED = ("six_pairs",) + SPLIT_NATURALS
PRESETS_WITH_NATURALS = (
    rules.MALAYAN,
    rules.VIETNAMESE,
    rules.SINGAPORE,
    rules.HAWAIIAN_GARDENS,
)
TYPICAL = rules.CLASSIC_1_6.replace(name="TYPICAL", naturals=rules.TYPICAL_NATURALS)


# ----------------------------------------------------------------- generators


def from_ranks(rng: random.Random, ranks: list[int]) -> list[int] | None:
    """13 cards with these ranks and random suits (None: a rank held over 4 times)."""
    if any(ranks.count(r) > 4 for r in ranks):
        return None
    cards: list[int] = []
    for r in set(ranks):
        cards += [4 * r + s for s in rng.sample(range(4), ranks.count(r))]
    rng.shuffle(cards)
    return cards


def from_pool(rng: random.Random, pool: list[int], n: int = 13) -> list[int]:
    return rng.sample(pool, n)


def retry(make: Callable[[random.Random], list[int] | None]) -> Callable:
    def gen(rng: random.Random) -> list[int]:
        while True:
            cards = make(rng)
            if cards is not None and len(set(cards)) == 13:
                return cards

    return gen


def pairs_ranks(rng: random.Random, n: int, avoid: tuple[int, ...] = ()) -> list[int]:
    """Ranks of n pairs (a rank may give two pairs: a four of a kind)."""
    out: list[int] = []
    while len(out) < 2 * n:
        r = rng.randrange(13)
        if r not in avoid and out.count(r) <= 2:
            out += [r, r]
    return out


def straight5(top: int) -> list[int]:
    return [(top - j) % 13 for j in range(5)]  # top 3 = the wheel 5-4-3-2-A


def run3(top: int) -> list[int]:
    return [(top - j) % 13 for j in range(3)]  # top 1 = 3-2-A


@retry
def gen_six_pairs(rng):
    return from_ranks(rng, pairs_ranks(rng, 6) + [rng.randrange(13)])


@retry
def gen_five_pairs_trips(rng):
    t = rng.randrange(13)
    return from_ranks(rng, [t] * 3 + pairs_ranks(rng, 5, avoid=(t,)))


@retry
def gen_four_trips(rng):
    return from_ranks(
        rng, [r for r in rng.sample(range(13), 4) for _ in range(3)] + [rng.randrange(13)]
    )


@retry
def gen_three_quads(rng):
    return from_ranks(
        rng, [r for r in rng.sample(range(13), 3) for _ in range(4)] + [rng.randrange(13)]
    )


@retry
def gen_three_straights(rng):
    return from_ranks(
        rng,
        straight5(rng.randint(3, 12))
        + straight5(rng.randint(3, 12))
        + run3(rng.randint(1, 12)),
    )


@retry
def gen_three_flushes(rng):
    sb, sm, sf = (rng.randrange(4) for _ in range(3))
    cards: list[int] = []
    for suit, n in ((sb, 5), (sm, 5), (sf, 3)):
        free = [4 * r + suit for r in range(13) if 4 * r + suit not in cards]
        if len(free) < n:
            return None
        cards += rng.sample(free, n)
    return cards


@retry
def gen_three_straight_flushes(rng):
    cards = [
        4 * r + s
        for s, rows in (
            (rng.randrange(4), straight5(rng.randint(3, 12))),
            (rng.randrange(4), straight5(rng.randint(3, 12))),
            (rng.randrange(4), run3(rng.randint(1, 12))),
        )
        for r in rows
    ]
    return cards


def gen_twelve_one_colour(rng):
    major, minor = rng.choice(((BLACK, RED), (RED, BLACK)))
    pool = [c for c in range(52) if c % 4 in major]
    other = [c for c in range(52) if c % 4 in minor]
    return from_pool(rng, pool, 12) + from_pool(rng, other, 1)


def gen_one_colour(rng):
    colour = rng.choice((BLACK, RED))
    return from_pool(rng, [c for c in range(52) if c % 4 in colour])


def gen_ranks_between(low: int, high: int):
    return lambda rng: from_pool(rng, [c for c in range(52) if low <= c // 4 <= high])


def gen_twelve_pictures(rng):
    pictures = [c for c in range(52) if c // 4 in PICTURES]
    return pictures + [rng.choice([c for c in range(52) if c not in pictures])]


def gen_dragon(rng):
    return [4 * r + rng.randrange(4) for r in range(13)]


def gen_one_suit(rng):
    s = rng.randrange(4)
    return [4 * r + s for r in range(13)]


def gen_no_pictures(rng):
    return from_pool(rng, [c for c in range(52) if c // 4 not in PICTURES])


GENERATORS: dict[str, Callable[[random.Random], list[int]]] = {
    "six_pairs": gen_six_pairs,
    "three_straights": gen_three_straights,
    "three_flushes": gen_three_flushes,
    "five_pairs_trips": gen_five_pairs_trips,
    "four_trips": gen_four_trips,
    "twelve_one_colour": gen_twelve_one_colour,
    "one_colour": gen_one_colour,
    "small_2_8": gen_ranks_between(0, 6),
    "small_2_9": gen_ranks_between(0, 7),
    "small_2_10": gen_ranks_between(0, 8),
    "big_8_a": gen_ranks_between(6, 12),
    "three_quads": gen_three_quads,
    "three_straight_flushes": gen_three_straight_flushes,
    "twelve_pictures": gen_twelve_pictures,
    "dragon": gen_dragon,
    "one_suit": gen_one_suit,
    "no_pictures": gen_no_pictures,
}
# Hands per natural in the reference comparisons (one-suit and one-colour hands make
# many suited rows, so the brute-force reference is slow on them).
SAMPLES = {name: 40 for name in GENERATORS} | {
    "one_suit": 2,
    "one_colour": 10,
    "twelve_one_colour": 12,
    "three_flushes": 25,
}


def card_ids(text: str) -> list[int]:
    return parse_cards(text)


# -------------------------------------------------------------- comparison core


def check_against_reference(cards: list[int]) -> dict[str, NaturalHand]:
    """C detection == reference for the whole mask; every split natural's board is a
    split of these cards showing the natural with the reference's best key, and is
    legal whenever some split with that key is."""
    found = detect_naturals(cards)
    want = ref.naturals(cards)
    assert set(found) == set(want), (cards, sorted(found), sorted(want))
    best = ref.best_splits(cards) if any(n in found for n in SPLIT_NATURALS) else {}
    for name, hand in found.items():
        assert hand.units == 0
        if name in SPLIT_NATURALS:
            assert hand.board is not None and hand.board.is_complete
            assert sorted(hand.board.cards) == sorted(cards)
            shown = ref.split_keys(*hand.board.rows)
            assert name in shown and shown[name] == best[name][0], (name, str(hand.board))
            if any(not Board(*split).is_foul() for split in best[name][1]):
                assert not hand.board.is_foul(), (name, str(hand.board))
            assert hand.key > 0
        else:
            assert hand.board is None
            if name != "six_pairs":
                assert hand.key == 0  # R-NAT-5: no tie-break (dragons tie)
    return found


def check_key_order(samples: list[tuple[tuple, int]], name: str) -> None:
    """The C keys order the hands exactly as the reference keys do (R-NAT-5)."""
    by_ref: dict[tuple, set[int]] = {}
    for ref_key, key in samples:
        by_ref.setdefault(ref_key, set()).add(key)
    ordered = sorted(by_ref.items())
    for ref_key, keys in ordered:
        assert len(keys) == 1, (name, ref_key, keys)
    c_keys = [next(iter(keys)) for _, keys in ordered]
    assert c_keys == sorted(c_keys) and len(set(c_keys)) == len(c_keys), name


# ------------------------------------------------------------------ the tests


def test_reference_definitions() -> None:
    """The reference's runs (Q-8: A-2-3, Q-K-A, the wheel; no wrap-around) and its
    split enumeration (286 fronts x 252 middles)."""
    assert ref.run_top([12, 0, 1]) == 1 and ref.run_top([10, 11, 12]) == 12
    assert ref.run_top([11, 12, 0]) is None and ref.run_top([1, 1, 2]) is None
    assert ref.run_top([12, 0, 1, 2, 3]) == 3 and ref.run_top([8, 9, 10, 11, 12]) == 12
    assert ref.run_top([9, 10, 11, 12, 0]) is None
    assert len(ref.SPLITS) == 286 and sum(map(len, ref.SPLITS.values())) == 72_072
    for front, middles in ref.SPLITS.items():
        for middle, back in middles:
            assert front | middle | back == (1 << 13) - 1
            assert not front & middle and not middle & back and not front & back


def test_c_names_match_natural_names() -> None:
    assert lib.OFC_NAT_COUNT == len(NATURAL_NAMES) == len(ref.NAMES) == 17
    assert tuple(NATURAL_NAMES) == ref.NAMES
    for i, name in enumerate(NATURAL_NAMES):
        assert ffi.string(lib.ofc_natural_name(i)).decode() == name
        assert getattr(lib, "OFC_NAT_" + name.upper()) == i
    assert lib.ofc_natural_name(-1) == ffi.NULL
    assert lib.ofc_natural_name(17) == ffi.NULL


@pytest.mark.parametrize("name", list(GENERATORS))
def test_generated_hands_make_their_natural(name: str) -> None:
    """R-NAT-7 (and R-VAR-NOPIC-1): every generated hand of a natural is detected,
    and all its naturals, keys and boards agree with the reference."""
    rng = random.Random(f"natural {name}")
    for _ in range(SAMPLES[name]):
        cards = GENERATORS[name](rng)
        found = check_against_reference(cards)
        assert name in found, (name, cards)


@pytest.mark.parametrize("name", KEYED)
def test_tie_break_order_matches_reference(name: str) -> None:
    """R-NAT-5: six pairs by pairs from the highest down then the odd card; three
    straights by back, middle, front; three flushes by back, middle, front as
    high-card hands; three straight flushes like three straights."""
    rng = random.Random(f"keys {name}")
    samples = []
    for _ in range(100 if name == "three_flushes" else 150):
        cards = GENERATORS[name](rng)
        ref_key = ref.naturals(cards)[name]
        samples.append((ref_key, detect_naturals(cards)[name].key))
    check_key_order(samples, name)


def test_random_hands_against_reference() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        check_against_reference(rng.sample(range(52), 13))


def test_skewed_random_hands_against_reference() -> None:
    """Hands from a few ranks or two suits, where naturals and near misses are common."""
    rng = random.Random(7)
    for i in range(300):
        if i % 3 == 0:
            pool = [c for c in range(52) if c // 4 in rng.sample(range(13), 5)]
        elif i % 3 == 1:
            pool = [
                c
                for c in range(52)
                if c % 4 in rng.sample(range(4), 3) and c // 4 in rng.sample(range(13), 9)
            ]
        else:  # nine ranks, any suits: many three-straights candidates
            lo = rng.randint(0, 4)
            pool = [c for c in range(52) if lo <= c // 4 <= lo + 8 or c // 4 == 12]
        if len(pool) >= 13:
            check_against_reference(rng.sample(pool, 13))


def test_mutated_naturals_against_reference() -> None:
    """Near misses: a natural with one card swapped for another (a straight set missing
    a rank, a flush with one off-suit card, ...), each checked against the reference."""
    rng = random.Random(11)
    for name, gen in GENERATORS.items():
        if name in ("one_suit", "one_colour"):
            continue
        for _ in range(10):
            cards = gen(rng)
            out = rng.randrange(13)
            cards[out] = rng.choice([c for c in range(52) if c not in cards])
            check_against_reference(cards)


NEAR_MISSES = [
    # (cards, natural it just misses)
    ("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 8h 9h Th", "six_pairs"),  # 5 pairs + 3 odd
    ("2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 8h 9h", "five_pairs_trips"),  # trips + 4 pairs
    ("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 9h Th", "four_trips"),  # 3 trips + pair
    ("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5c 5d", "three_quads"),  # 2 quads + trips
    ("2d 3d 4d 5d 6d 7d 8h 9h Th Jh Qh Kc As", "twelve_one_colour"),  # 11 red
    ("2d 3d 4d 5d 6d 7d 8h 9h Th Jh Qh Kh As", "one_colour"),  # 12 red
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad", "one_suit"),  # 12 clubs
    ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc", "dragon"),  # no ace
    ("2c 3c 4c 5c 6c 7c 8c 2d 3d 4d 5d 6d 9d", "small_2_8"),  # a 9
    ("2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d Td", "small_2_9"),  # a 10
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc 2d 3d 4d Jd", "small_2_10"),  # a jack
    ("8c 9c Tc Jc Qc Kc Ac 8d 9d Td Jd Qd 7d", "big_8_a"),  # a 7
    ("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh 2c 3c", "twelve_pictures"),  # 11 pictures
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jd 2d 3d 4d", "no_pictures"),  # a jack
    # three straights: back T-A, middle 5-9, front 2-3 and a 4 missing (K instead)
    ("Tc Jd Qh Ks Ac 5c 6d 7h 8s 9c 2d 3h Kc", "three_straights"),
    # three straights with wrap-around front K-A-2 (not a run)
    ("Tc Jd Qh Ks Ac 3c 4d 5h 6s 7c Kd Ad 2c", "three_straights"),
    # three flushes: 5 clubs, 5 diamonds, 2 hearts + a spade
    ("2c 5c 7c 9c Jc 3d 6d 8d Td Qd 4h Kh As", "three_flushes"),
    # suit counts 4 / 4 / 5: no three flushes
    ("2c 5c 7c 9c 3d 6d 8d Td 4h 7h 9h Jh Ah", "three_flushes"),
    # straight flushes: back royal, middle 5-9 hearts with the 9 of spades, front 2-3-4
    ("Ts Js Qs Ks As 5h 6h 7h 8h 9s 2d 3d 4d", "three_straight_flushes"),
]


@pytest.mark.parametrize("text, missed", NEAR_MISSES)
def test_near_misses(text: str, missed: str) -> None:
    cards = card_ids(text)
    found = check_against_reference(cards)
    assert missed not in found


CRAFTED = [
    # (cards, {natural: expected key or None to only require presence})
    ("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s", {"six_pairs": 0x5432107}),
    # a four of a kind is two pairs; the odd card is the deuce
    ("Ac Ad Ah As Kc Kd Qc Qd Jc Jd Tc Td 2c", {"six_pairs": 0xCCBA980}),
    # five pairs + trips is six pairs too (the trips give a pair and the odd card)
    (
        "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d",
        {"six_pairs": 0x5432100, "five_pairs_trips": 0},
    ),
    # three quads + a card is six pairs, not four trips
    ("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s As", {"three_quads": 0, "six_pairs": 0x221100C}),
    # a four of a kind counts as trips
    ("2c 2d 2h 2s 3c 3d 3h 4c 4d 4h 5c 5d 5h", {"four_trips": 0}),
    # the wheel A-2-3-4-5 and the front Q-K-A: back 6-T, middle the wheel
    (
        "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Qh Ks Ad",
        {"three_straights": (8 << 8) | (3 << 4) | 12},
    ),
    # front A-2-3: back T-A, middle 4-8
    (
        "Tc Jd Qh Ks Ac 4c 5d 6h 7s 8c Ad 2h 3s",
        {"three_straights": (12 << 8) | (6 << 4) | 1},
    ),
    # the dragon always makes three straights: T-A, 5-9, 2-3-4
    ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", {"dragon": 0, "three_straights": 0xC72}),
    (
        "Ts Js Qs Ks As 5h 6h 7h 8h 9h 2d 3d 4d",
        {"three_straight_flushes": 0xC72, "three_flushes": None, "three_straights": 0xC72},
    ),
    # two rows of one suit (ten spades), front hearts
    ("2s 4s 5s 7s 8s 9s Ts Js Ks As 2h 7h 9h", {"three_flushes": None}),
    (
        "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c",
        {"twelve_pictures": 0, "three_quads": 0, "six_pairs": None},
    ),
    ("8c 9c Tc Jc Qc Kc Ac 8d 9d Td Jd Qd Kd", {"big_8_a": 0, "six_pairs": 0xBA9876C}),
]


@pytest.mark.parametrize("text, expected", CRAFTED)
def test_crafted_hands(text: str, expected: dict[str, int | None]) -> None:
    found = check_against_reference(card_ids(text))
    for name, key in expected.items():
        assert name in found, name
        if key is not None:
            assert found[name].key == key, (name, hex(found[name].key), hex(key))


def test_three_flushes_tie_break_examples() -> None:
    """R-NAT-5: the back flush decides first, then the middle, then the front."""

    def key(text: str) -> int:
        return detect_naturals(text)["three_flushes"].key

    base = key("As 9s 7s 5s 3s Kh Jh 9h 7h 5h Qd Td 8d")
    better_back = key("As Ts 7s 5s 3s Kh Jh 9h 7h 2h Qd 9d 8d")
    better_middle = key("As 9s 7s 5s 3s Kh Qh 9h 7h 5h Jd Td 8d")
    better_front = key("As 9s 7s 5s 3s Kh Jh 9h 7h 5h Qd Td 9d")
    assert better_back > better_middle > better_front > base


def test_three_straights_best_split_chosen() -> None:
    """R-NAT-5: of the splits of 2..K + a second 4 (8-Q / 3-7 / K-A? no; 9-K / 4-8 /
    2-3-4; 9-K / 2-6 / 3-4-... no) the board shows the best: 9-K, 4-8, 2-3-4."""
    cards = card_ids("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks 4c")
    found = check_against_reference(cards)
    assert found["three_straights"].key == (11 << 8) | (6 << 4) | 2
    board = "4c 3d 2c / 8h 7d 6c 5s 4h / Ks Qh Jd Tc 9s"  # equal ranks: back first
    assert str(found["three_straights"].board) == board


def test_straights_board_avoids_middle_straight_flush_foul() -> None:
    """A middle straight flush above a plain back straight would foul the board shown:
    a middle card is exchanged for one of the same rank (the key is unchanged)."""
    found = check_against_reference(card_ids("Tc Jd Qh Ks Ac 5s 6s 7s 8s 9s 3c 4c 5c"))
    b = found["three_straights"].board
    assert found["three_straights"].key == (12 << 8) | (7 << 4) | 3
    assert str(b) == "5s 4c 3c / 9s 8s 7s 6s 5c / Ac Ks Qh Jd Tc" and not b.is_foul()
    # no card to exchange (5-9 only once each): the back becomes a straight flush
    found = check_against_reference(card_ids("7h 8h 9h Td Jd Ac 2c 3c 4c 5c 7d 8d 9d"))
    b = found["three_straights"].board
    assert str(b) == "9h 8h 7h / 5c 4c 3c 2c Ac / Jd Td 9d 8d 7d" and not b.is_foul()
    # a dragon whose 5-9 are all hearts: every split with the best key fouls
    found = check_against_reference(card_ids("Tc Jd Qh Ks Ac 5h 6h 7h 8h 9h 2d 3h 4c"))
    assert found["three_straights"].board.is_foul()


@pytest.mark.parametrize("preset", PRESETS_WITH_NATURALS + (TYPICAL,), ids=lambda r: r.name)
def test_every_preset_natural_detected(preset) -> None:
    """R-NAT-7 / R-VAR-MAL-3 / R-VAR-VIET-3 / R-VAR-SG-2 / R-VAR-HG-1: each natural of
    the preset's list is found with the preset's units; the list comes best first
    (later in rules.naturals = higher)."""
    rng = random.Random(preset.name)
    order = [n.name for n in preset.naturals]
    units = {n.name: n.units for n in preset.naturals}
    for nat in preset.naturals:
        cards = GENERATORS[nat.name](rng)
        got = naturals(cards, preset)
        names = [n.name for n in got]
        assert nat.name in names
        assert names == sorted(names, key=order.index, reverse=True)
        assert set(names) == {n for n in detect_naturals(cards) if n in units}
        for n in got:
            assert n.units == units[n.name]
            assert n.key == detect_naturals(cards)[n.name].key


def test_no_naturals_in_ofc_presets() -> None:
    """R-NAT-1: naturals are optional; the OFC presets play none."""
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    assert naturals(dragon, rules.OFC) == []
    assert naturals(dragon, rules.CLASSIC_1_6) == []


def test_input_forms() -> None:
    text = "Ts Js Qs Ks As 5h 6h 7h 8h 9h 2d 3d 4d"
    ids = card_ids(text)
    board = Board(ids[10:], ids[5:10], ids[:5])
    want = naturals(text, rules.MALAYAN)
    assert naturals(ids, rules.MALAYAN) == want
    assert naturals(tuple(ids), rules.MALAYAN) == want
    assert naturals(board, rules.MALAYAN) == want
    assert naturals(str(board), rules.MALAYAN) == want
    assert want[0] == NaturalHand(
        "three_straight_flushes",
        18,
        0xC72,
        Board.parse("4d 3d 2d / 9h 8h 7h 6h 5h / As Ks Qs Js Ts"),
    )


@pytest.mark.parametrize(
    "cards, message",
    [
        ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks", "exactly 13 cards, got 12"),
        ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac Ad", "exactly 13 cards, got 14"),
        ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ks", "duplicate card Ks"),
        ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Xx", "bad card 'Xx'"),
        (list(range(12)) + [52], "bad card id 52"),
        (list(range(12)) + [-1], "bad card id -1"),
        (list(range(12)) + [11], "duplicate card 4s"),
        ([], "exactly 13 cards, got 0"),
        (None, "bad cards"),
    ],
)
def test_bad_input(cards, message: str) -> None:
    with pytest.raises(CardError, match=message):
        naturals(cards, rules.SINGAPORE)
    with pytest.raises(CardError, match=message):
        detect_naturals(cards)


def test_c_error_codes() -> None:
    out = ffi.new("ofc_naturals_result *")
    good = bytes(range(13))
    assert lib.ofc_naturals(good, out) == OK
    assert lib.ofc_naturals(bytes(range(12)) + b"\x34", out) == E_CARD
    assert lib.ofc_naturals(bytes(range(12)) + b"\x05", out) == E_DUPLICATE
    # whichever problem comes first in card order
    assert lib.ofc_naturals(b"\x05" + bytes(range(11)) + b"\xff", out) == E_DUPLICATE
    assert lib.ofc_naturals(b"\xff" + bytes(range(11)) + b"\x05", out) == E_CARD
    assert lib.ofc_naturals(ffi.NULL, out) == E_COUNT
    assert lib.ofc_naturals(good, ffi.NULL) == E_COUNT


# ------------------------------------------------------------------- payments


def hand(text: str, preset, name: str | None = None) -> NaturalHand:
    """The best natural of the cards under the preset (or the one named)."""
    found = naturals(text, preset)
    if name is None:
        return found[0]
    return next(n for n in found if n.name == name)


DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
DRAGON_2 = "2d 3c 4s 5h 6d 7c 8s 9h Td Jc Qs Kh Ad"
SIX_PAIRS = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Kh"
SIX_PAIRS_HIGH = "Ac Ad 3h 3s 4h 4s 5h 5s 6h 6s 7h 7s Ks"
THREE_STRAIGHTS = "Tc Jd Qh Ks Ac 4c 5d 6h 7s 8c Ad 2h 3s"
THREE_FLUSHES = "2c 5c 7c 9c Jc 3d 6d 8d Td Qd 4h 9h Ah"
FOUR_TRIPS = "2c 2d 2h 3c 3d 3h 4c 4d 4h 9c 9d 9h As"
SMALL_2_9 = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d"
ONE_SUIT = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
ONE_COLOUR = "2h 3h 4h 5h 6h 7h 8h 9d Td Jd Qd Kd Kh"
TWELVE_COLOUR = "2h 3h 4h 5h 6h 7h 8h 9d Td Jd Qd Kd Ks"


def test_payment_natural_against_ordinary_hand() -> None:
    """R-NAT-2 / R-VAR-MAL-4: a natural beats any ordinary hand and wins its units."""
    for preset in PRESETS_WITH_NATURALS + (TYPICAL,):
        for text in (DRAGON, SIX_PAIRS):
            n = hand(text, preset)
            assert natural_payment(n, None, preset) == n.units > 0
            assert natural_payment(None, n, preset) == -n.units
    assert natural_payment(None, None, rules.MALAYAN) == 0


def test_payment_typical_higher_full() -> None:
    """R-NAT-6 typical: the higher natural (later in the list) wins its full value;
    the same natural goes by the R-NAT-5 tie-break; exact ties pay nothing."""
    assert TYPICAL.naturals_rule is NaturalsRule.HIGHER_FULL
    straights = hand(THREE_STRAIGHTS, TYPICAL, "three_straights")
    pairs = hand(SIX_PAIRS, TYPICAL)
    assert natural_payment(straights, pairs, TYPICAL) == 3
    assert natural_payment(pairs, straights, TYPICAL) == -3
    flushes = hand(THREE_FLUSHES, TYPICAL)
    assert flushes.name == "three_flushes"
    assert natural_payment(flushes, straights, TYPICAL) == 3
    dragon = hand(DRAGON, TYPICAL)
    assert natural_payment(flushes, dragon, TYPICAL) == -13
    assert natural_payment(dragon, pairs, TYPICAL) == 13
    high = hand(SIX_PAIRS_HIGH, TYPICAL)
    assert high.name == "six_pairs" and high.key > pairs.key
    assert natural_payment(high, pairs, TYPICAL) == 3
    assert natural_payment(pairs, high, TYPICAL) == -3
    assert natural_payment(dragon, hand(DRAGON_2, TYPICAL), TYPICAL) == 0  # dragons tie
    assert natural_payment(pairs, pairs, TYPICAL) == 0


def test_payment_singapore_equal_claims_cancel() -> None:
    """R-VAR-SG-3: two 3-unit claims pay nothing; R-VAR-SG-1: the dragon is always
    paid in full."""
    sg = rules.SINGAPORE
    assert sg.naturals_rule is NaturalsRule.HIGHER_FULL_EQUAL_CANCEL
    pairs, flushes = hand(SIX_PAIRS, sg), hand(THREE_FLUSHES, sg)
    small = hand(SMALL_2_9, sg, "small_2_9")
    straights = hand(THREE_STRAIGHTS, sg, "three_straights")
    for a in (pairs, flushes, small, straights):
        for b in (pairs, flushes, small, straights):
            assert natural_payment(a, b, sg) == 0
    dragon = hand(DRAGON, sg)
    assert dragon.name == "dragon"
    for b in (pairs, flushes, small, straights):
        assert natural_payment(dragon, b, sg) == 13
        assert natural_payment(b, dragon, sg) == -13
    assert natural_payment(dragon, hand(DRAGON_2, sg), sg) == 0
    # the dragon is paid in full even when a house values another claim as high
    sg26 = sg.replace(naturals=(Natural("six_pairs", 13), Natural("dragon", 13)))
    assert natural_payment(hand(DRAGON, sg26), hand(SIX_PAIRS, sg26), sg26) == 13
    assert natural_payment(hand(SIX_PAIRS, sg26), hand(DRAGON, sg26), sg26) == -13


def test_payment_malayan_difference() -> None:
    """R-VAR-MAL-4: the higher-valued natural wins the difference of the values."""
    mal = rules.MALAYAN
    trips, pairs = hand(FOUR_TRIPS, mal), hand(SIX_PAIRS_HIGH, mal)
    assert (trips.name, trips.units, pairs.name, pairs.units) == (
        "four_trips",
        6,
        "six_pairs",
        4,
    )
    assert natural_payment(trips, pairs, mal) == 2
    assert natural_payment(pairs, trips, mal) == -2
    straights, flushes = hand(THREE_STRAIGHTS, mal), hand(THREE_FLUSHES, mal)
    assert (straights.units, flushes.units) == (4, 3)
    assert natural_payment(flushes, straights, mal) == -1
    assert natural_payment(straights, pairs, mal) == 0  # equal values
    suit = hand(ONE_SUIT, mal)
    assert (suit.name, suit.units) == ("one_suit", 26)
    assert natural_payment(suit, trips, mal) == 20


def test_payment_hawaiian_gardens_difference() -> None:
    """R-VAR-HG-1: the lower-valued pays the difference; equal values pay nothing."""
    hg = rules.HAWAIIAN_GARDENS
    dragon, flushes = hand(DRAGON, hg), hand(THREE_FLUSHES, hg)
    assert (dragon.units, flushes.units) == (13, 4)
    assert natural_payment(dragon, flushes, hg) == 9
    assert natural_payment(flushes, dragon, hg) == -9
    suit = hand(ONE_SUIT, hg)
    assert natural_payment(suit, dragon, hg) == 39 - 13
    colour, twelve = hand(ONE_COLOUR, hg), hand(TWELVE_COLOUR, hg)
    assert (colour.name, twelve.name) == ("one_colour", "twelve_one_colour")
    assert natural_payment(colour, twelve, hg) == 2
    assert natural_payment(twelve, hand(SIX_PAIRS, hg), hg) == 0


def test_payment_vietnamese_higher_full() -> None:
    """R-VAR-VIET-3 / Q-9: comparison unstated; the preset uses the typical rule."""
    vn = rules.VIETNAMESE
    assert vn.naturals_rule is NaturalsRule.HIGHER_FULL
    fpt = hand("2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d Kc Kd", vn)
    assert fpt.name == "five_pairs_trips"
    assert natural_payment(fpt, hand(THREE_FLUSHES, vn), vn) == 6
    assert natural_payment(hand(DRAGON, vn), fpt, vn) == 13


@pytest.mark.parametrize("preset", PRESETS_WITH_NATURALS + (TYPICAL,), ids=lambda r: r.name)
def test_payment_antisymmetric(preset) -> None:
    rng = random.Random(preset.name)
    hands = [None] + [
        naturals(GENERATORS[n.name](rng), preset)[0]
        for n in preset.naturals
        for _ in range(2)
    ]
    for a, b in combinations(hands, 2):
        assert natural_payment(a, b, preset) == -natural_payment(b, a, preset)


def test_payment_natural_not_played() -> None:
    dragon = hand(DRAGON, rules.SINGAPORE)
    with pytest.raises(RulesError, match="'dragon' is not played under MALAYAN"):
        natural_payment(dragon, None, rules.MALAYAN)


@pytest.mark.parametrize("bad", ["six_pairs", 5, ("six_pairs", 0), object()])
def test_natural_payment_refuses_what_is_not_a_natural_hand(bad: object) -> None:
    """Anything but a NaturalHand or None is a RulesError naming it, not an
    AttributeError from reading ``.name``."""
    with pytest.raises(RulesError, match="NaturalHand"):
        natural_payment(bad, None, rules.MALAYAN)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="NaturalHand"):
        natural_payment(None, bad, rules.MALAYAN)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "key"),
    [("dragon", 1.5), ("dragon", "x"), ("dragon", None), ("dragon", True), (["x"], 0)],
)
def test_natural_payment_refuses_a_hand_built_natural_of_the_wrong_types(
    name: object, key: object
) -> None:
    """A NaturalHand built by hand with a key that is no int (1.5, "x", None) was a
    TypeError (from cffi, or comparing it with 0), a bool key counted as 1, and a
    list name a TypeError (unhashable): each is a RulesError naming the field."""
    bad = NaturalHand(name, 13, key)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="natural"):
        natural_payment(bad, None, rules.SINGAPORE)
    with pytest.raises(RulesError, match="natural"):
        natural_payment(None, bad, rules.SINGAPORE)


def test_natural_payment_reads_a_numpy_key_as_its_int() -> None:
    """A NaturalHand whose key is a NumPy int (a key kept in an array) was refused
    ("key np.uint32(...) is not an int within 0..2**32-1"); it now breaks ties as the
    same Python int: under VIETNAMESE (the higher natural takes its full units,
    R-NAT-6) the higher six pairs (R-NAT-5) wins 3 units."""
    import numpy as np

    viet = rules.VIETNAMESE
    assert viet.naturals_rule is NaturalsRule.HIGHER_FULL
    low = NaturalHand("six_pairs", 3, 0x1111110)
    for key_type in (np.uint32, np.int64):
        high = NaturalHand("six_pairs", 3, key_type(0x2222220))  # type: ignore[arg-type]
        assert natural_payment(high, low, viet) == 3
        assert natural_payment(low, high, viet) == -3
    too_big = NaturalHand("six_pairs", 3, np.uint64(2**32))  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="key"):
        natural_payment(too_big, low, viet)


# R-NAT-4, the usual list, with its units: written out here, the reference
USUAL_UNITS = {"six_pairs": 3, "three_straights": 3, "three_flushes": 3, "dragon": 13}


@pytest.mark.parametrize("name", sorted(USUAL_UNITS))
def test_a_natural_listed_without_units_pays_its_usual_value(name: str) -> None:
    """A natural a rule set lists without its units (``{"name": "six_pairs"}`` in a
    rules file, ``Natural("six_pairs")``) paid 13, the complete straight's value, which
    no list of R-NAT-7 gives six pairs, three straights or three flushes: it pays its
    value in the usual list (R-NAT-4), and settle(declared=...) collects that much."""
    doc = {"game": "classic", "naturals": [{"name": name}]}
    for made in (
        rules.RuleSet.from_dict(doc),
        rules.CLASSIC_1_6.replace(naturals=[Natural(name)]),
    ):
        assert [(n.name, n.units) for n in made.naturals] == [(name, USUAL_UNITS[name])]
    hands = {
        "six_pairs": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 8c 8d Kh",
        "three_straights": "2h 3h 4c 5d 6d 7h 8h 9c 3c 4h 5h 6s 7d",
        "three_flushes": "2c 5c 8c Jc Qc 2d 5d 8d Jd Kd 3h 6h Qh",
        "dragon": "2c 3d 4h 5s 6c 7d 8h 9c Tc Jd Qh Kh Ac",
    }
    other = "Ah Ad Kc / 9s 9h 9d 7s 7c / As Ks Qs Js Ts"
    res = settle([hands[name], other], rules.RuleSet.from_dict(doc), declared={0: name})
    assert res.net == [USUAL_UNITS[name], -USUAL_UNITS[name]]


@pytest.mark.parametrize("name", [n for n in NATURAL_NAMES if n not in USUAL_UNITS])
def test_a_natural_outside_the_usual_list_needs_its_units(name: str) -> None:
    """A natural of no usual list (R-NAT-7's regional ones, no_pictures) has no value
    the library could take for granted (R-NAT-1: the players agree on it): listed
    without units it is refused, naming the key, where it paid 13."""
    with pytest.raises(RulesError, match=r"^naturals\[0\]\.units: .*R-NAT-1"):
        rules.RuleSet.from_dict({"game": "classic", "naturals": [{"name": name}]})
    with pytest.raises(RulesError, match=r"^units: "):
        Natural(name)
    assert Natural(name, 7).units == 7
