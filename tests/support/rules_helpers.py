"""Helpers for the rule-set tests (test_presets, test_settle_modes, test_worked_examples,
test_fantasyland, test_lowball27, test_rules_model).

Everything here is written from docs/rules.md / docs/design.md, not from the library's code: the
table-stakes models are re-implemented from the rule text (R-STAKES-2, R-STAKES-3) so the
library's ``apply_stakes`` is checked against an independent reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import ofc_fast as ofc


def cards_of(*boards: str) -> list[int]:
    """Card ids of board texts (rows separated by '/')."""
    out: list[int] = []
    for b in boards:
        out += ofc.parse_cards(b.replace("/", " ").replace("|", " "))
    return out


def assert_disjoint(*boards: str) -> None:
    """The boards of one table share no card (a test-data sanity check)."""
    counts = Counter(cards_of(*boards))
    dup = [ofc.card_str(c) for c, n in counts.items() if n > 1]
    assert not dup, f"test data error: cards used twice: {dup}"


def pair_actual(result: ofc.Settlement) -> dict[tuple[int, int], int]:
    """Actual transfer per pair from a settlement's items (> 0: pair[1] paid pair[0]),
    "stakes" corrections included."""
    out: dict[tuple[int, int], int] = {}
    for it in result.items:
        signed = it.amount if it.payee == it.pair[0] else -it.amount
        assert {it.payer, it.payee} == set(it.pair), it
        out[it.pair] = out.get(it.pair, 0) + signed
    return out


def items_net(result: ofc.Settlement, players: int) -> list[int]:
    """Per-seat sum of the itemised transfers."""
    net = [0] * players
    for it in result.items:
        assert it.amount > 0 and it.payer != it.payee, it
        net[it.payee] += it.amount
        net[it.payer] -= it.amount
    return net


def kinds(result: ofc.Settlement) -> dict[str, int]:
    """Total amount per item kind."""
    out: dict[str, int] = {}
    for it in result.items:
        out[it.kind] = out.get(it.kind, 0) + it.amount
    return out


# ------------------------------------------------------------ table stakes, from the text


def ref_win_cap(
    transfers: Sequence[tuple[tuple[int, int], int]], stacks: Sequence[int]
) -> list[int]:
    """R-STAKES-1/2 as written: a player owes at most the chips in front of him; he
    cannot win more than his stake at the start of the deal; when his running win
    reaches that stake the current opponent pays only the remainder and his hand is
    complete: he neither wins nor loses anything further that deal."""
    start = list(stacks)
    chips = list(stacks)
    complete = [False] * len(stacks)
    out = []
    for (i, j), amount in transfers:
        if amount == 0:
            out.append(0)
            continue
        winner, loser = (i, j) if amount > 0 else (j, i)
        if complete[winner] or complete[loser]:
            paid = 0
        else:
            remainder = start[winner] - (chips[winner] - start[winner])
            paid = max(0, min(abs(amount), chips[loser], remainder))
        chips[winner] += paid
        chips[loser] -= paid
        if chips[winner] - start[winner] >= start[winner]:
            complete[winner] = True
        out.append(paid if amount > 0 else -paid)
    return out


def ref_chips(
    transfers: Sequence[tuple[tuple[int, int], int]], stacks: Sequence[int]
) -> list[int]:
    """R-STAKES-3, the plausible model docs/rules.md spells out: capacity = starting chips;
    each pair transfer = min(nominal, capacity_X, capacity_Y); both capacities drop by
    the transfer."""
    capacity = list(stacks)
    out = []
    for (i, j), amount in transfers:
        paid = min(abs(amount), capacity[i], capacity[j])
        capacity[i] -= paid
        capacity[j] -= paid
        out.append(paid if amount > 0 else -paid)
    return out
