#!/usr/bin/env python3
"""Generate ``csrc/generated/ofc_opponent_rows.c`` and ``.h``: the opponent row counts,
the row-strength distribution of a typical opponent behind
``best_setting(objective="ev")`` and the solvers' tie-break.

What is estimated
-----------------
For each row (front, middle, back) and each strength s, how often a typical opponent's
row of the same position has strength s.  ``ofc_ev_tables_init()`` turns the counts
into, per row and strength, P(opponent's row weaker), P(stronger) and the expected
row units under a rule set (csrc/include/ofc_solver.h); that is the probability that
a row of a given strength wins against the opponent's row of the same position.

Method (fictitious self-play, fixed seed, reproducible bit for bit)
--------------------------------------------------------------------
* Round 0 (the prior): every 3-card hand of the deck for the front and every 5-card
  hand for the middle and back, each counted once (22,100 and 2,598,960 hands): an
  opponent who "plays random hands".
* Round k = 1..ROUNDS: deal DEALS random 13-card hands (numpy PCG64 seeded with
  SEED + k, each hand the first 13 cards of a permutation of the deck) and set each
  one with the exact arranger, ``ofc_best_settings(objective = EV)`` under
  CLASSIC_1_6 (1-6 scoring with the classic win-only bonuses), against the opponent
  of round k: the prior for k = 1, else the sum of the row counts of rounds
  1..k-1 (the average of the previous best responses: fictitious play).  The
  strengths of the three rows of these settings are counted.
* The sum of the counts of all rounds is written: ROUNDS * DEALS settings.
  Plain best response oscillates from round to round (the distance between
  successive cumulative distributions stays at 0.1-0.3); the running average
  settles (successive averages differ by < 0.01 after 7 rounds), which is what
  fictitious play is for.  The result is an opponent who sets his hands the way the
  arranger does against the field: a typical competent player, never fouling.

Defaults: ROUNDS = 8, DEALS = 15,000, SEED = 20240611 (about 20 s of CPU).

Reproducibility
---------------
The generated source records the SHA-256 of its counts and of a ``--quick`` run (the
same method with 400 deals a round).  ``tests/test_solver.py`` re-runs ``--quick``
and compares the digest, checks the counts of the file against the compiled library,
and runs ``--check``, which regenerates the full table and compares both files byte
for byte (CI runs it too, like ``tools/gen_tables.py --check``).  The generator needs
the compiled package (``pip install -e .`` or ``python setup.py build_ext --inplace``
with the checkout on ``PYTHONPATH``): the counts come from the library's arranger.

Usage::

    python tools/gen_opponent_rows.py            # write csrc/generated/ofc_opponent_rows.*
    python tools/gen_opponent_rows.py --check    # regenerate, compare, exit 1 on a change
    python tools/gen_opponent_rows.py --quick    # print the quick digest only (no --check)
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

# tools/ itself, also under PYTHONSAFEPATH (the tests set it): the shared output step
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_output

OUT = gen_output.GENERATED / "ofc_opponent_rows.c"
ROUNDS = 8
DEALS = 15_000
QUICK_DEALS = 400
SEED = 20240611
SIZE = 7918
CHUNK = 5_000


@lru_cache(maxsize=1)
def _lib():
    # The installed package (pip install . or -e .): its compiled module runs the
    # arranger; a source tree without the build is not importable.
    from ofc_fast._native import OK, ffi, lib
    from ofc_fast.rules import CLASSIC_1_6
    from ofc_fast.rules.compiled import compiled

    return ffi, lib, OK, compiled(CLASSIC_1_6)


@lru_cache(maxsize=1)
def prior_counts() -> np.ndarray:
    """Round 0: every 3-card and every 5-card hand of the deck, counted once."""
    ffi, lib, OK, _ = _lib()
    counts = np.zeros((3, SIZE), dtype=np.uint64)
    three = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 3)), dtype=np.uint8
    ).reshape(-1, 3)
    five = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.uint8
    ).reshape(-1, 5)
    s3 = np.empty(len(three), dtype=np.int32)
    s5 = np.empty(len(five), dtype=np.int32)
    assert (
        lib.ofc_rank3_batch(
            ffi.from_buffer("uint8_t[]", three),
            len(three),
            ffi.from_buffer("int32_t[]", s3),
            ffi.NULL,
        )
        == OK
    )
    assert (
        lib.ofc_rank5_batch(
            ffi.from_buffer("uint8_t[]", five),
            len(five),
            ffi.from_buffer("int32_t[]", s5),
            ffi.NULL,
        )
        == OK
    )
    counts[0] = np.bincount(s3, minlength=SIZE)
    counts[1] = counts[2] = np.bincount(s5, minlength=SIZE)
    return counts.astype(np.uint32)


def play_round(counts: np.ndarray, deals: int, seed: int) -> np.ndarray:
    """Deal ``deals`` hands, set each with the ev arranger against ``counts``, count
    the strengths of the rows."""
    ffi, lib, OK, rules = _lib()
    tables = ffi.new("ofc_ev_tables *")
    flat = np.ascontiguousarray(counts, dtype=np.uint32).reshape(-1)
    assert (
        lib.ofc_ev_tables_init_counts(rules, ffi.from_buffer("uint32_t[]", flat), tables)
        == OK
    )
    rng = np.random.Generator(np.random.PCG64(seed))
    hands = np.empty((deals, 13), dtype=np.uint8)
    for i in range(deals):
        hands[i] = rng.permutation(52)[:13]
    out = np.zeros((3, SIZE), dtype=np.uint64)
    for start in range(0, deals, CHUNK):
        part = np.ascontiguousarray(hands[start : start + CHUNK])
        n = len(part)
        boards = np.empty((n, 13), dtype=np.uint8)
        status = lib.ofc_best_settings(
            rules,
            tables,
            ffi.from_buffer("uint8_t[]", part),
            n,
            lib.OFC_OBJECTIVE_EV,
            ffi.from_buffer("uint8_t[]", boards),
            ffi.NULL,
            ffi.NULL,
        )
        assert status == OK, status
        strength = np.empty((n, 3), dtype=np.int32)
        assert (
            lib.ofc_eval_boards(
                rules,
                ffi.from_buffer("uint8_t[]", boards),
                n,
                ffi.from_buffer("int32_t[]", strength),
                ffi.NULL,
                ffi.NULL,
                ffi.NULL,
            )
            == OK
        )
        for row in range(3):
            out[row] += np.bincount(strength[:, row], minlength=SIZE).astype(np.uint64)
    return out.astype(np.uint32)


def generate(
    deals: int, rounds: int = ROUNDS, seed: int = SEED, verbose: bool = False
) -> np.ndarray:
    """Fictitious play: each round answers the sum of the previous rounds' counts."""
    total = np.zeros((3, SIZE), dtype=np.uint64)
    for k in range(1, rounds + 1):
        t0 = time.perf_counter()
        opponent = prior_counts() if k == 1 else total.astype(np.uint32)
        total += play_round(opponent, deals, seed + k)
        if verbose:
            print(
                f"round {k}: {deals} deals in {time.perf_counter() - t0:.1f} s",
                file=sys.stderr,
            )
    return total.astype(np.uint32)


