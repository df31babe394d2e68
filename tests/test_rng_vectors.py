"""Test vectors of the deal RNG (docs/design.md "Deal RNG", csrc/include/ofc_game.h):
the first decks of a few seeds and the game seeds of a run's first deals, written out
literally.  They pin the deal format forever: a change of any of them is a change of
every deal a seed gives (a CHANGELOG entry, never a silent edit).

The literals were computed once with the spec model (``game_model.py``); each is checked
here three ways: against the model, against a second, sequential implementation written
in this file (a SplitMix64 stream drawn in order, not the counter-based random access of
the model), and against the engine (``Game(..., seed=s).deck``, ``Match`` deal seeds).
"""

from __future__ import annotations

import random

import game_model as gm
import pytest
from shared_vectors import read_u64

import ofc_fast
from ofc_fast import rules

DECKS = {
    0: [
        12,
        35,
        8,
        48,
        2,
        49,
        51,
        11,
        28,
        25,
        18,
        13,
        23,
        41,
        3,
        50,
        29,
        14,
        36,
        0,
        4,
        30,
        38,
        44,
        33,
        43,
        46,
        24,
        9,
        42,
        39,
        32,
        27,
        6,
        37,
        17,
        19,
        26,
        21,
        20,
        31,
        16,
        40,
        10,
        34,
        7,
        15,
        5,
        47,
        1,
        22,
        45,
    ],
    1: [
        47,
        45,
        37,
        42,
        0,
        33,
        50,
        36,
        5,
        30,
        19,
        10,
        15,
        32,
        11,
        39,
        9,
        4,
        27,
        7,
        43,
        25,
        22,
        26,
        17,
        13,
        1,
        8,
        3,
        14,
        31,
        2,
        51,
        46,
        28,
        44,
        6,
        41,
        20,
        18,
        24,
        16,
        34,
        12,
        23,
        40,
        35,
        49,
        21,
        48,
        38,
        29,
    ],
    42: [
        49,
        4,
        18,
        41,
        42,
        0,
        9,
        5,
        51,
        27,
        24,
        48,
        23,
        45,
        33,
        47,
        6,
        11,
        43,
        12,
        21,
        28,
        15,
        32,
        37,
        19,
        44,
        31,
        29,
        34,
        2,
        30,
        22,
        35,
        17,
        3,
        7,
        25,
        39,
        46,
        20,
        50,
        26,
        14,
        36,
        10,
        40,
        1,
        16,
        13,
        8,
        38,
    ],
    2**64 - 1: [
        15,
        19,
        12,
        17,
        50,
        2,
        36,
        32,
        26,
        22,
        37,
        9,
        27,
        29,
        25,
        1,
        34,
        49,
        30,
        8,
        23,
        3,
        39,
        18,
        31,
        21,
        16,
        28,
        5,
        35,
        48,
        44,
        13,
        4,
        6,
        14,
        24,
        7,
        40,
        41,
        45,
        42,
        0,
        47,
        11,
        43,
        38,
        33,
        20,
        10,
        51,
        46,
    ],
}

# deal i of a run seeded with S: random64(S ^ 0x6F66632D66617374, i)
DEAL_SEEDS = {
    0: [17739151720890961028, 17139544769866496439, 10059028543701088879],
    42: [5703929424919269009, 1365191734447488356, 5247177084180041812],
}
DECK_OF_RUN_42_DEAL_0 = [
    41,
    8,
    26,
    44,
    30,
    43,
    51,
    2,
    37,
    1,
    50,
    48,
    18,
    4,
    31,
    22,
    9,
    21,
    38,
    5,
    25,
    27,
    13,
    11,
    32,
    45,
    23,
    16,
    7,
    49,
    35,
    12,
    42,
    24,
    34,
    19,
    14,
    15,
    0,
    10,
    33,
    6,
    29,
    36,
    17,
    40,
    46,
    3,
    39,
    28,
    20,
    47,
]

# SplitMix64 seeded with 1234567: its first outputs, as published with the reference
# implementation (Vigna, splitmix64.c) and used by many test suites; the C tests
# (tests/c/test_game.c) read the same file.
SPLITMIX64_1234567 = read_u64("splitmix64_1234567.txt")


class SplitMix64:
    """Plain sequential SplitMix64 (the second, independent computation)."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % 2**64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % 2**64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Lemire: the high 32 bits of the top 32 bits times n, rejecting the low
        words under 2**32 mod n."""
        threshold = (2**32 - n) % n
        while True:
            product = (self.next() >> 32) * n
            if product % 2**32 >= threshold:
                return product // 2**32


def sequential_deck(seed: int) -> list[int]:
    gen = SplitMix64(seed)
    deck = list(range(52))
    for i in reversed(range(1, 52)):
        j = gen.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ----------------------------------------------------------------------- the model


