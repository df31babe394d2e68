"""Moves and action ids.

A :class:`Move` assigns each dealt card a row or discards it (classic hands may also
declare a natural or surrender).  Moves are immutable values with plain-int contents:
a bot may keep, share or hash them freely.

Every normal decision (a 5-card opening, one OFC card, a Pineapple round of 3) also
has an *action id* in ``range(ACTION_SPACE)`` (243): with the dealt cards in deal
order and the kept cards' rows ``r_0, r_1, ...`` (0 front, 1 middle, 2 back), the
action is ``ci * 3**kept + sum(r_i * 3**i)`` where ``ci`` is the index of the discarded
cards among ``itertools.combinations(range(len(dealt)), discards)``.  The encoding is
the C engine's (``ofc_action_decode`` / ``ofc_action_encode`` in ``csrc/include/ofc_game.h``);
this module only caches what C computes.  Action ids and counts may be Python or NumPy
ints (a row of a VectorEnv's ``legal_actions``).

>>> from ofc_fast.game import Move, moves_for
>>> m = Move({"front": "Ah", "back": "Kd Ks"}, discard="2c")
>>> m.placements, m.discard
(((50, <Row.FRONT: 0>), (45, <Row.BACK: 2>), (47, <Row.BACK: 2>)), 0)
>>> str(m)
'Ah / - / Kd Ks, discard 2c'
>>> len(moves_for([51, 47, 0], [[], [], []], discards=1))
27
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from random import Random
from typing import Any, cast

import numpy as np

from .._native import ffi, lib
from .._native._fast import card_ids as _card_ids
from .._native._fast import distinct_ids as _distinct_ids
from .._native._fast import moves as _moves
from ..board import ROW_SIZES, Board, Row, row_splits
from ..cards import card_str, cards_str, check_card_ids
from ..errors import GameError, MoveError, quote
from ._actions import TABLES, natural_name, table_of
from ._actions import action_destinations as action_destinations  # for its users
from ._actions import destinations_table as destinations_table  # for its users
from ._actions import legal_actions_of as legal_actions_of  # for its users
from ._actions import short as _short
from ._move_parts import (
    board_of,
    card_tuple,
    free_in,
    free_slots_of,
    listed,
    plain,
    read_at,
    read_card,
    read_cards,
    read_row,
)

__all__ = [
    "ACTION_SPACE",
    "DISCARD",
    "Move",
    "action_for_move",
    "actions_for",
    "move_for_action",
    "moves_for",
    "random_move",
]

ACTION_SPACE: int = lib.OFC_ACTION_SPACE
"""Size of the fixed action space of normal decisions (3**5: a 5-card opening)."""
DISCARD = 3
"""The destination of a discarded card (rows are 0, 1, 2)."""
MOVE_KEYS = ("place", "discard", "declare", "surrender")
"""The keys of a move as plain data (:meth:`Move.to_dict`, :meth:`Move.from_dict`)."""

_ROWS = (Row.FRONT, Row.MIDDLE, Row.BACK)
_ROW_AT = tuple(r for r, size in enumerate(ROW_SIZES) for _ in range(size))
"""Row of each position of a 13-card setting in row order (3 front, 5 middle, 5 back)."""
_PAIRS = tuple(tuple((c, r) for r in _ROWS) for c in range(52))  # shared (card, Row)
_INT = {int}


class Move(tuple):  # type: ignore[type-arg]
    """One decision: where each card goes, and which cards are discarded.

    ``placements``: pairs ``(card, row)`` (cards as ids or text, rows as :class:`Row`,
    an index or a name), or a mapping ``{row: cards}``.  ``discard``: None, one card or
    several.  Classic Chinese Poker also has ``declare="<natural name>"`` (show a
    natural instead of setting, R-NAT-2; ``"Dragon"`` reads as ``"dragon"``) and
    ``surrender=True`` (R-VAR-SUR-*); both carry no cards.  Contents are normalised
    to plain ints and natural names; a move is immutable and hashable, and two moves
    are equal when they send the same cards to the same rows whatever the order they
    were given in.

    >>> Move([("As", 0), (12, "back")]) == Move([(12, 2), (51, "front")])
    True
    >>> Move.from_dict(Move([(51, 0)], 3).to_dict())
    Move((('As', Row.FRONT),), discard=3)
    """

    __slots__ = ()

    def __new__(
        cls,
        placements: Iterable[tuple[Any, Any]] | Mapping[Any, Any] = (),
        discard: int | str | Iterable[int | str] | None = None,
        *,
        declare: str | None = None,
        surrender: bool = False,
    ) -> Move:
        """Build and normalise a move (see the class docstring)."""
        cards: list[int] = []
        dests: list[int] = []
        if isinstance(placements, Mapping):
            for row, row_cards in placements.items():
                r = read_row(row)
                for c in read_cards(row_cards):
                    cards.append(c)
                    dests.append(r)
        elif isinstance(placements, (str, bytes)):
            raise MoveError(
                f"bad placements {_short(placements)}: expected (card, row) "
                f"pairs or a mapping {{row: cards}}",
                "bad_move",
            )
        else:
            try:
                items = list(placements)
            except TypeError:
                raise MoveError(
                    f"bad placements {_short(placements)}: expected (card, row) pairs",
                    "bad_move",
                ) from None
            if len(items) == 4 and type(items[3]) is bool and discard is declare is None:
                return cls._of_state(*items)  # its own items, as dataclasses.asdict gives
            for item in items:
                try:
                    card, row = item
                except (TypeError, ValueError):
                    raise MoveError(
                        f"bad placement {_short(item)}: expected a (card, row) pair",
                        "bad_move",
                    ) from None
                cards.append(read_card(card))
                dests.append(read_row(row))
        if discard is not None:
            for c in read_cards(discard):
                cards.append(c)
                dests.append(DISCARD)
        return cls._checked(cards, dests, declare, surrender)

    @classmethod
    def _checked(
        cls, cards: list[int], dests: list[int], declare: object, surrender: object
    ) -> Move:
        """A move of parsed card ids and destinations; declare, surrender checked."""
        if declare is not None:  # a natural's name, as a rule set reads it ("Dragon")
            declare = natural_name(declare)
        if not isinstance(surrender, bool):
            raise MoveError(
                f"surrender must be True or False, got {_short(surrender)}", "surrender"
            )
        return tuple.__new__(cls, (tuple(cards), tuple(dests), declare, surrender))

    @classmethod
    def from_action(cls, dealt: Sequence[int], discards: int, action: int) -> Move:
        """The move of action id ``action`` for the ``dealt`` cards of a normal decision
        with ``discards`` discards (MoveError when the id does not exist for that
        decision's shape; whether the rows have room is the game's to check).

        >>> Move.from_action([51, 47, 0], 1, 19)
        Move((('As', Row.MIDDLE), ('Ks', Row.FRONT)), discard=0)
        """
        cards = _card_ids(dealt)  # None unless 1..5 distinct int ids
        if cards is None:
            cards = _dealt(dealt)
        if type(action) is not int or type(discards) is not int:
            discards, action = plain(discards), plain(action)
        n = len(cards)
        dest = None
        if (
            type(discards) is int
            and type(action) is int
            and 0 <= discards < n
            and 0 <= action < ACTION_SPACE
        ):
            table = TABLES[n * 5 + discards] or table_of(n, discards)
            dest = table[action]
        if dest is None:
            raise MoveError(
                f"action {_short(action)} does not exist for {len(cards)} "
                f"card(s) with {_short(discards)} discard(s)",
                "bad_action",
            )
        return tuple.__new__(cls, (cards, dest, None, False))

    @classmethod
    def from_rows(
        cls,
        front: Iterable[Any],
        middle: Iterable[Any],
        back: Iterable[Any],
        discard: Iterable[Any] = (),
    ) -> Move:
        """The move that sets ``front``, ``middle`` and ``back`` (cards as ids, numpy
        integers or text) and discards ``discard``: a full set as one move.

        >>> str(Move.from_rows([51], [], [47, 43], discard=[0]))
        'As / - / Ks Qs, discard 2c'
        """
        rows = tuple(
            read_cards(x, name)
            for x, name in ((front, "front"), (middle, "middle"), (back, "back"))
        )
        cards = tuple(c for row in rows for c in row) + tuple(
            read_cards(discard, "discard")
        )
        dests = tuple(r for r, row in enumerate(rows) for _ in row) + (DISCARD,) * (
            len(cards) - sum(map(len, rows))
        )
        return tuple.__new__(cls, (cards, dests, None, False))

    @classmethod
    def from_board(cls, board: Any, discard: Iterable[Any] = ()) -> Move:
        """The move that sets a :class:`~ofc_fast.Board` (a solver's answer) and
        discards ``discard``; MoveError for anything else than a Board."""
        if not isinstance(board, Board):
            raise MoveError(f"expected a Board, got {_short(board)}", "bad_move")
        return cls.from_rows(board.front, board.middle, board.back, discard)

    @classmethod
    def _of(cls, cards: tuple[int, ...], dests: tuple[int, ...]) -> Move:
        """A move from already valid cards and destinations (the engine's moves)."""
        return tuple.__new__(cls, (cards, dests, None, False))

    # -- contents
    @property
    def cards(self) -> tuple[int, ...]:
        """Every card the move uses, in the order given (placed and discarded)."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def destinations(self) -> tuple[int, ...]:
        """Per card of :attr:`cards`: its row (0, 1, 2) or ``DISCARD`` (3)."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def declare(self) -> str | None:
        """The natural declared (classic), or None."""
        return self[2]  # type: ignore[no-any-return]

    @property
    def surrender(self) -> bool:
        """True for a surrender (classic)."""
        return self[3]  # type: ignore[no-any-return]

    @property
    def placements(self) -> tuple[tuple[int, Row], ...]:
        """Pairs ``(card, Row)`` of the placed cards."""
        return tuple(_PAIRS[c][d] for c, d in zip(self[0], self[1]) if d != DISCARD)

    @property
    def discards(self) -> tuple[int, ...]:
        """The discarded cards."""
        return tuple(c for c, d in zip(self[0], self[1]) if d == DISCARD)

    @property
    def discard(self) -> int | tuple[int, ...] | None:
        """None, the discarded card, or a tuple when several are discarded."""
        d = self.discards
        if not d:
            return None
        return d[0] if len(d) == 1 else d

    def in_order(self, dealt: Sequence[int]) -> Move:
        """The same move with its cards listed in the order of ``dealt`` (the order
        the engine puts them in their rows); cards not dealt go last.

        >>> Move([(47, "back"), (51, "front")]).in_order([51, 47]).cards
        (51, 47)
        """
        try:
            pos = {c: i for i, c in enumerate(dealt)}
        except TypeError:  # None, a number, cards that are lists
            raise MoveError(
                f"dealt cards: expected a list of cards, got {_short(dealt)}", "bad_move"
            ) from None
        pairs = sorted(zip(self[0], self[1]), key=lambda cd: pos.get(cd[0], len(pos)))
        return tuple.__new__(
            Move, (tuple(c for c, _ in pairs), tuple(d for _, d in pairs), self[2], self[3])
        )

    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The placed cards by row (front, middle, back)."""
        out: tuple[list[int], list[int], list[int]] = ([], [], [])
        for c, d in zip(self[0], self[1]):
            if d != DISCARD:
                out[d].append(c)
        return tuple(out[0]), tuple(out[1]), tuple(out[2])

    def key(self) -> tuple[Any, ...]:
        """Canonical form: equal moves have equal keys."""
        return (tuple(sorted(zip(self[0], self[1]))), self[2], self[3])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.key())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move._of_state, (self[0], self[1], self[2], self[3]))

    @staticmethod
    def _of_state(
        cards: tuple[int, ...], dests: tuple[int, ...], declare: str | None, surrender: bool
    ) -> Move:
        """An unpickled move, or one from its items (as JSON gives them: lists too)."""
        if not (
            type(cards) in (tuple, list)
            and type(dests) in (tuple, list)
            and len(cards) == len(dests)
            and all(type(c) is int and 0 <= c < 52 for c in cards)
            and all(type(d) is int and 0 <= d <= DISCARD for d in dests)
            and (declare is None or type(declare) is str)
            and type(surrender) is bool
        ):
            raise MoveError("a pickled Move holds no move's fields", "bad_move")
        return tuple.__new__(Move, (tuple(cards), tuple(dests), declare, surrender))

    # -- plain data
    def to_dict(self) -> dict[str, Any]:
        """JSON-able: ``{"place": [[card, row], ...], "discard": [cards]}`` (plus
        ``declare`` / ``surrender`` when set)."""
        d: dict[str, Any] = {
            "place": [[c, r] for c, r in zip(self[0], self[1]) if r != DISCARD],
            "discard": [c for c, r in zip(self[0], self[1]) if r == DISCARD],
        }
        if self[2] is not None:
            d["declare"] = self[2]
        if self[3]:
            d["surrender"] = True
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        """Inverse of :meth:`to_dict` (cards may also be text, rows names): ``place``
        a list of ``[card, row]`` pairs, ``discard`` a list of cards (lists, tuples or
        NumPy arrays); anything else is a MoveError naming the field and the index
        (``place[0]: a [card, row] pair, got 'As'``)."""
        if not isinstance(data, Mapping):
            raise MoveError(
                f"bad move {_short(data)}: expected a dict with 'place'", "bad_move"
            )
        unknown = set(data) - set(MOVE_KEYS)
        if unknown:
            raise MoveError(
                f"bad move: unknown key(s) {_short(sorted(map(str, unknown)))}", "bad_move"
            )
        place = listed(data.get("place", ()), "place", "a list of [card, row] pairs")
        cards: list[int] = []
        dests: list[int] = []
        for i, item in enumerate(place):
            pair = listed(item, f"place[{i}]", "a [card, row] pair", 2)
            cards.append(read_at(read_card, pair[0], f"place[{i}]"))
            dests.append(read_at(read_row, pair[1], f"place[{i}]"))
        discard = data.get("discard")
        for i, c in enumerate(
            () if discard is None else listed(discard, "discard", "a list of cards")
        ):
            cards.append(read_at(read_card, c, f"discard[{i}]"))
            dests.append(DISCARD)
        return cls._checked(cards, dests, data.get("declare"), data.get("surrender", False))

    def __str__(self) -> str:
        if self[3]:
            return "surrender"
        if self[2] is not None:
            return f"declare {self[2]}"
        text = " / ".join(cards_str(r) or "-" for r in self.rows())
        if self.discards:
            text += ", discard " + cards_str(self.discards)
        return text

    def __repr__(self) -> str:
        extra = ""
        if self[2] is not None:
            extra += f", declare={self[2]!r}"
        if self[3]:
            extra += ", surrender=True"
        d = self.discard
        disc = "" if d is None else f", discard={d!r}"
        pl = self.placements
        items = ", ".join(f"({card_str(c)!r}, Row.{r.name})" for c, r in pl)
        return f"Move(({items}{',' if len(pl) == 1 else ''}){disc}{extra})"


def _decision(
    dealt: Sequence[Any], rows: object
) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """The dealt cards (:func:`_dealt`) and the free slots of ``rows``
    (:func:`~ofc_fast.game._move_parts.board_of`) of a normal decision; CardError
    naming a card both dealt and on the rows."""
    cards = _dealt(dealt)
    board = board_of(rows)
    check_card_ids(cards + board.cards, "dealt cards and rows")
    return cards, free_slots_of(board.rows)


def _dealt(dealt: Sequence[Any]) -> tuple[int, ...]:
    fast = _card_ids(dealt)  # a list or tuple of 1..5 distinct int ids
    if fast is not None:
        return fast
    cards = card_tuple(dealt)
    if not cards or set(map(type, cards)) != _INT or min(cards) < 0 or max(cards) > 51:
        cards = tuple(read_card(c) for c in cards)
    if len(set(cards)) != len(cards):
        raise MoveError(f"dealt cards repeat a card: {cards_str(cards)}", "duplicate")
    if not 1 <= len(cards) <= 5:
        raise MoveError(
            f"a normal decision deals 1 to 5 cards, got {len(cards)}; for a "
            f"Fantasyland or classic set see Game.legal_moves()",
            "bad_move",
        )
    return cards


def actions_for(
    n: int, rows: Sequence[Sequence[int]], discards: int = 0
) -> tuple[int, ...]:
    """Legal action ids for ``n`` dealt cards onto ``rows`` (front, middle, back).

    >>> from ofc_fast.cards import parse_cards
    >>> len(actions_for(3, [[], [], []], discards=1))  # 3 discards x 9 placements
    27
    >>> rows = [parse_cards("Ah Ad"), parse_cards("2c 3c 4c 5c"), parse_cards("Ks Qs Js Ts")]
    >>> actions_for(2, rows)  # one slot left in each row: two cards, three rows
    (1, 2, 3, 5, 6, 7)
    """
    return legal_actions_of(plain(n), plain(discards), free_in(rows))


def moves_for(
    dealt: Sequence[int], rows: Sequence[Sequence[int]], discards: int = 0
) -> list[Move]:
    """Every legal move for ``dealt`` cards (at most 5) onto a board whose rows hold
    ``rows``, discarding ``discards`` of them; in action order (the same list as
    :meth:`Game.legal_moves` for a normal decision).  Cards are ids or text (``rows``:
    front, middle, back, or a Board or board text); a card both dealt and on the rows
    is a CardError naming it.

    >>> from ofc_fast.cards import parse_cards
    >>> moves = moves_for(parse_cards("As Kd 7h"), [[], [], []], discards=1)
    >>> len(moves), moves[0]
    (27, Move((('Kd', Row.FRONT), ('7h', Row.FRONT)), discard=51))
    """
    cards, free = _decision(dealt, rows)
    n, discards = len(cards), plain(discards)
    return [
        Move._of(cards, action_destinations(n, discards, a))  # type: ignore[arg-type]
        for a in legal_actions_of(n, discards, free)
    ]


def moves_for_actions(
    dealt: Sequence[int], discards: int, actions: Iterable[int]
) -> list[Move]:
    """The moves of several action ids for the same dealt cards, in the order given
    (MoveError when an id does not exist for the decision's shape; room in the rows is
    the game's to check).  The fast path behind :meth:`Game.legal_moves`."""
    cards = _dealt(dealt)
    if type(discards) is not int or not 0 <= discards < len(cards):
        raise MoveError(
            f"{_short(discards)} discards do not fit {len(cards)} card(s)", "discard_count"
        )
    table = destinations_table(len(cards), discards)
    acts = actions if isinstance(actions, (list, tuple)) else list(actions)
    moves: list[Move] | None = _moves(Move, cards, table, acts)
    if moves is None:  # an id that does not exist for the decision's shape
        valid = _valid_ids(len(cards), discards)
        bad = next(a for a in acts if type(a) is not int or a not in valid)
        raise MoveError(
            f"action {_short(bad)} does not exist for {len(cards)} card(s) "
            f"with {discards} discard(s)",
            "bad_action",
        )
    return moves


@cache
def _valid_ids(n: int, k: int) -> frozenset[int]:
    """The action ids that exist for (n, k) (room in the rows aside)."""
    return frozenset(a for a, d in enumerate(destinations_table(n, k)) if d is not None)


def settings_for(dealt: Sequence[int]) -> list[Move]:
    """Every setting of 13 dealt cards (72,072 moves, front/middle/back), in the order
    of :func:`ofc_fast.board.row_splits`."""
    cards = tuple(read_card(c) for c in card_tuple(dealt))
    if len(cards) != 13 or len(set(cards)) != 13:
        raise MoveError(f"a setting takes 13 distinct cards, got {len(cards)}", "bad_move")
    new = tuple.__new__
    return [new(Move, (cards, d, None, False)) for d in _settings13()]


@lru_cache(maxsize=1)
def _settings13() -> tuple[tuple[int, ...], ...]:
    """Destinations (row per card) of the 72,072 settings of 13 cards, from the one
    split list (:func:`ofc_fast.board.row_splits`)."""
    splits = row_splits()
    dest = np.empty(splits.shape, dtype=np.intp)
    np.put_along_axis(dest, splits, np.array(_ROW_AT)[None, :], axis=1)
    rows = cast("list[list[int]]", dest.tolist())
    return tuple(tuple(r) for r in rows)


def move_for_action(
    action: int, dealt: Sequence[int], rows: Sequence[Sequence[int]], discards: int = 0
) -> Move:
    """The move of an action id (MoveError when it is not legal here).

    >>> from ofc_fast.cards import parse_cards
    >>> print(move_for_action(3, parse_cards("As Kd 7h"), [[], [], []], discards=1))
    Kd / 7h / -, discard As
    >>> move_for_action(99, parse_cards("As Kd 7h"), [[], [], []], discards=1)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.MoveError: action 99 is not legal here (3 cards, 1 to discard, ...)
    """
    cards, free = _decision(dealt, rows)
    action, discards = plain(action), plain(discards)
    legal = legal_actions_of(len(cards), discards, free)
    if type(action) is not int or action not in legal:  # `in`: no array compared
        raise MoveError(
            f"action {_short(action)} is not legal here ({len(cards)} cards, "
            f"{discards} to discard, free rows {free})",
            "bad_action",
        )
    return Move._of(cards, action_destinations(len(cards), discards, action))  # type: ignore[arg-type]


def action_for_move(move: Move, dealt: Sequence[int], discards: int = 0) -> int:
    """The action id of a normal move for ``dealt`` (inverse of :func:`move_for_action`;
    MoveError when the move does not use exactly the dealt cards).

    >>> from ofc_fast.cards import parse_cards
    >>> dealt = parse_cards("As Kd 7h")
    >>> action_for_move(move_for_action(3, dealt, [[], [], []], 1), dealt, 1)
    3
    """
    if not isinstance(move, Move):
        raise MoveError(f"expected a Move, got {_short(move)}", "bad_move")
    cards, discards = _dealt(dealt), plain(discards)
    if type(discards) is not int or not 0 <= discards < len(cards):
        raise MoveError(
            f"{_short(discards)} discards do not fit {len(cards)} card(s)", "discard_count"
        )
    dest = destinations_of(move, cards)
    enc = lib.ofc_action_encode(len(cards), discards, ffi.new("uint8_t[5]", dest))
    if enc < 0:
        raise MoveError(
            f"move {move} does not discard {discards} of {cards_str(cards)}",
            "discard_count",
        )
    return int(enc)


def destinations_of(move: Move, dealt: Sequence[int]) -> list[int]:
    """Per dealt card, where ``move`` sends it (MoveError naming the first card that
    was not dealt, is used twice, or is left out)."""
    pos = {c: i for i, c in enumerate(dealt)}
    dest = [-1] * len(dealt)
    for c, d in zip(move[0], move[1]):
        i = pos.get(c)
        if i is None:
            raise MoveError(
                f"{card_str(c)} is not among the dealt cards {cards_str(dealt)}",
                "not_dealt",
            )
        if dest[i] >= 0:
            raise MoveError(f"{card_str(c)} is used twice in the move", "duplicate")
        dest[i] = d
    missing = [c for c, d in zip(dealt, dest) if d < 0]
    if missing:
        raise MoveError(
            f"the move leaves {cards_str(missing)} unplayed: every dealt card "
            f"must be placed or discarded",
            "missing",
        )
    return dest


def random_move(
    dealt: Sequence[int], rows: Sequence[Sequence[int]], discards: int, rng: Random
) -> Move:
    """A uniformly random legal move (a full set of 13 to 17 cards onto an empty
    board, ``discards`` of them discarded: a uniformly random setting, without
    enumerating them; MoveError for any other shape).  ``rng``: a
    :class:`random.Random` (anything with its ``choice`` and ``shuffle``: a NumPy
    Generator too), else GameError.

    >>> from random import Random
    >>> from ofc_fast.cards import parse_cards
    >>> dealt = parse_cards("As Kd 7h")
    >>> random_move(dealt, [[], [], []], 1, Random(1)) in moves_for(dealt, [[], [], []], 1)
    True
    >>> fantasyland = random_move(range(14), [[], [], []], 1, Random(1))
    >>> print(fantasyland)  # the 14 cards 2c..5d: 13 set, one discarded
    2c 4h 5c / 2s 3d 3h 3s 4c / 2d 2h 3c 4d 4s, discard 5d
    """
    if not (hasattr(rng, "choice") and hasattr(rng, "shuffle")):
        raise GameError(f"random_move: rng must be a random.Random, got {quote(rng)}")
    if not isinstance(dealt, (list, tuple)):
        dealt = card_tuple(dealt)
    discards = plain(discards)
    if len(dealt) <= 5:
        cards, free = _decision(dealt, rows)
        legal = legal_actions_of(len(cards), discards, free)
        i = rng.choice(range(len(legal)))  # random.Random: the pick choice(legal) makes
        try:
            a = legal[i]  # a NumPy rng's NumPy int too
        except (TypeError, IndexError):
            raise GameError(
                f"random_move: rng.choice gave {quote(i)}, none of the choices"
            ) from None
        return Move._of(cards, action_destinations(len(cards), discards, a))  # type: ignore[arg-type]
    n, free = len(dealt), free_in(rows)
    if not (
        lib.OFC_BOARD_CARDS <= n <= lib.OFC_GAME_MAX_DEALT
        and type(discards) is int
        and n - discards == lib.OFC_BOARD_CARDS
        and free == ROW_SIZES
    ):
        raise MoveError(
            f"no set deals {n} card(s) with {_short(discards)} discard(s) onto free "
            f"rows {free}: a full set is 13 to 17 cards, 13 set onto an empty board",
            "bad_move",
        )
    # distinct int ids (every dealt set) at once; anything else card by card
    cards = tuple(dealt) if _distinct_ids(dealt) else tuple(read_card(c) for c in dealt)
    order = list(range(len(cards)))
    rng.shuffle(order)
    dest = [0] * len(cards)
    for p, i in enumerate(order):
        kept = p - discards
        dest[i] = DISCARD if kept < 0 else _ROW_AT[kept]
    return Move._of(cards, tuple(dest))
