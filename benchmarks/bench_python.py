"""Speed benchmark of ofc_fast against peer poker evaluators, with agreement checks.

Run it as ``python benchmarks/bench_python.py`` (or call :func:`main`); the C-level
benchmark is ``benchmarks/bench_c.c`` and ``python benchmarks/run.py`` runs both.
(``ofc-fast bench`` is the package's own small timing, without peers:
ofc_fast/timing.py.)

What is timed, in one run, on the same seeded random hands
-----------------------------------------------------------
* ``rank5_batch`` / ``rank3_batch``: one call on a C-contiguous uint8 (N, 5) /
  (N, 3) array (ns per hand; the int32 result array is allocated by the call,
  and once more with a preallocated ``out=``).
* ``eval_boards``: one call on uint8 (N, 13) boards (ns per board).
* ``score_pairs``: one call on two uint8 (N, 13) arrays under ``rules.OFC``;
  every pair is a random deal of 26 distinct cards split 13/13 (ns per pair).
  An extra row scores the same cards with each board's cards sorted by rank
  (fewer fouls, so more row comparisons and royalties).
* ``rank5`` / ``rank3`` per call: ``[f(h) for h in hands]``, hands as lists
  of ints.
* Peers, per call, when installed (skipped with a note otherwise):
  phevaluator ``evaluate_cards(*h)`` (public API) and
  ``phevaluator._pheval.evaluate_5cards(*h)`` (the native function behind it),
  eval7 ``evaluate(cards)``, treys ``Evaluator().evaluate(cards, [])``,
  pokerkit ``StandardHighHand.lookup.get_entry(cards)`` (on fewer hands: it is
  slow; ns/hand needs no scaling).  Each library's inputs are converted
  before timing, so the timed loop holds only the calls.
* Floors: ``[None for h in hands]`` and ``[len(h) for h in hands]``, what a
  per-call Python loop costs before any evaluator runs.

Every measurement is repeated ``--reps`` times (default 7) with the garbage
collector disabled; the table gives the median and the minimum, the rate at
the median, the ratio of medians against phevaluator's native per-call
function, and the docs/design.md target with pass/miss where one applies.

Agreement checks (not timed; the exit status is 1 when any fails)
-----------------------------------------------------------------
Scores are mapped to higher-is-better (direction detected per library from a
royal flush against 7-5-4-3-2).  On a sample of the hands every evaluator --
ofc_fast per call and batch, each peer, and an independent plain-Python
reference in this module -- must give the same order as the reference
(phevaluator's native function when installed): the sign of random pairs of
hands and the dense ranking of the whole sample.  3-card hands are checked
with 5-card hands on one scale against the plain-Python reference, and
``score_pairs`` against a plain-Python OFC scorer and against ``score_pair``.

Usage::

    python benchmarks/bench_python.py             # 200,000 hands, 7 repetitions
    python benchmarks/bench_python.py --quick     # a few seconds
    python benchmarks/bench_python.py --n 1000000 --reps 9 --json bench.json

Standard library, numpy and ofc_fast (its seeded deals and timer, ofc_fast.timing);
peers are optional.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, TextIO

import numpy as np

from ofc_fast.table import SEED_MAX
from ofc_fast.timing import (
    MAX_N,
    ScriptHelp,
    ScriptParser,
    at_least,
    deal,
    machine_info,
    output_file,
    per_unit_ns,
    print_or_write_json,
    rate_text,
    time_runner,
)

__all__ = ["TARGETS", "deal", "main", "reference_key", "reference_score_ofc"]

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

#: docs/design.md performance targets checked by this module (ns per unit).  The
#: C-loop targets (5-card <= 3 ns, 3-card <= 1.5 ns) are checked by bench_c.c.
TARGETS = {
    "rank5_batch": 5.0,
    "score_pairs": 25.0,
    # "rank5": at most phevaluator's native per-call time, measured in the run
}

ROYAL = [48, 44, 40, 36, 32]  # Ac Kc Qc Jc Tc
SEVEN_HIGH = [20, 13, 10, 7, 0]  # 7c 5d 4h 3s 2c
NATIVE_PHE = "phevaluator native"  # label of the ratio baseline row


def card_str(card: int) -> str:
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def hand_str(cards: Sequence[int]) -> str:
    return " ".join(card_str(int(c)) for c in cards)


# --------------------------------------------------------------------------
# Seeded random deals
# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# Independent plain-Python reference (5- and 3-card hands on one scale; OFC)
# --------------------------------------------------------------------------

_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SFLUSH = range(9)


def reference_key(cards: Sequence[int]) -> tuple:
    """Comparable key of a 3- or 5-card hand, larger = stronger.

    ``(category, r1, r2, r3, r4, r5)``: the ranks that decide ties, grouped by
    multiplicity then rank, each once, padded with -1.  A 3-card hand pads its
    missing kickers with -1 ("below a deuce"), so 3- and 5-card keys compare on
    the one strength scale of docs/design.md.
    """
    ranks = sorted((int(c) >> 2 for c in cards), reverse=True)
    count: dict[int, int] = {}
    for r in ranks:
        count[r] = count.get(r, 0) + 1
    groups = sorted(count.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = [r for r, _ in groups]
    if len(ranks) == 5:
        top = None
        if len(count) == 5:
            if ranks[0] - ranks[4] == 4:
                top = ranks[0]
            elif ranks == [12, 3, 2, 1, 0]:  # A-2-3-4-5
                top = 3
        flush = len({int(c) & 3 for c in cards}) == 1
        if top is not None:
            cat, order = (_SFLUSH if flush else _STRAIGHT), [top]
        elif flush:
            cat = _FLUSH
        else:
            cat = {
                (4, 1): _QUADS,
                (3, 2): _FULL,
                (3, 1, 1): _TRIPS,
                (2, 2, 1): _TWO_PAIR,
                (2, 1, 1, 1): _PAIR,
            }.get(shape, _HIGH)
    elif len(ranks) == 3:
        cat = {(3,): _TRIPS, (2, 1): _PAIR}.get(shape, _HIGH)
        if cat == _HIGH:
            order = ranks
    else:
        raise ValueError("3 or 5 cards")
    if cat in (_HIGH, _FLUSH):
        order = ranks
    # Pad by card slots used: a 3-card hand's missing kickers rank below a deuce.
    slots = {
        _HIGH: 5,
        _PAIR: 4,
        _TWO_PAIR: 3,
        _TRIPS: 3,
        _STRAIGHT: 1,
        _FLUSH: 5,
        _FULL: 2,
        _QUADS: 2,
        _SFLUSH: 1,
    }[cat]
    return (cat, *order, *([-1] * (slots - len(order))), *([-1] * (5 - slots)))


# OFC preset (docs/design.md, "Presets whose scoring is pinned"), by row and category.
_MIDDLE_ROYALTY = {_TRIPS: 2, _STRAIGHT: 4, _FLUSH: 8, _FULL: 12, _QUADS: 20, _SFLUSH: 30}
_BACK_ROYALTY = {_STRAIGHT: 2, _FLUSH: 4, _FULL: 6, _QUADS: 10, _SFLUSH: 15}


def _royalties(keys: Sequence[tuple]) -> int:
    front, middle, back = keys
    total = 0
    if front[0] == _TRIPS:
        total += 10 + front[1]  # 222 = 10 ... AAA = 22
    elif front[0] == _PAIR and front[1] >= 4:
        total += front[1] - 3  # 66 = 1 ... AA = 9
    for key, table, royal in ((middle, _MIDDLE_ROYALTY, 50), (back, _BACK_ROYALTY, 25)):
        if key[0] == _SFLUSH and key[1] == 12:
            total += royal
        else:
            total += table.get(key[0], 0)
    return total


def reference_score_ofc(a: Sequence[int], b: Sequence[int]) -> int:
    """Points board ``a`` wins from board ``b`` under the OFC preset (1-6 scoring,
    netted royalties, fouled board loses 6 plus the opponent's royalties)."""
    boards = []
    for cards in (a, b):
        keys = (
            reference_key(cards[0:3]),
            reference_key(cards[3:8]),
            reference_key(cards[8:13]),
        )
        foul = keys[0] > keys[1] or keys[1] > keys[2]
        boards.append((keys, foul))
    (ka, fa), (kb, fb) = boards
    if fa and fb:
        return 0
    if fa:
        return -(6 + _royalties(kb))
    if fb:
        return 6 + _royalties(ka)
    won_a = sum(x > y for x, y in zip(ka, kb))
    won_b = sum(x < y for x, y in zip(ka, kb))
    sweep = 3 if won_a == 3 else -3 if won_b == 3 else 0
    return won_a - won_b + sweep + _royalties(ka) - _royalties(kb)


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------


def _per_call(mode: str, f: Callable, data: list, extra: Any = None) -> Callable[[], list]:
    """A zero-argument runner holding exactly one per-call loop over ``data``."""
    if mode == "one":
        return lambda: [f(x) for x in data]
    if mode == "star":
        return lambda: [f(*x) for x in data]
    if mode == "extra":
        return lambda: [f(x, extra) for x in data]
    if mode == "empty":
        return lambda: [None for x in data]
    raise ValueError(mode)


@dataclass
class Row:
    label: str
    group: str  # "ofc_fast" | "peer" | "floor"
    api: str
    unit: str  # "hand" | "pair" | "board"
    n: int
    times: list[float]
    target: str = ""
    verdict: str = ""  # "pass" | "MISS" (--strict) | "slower" | "" (no target)
    notes: list[str] = field(default_factory=list)

    @property
    def median_ns(self) -> float:
        return per_unit_ns(self.times, self.n)[0]

    @property
    def min_ns(self) -> float:
        return per_unit_ns(self.times, self.n)[1]

    @property
    def per_s(self) -> float:
        return 1e9 / self.median_ns

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "group": self.group,
            "api": self.api,
            "unit": self.unit,
            "n": self.n,
            "times_s": self.times,
            "median_ns": self.median_ns,
            "min_ns": self.min_ns,
            "per_s": self.per_s,
            "target": self.target,
            "verdict": self.verdict,
            "notes": self.notes,
        }


