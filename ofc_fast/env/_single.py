"""The single-game adapters' one table (:mod:`ofc_fast.env.gym`,
:mod:`ofc_fast.env.aec`): a one-environment :class:`VectorEnv` and its deals without
an agent decision; and the checks of every adapter that steps action ids only (the
learner's tables too): the settings it fixes, Fantasyland sets by the solver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import GameError, RenderModeError, choice, match_choice, quote
from ..rules import RulesLike
from ._vector import VectorEnv

__all__ = [
    "adapter_settings",
    "check_render_mode",
    "check_solver_sets",
    "check_spelling",
    "deal_on",
    "single_table",
]


def check_render_mode(render_mode: object, modes: Sequence[str]) -> str | None:
    """``render_mode`` when None, or one of ``modes`` (the adapter's
    ``metadata["render_modes"]``) in any case (:func:`~ofc_fast.errors.choice`);
    else RenderModeError (a GameError and a TypeError: SB3's ``make_vec_env`` then
    makes the env without the ``"rgb_array"`` it tries) naming them: a mode it lacks
    would render nothing."""
    if render_mode is None:
        return None
    return choice(render_mode, modes, "render_mode", " or None", RenderModeError)


def check_solver_sets(kwargs: dict[str, Any], what: str) -> None:
    """GameError unless VectorEnv's keywords ``kwargs`` leave the Fantasyland sets to
    the solver (``fantasyland="solver"``, the default): ``what`` steps action ids only,
    and a 13-17 card set has none (its agent would meet an all-zero mask)."""
    mode = kwargs.get("fantasyland", "solver")
    if match_choice(mode, ("solver",)) is None:  # read as VectorEnv reads it
        raise GameError(
            f"{what} plays Fantasyland sets by the solver (a set has no action id); "
            "use VectorEnv for fantasyland='decision'"
        )


def single_table(
    rules: RulesLike, players: int, what: str, kwargs: dict[str, Any], **fixed: Any
) -> VectorEnv:
    """The one-table VectorEnv of a single-game adapter (``what``: its name in
    errors): VectorEnv's keywords ``kwargs`` and the settings ``fixed`` (num_envs 1 and
    more) that the adapter sets itself; GameError for one of those given with another
    value (not TypeError: "multiple values"); ``fixed`` may set ``num_envs`` (the
    Gymnasium vector env's tables).  Without a ``seed`` the match's seed is drawn at
    random (Gymnasium's rule for an env reset without a seed): copies of the env deal
    different hands."""
    check_spelling(kwargs, what, "opponents", "opponent")
    settings = adapter_settings(kwargs, what, **{"num_envs": 1, **fixed})
    return VectorEnv(rules, players=players, **{"seed": None, **settings})


def check_spelling(kwargs: dict[str, Any], what: str, takes: str, other: str) -> None:
    """GameError when keywords ``kwargs`` hold ``other``, the other adapters' spelling
    of the keyword ``takes`` that this adapter (``what``) takes: the one-table envs'
    and VectorEnv's ``opponents``, the learner's tables' ``opponent`` (else a bare
    TypeError, or a given value taken for one the adapter sets itself)."""
    if other in kwargs:
        raise GameError(
            f"{what} takes {takes}=, not {other}= (got {other}={quote(kwargs[other])})"
        )


def adapter_settings(kwargs: dict[str, Any], what: str, **fixed: Any) -> dict[str, Any]:
    """VectorEnv's keywords ``kwargs`` with the settings ``fixed`` that an adapter
    (``what``: its name in errors) sets itself; GameError for one of those given with
    another value (not TypeError: "multiple values"; nor the ValueError of comparing
    an array with it)."""
    for key, value in fixed.items():
        given = kwargs.get(key, value)
        # a number or text compared; anything else (an array, an object) differs
        if not (isinstance(given, (str, int, float, np.generic)) and given == value):
            raise GameError(f"{what} sets {key}={value!r} itself, got {quote(given)}")
    return {**kwargs, **fixed}


def deal_on(venv: VectorEnv, env: int = 0) -> np.ndarray[Any, Any]:
    """Deal environment ``env``'s next deal up to an agent decision, as a ``reset_mask``
    does (:meth:`VectorEnv.reset`; without autoreset the deals without one are played
    on, at most 1,000 in a row, then GameError); returns the
    points per seat of the deals so played on (zeros when none).  The single-game
    adapters (:mod:`ofc_fast.env.gym`, :mod:`ofc_fast.env.aec`)."""
    mask = np.zeros(venv.num_envs, np.bool_)
    mask[env] = True
    venv.reset(options={"reset_mask": mask})
    return venv.final_rewards[env, : venv.players].astype(np.float64)
