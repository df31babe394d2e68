r"""Hand histories: one JSON line per deal (``hand_history.schema.json`` in this
package), written by ``ofc-fast arena --history`` and ``ofc-fast play --history``;
importing a file replays every deal through :meth:`Game.replay`.

>>> import io
>>> from ofc_fast.game import Game
>>> g = Game("pineapple", 2, seed=5)
>>> while not g.is_over:
...     g.play_action(g.legal_actions()[0])
>>> buf = io.StringIO(json.dumps(deal_record(g, 0, ["a", "b"])) + "\n")
>>> [d.game == g for d in read_histories(buf)]
[True]
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import ArenaError, HistoryError, OfcError
from ..game import Game
from .games import game_id_of

__all__ = [
    "FORMAT",
    "SCHEMA_PATH",
    "VERSION",
    "ImportedDeal",
    "deal_record",
    "load_schema",
    "read_histories",
]

FORMAT = "ofc-fast/hand-history"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("hand_history.schema.json")


def load_schema() -> dict[str, Any]:
    """The JSON Schema of one line."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def deal_record(
    game: Game,
    hand_no: int,
    seats: Sequence[str],
    *,
    deck_no: int | None = None,
    rotation: int = 0,
    decisions: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The history line of a finished deal."""
    try:
        gid = game_id_of(game.rules)
    except ArenaError:
        gid = game.rules.name
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "hand_no": hand_no,
        "deck_no": hand_no if deck_no is None else deck_no,
        "rotation": rotation,
        "game_id": gid,
        "seats": list(seats),
        "points": list(game.result().net),
        "history": game.history(),
    }
    if decisions is not None:
        rec["decisions"] = list(decisions)
    return rec


@dataclass(frozen=True)
class ImportedDeal:
    """One line of a history file, replayed."""

    line: int
    record: dict[str, Any]
    game: Game


def read_histories(source: str | Path | IO[str]) -> Iterator[ImportedDeal]:
    """Every deal of a history file (a path or an open text file), rebuilt with
    :meth:`Game.replay`; HistoryError naming the line of the first bad deal."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as f:
            yield from read_histories(f)
        return
    for i, text in enumerate(source, 1):
        if not text.strip():
            continue
        try:
            rec = json.loads(text)
        except ValueError:
            raise HistoryError(f"line {i}: not JSON", f"line {i}") from None
        if not isinstance(rec, dict) or rec.get("format") != FORMAT:
            raise HistoryError(f"line {i}: not an {FORMAT} line", f"line {i}")
        if rec.get("version") != VERSION:
            raise HistoryError(
                f"line {i}: unknown version {str(rec.get('version'))[:20]}", f"line {i}"
            )
        try:
            game = Game.replay(rec["history"])
        except KeyError:
            raise HistoryError(f"line {i}: no 'history'", f"line {i}") from None
        except OfcError as exc:
            raise HistoryError(f"line {i}: {exc}", f"line {i}") from None
        if list(game.result().net) != rec.get("points"):
            raise HistoryError(
                f"line {i}: points {str(rec.get('points'))[:40]} are not "
                f"the replay's {game.result().net}",
                f"line {i}",
            )
        yield ImportedDeal(i, rec, game)
