"""Game flow for one deal: classic Chinese Poker, OFC, Pineapple and Fantasyland.

A :class:`Game` is the referee of one deal.  It shuffles (seeded), deals in the order
the rules give (R-FLOW-*), tells whose decision it is (:attr:`Game.to_act`) and which
cards that seat must deal with (:attr:`Game.dealt`), enumerates the legal moves,
validates and applies any move (:meth:`Game.play`), shows each seat only what that seat
may see (:meth:`Game.observation`), and scores the finished table through
:func:`ofc_fast.settle` (:meth:`Game.result`).

>>> from ofc_fast import rules
>>> from ofc_fast.game import Game
>>> g = Game(rules.PINEAPPLE, players=2, seed=7)
>>> g.to_act, len(g.dealt), len(g.legal_moves())       # seat 1 is left of the button
(1, 5, 232)
>>> while not g.is_over:
...     g.play(g.legal_moves()[0])
>>> sum(g.result().net)
0
>>> Game.replay(g.history()) == g
True

Decision order (R-FLOW-OFC-2, R-FL-2/5/7): the seats in Fantasyland receive all their
cards first and set them face down, one after the other from the seat left of the
button; then the other seats play the normal flow, each round from the seat left of the
button to the button.  In classic Chinese Poker every seat sets its 13 cards face down
in the same order.  Face-down cards (classic hands, Fantasyland sets, the last
``rules.face_down_final`` rounds of OFC) are shown to the others only when the deal is
over; discards are never shown to anyone but their owner (R-FLOW-PIN-4).

Moves, and the fixed action space for reinforcement learning
---------------------------------------------------------------
A :class:`Move` assigns each dealt card a row or discards it.  Every normal decision
(the 5-card opening, a single OFC card, a Pineapple round of 3) also has an *action
number* in ``range(ACTION_SPACE)`` (243): with the dealt cards in deal order and the
kept cards' rows ``r_0, r_1, ...`` (0 front, 1 middle, 2 back), the action is
``d * 3**kept + sum(r_i * 3**i)`` where ``d`` is the index of the discarded cards among
``itertools.combinations(range(len(dealt)), discards)`` (0 when nothing is discarded).
:meth:`Game.legal_actions`, :meth:`Game.action_mask` and :meth:`Game.play_action` use
it; the observation of the seat to act carries ``legal_actions``.  Fantasyland and
classic sets (13 to 17 cards) are outside the action space.
"""

from __future__ import annotations

import gc
import importlib
import secrets
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from math import comb
from random import Random
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from .board import Board, Row
from .cards import card_str, cards_str, parse_card
from .errors import OfcError
from .fantasyland import fantasyland_cards
from .rules import PINEAPPLE, RuleSet
from .rules import get as get_rules
from .rules.model import Game as GameKind
from .settlement import Settlement, settle

__all__ = ["GameError", "MoveError", "Move", "Game", "GameResult", "ACTION_SPACE",
           "ROW_SIZES", "moves_for", "actions_for", "move_for_action",
           "action_for_move", "random_move", "cards_per_seat", "play_out",
           "HISTORY_VERSION"]

ROW_SIZES = (3, 5, 5)
ACTION_SPACE = 243
"""Size of the fixed action space of normal decisions (3**5: a 5-card opening)."""
HISTORY_VERSION = 1
_ROWS = (Row.FRONT, Row.MIDDLE, Row.BACK)
_ENUMERATE_LIMIT = 100_000
_SETTINGS_13 = 72072  # 13! / (3! 5! 5!)


class GameError(OfcError):
    """A game that cannot be built (bad seat count, button, Fantasyland counts, too
    many cards for one deck) or a question the state cannot answer (the result of an
    unfinished deal)."""


class MoveError(GameError):
    """An illegal move.  ``reason`` names the problem for programs:

    ``"game_over"``, ``"not_your_turn"``, ``"not_dealt"``, ``"duplicate"``,
    ``"discard_count"``, ``"missing"``, ``"row_full"``, ``"declare"``,
    ``"surrender"``, ``"bad_move"``, ``"bad_action"``.
    """

    def __init__(self, message: str, reason: str = "bad_move") -> None:
        super().__init__(message)
        self.reason = reason


# ------------------------------------------------------------------------ moves

def _parse_row(row: object) -> Row:
    if type(row) is Row:
        return row  # type: ignore[return-value]
    try:
        return Row.parse(row)  # type: ignore[arg-type]
    except OfcError as exc:
        raise MoveError(str(exc), "bad_move") from None


def _parse_move_card(card: object) -> int:
    if type(card) is int and 0 <= card < 52:  # type: ignore[operator]
        return card  # type: ignore[return-value]
    try:
        return parse_card(card)  # type: ignore[arg-type]
    except OfcError as exc:
        raise MoveError(str(exc), "bad_move") from None


