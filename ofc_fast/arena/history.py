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

import codecs
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

from ..errors import ArenaError, HistoryError, OfcError, quote, quote_path, shown_path
from ..files import open_input
from ..game import Game
from ..rules import PRESETS
from ._games import game_id_of
from ._schema import parse, problem

__all__ = ["FORMAT", "MAX_LINE_BYTES", "SCHEMA_PATH", "VERSION", "read_histories"]

FORMAT = "ofc-fast/hand-history"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("hand_history.schema.json")
MAX_LINE_BYTES = 1 << 20
"""The longest history line read (a deal of four seats in Fantasyland is under 16 KiB)."""


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
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "hand_no": hand_no,
        "deck_no": hand_no if deck_no is None else deck_no,
        "rotation": rotation,
        "game_id": _game_id(game),
        "seats": list(seats),
        "points": list(game.result().net),
        "history": game.history(),
    }
    if decisions is not None:
        rec["decisions"] = list(decisions)
    return rec


def _game_id(game: Game) -> str:
    """A history line's ``game_id``: the arena's game id of the deal's rules
    (:func:`game_id_of`), or the rules' name when they are no preset's."""
    try:
        return game_id_of(game.rules)
    except ArenaError:
        return game.rules.name


@dataclass(frozen=True)
class ImportedDeal:
    """One line of a history file, replayed."""

    line: int
    record: dict[str, Any]
    game: Game


@cache
def _schema() -> dict[str, Any]:
    return load_schema()


def check_record(record: object) -> dict[str, Any]:
    """``record`` itself when it is a history line by the schema (every field's type
    and range) with one seat name and one point total per seat of its ``history``;
    HistoryError naming the first field that is not (``field``: its path).

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", 2, seed=5)
    >>> while not g.is_over:
    ...     g.play_action(g.legal_actions()[0])
    >>> check_record(deal_record(g, 0, ["a", "b"]) | {"hand_no": "<b>"})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.HistoryError: hand_no: expected integer, got '<b>'
    >>> check_record(deal_record(g, 0, ["a", "b"]) | {"seats": []})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.HistoryError: seats: expected at least 2 items, got 0
    """
    if not isinstance(record, dict) or not _is_text(record.get("format"), FORMAT):
        whole = isinstance(record, dict) and isinstance(record.get("deals"), list)
        report = isinstance(record, dict) and {"schema_version", "bots"} <= set(record)
        raise HistoryError(
            f"not an {FORMAT} line"
            + (  # ofc-fast play --history PATH.json: one document, Game.replay() input
                "; this is a whole JSON history (ofc-fast play --history PATH.json): "
                "write it as JSON lines with a PATH ending in .jsonl"
                if whole
                else "; this is a match report (ofc-fast arena --json), not a hand "
                "history (--history)"
                if report
                else ""
            ),
            "format",
        )
    found = problem(record, _schema())
    if found:
        raise HistoryError(found, found.split(":", 1)[0])
    assert isinstance(record, dict)  # the schema says so
    players = record["history"]["players"]
    for key in ("seats", "points"):
        if len(record[key]) != players:
            raise HistoryError(
                f"{key}: {len(record[key])} entries for {players} players", key
            )
    seats = [
        (f"decisions[{i}].seat", d["seat"])
        for i, d in enumerate(record.get("decisions", []))
    ]
    for field, seat in [("rotation", record.get("rotation", 0)), *seats]:
        if seat >= players:  # (a seat, a rotation: 0 to players - 1)
            what = field.rsplit(".", 1)[-1]
            raise HistoryError(
                f"{field}: {what} {seat} of a deal of {players} players ({what}s 0 to "
                f"{players - 1})",
                field,
            )
    return record


def import_deal(
    record: object, line: int = 0, *, previous: ImportedDeal | None = None
) -> ImportedDeal:
    """One history line checked (:func:`check_record`) and replayed
    (:meth:`Game.replay`, every recorded field compared), its ``points`` the replay's;
    HistoryError naming the problem otherwise.  ``previous``: the deal before it in
    the file, whose rule set is reused when the line records the same rules."""
    rec = check_record(record)
    history = rec["history"]
    if previous is not None and _same_rules(history["rules"], previous):
        history = {**history, "rules": previous.game.rules}
    try:
        game = Game.replay(history)
    except OfcError as exc:
        raise HistoryError(f"history: {exc}", "history") from None
    if rec["game_id"] != _game_id(game) and not _earlier_game_id(rec, game):
        raise HistoryError(
            f"game_id: {quote(rec['game_id'])} is not that of the deal's rules, "
            f"{_game_id(game)!r}",
            "game_id",
        )
    if list(game.result().net) != rec["points"]:
        raise HistoryError(
            f"points: {quote(rec['points'])} are not the replay's {game.result().net}",
            "points",
        )
    return ImportedDeal(line, rec, game)


def _earlier_game_id(rec: dict[str, Any], game: Game) -> bool:
    """Whether ``rec``'s ``game_id`` is what an earlier version wrote for its rules:
    their name, for rules not written exactly as the preset of that name (earlier
    versions named a preset renamed or described anew, or with Fantasyland entries
    written another way, ``"qq"`` or ``KK`` before ``QQ``, by its name; such rules
    are a preset's now, and :func:`_game_id` gives its game id)."""
    name = game.rules.name
    recorded = rec["history"]["rules"]
    if rec["game_id"] != name or not isinstance(recorded, dict):
        return False
    preset = PRESETS.get(name)
    return preset is None or recorded != preset.to_dict()


def _is_text(value: object, text: str) -> bool:
    return isinstance(value, str) and value == text


