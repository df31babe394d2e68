"""The scored end of a deal: :class:`GameResult`, read from the engine's
``ofc_game_result`` (nets from the C settlement, fouls, royalties, Fantasyland)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .._native import ffi, lib, status_error
from ..board import Board
from ..errors import GameError
from ..rules.model import NATURAL_NAMES
from ..scoring.settlement import Settlement, settlement_of

if TYPE_CHECKING:
    from .state import Game

__all__ = ["GameResult"]

_NET, _FOUL, _ROYALTY, _FL_NEXT, _SETTLEMENT = (
    ffi.offsetof("ofc_game_result", name)
    for name in ("net", "foul", "royalty", "fl_next", "settlement")
)
_SURRENDERED = ffi.offsetof("ofc_game", "surrendered")
_DECLARED = ffi.offsetof("ofc_game", "declared")


@dataclass(frozen=True)
class GameResult:
    """The scored end of a deal.

    ``net`` (per seat, sums to zero) comes from the table settlement (the same as
    :func:`ofc_fast.settle` of the final boards); ``fantasyland`` is the number of
    cards each seat gets in Fantasyland next deal (0 = none): the entry rule, or the
    stay rule for the seats that played this deal in Fantasyland.  ``settlement`` (the
    itemised transfers) is read from the engine's output on first access.  Results
    compare by value (``==``) and are not hashable: their per-seat fields are lists.

    >>> from ofc_fast import Game
    >>> g = Game("pineapple", players=2, seed=7)
    >>> while not g.is_over:
    ...     _ = g.play(g.legal_moves()[0])
    >>> g.result().net, g.result().fouls
    ([16, -16], [False, True])
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
    _raw: Any = field(default=None, repr=False, compare=False)
    _rules: Any = field(default=None, repr=False, compare=False)
    _stacks: list[int] | None = field(default=None, repr=False, compare=False)

    __hash__ = None  # type: ignore[assignment]  # its lists: frozen, yet unhashable

    @cached_property
    def settlement(self) -> Settlement:
        """The full settlement: nets, itemised transfers, the scored pairs, stacks."""
        return self._raw.read(self)  # type: ignore[no-any-return]

    def __getstate__(self) -> dict[str, Any]:
        """Pickling and ``copy.deepcopy``: the fields with the settlement read, which
        stands in for the engine's output it is read from (C data, which does not
        pickle), also in a ``dataclasses.replace`` of the copy."""
        state = self.__dict__.copy()
        state["settlement"] = self.settlement
        state["_raw"] = EngineOutput(None, self.settlement)
        return state

    def summary(self) -> dict[str, Any]:
        """The per-seat outcome as plain lists: ``net``, ``fouls``, ``royalties``,
        ``fantasyland`` (the part every record of a result shares: :meth:`to_dict`,
        a history's ``result``, an observation's ``result``)."""
        return {
            "net": list(self.net),
            "fouls": list(self.fouls),
            "royalties": [list(r) for r in self.royalties],
            "fantasyland": list(self.fantasyland),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-able summary (boards as text)."""
        d: dict[str, Any] = {
            **self.summary(),
            "boards": [str(b) for b in self.boards],
            "button": self.button,
            "in_fantasyland": list(self.in_fantasyland),
        }
        if self.surrendered:
            d["surrendered"] = list(self.surrendered)
        if self.declared:
            d["declared"] = {str(k): v for k, v in self.declared.items()}
        d["items"] = [item.to_dict() for item in self.settlement.items]
        return d


class EngineOutput:
    """Where a result reads its settlement: the engine's ``ofc_game_result`` of the deal
    (``c``), shared read-only by the game's result and its copies, or, in a pickled
    result's copy, the settlement read from it (``settled``).  ``copy.deepcopy`` of it
    is itself (C data does not copy): ``dataclasses.asdict`` and ``astuple`` of a result
    deep-copy every field."""

    __slots__ = ("c", "settled")

    def __init__(self, c: Any, settled: Settlement | None = None) -> None:
        self.c = c
        self.settled = settled

    def read(self, result: GameResult) -> Settlement:
        """The settlement of ``result`` (one of its own: a copy of ``settled``)."""
        if self.c is None:
            return copy.deepcopy(self.settled)  # type: ignore[return-value]
        n = len(result.net)
        return settlement_of(self.c.settlement, result._rules, n, result._stacks)

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineOutput:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (EngineOutput, (None, self.settled))


def _result(fields: dict[str, Any]) -> GameResult:
    """A GameResult holding ``fields`` (every field, in the class's order), built
    without the dataclass's ``__init__``, whose ``object.__setattr__`` per field of a
    frozen dataclass was a fifth of settling a deal: the game's own result and each
    copy are made here."""
    result = object.__new__(GameResult)
    result.__dict__.update(fields)  # (directly: a frozen dataclass refuses setattr)
    return result


def result_copy(result: GameResult) -> GameResult:
    """A copy of ``result`` whose lists and dict are its own (a game keeps its result
    and hands out copies, so that a caller editing one changes nothing of the game's);
    its settlement is read again from the same engine output on first access.  Built
    field by field, not with ``dataclasses.replace`` (which runs ``__init__`` and was
    a tenth of a random-bot deal's time): every deal of a match reads it twice."""
    fields = result.__dict__.copy()
    fields.pop("settlement", None)  # the cached_property's value: read again
    fields["net"] = result.net[:]
    fields["fouls"] = result.fouls[:]
    fields["royalties"] = result.royalties[:]
    fields["fantasyland"] = result.fantasyland[:]
    fields["declared"] = result.declared.copy()
    if result._stacks is not None:
        fields["_stacks"] = result._stacks[:]
    return _result(fields)


def result_of(game: Game, r: Any, g: Any) -> GameResult:
    """Settle a finished game through ``ofc_game_result_get``."""
    out = ffi.new("ofc_game_result *")
    stacks = (
        ffi.new("int32_t[4]", list(game.stacks)) if game.stacks is not None else ffi.NULL
    )
    status = lib.ofc_game_result_get(r, g, stacks, lib.OFC_SETTLE_ITEMS, out)
    if status != 0:
        raise status_error(status, "the deal could not be settled", GameError)
    n = game.players
    state = bytes(ffi.buffer(g, _DECLARED + n))  # read at once, not field by field
    given = state[_DECLARED:]  # int8: -1 (255 here) when none
    declared = (
        {s: NATURAL_NAMES[d] for s, d in enumerate(given) if d < 128}
        if min(given) < 128
        else {}
    )
    surrender = state[_SURRENDERED]
    surrendered = tuple(s for s in range(n) if surrender >> s & 1) if surrender else ()
    raw = bytes(ffi.buffer(out, _SETTLEMENT))
    royal = iter(memoryview(raw[_ROYALTY:_FL_NEXT]).cast("h"))
    return _result(
        {
            "net": list(memoryview(raw[_NET:_FOUL]).cast("i")[:n]),
            "fouls": list(map(bool, raw[_FOUL : _FOUL + n])),
            "royalties": list(zip(royal, royal, royal))[:n],  # front, middle, back
            "fantasyland": list(raw[_FL_NEXT : _FL_NEXT + n]),
            "boards": game.boards,
            "button": game.button,
            "in_fantasyland": game.fantasyland,
            "surrendered": surrendered,
            "declared": declared,
            "_raw": EngineOutput(out),
            "_rules": game.rules,
            "_stacks": list(game.stacks) if game.stacks is not None else None,
        }
    )
