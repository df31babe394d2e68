"""The arena: hosts a match between bots over the wire protocol.

>>> from ofc_fast.arena._host import Arena, parse_bot_spec
>>> arena = Arena("ofc-pineapple", [parse_bot_spec("random"), parse_bot_spec("random")],
...               hands=4, seed=7)
>>> report = arena.run()
>>> report["hands"], sum(b["points"] for b in report["bots"])
(4, 0)

Seating: seat 0 is the button and turn order is seat 1, 2, ..., n-1, 0 (our engine's
order with the button at seat 0).  Bots rotate one seat between hands, except into a
hand where a seat plays Fantasyland: then everyone keeps their seat.  With
``duplicate`` every deck (deal seed) is played once per seat rotation, each rotation
being its own run of hands with its own Fantasyland carry-over and fixed seats.

Faults (see :class:`~ofc_fast.arena._protocol.FaultKind`) are counted per bot.  With
``substitute`` the arena plays the filler placement for the bot and goes on; with
``forfeit`` the match ends at once (the unfinished hand is not scored).  Every
``act`` carries a ``seq``; an action is matched to its act
(:func:`~ofc_fast.arena._protocol.correlate`): a late, repeated or otherwise stale
action is dropped whatever its timing, never taken for the next decision, and one
naming another seat or hand is a ``malformed`` fault.  A bot that misses two
deadlines in a row is hung: it is killed, and its later decisions are filled in.
Lines that are no JSON object (garbage) or are over 64 KiB are faults but do not end
the wait for the action; more lines than the arena keeps per bot are a ``flood``
fault (the excess is dropped).  A bot process that exits is a disconnect at once.
Built-in bots run in the arena's thread: their time is measured but never faulted (a
report must not depend on the machine's load), and an exception they raise (or an
``act`` that returns no :class:`~ofc_fast.game.Move`) is a ``crash`` fault.

Memory: a finished hand goes to ``on_deal`` and is not kept; a match keeps per bot
one 8-byte number per hand and per decision (and, with ``duplicate``, per deck).
"""

from __future__ import annotations

import time
from array import array
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

import numpy as np

from ..bots import bot_names, make_bot
from ..bots.registry import check_table, is_bot_spec, model_spec
from ..cli.options import count_problem
from ..errors import ArenaError, BotError, MoveError, flag, match_choice, quote
from ..game import Game, GameResult, Move, deal_seed
from ..rules import RuleSet
from ..table import as_int, check_seed
from ._events import (
    deal_event,
    fantasyland_event,
    place_event,
    redact,
    score_event,
    showdown_event,
)
from ._games import check_bot_count, game_id_of, resolve_arena_rules
from ._host_checks import MAX_DEADLINE_MS, MAX_HAND_NO
from ._protocol import (
    PROTO_VERSION,
    ActionFault,
    ActKey,
    FaultKind,
    correlate,
    filler_move,
    parse_action,
)
from ._seats import seat_names, valid_text
from ._signals import sigint_deferred
from ._stats import PairedSums, check_t_quantile
from ._transport import (
    EXIT_GRACE_S,
    STOP_POLL_S,
    Endpoint,
    InProcessEndpoint,
    ProcessEndpoint,
    TcpEndpoint,
    check_bot_stderr,
)
from .client import BotClient

__all__ = ["Arena", "BotSpec", "parse_bot_spec"]

FAULT_POLICIES = ("substitute", "forfeit")


@dataclass(frozen=True)
class BotSpec:
    """One ``--bot``: ``[NAME@]SPEC`` with SPEC a registry name (or
    ``builtin:NAME``), ``cmd:COMMAND`` or ``tcp:PORT``.

    >>> BotSpec("builtin", "search", name="me").label
    'builtin:search'
    """

    kind: str  #: "builtin", "cmd" or "tcp"
    target: str  #: the registry name, the command, or the port
    name: str | None = None

    @property
    def label(self) -> str:
        """``kind:target``, as the bot is named in reports."""
        return valid_text(f"{self.kind}:{self.target}")


