"""``POST /v1/replay``: a hand-history file (``ofc-fast play --history``, ``arena
--history``, ``selfplay``: one JSON line per deal) as frames to step through, every
deal replayed and checked by :meth:`Game.replay`.

>>> import json
>>> from ofc_fast.arena.history import deal_record
>>> from ofc_fast.game import Game
>>> g = Game("pineapple", 2, seed=5)
>>> while not g.is_over:
...     g.play_action(g.legal_actions()[0])
>>> out = replay({"text": json.dumps(deal_record(g, 0, ["a", "b"]))})
>>> len(out["deals"][0]["frames"]) == len(g.moves) + 1
True
"""

from __future__ import annotations

import io
from typing import Any

from ..arena.history import read_histories
from ..cards import cards_str
from ..errors import cut_text
from ..game import Game
from ._config import ServeConfig
from ._fields import get_str
from ._problems import ApiError, at_field

__all__ = ["MAX_DEALS", "replay"]

MAX_DEALS = 200
"""Deals of one replay request (a longer file: its first MAX_DEALS deals)."""
_DEFAULT = ServeConfig()


def _boards(g: Game) -> list[list[str]]:
    return [[cards_str(row) for row in b.rows] for b in g.boards]


def _frames(final: Game, history: dict[str, Any]) -> list[dict[str, Any]]:
    g = Game.replay({**history, "moves": [], "result": None})
    frames: list[dict[str, Any]] = [
        {"boards": _boards(g), "seat": None, "dealt": "", "move": None}
    ]
    for move in final.moves:
        seat, dealt = g.to_act, cards_str(g.dealt)
        g.play(move)
        frames.append(
            {"boards": _boards(g), "seat": seat, "dealt": dealt, "move": str(move)}
        )
    return frames


def replay(body: dict[str, Any], config: ServeConfig = _DEFAULT) -> dict[str, Any]:
    """Every deal of ``text`` (the file's contents): seats, the frames (all boards
    after each move, the seat that moved, its cards and its move) and the result;
    ``truncated``: the file holds more than the MAX_DEALS deals returned."""
    text = get_str(body, "text", max_len=config.max_body)
    deals = []
    source = io.StringIO(text)
    with at_field("text"):
        for d in read_histories(source):
            g, rec = d.game, d.record
            r = g.result()
            seats = [cut_text(str(s), 40) for s in rec.get("seats", [])]
            deals.append(
                {
                    "line": d.line,
                    "hand_no": rec.get("hand_no"),
                    "seats": seats[: g.players],
                    "rules": g.rules.name,
                    "players": g.players,
                    "fantasyland": list(g.fantasyland),
                    "frames": _frames(g, rec["history"]),
                    "result": {**r.summary(), "boards": _boards(g)},
                }
            )
            if len(deals) >= MAX_DEALS:
                break
    if not deals:
        raise ApiError(422, "text", "no deal in the file", error="HistoryError")
    # the reader stopped after the last deal it returned: is there more than blank lines?
    truncated = len(deals) >= MAX_DEALS and bool(source.read().strip())
    return {"deals": deals, "truncated": truncated}