class Move:
    """One decision: where each dealt card goes, and which cards are discarded.

    ``placements``: pairs ``(card, row)`` (cards as ids or text, rows as :class:`Row`,
    an index or a name), or a mapping ``{row: cards}``.  ``discard``: None, one card or
    several.  Classic Chinese Poker also has ``declare="<natural name>"`` (show a
    natural instead of setting, R-NAT-2) and ``surrender=True`` (R-VAR-SUR-*); both
    carry no placements.

    >>> m = Move({"front": "Ah", "back": "Kd Ks"}, discard="2c")
    >>> m.placements, m.discard
    (((50, <Row.FRONT: 0>), (45, <Row.BACK: 2>), (47, <Row.BACK: 2>)), 0)
    >>> str(m)
    'Ah / - / Kd Ks, discard 2c'
    >>> Move.from_dict(m.to_dict()) == m
    True
    """

    __slots__ = ("placements", "discards", "declare", "surrender", "_key")

    placements: tuple[tuple[int, Row], ...]
    discards: tuple[int, ...]
    declare: Optional[str]
    surrender: bool
    _key: Optional[tuple]

    def __init__(self, placements: Union[Iterable[tuple[Any, Any]], Mapping[Any, Any]] = (),
                 discard: Union[None, int, str, Iterable[Union[int, str]]] = None, *,
                 declare: Optional[str] = None, surrender: bool = False) -> None:
        pl: list[tuple[int, Row]] = []
        if isinstance(placements, Mapping):
            from .cards import parse_cards
            for row, cards in placements.items():
                r = _parse_row(row)
                try:
                    ids = parse_cards(cards) if not isinstance(cards, int) else [cards]
                except OfcError as exc:
                    raise MoveError(str(exc), "bad_move") from None
                pl.extend((_parse_move_card(c), r) for c in ids)
        else:
            if isinstance(placements, (str, bytes)):
                raise MoveError(f"bad placements {placements!r}: expected (card, row) "
                                f"pairs or a mapping {{row: cards}}", "bad_move")
            for item in placements:
                try:
                    card, row = item
                except (TypeError, ValueError):
                    raise MoveError(f"bad placement {item!r}: expected a (card, row) "
                                    f"pair", "bad_move") from None
                pl.append((_parse_move_card(card), _parse_row(row)))
        if discard is None:
            ds: tuple[int, ...] = ()
        elif hasattr(discard, "__index__"):  # one card id (int, numpy integer)
            ds = (_parse_move_card(discard),)
        elif isinstance(discard, str):
            from .cards import parse_cards
            try:
                ds = tuple(parse_cards(discard))
            except OfcError as exc:
                raise MoveError(str(exc), "bad_move") from None
        else:
            try:
                ds = tuple(_parse_move_card(c) for c in discard)  # type: ignore[union-attr]
            except TypeError:
                raise MoveError(f"bad discard {discard!r}: expected a card or cards",
                                "bad_move") from None
        if declare is not None and not isinstance(declare, str):
            raise MoveError(f"declare must be a natural's name, got {declare!r}", "declare")
        self.placements = tuple(pl)
        self.discards = ds
        self.declare = declare
        self.surrender = bool(surrender)
        self._key = None

    @classmethod
    def _make(cls, placements: tuple[tuple[int, Row], ...],
              discards: tuple[int, ...] = ()) -> Move:
        """Fast constructor for already valid data (the move generators)."""
        m = object.__new__(cls)
        m.placements = placements
        m.discards = discards
        m.declare = None
        m.surrender = False
        m._key = None
        return m

    @property
    def discard(self) -> Union[None, int, tuple[int, ...]]:
        """None, the discarded card, or a tuple when several are discarded."""
        d = self.discards
        if not d:
            return None
        return d[0] if len(d) == 1 else d

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card the move uses, placed then discarded."""
        return tuple(c for c, _ in self.placements) + self.discards

    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The placed cards by row (front, middle, back)."""
        out: tuple[list[int], list[int], list[int]] = ([], [], [])
        for c, r in self.placements:
            out[r].append(c)
        return tuple(out[0]), tuple(out[1]), tuple(out[2])  # type: ignore[return-value]

    def key(self) -> tuple:
        """Canonical form: equal moves (same cards to the same rows, same discards,
        declaration, surrender) have equal keys whatever the order they were given in."""
        if self._key is None:
            self._key = (tuple(sorted(self.placements)), tuple(sorted(self.discards)),
                         self.declare, self.surrender)
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: ``{"place": [[card, row], ...], "discard": [cards]}`` (plus
        ``declare`` / ``surrender`` when set)."""
        d: dict[str, Any] = {"place": [[c, int(r)] for c, r in self.placements],
                             "discard": list(self.discards)}
        if self.declare is not None:
            d["declare"] = self.declare
        if self.surrender:
            d["surrender"] = True
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        """Inverse of :meth:`to_dict` (cards may also be text, rows names)."""
        if not isinstance(data, Mapping):
            raise MoveError(f"bad move {data!r}: expected a dict with 'place'", "bad_move")
        unknown = set(data) - {"place", "discard", "declare", "surrender"}
        if unknown:
            raise MoveError(f"bad move: unknown key(s) {sorted(unknown)}", "bad_move")
        return cls([tuple(p) for p in data.get("place", ())],  # type: ignore[misc]
                   data.get("discard") or None, declare=data.get("declare"),
                   surrender=bool(data.get("surrender", False)))

    def __str__(self) -> str:
        if self.surrender:
            return "surrender"
        if self.declare is not None:
            return f"declare {self.declare}"
        rows = self.rows()
        text = " / ".join(cards_str(r) or "-" for r in rows)
        if self.discards:
            text += ", discard " + cards_str(self.discards)
        return text

    def __repr__(self) -> str:
        extra = ""
        if self.declare is not None:
            extra += f", declare={self.declare!r}"
        if self.surrender:
            extra += ", surrender=True"
        d = self.discard
        disc = "" if d is None else f", discard={d!r}"
        pl = ", ".join(f"({card_str(c)!r}, Row.{r.name})" for c, r in self.placements)
        return f"Move(({pl}{',' if len(self.placements) == 1 else ''}){disc}{extra})"


# ------------------------------------------------- move patterns and action codes

@lru_cache(maxsize=None)
def _patterns(n: int, k: int, ff: int, fm: int, fb: int
              ) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Legal (action, kept indices, rows of kept, discarded indices) for ``n`` dealt
    cards of which ``k`` are discarded, with ``ff/fm/fb`` free slots per row."""
    out = []
    kept_n = n - k
    base = 3 ** kept_n
    free = (ff, fm, fb)
    for ci, disc in enumerate(combinations(range(n), k)):
        kept = tuple(i for i in range(n) if i not in disc)
        for code in range(base):
            rows = []
            cnt = [0, 0, 0]
            c = code
            for _ in range(kept_n):
                r = c % 3
                c //= 3
                rows.append(r)
                cnt[r] += 1
            if cnt[0] <= free[0] and cnt[1] <= free[1] and cnt[2] <= free[2]:
                out.append((ci * base + code, kept, tuple(rows), disc))
    return tuple(out)


