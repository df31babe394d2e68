"""What the searching bots share: the rules of an observation, full sets (a
Fantasyland hand by the exact solver, a classic hand by the arranger), and their
learned model's errors.  Private to :mod:`ofc_fast.bots`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ..errors import BotModelError, ModelError
from ..game import Move
from ..learned.model import ModelSpec, ValueModel, check_spec, load_model, resolve_model
from ..rules import RuleSet
from ..rules.model import GameKind
from ..solver import StayValue, solve_fantasyland
from .base import ObservationLike, dealt_cards, rules_of
from .heuristic import HeuristicBot

__all__ = [
    "decision",
    "fl_setting",
    "model_errors",
    "model_seats",
    "model_setting",
    "table_model",
]


def fl_setting(fl_value: StayValue) -> StayValue:
    """A checked ``fl_value`` setting as plain JSON-able data (``settings()``): None, a
    float, or ``{cards: value}`` with int keys and float values (NumPy numbers and
    text keys, as JSON gives them back, made plain; the same values).

    >>> import numpy as np
    >>> fl_setting({np.int64(14): np.float32(3), "15": 2})
    {14: 3.0, 15: 2.0}
    """
    if fl_value is None:
        return None
    if isinstance(fl_value, Mapping):
        return {int(k): float(v) for k, v in fl_value.items()}
    return float(fl_value)


@contextmanager
def model_errors(who: str) -> Iterator[None]:
    """Within: a :class:`~ofc_fast.errors.ModelError` is raised as a
    :class:`~ofc_fast.errors.BotModelError` naming the bot ``who`` (a BotError and a
    ModelError: one class from every bot, when it is made and at a decision)."""
    try:
        yield
    except BotModelError:
        raise
    except ModelError as exc:
        raise BotModelError(f"{who}: {exc}") from None


def model_setting(spec: ModelSpec, who: str, own: RuleSet | None) -> ModelSpec:
    """A bot's ``model=`` setting to keep (:func:`ofc_fast.learned.model.check_spec`,
    a file named by a path read now: a missing or damaged one, or one of other rules
    than the bot's own rules ``own`` when it has them, is refused when the bot is made);
    BotModelError naming ``who`` and the problem.

    >>> model_setting("no/such.ofcvm", "value bot", None)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BotModelError: value bot: value model '...such.ofcvm': cannot read it ...
    """
    with model_errors(who):
        return check_spec(spec, read=True, rules=own)


def table_model(
    spec: ModelSpec, own: RuleSet | None, players: int, who: str
) -> ValueModel | None:
    """The model a bot's ``model=`` setting plays by at a table of ``players`` seats
    under its own rules ``own`` (None: ``model=None``, no model shipped for the table,
    or a bot without rules, or with classic rules, which set hands by no model:
    nothing to check); BotModelError naming ``who`` for a model of another seat count
    (a bot's ``check_players``: refused when the bot is made for the table, not at
    its first decision)."""
    if own is None or own.game is GameKind.CLASSIC:
        return None
    with model_errors(who):
        return resolve_model(spec, own, players)


def model_seats(spec: ModelSpec, who: str) -> int:
    """The seat count a bot's ``model=`` setting was trained for: 2 for ``"auto"``,
    None or a model of any seat count (BotModelError naming ``who`` for a file that
    cannot be read now).

    >>> model_seats("auto", "search bot")
    2
    """
    if spec is None or (isinstance(spec, str) and spec == "auto"):
        return 2
    with model_errors(who):
        kept = check_spec(spec)
        model = kept if isinstance(kept, ValueModel) else load_model(str(kept))
    return model.players or 2


def decision(
    obs: ObservationLike,
    own: RuleSet | None,
    sets: HeuristicBot,
    fl_value: StayValue,
    memo: list[Any],
) -> tuple[RuleSet, Move | None]:
    """The rules to play ``obs`` under (``memo``: the bot's memo of :func:`rules_of`)
    and, for a full set, its move (None: a normal decision, for the bot to search)."""
    rules = rules_of(obs, own, memo)
    dealt = dealt_cards(obs, rules.max_players)
    if obs.get("full_set") or len(dealt) > 5:
        if rules.game is GameKind.CLASSIC:
            return rules, sets.act(obs)
        sol = solve_fantasyland(dealt, rules, stay_value=fl_value)
        return rules, Move.from_board(sol.board, sol.discards)
    return rules, None
