#!/usr/bin/env python3
"""Generate ``csrc/generated/ofc_tables.c``: every lookup table of the C library.

Run from anywhere::

    python tools/gen_tables.py            # (re)write csrc/generated/ofc_tables.c
    python tools/gen_tables.py --check    # exit 1 if the file differs from a fresh run

The output is a pure function of this script (no randomness, no dates), so a test
regenerates it and compares bytes.

What is built
-------------
The strength scale (docs/design.md, "Strength"): every distinct 5-card class and every
distinct 3-card class is described by an ordering key ``(order_category, r1..r5)``
where missing ranks of a 3-card hand are -1 (below a deuce, R-ORDER-2).  Sorting all
7,462 + 455 keys gives the dense strengths 1..7917 (0 means "no hand").

5-card ranking (perfect hash, no loops, no branches but the flush test):

* per-rank constants whose sums over any 5 ranks (at most four alike) are all
  distinct, found greedily (smallest constant that keeps every sum of 1..5 ranks
  distinct); ``ofc_tab_card_key[card]`` holds the constant of the card's rank in its
  low 32 bits and a suit counter (one nibble per suit) above, so one sum of five
  entries gives both the rank key ``k`` and, through the nibbles, the flush test;
* non-flush hands: strength =
  ``ofc_tab_hash_value[ofc_tab_hash_offset[k >> SHIFT] + (k & MASK)]``, a row-displacement
  perfect hash (rows placed densest first at the lowest offset that collides with
  nothing);
* flush hands: ``ofc_tab_flush[rank bit mask]`` (8,192 entries).

3-card ranking: ``ofc_tab_top3[169*ra + 13*rb + rc]`` for every order of the three ranks.

Per strength: packed description (category, card count, ranks), Cactus Kev number,
and the 2-7 lowball value of a 5-card class (ace always high, A-2-3-4-5 no straight).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections import Counter
from pathlib import Path

# tools/ itself, also under PYTHONSAFEPATH (the tests set it): the shared output step
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_output

OUT = gen_output.GENERATED / "ofc_tables.c"

# Order categories (royal flush is ordered as the top straight flush).
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, SFLUSH, ROYAL = range(10)
ACE = 12
NONE = 0xF  # rank nibble for "no card" in the packed description


def straight_top(ranks: tuple[int, ...], wheel: bool = True) -> int:
    """Top rank of a straight made by 5 distinct ranks, or -1 (wheel = 5-high)."""
    s = sorted(ranks, reverse=True)
    if s[0] - s[4] == 4:
        return s[0]
    if wheel and s == [ACE, 3, 2, 1, 0]:
        return 3
    return -1


def grouped(ranks: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Ranks ordered by (multiplicity, rank) descending, and the multiplicities."""
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return [r for r, _ in groups], [n for _, n in groups]


def class5(ranks: tuple[int, ...], flush: bool, wheel: bool = True):
    """(category, ordering key, description ranks) of a 5-card class."""
    order, shape = grouped(ranks)
    desc = sorted(ranks, reverse=True)
    if shape == [1, 1, 1, 1, 1]:
        top = straight_top(ranks, wheel)
        if top >= 0:
            cat = (ROYAL if top == ACE else SFLUSH) if flush else STRAIGHT
            ocat = SFLUSH if flush else STRAIGHT
            if top == 3:
                desc = [3, 2, 1, 0, ACE]
            return cat, (ocat, top, -1, -1, -1, -1), desc
        cat = FLUSH if flush else HIGH
        return cat, (cat, *order), desc
    cat = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
    }[tuple(shape)]
    expanded = [r for r in order for _ in range(shape[order.index(r)])]
    return cat, (cat, *order, *([-1] * (5 - len(order)))), expanded


def class3(ranks: tuple[int, ...]):
    """(category, ordering key, description ranks) of a 3-card class."""
    order, shape = grouped(ranks)
    cat = {(3,): TRIPS, (2, 1): PAIR, (1, 1, 1): HIGH}[tuple(shape)]
    key = (cat, *order, *([-1] * (5 - len(order))))
    expanded = [r for r in order for _ in range(shape[order.index(r)])]
    return cat, key, expanded


