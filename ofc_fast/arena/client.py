"""The bot side of the protocol: :class:`BotClient` keeps the table a seat has seen
from the event stream, rebuilds the observation our bots read, and answers ``act``
with the bot's move; :func:`run_stream` plays over a pair of byte streams (stdio or a
TCP connection); :func:`play_bot` is ``ofc-fast bot``.

Every field the host sends is checked against the protocol's bounds (seat counts,
seats, card lists, counts, deadlines): a line that is not the protocol (not JSON,
nested too deeply, over-long, a known message of the wrong shape) stops the client
with a ProtocolError naming the line and the field; unknown message types, events and
fields are skipped, as the protocol says.

**Deadlines.** ``act``'s ``deadline_ms`` (else ``hello``'s ``timeout_ms``) reaches the
bot as the observation's ``"deadline"``: the :func:`time.monotonic` time by which
``act`` must return, a safety margin for the pipe already taken off
(:func:`pipe_margin`); absent when the arena sets no deadline.  A bot may use it (the
search bot fits its search into it) or ignore it.  A bot may also define
``warm_up(rules, players)``: with ``warm_up=True`` (``ofc-fast bot``) the client calls
it once after ``hello`` with the hello's rules and seat count (``players=``, where the
bot's ``warm_up`` takes it), before it joins, so that tables are built before the
first deadline.

>>> from ofc_fast.bots import make_bot
>>> c = BotClient(make_bot("random", seed=1))
>>> c.feed({"t": "hello", "proto": 1, "game_id": "ofc-pineapple", "seat_count": 2,
...         "timeout_ms": 5000})
[{'t': 'join'}]
>>> round(pipe_margin(150), 3), round(pipe_margin(5000), 3)
(0.025, 0.51)
"""

from __future__ import annotations

import inspect
import socket
import sys
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from .._native import ffi
from ..board import ROW_SIZES, free_slots
from ..bots.base import Bot
from ..bots.registry import check_table
from ..errors import ArenaError, BotError, OfcError, ProtocolError
from ..game import Move
from ..game.moves import legal_actions_of
from ..game.observation import observation_record, read_observation
from ..rules import RuleSet, carried_rules
from ._games import game_id_of, resolve_arena_rules, rules_for_game_id
from ._host_checks import (
    MAX_CARDS,
    MAX_HAND_NO,
    MAX_SEATS,
    card_list,
    count,
    deadline_ms,
    decode_host_line,
    int_field,
    object_field,
    optional_int,
    placements,
    text_field,
)
from ._protocol import (
    PROTO_VERSION,
    LineSplitter,
    action_of_move,
    bot_crashed,
    encode,
    filler_move,
)

__all__ = ["DEFAULT_SEED", "BotClient", "play_bot", "run_stdio", "run_stream"]

Log = Callable[[str], None]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def pipe_margin(deadline_ms: int) -> float:
    """Seconds of a ``deadline_ms`` deadline kept back for the pipe, the encoding and
    the host's clock: 10 ms plus 10%, at most a quarter of the deadline."""
    d = deadline_ms / 1000
    return min(0.25 * d, 0.010 + 0.10 * d)


def _seats_for(warm_up: Callable[..., Any], players: int) -> dict[str, int]:
    """The keywords a bot's ``warm_up`` gets besides the rules: ``players``, the
    hello's seat count, where it takes one (the built-in bots'); none for a
    ``warm_up(rules)`` of its own."""
    try:
        inspect.signature(warm_up).bind(None, players=players)
    except (TypeError, ValueError):  # no players= (or no signature to read)
        return {}
    return {"players": players}


