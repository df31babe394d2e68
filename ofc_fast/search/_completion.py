"""The best completion of a partial board with the cards still to come
(``ofc_best_completion``, csrc/include/ofc_search.h)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb, factorial, prod
from typing import Any

from .._native import OK, ffi, lib
from ..board import ROW_SIZES, Board, board_slots
from ..cards import CardsLike, parse_cards
from ..errors import SearchError, quote
from ..rules import RulesLike
from ..rules.compiled import compiled, compiled_fl
from ..solver import ev_tables
from ._checks import fl_count, int_in, raise_status, rows_of, search_rules, seq
from ._stop import stop_hook, stoppable
from .model import SearchModel, search_model

__all__ = ["Completion", "best_completion"]


@dataclass(frozen=True)
class Completion:
    """A completed board: ``board`` (a :class:`Board`), ``value`` (royalties +
    Fantasyland value + row term; -1000 when fouled), ``foul``, ``fantasyland`` (the
    cards it earns next deal) and ``leaves`` (boards examined).

    >>> from ofc_fast import best_completion
    >>> c = best_completion("Qh / 9s 9h / As Ks", "Qd 9d Qs Js Ts 5c 5d 2c", "OFC")
    >>> c.board, c.foul, c.fantasyland
    (Board.parse('Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts'), False, 13)
    """

    board: Board
    value: float
    foul: bool
    fantasyland: int
    leaves: int


_POLICY_IDS = {
    "best": int(lib.OFC_COMPLETE_BEST),
    "fast": int(lib.OFC_COMPLETE_FAST),
    "sequential": int(lib.OFC_COMPLETE_SEQUENTIAL),
}

_AT_ONCE = 1_000_000  # boards (about 0.1 s): a completion of more can be stopped


def policy_id(policy: str, sequential: bool = False) -> int:
    names = tuple(_POLICY_IDS)[: 3 if sequential else 2]
    if isinstance(policy, str) and policy in names:
        return _POLICY_IDS[policy]
    raise SearchError(f"policy must be one of {names} here, got {quote(policy)}")


def best_completion(
    board: str | Board | Sequence[Sequence[int]],
    cards: CardsLike,
    rules: RulesLike,
    *,
    rounds: Sequence[tuple[int, int]] | None = None,
    fantasyland: int = 0,
    policy: str = "best",
    model: SearchModel | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Completion:
    """The completion of largest value of a partial board with the cards still to
    come: ``rounds`` lists (cards dealt, cards discarded) per round in order, dealing
    ``cards`` in that order (default: one round keeping every card, none without
    cards: a finished board is valued as it is); ``fantasyland``:
    the Fantasyland count of this hand (0: a normal hand, entry rule).  Exact for
    ``policy="best"``, which examines every discard choice and every board: seconds
    for 17 cards seen at once (``rounds=[(17, 4)]``, a Fantasyland hand: some 85
    million boards; a Pineapple deal in its rounds, some 3 million, under a second);
    such a search (over a million boards) runs in a thread that Ctrl-C, or
    ``should_stop`` (None, or a callable asked every 0.05 s, as :func:`advise` asks
    it) once it returns True, stops within about 0.05 s: KeyboardInterrupt, or a
    SearchError saying so.

    >>> from ofc_fast import rules
    >>> c = best_completion("Qh Qd / 9s 9h 9d 5c / As Ks Qs Js", "2c 5d Ts", rules.PINEAPPLE,
    ...                     model=search_model(rules.PINEAPPLE, fl_value=0, row_weight=0))
    >>> str(c.board), c.value, c.fantasyland
    ('Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts', 44.0, 14)
    """
    rules = search_rules(rules, "best_completion")
    rows = rows_of(board)
    ids = parse_cards(cards)
    default = [(len(ids), 0)] if ids else []  # (no card to come: no round)
    rounds = default if rounds is None else _round_list(rounds)
    need = sum(n for n, _ in rounds)
    if need != len(ids):  # (the C call reads as many cards as the rounds deal)
        raise SearchError(
            f"best_completion: rounds deal {need} cards, cards holds {len(ids)}"
        )
    if model is None:
        model = search_model(rules)
    elif not isinstance(model, SearchModel):
        raise SearchError(f"model must be a SearchModel, got {quote(model)}")
    fantasyland = fl_count(fantasyland, "fantasyland")
    should_stop = stop_hook(should_stop)
    out = ffi.new("ofc_completion_result *")
    call = (
        compiled(rules),
        compiled_fl(rules),
        ev_tables(rules),
        model.c_model(),
        board_slots(rows, SearchError),
        bytes(ids),
        len(rounds),
        bytes(n for n, _ in rounds),
        bytes(k for _, k in rounds),
        fantasyland,
        policy_id(policy),
        out,
    )
    if policy == "best" and _boards(rows, rounds) > _AT_ONCE:
        st, why, _ = stoppable(
            lambda word: lib.ofc_best_completion_stop(*call, word),
            should_stop=should_stop,
            name="ofc-best-completion",
        )
        if st == lib.OFC_E_STOPPED:
            raise SearchError(f"best_completion: stopped before its end: {why}")
    else:
        st = lib.ofc_best_completion(*call)
    if st == lib.OFC_E_COUNT:  # (rounds and Fantasyland count checked: the fill)
        free, kept = sum(_free_slots(rows)), sum(n - k for n, k in rounds)
        raise SearchError(
            f"best_completion: the board has {free} free slots, the rounds keep {kept} "
            f"cards (cards dealt less discards): they must fill it"
        )
    if st != OK:
        raise_status(st, "best_completion")
    b = list(out.board)
    return Completion(
        Board(b[:3], b[3:8], b[8:]),
        float(out.value),
        bool(out.foul),
        int(out.next_fl),
        int(out.leaves),
    )


def _boards(rows: list[list[int]], rounds: list[tuple[int, int]]) -> int:
    """At most how many boards the best policy examines: the discard choices of the
    rounds times the fills of the kept cards into the free slots (0 where they do
    not fit: the C call refuses it at once)."""
    free = _free_slots(rows)
    kept = sum(n - k for n, k in rounds)
    if min(free) < 0 or kept != sum(free):
        return 0
    fills = factorial(kept) // prod(factorial(f) for f in free)
    return fills * prod(comb(n, k) for n, k in rounds)


def _free_slots(rows: list[list[int]]) -> list[int]:
    """The free slots of each row (negative where a row holds too many cards)."""
    return [size - len(row) for size, row in zip(ROW_SIZES, rows)]


def _round_list(rounds: Any) -> list[tuple[int, int]]:
    """(cards dealt, cards discarded) pairs of ints within range, as the C call takes
    them: each round deals at least one card and keeps at least one (the C call checks
    that they fill the board)."""
    out = []
    for item in seq(rounds, "rounds"):
        pair = seq(item, "a round (cards dealt, cards discarded)")
        if len(pair) != 2:
            raise SearchError(
                f"a round is (cards dealt, cards discarded), got {quote(item)}"
            )
        n = int_in(pair[0], "a round's cards", 1, int(lib.OFC_SEARCH_MAX_ROUND_CARDS))
        out.append((n, int_in(pair[1], "a round's discards", 0, n - 1)))
    if len(out) > int(lib.OFC_SEARCH_MAX_ROUNDS):
        raise SearchError(
            f"at most {int(lib.OFC_SEARCH_MAX_ROUNDS)} rounds, got {len(out)}"
        )
    return out