def rank_multisets(size: int, max_each: int):
    """Every multiset of ``size`` ranks with at most ``max_each`` of a rank."""
    for combo in itertools.combinations_with_replacement(range(13), size):
        if max(Counter(combo).values()) <= max_each:
            yield combo


def build_scale():
    """Return (classes, strength_of) for all 5-card and 3-card classes.

    ``classes`` lists (key, category, ncards, desc_ranks, kind) sorted weakest
    first; ``strength_of[(ncards, ranks_sorted, flush)]`` gives the strength.
    """
    entries = []
    for ranks in rank_multisets(5, 4):
        cat, key, desc = class5(ranks, False)
        entries.append((key, cat, 5, desc, (5, ranks, False)))
        if len(set(ranks)) == 5:
            cat, key, desc = class5(ranks, True)
            # flushes order above every non-flush key of a lower category
            entries.append((key, cat, 5, desc, (5, ranks, True)))
    for ranks in rank_multisets(3, 3):
        cat, key, desc = class3(ranks)
        entries.append((key, cat, 3, desc, (3, ranks, False)))
    keys = sorted({e[0] for e in entries})
    assert len(keys) == 7462 + 455, len(keys)
    strength_of_key = {k: i + 1 for i, k in enumerate(keys)}
    strength_of = {e[4]: strength_of_key[e[0]] for e in entries}
    classes = [None] * (len(keys) + 1)
    for key, cat, n, desc, _ in entries:
        classes[strength_of_key[key]] = (key, cat, n, desc)
    return classes, strength_of


def find_rank_keys() -> list[int]:
    """Greedy per-rank constants: all sums of 1..5 ranks (<= 4 alike) distinct."""
    # sums[s] = bit set (a Python int) of the sums of every s-multiset so far;
    # the empty multiset sums to 0.  A candidate c for the next rank adds, for each
    # size s and m = 1..min(4, s) copies, the sums (sums[s - m] << m*c): they must
    # miss the old sums of size s and each other (same m never collide).
    sums = [1] + [0] * 5
    keys: list[int] = []
    for _ in range(13):
        cand = keys[-1] + 1 if keys else 0
        while not _keeps_sums_distinct(sums, cand):
            cand += 1
        keys.append(cand)
        sums = [sums[s] | _added_sums(sums, s, cand) for s in range(6)]
    return keys


def _shifted(sums: list[int], s: int, c: int) -> list[int]:
    return [sums[s - m] << (m * c) for m in range(1, min(4, s) + 1)]


def _added_sums(sums: list[int], s: int, c: int) -> int:
    out = 0
    for part in _shifted(sums, s, c):
        out |= part
    return out


def _keeps_sums_distinct(sums: list[int], c: int) -> bool:
    for s in range(1, 6):
        parts = [sums[s]] + _shifted(sums, s, c)
        for i, a in enumerate(parts):
            for b in parts[i + 1 :]:
                if a & b:
                    return False
    return True


def displacement_hash(values: dict[int, int], shift: int):
    """Row-displacement perfect hash of ``values`` (key -> value), densest rows first."""
    mask = (1 << shift) - 1
    rows: dict[int, list[int]] = {}
    for k in values:
        rows.setdefault(k >> shift, []).append(k & mask)
    nrows = max(rows) + 1
    offsets = [0] * nrows
    used = 0  # bit set of occupied slots
    for row in sorted(rows, key=lambda r: (-len(rows[r]), r)):
        pattern = sum(1 << c for c in rows[row])
        off = 0
        while (pattern << off) & used:
            off += 1
        offsets[row] = off
        used |= pattern << off
    size = used.bit_length()
    table = [0] * size
    for k, v in values.items():
        table[offsets[k >> shift] + (k & mask)] = v
    return offsets, table