class BotClient:
    """One bot's end of the protocol, fed one arena message at a time.

    :meth:`feed` takes a decoded message and returns the messages to send back
    (ProtocolError for a message that breaks the protocol's bounds).  Unknown message
    types and events are ignored.  When the bot raises (any exception but
    ``KeyboardInterrupt``: :func:`~ofc_fast.arena._protocol.bot_crashed`), the client
    logs and answers with the filler placement (a protocol client must always
    answer); with ``strict`` the exception propagates instead (the arena's in-process
    bots: it counts the crash as a fault).  ``deadlines``: put the deadline into the observation
    (default: unless ``strict``; the arena never faults its in-process bots for time,
    so that their moves, and its report, do not depend on the machine's load);
    ``warm_up``: call the bot's ``warm_up(rules, players=seat_count)`` (if it has
    one; ``warm_up(rules)`` where it takes no ``players``) on ``hello``;
    ``token``: sent in ``join`` (an arena's ``--token`` for its ``tcp:`` seats);
    ``rules``: the preset the bot was made for (``ofc-fast bot --rules``): a ``hello``
    for another game is refused with ArenaError before joining, so the bot leaves
    (default: it plays the hello's game), as is a hello of a table the bot cannot
    play at (its ``check_players``: a value bot with no model for the seat count);
    ``clock``: the monotonic clock deadlines are read on.  An ``act`` that carries a
    ``seq`` (our arena numbers its acts) is answered with ``seq``, ``hand_no`` and
    ``seat`` echoed, so that a late answer can never be taken for the next one.

    >>> from ofc_fast.bots import make_bot
    >>> c = BotClient(make_bot("random", seed=1))
    >>> c.feed({"t": "hello", "proto": 1, "game_id": "ofc-27", "seat_count": 3})
    [{'t': 'join'}]
    >>> c.rules.name, c.players, c.done
    ('PINEAPPLE_27', 3, False)
    """

    def __init__(
        self,
        bot: Bot,
        log: Log = _stderr,
        strict: bool = False,
        *,
        deadlines: bool | None = None,
        warm_up: bool = False,
        token: str | None = None,
        rules: RuleSet | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot = bot
        self.own_game = None if rules is None else (game_id_of(rules), rules.name)
        self.log = log
        self.strict = strict
        self.deadlines = not strict if deadlines is None else deadlines
        self.warm_up = warm_up
        self.token = token
        self.clock = clock
        self.rules: RuleSet | None = None
        self.players = 0
        self.timeout_ms: int | None = None
        self.name: str | None = None
        self.seat = 0
        self.done = False
        self._new_hand()

    def _new_hand(self) -> None:
        n = max(self.players, 1)
        self.boards: list[list[list[int]]] = [[[], [], []] for _ in range(n)]
        self.face_down = [[0, 0, 0] for _ in range(n)]
        self.discard_counts = [0] * n
        self.discards: list[int] = []
        self.fantasyland = [0] * n
        self.dealt: list[int] = []
        self.dealt_counts = [0] * n
        self.decisions = 0

    # -- messages
    def feed(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """The replies (possibly none) to one message from the host."""
        t = msg.get("t")
        if t == "hello":
            self._hello(msg)
            return [
                {"t": "join"} if self.token is None else {"t": "join", "token": self.token}
            ]
        if t == "act":
            return [self._act(msg)]
        if t == "match-end":
            self.done = True
        elif t in ("joined", "hand-start", "event"):
            self._require_hello(msg)
            if t == "joined":
                name = msg.get("name")
                self.name = name if isinstance(name, str) else None
            elif t == "hand-start":
                optional_int(msg, "hand_no", 0, MAX_HAND_NO)
                self.seat = self._seat(msg)
                self._new_hand()
            else:
                self._event(object_field(msg, "ev"))
        return []

    def _require_hello(self, msg: dict[str, Any]) -> None:
        if not self.players:
            raise ProtocolError(f"a {msg.get('t')!s:.20} message before hello")

    def _seat(self, msg: Any) -> int:
        return int_field(msg, "seat", 0, self.players - 1)

    def _hello(self, msg: dict[str, Any]) -> None:
        try:
            int_field(msg, "proto", PROTO_VERSION, PROTO_VERSION)
        except ProtocolError as exc:
            raise ProtocolError(
                f"{exc} (this client speaks protocol {PROTO_VERSION})"
            ) from None
        game_id = text_field(msg, "game_id")
        if self.own_game is not None and game_id != self.own_game[0]:
            raise ArenaError(
                f"rules: the bot was made for {self.own_game[0]} ({self.own_game[1]}), "
                f"but the arena plays {game_id[:40]!r} (its hello): the bot leaves "
                "without joining"
            )
        try:
            self.rules = rules_for_game_id(game_id)
        except ArenaError as exc:
            self.rules = None
            self.log(f"ofc-fast bot: {exc}; playing the filler placement")
        most = MAX_SEATS if self.rules is None else self.rules.max_players
        self.players = int_field(msg, "seat_count", 2, most)
        self.timeout_ms = deadline_ms(msg, "timeout_ms")
        if self.rules is not None and hasattr(self.bot, "rules"):
            try:
                self.bot.rules = self.rules
            except AttributeError:  # pragma: no cover - a read-only attribute
                pass
            try:  # a bot that cannot play at this table (make_bots' check): now
                check_table(self.bot, self.players)
            except OfcError as exc:
                raise ArenaError(
                    f"{exc} (the arena's hello: {game_id}, {self.players} seats): the "
                    "bot leaves without joining"
                ) from None
        warm = getattr(self.bot, "warm_up", None)
        if self.warm_up and self.rules is not None and callable(warm):
            warm(self.rules, **_seats_for(warm, self.players))
        self._new_hand()

    def _event(self, ev: Any) -> None:
        kind = ev.get("event")
        if kind not in ("fantasyland", "deal", "place"):
            return  # showdown and score tell nothing a decision needs; unknown: skip
        seat = self._seat(ev)
        if kind == "fantasyland":
            fl = int_field(ev, "cards", 0, MAX_CARDS)
            if 0 < fl < sum(ROW_SIZES):
                raise ProtocolError(f"fantasyland event: 'cards' 13..17 or 0, got {fl}")
            self.fantasyland[seat] = fl
        elif kind == "deal":
            n, cards = count(ev, "count"), card_list(ev, "cards", [])
            if seat == self.seat and len(cards) != n:
                raise ProtocolError(
                    f"deal event: 'count' {n} but {len(cards)} cards for this seat"
                )
            self.dealt_counts[seat] = n
            if seat == self.seat:
                self.dealt = cards
        else:
            self._place(seat, ev)

    def _place(self, seat: int, ev: Any) -> None:
        pairs = placements(ev, "placements")
        n = count(ev, "count")
        thrown = card_list(ev, "discarded", [])
        if self.discard_counts[seat] + n > 52 or len(self.discards) + len(thrown) > 52:
            raise ProtocolError("place event: more than 52 discards in a hand")
        self.discard_counts[seat] += n
        if seat == self.seat:
            self.discards += thrown
            self.dealt = []
        placed = self.dealt_counts[seat] - n
        if pairs or placed <= 0:
            board, down = self.boards[seat], self.face_down[seat]
            for card, r in pairs:
                if len(board[r]) + down[r] >= ROW_SIZES[r]:
                    raise ProtocolError(
                        f"place event: seat {seat}'s row {r} is full ({ROW_SIZES[r]} cards)"
                    )
                board[r].append(card)
        elif placed == sum(ROW_SIZES):  # a full set, face down
            self.face_down[seat] = [
                size - len(row) for size, row in zip(ROW_SIZES, self.boards[seat])
            ]
        else:  # face-down cards in some rows: count them where there is room
            self._count_face_down(seat, placed)

    def _count_face_down(self, seat: int, placed: int) -> None:
        for r in (2, 1, 0):
            room = ROW_SIZES[r] - len(self.boards[seat][r]) - self.face_down[seat][r]
            take = max(0, min(room, placed))
            self.face_down[seat][r] += take
            placed -= take

    # -- decisions
    def observation(self, place: int, discard: int) -> dict[str, Any]:
        """The observation of the seat to act, as :meth:`Game.observation` gives it:
        the table seen so far, completed in C from the rules' schedule (what the
        seat is dealt after this, the others' rounds to come)."""
        rules = self.rules
        assert rules is not None
        seat = self.seat
        record = observation_record(
            rules,
            seat,
            self.boards,
            self.dealt,
            fantasyland=self.fantasyland,
            face_down_counts=self.face_down,
            discard_counts=self.discard_counts,
            discards=self.discards,
            error=ArenaError,
        )
        if (place, discard) != (record.n - record.k, record.k) and not record.full:
            raise ArenaError(
                f"act: place {place}, discard {discard} is not the decision the "
                f"schedule deals ({record.n - record.k}, {record.k})"
            )
        full = bool(record.full)
        free = free_slots(self.boards[seat])
        legal = None if full else legal_actions_of(len(self.dealt), record.k, free)
        return dict(
            read_observation(
                bytes(ffi.buffer(record)),
                rules,
                legal,
                carried_rules(rules),  # None: the wire protocol deals presets only
            )
        )

    def _act(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The ``action`` message answering ``act`` ``msg``."""
        now = self.clock()
        self._require_hello(msg)
        decision = object_field(msg, "decision")
        if decision.get("kind", "place") != "place":
            raise ProtocolError(
                f"act message: unknown decision kind {decision.get('kind')!r:.30}"
            )
        hand_no = optional_int(msg, "hand_no", 0, MAX_HAND_NO)
        seq = optional_int(msg, "seq", 0, MAX_HAND_NO)
        if msg.get("seat") is not None and self._seat(msg) != self.seat:
            raise ProtocolError(
                f"act message: seat {msg['seat']}, but this bot sits at {self.seat}"
            )
        place, discard = count(decision, "place"), count(decision, "discard")
        if place + discard != len(self.dealt) or place > sum(
            free_slots(self.boards[self.seat])
        ):
            raise ProtocolError(
                f"act message: place {place} and discard {discard} of the "
                f"{len(self.dealt)} cards dealt, with "
                f"{sum(free_slots(self.boards[self.seat]))} free slots"
            )
        ms = deadline_ms(msg, "deadline_ms") if "deadline_ms" in msg else self.timeout_ms
        move: Move | None = None
        if self.rules is not None:
            try:
                obs = self.observation(place, discard)
                if ms is not None and self.deadlines:
                    obs["deadline"] = now + ms / 1000 - pipe_margin(ms)
                move = self.bot.act(obs)
                if not isinstance(move, Move):  # (None: the filler, never counted)
                    raise BotError(
                        f"the bot's act returned {type(move).__name__}, not a Move"
                    )
                late = self.clock() - now
                if ms is not None and self.deadlines and late > ms / 1000:
                    self.log(
                        f"ofc-fast bot: decision {self.decisions} ({len(self.dealt)} cards) took "
                        f"{late * 1000:.0f} "
                        f"ms of a {ms} ms deadline"
                    )
            except BaseException as exc:  # any bug of the bot's but Ctrl-C
                if self.strict or not bot_crashed(exc):
                    raise
                self.log(f"ofc-fast bot: the bot failed ({exc}); playing the filler")
        if move is None:
            move = filler_move(self.dealt, place, self.boards[self.seat])
        self.decisions += 1
        reply: dict[str, Any] = {"t": "action", "action": action_of_move(move)}
        if seq is not None:  # an arena that numbers its acts: say which one this answers
            reply.update(seq=seq, seat=self.seat)
            if hand_no is not None:
                reply["hand_no"] = hand_no
        return reply


def run_stream(
    client: BotClient,
    read: Callable[[int], bytes],
    write: Callable[[bytes], Any],
    *,
    peer: str = "the host",
    hint: str = "",
) -> int:
    r"""Play until ``match-end``: ``read(n)`` returns bytes (b"" at the end),
    ``write(data)`` sends.  Returns the number of lines read; ProtocolError naming
    the line at the first one that breaks the protocol (the last line needs no
    newline: one that is no message is said to be cut off); ArenaError naming
    ``peer`` when the stream ends before ``match-end`` (``hint`` added when it ends
    before the bot is seated).

    >>> import io
    >>> from ofc_fast.bots import make_bot
    >>> host = io.BytesIO(b'{"t": "hello", "proto": 1, "game_id": "ofc-pineapple", '
    ...                   b'"seat_count": 2}\n{"t": "match-end"}\n')
    >>> sent = io.BytesIO()
    >>> run_stream(BotClient(make_bot("random")), host.read, sent.write)
    2
    >>> sent.getvalue()
    b'{"t":"join"}\n'
    >>> run_stream(BotClient(make_bot("random")), io.BytesIO(b'{"t":"hello"').read,
    ...            sent.write)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ProtocolError: host line 1: cut off by the end of the stream (no ...
    """
    splitter = LineSplitter()
    lines = 0
    while not client.done:
        data = read(65536)
        batch = splitter.feed(data) if data else [splitter.partial()]
        for line in batch:  # (at the end: the last line, which needs no newline)
            lines += 1
            if line is not None and not line.strip():
                continue
            try:
                msg = decode_host_line(line)
            except ProtocolError as exc:
                cut = "" if data else " cut off by the end of the stream (no newline):"
                raise ProtocolError(f"host line {lines}:{cut} {exc}") from None
            try:
                replies = client.feed(msg)
            except ProtocolError as exc:
                raise ProtocolError(f"host line {lines}: {exc}") from None
            for reply in replies:
                write(encode(reply))
            if client.done:
                break
        if not data and not client.done:
            raise ArenaError(
                f"{peer} closed the connection before the match ended"
                + ("" if client.name is not None else f" (before seating this bot{hint})")
            )
    return lines


def run_stdio(
    client: BotClient, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    r""":func:`run_stream` over stdin and stdout (unbuffered reads, flushed writes);
    ArenaError when either is closed (``ofc-fast bot NAME <&-``), when a read of
    standard input fails (``0> FILE``: naming it and the cause), or when standard
    input ends before ``match-end``.

    >>> import io, tempfile
    >>> from ofc_fast.bots import make_bot
    >>> with tempfile.TemporaryFile() as stdin:  # any file with a descriptor
    ...     _ = stdin.write(b'{"t": "hello", "proto": 1, "game_id": "ofc-pineapple", '
    ...                     b'"seat_count": 2}\n{"t": "match-end"}\n')
    ...     _ = stdin.seek(0)
    ...     run_stdio(BotClient(make_bot("random")), stdin, io.BytesIO())
    2
    """
    import os

    for given, streams, name in (
        (stdin, (sys.stdin, sys.__stdin__), "input"),
        (stdout, (sys.stdout, sys.__stdout__), "output"),
    ):
        # None where Python found it closed at its start (``ofc-fast bot <&-``); the
        # command line then puts /dev/null in sys.stdout, not in sys.__stdout__
        if given is None and None in streams:
            raise ArenaError(
                f"standard {name} is closed: a bot talks to the arena on standard "
                "input and output (or over TCP: --connect PORT)"
            )
    fd_in = (stdin or sys.stdin.buffer).fileno()
    out = stdout or sys.stdout.buffer

    def read(n: int) -> bytes:
        try:
            return os.read(fd_in, n)
        except OSError as exc:  # (0> FILE: open for writing only; EIO)
            raise ArenaError(f"cannot read standard input: {exc.strerror}") from None

    def write(data: bytes) -> None:
        out.write(data)
        out.flush()

    return run_stream(client, read, write, peer="the host (standard input)")


DEFAULT_SEED = 0
"""``ofc-fast bot``'s seed without ``--seed``: the same host messages then give the
same moves, run after run (a time-budgeted search also depends on the machine)."""


def play_bot(
    name: str,
    *,
    rules: str | RuleSet | None = None,
    seed: int | None = None,
    connect: int | None = None,
    time_budget: float | None = None,
    token: str | None = None,
) -> int:
    """``ofc-fast bot NAME``: a registered bot as a protocol client on stdin/stdout,
    or over TCP to ``127.0.0.1:connect`` (``TCP_NODELAY`` set: no Nagle delay on
    the one-line answers).  ``seed`` defaults to :data:`DEFAULT_SEED`;
    ``time_budget`` is the search bot's seconds per decision (the arena's deadline
    caps it); ``token``: sent in ``join`` (the arena's ``--token``).  Returns the
    exit status (0); ProtocolError when the host breaks the protocol (a last
    message cut off included), ArenaError when it cannot be reached or closes the
    stream (standard input, or the TCP connection) before ``match-end``.

    >>> play_bot("random", seed=7)  # plays on stdin/stdout until match-end  # doctest: +SKIP
    0
    >>> import socket
    >>> with socket.socket() as taken:  # a port held, never listening: no arena there
    ...     taken.bind(("127.0.0.1", 0))
    ...     play_bot("random", connect=taken.getsockname()[1])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArenaError: cannot connect to 127.0.0.1:...: ...Connection refused
    """
    from ..bots import make_bot
    from ..cli.options import named

    settings: dict[str, Any] = {}
    if time_budget is not None:
        settings["time_budget"] = time_budget
    table = None if rules is None else resolve_arena_rules(rules)  # ("": refused)

    def made(**kw: Any) -> Bot:
        return make_bot(name, table, seed=DEFAULT_SEED if seed is None else seed, **kw)

    try:
        bot = made(**settings)
    except BotError as exc:  # NAME (as the usage calls it), or no time budget taken
        named("NAME", made)  # (raises when the name is at fault)
        raise BotError(f"--time-budget: {exc}") from None
    client = BotClient(bot, warm_up=True, token=token, rules=table)
    if connect is None:
        run_stdio(client)
        return 0
    try:
        sock = socket.create_connection(("127.0.0.1", connect), timeout=30)
    except OSError as exc:
        raise ArenaError(f"cannot connect to 127.0.0.1:{connect}: {exc}") from None
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with sock:  # (a wrong --token: dropped after the join, without a word)
        try:
            run_stream(
                client,
                sock.recv,
                sock.sendall,
                peer=f"127.0.0.1:{connect}",
                hint=": a --token it does not take?",
            )
        except OSError as exc:  # (a connection reset: an arena killed mid-match)
            raise ArenaError(
                f"127.0.0.1:{connect}: the connection broke before the match ended: "
                f"{exc.strerror or exc}"
            ) from None
    return 0
