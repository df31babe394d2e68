"""Settling a whole table of 2-4 seats: every mode of RULES.md sections 3, 4, 7, 9.

Order of business (R-FLOW-CP-4, R-SETTLE-*): declared naturals first, then
surrenders, then the rows (pairwise, against the house, as a pool, or for a single
winner), with the aces side bet on top; with ``stacks`` every pair's transfer is then
capped by the rules' table-stakes model, in settlement order.

>>> import ofc_fast as ofc
>>> a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
>>> b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
>>> c = "3h 3c 4d / Th Td Tc 2d 2s / 8h 8s Jc Jh Jd"
>>> ofc.settle([a, b, c]).net
[77, -74, -3]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence, Union

from typing import TYPE_CHECKING

from .board import Board
from .cards import parse_cards
from .errors import BoardError, CardError, RulesError
from .rules import OFC, RuleSet, as_rules
from .rules.model import SettlementStart, StakesModel
from .scoring import (BoardLike, EvaluatedBoard, PairScore, check_disjoint, complete_board,
                      evaluate_for_scoring, score_evaluated)

if TYPE_CHECKING:
    from .naturals import NaturalHand

__all__ = ["SettlementItem", "Settlement", "settle", "settlement_order", "apply_stakes"]


@dataclass(frozen=True)
class SettlementItem:
    """One transfer: ``payer`` pays ``payee`` ``amount`` (> 0) for ``kind``:
    "rows", "bonus", "royalties", "natural", "surrender", "pool", "single_winner",
    "aces", or "stakes" (the part of a pair's transfer that table stakes cancel)."""

    pair: tuple[int, int]   #: the two seats, in settlement order
    kind: str
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    """Per-seat result of a deal and the itemised transfers behind it."""

    net: list[int]                                    #: per seat; sums to zero
    items: list[SettlementItem]                       #: every transfer, in order
    pairs: list[tuple[tuple[int, int], PairScore]]    #: row-scored pairs, in order
    stacks: Optional[list[int]] = None                #: stacks after the deal
    naturals: dict[int, "NaturalHand"] = field(default_factory=dict)  #: seat -> NaturalHand
    winner: Optional[int] = None                      #: single-winner mode's winner


def settlement_order(players: int, button: int = 0,
                     start: SettlementStart = SettlementStart.LEFT_OF_BUTTON,
                     ) -> list[tuple[int, int]]:
    """Pairs in settlement order: the first seat against each other seat clockwise,
    then the next seat, and so on (R-SETTLE-2; R-SETTLE-3 starts with the dealer).
    Seats are numbered clockwise.

    >>> settlement_order(4, button=3)       # W N E S, S deals (EX-13)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    >>> settlement_order(4, button=0, start="button")   # HG, A deals (EX-13)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    if not 2 <= players <= 4:
        raise BoardError(f"settle() takes 2 to 4 boards, got {players}")
    if not 0 <= button < players:
        raise BoardError(f"button {button} is not a seat of {players} players")
    first = button if SettlementStart(start) is SettlementStart.BUTTON else button + 1
    seats = [(first + i) % players for i in range(players)]
    return [(seats[i], seats[j]) for i in range(players) for j in range(i + 1, players)]


class _Ledger:
    """Nominal transfers per pair, itemised, before any table-stakes cap."""

    def __init__(self) -> None:
        self.items: list[SettlementItem] = []
        self.by_pair: dict[tuple[int, int], int] = {}

    def add(self, pair: tuple[int, int], kind: str, amount: int) -> None:
        """``amount`` > 0: pair[1] pays pair[0]; < 0: pair[0] pays pair[1]."""
        if amount == 0:
            return
        i, j = pair
        payer, payee = (j, i) if amount > 0 else (i, j)
        self.items.append(SettlementItem(pair, kind, payer, payee, abs(amount)))
        self.by_pair[pair] = self.by_pair.get(pair, 0) + amount


def apply_stakes(transfers: Sequence[tuple[tuple[int, int], int]], stacks: Sequence[int],
                 model: StakesModel) -> list[int]:
    """Cap each pair's nominal transfer (``amount`` > 0: pair[1] pays pair[0]), in
    order, under table stakes; return the actual transfers.

    * WIN_CAP (R-STAKES-1/2): a loser pays at most the chips he has now; a winner wins
      at most his stack at the start of the deal, and once his running win reaches it
      his hand is complete: he neither wins nor loses anything further.
    * CHIPS (R-STAKES-3): each seat's capacity starts at its stack; a transfer is at
      most both capacities and uses up that much of each.

    >>> apply_stakes([((0, 1), 6), ((2, 0), 6), ((0, 3), 0)], [8, 20, 20, 20], "chips")
    [6, 2, 0]
    """
    model = StakesModel(model)
    seats = 1 + max((max(p) for p, _ in transfers), default=-1)
    if len(stacks) < seats or any(isinstance(x, bool) or not isinstance(x, int) or x < 0
                                  for x in stacks):
        raise BoardError(f"stacks: expected a non-negative int for each of {seats} seats, "
                         f"got {list(stacks)!r}")
    start = list(stacks)
    chips = list(stacks)
    capacity = list(stacks)
    done = [False] * len(stacks)
    actual = []
    for (i, j), amount in transfers:
        winner, loser = (i, j) if amount > 0 else (j, i)
        want = abs(amount)
        if model is StakesModel.CHIPS:
            paid = min(want, capacity[winner], capacity[loser])
            capacity[winner] -= paid
            capacity[loser] -= paid
        elif done[winner] or done[loser]:
            paid = 0
        else:
            room = 2 * start[winner] - chips[winner]  # win at most the starting stack
            paid = max(0, min(want, chips[loser], room))
        chips[winner] += paid
        chips[loser] -= paid
        if model is StakesModel.WIN_CAP and chips[winner] - start[winner] >= start[winner]:
            done[winner] = True
        actual.append(paid if amount > 0 else -paid)
    return actual


def _seat_cards(board: Union[BoardLike, None], seat: int, needs_rows: bool
                ) -> tuple[Optional[Board], list[int]]:
    if board is None:
        if needs_rows:
            raise BoardError(f"seat {seat} has no board")
        return None, []
    if needs_rows:
        b = complete_board(board, str(seat))
        return b, list(b.cards)
    if isinstance(board, Board):
        cards = list(board.cards)
    elif isinstance(board, str) and ("/" in board or "|" in board):
        cards = list(Board.parse(board).cards)
    else:
        cards = parse_cards(board)  # type: ignore[arg-type]
    if len(cards) != 13:
        raise CardError(f"seat {seat}: 13 cards needed, got {len(cards)}")
    return None, cards


def _aces(cards: Sequence[int]) -> int:
    return sum(1 for c in cards if c >> 2 == 12)


def _declared_naturals(rules: RuleSet, declared: Mapping[int, Union[str, bool]],
                       cards: Sequence[Sequence[int]]) -> dict[int, "NaturalHand"]:
    if not declared:
        return {}
    from .naturals import naturals  # local: the naturals module is optional at import

    out: dict[int, "NaturalHand"] = {}
    for seat, name in declared.items():
        if not rules.naturals:
            raise RulesError(f"{rules.name}: no naturals in these rules (seat {seat})")
        found = naturals(cards[seat], rules)
        if not found:
            raise BoardError(f"seat {seat} declared a natural but holds none")
        if name is True:
            out[seat] = found[0]
            continue
        match = [n for n in found if n.name == name]
        if not match:
            raise BoardError(f"seat {seat} declared {name!r} but holds "
                             f"{', '.join(n.name for n in found)}")
        out[seat] = match[0]
    return out


def settle(boards: Sequence[Union[BoardLike, None]], rules: RuleSet = OFC, button: int = 0,
           stacks: Optional[Sequence[int]] = None, *, surrendered: Sequence[int] = (),
           declared: Optional[Mapping[int, Union[str, bool]]] = None) -> Settlement:
    """Settle a table of 2-4 seats.

    ``boards[i]``: seat i's complete board (Board, text, or 13 cards in row order); a
    seat that surrendered or declared a natural may give its 13 cards in any order
    (a surrendered seat may give None).  ``surrendered``: seats that surrendered before
    the reveal (R-VAR-SUR-*: they pay ``rules.surrender_cost`` to each opponent they
    face).  ``declared``: seat -> natural name (or True for its best) declared before
    the reveal (R-NAT-2).  ``stacks``: chips per seat at the start of the deal; with
    them every pair's transfer is capped by ``rules.stakes`` (R-STAKES-*).

    ``net`` sums to zero; ``items`` itemise it; ``pairs`` hold the row-scored pairs.
    """
    rules = as_rules(rules, "settle")
    n = len(boards)
    if n > rules.max_players:
        raise RulesError(f"{rules.name}: at most {rules.max_players} players, got {n} boards")
    full_order = settlement_order(n, button, rules.settlement_start)
    order = full_order
    surrendered_set = set(surrendered)
    declared = dict(declared or {})
    for seat in list(surrendered_set) + list(declared):
        if not 0 <= seat < n:
            raise BoardError(f"seat {seat} is not a seat of {n} players")
    if surrendered_set and rules.surrender_cost is None:
        raise RulesError(f"{rules.name}: surrender is not allowed (surrender_cost None)")
    if surrendered_set & set(declared):
        raise BoardError("a seat cannot both surrender and declare a natural")
    plays_rows = [i not in surrendered_set and i not in declared for i in range(n)]
    seats = [_seat_cards(boards[i], i, plays_rows[i]) for i in range(n)]
    cards = [c for _, c in seats]
    check_disjoint(cards)
    nats = _declared_naturals(rules, declared, cards)
    if rules.house:
        house = button
        order = [p for p in order if house in p]
    evals: dict[int, EvaluatedBoard] = {i: evaluate_for_scoring(b, rules)
                                        for i, (b, _) in enumerate(seats) if b is not None}
    ledger = _Ledger()
    row_pairs: list[tuple[int, int]] = []
    for pair in order:  # naturals first (R-SETTLE-3, R-FLOW-CP-4)
        i, j = pair
        if i in nats or j in nats:
            from .naturals import natural_payment

            ledger.add(pair, "natural", natural_payment(nats.get(i), nats.get(j), rules))
    for pair in order:
        i, j = pair
        if i in nats or j in nats:
            continue
        if i in surrendered_set or j in surrendered_set:
            if i in surrendered_set and j in surrendered_set:
                continue
            cost = rules.surrender_cost or 0
            ledger.add(pair, "surrender", -cost if i in surrendered_set else cost)
            continue
        row_pairs.append(pair)
    scored: list[tuple[tuple[int, int], PairScore]] = []
    winner: Optional[int] = None
    ordinary = [i for i in range(n) if plays_rows[i]]
    if rules.pool is not None:
        _settle_pool(rules, order, ordinary, evals, ledger)
    elif rules.single_winner:
        winner = _settle_single_winner(rules, order, ordinary, set(nats), evals, ledger)
    else:
        scored = _settle_rows(rules, row_pairs, evals, n, button if rules.house else None,
                              ledger)
    if rules.aces_bet is not None:  # between every two seats, house or not (R-VAR-ACES-1)
        hidden = [i for i in range(n) if len(cards[i]) != 13]
        if hidden:
            raise BoardError(f"the aces side bet needs every seat's 13 cards; seat "
                             f"{hidden[0]} gave none")
        values = rules.aces_bet
        for pair in full_order:
            i, j = pair
            ledger.add(pair, "aces", values[_aces(cards[i])] - values[_aces(cards[j])])
    pairs = [p for p in full_order if p in order or p in ledger.by_pair]
    return _finish(n, pairs, ledger, stacks, rules, scored, nats, winner)


def _settle_rows(rules: RuleSet, pairs: list[tuple[int, int]],
                 evals: dict[int, EvaluatedBoard], n: int, house: Optional[int],
                 ledger: _Ledger) -> list[tuple[tuple[int, int], PairScore]]:
    """Pairwise row scoring; a second pass marks seats that swept the whole table."""
    def ties(i: int, j: int) -> int:
        return 0 if house is None else (1 if i == house else -1 if j == house else 0)

    first = {p: score_evaluated(evals[p[0]], evals[p[1]], rules, ties(*p)) for p in pairs}
    swept_all = set()
    if n >= 3 and len(pairs) == n * (n - 1) // 2:  # everyone compared with everyone
        for seat in range(n):
            mine = [(p, s) for p, s in first.items() if seat in p]
            if all(s.sweep == (1 if p[0] == seat else -1) for p, s in mine):
                swept_all.add(seat)
    out = []
    for p in pairs:
        i, j = p
        s = first[p]
        if swept_all & {i, j}:
            s = score_evaluated(evals[i], evals[j], rules, ties(i, j),
                                i in swept_all, j in swept_all)
        out.append((p, s))
        ledger.add(p, "rows", s.row_points)
        ledger.add(p, "bonus", s.bonus)
        ledger.add(p, "royalties", s.net - s.row_points - s.bonus)
    return out


def _row_keys(rules: RuleSet, e: EvaluatedBoard) -> Optional[tuple[int, int, int]]:
    """Comparable row values of a board (None when fouled: it wins nothing)."""
    if e.foul:
        return None
    from ._compiled import LOW27

    s = tuple(e.c.strength)
    middle = int(LOW27[s[1]]) if rules.lowball is not None else s[1]
    return (s[0], middle, s[2])


def _settle_pool(rules: RuleSet, order: list[tuple[int, int]], ordinary: list[int],
                 evals: dict[int, EvaluatedBoard], ledger: _Ledger) -> None:
    """R-VAR-POOL-1: each seat that shows its rows antes per row; the best row takes
    the row's pot; tied winners split it, an odd unit going to the first of them in
    settlement order.  A fouled board wins nothing; if every board fouls a row's antes
    go back.  (A surrendered seat paid its surrender cost instead; Q-13.)"""
    pool = rules.pool
    assert pool is not None
    players = ordinary
    seat_order = list(dict.fromkeys(s for p in order for s in p))
    keys = {s: _row_keys(rules, evals[s]) for s in ordinary}
    gain = {s: 0 for s in players}
    rows_won = {s: 0 for s in players}
    for row in range(3):
        contenders = {s: k[row] for s, k in keys.items() if k is not None}
        if not contenders:
            continue
        best = max(contenders.values())
        winners = [s for s in seat_order if contenders.get(s) == best]
        pot = pool.ante * len(players)
        for s in players:
            gain[s] -= pool.ante
        share, odd = divmod(pot, len(winners))
        for k, s in enumerate(winners):
            gain[s] += share + (1 if k < odd else 0)
        if len(winners) == 1:
            rows_won[winners[0]] += 1
    for s in players:
        if rows_won[s] == 3 and pool.sweep_extra:
            for other in players:
                if other != s:
                    gain[s] += pool.sweep_extra
                    gain[other] -= pool.sweep_extra
    _gains_to_pairs(gain, order, "pool", ledger)


def _gains_to_pairs(gain: dict[int, int], order: list[tuple[int, int]], kind: str,
                    ledger: _Ledger) -> None:
    """Express zero-sum per-seat gains as pair transfers (losers pay winners in
    settlement order), so table stakes and the item list work as for pairs."""
    owed = {s: -g for s, g in gain.items() if g < 0}
    due = {s: g for s, g in gain.items() if g > 0}
    for i, j in order:
        for winner, loser in ((i, j), (j, i)):
            amount = min(due.get(winner, 0), owed.get(loser, 0))
            if amount > 0:
                due[winner] -= amount
                owed[loser] -= amount
                ledger.add((i, j), kind, amount if winner == i else -amount)
    assert not any(due.values()) and not any(owed.values())


def _settle_single_winner(rules: RuleSet, order: list[tuple[int, int]],
                          ordinary: list[int], naturals: set[int],
                          evals: dict[int, EvaluatedBoard], ledger: _Ledger) -> Optional[int]:
    """R-VAR-SINGLE-1: a seat beating every other seat that shows its rows on two rows
    or more collects ``single_winner`` units from each other seat but those holding a
    declared natural (a natural beats any ordinary hand, R-NAT-2); nobody else pays
    (Q-13)."""
    for seat in ordinary:
        beats_all = True
        for other in ordinary:
            if other == seat:
                continue
            s = score_evaluated(evals[seat], evals[other], rules)
            if sum(1 for r in s.rows if r > 0) < 2:
                beats_all = False
                break
        if beats_all:
            for i, j in order:
                if seat in (i, j) and not naturals & {i, j}:
                    ledger.add((i, j), "single_winner",
                               rules.single_winner if i == seat else -rules.single_winner)
            return seat
    return None


def _finish(n: int, order: list[tuple[int, int]], ledger: _Ledger,
            stacks: Optional[Sequence[int]], rules: RuleSet,
            scored: list[tuple[tuple[int, int], PairScore]], nats: dict[int, "NaturalHand"],
            winner: Optional[int]) -> Settlement:
    net = [0] * n
    items = list(ledger.items)
    stacks_after = None
    transfers = [(p, ledger.by_pair.get(p, 0)) for p in order]
    if stacks is not None:
        if len(stacks) != n or any(isinstance(s, bool) or not isinstance(s, int) or s < 0
                                   for s in stacks):
            raise BoardError(f"stacks: expected {n} non-negative ints, got {stacks!r}")
        if rules.pool is not None:
            raise RulesError("table stakes apply to pairwise settlement, not pool mode")
        natural_first = sorted(transfers, key=lambda t: not any(
            it.pair == t[0] and it.kind == "natural" for it in ledger.items))
        actual = dict(zip((p for p, _ in natural_first),
                          apply_stakes(natural_first, stacks, rules.stakes)))
        for p, nominal in transfers:
            cut = nominal - actual[p]
            if cut:
                i, j = p
                payer, payee = (i, j) if cut > 0 else (j, i)
                items.append(SettlementItem(p, "stakes", payer, payee, abs(cut)))
        transfers = [(p, actual[p]) for p, _ in transfers]
    for (i, j), amount in transfers:
        net[i] += amount
        net[j] -= amount
    if stacks is not None:
        stacks_after = [s + d for s, d in zip(stacks, net)]
    return Settlement(net, items, scored, stacks_after, nats, winner)