_SPEC_KINDS = ("builtin", "cmd", "tcp")
"""The kinds of a ``--bot`` spec (``KIND:TARGET``), :attr:`BotSpec.kind`."""


def _is_model_spec(text: str, rest: str) -> bool:
    """Whether ``text``, ``NAME@REST``, is a ``value@PATH`` / ``search@PATH`` spec
    (:func:`~ofc_fast.bots.registry.model_spec`) rather than a seat's name: REST is
    no bot of its own (``cmd:``, ``tcp:``, ``builtin:``, a spec or a registered
    name; ``me@value@PATH`` names such a seat)."""
    if model_spec(text) is None:
        return False
    return match_choice(rest.partition(":")[0], _SPEC_KINDS) is None and not (
        is_bot_spec(rest) or rest.strip().lower() in bot_names()
    )


def parse_bot_spec(text: str) -> BotSpec:
    """``"search"``, ``"me@cmd:python bot.py"``, ``"tcp:9000"``, ``"value@m.ofcvm"``
    ...

    >>> parse_bot_spec("me@cmd:python bot.py")
    BotSpec(kind='cmd', target='python bot.py', name='me')
    >>> parse_bot_spec("search@models/home.ofcvm")
    BotSpec(kind='builtin', target='search@models/home.ofcvm', name=None)
    """
    if not isinstance(text, str) or not text.strip():
        raise ArenaError(f"--bot: a spec must be a non-empty string, got {quote(text)}")
    bad = f"--bot: bad spec {quote(text)}"  # (as typed, its name too: me@cmd:)
    name = None
    head, sep, rest = text.partition("@")
    if sep and ":" not in head and head.strip() and not _is_model_spec(text, rest):
        name, text = head.strip(), rest
    given, sep, target = text.partition(":")
    kind = match_choice(given, _SPEC_KINDS)  # (any case, as every text choice)
    if kind is None and is_bot_spec(text):
        # value@PATH, policy:PATH or module:attribute: made by make_bot
        kind, sep, target = "builtin", ":", text
    if not sep:
        kind, target = "builtin", text
    if kind is None:
        raise ArenaError(f"{bad}: expected NAME, builtin:NAME, cmd:COMMAND or tcp:PORT")
    port = target.strip()  # (0, a free port the system picks, no bot could be told)
    if kind == "tcp" and not (
        port.isascii() and port.isdigit() and 1 <= int(port) <= 65535
    ):
        raise ArenaError(f"{bad}: tcp:PORT needs a port number 1..65535")
    if not target.strip():  # (me@: no bot after the name, which is no builtin: typed)
        raise ArenaError(f"{bad}: nothing after {f'{given}:' if sep else f'{name}@'}")
    return BotSpec(kind, target.strip() if kind != "cmd" else target, name)


@dataclass
class BotRecord:
    """One bot in the match: its endpoint and running figures."""

    name: str
    spec: BotSpec
    endpoint: Endpoint
    points: array[int] = field(default_factory=lambda: array("q"))
    points_total: int = 0  #: ``sum(points)``, kept as they come (the standings)
    points_squares: int = 0  #: the sum of their squares (the standings' interval)
    fouls: int = 0
    fantasylands: int = 0
    scoops: int = 0
    royalties: int = 0
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FaultKind.ALL, 0))
    substituted: int = 0
    latencies_ms: array[float] = field(default_factory=lambda: array("d"))
    acts: int = 0  #: acts sent (the next act's ``seq``)
    recent: deque[frozenset[int]] = field(default_factory=lambda: deque(maxlen=4))
    missed_in_a_row: int = 0
    dead: bool = False
    stopped: str | None = None  #: why the arena stopped asking the bot, if it did

    @property
    def fault_count(self) -> int:
        """Faults of every kind, added up."""
        return sum(self.faults.values())


