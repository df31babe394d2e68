"""The bot side of the protocol: :class:`BotClient` keeps the table a seat has seen
from the event stream, rebuilds the observation our bots read, and answers ``act``
with the bot's move; :func:`run_stream` plays over a pair of byte streams (stdio or a
TCP connection).

>>> from ofc_fast.bots import make_bot
>>> c = BotClient(make_bot("random", seed=1))
>>> c.feed({"t": "hello", "proto": 1, "game_id": "ofc-pineapple", "seat_count": 2,
...         "timeout_ms": 5000})
[{'t': 'join'}]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from .._native import ffi
from ..board import ROW_SIZES, free_slots
from ..bots.base import Bot
from ..errors import ArenaError, OfcError
from ..game import Move
from ..game.moves import legal_actions_of
from ..game.observation import observation_record, read_observation
from ..rules import RuleSet
from .games import rules_for_game_id
from .protocol import (
    ROW_NAMES,
    LineSplitter,
    action_of_move,
    card_id,
    decode,
    encode,
    filler_move,
)

__all__ = ["BotClient", "run_stream"]

Log = Callable[[str], None]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class BotClient:
    """One bot's end of the protocol, fed one arena message at a time.

    :meth:`feed` takes a decoded message and returns the messages to send back.
    Unknown message types and events are ignored.  When the bot raises, the client
    logs and answers with the filler placement (a protocol client must always
    answer); with ``strict`` the exception propagates instead (the arena's in-process
    bots: it counts the crash as a fault).
    """

    def __init__(self, bot: Bot, log: Log = _stderr, strict: bool = False) -> None:
        self.bot = bot
        self.log = log
        self.strict = strict
        self.rules: RuleSet | None = None
        self.players = 0
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
            return [{"t": "join"}]
        if t == "joined":
            self.name = msg.get("name")
        elif t == "hand-start":
            self.seat = int(msg["seat"])
            self._new_hand()
        elif t == "event" and isinstance(msg.get("ev"), dict):
            self._event(msg["ev"])
        elif t == "act":
            return [{"t": "action", "action": self._act(msg)}]
        elif t == "match-end":
            self.done = True
        return []

    def _hello(self, msg: dict[str, Any]) -> None:
        self.players = int(msg.get("seat_count") or 2)
        try:
            self.rules = rules_for_game_id(str(msg.get("game_id")))
        except ArenaError as exc:
            self.rules = None
            self.log(f"ofc-fast bot: {exc}; playing the filler placement")
        if self.rules is not None and hasattr(self.bot, "rules"):
            try:
                self.bot.rules = self.rules
            except AttributeError:  # pragma: no cover - a read-only attribute
                pass
        self._new_hand()

    def _event(self, ev: dict[str, Any]) -> None:
        kind, seat = ev.get("event"), ev.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return
        if kind == "fantasyland":
            self.fantasyland[seat] = int(ev.get("cards") or 0)
        elif kind == "deal":
            self.dealt_counts[seat] = int(ev.get("count") or 0)
            if seat == self.seat:
                self.dealt = [card_id(c) for c in ev.get("cards", [])]
        elif kind == "place":
            self._place(seat, ev)

    def _place(self, seat: int, ev: dict[str, Any]) -> None:
        placements = ev.get("placements") or []
        count = int(ev.get("count") or 0)
        self.discard_counts[seat] += count
        if seat == self.seat:
            self.discards += [card_id(c) for c in ev.get("discarded") or []]
            self.dealt = []
        placed = self.dealt_counts[seat] - count
        if placements or placed <= 0:
            for p in placements:
                self.boards[seat][ROW_NAMES.index(p["row"])].append(card_id(p["card"]))
        elif placed == sum(ROW_SIZES):
            self.face_down[seat] = list(ROW_SIZES)  # a full set, face down
        else:  # face-down cards in some rows: count them where there is room
            self._count_face_down(seat, placed)

    def _count_face_down(self, seat: int, placed: int) -> None:
        for r in (2, 1, 0):
            room = ROW_SIZES[r] - len(self.boards[seat][r]) - self.face_down[seat][r]
            take = min(room, placed)
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
                rules.name,
                rules.game.value,
                rules.lowball is not None,
                legal,
            )
        )

    def _act(self, msg: dict[str, Any]) -> dict[str, Any]:
        decision = msg.get("decision") or {}
        place, discard = int(decision.get("place", 0)), int(decision.get("discard", 0))
        move: Move | None = None
        if self.rules is not None:
            try:
                move = self.bot.act(self.observation(place, discard))
            except (OfcError, ValueError, TypeError, IndexError, KeyError) as exc:
                if self.strict:
                    raise
                self.log(f"ofc-fast bot: the bot failed ({exc}); playing the filler")
        if move is None:
            move = filler_move(self.dealt, place, self.boards[self.seat])
        self.decisions += 1
        return action_of_move(move)


def run_stream(
    client: BotClient,
    read: Callable[[int], bytes],
    write: Callable[[bytes], Any],
    log: Log = _stderr,
) -> int:
    """Play until ``match-end`` or the end of the stream: ``read(n)`` returns bytes
    (b"" at the end), ``write(data)`` sends.  Returns the number of lines read."""
    splitter = LineSplitter()
    lines = 0
    while not client.done:
        data = read(65536)
        if not data:
            break
        for line in splitter.feed(data):
            lines += 1
            if line is None:
                log("ofc-fast bot: skipped an over-long line")
                continue
            if not line.strip():
                continue
            try:
                msg = decode(line)
            except OfcError as exc:
                log(f"ofc-fast bot: {exc}")
                continue
            for reply in client.feed(msg):
                write(encode(reply))
            if client.done:
                break
    return lines


def run_stdio(
    client: BotClient, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """:func:`run_stream` over stdin and stdout (unbuffered reads, flushed writes)."""
    import os

    fd_in = (stdin or sys.stdin.buffer).fileno()
    out = stdout or sys.stdout.buffer

    def write(data: bytes) -> None:
        out.write(data)
        out.flush()

    return run_stream(client, lambda n: os.read(fd_in, n), write)
