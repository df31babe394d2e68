"""Settling a whole table of 2-4 seats: every mode of docs/rules.md sections 3, 4, 7, 9.

Order of business (R-FLOW-CP-4, R-SETTLE-*): declared naturals first, then
surrenders, then the rows (pairwise, against the house, as a pool, or for a single
winner), with the aces side bet on top; with ``stacks`` every pair's transfer is then
capped by the rules' table-stakes model, in settlement order (pool gains are pair
transfers too, so the stakes cap them like any other).  The rules live in C
(``ofc_settle`` in ``csrc/include/ofc_settle.h``, where each is documented); this module parses
the arguments and builds the result.

>>> import ofc_fast as ofc
>>> a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
>>> b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
>>> c = "3h 3c 4d / Th Td Tc 2d 2s / 8h 8s Jc Jh Jd"
>>> ofc.settle([a, b, c]).net
[77, -74, -3]
"""

from __future__ import annotations

import struct
from collections.abc import ItemsView, Mapping, Sequence, Sized
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import numpy as np

from .._native import E_COUNT, E_DUPLICATE, OK, ffi, lib, status_error
from ..board import Board
from ..cards import is_many, parse_cards
from ..errors import BoardError, CardError, RulesError, TableError, match_choice, quote
from ..rules import OFC, RuleSet, RulesLike, as_rules
from ..rules.compiled import STAKES, compiled, table_rules
from ..rules.model import NATURAL_NAMES, SettlementStart, StakesModel
from ..table import as_int, check_players, check_seat, check_stacks, per_seat
from .naturals import NaturalHand
from .pair import BoardLike, PairScore, check_disjoint, complete_board

__all__ = ["Settlement", "SettlementItem", "apply_stakes", "settle", "settlement_order"]

ITEM_KINDS: tuple[str, ...] = (
    "rows",
    "bonus",
    "royalties",
    "natural",
    "surrender",
    "pool",
    "single_winner",
    "aces",
    "stakes",
)
"""Item kind names by C ``ofc_item_kind``."""
_NO_CARD: int = lib.OFC_NO_CARD
_INT32_MAX = 2**31 - 1


@dataclass(frozen=True)
class SettlementItem:
    """One transfer: ``payer`` pays ``payee`` ``amount`` (> 0) for ``kind``:
    "rows", "bonus", "royalties", "natural", "surrender", "pool", "single_winner",
    "aces", or "stakes" (the part of a pair's transfer that table stakes cancel).

    >>> boards = ["Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
    ...           "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"]
    >>> settle(boards).items[-1]
    SettlementItem(pair=(1, 0), kind='royalties', payer=1, payee=0, amount=44)
    """

    pair: tuple[int, int]  #: the two seats, in settlement order
    kind: str
    payer: int
    payee: int
    amount: int

    def to_dict(self) -> dict[str, object]:
        """JSON-able: ``{"pair": [a, b], "kind", "payer", "payee", "amount"}``."""
        return {
            "pair": list(self.pair),
            "kind": self.kind,
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
        }


@dataclass(frozen=True)
class Settlement:
    """Per-seat result of a deal and the itemised transfers behind it (:func:`settle`).

    >>> boards = ["Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
    ...           "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"]
    >>> s = settle(boards, "OFC", stacks=[200, 30])
    >>> s.net, [(i.kind, i.amount) for i in s.items]
    ([30, -30], [('rows', 3), ('bonus', 3), ('royalties', 44), ('stakes', 20)])
    """

    net: list[int]  #: per seat; sums to zero
    items: list[SettlementItem]  #: every transfer, in order
    pairs: list[tuple[tuple[int, int], PairScore]]  #: row-scored pairs, in order
    stacks: list[int] | None = None  #: stacks after the deal
    naturals: dict[int, NaturalHand] = field(default_factory=dict)  #: seat -> NaturalHand
    winner: int | None = None  #: single-winner mode's winner

    __hash__ = None  # type: ignore[assignment]  # its lists: frozen, yet unhashable


