"""The scored end of a deal: :class:`GameResult`, read from the engine's
``ofc_game_result`` (nets from the C settlement, fouls, royalties, Fantasyland)."""

from __future__ import annotations

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

_OFF = {
    name: ffi.offsetof("ofc_game_result", name)
    for name in ("net", "foul", "royalty", "fl_next", "settlement")
}


@dataclass(frozen=True)
class GameResult:
    """The scored end of a deal.

    ``net`` (per seat, sums to zero) comes from the table settlement (the same as
    :func:`ofc_fast.settle` of the final boards); ``fantasyland`` is the number of
    cards each seat gets in Fantasyland next deal (0 = none): the entry rule, or the
    stay rule for the seats that played this deal in Fantasyland.  ``settlement`` (the
    itemised transfers) is read from the engine's output on first access.

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

    @cached_property
    def settlement(self) -> Settlement:
        """The full settlement: nets, itemised transfers, the scored pairs, stacks."""
        return settlement_of(self._raw.settlement, self._rules, len(self.net), self._stacks)

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


def result_copy(result: GameResult) -> GameResult:
    """A copy of ``result`` whose lists and dict are its own (a game keeps its result
    and hands out copies, so that a caller editing one changes nothing of the game's);
    its settlement is read again from the same engine output on first access.  Built
    field by field, not with ``dataclasses.replace`` (which runs ``__init__`` and was
    a tenth of a random-bot deal's time): every deal of a match reads it twice."""
    copy = object.__new__(GameResult)
    fields = copy.__dict__  # (written directly: a frozen dataclass refuses setattr)
    fields.update(result.__dict__)
    fields.pop("settlement", None)  # the cached_property's value: read again
    fields["net"] = result.net[:]
    fields["fouls"] = result.fouls[:]
    fields["royalties"] = result.royalties[:]
    fields["fantasyland"] = result.fantasyland[:]
    fields["declared"] = result.declared.copy()
    if result._stacks is not None:
        fields["_stacks"] = result._stacks[:]
    return copy


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
    declared = {s: NATURAL_NAMES[g.declared[s]] for s in range(n) if g.declared[s] >= 0}
    surrendered = tuple(s for s in range(n) if g.surrendered >> s & 1)
    raw = bytes(ffi.buffer(out, _OFF["settlement"]))
    net = list(memoryview(raw[_OFF["net"] : _OFF["foul"]]).cast("i")[:n])
    royal = list(memoryview(raw[_OFF["royalty"] : _OFF["fl_next"]]).cast("h"))
    return GameResult(
        net=net,
        fouls=[bool(x) for x in raw[_OFF["foul"] : _OFF["foul"] + n]],
        royalties=[tuple(royal[3 * s : 3 * s + 3]) for s in range(n)],  # type: ignore[misc]
        fantasyland=list(raw[_OFF["fl_next"] : _OFF["fl_next"] + n]),
        boards=game.boards,
        button=game.button,
        in_fantasyland=game.fantasyland,
        surrendered=surrendered,
        declared=declared,
        _raw=out,
        _rules=game.rules,
        _stacks=list(game.stacks) if game.stacks is not None else None,
    )