def lowball27(classes) -> list[int]:
    """2-7 value per strength: larger = better low hand; 0 for 3-card strengths."""
    keyed = []
    for s in range(1, len(classes)):
        _key, cat, n, desc = classes[s]
        if n != 5:
            continue
        flush = cat in (FLUSH, SFLUSH, ROYAL)
        _, low_key, _ = class5(tuple(desc), flush, wheel=False)
        keyed.append((low_key, s))
    order = sorted({k for k, _ in keyed}, reverse=True)  # strongest high hand first
    assert len(order) == 7462
    value = {k: i + 1 for i, k in enumerate(order)}  # weakest high = best low = largest
    out = [0] * len(classes)
    for k, s in keyed:
        out[s] = value[k]
    return out


def c_array(ctype: str, name: str, values: list[int], per_line: int = 12) -> str:
    hexa = ctype == "uint64_t"
    fmt = (lambda v: f"UINT64_C(0x{v:016x})") if hexa else str
    width = max(len(fmt(v)) for v in values)
    lines = []
    for i in range(0, len(values), per_line):
        chunk = values[i : i + per_line]
        lines.append("    " + ", ".join(fmt(v).rjust(width) for v in chunk) + ",")
    return f"const {ctype} {name}[{len(values)}] = {{\n" + "\n".join(lines) + "\n};\n"