@lru_cache(maxsize=None)
def _pattern_index(n: int, k: int, ff: int, fm: int, fb: int) -> dict:
    return {p[0]: p for p in _patterns(n, k, ff, fm, fb)}


@lru_cache(maxsize=None)
def _actions(n: int, k: int, ff: int, fm: int, fb: int) -> tuple[int, ...]:
    return tuple(p[0] for p in _patterns(n, k, ff, fm, fb))


_SET_TAGS = (Row.FRONT,) * 3 + (Row.MIDDLE,) * 5 + (Row.BACK,) * 5


@lru_cache(maxsize=1)
def _splits13() -> tuple[tuple[int, ...], ...]:
    """Every front/middle/back split of 13 positions (72,072), front 3 first."""
    out = []
    for f in combinations(range(13), 3):
        rest = [i for i in range(13) if i not in f]
        for m in combinations(rest, 5):
            out.append(f + m + tuple(i for i in rest if i not in m))
    return tuple(out)


def _free(rows: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    return 3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2])


def _pattern_move(dealt: Sequence[int], pattern: tuple) -> Move:
    _, kept, rows, disc = pattern
    return Move._make(tuple((dealt[i], _ROWS[r]) for i, r in zip(kept, rows)),
                      tuple(dealt[i] for i in disc))


def moves_for(dealt: Sequence[int], rows: Sequence[Sequence[int]],
              discards: int = 0) -> list[Move]:
    """Every legal move for ``dealt`` cards (at most 5) onto a board whose rows hold
    ``rows`` (front, middle, back), discarding ``discards`` of them.  The same list as
    :meth:`Game.legal_moves` for a normal decision, in action order."""
    if len(dealt) > 5:
        raise GameError("moves_for() handles normal decisions of at most 5 cards; "
                        "for a Fantasyland or classic set see Game.legal_moves()")
    return [_pattern_move(dealt, p)
            for p in _patterns(len(dealt), discards, *_free(rows))]


def actions_for(n: int, rows: Sequence[Sequence[int]], discards: int = 0) -> tuple[int, ...]:
    """Legal action numbers for ``n`` dealt cards onto ``rows``."""
    return _actions(n, discards, *_free(rows))


def move_for_action(action: int, dealt: Sequence[int], rows: Sequence[Sequence[int]],
                    discards: int = 0) -> Move:
    """The move of an action number (raises MoveError when it is not legal)."""
    p = _pattern_index(len(dealt), discards, *_free(rows)).get(action)
    if p is None:
        raise MoveError(f"action {action!r} is not legal here "
                        f"({len(dealt)} cards, {discards} to discard, "
                        f"free rows {_free(rows)})", "bad_action")
    return _pattern_move(dealt, p)


def action_for_move(move: Move, dealt: Sequence[int], discards: int = 0) -> int:
    """The action number of a normal move for ``dealt`` (inverse of
    :func:`move_for_action`); raises MoveError when the move does not fit the cards."""
    pos = {c: i for i, c in enumerate(dealt)}
    try:
        disc = tuple(sorted(pos[c] for c in move.discards))
        row_of = {pos[c]: int(r) for c, r in move.placements}
    except KeyError as exc:
        raise MoveError(f"{card_str(exc.args[0])} is not among the dealt cards "
                        f"{cards_str(dealt)}", "not_dealt") from None
    n = len(dealt)
    if len(disc) != discards or len(row_of) + len(disc) != n or set(disc) & set(row_of):
        raise MoveError(f"move {move} does not use the dealt cards {cards_str(dealt)} "
                        f"with {discards} discard(s)", "bad_action")
    ci = list(combinations(range(n), discards)).index(disc)
    code = 0
    for j, i in enumerate(sorted(row_of)):
        code += row_of[i] * 3 ** j
    return ci * 3 ** (n - discards) + code


def _random_setting(cards: Sequence[int], discards: int, rng: Random) -> Move:
    """A uniformly random full set: discards, then a random 3/5/5 split."""
    cs = list(cards)
    rng.shuffle(cs)
    keep, disc = cs[:len(cs) - discards], tuple(cs[len(cs) - discards:])
    pl = tuple((c, Row.FRONT) for c in keep[:3]) + \
        tuple((c, Row.MIDDLE) for c in keep[3:8]) + tuple((c, Row.BACK) for c in keep[8:])
    return Move._make(pl, disc)


def random_move(dealt: Sequence[int], rows: Sequence[Sequence[int]], discards: int,
                rng: Random) -> Move:
    """A uniformly random legal move (without enumerating a Fantasyland set):
    for a full set (13+ cards onto an empty board) every setting is equally likely."""
    if len(dealt) <= 5:
        return _pattern_move(dealt, rng.choice(_patterns(len(dealt), discards,
                                                         *_free(rows))))
    return _random_setting(dealt, discards, rng)


# ---------------------------------------------------------------------- results

