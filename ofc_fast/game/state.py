"""One deal, played by the C engine: :class:`Game`.

A :class:`Game` is the referee of one deal.  Its state is one C struct
(``ofc_game`` of ``csrc/include/ofc_game.h``): the engine shuffles (seeded), deals in the order
the rules give (R-FLOW-*), says whose decision it is, lists and validates moves, shows
each seat only what it may see, and scores the finished table through the C
settlement.  This class converts between that state and Python values, and keeps the
moves for :meth:`Game.history`.

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
button; then the other seats play the normal flow, each round from the seat left of
the button to the button.  In classic Chinese Poker every seat sets its 13 cards face
down in the same order.  Face-down cards (classic hands, Fantasyland sets, the last
``rules.face_down_final`` rounds of OFC) are shown to the others only when the deal is
over; discards are never shown to anyone but their owner (R-FLOW-PIN-4).
"""

from __future__ import annotations

import copy
import gc
import threading
from collections.abc import Mapping, Sequence
from inspect import unwrap
from math import comb
from random import Random
from typing import TYPE_CHECKING, Any, TypeVar

from .._native import ffi, lib, status_error
from .._native._fast import ATOMIC_READS as _NATIVE
from .._native._fast import act as _act
from .._native._fast import legal_actions as _legal_actions
from .._native._fast import observe as _observe
from .._native._fast import place as _place
from ..board import Board
from ..cards import cards_str
from ..errors import GameError, MoveError, built_repr, quote
from ..lazy import lazy_module
from ..rules import PINEAPPLE, RuleSet, RulesLike, as_rules
from ..rules.model import GameKind
from ..table import as_int, check_seat, check_seed, check_table, random_seed
from ._actions import action_id
from ._buffer import new_state, one_mover, schedule_of
from ._engine import KIND, deck_cards, game_rules, raise_move_error, resolve_rules
from ._pickle import own_attributes
from ._refusal import refusal_detail

if TYPE_CHECKING:  # (bots imports game)
    from ..bots import base as _bots
else:
    _bots = lazy_module("ofc_fast.bots.base")
from .moves import (
    Move,
    destinations_of,
    moves_for_actions,
    random_move,
    settings_for,
)
from .observation import Observation, cards_as_text, own_rule_set, table_template
from .playout import PlaysOut
from .playout import finish as finish  # (its old home: still imported from here)
from .playout import play_out as play_out
from .result import GameResult, result_copy, result_of
from .threads import lock_free

__all__ = ["Game", "cards_per_seat"]

_G = TypeVar("_G", bound="Game")

_ENUMERATE_LIMIT = 100_000
_SPACE: int = lib.OFC_ACTION_SPACE
NATURAL_IDS = {
    ffi.string(lib.ofc_natural_name(i)).decode(): i for i in range(lib.OFC_NAT_COUNT)
}
"""Natural name -> the engine's ofc_natural id."""


def cards_per_seat(rules: RulesLike, fantasyland: int = 0) -> int:
    """Cards one seat sees in a deal: the Fantasyland count (13..17), or 13 (classic,
    OFC) or 17 (Pineapple: 5 + 4 x 3); the C engine's schedule
    (``ofc_cards_per_seat``).

    >>> from ofc_fast.rules import PINEAPPLE
    >>> cards_per_seat(PINEAPPLE), cards_per_seat(PINEAPPLE, 15)
    (17, 15)
    """
    rules = as_rules(rules, "cards_per_seat")
    if (fl := as_int(fantasyland)) is None:
        raise GameError(f"fantasyland must be an int, got {type(fantasyland).__name__}")
    n = lib.ofc_cards_per_seat(KIND[rules.game], fl) if 0 <= fl <= 255 else -1
    if n < 0:
        raise GameError(
            f"no seat of {rules.name} is dealt {quote(fantasyland)} Fantasyland "
            f"cards (0, or 13..17 outside classic)"
        )
    return int(n)


_GAME_SIZE = ffi.sizeof("ofc_game")
_BOARD = ffi.offsetof("ofc_game", "board")
_COUNT = ffi.offsetof("ofc_game", "count")
_DECK = ffi.offsetof("ofc_game", "deck")