# --------------------------------------------------------------------------
# Peers
# --------------------------------------------------------------------------


@dataclass
class Peer:
    """A per-call 5-card evaluator: inputs converted by ``prepare`` (not timed),
    timed as ``mode`` over them, raw results mapped to ints by ``score``."""

    label: str
    dist: str
    api: str
    prepare: Callable[[list], list]
    call: Callable
    mode: str = "one"
    extra: Any = None
    score: Callable[[Any], int] = int
    slow: bool = False

    def run(self, data: list) -> list:
        return _per_call(self.mode, self.call, data, self.extra)()


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


PEER_NAMES = ("phevaluator", "eval7", "treys", "pokerkit")
"""The peers ``--skip`` may name (``peers``: all of them)."""


def load_peers(skip: set[str], notes: list[str], versions: dict[str, str]) -> list[Peer]:
    """Every installed peer evaluator; a note for each one missing."""
    peers: list[Peer] = []
    names = [card_str(c) for c in range(52)]

    if "phevaluator" not in skip:
        try:
            import phevaluator

            versions["phevaluator"] = _version("phevaluator")
            peers.append(
                Peer(
                    "phevaluator evaluate_cards",
                    "phevaluator",
                    "evaluate_cards(*h)",
                    list,
                    phevaluator.evaluate_cards,
                    mode="star",
                )
            )
            try:
                from phevaluator import _pheval

                peers.append(
                    Peer(
                        NATIVE_PHE,
                        "phevaluator",
                        "_pheval.evaluate_5cards(*h)",
                        list,
                        _pheval.evaluate_5cards,
                        mode="star",
                    )
                )
            except (ImportError, AttributeError) as exc:
                notes.append(
                    f"phevaluator native function unavailable ({exc}); "
                    "no ratio column and no rank5 per-call target"
                )
        except ImportError:
            notes.append("phevaluator not installed: skipped (pip install phevaluator)")

    if "eval7" not in skip:
        try:
            import eval7

            versions["eval7"] = _version("eval7")
            ecards = [eval7.Card(s) for s in names]
            peers.append(
                Peer(
                    "eval7",
                    "eval7",
                    "evaluate([Card x5])",
                    lambda hs: [[ecards[c] for c in h] for h in hs],
                    eval7.evaluate,
                )
            )
        except ImportError:
            notes.append("eval7 not installed: skipped (pip install eval7)")

    if "treys" not in skip:
        try:
            from treys import Card as TreysCard
            from treys import Evaluator as TreysEvaluator

            versions["treys"] = _version("treys")
            tcards = [TreysCard.new(s) for s in names]
            peers.append(
                Peer(
                    "treys",
                    "treys",
                    "Evaluator().evaluate(cards, [])",
                    lambda hs: [[tcards[c] for c in h] for h in hs],
                    TreysEvaluator().evaluate,
                    mode="extra",
                    extra=[],
                )
            )
        except ImportError:
            notes.append("treys not installed: skipped (pip install treys)")

    if "pokerkit" not in skip:
        try:
            from pokerkit import Card as PkCard
            from pokerkit import StandardHighHand

            versions["pokerkit"] = _version("pokerkit")
            pcards = [next(iter(PkCard.parse(s))) for s in names]
            peers.append(
                Peer(
                    "pokerkit",
                    "pokerkit",
                    "StandardHighHand.lookup.get_entry(cards)",
                    lambda hs: [tuple(pcards[c] for c in h) for h in hs],
                    StandardHighHand.lookup.get_entry,
                    score=lambda entry: int(entry.index),
                    slow=True,
                )
            )
        except ImportError:
            notes.append("pokerkit not installed: skipped (pip install pokerkit)")
    return peers


