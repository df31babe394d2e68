"""Fuzz the bot client's input stream: what ``ofc-fast bot`` reads from a host
(ofc_fast.arena.client.run_stream over a BotClient with a real bot).

Input: byte 0 picks the mode, byte 1 the read size.  Even mode: the rest is the byte
stream itself (the seed corpus holds real sessions of our arena: every game id, 2-4
seats, Fantasyland, face-down classic sets), cut into reads of that size.  Odd mode:
a stream of messages built from the bytes: the protocol's message types and events
with fields that are right, off by a little, of the wrong JSON type, huge, or deeply
nested.

Contract: run_stream returns, raises ProtocolError, or raises ArenaError when the
stream ends before ``match-end``, nothing else (no traceback of
another kind, no RecursionError, no huge allocation: the client's tables stay within
the protocol's bounds); every line the client writes is one protocol message, ``join``
once per ``hello`` and an ``action`` per ``act``, and every action is legal for the
decision it answers: exactly the asked placements and discards, the just-dealt cards
each once, rows within their sizes.
"""

from __future__ import annotations

import json
from typing import Any

import atheris
from _common import main

from ofc_fast.arena._protocol import ActionFault, decode, parse_action
from ofc_fast.arena.client import BotClient, run_stream
from ofc_fast.bots import make_bot
from ofc_fast.errors import ArenaError, ProtocolError

ROW_SIZES = (3, 5, 5)
CARDS = ["As", "Kd", "2c", "Th", "9s", "7h", "Qc", "3d", "5s", "Jh", "4c", "8d", "6h"]
TYPES = ["hello", "joined", "hand-start", "event", "act", "hand-end", "match-end", "x"]
EVENTS = ["deal", "place", "fantasyland", "showdown", "score", "weather"]
GAMES = ["ofc", "ofc-pineapple", "ofc-progressive", "ofc-27", "ofcfast-classic-1-6", "?"]


def json_value(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """Any JSON value: numbers of every size, text, cards, lists, objects, nesting."""
    kind = fdp.ConsumeIntInRange(0, 9 if depth < 3 else 5)
    if kind == 0:
        return fdp.ConsumeIntInRange(-3, 20)
    if kind == 1:
        return fdp.PickValueInList([10**7, 2**63, -(2**70), 10**400, True, None])
    if kind == 2:
        return fdp.PickValueInList([1.5, 1e300, -0.0, 13.0])
    if kind == 3:
        return fdp.PickValueInList(CARDS + ["", "Zz", "10h", "top", "middle", "bottom"])
    if kind == 4:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 12))
    if kind == 5:
        return [fdp.PickValueInList(CARDS) for _ in range(fdp.ConsumeIntInRange(0, 20))]
    if kind == 6:
        return [json_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 5))]
    if kind == 7:
        keys = ["card", "row", "seat", "cards", "count", "place", "discard", "event"]
        return {
            fdp.PickValueInList(keys): json_value(fdp, depth + 1)
            for _ in range(fdp.ConsumeIntInRange(0, 4))
        }
    if kind == 8:
        nested: Any = []
        for _ in range(fdp.ConsumeIntInRange(1, 400)):
            nested = [nested]
        return nested
    return [{"card": fdp.PickValueInList(CARDS), "row": "bottom"}]


def field(fdp: atheris.FuzzedDataProvider, good: Any) -> Any:
    """Mostly the right value, sometimes any JSON value."""
    return good if fdp.ConsumeIntInRange(0, 5) else json_value(fdp)


