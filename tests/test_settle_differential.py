"""Differential test of the C table settlement (``settle`` -> ``ofc_settle``) against
the pure-Python reference of tests/support/reference_settle.py: random tables of 2-4 seats,
every preset plus random variations (house, pool, single winner, aces bet, surrender,
declared naturals, naturals rules, stacks under both stakes models, settlement start),
compared on nets, items in order, row-scored pairs, stacks after, naturals, winner,
and the error class when the input is refused.  Seeded loops, a few seconds.
"""

from __future__ import annotations

import random

import pytest
import reference_settle as ref
from boards import _stacked

import ofc_fast as ofc
from ofc_fast import rules, settle
from ofc_fast.rules import Natural, Pool
from ofc_fast.rules.model import NATURAL_NAMES, NaturalsRule, StakesModel
from ofc_fast.scoring.naturals import naturals

PRESETS = [rules.get(n) for n in rules.names()]
NATURALS = [r.naturals for r in PRESETS if r.naturals]


# ------------------------------------------------------------ natural hands


def _take(deck: set[int], wanted: list[int]) -> list[int] | None:
    if not all(c in deck for c in wanted) or len(set(wanted)) != len(wanted):
        return None
    deck.difference_update(wanted)
    return wanted


def _natural_hand(rng: random.Random, deck: set[int]) -> list[int] | None:
    """13 cards from ``deck`` making some natural (removed from the deck), or None."""
    kind = rng.choice(["dragon", "pairs", "trips", "flushes", "small", "colour"])
    by_rank = {r: [c for c in deck if c >> 2 == r] for r in range(13)}
    if kind == "dragon":
        if any(not by_rank[r] for r in range(13)):
            return None
        return _take(deck, [rng.choice(by_rank[r]) for r in range(13)])
    if kind in ("pairs", "trips"):
        size, count = (2, 6) if kind == "pairs" else (3, 4)
        ranks = [r for r in range(13) if len(by_rank[r]) >= size]
        if len(ranks) < count:
            return None
        hand = [c for r in rng.sample(ranks, count) for c in rng.sample(by_rank[r], size)]
        rest = sorted(deck - set(hand))
        return _take(deck, hand + [rng.choice(rest)]) if rest else None
    if kind == "flushes":
        hand = []
        for size in (5, 5, 3):
            suit = [c for c in deck if c & 3 == rng.randrange(4) and c not in hand]
            if len(suit) < size:
                return None
            hand += rng.sample(suit, size)
        return _take(deck, hand)
    pool = [c for c in deck if (c >> 2 <= 6 if kind == "small" else c & 1 == 0)]
    return _take(deck, rng.sample(pool, 13)) if len(pool) >= 13 else None


# --------------------------------------------------------------- random cases


def _random_rules(rng: random.Random, players: int) -> ofc.RuleSet:
    base = rng.choice(PRESETS)
    if rng.random() < 0.25:
        return base.replace(max_players=max(base.max_players, players))
    mode = rng.choice(["pairs", "pairs", "house", "pool", "single"])
    changes: dict = {
        "house": mode == "house",
        "pool": None,
        "single_winner": 0,
        "max_players": 4,
    }
    if mode == "pool":
        changes["pool"] = Pool(ante=rng.randint(1, 3), sweep_extra=rng.choice([0, 0, 3]))
    elif mode == "single":
        changes["single_winner"] = rng.randint(1, 5)
    changes["aces_bet"] = (
        tuple(rng.randint(0, 10) for _ in range(5)) if rng.random() < 0.3 else None
    )
    changes["surrender_cost"] = rng.choice([None, 0, 1, 3])
    changes["stakes"] = rng.choice(list(StakesModel))
    changes["settlement_start"] = rng.choice(["button", "left_of_button"])
    changes["sweep_all_multiplier"] = rng.choice([1, 1, 2])
    changes["sweep_all_bonus"] = rng.choice([0, 0, 3])
    changes["overall_bonus"] = rng.choice([0, 0, 1])
    if rng.random() < 0.5:
        nats = list(rng.choice(NATURALS))
        if rng.random() < 0.5:  # a random list: random order and units
            names = rng.sample(NATURAL_NAMES, rng.randint(1, len(NATURAL_NAMES)))
            nats = [Natural(name=n, units=rng.randint(0, 20)) for n in names]
        changes["naturals"] = tuple(nats)
        changes["naturals_rule"] = rng.choice(list(NaturalsRule))
    return base.replace(**changes)