def generate() -> str:
    classes, strength_of = build_scale()
    nstr = len(classes)  # strengths 0..7917

    rank_keys = find_rank_keys()
    nonflush = {}
    for ranks in rank_multisets(5, 4):
        nonflush[sum(rank_keys[r] for r in ranks)] = strength_of[(5, ranks, False)]
    assert len(nonflush) == 6175
    best = None
    for shift in range(5, 12):
        offsets, table = displacement_hash(nonflush, shift)
        cost = 2 * len(offsets) + 2 * len(table)
        if best is None or cost < best[0]:
            best = (cost, shift, offsets, table)
    _, shift, offsets, table = best
    assert max(offsets) < 65536

    card_keys = [rank_keys[c >> 2] | (1 << (32 + 4 * (c & 3))) for c in range(52)]
    card_bits = [(1 << c) if c < 52 else (1 << 63) for c in range(256)]
    flush = [0] * 8192
    for ranks in itertools.combinations(range(13), 5):
        flush[sum(1 << r for r in ranks)] = strength_of[(5, ranks, True)]

    top3 = [0] * 2197
    for ra, rb, rc in itertools.product(range(13), repeat=3):
        top3[169 * ra + 13 * rb + rc] = strength_of[(3, tuple(sorted((ra, rb, rc))), False)]

    info = [0] * nstr
    kev = [0] * nstr
    five = [s for s in range(1, nstr) if classes[s][2] == 5]
    for i, s in enumerate(five):
        kev[s] = 7462 - i
    for s in range(1, nstr):
        _, cat, n, desc = classes[s]
        nib = list(desc) + [NONE] * (5 - len(desc))
        packed = 0
        for r in nib:
            packed = (packed << 4) | r
        info[s] = (n << 24) | (cat << 20) | packed
    low27 = lowball27(classes)

    parts = [
        "/* ofc_tables.c -- GENERATED by tools/gen_tables.py; do not edit by hand.\n"
        " * Regenerate with `python tools/gen_tables.py`; tests check the bytes. */\n",
        '#include "ofc_tables.h"\n',
        f"/* Per card: rank constant (sums of any 5 ranks, <= 4 alike, are distinct; "
        f"max {max(nonflush)})\n * | 1 << (32 + 4 * suit): a suit counter per nibble. */",
        c_array("uint64_t", "ofc_tab_card_key", card_keys, 4),
        "/* Per card: 1 << rank (the flush table index is their OR). */",
        c_array(
            "uint16_t", "ofc_tab_card_rank_bit", [1 << (c >> 2) for c in range(52)], 13
        ),
        "/* Per byte: 1 << id for a card id, 1 << 63 for a byte that is no card: five cards\n"
        " * are valid iff the OR of their entries equals the sum and bit 63 is clear. */",
        c_array("uint64_t", "ofc_tab_card_bit", card_bits, 4),
        f"/* Row displacement: strength = ofc_tab_hash_value[ofc_tab_hash_offset[k >> {shift}] "
        f"+ (k & {(1 << shift) - 1})]. */",
        c_array("uint16_t", "ofc_tab_hash_offset", offsets),
        c_array("uint16_t", "ofc_tab_hash_value", table),
        "/* Flush strength by 13-bit rank mask (0 where the mask is not 5 bits). */",
        c_array("uint16_t", "ofc_tab_flush", flush),
        "/* 3-card strength by 169*rank_a + 13*rank_b + rank_c (every order). */",
        c_array("uint16_t", "ofc_tab_top3", top3),
        "/* Per strength: ncards << 24 | category << 20 | five rank nibbles "
        "(0xF = no card). */",
        c_array("uint32_t", "ofc_tab_strength_info", info, 8),
        "/* Per strength: Cactus Kev number (1 = royal .. 7462), 0 for 3-card. */",
        c_array("uint16_t", "ofc_tab_kev", kev),
        "/* Per strength: 2-7 lowball value (larger = better low), 0 for 3-card. */",
        c_array("uint16_t", "ofc_tab_low27", low27),
        "/* Binomials: ofc_tab_binom[6 * n + k] = C(n, k) for n 0..17, k 0..5 (read through\n"
        " * ofc_binom() in ofc_internal.h). */",
        c_array(
            "uint16_t",
            "ofc_tab_binom",
            [math.comb(n, k) for n in range(18) for k in range(6)],
            6,
        ),
    ]
    header = (
        f"/* ofc_tables.h -- GENERATED by tools/gen_tables.py; do not edit by hand. */\n"
        f"#ifndef OFC_TABLES_H\n#define OFC_TABLES_H\n\n#include <stdint.h>\n\n"
        f'#include "ofc_export.h"\n\n'
        f'#ifdef __cplusplus\nextern "C" {{\n#endif\n\n'
        f"#define OFC_HASH_SHIFT {shift}\n#define OFC_HASH_MASK {(1 << shift) - 1}\n"
        f"#define OFC_HASH_ROWS {len(offsets)}\n#define OFC_HASH_SIZE {len(table)}\n"
        f"#define OFC_TABLE_STRENGTHS {nstr}\n\n"
        f"OFC_API extern const uint64_t ofc_tab_card_key[52];\n"
        f"OFC_API extern const uint16_t ofc_tab_card_rank_bit[52];\n"
        f"OFC_API extern const uint64_t ofc_tab_card_bit[256];\n"
        f"OFC_API extern const uint16_t ofc_tab_hash_offset[{len(offsets)}];\n"
        f"OFC_API extern const uint16_t ofc_tab_hash_value[{len(table)}];\n"
        f"OFC_API extern const uint16_t ofc_tab_flush[8192];\n"
        f"OFC_API extern const uint16_t ofc_tab_top3[2197];\n"
        f"OFC_API extern const uint32_t ofc_tab_strength_info[{nstr}];\n"
        f"OFC_API extern const uint16_t ofc_tab_kev[{nstr}];\n"
        f"OFC_API extern const uint16_t ofc_tab_low27[{nstr}];\n"
        f"OFC_API extern const uint16_t ofc_tab_binom[108];\n"
        f"\n"
        f"#ifdef __cplusplus\n}}\n#endif\n\n"
        f"#endif /* OFC_TABLES_H */\n"
    )
    return header, "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    gen_output.add_arguments(ap, "ofc_tables.c / ofc_tables.h")
    args = ap.parse_args(argv)
    header, source = generate()
    files = {args.out_dir / "ofc_tables.h": header, args.out_dir / "ofc_tables.c": source}
    return gen_output.write_or_check(files, "tools/gen_tables.py", args.check)


if __name__ == "__main__":
    sys.exit(main())