def _same_rules(rules: object, previous: ImportedDeal) -> bool:
    """Whether ``rules`` (checked by the schema: a dict or a text) are those the
    previous deal recorded, whatever they hold (False when they cannot be compared)."""
    try:
        return bool(rules == previous.record["history"]["rules"])
    except (TypeError, ValueError, RecursionError):
        return False


def read_histories(source: str | Path | IO[str] | IO[bytes]) -> Iterator[ImportedDeal]:
    r"""Every deal of a history file (a path, or an open text or binary file), read one
    line at a time, checked and replayed (:func:`import_deal`); HistoryError naming the
    file, the line and the problem of the first bad deal: a line that is not UTF-8, not
    JSON (a last line cut off, with no newline, is said to be), nested too deep, longer
    than :data:`MAX_LINE_BYTES`, or a bad deal; the deals before it are yielded first.

    >>> import io
    >>> from ofc_fast.game import Game, play_out
    >>> from ofc_fast.bots import make_bots
    >>> g = Game("pineapple", 2, seed=3)
    >>> _ = play_out(g, make_bots("random", 2))
    >>> lines = io.StringIO(json.dumps(deal_record(g, 0, ["a", "b"])) + "\n")
    >>> [(d.line, d.record["seats"], d.game.result().net == g.result().net)
    ...  for d in read_histories(lines)]
    [(1, ['a', 'b'], True)]
    >>> next(read_histories(io.StringIO("not json\n")))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.HistoryError: line 1: ...
    """
    if isinstance(source, (str, Path)):
        try:  # (a FIFO: waited on at most FIFO_WAIT seconds; closed also when abandoned)
            with open_input(source) as f:
                yield from _deals(f, f"{shown_path(source)}, ")
        except OSError as exc:  # opening it, or a read once open (EIO: a failing disk)
            raise HistoryError(
                f"cannot read {quote_path(source)}: {exc.strerror}", ""
            ) from None
        return
    yield from _deals(source, "")


def _deals(f: IO[str] | IO[bytes], where: str) -> Iterator[ImportedDeal]:
    i = 0
    deal: ImportedDeal | None = None
    while True:
        text = f.readline(MAX_LINE_BYTES + 1)
        if not text:
            return
        i += 1
        if len(text) <= MAX_LINE_BYTES and not text.strip():
            continue  # a blank line (a line "null" is no deal: refused)
        try:
            deal = _in_order(import_deal(_parse(text), i, previous=deal), deal)
        except HistoryError as exc:
            document = i == 1 and text.strip() in ("{", b"{")  # (JSON with an indent)
            hint = (
                "; a JSON document over several lines, a match report (ofc-fast arena "
                "--json)? A hand history (--history) holds one deal a line"
                if document
                else ""
            )
            raise HistoryError(f"{where}line {i}: {exc}{hint}", exc.field) from None
        yield deal


def _in_order(deal: ImportedDeal, previous: ImportedDeal | None) -> ImportedDeal:
    """``deal``, a line of a history file after ``previous``, when its ``hand_no`` is
    above the previous line's (a match's hands follow in order), or starts another
    match (hand 0, not the previous line again: histories appended to one another);
    else HistoryError naming the line of the hand it repeats or follows (one file
    holds no match id: a hand out of order is a line written twice, or moved)."""
    if previous is None:
        return deal
    hand, before = deal.record["hand_no"], previous.record["hand_no"]
    if hand > before or (hand == 0 and deal.record != previous.record):
        return deal
    said = "again" if hand == before else f"after hand {before}"
    raise HistoryError(
        f"hand_no: hand {hand} {said} (line {previous.line}): a match's hands follow "
        "in order (a line written twice?); another match appended starts at hand 0",
        "hand_no",
    )


def _parse(line: str | bytes) -> object:
    """The JSON value of one line; a line of UTF-8 that does not parse (or is too
    long) is said to hold lines ending in a carriage return alone where it holds one
    before its end, else, the last with no newline, to be cut off (a run killed while
    writing it)."""
    if len(line) > MAX_LINE_BYTES:
        _refuse_cr_alone(_text(line), f"longer than {MAX_LINE_BYTES} bytes", "")
        raise HistoryError(f"longer than {MAX_LINE_BYTES} bytes", "")
    try:
        return parse(line, HistoryError)
    except HistoryError as exc:
        text = _text(line)
        if text is None:
            raise  # bytes not UTF-8 (a gzip file): that, whatever CR or LF they hold
        _refuse_cr_alone(text, str(exc), exc.field)
        if text[-1:] == "\n":
            raise
        raise HistoryError(
            "cut off: the last line ends with no newline (a run killed while "
            f"writing it?) and is {exc}",
            exc.field,
        ) from None


def _text(line: str | bytes) -> str | None:
    """``line`` as text, or None for bytes that are not UTF-8 but for a character
    their end may cut (a line a killed run left unfinished, or one cut at
    :data:`MAX_LINE_BYTES`)."""
    if isinstance(line, str):
        return line
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(line, final=False)
    except UnicodeDecodeError:
        return None


def _refuse_cr_alone(text: str | None, problem: str, field: str) -> None:
    """A HistoryError saying the lines end in a CR alone, where ``text`` holds a CR
    before its end (JSON's blanks: a CR inside may be one), else nothing (nor for no
    text: bytes of something else, a gzip file's, may hold CR bytes)."""
    if text is not None and "\r" in text.rstrip("\r\n"):
        raise HistoryError(
            "its lines end in a carriage return alone (CR), not a newline (LF or "
            f"CRLF): {problem}",
            field,
        )