def _direction(score_of: Callable[[list], list]) -> int:
    """+1 when the evaluator scores a royal flush above 7-5-4-3-2, else -1."""
    royal, seven = score_of([ROYAL, SEVEN_HIGH])
    return 1 if royal > seven else -1


# --------------------------------------------------------------------------
# Agreement
# --------------------------------------------------------------------------


def dense_ranks(values: Sequence) -> list[int]:
    """Each value's index among the sorted distinct values."""
    index = {v: i for i, v in enumerate(sorted(set(values)))}
    return [index[v] for v in values]


def _compare(
    name: str,
    hands: Sequence,
    got: Sequence,
    ref: Sequence,
    ref_dense: list[int],
    pairs: list[tuple[int, int]],
    show: int,
    out: list[str],
) -> dict:
    """Pair-sign and dense-order agreement of ``got`` against ``ref``."""
    bad_pairs = [
        (i, j)
        for i, j in pairs
        if (got[i] > got[j]) - (got[i] < got[j]) != (ref[i] > ref[j]) - (ref[i] < ref[j])
    ]
    dense = dense_ranks(got)
    bad_hands = sum(1 for d, r in zip(dense, ref_dense) if d != r)
    for i, j in bad_pairs[:show]:
        out.append(
            f"    DISAGREE {name}: [{hand_str(hands[i])}] vs [{hand_str(hands[j])}]"
            f" scores {got[i]} vs {got[j]}, reference {ref[i]} vs {ref[j]}"
        )
    return {
        "pair_disagreements": len(bad_pairs),
        "order_mismatches": bad_hands,
        "ok": not bad_pairs and bad_hands == 0,
    }