class Game(PlaysOut):
    """One deal between ``players`` seats (2 to ``rules.max_players``).

    ``seed``: an int 0..2**64-1 (None draws one; it is kept in :meth:`history`); the
    same seed, rules, seat count, button and Fantasyland counts give the same cards to
    the same seats whatever the moves (the deck is ``ofc_deck_from_seed(seed)``, the
    same on every platform).  ``button``: the dealer's seat; the seat on its left acts
    first.  ``fantasyland``: cards per seat in Fantasyland this deal (0 = plays the
    normal flow), e.g. ``(0, 14, 0)``.  ``stacks``: chips per seat for table stakes
    (R-STAKES-*).  ``deck``: an explicit order of the 52 cards (instead of a seed:
    giving both is a GameError; cards are dealt from the front).

    >>> g = Game("pineapple", players=2, seed=7)
    >>> g.to_act, len(g.legal_moves())
    (1, 232)

    :meth:`copy`, ``copy.copy`` and ``copy.deepcopy`` give an independent game; a game
    pickles (for processes, checkpoints, undo stacks), and unpickling checks the
    engine's state (``ofc_game_state_check``) and that the pickled moves, replayed,
    make it: damaged bytes or edited moves are a GameError.

    >>> import copy, pickle
    >>> h = copy.copy(g)
    >>> h.play(h.legal_moves()[0])
    >>> g.decisions, h.decisions
    (0, 1)
    >>> pickle.loads(pickle.dumps(h)) == h
    True
    """

    __slots__ = (
        "__weakref__",
        "_buf",
        "_deck",
        "_entries",
        "_g",
        "_moves",
        "_obs",
        "_r",
        "_result",
        "_state_lock",
        "_steps",
        "button",
        "fantasyland",
        "players",
        "rules",
        "seed",
        "stacks",
    )

    def __init__(
        self,
        rules: RuleSet | str = PINEAPPLE,
        players: int = 2,
        seed: int | None = None,
        button: int = 0,
        fantasyland: Sequence[int] | None = None,
        *,
        stacks: Sequence[int] | None = None,
        deck: Sequence[int] | None = None,
    ) -> None:
        rules = resolve_rules(rules)
        players, button, stacks_t, fl = check_table(
            rules, players, button, stacks, fantasyland
        )
        deck_arr: Any = ffi.NULL
        if deck is not None:
            deck_arr = ffi.new("uint8_t[52]", deck_cards(deck, seed))
            seed_v: int | None = None
        else:
            seed_v = random_seed() if seed is None else check_seed(seed)
        r = game_rules(rules)
        buf = bytearray(_GAME_SIZE)
        g = new_state(buf)
        status = lib.ofc_game_init(
            r, g, players, button, bytes(fl + (0,) * 4), seed_v or 0, deck_arr
        )
        if status != 0:
            raise status_error(status, "the engine refused the deal", GameError)
        self.rules = rules
        self.players = players
        self.button = button
        self.seed: int | None = seed_v
        self.fantasyland: tuple[int, ...] = fl
        self.stacks: tuple[int, ...] | None = stacks_t
        self._r = r
        self._g = g
        self._buf = buf
        self._steps = schedule_of(buf)
        self._deck: tuple[int, ...] = tuple(buf[_DECK : _DECK + 52])
        self._moves: list[Move | int] = []  # one per decision made: its count, the step
        self._result: GameResult | None = None
        self._obs: Any = None
        self._entries = 0  # twice the moves one_mover let in; odd during one
        self._state_lock = threading.RLock()  # held by a move or a read (consistent)

    # -- the pending decision
    @property
    def to_act(self) -> int | None:
        """Seat whose decision it is (None when the deal is over)."""
        return self._steps[s][0] if (s := len(self._moves)) < len(self._steps) else None

    @property
    def dealt(self) -> tuple[int, ...]:
        """Cards the seat to act must place or discard now, in deal order."""
        if (step := len(self._moves)) >= len(self._steps):
            return ()
        st = self._steps[step]
        return self._deck[st[1] : st[1] + st[2]]

    @property
    def to_discard(self) -> int:
        """How many of :attr:`dealt` must be discarded."""
        return self._steps[s][3] if (s := len(self._moves)) < len(self._steps) else 0

    @property
    def street(self) -> int:
        """Round of the current decision: 0 = the first (opening, Fantasyland or
        classic set), then 1, 2, ..."""
        if (s := len(self._moves)) < len(self._steps):
            return int(self._steps[s][6])
        return int(self._steps[-1][6]) + 1

    @property
    def is_over(self) -> bool:
        """True once the deal is over (every decision made)."""
        return len(self._moves) >= len(self._steps)

    @property
    def decisions(self) -> int:
        """Decisions made so far."""
        return len(self._moves)

    @property
    def deck(self) -> tuple[int, ...]:
        """The shuffled deck (the referee's secret; never in an observation)."""
        return self._deck

    @property
    @lock_free
    def boards(self) -> tuple[Board, ...]:
        """The table as it stands, every card shown (the referee's view)."""
        return self._boards(0, self.players)

    def _boards(self, first: int, end: int) -> tuple[Board, ...]:
        """The boards of seats ``first`` to ``end - 1`` as they stand (a read: its
        caller's guard)."""
        buf = self._buf
        cells = tuple(buf[_BOARD + 13 * first : _BOARD + 13 * end])
        counts = buf[_COUNT + 3 * first : _COUNT + 3 * end]
        out = []
        for s in range(end - first):
            b, c = 13 * s, 3 * s
            out.append(
                Board.from_ids(
                    cells[b : b + counts[c]],
                    cells[b + 3 : b + 3 + counts[c + 1]],
                    cells[b + 8 : b + 8 + counts[c + 2]],
                )
            )
        return tuple(out)

    @lock_free
    def discards(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` discarded (the referee's view)."""
        self.check_seat(seat)
        return tuple(self._g.discards[seat][0 : self._g.ndiscards[seat]])

    @property
    @lock_free
    def moves(self) -> tuple[Move, ...]:
        """Moves played so far, in order."""
        return tuple(self._move_at(i) for i in range(len(self._moves)))

    def _move_at(self, i: int) -> Move:
        m = self._moves[i]
        if isinstance(m, Move):
            return m
        _, start, n, k = self._steps[i][:4]
        return Move.from_action(self._deck[start : start + n], k, m)

    # -- legal moves
    def legal_actions(self) -> list[int]:
        """Legal action ids of the pending normal decision ([] when the deal is over);
        GameError for a full set, which has no action ids."""
        # a builtin's read holds the GIL: it sees the state before or after a move
        if _NATIVE and (legal := _legal_actions(self._buf)) is not None:
            return legal
        with self._state_lock:  # (the portable twins let the GIL go: wait for a move)
            legal = _legal_actions(self._buf)
            if legal is not None:
                return legal
            if len(self._moves) >= len(self._steps):
                return []
        raise GameError(
            "a Fantasyland or classic set is outside the action space; "
            "use legal_moves() / random_move() and play()"
        )

    def action_mask(self) -> list[bool]:
        """``ACTION_SPACE`` booleans, True for the legal actions."""
        mask = [False] * lib.OFC_ACTION_SPACE
        for a in self.legal_actions():
            mask[a] = True
        return mask

    @lock_free
    def legal_move_count(self) -> int:
        """Number of legal moves (without listing them)."""
        if self.is_over:
            return 0
        _, _, n, k, full = self._steps[len(self._moves)][:5]
        if not full:
            return len(self.legal_actions())
        return comb(n, k) * 72072 + len(self._special_moves())

    def _special_moves(self) -> list[Move]:
        """Classic: a declaration per natural the cards make and the rules pay, and
        surrender when the rules allow it."""
        if self.rules.game is not GameKind.CLASSIC:
            return []
        # (on a copy: the C call lets the GIL go, and a lock-free read holds no lock)
        mask = lib.ofc_game_declarable(self._r, new_state(bytearray(self._buf)))
        out = [
            Move(declare=n.name)
            for n in reversed(self.rules.naturals)  # best first
            if mask >> NATURAL_IDS[n.name] & 1
        ]
        if self.rules.surrender_cost is not None:
            out.append(Move(surrender=True))
        return out

    @lock_free
    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to act ([] when the deal is over).

        Normal decisions come in action order (at most 232 moves for a 5-card
        opening, 27 for a Pineapple round).  A full set of 13 cards (classic, OFC
        Fantasyland) gives all 72,072 settings (plus, in classic, a declaration per
        natural and surrender when the rules allow); larger Fantasyland sets raise
        GameError: use :meth:`random_move`, :meth:`legal_move_count` or a solver, and
        :meth:`play` to validate any set."""
        if len(self._moves) >= len(self._steps):
            return []
        _, start, n, k, full = self._steps[len(self._moves)][:5]
        dealt = self._deck[start : start + n]
        if not full:
            return moves_for_actions(dealt, k, self.legal_actions())
        count = self.legal_move_count()
        if count > _ENUMERATE_LIMIT:
            raise GameError(
                f"a {n}-card Fantasyland set has {count:,} legal moves; too "
                f"many to list (use random_move(), legal_move_count() or a "
                f"solver)"
            )
        collecting = gc.isenabled()
        try:  # (turned off inside it: a Ctrl-C just after left it off for good)
            gc.disable()  # 72,072 small objects: the collector would triple the time
            moves = settings_for(dealt)
        finally:
            if collecting:
                gc.enable()
        return moves + self._special_moves()

    @lock_free
    def action_to_move(self, action: int) -> Move:
        """The move of a legal action id."""
        if self.is_over:
            raise MoveError("the deal is over", "game_over")
        a = action_id(action)
        if a not in self.legal_actions():
            raise MoveError(f"action {a} is not legal here", "bad_action")
        _, start, n, k = self._steps[len(self._moves)][:4]
        return Move.from_action(self._deck[start : start + n], k, a)

    @lock_free
    def move_to_action(self, move: Move) -> int:
        """The action id of a move of the pending normal decision."""
        from .moves import action_for_move

        if self.is_over:
            raise MoveError("the deal is over", "game_over")
        if not isinstance(move, Move):
            raise MoveError(f"expected a Move, got {type(move).__name__}", "bad_move")
        if move[2] is not None or move[3]:  # a classic full set's declare, surrender
            raise MoveError(f"{move} places no cards: it has no action id", "bad_move")
        return action_for_move(move, self.dealt, self.to_discard)

    def random_move(self, rng: Random | None = None) -> Move:
        """A uniformly random legal move of the seat to act (a full set: a uniformly
        random setting, never a declaration or surrender); ``rng``: a Random or a
        NumPy Generator (None: a fresh :class:`random.Random`), else GameError."""
        dealt, rows, k = self._decision()  # (read once: the draws are not repeated)
        return random_move(dealt, rows, k, Random() if rng is None else rng)

    @lock_free
    def _decision(self) -> tuple[tuple[int, ...], Any, int]:
        """The pending decision: the dealt cards, the rows of the seat to act and how
        many cards it discards (MoveError once the deal is over)."""
        if (step := len(self._moves)) >= len(self._steps):
            raise MoveError("the deal is over", "game_over")
        seat, start, n, k = self._steps[step][:4]
        return self._deck[start : start + n], self._boards(seat, seat + 1)[0].rows, k

    # -- playing
    @one_mover
    def play_action(self, action: int) -> None:
        """Play a legal action id (the fast path for agents)."""
        # an id in range as it is (one test); any other value checked by action_id
        a = action if type(action) is int and 0 <= action < _SPACE else action_id(action)
        try:  # the engine's move and its booking: one C call (_book_if_made)
            status = _act(self._buf, a, self._moves)
        except BaseException:
            self._book_if_made(a)
            raise
        if status:
            raise_move_error(
                status,
                f"action {a} for seat {self.to_act}" if status == lib.OFC_E_ACTION else "",
            )

    @one_mover
    def play(self, move: Move | Mapping[str, Any], seat: int | None = None) -> None:
        """Validate and apply the move of the seat to act, then deal on.

        ``seat``: when given, the seat that means to act (MoveError when it is not its
        turn).  Raises :class:`MoveError` on any illegal move, leaving the game as it
        was.
        """
        step = len(self._moves)
        steps = self._steps
        if step >= len(steps):
            raise MoveError("the deal is over: no more moves", "game_over")
        st = steps[step]
        if seat is not None and type(seat) is not int:
            n = as_int(seat)  # a NumPy int is the Python int, as for every seat
            if n is None:
                raise MoveError(
                    f"seat must be a seat number (an int), got {quote(seat)}", "bad_move"
                )
            seat = n
        if seat is not None and seat != st[0]:
            raise MoveError(
                f"seat {quote(seat)} cannot act: it is seat {st[0]}'s turn",
                "not_your_turn",
            )
        if not isinstance(move, Move):
            if isinstance(move, Mapping):
                move = Move.from_dict(move)
            else:
                raise MoveError(f"expected a Move, got {type(move).__name__}", "bad_move")
        if move[2] is not None or move[3]:  # declare, surrender
            self._play_special(move)
            return
        dealt = self._deck[st[1] : st[1] + st[2]]
        # a move that lists the dealt cards in deal order carries their destinations
        dest = move[1] if move[0] == dealt else destinations_of(move, dealt)
        try:
            status = _place(
                self._buf, dest if type(dest) is tuple else tuple(dest), self._moves, move
            )
        except BaseException:
            self._book_if_made(move)
            raise
        if status:
            counts = self._g.count[st[0]]  # (the seat to act's rows: as they were)
            raise_move_error(
                status, refusal_detail(status, st[0], move, self.to_discard, dealt, counts)
            )

    _game_play = staticmethod(play)  # (play_out: Game.play, or a subclass's own)
    _play_since = one_mover.since(unwrap(play))  # (play_out's check and move: one lock)

    def _book_if_made(self, move: Move | int) -> None:
        """Book ``move`` the engine made though its call raised.  The builtins make and
        book a move in one C call, with no bytecode between, so no Ctrl-C lands
        between the two; the portable twins append it after the engine's call, and a
        Ctrl-C can land between (then the engine is a step ahead of the moves)."""
        if self._g.step != len(self._moves):
            self._moves.append(move)

    def _play_special(self, move: Move) -> None:
        if move.cards:
            raise MoveError(
                "a declaration or a surrender carries no placements", "bad_move"
            )
        if move.declare is not None and move.surrender:
            raise MoveError(
                "a move cannot both declare a natural and surrender", "bad_move"
            )
        # on a copy, put back whole: the C call lets the GIL go, and the builtins
        # that read the state unlocked (legal_actions, observation) hold it
        work = bytearray(self._buf)
        g = new_state(work)
        if move.surrender:
            status = lib.ofc_game_surrender(self._r, g)
            if status == lib.OFC_E_SURRENDER:
                raise MoveError(f"{self.rules.name} does not allow surrender", "surrender")
        else:
            name = move.declare
            allowed = {n.name for n in self.rules.naturals}
            if name not in allowed and self.rules.game is GameKind.CLASSIC:
                raise MoveError(
                    f"{self.rules.name} pays no natural {str(name)[:40]!r} "
                    f"(naturals: {', '.join(sorted(allowed)) or 'none'})",
                    "declare",
                )
            status = lib.ofc_game_declare(self._r, g, NATURAL_IDS.get(str(name), 99))
            if status == lib.OFC_E_NATURAL:
                raise MoveError(
                    f"seat {self.to_act}'s cards {cards_str(self.dealt)} do "
                    f"not make {name}",
                    "declare",
                )
        if status == lib.OFC_E_NOT_CLASSIC:
            what = "surrender" if move.surrender else "declare"
            raise MoveError(
                f"only classic Chinese Poker lets a seat {what} (at its 13-card set)", what
            )
        if status:
            raise_move_error(status)
        try:
            self._buf[:] = work
            self._moves.append(move)
        except BaseException:
            self._book_if_made(move)
            raise

    # -- views
    @property
    def c_state(self) -> Any:
        """The engine's ``ofc_game *`` of this game (cffi), for C code that reads the
        state (``ofc_game.h``); valid while the game lives, and not to be written."""
        return self._g

    def check_seat(self, seat: object) -> int:
        """``seat`` when it is a seat of this table, else GameError.

        >>> Game(players=2, seed=1).check_seat(1)
        1
        """
        return check_seat(seat, self.players, "seat")

    def observation(self, seat: int, cards: str = "ids") -> Observation:
        """What ``seat`` may see, as JSON-able data (see :class:`Observation`):
        its own board, dealt cards and discards; the others' face-up cards and
        counts of their face-down cards and discards; never the deck.  Once the deal
        is over every board is shown (but a surrendered hand) and ``result`` is added.
        ``cards="text"`` writes cards as ``"As"`` instead of ids."""
        if type(seat) is not int or not 0 <= seat < self.players:
            self.check_seat(seat)
        if not isinstance(cards, str) or cards not in ("ids", "text"):  # no array's ==
            raise GameError(f"cards must be 'ids' or 'text', got {quote(cards, 24)}")
        t = self._obs or self._obs_template()
        if _NATIVE:  # one builtin's read, under the GIL: before or after a move
            obs = own_rule_set(_observe(self._buf, seat, t))
        else:
            with self._state_lock:
                obs = own_rule_set(_observe(self._buf, seat, t))
        if obs["is_over"]:
            r = self.result()  # (lock_free: waits for the last move's book-keeping)
            obs["result"] = {
                **r.summary(),
                "declared": {str(k): v for k, v in r.declared.items()},
                "surrendered": list(r.surrendered),
            }
        out: Any = cards_as_text(obs) if cards == "text" else obs
        return out  # type: ignore[no-any-return]

    def _obs_template(self) -> dict[str, Any]:
        """The observation's fixed fields, made once per game (and its copies)."""
        t, carried = table_template(self.players, self.button, self.rules)
        if carried is not None:  # the rules travel along, JSON-able, shared by the
            t = {**t, "rule_set": carried}  # games of this table (each view: a copy)
        self._obs = t
        return t

    # -- results
    @lock_free
    def result(self) -> GameResult:
        """The scored deal (GameError before it is over): a copy of the game's own,
        which a caller may edit without changing the game's."""
        if self._result is None:
            if not self.is_over:
                raise GameError(f"the deal is not over: seat {self.to_act} is to act")
            self._result = result_of(self, self._r, self._g)
        return result_copy(self._result)

    # -- history
    @lock_free
    def history(self) -> dict[str, Any]:
        """The deal as JSON-able data: rules, seats, button, seed (None when the deck
        was given), the deck, the Fantasyland counts, stacks, every move and, once
        over, the result.  :meth:`replay` rebuilds it and checks every field."""
        from .history import history_of

        return history_of(self)

    @classmethod
    def replay(cls, history: Mapping[str, Any]) -> Game:
        """A game in the state ``history`` (from :meth:`history`) describes: the same
        deck, seats and moves, replayed through :meth:`play`; HistoryError naming the
        first field that does not agree with the replay (``field``), and MoveError for
        a recorded move the deal does not take there (``"history move 3: ..."``).

        >>> h = Game("pineapple", 2, seed=3).history()
        >>> h["moves"] = [{"place": [["As", "front"]]}]
        >>> Game.replay(h)
        Traceback (most recent call last):
        ...
        ofc_fast.errors.MoveError: history move 0: ...
        """
        from .history import replay

        return replay(cls, history)

    @lock_free
    def copy(self: _G) -> _G:
        """An independent copy (for search: play ahead without touching this one); of
        a subclass, of that subclass, its own attributes shared (as ``copy.copy``)."""
        cls = type(self)
        g = object.__new__(cls)
        # (each slot by name: a loop of getattr/setattr took two thirds of the copy)
        g.rules = self.rules
        g.players = self.players
        g.button = self.button
        g.seed = self.seed
        g.fantasyland = self.fantasyland
        g.stacks = self.stacks
        g._r = self._r
        g._steps = self._steps
        g._deck = self._deck
        g._result = self._result
        g._buf = bytearray(self._buf)
        g._g = new_state(g._buf)
        g._moves = list(self._moves)
        g._entries = 0
        g._state_lock = threading.RLock()
        g._obs = self._obs  # the template (and any carried rule set) of this table
        if cls is not Game:
            for name, value in own_attributes(self, Game).items():
                setattr(g, name, value)
        return g

    def __copy__(self: _G) -> _G:
        """``copy.copy(game)``: an independent copy, as :meth:`copy` (never one that
        shares the engine's state with this game)."""
        return self.copy()

    def __deepcopy__(self: _G, memo: dict[int, Any]) -> _G:
        """``copy.deepcopy(game)``: as :meth:`copy`, a subclass's attributes deep-copied."""
        g = self.copy()
        if type(self) is not Game:
            memo[id(self)] = g
            for name, value in own_attributes(self, Game).items():
                setattr(g, name, copy.deepcopy(value, memo))
        return g

    @lock_free
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling: the table, the engine's state bytes, the moves and a subclass's
        attributes; unpickling checks the state with C (``ofc_game_state_check``)
        before any other function reads it, and the moves against it
        (:meth:`_unpickled`)."""
        table = (self.rules, self.players, self.button, self.seed, self.fantasyland)
        state = (table, self.stacks, bytes(self._buf), list(self._moves))
        if type(self) is Game:
            return (Game._unpickled, state)
        return (type(self)._unpickled, state, (None, own_attributes(self, Game)))

    @classmethod
    def _unpickled(cls, table: object, stacks: Any, state: bytes, moves: list[Any]) -> Game:
        """A pickled game rebuilt once :func:`~ofc_fast.game._pickle.checked` passed
        its table, state bytes and moves: its moves replayed on a new deal of its table
        must make its state byte for byte (GameError naming the first illegal move, or
        saying they make another state), so that its moves and history are its
        boards'."""
        from ._pickle import WHAT, checked

        p = checked(table, stacks, state, moves)
        deck = None if p.seed is not None else list(state[_DECK : _DECK + 52])
        ref = Game(
            p.rules, p.players, p.seed, p.button, p.fantasyland, stacks=p.stacks, deck=deck
        )
        for i, m in enumerate(moves):
            try:
                (ref.play_action if type(m) is int else ref.play)(m)
            except MoveError as exc:
                raise GameError(f"{WHAT}: move {i}: {exc}") from None
        if ref._buf != state:
            raise GameError(f"{WHAT}: its moves do not make its state")
        if cls is Game:
            return ref
        g = object.__new__(cls)
        for name in Game.__slots__:
            if name != "__weakref__":
                setattr(g, name, getattr(ref, name))
        return g

    @lock_free
    def _state_bytes(self) -> bytes:
        """The engine's state, byte for byte (tests compare it around illegal moves)."""
        return bytes(self._buf)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and self.rules == other.rules
            and self.stacks == other.stacks
            and self.seed == other.seed
            and self._snapshot() == other._snapshot()
        )

    @lock_free
    def _snapshot(self) -> tuple[bytes, list[Any]]:
        """The engine's state bytes and the moves' keys, read together (:meth:`__eq__`)."""
        return bytes(self._buf), [m.key() for m in self.moves]

    __hash__ = None  # type: ignore[assignment]  # mutable

    @built_repr
    def __repr__(self) -> str:
        s = self.to_act  # (read once: a move may land between two reads)
        state = "over" if s is None else f"seat {s} to act"
        return (
            f"<Game {self.rules.name} {self.players} players, button {self.button}, "
            f"seed {self.seed}, {state}>"
        )

    @built_repr
    @lock_free
    def __str__(self) -> str:
        lines = [repr(self)]
        for s, b in enumerate(self.boards):
            tag = f" FL{self.fantasyland[s]}" if self.fantasyland[s] else ""
            lines.append(f"  seat {s}{tag}: {b}")
        return "\n".join(lines)
