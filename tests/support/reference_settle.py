"""Reference table settlement in pure Python, for the differential test of the C
``ofc_settle`` (tests/test_settle_differential.py).

This is the Python settlement the library used before it moved to C (independently
checked against docs/rules.md and the worked examples at the time), kept here as the
reference.  It calls none of the library's settlement code: not ``settle``,
``settlement_order``, ``apply_stakes`` nor ``natural_payment``.  It uses the library's
pair scoring (``score_evaluated``, checked against ``reference_scoring.py``), its
natural detection (checked against ``reference_naturals.py``) and the table-stakes
models of ``rules_helpers.py``, written from the rule text.

Result: (net, items, pairs, stacks, naturals, winner) with items as
(pair, kind, payer, payee, amount) tuples and naturals as {seat: (name, key)}.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_helpers import ref_chips, ref_win_cap

from ofc_fast import Board, parse_cards
from ofc_fast.errors import BoardError, CardError, RulesError
from ofc_fast.rules import RuleSet
from ofc_fast.rules.model import NaturalsRule, SettlementStart, StakesModel
from ofc_fast.scoring import (
    EvaluatedBoard,
    PairScore,
    check_disjoint,
    complete_board,
    evaluate_for_scoring,
    score_evaluated,
)
from ofc_fast.scoring.naturals import NaturalHand, naturals

Pair = tuple[int, int]
Item = tuple[Pair, str, int, int, int]


def order_of(players: int, button: int, start: SettlementStart) -> list[Pair]:
    """R-SETTLE-2/3: the first seat against each other seat clockwise, then the next."""
    first = button if start is SettlementStart.BUTTON else button + 1
    seats = [(first + i) % players for i in range(players)]
    return [(seats[i], seats[j]) for i in range(players) for j in range(i + 1, players)]


def natural_payment(a: NaturalHand | None, b: NaturalHand | None, rules: RuleSet) -> int:
    """R-NAT-2, R-NAT-6: what b pays a."""

    def standing(h: NaturalHand) -> tuple[int, int, int]:
        place = [n.name for n in rules.naturals].index(h.name)
        return place, h.key, rules.naturals[place].units

    if a is None:
        return 0 if b is None else -standing(b)[2]
    if b is None:
        return standing(a)[2]
    pa, ka, ua = standing(a)
    pb, kb, ub = standing(b)
    if rules.naturals_rule is NaturalsRule.DIFFERENCE:
        return ua - ub
    if (
        rules.naturals_rule is NaturalsRule.HIGHER_FULL_EQUAL_CANCEL
        and ua == ub
        and (a.name == "dragon") == (b.name == "dragon")
    ):
        return 0
    return ua if (pa, ka) > (pb, kb) else -ub if (pa, ka) < (pb, kb) else 0


class _Ledger:
    def __init__(self) -> None:
        self.items: list[Item] = []
        self.by_pair: dict[Pair, int] = {}

    def add(self, pair: Pair, kind: str, amount: int) -> None:
        if amount == 0:
            return
        i, j = pair
        payer, payee = (j, i) if amount > 0 else (i, j)
        self.items.append((pair, kind, payer, payee, abs(amount)))
        self.by_pair[pair] = self.by_pair.get(pair, 0) + amount


def _seat_cards(
    board: str | Sequence[int] | Board | None, seat: int, needs_rows: bool
) -> tuple[Board | None, list[int]]:
    if board is None:
        if needs_rows:
            raise BoardError(f"seat {seat} has no board")
        return None, []
    if needs_rows:
        b = complete_board(board, str(seat))  # type: ignore[arg-type]
        return b, list(b.cards)
    cards = list(board.cards) if isinstance(board, Board) else parse_cards(board)  # type: ignore[arg-type]
    if len(cards) != 13:
        raise CardError(f"seat {seat}: 13 cards needed, got {len(cards)}")
    return None, cards


def settle(
    boards: Sequence[str | Sequence[int] | Board | None],
    rules: RuleSet,
    button: int = 0,
    stacks: Sequence[int] | None = None,
    surrendered: Sequence[int] = (),
    declared: Mapping[int, str | bool] | None = None,
) -> tuple:
    n = len(boards)
    if n > rules.max_players:
        raise RulesError("too many players")
    full_order = order_of(n, button, rules.settlement_start)
    order = full_order
    sur = set(surrendered)
    decl = dict(declared or {})
    if sur and rules.surrender_cost is None:
        raise RulesError("surrender not allowed")
    if sur & set(decl):
        raise BoardError("surrender and declare")
    plays_rows = [i not in sur and i not in decl for i in range(n)]
    seats = [_seat_cards(boards[i], i, plays_rows[i]) for i in range(n)]
    cards = [c for _, c in seats]
    check_disjoint(cards)
    nats: dict[int, NaturalHand] = {}
    for seat, name in decl.items():
        if not rules.naturals:
            raise RulesError("no naturals")
        found = naturals(cards[seat], rules)
        match = found[:1] if name is True else [h for h in found if h.name == name]
        if not match:
            raise BoardError(f"seat {seat} does not hold {name!r}")
        nats[seat] = match[0]
    if rules.house:
        order = [p for p in order if button in p]
    evals = {
        i: evaluate_for_scoring(b, rules) for i, (b, _) in enumerate(seats) if b is not None
    }
    ledger = _Ledger()
    row_pairs: list[Pair] = []
    for pair in order:
        i, j = pair
        if (i in nats or j in nats) and not (i in sur or j in sur):
            ledger.add(pair, "natural", natural_payment(nats.get(i), nats.get(j), rules))
    for pair in order:
        i, j = pair
        if (i in nats or j in nats) and not (i in sur or j in sur):
            continue  # (a surrendered seat pays a natural its surrender cost: Q-13)
        if i in sur or j in sur:
            if not (i in sur and j in sur):
                cost = rules.surrender_cost or 0
                ledger.add(pair, "surrender", -cost if i in sur else cost)
            continue
        row_pairs.append(pair)
    scored: list[tuple[Pair, PairScore]] = []
    winner: int | None = None
    ordinary = [i for i in range(n) if plays_rows[i]]
    if rules.pool is not None:
        _pool(rules, order, ordinary, evals, ledger)
    elif rules.single_winner:
        winner = _single_winner(rules, order, ordinary, evals, ledger)
    else:
        scored = _rows(rules, row_pairs, evals, n, button if rules.house else None, ledger)
    if rules.aces_bet is not None:
        if any(len(c) != 13 for c in cards):
            raise BoardError("aces bet needs every seat's cards")
        aces = [sum(1 for c in cs if c >> 2 == 12) for cs in cards]
        for pair in full_order:
            i, j = pair
            ledger.add(pair, "aces", rules.aces_bet[aces[i]] - rules.aces_bet[aces[j]])
    pairs = [p for p in full_order if p in order or p in ledger.by_pair]
    net, items, after = _finish(n, pairs, ledger, stacks, rules)
    return (
        net,
        items,
        scored,
        after,
        {s: (h.name, h.key) for s, h in nats.items()},
        winner,
    )


def _rows(
    rules: RuleSet,
    pairs: list[Pair],
    evals: dict[int, EvaluatedBoard],
    n: int,
    house: int | None,
    ledger: _Ledger,
) -> list[tuple[Pair, PairScore]]:
    def ties(i: int, j: int) -> int:
        return 0 if house is None else (1 if i == house else -1 if j == house else 0)

    first = {p: score_evaluated(evals[p[0]], evals[p[1]], rules, ties(*p)) for p in pairs}
    swept_all = set()
    if n >= 3 and len(pairs) == n * (n - 1) // 2:
        for seat in range(n):
            if all(
                s.sweep == (1 if p[0] == seat else -1)
                for p, s in first.items()
                if seat in p
            ):
                swept_all.add(seat)
    out = []
    for p in pairs:
        i, j = p
        s = first[p]
        if swept_all & {i, j}:
            s = score_evaluated(
                evals[i], evals[j], rules, ties(i, j), i in swept_all, j in swept_all
            )
        out.append((p, s))
        ledger.add(p, "rows", s.row_points)
        ledger.add(p, "bonus", s.bonus)
        ledger.add(p, "royalties", s.net - s.row_points - s.bonus)
    return out


def _row_keys(rules: RuleSet, e: EvaluatedBoard) -> tuple[int, int, int] | None:
    if e.foul:
        return None
    from ofc_fast.rules.compiled import LOW27

    s = tuple(e.c.strength)
    middle = int(LOW27[s[1]]) if rules.lowball is not None else s[1]
    return (s[0], middle, s[2])


def _pool(
    rules: RuleSet,
    order: list[Pair],
    ordinary: list[int],
    evals: dict[int, EvaluatedBoard],
    ledger: _Ledger,
) -> None:
    pool = rules.pool
    assert pool is not None
    seat_order = list(dict.fromkeys(s for p in order for s in p))
    keys = {s: _row_keys(rules, evals[s]) for s in ordinary}
    gain = {s: 0 for s in ordinary}
    rows_won = {s: 0 for s in ordinary}
    for row in range(3):
        contenders = {s: k[row] for s, k in keys.items() if k is not None}
        if not contenders:
            continue
        best = max(contenders.values())
        winners = [s for s in seat_order if contenders.get(s) == best]
        for s in ordinary:
            gain[s] -= pool.ante
        share, odd = divmod(pool.ante * len(ordinary), len(winners))
        for k, s in enumerate(winners):
            gain[s] += share + (1 if k < odd else 0)
        if len(winners) == 1:
            rows_won[winners[0]] += 1
    for s in ordinary:
        if rows_won[s] == 3 and pool.sweep_extra:
            for other in ordinary:
                if other != s:
                    gain[s] += pool.sweep_extra
                    gain[other] -= pool.sweep_extra
    owed = {s: -g for s, g in gain.items() if g < 0}
    due = {s: g for s, g in gain.items() if g > 0}
    for i, j in order:
        for winner, loser in ((i, j), (j, i)):
            amount = min(due.get(winner, 0), owed.get(loser, 0))
            if amount > 0:
                due[winner] -= amount
                owed[loser] -= amount
                ledger.add((i, j), "pool", amount if winner == i else -amount)
    assert not any(due.values()) and not any(owed.values())


def _single_winner(
    rules: RuleSet,
    order: list[Pair],
    ordinary: list[int],
    evals: dict[int, EvaluatedBoard],
    ledger: _Ledger,
) -> int | None:
    for seat in ordinary:
        if all(
            sum(1 for r in score_evaluated(evals[seat], evals[o], rules).rows if r > 0) >= 2
            for o in ordinary
            if o != seat
        ):
            for i, j in order:
                # a natural pays nothing, a surrendered seat its surrender only
                if seat in (i, j) and {i, j} <= set(ordinary):
                    ledger.add(
                        (i, j),
                        "single_winner",
                        rules.single_winner if i == seat else -rules.single_winner,
                    )
            return seat
    return None


def _finish(
    n: int, order: list[Pair], ledger: _Ledger, stacks: Sequence[int] | None, rules: RuleSet
) -> tuple[list[int], list[Item], list[int] | None]:
    net = [0] * n
    items = list(ledger.items)
    transfers = [(p, ledger.by_pair.get(p, 0)) for p in order]
    if stacks is not None:
        if any(s < 0 for s in stacks):
            raise BoardError("negative stack")
        natural_first = sorted(
            transfers,
            key=lambda t: (
                not any(it[0] == t[0] and it[1] == "natural" for it in ledger.items)
            ),
        )
        model = ref_chips if rules.stakes is StakesModel.CHIPS else ref_win_cap
        actual = dict(zip((p for p, _ in natural_first), model(natural_first, stacks)))
        for p, nominal in transfers:
            cut = nominal - actual[p]
            if cut:
                i, j = p
                payer, payee = (i, j) if cut > 0 else (j, i)
                items.append((p, "stakes", payer, payee, abs(cut)))
        transfers = [(p, actual[p]) for p, _ in transfers]
    for (i, j), amount in transfers:
        net[i] += amount
        net[j] -= amount
    after = [s + d for s, d in zip(stacks, net)] if stacks is not None else None
    return net, items, after