def _peer_scorer(p: Any) -> Callable[[list], list]:
    """Scores of a peer evaluator on hands, in its own order convention."""

    def score(hs: list) -> list:
        return [p.score(s) for s in p.run(p.prepare(hs))]

    return score


def check_agreement(
    ofc: Any,
    peers: list[Peer],
    hands5: np.ndarray,
    hands3: np.ndarray,
    boards_a: np.ndarray,
    boards_b: np.ndarray,
    n_pairs: int,
    n_score: int,
    seed: int,
    show: int,
) -> tuple[dict, list[str]]:
    """All agreement checks; returns (results, printable lines)."""
    lines: list[str] = []
    results: dict[str, Any] = {}
    sample5 = hands5.tolist()
    rng = random.Random(seed ^ 0xA11CE)
    n = len(sample5)
    pairs = []
    for _ in range(n_pairs if n > 1 else 0):
        i = rng.randrange(n)
        j = rng.randrange(n - 1)
        pairs.append((i, j + (j >= i)))

    # 5-card: every evaluator against the reference, higher-is-better.
    scorers: dict[str, Callable[[list], list]] = {
        "ofc_fast rank5": lambda hs: [ofc.rank5(h) for h in hs],
        "ofc_fast rank5_batch": lambda hs: ofc.rank5_batch(
            np.asarray(hs, dtype=np.uint8)
        ).tolist(),
        "plain-Python reference": lambda hs: [reference_key(h) for h in hs],
    }
    for p in peers:
        scorers[p.label] = _peer_scorer(p)
    scores: dict[str, list] = {}
    for name, f in scorers.items():
        try:
            sign = _direction(f)
            raw = f(sample5)
            scores[name] = raw if sign > 0 else [-s for s in raw]
        except Exception as exc:
            results[name] = {"ok": False, "error": repr(exc)}
            lines.append(f"  {name:<30} FAIL: {exc!r}")
    reference = NATIVE_PHE if NATIVE_PHE in scores else "plain-Python reference"
    ref = scores[reference]
    ref_dense = dense_ranks(ref)
    lines.insert(
        0,
        f"5-card order vs {reference}: {len(pairs):,} random pairs and the "
        f"dense order of {n:,} hands ({max(ref_dense) + 1:,} distinct classes)",
    )
    for name, got in scores.items():
        if name == reference:
            continue
        res = _compare(name, sample5, got, ref, ref_dense, pairs, show, lines)
        results[name] = res
        lines.append(
            f"  {name:<30} pair disagreements {res['pair_disagreements']:>6}  "
            f"order mismatches {res['order_mismatches']:>6}  "
            f"{'OK' if res['ok'] else 'FAIL'}"
        )

    # 3-card hands together with 5-card hands on one scale.
    sample3 = hands3.tolist()
    mixed = sample3 + sample5[: len(sample3)]
    got_mixed = (
        ofc.rank3_batch(hands3).tolist() + ofc.rank5_batch(hands5[: len(sample3)]).tolist()
    )
    got_call3 = [ofc.rank3(h) for h in sample3]
    ref_mixed = [reference_key(h) for h in mixed]
    mpairs = [
        (rng.randrange(len(mixed)), rng.randrange(len(mixed))) for _ in range(n_pairs)
    ]
    res = _compare(
        "3+5-card scale",
        mixed,
        got_mixed,
        ref_mixed,
        dense_ranks(ref_mixed),
        mpairs,
        show,
        lines,
    )
    same_call = got_call3 == got_mixed[: len(sample3)]
    res["rank3_equals_rank3_batch"] = same_call
    res["ok"] = res["ok"] and same_call
    results["3-card + 5-card scale"] = res
    lines.append(
        f"3-card and 5-card hands on one scale vs the plain-Python reference "
        f"({len(sample3):,} + {len(sample3):,} hands):"
    )
    lines.append(
        f"  {'ofc_fast rank3_batch + rank5':<30} pair disagreements "
        f"{res['pair_disagreements']:>6}  order mismatches "
        f"{res['order_mismatches']:>6}  rank3 == rank3_batch: {same_call}  "
        f"{'OK' if res['ok'] else 'FAIL'}"
    )

    # Pair scoring under the OFC preset.
    a, b = boards_a[:n_score], boards_b[:n_score]
    sa, sb = np.sort(a, axis=1), np.sort(b, axis=1)  # by rank: more unfouled boards
    for label, xa, xb in (("random deals", a, b), ("rank-sorted rows", sa, sb)):
        net = ofc.score_pairs(xa, xb, ofc.rules.OFC).tolist()
        la, lb = xa.tolist(), xb.tolist()
        ref_net = [reference_score_ofc(p, q) for p, q in zip(la, lb)]
        one = [
            ofc.score_pair(p, q, ofc.rules.OFC).net for p, q in zip(la[:2000], lb[:2000])
        ]
        bad = [i for i, (x, y) in enumerate(zip(net, ref_net)) if x != y]
        bad_one = sum(1 for x, y in zip(one, net) if x != y)
        fouls = float(ofc.eval_boards(xa, ofc.rules.OFC).foul.mean())
        ok = not bad and bad_one == 0
        results[f"score_pairs {label}"] = {
            "pairs": len(net),
            "mismatches": len(bad),
            "score_pair_mismatches": bad_one,
            "foul_rate_a": fouls,
            "ok": ok,
        }
        lines.append(
            f"score_pairs (OFC, {label}, {fouls:.0%} of boards fouled) vs "
            f"plain-Python OFC scorer: {len(bad)} of {len(net):,} differ; vs "
            f"score_pair: {bad_one} of {len(one):,} differ  "
            f"{'OK' if ok else 'FAIL'}"
        )
        for i in bad[:show]:
            lines.append(
                f"    DIFFER [{hand_str(la[i])}] vs [{hand_str(lb[i])}]: "
                f"score_pairs {net[i]}, reference {ref_net[i]}"
            )
    return results, lines


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def format_table(rows: list[Row]) -> list[str]:
    base = next((r.median_ns for r in rows if r.label == NATIVE_PHE), None)
    lw = max(len(r.label) for r in rows) + 2
    head = (
        f"{'row':<{lw}}{'n':>9} {'unit':<5}{'median ns':>11}{'min ns':>10}"
        f"{'per s':>10}{'vs phe':>9}  {'target':<20}{'result':<7} api"
    )
    lines = [head, "-" * len(head)]
    group = None
    for r in rows:
        if group is not None and r.group != group:
            lines.append("")
        group = r.group
        ratio = f"{r.median_ns / base:8.3f}x" if base else f"{'':>9}"
        lines.append(
            f"{r.label:<{lw}}{r.n:>9,} {r.unit:<5}{r.median_ns:>11.1f}"
            f"{r.min_ns:>10.1f}{rate_text(r.per_s):>10}{ratio}  "
            f"{r.target:<20}{r.verdict:<7} {r.api}"
        )
    return lines


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def _parse(argv: list[str] | None) -> argparse.Namespace:
    ap = ScriptParser(
        formatter_class=ScriptHelp,
        prog="benchmarks/bench_python.py",
        allow_abbrev=False,
        description="Time ofc_fast (batch and per call) against peer evaluators on "
        "the same seeded random hands; check that they agree.",
    )
    ap.add_argument(
        "--n",
        type=at_least(1, MAX_N),
        default=None,
        help="hands (and board pairs) to time (default: 200000; --quick 20000; at "
        f"most {MAX_N:,}: the hands are held in memory, as Python lists too)",
    )
    ap.add_argument("--seed", type=at_least(0, SEED_MAX), default=1, help="random seed")
    ap.add_argument(
        "--reps",
        type=at_least(1),
        default=None,
        help="repetitions per row; median and min reported (default: 7; --quick 5)",
    )
    ap.add_argument(
        "--slow-n",
        type=at_least(1),
        default=None,
        help="hands for slow peers (pokerkit) (default: 50000; --quick 5000)",
    )
    ap.add_argument(
        "--check-n",
        type=at_least(1),
        default=None,
        help="hands in the agreement sample (default: 20000; --quick 5000)",
    )
    ap.add_argument(
        "--skip",
        default="",
        help="comma-separated peers to skip: phevaluator,eval7,treys,pokerkit "
        "(or 'peers' for all)",
    )
    ap.add_argument(
        "--show", type=at_least(0), default=3, help="disagreements printed per check"
    )
    ap.add_argument(
        "--json",
        type=output_file,
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="all results as JSON: written to PATH, or alone on standard "
        "output without PATH (the report then goes to standard error)",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="small run (a few seconds): smaller --n/--reps/--slow-n/--check-n",
    )
    ap.add_argument(
        "--strict",
        action="store_true",
        help="report missed performance targets as MISS and exit with "
        "status 2 (without it they are listed as information)",
    )
    args = ap.parse_args(argv)
    skip = {s.strip().lower() for s in args.skip.split(",") if s.strip()}
    unknown = sorted(skip - set(PEER_NAMES) - {"peers"})
    if unknown:
        ap.error(
            f"--skip: unknown name(s) {', '.join(unknown)}; choose from "
            f"{', '.join(PEER_NAMES)} or peers"
        )
    quick = args.quick
    if args.n is None:
        args.n = 20_000 if quick else 200_000
    if args.reps is None:
        args.reps = 5 if quick else 7
    if args.slow_n is None:
        args.slow_n = 5_000 if quick else 50_000
    if args.check_n is None:
        args.check_n = 5_000 if quick else 20_000
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a plain-text report.

    Returns 0 when every agreement check passes, 1 when an evaluator disagrees
    (its figures must not be trusted), 2 with ``--strict`` when all agree but a
    performance target is missed.  ``--json`` without a path prints only the JSON
    on standard output and the report on standard error.
    """
    args = _parse(argv)
    if args.json != "-":
        return _run(args, sys.stdout)
    json_out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        return _run(args, json_out)


def _run(args: argparse.Namespace, json_out: TextIO) -> int:
    import ofc_fast as ofc

    t_start = time.perf_counter()
    info = machine_info()
    versions = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "ofc_fast": getattr(ofc, "__version__", "?"),
    }
    notes: list[str] = []
    skip = {s.strip().lower() for s in args.skip.split(",") if s.strip()}
    if "peers" in skip:
        skip |= set(PEER_NAMES)
    peers = load_peers(skip, notes, versions)

    print(
        f"ofc_fast benchmark: {info['cpus']} cpu(s), {info['cpu']}; {info['python']}; "
        f"{info['platform']}"
    )
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(
        f"params: n={args.n:,} seed={args.seed} reps={args.reps} slow_n={args.slow_n:,} "
        f"check_n={args.check_n:,}{' (quick)' if args.quick else ''}"
    )
    for note in notes:
        print(f"NOTE: {note}")

    # The same hands for every row.
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    hands5 = deal(args.n, 5, rng)
    hands3 = deal(args.n, 3, rng)
    deals26 = deal(args.n, 26, rng)
    boards_a = np.ascontiguousarray(deals26[:, :13])
    boards_b = np.ascontiguousarray(deals26[:, 13:])
    del deals26
    sorted_a = np.sort(boards_a, axis=1)
    sorted_b = np.sort(boards_b, axis=1)
    lists5 = hands5.tolist()
    lists3 = hands3.tolist()
    print(
        f"dealt {args.n:,} 5-card hands, {args.n:,} 3-card hands and {args.n:,} pairs "
        f"of disjoint 13-card boards (seed {args.seed}) in "
        f"{time.perf_counter() - t0:.2f} s"
    )
    print()

    rows: list[Row] = []
    reps = args.reps
    out5 = np.empty(args.n, dtype=np.int32)
    out3 = np.empty(args.n, dtype=np.int32)
    outp = np.empty(args.n, dtype=np.int32)
    OFC = ofc.rules.OFC
    ofc.score_pairs(boards_a[:1], boards_b[:1], OFC)  # compile the rule set once

    def add(
        label: str, group: str, api: str, unit: str, n: int, run: Callable[[], Any]
    ) -> Row | None:
        try:
            times = time_runner(run, reps)
        except Exception as exc:
            notes.append(f"{label}: timing failed: {exc!r}")
            print(f"NOTE: {label}: timing failed: {exc!r}")
            return None
        row = Row(label, group, api, unit, n, times)
        rows.append(row)
        return row

    n = args.n
    add(
        "ofc_fast rank5_batch",
        "ofc_fast",
        "rank5_batch(uint8[N,5])",
        "hand",
        n,
        lambda: ofc.rank5_batch(hands5),
    )
    add(
        "ofc_fast rank5_batch out=",
        "ofc_fast",
        "rank5_batch(a, out=int32[N])",
        "hand",
        n,
        lambda: ofc.rank5_batch(hands5, out=out5),
    )
    add(
        "ofc_fast rank3_batch",
        "ofc_fast",
        "rank3_batch(uint8[N,3])",
        "hand",
        n,
        lambda: ofc.rank3_batch(hands3),
    )
    add(
        "ofc_fast rank3_batch out=",
        "ofc_fast",
        "rank3_batch(a, out=int32[N])",
        "hand",
        n,
        lambda: ofc.rank3_batch(hands3, out=out3),
    )
    add(
        "ofc_fast eval_boards",
        "ofc_fast",
        "eval_boards(uint8[N,13], OFC)",
        "board",
        n,
        lambda: ofc.eval_boards(boards_a, OFC),
    )
    add(
        "ofc_fast score_pairs",
        "ofc_fast",
        "score_pairs(a, b, OFC), random 13/13 deals",
        "pair",
        n,
        lambda: ofc.score_pairs(boards_a, boards_b, OFC, out=outp),
    )
    add(
        "ofc_fast score_pairs sorted",
        "ofc_fast",
        "score_pairs, same cards, rows sorted by rank",
        "pair",
        n,
        lambda: ofc.score_pairs(sorted_a, sorted_b, OFC, out=outp),
    )
    add(
        "ofc_fast rank5",
        "ofc_fast",
        "[rank5(h) for h in hands]  (h: list of 5 ints)",
        "hand",
        n,
        _per_call("one", ofc.rank5, lists5),
    )
    add(
        "ofc_fast rank3",
        "ofc_fast",
        "[rank3(h) for h in hands]  (h: list of 3 ints)",
        "hand",
        n,
        _per_call("one", ofc.rank3, lists3),
    )

    for p in peers:
        m = min(n, args.slow_n) if p.slow else n
        try:
            data = p.prepare(lists5[:m])
        except Exception as exc:
            notes.append(f"{p.label}: input conversion failed: {exc!r}")
            print(f"NOTE: {p.label}: input conversion failed: {exc!r}")
            continue
        row = add(
            p.label,
            "peer",
            f"{p.api}  [{p.dist} {versions.get(p.dist, '?')}]",
            "hand",
            m,
            _per_call(p.mode, p.call, data, p.extra),
        )
        if row is not None and p.slow:
            row.notes.append(f"timed on the first {m:,} hands")
        del data

    add(
        "floor: empty loop",
        "floor",
        "[None for h in hands]",
        "hand",
        n,
        _per_call("empty", None, lists5),
    )  # type: ignore[arg-type]
    add(
        "floor: builtin call",
        "floor",
        "[len(h) for h in hands]",
        "hand",
        n,
        _per_call("one", len, lists5),
    )

    # Targets.
    by_label = {r.label: r for r in rows}
    misses: list[str] = []

    def judge(label: str, limit: float | None, text: str) -> None:
        row = by_label.get(label)
        if row is None:
            return
        row.target = text
        if limit is None:
            row.verdict = "n/a"
            return
        ok = row.median_ns <= limit
        row.verdict = "pass" if ok else ("MISS" if args.strict else "slower")
        if not ok:
            misses.append(
                f"{label}: median {row.median_ns:.1f} ns/{row.unit} vs target "
                f"{limit:.1f} ns ({row.median_ns / limit:.2f}x, "
                f"+{row.median_ns - limit:.1f} ns)"
            )

    judge(
        "ofc_fast rank5_batch",
        TARGETS["rank5_batch"],
        f"<= {TARGETS['rank5_batch']:g} ns/hand",
    )
    judge(
        "ofc_fast score_pairs",
        TARGETS["score_pairs"],
        f"<= {TARGETS['score_pairs']:g} ns/pair",
    )
    native = by_label.get(NATIVE_PHE)
    judge(
        "ofc_fast rank5",
        native.median_ns if native else None,
        f"<= phe native ({native.median_ns:.0f})" if native else "<= phe native",
    )

    for line in format_table(rows):
        print(line)
    print()
    for r in rows:
        for note in r.notes:
            print(f"NOTE: {r.label}: {note}")
    print(
        "median ns = median over the repetitions of (loop seconds / n); min ns likewise "
        "with the fastest repetition; per s and 'vs phe' (ratio of medians to "
        f"'{NATIVE_PHE}') use the medians."
    )
    print(
        "C-loop targets (5-card <= 3 ns, 3-card <= 1.5 ns, board pair <= 25 ns) are "
        "timed by benchmarks/bench_c.c: python benchmarks/run.py"
    )
    judged = [r for r in rows if r.verdict in ("pass", "MISS", "slower")]
    print(
        f"targets: {sum(r.verdict == 'pass' for r in judged)} of {len(judged)} met"
        + (
            ""
            if not misses
            else "; missed:"
            if args.strict
            else "; slower than the target here (information; --strict makes it an error):"
        )
    )
    for m in misses:
        print(f"  {'MISS ' if args.strict else ''}{m}")

    # Agreement (not timed).
    print()
    t0 = time.perf_counter()
    k = min(args.check_n, n)
    agreement, lines = check_agreement(
        ofc,
        peers,
        hands5[:k],
        hands3[:k],
        boards_a,
        boards_b,
        n_pairs=min(20_000, 4 * k),
        n_score=min(k, 5_000),
        seed=args.seed,
        show=args.show,
    )
    for line in lines:
        print(line)
    failed = [name for name, res in agreement.items() if not res.get("ok")]
    print(
        f"agreement: {'all OK' if not failed else 'FAILED: ' + ', '.join(failed)} "
        f"({time.perf_counter() - t0:.1f} s)"
    )
    print(f"total time {time.perf_counter() - t_start:.1f} s")

    if args.json:
        doc = {
            "machine": info,
            "versions": versions,
            "params": {
                k2: getattr(args, k2)
                for k2 in ("n", "seed", "reps", "slow_n", "check_n", "quick")
            },
            "targets": {
                "rank5_batch_ns": TARGETS["rank5_batch"],
                "score_pairs_ns": TARGETS["score_pairs"],
                "rank5_per_call": "<= phevaluator native per call",
            },
            "rows": [r.to_dict() for r in rows],
            "misses": misses,
            "agreement": agreement,
            "notes": notes,
        }
        print_or_write_json(doc, args.json, json_out)

    if failed:
        return 1
    if misses and args.strict:
        return 2
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_python.py"))