def test_random64_is_splitmix64() -> None:
    assert [gm.random64(1234567, i) for i in range(5)] == SPLITMIX64_1234567
    gen = SplitMix64(1234567)
    assert [gen.next() for _ in range(5)] == SPLITMIX64_1234567
    gen = SplitMix64(2**64 - 1)  # counter-based = sequential, wrap-around included
    assert [gen.next() for _ in range(100)] == [
        gm.random64(2**64 - 1, i) for i in range(100)
    ]


@pytest.mark.parametrize("seed", sorted(DECKS))
def test_deck_vectors(seed: int) -> None:
    assert gm.deck_of_seed(seed) == DECKS[seed]
    assert sequential_deck(seed) == DECKS[seed]
    assert sorted(DECKS[seed]) == list(range(52))


def test_deal_seed_vectors() -> None:
    for run, seeds in DEAL_SEEDS.items():
        assert [gm.deal_seed(run, i) for i in range(len(seeds))] == seeds
        gen = SplitMix64(run ^ int.from_bytes(b"ofc-fast", "big"))
        assert [gen.next() for _ in seeds] == seeds
    assert gm.deck_of_seed(DEAL_SEEDS[42][0]) == DECK_OF_RUN_42_DEAL_0
    assert sequential_deck(DEAL_SEEDS[42][0]) == DECK_OF_RUN_42_DEAL_0


def test_bounded_is_uniform_and_in_range() -> None:
    """Every n from 1 to 52 over a few thousand counters: in range, and each value
    drawn (a biased or truncated draw would miss some)."""
    for n in (1, 2, 3, 7, 13, 52):
        ctr, seen = 0, set()
        for _ in range(40 * n):
            v, ctr = gm.bounded(99, ctr, n)
            assert 0 <= v < n
            seen.add(v)
        assert seen == set(range(n))


def test_bounded_rejects_the_biased_low_words() -> None:
    """A bound n = 2**31 + 1 rejects about a quarter of the draws (low word < n and below
    (2**32 - n) % n = 2**31 - 1): a rejected counter is skipped, an accepted one is
    used alone, and the value is the high word of the product."""
    n = 2**31 + 1
    threshold = (2**32 - n) % n
    rejected = accepted = 0
    for ctr in range(400):
        product = (gm.random64(7, ctr) >> 32) * n
        v, nxt = gm.bounded(7, ctr, n)
        if product % 2**32 < threshold:
            rejected += 1
            assert nxt > ctr + 1
            assert (v, nxt) == gm.bounded(7, ctr + 1, n)
        else:
            accepted += 1
            assert (v, nxt) == (product >> 32, ctr + 1)
    assert rejected > 50 and accepted > 50
    for c in range(20):  # the sequential stream started c outputs in agrees
        assert (
            SplitMix64((7 + c * 0x9E3779B97F4A7C15) % 2**64).below(n)
            == gm.bounded(7, c, n)[0]
        )


# ---------------------------------------------------------------------- the engine


def _deck_attribute(g: ofc_fast.Game) -> list[int]:
    if not hasattr(g, "deck"):
        pytest.skip(
            "ofc_fast.Game has no `deck` attribute yet (the C engine "
            "adds it; install a current ofc-fast); the deck vectors cannot be read"
        )
    return list(g.deck)


@pytest.mark.parametrize("seed", sorted(DECKS))
@pytest.mark.parametrize("name", ["PINEAPPLE", "OFC", "CLASSIC_1_6"])
def test_engine_deck_of_seed(seed: int, name: str) -> None:
    """The deck depends on the seed only (not on the rules, seats or button)."""
    g = ofc_fast.Game(rules.get(name), 2, seed=seed)
    assert _deck_attribute(g) == DECKS[seed]
    assert list(g.history()["deck"]) == DECKS[seed]
    g3 = ofc_fast.Game(rules.get(name), 3, seed=seed, button=2)
    assert _deck_attribute(g3) == DECKS[seed]


def test_engine_deals_from_the_front_of_the_deck() -> None:
    g = ofc_fast.Game(rules.PINEAPPLE, 2, seed=42, button=0)
    assert list(g.dealt) == DECKS[42][:5]  # seat 1, left of the button, first


@pytest.mark.parametrize("run", sorted(DEAL_SEEDS))
def test_match_deal_seeds(run: int) -> None:
    """Deal i of a Match seeded with S has game seed random64(S ^ "ofc-fast", i)."""
    m = ofc_fast.Match(rules.PINEAPPLE, 2, seed=run)
    rng = random.Random(run)
    for expected in DEAL_SEEDS[run]:
        g = m.next_game()
        assert g.seed == expected
        while not g.is_over:
            g.play(g.random_move(rng))
        m.record(g)