@dataclass
class DealRecord:
    """One finished hand: what the history file keeps (handed to ``on_deal``, not
    kept by the arena)."""

    hand_no: int
    deck_no: int
    rotation: int
    seats: list[str]  #: bot name per seat
    game: Game
    decisions: list[dict[str, Any]]


class _Forfeit(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class _Stopped(Exception):
    """:meth:`Arena.stop` came while a bot was awaited, or before one was asked."""


class Arena:
    """A match of ``hands`` hands (decks) between bots, reproducible from ``seed``.

    ``on_deal(record)`` is called after each finished hand; ``on_progress(report)``
    every ``progress_every`` hands (a positive int, as ``hands``; 2**53 + 1 hands at
    most, duplicate rotations too: hand numbers are JSON ints) with the standings
    so far.  ``duplicate`` is True or False; ``connect_timeout_s``, how long a
    ``tcp:`` seat waits for its bot to join, is seconds above 0, at most a day (both
    checked here, an ArenaError naming the argument).  ``bot_stderr``: where the
    ``cmd:`` bots' stderr goes, None (the arena's own), ``subprocess.DEVNULL`` or an
    open file descriptor (checked here too).  :meth:`run` returns
    the match report (:mod:`ofc_fast.arena.report`).

    >>> bots = [parse_bot_spec("ann@random"), parse_bot_spec("bob@random")]
    >>> report = Arena("pineapple", bots, hands=2, seed=1).run()
    >>> [b["name"] for b in report["bots"]], report["hands"]
    (['ann', 'bob'], 2)
    >>> sum(b["points"] for b in report["bots"])
    0
    """

    def __init__(
        self,
        rules: str | RuleSet,
        bots: Sequence[BotSpec],
        hands: int,
        seed: int = 0,
        *,
        timeout_ms: int | None = 5000,
        fault_policy: str = "substitute",
        duplicate: bool = False,
        on_deal: Callable[[DealRecord], None] | None = None,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
        progress_every: int = 100,
        connect_timeout_s: float = 30.0,
        bot_stderr: int | None = None,
        token: str | None = None,
    ) -> None:
        self.rules = resolve_arena_rules(rules)
        self.game_id = game_id_of(self.rules)
        if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
            raise ArenaError(f"bots: expected a list of BotSpec, got {quote(bots)}")
        for i, b in enumerate(bots):
            if not isinstance(b, BotSpec):  # ("random": parse_bot_spec("random"))
                raise ArenaError(
                    f"bots[{i}]: expected a BotSpec (parse_bot_spec), got {quote(b)}"
                )
        n = len(bots)
        check_bot_count(self.rules, n)
        duplicate = flag(duplicate, "duplicate", ArenaError)  # ("no" was a duplicate match)
        most = (MAX_HAND_NO + 1) // (n if duplicate else 1)  # hand_no: 0..2**53, as JSON
        counts = (("hands", hands, most), ("progress_every", progress_every, None))
        for name, given, top in counts:  # (worded as every count option; NumPy's ints)
            count, bad = as_int(given), f"must be a positive int, got {quote(given)}"
            problem = bad if count is None else count_problem(count, 1, top)
            if problem:
                raise ArenaError(f"{name} {problem}")
        if fault_policy not in FAULT_POLICIES:
            raise ArenaError(
                f"fault policy must be one of {FAULT_POLICIES}, got {quote(fault_policy)}"
            )
        if timeout_ms is not None and (
            isinstance(timeout_ms, bool)
            or not isinstance(timeout_ms, int)
            or not 1 <= timeout_ms <= MAX_DEADLINE_MS  # the protocol's deadlines
        ):
            raise ArenaError(
                f"timeout_ms must be an int 1..{MAX_DEADLINE_MS} (a day) or None, "
                f"got {quote(timeout_ms)}"
            )
        wait: object = connect_timeout_s  # (any object: checked)
        if (
            isinstance(wait, (bool, np.bool_))
            or not isinstance(wait, (int, float, np.integer, np.floating))
            or not 0 < wait <= MAX_DEADLINE_MS / 1000  # (nan: False)
        ):  # (0 or less, nan: every tcp: seat timed out at once)
            raise ArenaError(
                f"connect_timeout_s must be seconds above 0, at most "
                f"{MAX_DEADLINE_MS // 1000} (a day), got {quote(wait)}"
            )
        if token is not None and (
            not isinstance(token, str)
            or not 1 <= len(token) <= 256
            or not token.isprintable()
            or not token.isascii()
        ):
            raise ArenaError("token must be 1 to 256 printable ASCII characters")
        ports = [int(b.target) for b in bots if b.kind == "tcp"]
        for port in ports:
            if ports.count(port) > 1:  # (the second could not listen: "in use")
                raise ArenaError(
                    f"--bot: two seats on one port, tcp:{port}; give each tcp: seat its own"
                )
        if token is not None and not any(b.kind == "tcp" for b in bots):
            raise ArenaError("token: only a tcp:PORT seat asks for one, and there is none")
        Game(self.rules, n, seed=0)  # fails early on a table the rules cannot deal
        seed = check_seed(seed)  # (a plain int for the report; not at the first deal)
        check_t_quantile()  # the report's intervals (scipy): before the first hand
        self.specs = list(bots)
        self.players = n
        self.hands = int(hands)
        self.seed = seed
        self.timeout_ms = timeout_ms
        self.fault_policy = fault_policy
        self.duplicate = duplicate
        self.on_deal = on_deal
        self.on_progress = on_progress
        self.progress_every = int(progress_every)
        self.connect_timeout_s = float(connect_timeout_s)
        self.bot_stderr = check_bot_stderr(bot_stderr)
        self.token = token
        self.names = seat_names(self.specs)
        self.records: list[BotRecord] = []
        self.deck_points: dict[int, list[int]] = {}
        """Duplicate matches: per deck not finished, each bot's points over the
        rotations so far."""
        self.deck_rotations: dict[int, int] = {}
        """Duplicate matches: per deck not finished, the rotations played so far."""
        self.deck_sums = PairedSums(len(self.specs))
        """Duplicate matches: the finished decks' points (:func:`duplicate_summary
        <ofc_fast.arena.report.duplicate_summary>`), summed: none is kept."""
        self.hands_done = 0
        self.forfeited_by: str | None = None
        self.interrupted = False
        """Whether :meth:`stop` ended the match before its last hand."""
        self.started = False
        """Whether every seat is taken (bots joined): the hands are being played."""
        self._stop_requested = False

    def __repr__(self) -> str:
        """Rules, seats, hands, seed and hands played (never raising: half-made too)."""
        rules, names = getattr(self, "rules", None), getattr(self, "names", [])
        return (
            f"<Arena {getattr(rules, 'name', rules)} {', '.join(names)}: "
            f"{getattr(self, 'hands_done', 0)} of {getattr(self, 'hands', 0)} hands "
            f"played, seed {getattr(self, 'seed', None)}>"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and copies (``copy.copy`` too): a new Arena of the same settings,
        its match not yet played (an Arena plays one match, reproducible from its
        seed); never this one's bots, their processes and connections, nor its records."""
        keys = "timeout_ms fault_policy duplicate on_deal on_progress progress_every"
        keys += " connect_timeout_s bot_stderr token"
        settings = {k: getattr(self, k) for k in keys.split()}
        return (partial(Arena, **settings), (self.rules, self.specs, self.hands, self.seed))

    # -- set-up
    def _endpoint(self, i: int, spec: BotSpec) -> Endpoint:
        try:  # (an unknown name, a command that cannot start, a port that cannot be
            # listened on said nothing of --bot)
            if spec.kind == "builtin":
                bot = make_bot(
                    spec.target, self.rules, seed=deal_seed(self.seed, 10**6 + i)
                )
                check_table(bot, self.players)  # one that cannot play here: now
                return InProcessEndpoint(BotClient(bot, strict=True))
            if spec.kind == "cmd":
                return ProcessEndpoint(spec.target, stderr=self.bot_stderr)
            return TcpEndpoint(int(spec.target))
        except (BotError, ArenaError) as exc:
            raise ArenaError(f"--bot: {exc}") from None

    def _connect(self) -> None:
        for i, spec in enumerate(self.specs):
            self.records.append(BotRecord(self.names[i], spec, self._endpoint(i, spec)))
        hello = {
            "t": "hello",
            "proto": PROTO_VERSION,
            "game_id": self.game_id,
            "seat_count": self.players,
            "timeout_ms": self.timeout_ms,
        }
        for rec in self.records:
            if not isinstance(rec.endpoint, TcpEndpoint):
                rec.endpoint.send(hello)
        for rec in self.records:  # a tcp seat: hello to each connection until one joins
            if isinstance(rec.endpoint, TcpEndpoint):
                rec.endpoint.accept(
                    self.connect_timeout_s, hello, self.token, lambda: self._stop_requested
                )
                if self._stop_requested:  # (the seat no fault: it was not waited out)
                    raise _Stopped
        for rec in self.records:
            self._await_join(rec)
        for rec in self.records:
            rec.endpoint.send({"t": "joined", "name": rec.name})

    def _receive_by(
        self, rec: BotRecord, deadline: float | None, first: bool = False
    ) -> tuple[str, Any]:
        """The bot's next item, or a timeout once ``deadline`` (``perf_counter``, None:
        no deadline) has passed, even while lines keep coming (talking never holds the
        arena past a deadline); the ``first`` look takes what is already there (a
        built-in bot's answer is queued before the arena looks).  :meth:`stop` ends
        the wait within :data:`STOP_POLL_S` (a slow or silent bot would hold the hand,
        and the match, until its deadlines, or forever)."""
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0 and not first:
                return ("timeout", None)
            if self._stop_requested and not first:  # (a chatty bot too)
                raise _Stopped
            first = False
            item = rec.endpoint.receive(
                STOP_POLL_S if left is None else min(left, STOP_POLL_S)
            )
            if item[0] != "timeout":
                return item

    def _await_join(self, rec: BotRecord) -> None:
        limit = max(self.connect_timeout_s, (self.timeout_ms or 0) / 1000)
        deadline = time.perf_counter() + limit
        first = True
        while True:
            kind, value = self._receive_by(rec, deadline, first)
            first = False
            if kind == "msg" and value.get("t") == "join":
                return
            if kind == "msg":
                continue
            if kind in ("timeout", "nojoin"):  # (nojoin: a tcp: seat's, maybe why)
                self._kill(rec, "killed: no join in time" + (f": {value}" if value else ""))
                self._fault(rec, FaultKind.TIMEOUT)
                return
            if self._late_item(rec, kind, value):
                return

    # -- faults
    def _fault(self, rec: BotRecord, kind: str) -> None:
        rec.faults[kind] += 1
        if self.fault_policy == "forfeit" and self.forfeited_by is None:
            self.forfeited_by = rec.name
            raise _Forfeit(rec.name)

    def _kill(self, rec: BotRecord, why: str) -> None:
        rec.dead = True
        rec.stopped = rec.stopped or why
        if rec.endpoint is not None:  # (a parallel arena's bots: in its workers)
            rec.endpoint.kill()

    # -- one decision
    def _drain(self, rec: BotRecord) -> None:
        for kind, value in rec.endpoint.pending():
            self._late_item(rec, kind, value)

    _LINE_FAULTS: ClassVar[dict[str, str]] = {
        "overlong": FaultKind.OVERLONG,
        "garbage": FaultKind.GARBAGE,
        "flood": FaultKind.FLOOD,
    }

    _ENDS: ClassVar[dict[str, tuple[str, str]]] = {
        "eof": ("disconnected", FaultKind.DISCONNECT),
        "crash": ("crashed", FaultKind.CRASH),
    }
    """The stream items that end a bot: why it was stopped, and its fault."""

    def _late_item(self, rec: BotRecord, kind: str, value: Any) -> bool:
        """Book an item that is no answer to the pending decision (a message, or an
        action that is not awaited, is dropped); True when it ends the bot (a
        disconnect or a crash)."""
        if kind in self._ENDS:
            if not rec.dead:
                why, fault = self._ENDS[kind]
                self._kill(rec, f"{why}: {value}" if kind == "eof" and value else why)
                self._fault(rec, fault)
            return True
        if kind in self._LINE_FAULTS:
            self._fault(rec, self._LINE_FAULTS[kind])
        return False

    def _ask(
        self,
        rec: BotRecord,
        hand_no: int,
        seat: int,
        dealt: Sequence[int],
        place: int,
        discard: int,
    ) -> tuple[dict[str, Any] | None, str | None, float | None]:
        """Send ``act`` and wait for its action: (message, fault kind, ms).  After
        :meth:`stop` no bot is asked (a built-in one answers as it is asked: the
        hand, and the match, would go on until the hand ends)."""
        if self._stop_requested:
            raise _Stopped
        self._drain(rec)
        if rec.dead:
            return None, None, None
        act = ActKey(hand_no, seat, rec.acts)
        rec.acts += 1
        try:
            return self._await_action(rec, act, dealt, place, discard)
        finally:
            rec.recent.append(frozenset(dealt))

    def _await_action(
        self, rec: BotRecord, act: ActKey, dealt: Sequence[int], place: int, discard: int
    ) -> tuple[dict[str, Any] | None, str | None, float | None]:
        t0 = time.perf_counter()
        sent = rec.endpoint.send(
            {
                "t": "act",
                "hand_no": act.hand_no,
                "seat": act.seat,
                "seq": act.seq,
                "decision": {"kind": "place", "place": place, "discard": discard},
                "deadline_ms": self.timeout_ms,
            }
        )
        if not sent:
            self._late_item(rec, "eof", rec.endpoint.ended_as())
            return None, None, None
        deadline = None if self.timeout_ms is None else t0 + self.timeout_ms / 1000
        first = True
        while True:
            kind, value = self._receive_by(rec, deadline, first)
            first = False
            ms = (time.perf_counter() - t0) * 1000
            if kind == "msg" and value.get("t") == "action":
                try:
                    if not correlate(value, act, dealt, rec.recent):
                        continue  # stale: an earlier act's answer
                except ActionFault as exc:
                    rec.missed_in_a_row = 0
                    return None, exc.kind, ms
                rec.missed_in_a_row = 0
                return value, None, ms
            if kind == "timeout":
                rec.missed_in_a_row += 1
                if rec.missed_in_a_row >= 2:
                    self._kill(rec, "killed: 2 missed deadlines in a row")
                return None, FaultKind.TIMEOUT, ms
            if self._late_item(rec, kind, value):
                return None, None, ms

    def _decide(
        self, rec: BotRecord, game: Game, hand_no: int
    ) -> tuple[Move, dict[str, Any]]:
        seat = game.to_act
        assert seat is not None
        dealt, k = game.dealt, game.to_discard
        place = len(dealt) - k
        was_dead = rec.dead
        msg, fault, ms = self._ask(rec, hand_no, seat, dealt, place, k)
        move: Move | None = None
        if msg is not None:
            try:
                move = parse_action(msg, dealt, place, k)
                trial = game.copy()
                trial.play(move)
            except ActionFault as exc:
                fault, move = exc.kind, None
            except MoveError:
                fault, move = FaultKind.ILLEGAL, None
        if ms is not None:
            rec.latencies_ms.append(ms)
        if fault is not None:
            self._fault(rec, fault)
        if move is None:
            if fault is None and not was_dead and rec.dead:  # (booked as it came)
                fault = {w: f for w, f in self._ENDS.values()}.get(
                    rec.stopped or "", FaultKind.DISCONNECT
                )
            rec.substituted += 1
            move = filler_move(dealt, place, game.boards[seat].rows)
        return move, {
            "seat": seat,
            "ms": None if ms is None else round(ms, 3),
            "fault": fault or ("substituted" if msg is None else None),
        }

    # -- one hand
    def _send_all(
        self, seating: Sequence[int], message: Callable[[int], dict[str, Any]]
    ) -> None:
        for seat, b in enumerate(seating):
            rec = self.records[b]
            if not rec.dead:
                rec.endpoint.send(message(seat))

    def _broadcast(
        self,
        seating: Sequence[int],
        hand_no: int,
        ev: dict[str, Any],
        face_down: bool = False,
    ) -> None:
        self._send_all(
            seating,
            lambda v: {"t": "event", "hand_no": hand_no, "ev": redact(ev, v, face_down)},
        )

    def _play_hand(
        self,
        hand_no: int,
        deck_no: int,
        rotation: int,
        seating: Sequence[int],
        fantasyland: Sequence[int],
    ) -> Game:
        n = self.players
        order = [*range(1, n), 0]
        game = Game(
            self.rules,
            n,
            seed=deal_seed(self.seed, deck_no),
            button=0,
            fantasyland=fantasyland,
        )
        self._send_all(
            seating, lambda s: {"t": "hand-start", "hand_no": hand_no, "seat": s}
        )
        for s in order:
            if fantasyland[s]:
                self._broadcast(seating, hand_no, fantasyland_event(s, fantasyland[s]))
        decisions = []
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            face_down = bool(obs["face_down"] or obs["full_set"])
            self._broadcast(seating, hand_no, deal_event(seat, game.dealt))
            dealt = game.dealt
            move, info = self._decide(self.records[seating[seat]], game, hand_no)
            game.play(move)
            decisions.append(info)
            self._broadcast(seating, hand_no, place_event(seat, move, dealt), face_down)
        result = game.result()
        for s in order:
            self._broadcast(seating, hand_no, showdown_event(s, self.rules, result))
        for s in order:
            self._broadcast(seating, hand_no, score_event(s, result.net[s]))
        self._send_all(
            seating,
            lambda s: {"t": "hand-end", "hand_no": hand_no, "points": list(result.net)},
        )
        self.record(
            DealRecord(
                hand_no,
                deck_no,
                rotation,
                [self.names[b] for b in seating],
                game,
                decisions,
            )
        )
        return game

    def record(self, deal: DealRecord) -> None:
        """Book a finished hand (into the bots' records and, for a duplicate match,
        its deck's sums), count it and hand it to ``on_deal``; the arena keeps no
        reference to it.  Ctrl-C meanwhile waits for the end: a hand is booked whole
        (and is in the history), or not at all."""
        result = deal.game.result()
        seating = [self.names.index(name) for name in deal.seats]
        with sigint_deferred():
            self.book(deal.game, result, seating)
            if self.duplicate:
                row = self.deck_points.setdefault(deal.deck_no, [0] * self.players)
                for s, b in enumerate(seating):
                    row[b] += result.net[s]
                rotations = self.deck_rotations.get(deal.deck_no, 0) + 1
                self.deck_rotations[deal.deck_no] = rotations
                if rotations == self.players:  # the deck done: into the sums, dropped
                    self.deck_sums.add(self.deck_points.pop(deal.deck_no))
                    del self.deck_rotations[deal.deck_no]
            self.hands_done += 1
            if self.on_deal is not None:
                self.on_deal(deal)

    def record_played(self, deal: DealRecord) -> bool:
        """Book a hand whose bots were asked elsewhere (a parallel arena's worker) as
        :meth:`run` books one: each decision's time, and its fault through the fault
        policy (a crash stops the bot, as here), then the hand (:meth:`record`).
        False, the hand not scored, when a fault forfeited the match."""
        try:
            for d in deal.decisions:
                rec = self.records[self.names.index(deal.seats[d["seat"]])]
                fault = d["fault"]
                if fault == FaultKind.CRASH:  # booked as it comes (:meth:`_late_item`)
                    self._late_item(rec, "crash", None)
                if d["ms"] is not None:
                    rec.latencies_ms.append(d["ms"])
                if fault in FaultKind.ALL and fault != FaultKind.CRASH:
                    self._fault(rec, fault)
                rec.substituted += fault is not None
        except _Forfeit:
            return False
        self.record(deal)
        return True

    def book(self, game: Game, result: GameResult, seating: Sequence[int]) -> None:
        """Add a finished deal to the players' records (``seating[s]``: the player in
        seat ``s``)."""
        values = [b.row_values(self.rules) for b in result.boards]
        for s, b in enumerate(seating):
            rec = self.records[b]
            rec.points.append(result.net[s])
            rec.points_total += result.net[s]
            rec.points_squares += result.net[s] ** 2
            rec.fouls += result.fouls[s]
            rec.fantasylands += bool(game.fantasyland[s])
            rec.royalties += 0 if result.fouls[s] else sum(result.royalties[s])
            for o in range(self.players):
                if o == s or result.fouls[s]:
                    continue
                if result.fouls[o] or all(values[s][r] > values[o][r] for r in range(3)):
                    rec.scoops += 1

    # -- the match
    def _schedule(self) -> Iterator[tuple[int, int]]:
        """(deck, rotation) of every hand, in play order (made as the match goes: a
        list of them would hold about 80 bytes a hand)."""
        for i in range(self.hands):
            for r in range(self.players if self.duplicate else 1):
                yield i, r

    def stop(self) -> None:
        """Ask :meth:`run` to end the match (safe from a
        signal handler: it only sets a flag); its report then holds the hands played
        and says ``"interrupted": true``.  A hand in progress (a bot's answer awaited,
        with or without a deadline, or a decision left to ask, of a built-in bot too) is
        not finished: it is dropped at once, unscored."""
        self._stop_requested = True

    def claim(self) -> None:
        """ArenaError when this arena has begun a match (:meth:`run`, or a parallel
        one: :func:`ofc_fast.parallel.tournament.run_arena`): an Arena plays one
        match, and its records and report are that match's."""
        if self.records:
            raise ArenaError("an Arena plays one match: make a new Arena for another")

    def run(self) -> dict[str, Any]:
        """Play the match and return its report (once: :meth:`claim`)."""
        from .report import match_report

        self.claim()

        n = self.players
        streams = n if self.duplicate else 1
        fl = [[0] * n for _ in range(streams)]
        rot = [r for r in range(streams)]
        schedule = self._schedule()
        total = self.hands * (n if self.duplicate else 1)
        try:
            self._connect()
            self.started = True
            for hand_no, (deck, r) in enumerate(schedule):
                if self._stop_requested:
                    self.interrupted = True
                    break
                stream = r if self.duplicate else 0
                seating = [(s - rot[stream]) % n for s in range(n)]
                game = self._play_hand(hand_no, deck, r, seating, fl[stream])
                fl[stream] = list(game.result().fantasyland)
                if not self.duplicate and not any(fl[stream]):
                    rot[stream] += 1
                if self.on_progress is not None and (
                    self.hands_done % self.progress_every == 0 or self.hands_done == total
                ):
                    from .report import progress_line

                    self.on_progress(progress_line(self, total))
        except _Forfeit:
            pass
        except _Stopped:  # the hand in progress waited on a bot
            self.interrupted = True
        finally:
            self._finish()
        return match_report(self)

    def _finish(self) -> None:
        """``match-end`` to every bot, then :data:`EXIT_GRACE_S` for all of them
        together to exit (each was told at once: a bot that lingers costs the others'
        wait nothing) before what is left is killed."""
        for rec in self.records:
            if not rec.dead:
                rec.endpoint.send({"t": "match-end"})
        deadline = time.monotonic() + EXIT_GRACE_S
        for rec in self.records:
            rec.endpoint.close(max(deadline - time.monotonic(), 0.0))