@dataclass(frozen=True)
class GameResult:
    """The scored end of a deal.

    ``net`` (per seat, sums to zero) comes from :func:`ofc_fast.settle`;
    ``fantasyland`` is the number of cards each seat gets in Fantasyland next deal
    (0 = none), from :func:`ofc_fast.fantasyland_cards` (the stay rule for the seats
    that played this deal in Fantasyland).
    """

    net: list[int]
    fouls: list[bool]
    royalties: list[tuple[int, int, int]]
    fantasyland: list[int]
    boards: tuple[Board, ...]
    button: int
    in_fantasyland: tuple[int, ...]
    surrendered: tuple[int, ...] = ()
    declared: dict[int, str] = field(default_factory=dict)
    settlement: Optional[Settlement] = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able summary (boards as text)."""
        d: dict[str, Any] = {
            "net": list(self.net), "fouls": list(self.fouls),
            "royalties": [list(r) for r in self.royalties],
            "fantasyland": list(self.fantasyland), "boards": [str(b) for b in self.boards],
            "button": self.button, "in_fantasyland": list(self.in_fantasyland)}
        if self.surrendered:
            d["surrendered"] = list(self.surrendered)
        if self.declared:
            d["declared"] = {str(k): v for k, v in self.declared.items()}
        if self.settlement is not None:
            d["items"] = [{"pair": list(i.pair), "kind": i.kind, "payer": i.payer,
                           "payee": i.payee, "amount": i.amount}
                          for i in self.settlement.items]
        return d


# ------------------------------------------------------------------------- game

def cards_per_seat(rules: RuleSet, fantasyland: int = 0) -> int:
    """Cards one seat sees in a deal: the Fantasyland count, or 13 (classic, OFC) or
    17 (Pineapple: 5 + 4 x 3)."""
    if fantasyland:
        return fantasyland
    return 17 if rules.game is GameKind.PINEAPPLE else 13


class _Step:
    __slots__ = ("seat", "start", "n", "k", "full", "face_down", "street", "future",
                 "future_discards")

    def __init__(self, seat: int, start: int, n: int, k: int, full: bool,
                 face_down: bool, street: int) -> None:
        self.seat, self.start, self.n, self.k = seat, start, n, k
        self.full, self.face_down, self.street = full, face_down, street
        self.future = 0
        self.future_discards = 0


@lru_cache(maxsize=1024)
def _schedule(kind: GameKind, players: int, button: int, fantasyland: tuple[int, ...],
              face_down_final: int) -> tuple[_Step, ...]:
    """The decisions of a deal, in order, with the deck position of their cards
    (shared, read-only)."""
    order = [(button + 1 + i) % players for i in range(players)]
    steps: list[_Step] = []
    pos = 0
    if kind is GameKind.CLASSIC:
        for s in order:
            steps.append(_Step(s, pos, 13, 0, True, True, 0))
            pos += 13
        return tuple(steps)
    for s in order:
        n = fantasyland[s]
        if n:
            steps.append(_Step(s, pos, n, n - 13, True, True, 0))
            pos += n
    normal = [s for s in order if not fantasyland[s]]
    if kind is GameKind.PINEAPPLE:
        rounds, per, disc = 4, 3, 1
    else:
        rounds, per, disc = 8, 1, 0
    hidden_from = rounds - face_down_final
    for s in normal:
        steps.append(_Step(s, pos, 5, 0, False, False, 0))
        pos += 5
    for rnd in range(1, rounds + 1):
        for s in normal:
            steps.append(_Step(s, pos, per, disc, False, rnd > hidden_from, rnd))
            pos += per
    for s in range(players):  # cards still to come after each decision
        mine = [st for st in steps if st.seat == s]
        for i, st in enumerate(mine):
            st.future = sum(x.n for x in mine[i + 1:])
            st.future_discards = sum(x.k for x in mine[i + 1:])
    return tuple(steps)


_FAST_BOARD = getattr(Board, "__slots__", None) == ("_rows", "_cards")


def _board(rows: Sequence[Sequence[int]]) -> Board:
    """A Board of rows the game already validated (skips parsing when Board's layout
    is the one this was written for)."""
    if _FAST_BOARD:
        b = object.__new__(Board)
        r = (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))
        b._rows = r  # type: ignore[attr-defined]
        b._cards = r[0] + r[1] + r[2]  # type: ignore[attr-defined]
        return b
    return Board(*rows)  # pragma: no cover


def _resolve_rules(rules: Union[RuleSet, str]) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return get_rules(rules)
    raise GameError(f"rules must be a RuleSet or a preset name, got {rules!r}")


def _naturals_module():  # -> module
    # the module, not the function ofc_fast.naturals the package exports
    return importlib.import_module(__package__ + ".naturals")


class Game:
    """One deal between ``players`` seats (2 to ``rules.max_players``).

    ``seed``: an int (None draws one; it is kept in :meth:`history`); the same seed,
    rules, seat count, button and Fantasyland counts give the same cards to the same
    seats whatever the moves.  ``button``: the dealer's seat; the seat on its left acts
    first.  ``fantasyland``: cards per seat in Fantasyland this deal (0 = plays the
    normal flow), e.g. ``(0, 14, 0)``.  ``stacks``: chips per seat for table stakes
    (R-STAKES-*), passed to :func:`ofc_fast.settle`.  ``deck``: an explicit order of the
    52 cards (overrides the seed; cards are dealt from the front).
    """

    __slots__ = ("rules", "players", "button", "seed", "fantasyland", "stacks", "_deck",
                 "_steps", "_step", "_rows", "_vis", "_hid", "_disc", "_moves",
                 "_declared", "_surrendered", "_dealt", "_dealt_set", "_legal",
                 "_result", "_boards")

    def __init__(self, rules: Union[RuleSet, str] = PINEAPPLE, players: int = 2,
                 seed: Optional[int] = None, button: int = 0,
                 fantasyland: Optional[Sequence[int]] = None, *,
                 stacks: Optional[Sequence[int]] = None,
                 deck: Optional[Sequence[int]] = None) -> None:
        rules = _resolve_rules(rules)
        self.rules = rules
        if isinstance(players, bool) or not isinstance(players, int) \
                or not 2 <= players <= rules.max_players:
            raise GameError(f"{rules.name} seats 2 to {rules.max_players} players, "
                            f"got {players!r}")
        if isinstance(button, bool) or not isinstance(button, int) \
                or not 0 <= button < players:
            raise GameError(f"button {button!r} is not a seat of {players} players")
        self.players = players
        self.button = button
        fl = tuple(fantasyland) if fantasyland is not None else (0,) * players
        if len(fl) != players:
            raise GameError(f"fantasyland needs one count per seat ({players}), got {fl}")
        for s, n in enumerate(fl):
            if isinstance(n, bool) or not isinstance(n, int) or not (n == 0 or 13 <= n <= 17):
                raise GameError(f"seat {s}: Fantasyland cards must be 0 or 13..17, "
                                f"got {n!r}")
        if any(fl) and rules.game is GameKind.CLASSIC:
            raise GameError("classic Chinese Poker has no Fantasyland")
        self.fantasyland: tuple[int, ...] = fl
        need = sum(cards_per_seat(rules, n) for n in fl)
        if need > 52:
            raise GameError(f"{players} seats of {rules.name} with Fantasyland {fl} need "
                            f"{need} cards; one deck has 52")
        if stacks is not None:
            stacks = tuple(stacks)
            if len(stacks) != players or any(isinstance(x, bool) or not isinstance(x, int)
                                             or x < 0 for x in stacks):
                raise GameError(f"stacks needs one chip count >= 0 per seat, got {stacks}")
        self.stacks: Optional[tuple[int, ...]] = stacks
        if deck is not None:
            d = [parse_card(c) for c in deck]
            if sorted(d) != list(range(52)):
                raise GameError("deck must hold each of the 52 cards exactly once")
            if seed is None:
                seed = 0
        else:
            if seed is None:
                seed = secrets.randbits(63)
            elif isinstance(seed, bool) or not isinstance(seed, int):
                raise GameError(f"seed must be an int, got {seed!r}")
            d = list(range(52))
            Random(seed).shuffle(d)
        self.seed: int = seed
        self._deck: tuple[int, ...] = tuple(d)
        self._steps = self._schedule()
        self._step = 0
        self._rows: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
        self._vis: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
        self._hid: list[list[int]] = [[0, 0, 0] for _ in range(players)]
        self._disc: list[list[int]] = [[] for _ in range(players)]
        self._moves: list[Move] = []
        self._declared: dict[int, str] = {}
        self._surrendered: set[int] = set()
        self._result: Optional[GameResult] = None
        self._boards: Optional[tuple[Board, ...]] = None
        self._deal()

    # -- schedule
    def _schedule(self) -> tuple[_Step, ...]:
        return _schedule(self.rules.game, self.players, self.button, self.fantasyland,
                         self.rules.face_down_final)

    def _deal(self) -> None:
        if self._step < len(self._steps):
            st = self._steps[self._step]
            self._dealt: tuple[int, ...] = self._deck[st.start:st.start + st.n]
            self._dealt_set = frozenset(self._dealt)
        else:
            self._dealt = ()
            self._dealt_set = frozenset()
        self._legal: Optional[list[Move]] = None

    # -- state
    @property
    def to_act(self) -> Optional[int]:
        """Seat whose decision it is (None when the deal is over)."""
        if self._step < len(self._steps):
            return self._steps[self._step].seat
        return None

    @property
    def dealt(self) -> tuple[int, ...]:
        """Cards the seat to act must place or discard now, in deal order."""
        return self._dealt

    @property
    def to_discard(self) -> int:
        """How many of :attr:`dealt` must be discarded."""
        return self._steps[self._step].k if self._step < len(self._steps) else 0

    @property
    def street(self) -> int:
        """Round of the current decision: 0 = the first (opening, Fantasyland or
        classic set), then 1, 2, ..."""
        return self._steps[self._step].street if self._step < len(self._steps) \
            else self._steps[-1].street + 1

    @property
    def is_over(self) -> bool:
        return self._step >= len(self._steps)

    @property
    def decisions(self) -> int:
        """Decisions made so far."""
        return self._step

    @property
    def boards(self) -> tuple[Board, ...]:
        """The table as it stands, every card shown (the referee's view)."""
        if self._boards is None:
            self._boards = tuple(_board(r) for r in self._rows)
        return self._boards

    def discards(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` discarded (the referee's view)."""
        return tuple(self._disc[seat])

    @property
    def moves(self) -> tuple[Move, ...]:
        """Moves played so far, in order."""
        return tuple(self._moves)

    @property
    def deck(self) -> tuple[int, ...]:
        """The shuffled deck (the referee's secret; never in an observation)."""
        return self._deck

    # -- legal moves
    def legal_move_count(self) -> int:
        """Number of legal moves (without enumerating them)."""
        if self.is_over:
            return 0
        st = self._steps[self._step]
        if not st.full:
            return len(_patterns(st.n, st.k, *_free(self._rows[st.seat])))
        return comb(st.n, st.k) * _SETTINGS_13 + len(self._extra_moves())

    def _extra_moves(self) -> list[Move]:
        """Classic: a declaration per natural the cards make, and surrender."""
        if self.rules.game is not GameKind.CLASSIC:
            return []
        out = []
        for name in self._declarable():
            out.append(Move(declare=name))
        if self.rules.surrender_cost is not None:
            out.append(Move(surrender=True))
        return out

    def _natural_hands(self) -> list:
        if not self.rules.naturals or self.is_over:
            return []
        return list(_naturals_module().naturals(list(self._dealt), self.rules))

    def _declarable(self) -> list[str]:
        allowed = {n.name for n in self.rules.naturals}
        out: list[str] = []
        for h in self._natural_hands():
            if h.name in allowed and h.name not in out:
                out.append(h.name)
        return out

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to act ([] when the deal is over).

        Normal decisions come in action order (at most 232 moves for a 5-card
        opening, 27 for a Pineapple round).  A full set of 13 cards (classic, OFC
        Fantasyland) gives all 72,072 settings (plus, in classic, a declaration per
        natural and surrender when the rules allow); larger Fantasyland sets raise
        GameError: use :meth:`random_move`, :meth:`legal_move_count` or a solver, and
        :meth:`play` to validate any set.
        """
        if self.is_over:
            return []
        if self._legal is not None:
            return list(self._legal)
        st = self._steps[self._step]
        dealt = self._dealt
        if not st.full:
            moves = [_pattern_move(dealt, p)
                     for p in _patterns(st.n, st.k, *_free(self._rows[st.seat]))]
        else:
            count = self.legal_move_count()
            if count > _ENUMERATE_LIMIT:
                raise GameError(f"a {st.n}-card Fantasyland set has {count:,} legal "
                                f"moves; too many to list (use random_move(), "
                                f"legal_move_count() or a solver)")
            moves = []
            tags = _SET_TAGS
            splits = _splits13()
            collecting = gc.isenabled()
            gc.disable()  # 72,072 small objects: the collector would triple the time
            try:
                for disc in combinations(dealt, st.k):
                    keep = [c for c in dealt if c not in disc]
                    get = keep.__getitem__
                    make = Move._make
                    moves.extend(make(tuple(zip(map(get, split), tags)), disc)
                                 for split in splits)
            finally:
                if collecting:
                    gc.enable()
            moves.extend(self._extra_moves())
        self._legal = moves
        return list(moves)

    def legal_actions(self) -> list[int]:
        """Legal action numbers of a normal decision (see the module doc); raises
        GameError for a full set, which is outside the action space."""
        if self.is_over:
            return []
        st = self._steps[self._step]
        if st.full:
            raise GameError("a Fantasyland or classic set is outside the action space; "
                            "use legal_moves() / random_move() and play()")
        return list(_actions(st.n, st.k, *_free(self._rows[st.seat])))

    def action_mask(self) -> list[bool]:
        """``ACTION_SPACE`` booleans, True for the legal actions."""
        mask = [False] * ACTION_SPACE
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def action_to_move(self, action: int) -> Move:
        """The move of a legal action number."""
        if self.is_over:
            raise MoveError("the deal is over", "game_over")
        st = self._steps[self._step]
        if st.full:
            raise MoveError("a Fantasyland or classic set has no action number",
                            "bad_action")
        return move_for_action(action, self._dealt, self._rows[st.seat], st.k)

    def move_to_action(self, move: Move) -> int:
        """The action number of a move of the current normal decision."""
        if self.is_over:
            raise MoveError("the deal is over", "game_over")
        return action_for_move(move, self._dealt, self.to_discard)

    def play_action(self, action: int) -> None:
        """Play a legal action number (the fast path for agents)."""
        self.play(self.action_to_move(action))

    def random_move(self, rng: Optional[Random] = None) -> Move:
        """A uniformly random legal move of the seat to act (a full set: a uniformly
        random setting, never a declaration or surrender)."""
        if self.is_over:
            raise MoveError("the deal is over", "game_over")
        st = self._steps[self._step]
        return random_move(self._dealt, self._rows[st.seat], st.k, rng or Random())

    # -- playing
    def play(self, move: Move, seat: Optional[int] = None) -> None:
        """Validate and apply the move of the seat to act, then deal on.

        ``seat``: when given, the seat that means to act (MoveError when it is not its
        turn).  Raises :class:`MoveError` on any illegal move, leaving the game as it
        was.
        """
        if self._step >= len(self._steps):
            raise MoveError("the deal is over: no more moves", "game_over")
        st = self._steps[self._step]
        s = st.seat
        if seat is not None and seat != s:
            raise MoveError(f"seat {seat} cannot act: it is seat {s}'s turn",
                            "not_your_turn")
        if not isinstance(move, Move):
            if isinstance(move, Mapping):
                move = Move.from_dict(move)
            else:
                raise MoveError(f"expected a Move, got {type(move).__name__}", "bad_move")
        if move.declare is not None or move.surrender:
            self._play_special(st, move)
            return
        pl = move.placements
        disc = move.discards
        used = [c for c, _ in pl]
        if disc:
            used.extend(disc)
        if len(used) != st.n or len(disc) != st.k or self._dealt_set.difference(used):
            self._explain(st, used, disc)
        rows = self._rows[s]
        cnt = [len(rows[0]), len(rows[1]), len(rows[2])]
        for _, row in pl:
            cnt[row] += 1
        for r in (0, 1, 2):
            if cnt[r] > ROW_SIZES[r]:
                raise MoveError(f"the {_ROWS[r].name.lower()} row of seat {s} takes "
                                f"{ROW_SIZES[r]} cards; the move would put {cnt[r]} "
                                f"there", "row_full")
        self._apply(st, move)

    def _explain(self, st: _Step, used: list[int], disc: tuple[int, ...]) -> None:
        """Raise the MoveError that says what is wrong with the cards of a move."""
        s = st.seat
        seen: set[int] = set()
        for c in used:
            if c not in self._dealt_set:
                raise MoveError(f"{card_str(c)} was not dealt to seat {s} (its cards: "
                                f"{cards_str(self._dealt)})", "not_dealt")
            if c in seen:
                raise MoveError(f"{card_str(c)} is used twice in the move", "duplicate")
            seen.add(c)
        if len(disc) != st.k:
            raise MoveError(f"seat {s} must discard exactly {st.k} of "
                            f"{cards_str(self._dealt)}, the move discards {len(disc)}",
                            "discard_count")
        missing = [c for c in self._dealt if c not in seen]
        raise MoveError(f"the move leaves {cards_str(missing)} unplayed: every dealt "
                        f"card must be placed or discarded", "missing")

    def _play_special(self, st: _Step, move: Move) -> None:
        s = st.seat
        if self.rules.game is not GameKind.CLASSIC or not st.full:
            what = "declare a natural" if move.declare is not None else "surrender"
            raise MoveError(f"only classic Chinese Poker lets a seat {what}",
                            "declare" if move.declare is not None else "surrender")
        if move.placements or move.discards:
            raise MoveError("a declaration or a surrender carries no placements",
                            "bad_move")
        if move.declare is not None and move.surrender:
            raise MoveError("a move cannot both declare a natural and surrender",
                            "bad_move")
        if move.surrender:
            if self.rules.surrender_cost is None:
                raise MoveError(f"{self.rules.name} does not allow surrender", "surrender")
            board = self._default_setting(self._dealt)
        else:
            allowed = {n.name for n in self.rules.naturals}
            if move.declare not in allowed:
                raise MoveError(f"{self.rules.name} pays no natural {move.declare!r} "
                                f"(naturals: {', '.join(sorted(allowed)) or 'none'})",
                                "declare")
            hand = next((h for h in self._natural_hands() if h.name == move.declare),
                        None)
            if hand is None:
                raise MoveError(f"seat {s}'s cards {cards_str(self._dealt)} do not make "
                                f"{move.declare}", "declare")
            hb = getattr(hand, "board", None)
            shown: Optional[Board] = Board.parse(hb) if isinstance(hb, str) else hb
            board = shown if isinstance(shown, Board) else self._default_setting(self._dealt)
            if not board.is_complete or set(board.cards) != self._dealt_set:
                board = self._default_setting(self._dealt)
        full = Move._make(tuple((c, _ROWS[r]) for r in (0, 1, 2) for c in board.rows[r]))
        full.declare, full.surrender = move.declare, move.surrender
        self._apply(st, full, record=move)
        if move.surrender:
            self._surrendered.add(s)
        else:
            self._declared[s] = move.declare  # type: ignore[assignment]

    @staticmethod
    def _default_setting(cards: Sequence[int]) -> Board:
        """A setting for a hand that is not set (surrendered or declared without a
        board of its own): highest cards in the back, then middle, then front."""
        cs = sorted(cards, reverse=True)
        return Board(cs[10:13], cs[5:10], cs[0:5])

    def _apply(self, st: _Step, move: Move, record: Optional[Move] = None) -> None:
        s = st.seat
        rows, vis, hid = self._rows[s], self._vis[s], self._hid[s]
        face_down = st.face_down
        for c, r in move.placements:
            rows[r].append(c)
            if face_down:
                hid[r] += 1
            else:
                vis[r].append(c)
        if move.discards:
            self._disc[s].extend(move.discards)
        self._moves.append(record if record is not None else move)
        self._step += 1
        self._boards = None
        self._deal()

    # -- views
    def observation(self, seat: int, cards: str = "ids") -> dict[str, Any]:
        """What ``seat`` may see, as JSON-able data.

        Keys: ``seat``, ``players``, ``button``, ``rules`` (name), ``game``,
        ``lowball`` (a 2-7 middle),
        ``to_act``, ``is_over``, ``street``, ``fantasyland`` (cards per seat this deal),
        ``boards`` (per seat ``[front, middle, back]``: own cards all, others' face-up
        cards; every card once the deal is over, except surrendered hands),
        ``hidden`` (per seat, face-down cards per row not shown), ``discards`` (own),
        ``discard_counts`` (per seat), and for the seat to act: ``dealt``,
        ``to_discard``, ``future_cards`` / ``future_discards`` (what this seat still
        gets after this decision) and ``legal_actions`` (None for a full set).  Once
        over: ``result`` (net, fouls, royalties, fantasyland, declared, surrendered).
        ``cards="text"`` writes cards as ``"As"`` instead of ids.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < self.players:
            raise GameError(f"seat {seat!r} is not a seat of {self.players} players")
        steps = self._steps
        over = self._step >= len(steps)
        if not over:
            st = steps[self._step]
            rows_all = self._rows
            own = rows_all[seat]
            boards = [[r[:] for r in own] if o == seat else [r[:] for r in vis]
                      for o, vis in enumerate(self._vis)]
            hidden = [[0, 0, 0] if o == seat else h[:] for o, h in enumerate(self._hid)]
            mine = st.seat == seat
            obs: dict[str, Any] = {
                "seat": seat, "players": self.players, "button": self.button,
                "rules": self.rules.name, "game": self.rules.game.value,
                "lowball": self.rules.lowball is not None,
                "to_act": st.seat, "is_over": False, "street": st.street,
                "fantasyland": list(self.fantasyland),
                "boards": boards, "hidden": hidden,
                "discards": self._disc[seat][:],
                "discard_counts": [len(d) for d in self._disc],
                "dealt": list(self._dealt) if mine else [],
                "to_discard": st.k if mine else 0,
                "future_cards": st.future if mine else 0,
                "future_discards": st.future_discards if mine else 0,
                "legal_actions": list(_actions(st.n, st.k, 3 - len(own[0]), 5 - len(own[1]),
                                               5 - len(own[2])))
                if mine and not st.full else None,
                "full_set": st.full if mine else False,
                "face_down": st.face_down if mine else False,
            }
        else:
            boards, hidden = [], []
            for o in range(self.players):
                if o == seat or o not in self._surrendered:
                    boards.append([r[:] for r in self._rows[o]])
                    hidden.append([0, 0, 0])
                else:  # a surrendered hand is never shown
                    boards.append([[], [], []])
                    hidden.append([len(r) for r in self._rows[o]])
            r = self.result()
            obs = {
                "seat": seat, "players": self.players, "button": self.button,
                "rules": self.rules.name, "game": self.rules.game.value,
                "lowball": self.rules.lowball is not None,
                "to_act": None, "is_over": True, "street": self.street,
                "fantasyland": list(self.fantasyland),
                "boards": boards, "hidden": hidden,
                "discards": self._disc[seat][:],
                "discard_counts": [len(d) for d in self._disc],
                "dealt": [], "to_discard": 0, "future_cards": 0, "future_discards": 0,
                "legal_actions": None, "full_set": False, "face_down": False,
                "result": {"net": list(r.net), "fouls": list(r.fouls),
                           "royalties": [list(x) for x in r.royalties],
                           "fantasyland": list(r.fantasyland),
                           "declared": {str(k): v for k, v in r.declared.items()},
                           "surrendered": list(r.surrendered)}}
        if cards == "text":
            obs = _cards_as_text(obs)
        elif cards != "ids":
            raise GameError(f"cards must be 'ids' or 'text', got {cards!r}")
        return obs

    # -- results
    def result(self) -> GameResult:
        """The scored deal (GameError before it is over)."""
        if self._result is not None:
            return self._result
        if not self.is_over:
            raise GameError(f"the deal is not over: seat {self.to_act} is to act")
        boards = self.boards
        rules = self.rules
        kwargs: dict[str, Any] = {}
        if self.stacks is not None:
            kwargs["stacks"] = list(self.stacks)
        if self._surrendered:
            kwargs["surrendered"] = tuple(sorted(self._surrendered))
        if self._declared:
            kwargs["declared"] = dict(self._declared)
        st = settle(boards, rules, button=self.button, **kwargs)
        unset = self._surrendered | set(self._declared)  # hands not set: no rows
        # fouls and royalties: from the scored pairs (no second evaluation), else
        # from the board (pool and single-winner modes score no pairs)
        seen: dict[int, tuple[bool, tuple[int, int, int]]] = {}
        for (i, j), ps in st.pairs:
            seen.setdefault(i, (ps.fouls[0], ps.royalties[0]))
            seen.setdefault(j, (ps.fouls[1], ps.royalties[1]))
        fouls: list[bool] = []
        royalties: list[tuple[int, int, int]] = []
        fl_next: list[int] = []
        for s, b in enumerate(boards):
            if s in unset:
                fouls.append(False)
                royalties.append((0, 0, 0))
                fl_next.append(0)
                continue
            if s not in seen:
                e = b.evaluate(rules)
                seen[s] = (e.foul, e.royalties)
            fouls.append(bool(seen[s][0]))
            royalties.append(tuple(seen[s][1]))  # type: ignore[arg-type]
            n = self.fantasyland[s]
            fl_next.append(0 if rules.fantasyland is None else
                           fantasyland_cards(b, rules, in_fantasyland=n if n else False))
        self._result = GameResult(
            net=list(st.net), fouls=fouls, royalties=royalties, fantasyland=fl_next,
            boards=boards, button=self.button, in_fantasyland=self.fantasyland,
            surrendered=tuple(sorted(self._surrendered)), declared=dict(self._declared),
            settlement=st)
        return self._result

    # -- history
    def history(self) -> dict[str, Any]:
        """The deal as JSON-able data: rules, seats, button, seed, the deck, the
        Fantasyland counts, stacks and every move.  :meth:`replay` rebuilds it."""
        h: dict[str, Any] = {
            "version": HISTORY_VERSION, "rules": self.rules.to_dict(),
            "players": self.players, "button": self.button, "seed": self.seed,
            "deck": list(self._deck), "fantasyland": list(self.fantasyland),
            "moves": [m.to_dict() for m in self._moves],
        }
        if self.stacks is not None:
            h["stacks"] = list(self.stacks)
        if self.is_over:
            h["result"] = {"net": self.result().net,
                           "boards": [str(b) for b in self.boards]}
        return h

    @classmethod
    def replay(cls, history: Mapping[str, Any]) -> Game:
        """A game in the state ``history`` (from :meth:`history`) describes: the
        same deck, seats and moves, replayed through :meth:`play`."""
        if not isinstance(history, Mapping) or "moves" not in history:
            raise GameError("history must be a dict made by Game.history()")
        if history.get("version", HISTORY_VERSION) != HISTORY_VERSION:
            raise GameError(f"unknown history version {history.get('version')!r}")
        rules_data = history["rules"]
        rules = RuleSet.from_dict(dict(rules_data)) if isinstance(rules_data, Mapping) \
            else _resolve_rules(rules_data)
        g = cls(rules, history["players"], seed=history.get("seed"),
                button=history.get("button", 0),
                fantasyland=history.get("fantasyland"), stacks=history.get("stacks"),
                deck=history.get("deck"))
        for i, m in enumerate(history["moves"]):
            try:
                g.play(Move.from_dict(m))
            except MoveError as exc:
                raise MoveError(f"history move {i}: {exc}", exc.reason) from None
        return g

    def copy(self) -> Game:
        """An independent copy (for search: play ahead without touching this one)."""
        g = object.__new__(Game)
        for name in ("rules", "players", "button", "seed", "fantasyland", "stacks",
                     "_deck", "_steps", "_step", "_dealt", "_dealt_set",
                     "_result", "_boards"):
            setattr(g, name, getattr(self, name))
        g._rows = [[list(r) for r in rows] for rows in self._rows]
        g._vis = [[list(r) for r in rows] for rows in self._vis]
        g._hid = [list(h) for h in self._hid]
        g._disc = [list(d) for d in self._disc]
        g._moves = list(self._moves)
        g._declared = dict(self._declared)
        g._surrendered = set(self._surrendered)
        g._legal = None
        return g

    def _state(self) -> tuple:
        return (self.rules, self.players, self.button, self._deck, self.fantasyland,
                self.stacks, tuple(m.key() for m in self._moves),
                tuple(tuple(map(tuple, r)) for r in self._rows),
                tuple(map(tuple, self._disc)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self.to_act} to act"
        return (f"<Game {self.rules.name} {self.players} players, button {self.button}, "
                f"seed {self.seed}, {state}>")

    def __str__(self) -> str:
        lines = [repr(self)]
        for s in range(self.players):
            tag = f" FL{self.fantasyland[s]}" if self.fantasyland[s] else ""
            b = Board(*self._rows[s])
            lines.append(f"  seat {s}{tag}: {b}")
        return "\n".join(lines)


def _cards_as_text(obs: dict[str, Any]) -> dict[str, Any]:
    """An observation with its cards (boards, discards, dealt) as text."""
    return {k: (_texts(v) if k in ("boards", "discards", "dealt") else v)
            for k, v in obs.items()}


def _texts(obj: Any) -> Any:
    if isinstance(obj, list):
        return [_texts(x) for x in obj]
    if isinstance(obj, int):
        return card_str(obj)
    return obj


def play_out(game: Game, bots: Sequence[Any]) -> GameResult:
    """Let ``bots`` (one per seat, each with ``act(observation) -> Move``) finish the
    deal; returns its result."""
    while not game.is_over:
        s = game._steps[game._step].seat
        game.play(bots[s].act(game.observation(s)))
    return game.result()