def digest(counts: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(counts, dtype="<u4").tobytes()).hexdigest()


def render(
    counts: np.ndarray,
    quick_digest: str,
    deals: int = DEALS,
    rounds: int = ROUNDS,
    seed: int = SEED,
) -> str:
    lines = [
        "/* ofc_opponent_rows.c -- GENERATED by tools/gen_opponent_rows.py; do not edit by hand.",
        " *",
        " * Row-strength distribution of a typical opponent (front, middle, back; indexed by",
        " * strength): counts of the rows of the settings the exact ev arranger chose for",
        f" * {rounds} x {deals} random 13-card hands (CLASSIC_1_6) in {rounds} rounds of",
        " * fictitious self-play that start from the distribution of random hands.",
        " * Method and reproducibility: tools/gen_opponent_rows.py.",
        " *",
        f" * seed {seed}, rounds {rounds}, deals per round {deals}",
        f" * counts sha256: {digest(counts)}",
        f" * quick sha256 ({QUICK_DEALS} deals per round): {quick_digest}",
        " */",
        '#include "ofc_opponent_rows.h"',
        "",
        f"const uint32_t ofc_opponent_row_deals = {deals * rounds};",
        "",
        "const uint32_t ofc_opponent_row_counts[3 * 7918] = {",
    ]
    for row, name in enumerate(("front", "middle", "back")):
        lines.append(f"    /* {name} */")
        values = [str(int(v)) for v in counts[row]]
        for i in range(0, SIZE, 16):
            lines.append("    " + ", ".join(values[i : i + 16]) + ",")
    lines.append("};")
    return "\n".join(lines) + "\n"


HEADER = """\
/* ofc_opponent_rows.h -- GENERATED by tools/gen_opponent_rows.py; do not edit by hand.
 *
 * The opponent row counts (private to the library): how often a typical opponent's
 * front, middle and back have each strength (ofc_opponent_rows.c holds them and how
 * they were made).  The expected-points model (ofc_ev_model.c) is built from them.
 */
#ifndef OFC_OPPONENT_ROWS_H
#define OFC_OPPONENT_ROWS_H

#include <stdint.h>

/* The settings counted: rounds x deals per round. */
extern const uint32_t ofc_opponent_row_deals;

/* Per row (front, middle, back), the count of each strength 0..7917. */
extern const uint32_t ofc_opponent_row_counts[3 * 7918];

#endif /* OFC_OPPONENT_ROWS_H */
"""


def recorded(text: str, key: str) -> str:
    for line in text.splitlines():
        if key in line:
            return line.rsplit(":", 1)[1].strip()
    return ""


def file_counts(text: str) -> np.ndarray:
    body = text.split("ofc_opponent_row_counts[3 * 7918] = {", 1)[1].split("};", 1)[0]
    numbers = [
        int(tok)
        for line in body.splitlines()
        for tok in line.split("/*")[0].replace(",", " ").split()
    ]
    return np.array(numbers, dtype=np.uint32).reshape(3, SIZE)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"run the method with {QUICK_DEALS} deals a round and print the "
        f"digest of its counts (what the tests compare)",
    )
    gen_output.add_arguments(p, "ofc_opponent_rows.c / ofc_opponent_rows.h")
    args = p.parse_args(argv)
    for given, option in (
        (args.check, "--check"),
        (args.out_dir.resolve() != OUT.parent, "--out-dir"),
    ):
        if args.quick and given:  # (it was ignored: --check exited 0 on any file)
            p.error(f"--quick: not with {option}: it prints a digest and writes nothing")
    if args.quick:
        print(digest(generate(QUICK_DEALS)))
        return 0
    t0 = time.perf_counter()
    quick = digest(generate(QUICK_DEALS))
    text = render(generate(DEALS, verbose=True), quick)
    print(f"generated in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    files = {args.out_dir / OUT.name: text, args.out_dir / "ofc_opponent_rows.h": HEADER}
    return gen_output.write_or_check(files, "tools/gen_opponent_rows.py", args.check)


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (a reader gone: no BrokenPipeError)

    sys.exit(run_command(main, "gen_opponent_rows.py"))