def _random_case(rng: random.Random) -> tuple:
    players = rng.randint(2, 4)
    r = _random_rules(rng, players)
    deck = set(range(52))
    hands: list[list[int] | None] = [None] * players
    declared: dict[int, object] = {}
    if r.naturals and rng.random() < 0.6:
        for seat in rng.sample(range(players), rng.randint(1, players)):
            hand = _natural_hand(rng, deck)
            if hand is not None:
                hands[seat] = hand
                held = [h.name for h in naturals(hand, r)]
                if held:
                    declared[seat] = rng.choice([True] + held)
    boards: list = []
    for seat in range(players):
        hand = hands[seat]
        if hand is None:
            hand = rng.sample(sorted(deck), 13)
            deck.difference_update(hand)
            hand = _stacked(hand, rng) if rng.random() < 0.6 else hand
        boards.append(hand)
    surrendered = []
    if r.surrender_cost is not None:
        surrendered = [
            s for s in range(players) if s not in declared and rng.random() < 0.3
        ]
        for s in surrendered:
            if r.aces_bet is None and rng.random() < 0.5:
                boards[s] = None
    stacks = None
    if rng.random() < 0.5:
        stacks = [
            rng.choice([0, rng.randint(0, 8), rng.randint(0, 60)]) for _ in range(players)
        ]
    if rng.random() < 0.08:  # a refused input: the error class must agree too
        bad = rng.randrange(4)
        seat = rng.randrange(players)
        if bad == 0:  # a natural its cards (probably) do not make, or no naturals
            declared[seat] = rng.choice(NATURAL_NAMES)
            surrendered = [s for s in surrendered if s != seat]
        elif bad == 1:  # surrender where the rules may not allow it
            surrendered = sorted(set(surrendered) | {seat})
            declared.pop(seat, None)
        elif bad == 2:  # a hidden hand under the aces bet
            r = r.replace(aces_bet=(0, 1, 2, 6, 8), surrender_cost=1)
            surrendered = sorted(set(surrendered) | {seat})
            declared.pop(seat, None)
            boards[seat] = None
        else:  # the same card on two boards
            other = (seat + 1) % players
            if boards[seat] is not None and boards[other] is not None:
                boards[other] = list(boards[other])
                boards[other][0] = boards[seat][0]
    return boards, r, rng.randrange(players), stacks, surrendered, declared


def _c_result(res: ofc.Settlement) -> tuple:
    return (
        res.net,
        [(i.pair, i.kind, i.payer, i.payee, i.amount) for i in res.items],
        res.pairs,
        res.stacks,
        {s: (h.name, h.key) for s, h in res.naturals.items()},
        res.winner,
    )


def _outcome(fn, case: tuple) -> tuple:
    boards, r, button, stacks, surrendered, declared = case
    try:
        got = fn(
            boards,
            r,
            button=button,
            stacks=stacks,
            surrendered=surrendered,
            declared=declared,
        )
    except ofc.OfcError as e:
        return ("error", type(e).__name__)
    return ("ok", got)


@pytest.mark.parametrize("seed", range(6))
def test_settle_matches_reference(seed: int) -> None:
    rng = random.Random(1000 + seed)
    modes = {
        "natural": 0,
        "surrender": 0,
        "stakes": 0,
        "pool": 0,
        "house": 0,
        "single": 0,
        "error": 0,
    }
    for _ in range(500):
        case = _random_case(rng)
        boards, r, button, stacks, surrendered, declared = case
        want = _outcome(lambda *a, **k: ref.settle(*a, **k), case)
        got = _outcome(settle, case)
        if got[0] == "ok":
            got = ("ok", _c_result(got[1]))
        assert got == want, (case, got, want)
        modes["natural"] += bool(declared) and got[0] == "ok"
        modes["surrender"] += bool(surrendered) and got[0] == "ok"
        modes["stakes"] += (
            stacks is not None
            and got[0] == "ok"
            and any(it[1] == "stakes" for it in got[1][1])
        )
        modes["pool"] += r.pool is not None and stacks is not None and got[0] == "ok"
        modes["house"] += r.house and got[0] == "ok"
        modes["single"] += got[0] == "ok" and got[1][5] is not None
        modes["error"] += got[0] == "error"
    assert all(v > 0 for v in modes.values()), modes  # every path was exercised


def test_sweep_all_pass_matches_reference() -> None:
    """The sweep-all second pass (R-VAR-HG-2): tables where one seat sweeps all."""
    rng = random.Random(7)
    swept = 0
    r = rules.HAWAIIAN_GARDENS.replace(sweep_all_multiplier=2, sweep_all_bonus=3)
    for _ in range(300):
        players = rng.randint(3, 4)
        cards = rng.sample(range(52), 13 * players)
        best = _stacked(sorted(cards, reverse=True)[:13], rng)  # seat 0: the best cards
        others = [c for c in cards if c not in best]
        boards = [best] + [
            _stacked(others[13 * i : 13 * i + 13], rng) for i in range(players - 1)
        ]
        button = rng.randrange(players)
        got = _c_result(settle(boards, r, button=button))
        want = ref.settle(boards, r, button=button)
        assert got == want
        swept += any(it[1] == "bonus" and it[4] > 6 for it in got[1])
    assert swept > 0