def _int(value: object, what: str) -> int:
    """An int, Python's or NumPy's (:func:`ofc_fast.table.as_int`: bools and floats
    refused), or BoardError naming ``what``."""
    n = as_int(value)
    if n is None:
        raise BoardError(f"{what}: expected an int, got {quote(value)}")
    return n


_E = TypeVar("_E", SettlementStart, StakesModel)


def _choice(value: object, kind: type[_E], what: str) -> _E:
    """``value`` as a member of the text enum ``kind`` (a member or its text, read as
    a rule set reads it: :func:`~ofc_fast.errors.match_choice`), else RulesError
    naming ``what`` and the choices (never the enum's own error, whose message calls
    the value's repr)."""
    named = match_choice(value, [member.value for member in kind])  # as rule sets read
    if named is not None:
        return kind(named)
    raise RulesError(
        f"{what}: unknown {quote(value)}; known: {', '.join(m.value for m in kind)}"
    )


def settlement_order(
    players: int,
    button: int = 0,
    start: SettlementStart = SettlementStart.LEFT_OF_BUTTON,
) -> list[tuple[int, int]]:
    """Pairs in settlement order: the first seat against each other seat clockwise,
    then the next seat, and so on (R-SETTLE-2; R-SETTLE-3 starts with the dealer).
    Seats are numbered clockwise.

    Raises TableError for a bad seat count or button, RulesError for an unknown start.

    >>> settlement_order(4, button=3)       # W N E S, S deals (EX-13)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    >>> settlement_order(4, button=0, start="button")   # HG, A deals (EX-13)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    n = check_players(players, None)
    seat = check_seat(button, n)
    start = _choice(start, SettlementStart, "settlement start")
    first = 1 if start is SettlementStart.BUTTON else 0
    pairs = ffi.new("uint8_t[6][2]")
    count = lib.ofc_settlement_order(n, seat, first, pairs)
    return [(pairs[k][0], pairs[k][1]) for k in range(count)]


def apply_stakes(
    transfers: Sequence[tuple[tuple[int, int], int]],
    stacks: Sequence[int],
    model: StakesModel,
) -> list[int]:
    """Cap each pair's nominal transfer (``amount`` > 0: pair[1] pays pair[0]), in
    order, under table stakes; return the actual transfers (C ``ofc_apply_stakes``).

    * WIN_CAP (R-STAKES-1/2): a loser pays at most the chips he has now; a winner wins
      at most his stack at the start of the deal, and once his running win reaches it
      his hand is complete: he neither wins nor loses anything further.
    * CHIPS (R-STAKES-3): each seat's capacity starts at its stack; a transfer is at
      most both capacities and uses up that much of each.

    Raises BoardError for transfers of another shape or in no order (a set, a dict),
    seats outside 0..255 or a seat paying itself, RulesError for an unknown stakes
    model, TableError for stacks that are not a chip count per seat.

    >>> apply_stakes([((0, 1), 6), ((2, 0), 6), ((0, 3), 0)], [8, 20, 20, 20], "chips")
    [6, 2, 0]
    """
    code = STAKES[_choice(model, StakesModel, "stakes model")]
    pairs, amounts = [], []
    for pair, amount in _transfer_items(transfers):
        i, j = (_int(s, "transfer seat") for s in pair)
        if not (0 <= i < 256 and 0 <= j < 256):  # C takes at most 256 seats
            raise BoardError(f"transfer seats must be 0..255, got {quote((i, j))}")
        if i == j:  # C refuses a seat paying itself (OFC_E_SEAT)
            raise BoardError(
                f"transfer seats must be two different seats, got {quote((i, j))}"
            )
        pairs.append((i, j))
        # |amount| beyond any stack pays the same as the largest int32 amount
        amount = _int(amount, "transfer amount")
        amounts.append(max(-_INT32_MAX, min(_INT32_MAX, amount)))
    seats = 1 + max((max(p) for p in pairs), default=-1)
    if stacks is None:
        raise TableError("stacks: expected one chip count per seat, got None")
    values = list(check_stacks(stacks, seats, at_least=True) or ())
    if len(values) > 256:
        raise BoardError(f"stacks: at most 256 seats, got {len(values)}")
    if not pairs:
        return []
    actual = ffi.new("int32_t[]", len(pairs))
    status = lib.ofc_apply_stakes(
        code, values, len(values), pairs, amounts, len(pairs), actual
    )
    if status != OK:  # pragma: no cover - every argument was validated above
        raise status_error(status, "apply_stakes", BoardError)
    return list(actual)


def _transfer_items(transfers: object) -> list[tuple[Sequence[object], object]]:
    """``transfers`` as a list of ``((seat, seat), amount)`` items, or BoardError naming
    the first item of another shape (so no TypeError or unpacking ValueError escapes),
    or transfers in no order (a dict, a set: the caps depend on the order); a dict's
    ``items()`` keep its insertion order and are read in it."""
    unordered = isinstance(transfers, AbstractSet) and not isinstance(transfers, ItemsView)
    if isinstance(transfers, Mapping) or unordered or not is_many(transfers):
        raise BoardError(
            f"transfers: expected a sequence of ((seat, seat), amount), "
            f"got {quote(transfers)}"
        )
    items = []
    for item in transfers:
        if not (_two(item) and _two(item[0])):
            raise BoardError(
                f"transfer: expected ((seat, seat), amount), got {quote(item)}"
            )
        items.append((item[0], item[1]))
    return items


def _two(value: Any) -> bool:
    """Whether ``value`` holds two items in order, to index: a sequence or a 1-d NumPy
    array of two (a NumPy pair of seats too), not text or bytes, a mapping or a set."""
    return (
        is_many(value)
        and not isinstance(value, (bytearray, Mapping, AbstractSet))
        and isinstance(value, Sized)
        and hasattr(value, "__getitem__")
        and len(value) == 2
    )


def _seat_cards(board: BoardLike | None, seat: int, role: str) -> list[int]:
    """13 card ids of a seat: in row order for a seat that sets rows (role "rows"); any
    order for a surrendered or declaring seat; none for their None (C refuses a
    declaring seat without cards)."""
    if board is None:
        if role == "rows":
            raise BoardError(f"seat {seat} has no board")
        return []
    if role == "rows":
        return list(complete_board(board, str(seat)).cards)
    if isinstance(board, Board):
        cards = list(board.cards)
    elif isinstance(board, str) and ("/" in board or "|" in board):
        cards = list(Board.parse(board).cards)
    else:
        cards = parse_cards(board)
    if len(cards) != 13:
        raise CardError(f"seat {seat}: 13 cards needed, got {len(cards)}")
    return cards


def _declaration(seat: int, name: object) -> int:
    """C code of ``seat``'s declaration: True (NumPy's too) = the best natural, a
    natural's name = its id; BoardError for any other value (False, None, 0: a seat
    that declares nothing is one left out of ``declared``).

    >>> _declaration(0, None)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BoardError: seat 0 declared None, which is no declaration: ...
    """
    if isinstance(name, (bool, np.bool_)) and name:
        return int(lib.OFC_DECLARE_BEST)
    found = match_choice(name, NATURAL_NAMES)  # read as a rule set reads it: "Dragon"
    if found is not None:
        return NATURAL_NAMES.index(found)
    raise BoardError(
        f"seat {seat} declared {quote(name)}, which is no declaration: True (its "
        "best natural) or a natural's name (ofc_fast.rules.NATURAL_NAMES: "
        f"{', '.join(NATURAL_NAMES[:2])}, ...); a seat that declares nothing is left "
        "out of declared"
    )


def _error(
    status: int,
    out: Any,
    rules: RuleSet,
    cards: list[list[int]],  # cdata
    declared: Mapping[int, object],
) -> Exception:
    """The exception for a status ofc_settle() returned."""
    seat = int(out.bad_seat)
    if status == lib.OFC_E_SURRENDER:
        return RulesError(f"{rules.name}: surrender is not allowed (surrender_cost None)")
    if status == lib.OFC_E_CONFLICT:
        return BoardError(
            f"a seat cannot both surrender and declare a natural (seat {seat})"
        )
    if status == E_DUPLICATE:
        check_disjoint(cards)  # raises with both seats named
    if status == lib.OFC_E_NO_NATURALS:
        return RulesError(f"{rules.name}: no naturals in these rules (seat {seat})")
    if status == lib.OFC_E_NATURAL:
        from .naturals import naturals

        found = naturals(cards[seat], rules)
        if not found:
            return BoardError(f"seat {seat} declared a natural but holds none")
        return BoardError(
            f"seat {seat} declared {quote(declared[seat])} but holds "
            f"{', '.join(n.name for n in found)}"
        )
    if status == E_COUNT:  # a declaring seat gave no cards
        return CardError(f"seat {seat}: a declared natural needs its 13 cards, got none")
    if status == lib.OFC_E_HIDDEN:
        return BoardError(
            f"the aces side bet needs every seat's 13 cards; seat {seat} gave none"
        )
    return status_error(status, f"settle (seat {seat})", BoardError)


def _naturals(out: Any, rules: RuleSet, n: int) -> dict[int, NaturalHand]:  # cdata
    units = {nat.name: nat.units for nat in rules.naturals}
    found = {}
    for seat in range(n):
        if out.natural[seat] >= 0:
            name = NATURAL_NAMES[out.natural[seat]]
            c = list(out.natural_board[seat])
            board = None if c[0] == _NO_CARD else Board(c[:3], c[3:8], c[8:])
            found[seat] = NaturalHand(name, units[name], int(out.natural_key[seat]), board)
    return found


# The C structs as native-order records (checked against ffi.sizeof at import).
_ITEM = struct.Struct("=5B3xi")  # ofc_settle_item
_PAIR = struct.Struct("=2B2xi4biii")  # ofc_settle_pair (a, b, ofc_pair_score)
_EVAL = struct.Struct("=3H3hBx")  # ofc_board_eval
assert (_ITEM.size, _PAIR.size, _EVAL.size) == (
    ffi.sizeof("ofc_settle_item"),
    ffi.sizeof("ofc_settle_pair"),
    ffi.sizeof("ofc_board_eval"),
)


def settlement_of(
    out: Any, rules: RulesLike, n: int, stacks: list[int] | None
) -> Settlement:
    """The :class:`Settlement` of a C ``ofc_settlement`` (``ofc_settle``'s output, or a
    game result's) for ``n`` seats; ``stacks``: the stacks it was settled with (the
    structs are read in one go, not field by field)."""
    rules = as_rules(rules, "settlement_of")
    items = [
        SettlementItem((a, b), ITEM_KINDS[kind], payer, payee, amount)
        for a, b, kind, payer, payee, amount in _ITEM.iter_unpack(
            ffi.buffer(out.items, _ITEM.size * out.n_items)
        )
    ]
    evals = list(_EVAL.iter_unpack(ffi.buffer(out.eval)))
    pairs = []
    for a, b, net, r0, r1, r2, sweep, row_points, bonus, _ in _PAIR.iter_unpack(
        ffi.buffer(out.pairs, _PAIR.size * out.n_pairs)
    ):
        ea, eb = evals[a], evals[b]
        pairs.append(
            (
                (a, b),
                PairScore(
                    net=net,
                    rows=(r0, r1, r2),
                    sweep=sweep,
                    row_points=row_points,
                    bonus=bonus,
                    royalties=(ea[3:6], eb[3:6]),
                    fouls=(bool(ea[6]), bool(eb[6])),
                ),
            )
        )
    return Settlement(
        net=list(out.net)[:n],
        items=items,
        pairs=pairs,
        stacks=list(out.stacks_after)[:n] if stacks is not None else None,
        naturals=_naturals(out, rules, n) if max(out.natural) >= 0 else {},
        winner=None if out.winner < 0 else int(out.winner),
    )


def settle(
    boards: Sequence[BoardLike | None],
    rules: RulesLike = OFC,
    button: int = 0,
    stacks: Sequence[int] | None = None,
    *,
    surrendered: Sequence[int] = (),
    declared: Mapping[int, str | bool] | None = None,
) -> Settlement:
    """Settle a table of 2-4 seats (C ``ofc_settle``).

    ``boards[i]``: seat i's complete board (Board, text, or 13 cards in row order); a
    seat that surrendered or declared a natural may give its 13 cards in any order
    (a surrendered seat may give None).  ``surrendered``: seats that surrendered before
    the reveal (R-VAR-SUR-*: they pay ``rules.surrender_cost`` to each opponent they
    face, one that declared a natural too: Q-13).  ``declared``: seat -> natural
    name (in any case, as a rule set reads it: ``"Dragon"``; or True for its best)
    declared before the reveal (R-NAT-2); a seat that declares nothing is left out
    (its board is scored by rows), and any other value (False, None, 0) is refused.  ``stacks``:
    chips per seat at the start of the deal (0..1,000,000,000); with them every
    pair's transfer, pool transfers included, is capped by ``rules.stakes``
    (R-STAKES-*).

    ``net`` sums to zero; ``items`` itemise it; ``pairs`` hold the row-scored pairs.

    Raises BoardError for a board missing, incomplete or sharing a card with another
    (or a natural declared that the cards do not make, or a declaration that is
    neither True nor a natural's name), CardError for bad cards, RulesError for
    unknown rules or what they do not allow (surrender, naturals), TableError for a
    bad seat count, button, seat or stacks, or boards in no seat order (a set, a dict).

    >>> boards = ["Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",
    ...           "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"]
    >>> settle(boards, "OFC").net
    [50, -50]
    """
    rules = as_rules(rules, "settle")
    # in seat order (an iterator, a NumPy array: one board per item); no set or dict;
    # each board is checked by _seat_cards
    seats = cast(
        "tuple[BoardLike | None, ...]", per_seat(boards, "boards", "one board per seat")
    )
    n = check_players(len(seats), rules)
    seat_button = check_seat(button, n)
    if not is_many(surrendered):
        raise BoardError(
            f"surrendered: expected a sequence of seats, got {quote(surrendered)}"
        )
    sur = {check_seat(s, n, "surrendered seat") for s in surrendered}
    if declared is not None and not isinstance(declared, Mapping):
        raise BoardError(
            f"declared: expected a mapping seat -> natural name, got {quote(declared)}"
        )
    decl = {
        check_seat(s, n, "declaring seat"): name for s, name in (declared or {}).items()
    }
    role = [
        "surrendered" if i in sur else "declared" if i in decl else "rows" for i in range(n)
    ]
    cards = [_seat_cards(seats[i], i, role[i]) for i in range(n)]
    given = bytearray([_NO_CARD]) * 52
    for i, c in enumerate(cards):
        given[13 * i : 13 * i + len(c)] = bytes(c)
    inp = ffi.new("ofc_settle_input *")
    lib.ofc_settle_input_init(inp, n, seat_button)
    ffi.memmove(inp.cards, bytes(given), 52)
    inp.surrendered = sum(1 << s for s in sur)
    for s, name in decl.items():
        inp.declared[s] = _declaration(s, name)
    values = None
    if stacks is not None:
        values = list(check_stacks(stacks, n) or ())
        inp.has_stacks = 1
        inp.stacks = values
    out = ffi.new("ofc_settlement *")
    status = lib.ofc_settle(
        compiled(rules), table_rules(rules), inp, lib.OFC_SETTLE_ITEMS, out
    )
    if status != OK:
        raise _error(status, out, rules, cards, decl)
    return settlement_of(out, rules, n, values)
