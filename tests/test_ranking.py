"""Cards, ranking and batch API: parsing and formatting, errors, describe(), categories,
Cactus Kev and treys interop, 2-7 values, NumPy batch calls and threads.

Expected values come from the conventions in docs/design.md (card id = 4*rank + suit), from
published facts (Cactus Kev numbering and card ints, category class counts) or from the
independent reference in tests/support/reference.py, never from the library's own output.
"""

from __future__ import annotations

import random
import re
import threading
from collections import Counter

import numpy as np
import pytest
import reference as ref

import ofc_fast as ofc
from ofc_fast import (
    ArrayError,
    CardError,
    HandCategory,
    StrengthError,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NAMES = [RANKS[c // 4] + SUITS[c % 4] for c in range(52)]
SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

ALL_STRENGTHS = range(1, ofc.STRENGTH_MAX + 1)


def five_card_strengths() -> list[int]:
    return [s for s in ALL_STRENGTHS if ofc.strength_cards(s) == 5]


def three_card_strengths() -> list[int]:
    return [s for s in ALL_STRENGTHS if ofc.strength_cards(s) == 3]


def has_word(message: str, word: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?!\w)", message) is not None


# --- cards ------------------------------------------------------------------------


def test_card_ids_follow_the_convention() -> None:
    """Card id = 4*rank + suit: 2c = 0, 2s = 3, As = 51, Td = 33, Kd = 45."""
    assert [parse_card(t) for t in ("2c", "2d", "2h", "2s", "3c", "Td", "Kd", "As")] == [
        0,
        1,
        2,
        3,
        4,
        33,
        45,
        51,
    ]


@pytest.mark.parametrize("card", range(52))
def test_every_card_round_trips(card: int) -> None:
    name = NAMES[card]
    assert card_str(card) == name
    assert parse_card(name) == card
    assert parse_card(name.lower()) == card
    assert parse_card(name.upper()) == card
    assert parse_card(name[0] + SYMBOLS[name[1]]) == card
    assert parse_card(card) == card
    assert parse_card(np.int64(card)) == card
    assert parse_card(np.uint8(card)) == card
    assert card_str(np.int32(card)) == name
    if name[0] == "T":
        assert parse_card("10" + name[1]) == card
        assert parse_card("10" + SYMBOLS[name[1]]) == card


def test_ten_written_10_prints_as_T() -> None:
    assert card_str(parse_card("10d")) == "Td"
    assert cards_str(parse_cards("10h 10s")) == "Th Ts"


def test_suit_symbols() -> None:
    assert parse_cards("A♠ K♥ Q♦ J♣ 10♠") == [51, 46, 41, 36, 35]


@pytest.mark.parametrize(
    "text",
    [
        "As Kd Qh",
        "As,Kd,Qh",
        "As, Kd, Qh",
        "As-Kd-Qh",
        "As - Kd - Qh",
        "AsKdQh",
        "  As Kd Qh  ",
        "As\tKd\nQh",
        "as kd qh",
        "AS KD QH",
        "AsKd Qh",
        "A♠ K♦ Q♥",
        "A♠K♦Q♥",
    ],
)
def test_parse_cards_separators(text: str) -> None:
    assert parse_cards(text) == [51, 45, 42]


def test_parse_cards_concatenated_tens() -> None:
    assert parse_cards("10h10d") == [34, 33]
    assert parse_cards("As Kd, 10h-2c") == [51, 45, 34, 0]  # design.md card ids, docstring


def test_all_52_cards_as_text_round_trip() -> None:
    text = cards_str(range(52))
    assert text == " ".join(NAMES)
    assert parse_cards(text) == list(range(52))
    assert parse_cards(text.replace(" ", "")) == list(range(52))


def test_parse_cards_sequences() -> None:
    assert parse_cards([51, "Kd", np.int16(42)]) == [51, 45, 42]
    assert parse_cards((51, 45)) == [51, 45]
    assert parse_cards(np.array([51, 45], dtype=np.uint8)) == [51, 45]


@pytest.mark.parametrize(
    "bad", ["Zz", "1s", "11s", "A", "Ass", "Ax", "Xs", "a s", "", "0s", "As/"]
)
def test_parse_card_bad_text(bad: str) -> None:
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert repr(bad) in str(e.value)


@pytest.mark.parametrize(
    "bad, word",
    [
        (52, "52"),
        (-1, "-1"),
        (10**30, str(10**30)),
        (2**64, str(2**64)),
        (None, "None"),
        (1.5, "1.5"),
        (True, "True"),
        (False, "False"),
        (np.int64(52), "52"),
        (np.int8(-1), "-1"),
    ],
)
def test_bad_card_ids(bad: object, word: str) -> None:
    """Ids outside 0..51, non-ints and bools (True would silently mean 2d) are refused
    by parse_card, card_str, cards_str, to_treys and parse_cards, naming the value."""
    for fn in (
        parse_card,
        card_str,
        ofc.to_treys,
        lambda c: cards_str([0, c]),
        lambda c: parse_cards([0, c]),
    ):
        with pytest.raises(CardError) as e:
            fn(bad)
        assert word in str(e.value), str(e.value)


def test_card_str_refuses_text() -> None:
    with pytest.raises(CardError):
        card_str("As")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["As Kd Zz", "AsK", "As/Kd", "As Kd 1h", "AsKdX"])
def test_parse_cards_bad_text(bad: str) -> None:
    with pytest.raises(CardError) as e:
        parse_cards(bad)
    assert "bad card" in str(e.value)


@pytest.mark.parametrize("bad", [None, 5, 3.0, object()])
def test_parse_cards_not_cards(bad: object) -> None:
    with pytest.raises(CardError):
        parse_cards(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("cards", ["As As", "As Kd as", [51, 51], ["As", 51], "AsAs"])
def test_parse_cards_duplicates(cards: object) -> None:
    with pytest.raises(CardError) as e:
        parse_cards(cards)  # type: ignore[arg-type]
    assert "duplicate" in str(e.value).lower() and "As" in str(e.value)


def test_errors_are_value_errors() -> None:
    for exc in (CardError, ArrayError, StrengthError):
        assert issubclass(exc, ValueError)


# --- rank5 / rank3 / rank inputs ----------------------------------------------------


@pytest.mark.parametrize("fn, n", [(ofc.rank5, 5), (ofc.rank3, 3)])
def test_rank_bad_ids(fn, n: int) -> None:
    good = list(range(0, 4 * n, 4))  # 2c 3c 4c ...
    for bad, word in [
        (52, "52"),
        (-1, "-1"),
        (255, "255"),
        (256, "256"),
        (2**32 + 1, str(2**32 + 1)),
        (10**30, str(10**30)),
        (None, "None"),
        (2.0, "2.0"),
        ("Zz", "Zz"),
        (np.int64(52), "52"),
    ]:
        for container in (list, tuple):
            with pytest.raises(CardError) as e:
                fn(container(good[:-1] + [bad]))
            assert word in str(e.value), (bad, str(e.value))


@pytest.mark.parametrize(
    "fn, n",
    [(ofc.rank5, 5), (ofc.rank3, 3), (ofc.rank, 5), (ofc.rank, 3), (parse_cards, 5)],
)
def test_rank_refuses_bool_ids(fn, n: int) -> None:
    """A bool is not a card id: parse_card(True) is refused (it would silently mean
    2d), so rank5/rank3 must refuse it too, not rank [4c, 5c, 6c, 7c, True] as if
    True were 2d."""
    for flag in (True, False):
        for container in (list, tuple):
            cards = container(list(range(8, 8 + 4 * (n - 1), 4)) + [flag])
            with pytest.raises(CardError) as e:
                fn(cards)
            assert str(flag) in str(e.value)


@pytest.mark.parametrize("fn, n", [(ofc.rank5, 5), (ofc.rank3, 3)])
def test_rank_wrong_count(fn, n: int) -> None:
    """The message names the expected and the actual count."""
    for k in (0, 1, n - 1, n + 1, 13):
        hand = [NAMES[51 - 4 * i] for i in range(k)]  # As Ks Qs ...
        for cards in (" ".join(hand), [parse_card(c) for c in hand]):
            with pytest.raises(CardError) as e:
                fn(cards)
            msg = str(e.value)
            assert has_word(msg, str(n)) and has_word(msg, str(k)), msg


@pytest.mark.parametrize(
    "fn, cards",
    [
        (ofc.rank5, [0, 4, 8, 12, 12]),
        (ofc.rank5, "As Ks Qs Js As"),
        (ofc.rank5, (5, 5, 1, 2, 3)),
        (ofc.rank3, [0, 0, 4]),
        (ofc.rank3, "Kh Kh 2c"),
        (ofc.rank, [7, 7, 8]),
        (ofc.rank, "As Ks Qs Js Js"),
    ],
)
def test_rank_duplicates(fn, cards) -> None:
    with pytest.raises(CardError) as e:
        fn(cards)
    assert "duplicate" in str(e.value).lower()


@pytest.mark.parametrize("bad", [None, 5, 2.5, object()])
def test_rank_not_cards(bad: object) -> None:
    for fn in (ofc.rank5, ofc.rank3, ofc.rank):
        with pytest.raises(CardError):
            fn(bad)  # type: ignore[arg-type]


def test_rank_needs_3_or_5() -> None:
    for k in (0, 1, 2, 4, 6, 13):
        with pytest.raises(CardError) as e:
            ofc.rank(list(range(k)))
        assert has_word(str(e.value), str(k))


def test_text_lists_tuples_numpy_give_equal_results() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        for n, fn in ((5, ofc.rank5), (3, ofc.rank3)):
            ids = rng.sample(range(52), n)
            s = fn(ids)
            assert fn(tuple(ids)) == s
            assert fn(cards_str(ids)) == s
            assert fn(",".join(NAMES[c] for c in ids)) == s
            assert fn("".join(NAMES[c] for c in ids)) == s
            assert fn([NAMES[c] for c in ids]) == s
            assert fn([np.int64(c) for c in ids]) == s
            assert fn(np.array(ids, dtype=np.uint8)) == s
            assert fn(np.array(ids, dtype=np.int64)) == s
            assert fn(iter(ids)) == s
            assert ofc.rank(ids) == s
            assert ofc.rank(cards_str(ids)) == s


def test_strength_scale_examples() -> None:
    """Strength scale (design.md): QQ5 front > QQ432, < QQ532 (R-ORDER-2);
    R-RANK-8: KK3 > KK2 (EX-4)."""
    assert ofc.rank3("Qh Qd 5c") > ofc.rank5("Qs Qc 4d 3h 2s")
    assert ofc.rank3("Qh Qd 5c") < ofc.rank5("Qs Qc 5d 3h 2s")
    assert ofc.rank3("Kh Ks 3c") > ofc.rank3("Kd Kc 2c")
    assert ofc.rank5("As Ks Qs Js Ts") == ofc.STRENGTH_MAX
    assert ofc.rank5("Ah Kh Qh Jh Th") == ofc.rank5("As Ks Qs Js Ts")  # R-DECK-2


# --- categories, describe, hand_ranks ------------------------------------------------


def test_hand_category_enum() -> None:
    assert [c.name for c in HandCategory] == list(ref.CATEGORY_NAMES)
    assert [int(c) for c in HandCategory] == list(range(10))


def test_category_of_every_strength() -> None:
    """Every strength 1..STRENGTH_MAX has a category; the number of 5-card classes per
    category is the published one (royal 1, straight flush 9, quads 156, full house
    156, flush 1277, straight 10, trips 858, two pair 858, pair 2860, high card 1277),
    3-card classes are 13 trips, 156 pairs, 286 high cards (R-RANK-5); and categories
    never decrease as strength grows, across 3- and 5-card hands alike."""
    cats = [ofc.category(s) for s in ALL_STRENGTHS]
    assert all(isinstance(c, HandCategory) for c in cats)
    assert all(a <= b for a, b in zip(cats, cats[1:]))
    five = Counter(ofc.category(s) for s in five_card_strengths())
    three = Counter(ofc.category(s) for s in three_card_strengths())
    H = HandCategory
    assert five == {
        H.ROYAL_FLUSH: 1,
        H.STRAIGHT_FLUSH: 9,
        H.QUADS: 156,
        H.FULL_HOUSE: 156,
        H.FLUSH: 1277,
        H.STRAIGHT: 10,
        H.TRIPS: 858,
        H.TWO_PAIR: 858,
        H.ONE_PAIR: 2860,
        H.HIGH_CARD: 1277,
    }
    assert three == {H.TRIPS: 13, H.ONE_PAIR: 156, H.HIGH_CARD: 286}
    assert ofc.STRENGTH_MAX == 7462 + 455


@pytest.mark.parametrize("bad", [0, -1, ofc.STRENGTH_MAX + 1, 10**30, None, "5", 5.0])
def test_bad_strengths(bad: object) -> None:
    for fn in (
        ofc.category,
        ofc.describe,
        ofc.hand_ranks,
        ofc.strength_cards,
        ofc.kev_rank,
        ofc.low27,
    ):
        with pytest.raises(StrengthError) as e:
            fn(bad)  # type: ignore[arg-type]
        assert repr(bad) in str(e.value) or str(bad) in str(e.value)


def test_category_of_hands() -> None:
    H = HandCategory
    for text, cat in [
        ("As Ks Qs Js Ts", H.ROYAL_FLUSH),
        ("Ks Qs Js Ts 9s", H.STRAIGHT_FLUSH),
        ("Ah 2h 3h 4h 5h", H.STRAIGHT_FLUSH),
        ("7c 7d 7h 7s 2c", H.QUADS),
        ("Kh Kd Ks 7c 7d", H.FULL_HOUSE),
        ("Ac Qc 9c 7c 5c", H.FLUSH),
        ("Ah 2d 3c 4s 5h", H.STRAIGHT),
        ("Ah Kd Qc Js Th", H.STRAIGHT),
        ("Qh Kd Ac 2s 3h", H.HIGH_CARD),
        ("9h 9d 9c As 2h", H.TRIPS),
        ("9h 9d 2c 2s Ah", H.TWO_PAIR),
        ("9h 9d 3c 2s Ah", H.ONE_PAIR),
        ("9h 8d 3c 2s Ah", H.HIGH_CARD),
        ("Qh Qd Qc", H.TRIPS),
        ("Qh Qd 5c", H.ONE_PAIR),
        ("Qh Kh Ah", H.HIGH_CARD),  # R-RANK-5: no 3-card straight flush
        ("2c 3d 4h", H.HIGH_CARD),
    ]:
        assert ofc.category(ofc.rank(text)) == cat == ref.category(ref.card_ids(text)), text


@pytest.mark.parametrize(
    "text, name",
    [
        ("Kh Kd Ks 7c 7d", "Kings full of Sevens"),  # describe() docstring
        ("Qh Qd 5c", "Pair of Queens, 5 kicker"),  # describe() docstring (3-card front)
        ("As Ks Qs Js Ts", "Royal flush"),
        ("Ah Kh Qh Jh Th", "Royal flush"),
        ("Ah 2d 3c 4s 5h", "Five-high straight"),  # the wheel (R-RANK-3)
        ("Ah 2h 3h 4h 5h", "Five-high straight flush"),
        ("9h 8h 7h 6h 5h", "Nine-high straight flush"),
        ("6h 6d 6s 2c 2d", "Sixes full of Twos"),
    ],
)
def test_describe_examples(text: str, name: str) -> None:
    assert ofc.describe(ofc.rank(text)) == name


def test_describe_every_strength() -> None:
    """Every strength has a non-empty description, and no two strengths share one."""
    names = [ofc.describe(s) for s in ALL_STRENGTHS]
    assert all(isinstance(n, str) and n for n in names)
    dup = [n for n, k in Counter(names).items() if k > 1]
    assert not dup, dup[:5]


def test_hand_ranks_against_reference() -> None:
    """hand_ranks lists the hand's ranks in reading order: groups first (K K K 7 7),
    a straight from its top card, the wheel as 5 4 3 2 A."""
    assert ofc.hand_ranks(ofc.rank5("7c Kh 7d Kd Ks")) == (11, 11, 11, 5, 5)
    assert ofc.hand_ranks(ofc.rank5("Ah 2d 3c 4s 5h")) == (3, 2, 1, 0, 12)
    assert ofc.hand_ranks(ofc.rank3("5c Qh Qd")) == (10, 10, 3)
    rng = random.Random(11)
    hands = [rng.sample(range(52), 5) for _ in range(5000)] + [
        rng.sample(range(52), 3) for _ in range(2000)
    ]
    for h in hands:
        r = ofc.hand_ranks(ofc.rank(h))
        ranks = sorted((c // 4 for c in h), reverse=True)
        key = ref.hand_key(h)  # (category, ranks in group order..., padding)
        assert sorted(r, reverse=True) == ranks
        if ref.category(h) in (ref.STRAIGHT, ref.STRAIGHT_FLUSH, ref.ROYAL_FLUSH):
            assert r[0] == key[1]  # the top card (a five for the wheel)
        else:
            assert r == key[1 : 1 + len(h)], (cards_str(h), r)


def test_strength_cards() -> None:
    assert len(five_card_strengths()) == 7462
    assert len(three_card_strengths()) == 455
    assert ofc.strength_cards(ofc.rank3("Ah Kd 2c")) == 3
    assert ofc.strength_cards(ofc.rank5("Ah Kd 2c 3d 5s")) == 5


# --- Cactus Kev ---------------------------------------------------------------------

# Published Cactus Kev equivalence-class ranges (1 = royal flush .. 7462 = 7-5-4-3-2).
KEV_RANGES = [
    (1, 10, {HandCategory.ROYAL_FLUSH, HandCategory.STRAIGHT_FLUSH}),
    (11, 166, {HandCategory.QUADS}),
    (167, 322, {HandCategory.FULL_HOUSE}),
    (323, 1599, {HandCategory.FLUSH}),
    (1600, 1609, {HandCategory.STRAIGHT}),
    (1610, 2467, {HandCategory.TRIPS}),
    (2468, 3325, {HandCategory.TWO_PAIR}),
    (3326, 6185, {HandCategory.ONE_PAIR}),
    (6186, 7462, {HandCategory.HIGH_CARD}),
]


def test_kev_round_trip_all_7462() -> None:
    strengths = [ofc.strength_from_kev(k) for k in range(1, 7463)]
    assert len(set(strengths)) == 7462
    assert [ofc.kev_rank(s) for s in strengths] == list(range(1, 7463))
    # lower Kev = stronger, so strengths strictly decrease with the Kev number
    assert all(a > b for a, b in zip(strengths, strengths[1:]))
    assert sorted(strengths) == five_card_strengths()
    for s in five_card_strengths():
        assert ofc.strength_from_kev(ofc.kev_rank(s)) == s
    for lo, hi, cats in KEV_RANGES:
        for k in range(lo, hi + 1):
            assert ofc.category(ofc.strength_from_kev(k)) in cats, k


@pytest.mark.parametrize(
    "text, kev",
    [
        ("As Ks Qs Js Ts", 1),
        ("Ks Qs Js Ts 9s", 2),
        ("5h 4h 3h 2h Ah", 10),
        ("Ac Ad Ah As Kd", 11),
        ("2c 2d 2h 2s 3c", 166),
        ("Ac Ad Ah Kc Kd", 167),
        ("2c 2d 2h 3c 3d", 322),
        ("Ah Kh Qh Jh 9h", 323),
        ("7d 5d 4d 3d 2d", 1599),
        ("Ah Kd Qc Js Th", 1600),
        ("Ah 2d 3c 4s 5h", 1609),
        ("Ac Ad Ah Ks Qd", 1610),
        ("2c 2d 2h 4s 3d", 2467),
        ("Ac Ad Kh Ks Qd", 2468),
        ("3c 3d 2h 2s 4d", 3325),
        ("Ac Ad Kh Qs Jd", 3326),
        ("2c 2d 5h 4s 3d", 6185),
        ("Ac Kd Qh Js 9d", 6186),
        ("7c 5d 4h 3s 2c", 7462),
    ],
)
def test_kev_published_anchors(text: str, kev: int) -> None:
    assert ofc.kev_rank(ofc.rank5(text)) == kev


def test_kev_rank_refuses_3card_strengths() -> None:
    for s in three_card_strengths():
        with pytest.raises(StrengthError):
            ofc.kev_rank(s)


@pytest.mark.parametrize("bad", [0, 7463, -1, 10**30, None, "1", 1.5, True])
def test_strength_from_kev_bad(bad: object) -> None:
    with pytest.raises(StrengthError) as e:
        ofc.strength_from_kev(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(e.value)


def test_strength_from_kev_accepts_numpy_ints() -> None:
    """Like kev_rank and every other entry point, strength_from_kev takes NumPy ints
    (Kev numbers often come out of arrays)."""
    for k in (1, 5, 1609, 7462):
        assert ofc.kev_rank(ofc.strength_from_kev(np.int64(k))) == k
        assert ofc.strength_from_kev(np.int32(k)) == ofc.strength_from_kev(k)
    assert ofc.kev_rank(np.int64(ofc.STRENGTH_MAX)) == 1


def test_kev_rank_equals_treys() -> None:
    treys = pytest.importorskip("treys", reason='pip install ".[test]" (treys)')
    ev = treys.Evaluator()
    rng = random.Random(17)
    for _ in range(5000):
        h = rng.sample(range(52), 5)
        t = [treys.Card.new(NAMES[c]) for c in h]
        assert ofc.kev_rank(ofc.rank5(h)) == ev.evaluate(t[:3], t[3:]), cards_str(h)


# --- treys / Cactus Kev card ints ---------------------------------------------------


def kev_card(card: int) -> int:
    """Cactus Kev's card int, from his published layout
    xxxbbbbb bbbbbbbb cdhsrrrr xxpppppp (b = rank bit, cdhs = suit bit, r = rank,
    p = rank's prime)."""
    primes = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    rank, suit = divmod(card, 4)
    suit_bit = {"c": 0x8, "d": 0x4, "h": 0x2, "s": 0x1}[SUITS[suit]]
    return (1 << (16 + rank)) | (suit_bit << 12) | (rank << 8) | primes[rank]


def test_treys_kd_example() -> None:
    assert ofc.to_treys("Kd") == 134236965
    assert ofc.to_treys(45) == 134236965
    assert ofc.from_treys(134236965) == 45
    assert kev_card(45) == 134236965


@pytest.mark.parametrize("card", range(52))
def test_treys_round_trip(card: int) -> None:
    k = ofc.to_treys(card)
    assert k == kev_card(card)
    assert ofc.to_treys(NAMES[card]) == k
    assert ofc.from_treys(k) == card
    assert ofc.from_treys(np.int64(k)) == card


@pytest.mark.parametrize("card", [0, 45, 51])
def test_treys_of_a_0d_array_is_one_card(card: int) -> None:
    """A 0-d array holds one value, as np.int64 does: not a TypeError from iterating."""
    k = kev_card(card)
    assert ofc.from_treys(np.array(k)) == card
    assert ofc.from_treys(np.array(k, dtype=np.uint32)) == card
    assert ofc.to_treys(np.array(card, dtype=np.int8)) == k
    with pytest.raises(CardError):
        ofc.from_treys(np.array(float(k)))
    with pytest.raises(CardError):
        ofc.to_treys(np.array(52))


def test_to_treys_equals_treys_card_new() -> None:
    treys = pytest.importorskip("treys", reason='pip install ".[test]" (treys)')
    for card in range(52):
        assert ofc.to_treys(card) == treys.Card.new(NAMES[card])


@pytest.mark.parametrize("bad", [0, 1, -1, 134236965 + 1, 2**40, None, "Kd", 1.0])
def test_from_treys_bad(bad: object) -> None:
    with pytest.raises(CardError) as e:
        ofc.from_treys(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(e.value)


# --- 2-7 lowball (R-27-2) --------------------------------------------------------------


def test_low27_examples_R_27_2() -> None:
    def low(text: str) -> int:
        return ofc.low27(ofc.rank5(text))

    assert low("7c 5d 4h 3s 2c") == 7462
    assert low("7s 5s 4s 3s 2s") < low("8c 5d 4h 3s 2c")  # flush counts against
    assert low("6c 5d 4h 3s 2c") < low("Ac Kd Qh Js 9c")  # straight counts against
    assert low("Ac 2d 3h 4s 5c") < low("Kc 5d 4h 3s 2c")  # ace high, no wheel
    assert low("Ac 2d 3h 4s 5c") > low("2c 2d 5h 4s 3c")  # ... but still no pair
    assert low("Ac 2d 3h 4s 5c") == low("Ad 5h 4c 3d 2s")
    assert low("As Ks Qs Js Ts") == min(ofc.low27(s) for s in five_card_strengths())


def test_low27_refuses_3card_strengths() -> None:
    for s in three_card_strengths():
        with pytest.raises(StrengthError):
            ofc.low27(s)


# --- batch --------------------------------------------------------------------------

BATCH = [(ofc.rank5_batch, 5, ofc.rank5), (ofc.rank3_batch, 3, ofc.rank3)]


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.ascontiguousarray(
        np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)
    )


@pytest.mark.parametrize("batch, k, single", BATCH)
def test_batch_equals_per_call(batch, k, single) -> None:
    hands = random_hands(3000, k, 1)
    before = hands.copy()
    got = batch(hands)
    assert got.dtype == np.int32 and got.shape == (3000,)
    assert got.tolist() == [single(h) for h in hands.tolist()]
    assert np.array_equal(hands, before)  # input untouched


@pytest.mark.parametrize("batch, k, single", BATCH)
def test_batch_out(batch, k, single) -> None:
    hands = random_hands(500, k, 2)
    out = np.full(500, -7, dtype=np.int32)
    got = batch(hands, out=out)
    assert got is out
    assert out.tolist() == [single(h) for h in hands.tolist()]
    got2 = batch(hands[::-1].copy(), out=out)
    assert got2 is out and out.tolist() == [single(h) for h in hands[::-1].tolist()]


@pytest.mark.parametrize("batch, k, single", BATCH)
def test_batch_empty(batch, k, single) -> None:
    got = batch(np.zeros((0, k), dtype=np.uint8))
    assert got.shape == (0,) and got.dtype == np.int32
    out = np.zeros(0, dtype=np.int32)
    assert batch(np.zeros((0, k), dtype=np.uint8), out=out) is out


@pytest.mark.parametrize("batch, k, single", BATCH)
def test_batch_bad_arrays(batch, k, single) -> None:
    good = random_hands(4, k, 3)
    wide = np.zeros((4, 2 * k), dtype=np.uint8)
    bad_inputs = {
        "int64": good.astype(np.int64),
        "int8": good.astype(np.int8),
        "uint16": good.astype(np.uint16),
        "int32": good.astype(np.int32),
        "float": good.astype(np.float64),
        "bool": good.astype(bool),
        "too narrow": np.ascontiguousarray(good[:, : k - 1]),
        "too wide": np.zeros((4, k + 1), dtype=np.uint8),
        "1-d": good[0].copy(),
        "flat": good.reshape(-1).copy(),
        "3-d": good[None].copy(),
        "transposed": np.ascontiguousarray(good.T),
        "strided columns": wide[:, ::2],
        "strided rows": np.zeros((8, k), np.uint8)[::2],
        "fortran": np.asfortranarray(good),
        "list": good.tolist(),
        "tuple": tuple(map(tuple, good.tolist())),
        "None": None,
        "memoryview": memoryview(good),
        "bytes": good.tobytes(),
    }
    for what, a in bad_inputs.items():
        with pytest.raises(ArrayError):
            batch(a)
            pytest.fail(f"no ArrayError for {what}")
    read_only = np.zeros(4, dtype=np.int32)
    read_only.flags.writeable = False
    bad_outs = {
        "int64": np.zeros(4, np.int64),
        "uint32": np.zeros(4, np.uint32),
        "short": np.zeros(3, np.int32),
        "long": np.zeros(5, np.int32),
        "2-d": np.zeros((4, 1), np.int32),
        "strided": np.zeros(8, np.int32)[::2],
        "read-only": read_only,
        "list": [0] * 4,
    }
    for what, out in bad_outs.items():
        with pytest.raises(ArrayError):
            batch(good, out=out)
            pytest.fail(f"no ArrayError for out {what}")


@pytest.mark.parametrize("batch, k, single", BATCH)
def test_batch_bad_cards_name_the_row(batch, k, single) -> None:
    for row in (0, 3, 9):
        for bad in (52, 99, 255):
            hands = random_hands(10, k, row)
            hands[row, k - 1] = bad
            with pytest.raises(CardError) as e:
                batch(hands)
            msg = str(e.value)
            assert f"[{row}]" in msg and str(bad) in msg, msg
        hands = random_hands(10, k, row)
        hands[row, 0] = hands[row, k - 1]
        with pytest.raises(CardError) as e:
            batch(hands)
        assert f"[{row}]" in str(e.value), str(e.value)


@pytest.mark.parametrize("batch, k, single", BATCH)
def test_batch_bad_last_row_leaves_out_untouched(batch, k, single) -> None:
    """A bad row is found before anything is written: a pre-filled ``out`` keeps every
    value, whichever row is bad (the first of a later block too)."""
    for n, row in ((10, 9), (600, 599), (600, 300)):
        hands = random_hands(n, k, row)
        hands[row, k - 1] = 52
        out = np.full(n, -7, dtype=np.int32)
        with pytest.raises(CardError, match=rf"\[{row}\]"):
            batch(hands, out=out)
        assert (out == -7).all()


def test_batch_threads() -> None:
    """4 threads ranking different arrays at once give the single-threaded results
    (docs/design.md, Layers: the C library has no global mutable state and is thread-safe)."""
    arrays = [
        random_hands(200_000, 5, 10),
        random_hands(200_000, 3, 11),
        random_hands(200_000, 5, 12),
        random_hands(200_000, 3, 13),
    ]
    fns = [ofc.rank5_batch, ofc.rank3_batch, ofc.rank5_batch, ofc.rank3_batch]
    expected = [f(a).copy() for f, a in zip(fns, arrays)]
    results: list[list[np.ndarray]] = [[] for _ in arrays]
    errors: list[BaseException] = []
    start = threading.Barrier(len(arrays))

    def work(i: int) -> None:
        try:
            start.wait()
            out = np.empty(len(arrays[i]), dtype=np.int32)
            for j in range(5):
                results[i].append(
                    fns[i](arrays[i]) if j % 2 else fns[i](arrays[i], out=out).copy()
                )
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(arrays))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i, rs in enumerate(results):
        assert len(rs) == 5
        for r in rs:
            assert np.array_equal(r, expected[i])


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix's
def test_batch_calls_take_ndarray_subclasses_and_name_their_bad_rows() -> None:
    """An np.matrix (an ndarray subclass: what ``.todense()`` and older code give) was
    ranked while every row was good, but a bad row raised TypeError ("'>=' not
    supported between 'list' and 'int'", "unhashable type: 'list'") while the
    CardError naming it was built, as a matrix's row is 2-d.  Each batch call reads a
    subclass as the plain array it holds: good rows rank as ranks of their classes
    (the reference's categories) and a bad row is the CardError naming it."""
    hands = random_hands(6, 5, 11)
    got = ofc.rank5_batch(np.asmatrix(hands))
    assert type(got) is np.ndarray and got.shape == (6,)
    assert [ofc.category(int(s)) for s in got] == [ref.category(h) for h in hands.tolist()]
    fronts = random_hands(4, 3, 12)
    assert ofc.rank3_batch(np.asmatrix(fronts)).shape == (4,)
    bad = hands.copy()
    bad[4, 2] = 52
    with pytest.raises(CardError, match=r"rank5_batch: a\[4\] holds card id 52"):
        ofc.rank5_batch(np.asmatrix(bad))
    bad[4, 2] = bad[4, 0]
    with pytest.raises(CardError, match=r"rank5_batch: a\[4\] repeats a card"):
        ofc.rank5_batch(np.asmatrix(bad))
    fronts[1, 0] = 99
    with pytest.raises(CardError, match=r"rank3_batch: a\[1\] holds card id 99"):
        ofc.rank3_batch(np.asmatrix(fronts))
    boards = random_hands(3, 26, 13)
    a, b = np.ascontiguousarray(boards[:, :13]), np.ascontiguousarray(boards[:, 13:])
    assert ofc.eval_boards(np.asmatrix(a)).foul.shape == (3,)
    assert ofc.score_pairs(np.asmatrix(a), np.asmatrix(b)).shape == (3,)
    a[2, 5] = 60
    with pytest.raises(CardError, match=r"eval_boards: boards\[2\] holds card id 60"):
        ofc.eval_boards(np.asmatrix(a))
    with pytest.raises(CardError, match=r"pair 2: a\[2\] holds card id 60"):
        ofc.score_pairs(np.asmatrix(a), np.asmatrix(b))
    a[2, 5] = b[2, 7]
    with pytest.raises(CardError, match=r"pair 2: a\[2\] and b\[2\] repeat a card"):
        ofc.score_pairs(np.asmatrix(a), np.asmatrix(b))


def test_batch_calls_refuse_a_misaligned_out() -> None:
    """An ``out`` of int32 at an odd address (``buf[1:].view(np.int32)``: writeable
    and C-contiguous, yet not aligned) was handed to C as an ``int32_t *``, whose
    stores through it are undefined behaviour (UBSan: "store to misaligned address").
    It is an ArrayError, the buffer left as it was; an aligned out still serves."""
    hands5, hands3 = random_hands(4, 5, 21), random_hands(4, 3, 22)
    boards = random_hands(4, 26, 23)
    a, b = np.ascontiguousarray(boards[:, :13]), np.ascontiguousarray(boards[:, 13:])
    calls = [
        ("rank5_batch", lambda out: ofc.rank5_batch(hands5, out=out)),
        ("rank3_batch", lambda out: ofc.rank3_batch(hands3, out=out)),
        ("score_pairs", lambda out: ofc.score_pairs(a, b, out=out)),
    ]
    for name, call in calls:
        buf = np.full(4 * 4 + 1, 7, dtype=np.uint8)
        out = buf[1:].view(np.int32)
        assert out.flags.c_contiguous and out.flags.writeable and not out.flags.aligned
        with pytest.raises(ArrayError, match=f"{name}: out must be a writeable, aligned"):
            call(out)
        assert (buf == 7).all()
        aligned = np.zeros(4, dtype=np.int32)
        assert call(aligned) is aligned
