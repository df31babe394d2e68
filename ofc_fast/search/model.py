"""The search's model: what a finished board is worth beyond its points
(:class:`SearchModel`), the completion policies and the opponent models."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeAlias

from .._native import OK, ffi, lib
from ..errors import OfcError, SearchError, flag, quote
from ..rules import RulesLike
from ..solver import StayValue, stay_values
from ._checks import in_range, search_rules

__all__ = ["OPPONENTS", "POLICIES", "Opponent", "SearchModel"]


POLICIES = ("auto", "best", "fast", "sequential")
"""Completion policies of the rollouts: ``best`` (exact best completion, clairvoyant),
``fast`` (fixed discards: the lowest cards; rows searched when at most 4,096 fills,
else greedy; clairvoyant), ``sequential`` (the searcher places each round without
seeing the cards after it; csrc/include/ofc_search.h), ``auto`` (best when the searcher has
at most one round left, fast for an opening with more than 60 moves, else
sequential)."""

Opponent: TypeAlias = str | float
"""An opponent model: a name of :data:`OPPONENTS` or a number within 0..1."""

OPPONENTS = ("best", "random", "self")
"""How the rollouts complete the other seats' boards: ``best`` (the completion policy:
a strong opponent that sees its cards to come), ``random`` (uniformly random legal
play, as :class:`~ofc_fast.bots.RandomBot`: against a player that fouls most boards
the searcher's own royalties and Fantasyland are what pays), ``self`` (each other seat
plays as the searcher's own sequential rollouts do: round by round, without seeing
its cards to come, placed by the learned model where one is set: an opponent that
fouls when its cards miss); a number ``w`` within 0..1: each sampled future, each
other seat plays at random with probability ``w``, else by the completion policy
(``"best"`` is 0, ``"random"`` is 1).  Exact search models ``best`` only: with any
other model the advice is sampled (``exact=True`` raises SearchError)."""

_OPPONENT_WEIGHTS = {"best": 0.0, "random": 1.0, "self": 0.0}
_FL_VALUES: int = lib.OFC_SEARCH_FL_VALUES


@dataclass(frozen=True)
class SearchModel:
    """What a finished board is worth beyond its points (csrc/include/ofc_search.h).

    ``fl_value[k]``: the worth of a Fantasyland of ``k`` cards next deal, by default
    :data:`ofc_fast.solver.STAY_VALUE_DEFAULT` (the Fantasyland study,
    ``tools/fl_study.py``: the expected royalties of a ``k``-card Fantasyland set by
    the exact solver plus the chance to stay times the worth of staying, under
    PINEAPPLE); override with ``fl_value=`` (a number for any count, or
    ``{cards: value}``).  ``row_weight``: the weight of each row's expected points
    against a typical opponent in a completion's objective (0: royalties and
    Fantasyland only).  ``opp_random``: the opponent model of the rollouts, the
    probability that another seat completes its board by uniformly random play (as
    :class:`~ofc_fast.bots.RandomBot`) rather than by the completion policy (see
    :data:`OPPONENTS`); ``opp_self``: the other seats that do not play at random
    play as the searcher's sequential rollouts do (``opponent="self"``).

    >>> from ofc_fast import rules
    >>> search_model(rules.PINEAPPLE).fl_value[14]
    14.5
    >>> search_model(rules.PINEAPPLE, fl_value=0).fl_value[14]
    0.0
    """

    fl_value: tuple[float, ...]
    row_weight: float
    opp_random: float = 0.0
    opp_self: bool = False

    def __post_init__(self) -> None:
        """Refuse fields the C struct cannot hold, with a SearchError naming the field:
        a model is checked where it is made (by hand too), so no search meets a bad
        one (C checks the ranges again: ``ofc_search_model_check``)."""
        fl = self.fl_value
        if (
            type(fl) is not tuple
            or len(fl) != _FL_VALUES
            or not all(in_range(v, -1e6, 1e6) for v in fl)
        ):
            raise SearchError(
                f"SearchModel: fl_value must be a tuple of {_FL_VALUES} numbers within "
                f"+-1e6 (the worth of k Fantasyland cards, k = 0..{_FL_VALUES - 1}), "
                f"got {quote(fl)}"
            )
        check_row_weight(self.row_weight, "SearchModel: row_weight")
        if not in_range(self.opp_random, 0, 1):
            raise SearchError(
                "SearchModel: opp_random must be a number within 0..1, "
                f"got {quote(self.opp_random)}"
            )
        flag(self.opp_self, "SearchModel: opp_self", SearchError)

    def c_model(self) -> Any:  # cdata 'ofc_search_model *'
        """The C struct (cached per model)."""
        return _c_model(self)


@lru_cache(maxsize=64)
def _c_model(model: SearchModel) -> Any:
    c = ffi.new("ofc_search_model *")
    c.fl_value = list(model.fl_value)
    c.row_weight = model.row_weight
    c.opp_random = model.opp_random
    c.opp_self = int(model.opp_self)
    if lib.ofc_search_model_check(c) != OK:
        raise SearchError(f"search model out of range: {model}")
    return c


def opponent_weight(opponent: Opponent) -> float:
    """The ``opp_random`` of an opponent model (:data:`OPPONENTS`): ``"best"`` and
    ``"self"`` 0.0, ``"random"`` 1.0, a number within 0..1 itself.

    >>> opponent_weight("random"), opponent_weight(0.25)
    (1.0, 0.25)
    """
    if isinstance(opponent, str):
        if opponent in _OPPONENT_WEIGHTS:
            return _OPPONENT_WEIGHTS[opponent]
    elif in_range(opponent, 0, 1):
        return float(opponent)
    raise SearchError(
        "opponent must be 'best', 'random', 'self' or a number within 0..1, "
        f"got {quote(opponent)}"
    )


def check_row_weight(row_weight: Any, what: str = "row_weight") -> None:
    """SearchError naming ``what`` unless ``row_weight`` is a number within 0..1e6."""
    if not in_range(row_weight, 0, 1e6):
        raise SearchError(f"{what} must be a number within 0..1e6, got {quote(row_weight)}")


def search_model(
    rules: RulesLike,
    fl_value: StayValue = None,
    row_weight: float = 1.0,
    opponent: Opponent = "best",
) -> SearchModel:
    """The model of a rule set: Fantasyland values as :func:`ofc_fast.solver.stay_values`
    reads them (None, a number, or ``{cards: value}``; checked under any rules), 0 for no
    Fantasyland or a rule set without one; ``opponent``: see :data:`OPPONENTS`."""
    rules = search_rules(rules, "search_model")
    check_row_weight(row_weight)
    opp = opponent_weight(opponent)
    values = [0.0] * _FL_VALUES
    try:  # checked under every rule set, whether or not it deals Fantasyland
        five = stay_values(rules, fl_value)
    except OfcError as exc:
        raise SearchError(str(exc).replace("stay_value", "fl_value")) from None
    if rules.fantasyland is not None:
        values[13:18] = five
    return _checked_model(tuple(values), float(row_weight), opp, opponent == "self")


def _checked_model(*fields: Any) -> SearchModel:
    """A SearchModel of ``fields`` checked already (:func:`search_model`'s, each field
    refused above as ``__post_init__`` would: stay values within +-1e5), made without
    checking them again: its check took three quarters of the time of a
    ``search_model()``, which a ``best_completion`` without a model makes a call."""
    model = object.__new__(SearchModel)
    for field, value in zip(_FIELDS, fields, strict=True):
        object.__setattr__(model, field, value)
    return model


_FIELDS = ("fl_value", "row_weight", "opp_random", "opp_self")