def message(fdp: atheris.FuzzedDataProvider, seats: int) -> dict[str, Any]:
    t = fdp.PickValueInList(TYPES)
    seat = field(fdp, fdp.ConsumeIntInRange(0, seats - 1))
    cards = fdp.ConsumeIntInRange(0, 5)
    dealt = CARDS[: fdp.ConsumeIntInRange(0, 6)]
    msg: dict[str, Any] = {"t": t}
    if t == "hello":
        msg.update(
            proto=field(fdp, 1),
            game_id=field(fdp, fdp.PickValueInList(GAMES)),
            seat_count=field(fdp, seats),
            timeout_ms=field(fdp, fdp.PickValueInList([None, 5000, 1])),
        )
    elif t == "hand-start":
        msg.update(hand_no=field(fdp, 0), seat=seat)
    elif t == "event":
        ev = fdp.PickValueInList(EVENTS)
        body = {"event": ev, "seat": seat, "count": field(fdp, cards)}
        if ev == "deal":
            body["cards"] = field(fdp, dealt)
        elif ev == "place":
            body["placements"] = field(
                fdp,
                [{"card": c, "row": fdp.PickValueInList(["top", "bottom"])} for c in dealt],
            )
            body["discarded"] = field(fdp, [])
        elif ev == "fantasyland":
            body["cards"] = field(fdp, 14)
        msg["ev"] = field(fdp, body)
    elif t == "act":
        msg.update(
            seat=seat,
            decision=field(
                fdp, {"kind": "place", "place": field(fdp, 2), "discard": field(fdp, 1)}
            ),
            deadline_ms=field(fdp, 5000),
        )
    if fdp.ConsumeIntInRange(0, 7) == 0:
        msg[fdp.ConsumeUnicodeNoSurrogates(4)] = json_value(fdp)
    return msg


def structured_stream(fdp: atheris.FuzzedDataProvider) -> bytes:
    seats = fdp.ConsumeIntInRange(2, 4)
    lines = []
    for _ in range(fdp.ConsumeIntInRange(1, 40)):
        try:
            lines.append(json.dumps(message(fdp, seats)).encode())
        except RecursionError:  # (the fuzzer's own nesting, over json.dumps' limit)
            lines.append(b"[" * 5000 + b"]" * 5000)
    return b"\n".join(lines) + b"\n"


class Checked(BotClient):
    """A BotClient whose every answer is checked against the decision it answers,
    and whose tables are checked against the protocol's bounds after every message."""

    def feed(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        dealt = list(self.dealt)
        board = [list(r) for r in self.boards[self.seat]] if self.players else None
        out = super().feed(msg)
        if msg["t"] == "hello":
            assert out == [{"t": "join"}]
        elif msg["t"] == "act":
            (reply,) = out
            d = msg["decision"]
            try:
                move = parse_action(reply, dealt, d["place"], d["discard"])
            except ActionFault as exc:  # pragma: no cover - a finding
                raise AssertionError(f"illegal answer {reply} to {msg}: {exc}") from None
            assert board is not None
            for r, cards in enumerate(move.rows()):
                assert len(board[r]) + len(cards) <= ROW_SIZES[r], (board, reply)
        else:
            assert out == []
        assert 0 <= self.players <= 4 and len(self.boards) <= 4
        assert all(len(row) <= ROW_SIZES[r] for b in self.boards for r, row in enumerate(b))
        assert len(self.discards) <= 52 and len(self.dealt) <= 17
        return out


def test_one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    if data[0] % 2 == 0:
        stream = data[2:]
    else:
        stream = structured_stream(atheris.FuzzedDataProvider(data[2:]))
    size = 1 + data[1] * 64
    chunks = [stream[i : i + size] for i in range(0, len(stream), size)]
    chunks.reverse()
    written: list[bytes] = []
    bot = make_bot("heuristic" if data[0] % 4 == 0 else "random", seed=0)
    client = Checked(bot, log=lambda _: None)
    try:
        run_stream(client, lambda n: chunks.pop() if chunks else b"", written.append)
    except ProtocolError:
        pass
    except ArenaError as exc:  # the stream ended before match-end
        assert "before the match ended" in str(exc), exc
    for line in written:
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert decode(line)["t"] in ("join", "action")


if __name__ == "__main__":
    main(test_one_input)
