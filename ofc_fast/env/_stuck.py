"""The guards of the loops that play the other seats between C calls: deals without
an agent decision, played on at most :data:`~ofc_fast.env._vector.MAX_SKIPPED_DEALS`
in a row (the GameError that ends such a run: every agent seat kept in Fantasyland by
the rules' stays), and an opponent that fails in the middle of its turn
(:func:`others_playing`), and a step cut short by Ctrl-C (:func:`whole_step`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._native import lib, status_string
from ..errors import GameError

if TYPE_CHECKING:
    from ._vector import VectorEnv

__all__ = ["check_skipped_deals", "no_decision_error", "others_playing", "whole_step"]

MAX_SKIPPED_DEALS = int(lib.OFC_VE_MAX_SKIPPED_DEALS)
"""Deals in a row without an agent decision (every agent seat in Fantasyland, set by
the solver) one environment plays on through in one call before GameError: 1,000.
Under rules where a seat stays in Fantasyland with certainty (any clean board stays)
the play would never end; under real rules a run of 1,000 such deals does not happen
(each needs a stay, far from certain)."""
_E_NO_DECISION = int(lib.OFC_E_NO_DECISION)


def no_decision_error(venv: VectorEnv, env: int) -> GameError:
    """The GameError of environment ``env`` having played :data:`MAX_SKIPPED_DEALS`
    deals in a row without an agent decision, naming the rules' stays; ``venv`` then
    needs :meth:`VectorEnv.reset` (the next deal would carry the same Fantasyland)."""
    venv._started = False
    fl = venv.rules.fantasyland
    stays = (
        ", ".join(
            f"{row} {getattr(v, 'name', v)}"
            for row, v in (
                ("front", fl.stay_front),
                ("middle", fl.stay_middle),
                ("back", fl.stay_back),
            )
            if v is not None
        )
        if fl is not None
        else "none"
    )
    return GameError(
        f"env {env}: {status_string(_E_NO_DECISION)} (rules {venv.rules.name!r}, "
        f"Fantasyland stays: {stays}; its sets are played by the solver, "
        f"fantasyland='decision' makes them the agent's decisions): call reset()"
    )


def check_skipped_deals(venv: VectorEnv, ended: np.ndarray[Any, Any]) -> None:
    """GameError (:func:`no_decision_error`) once an environment ended more than
    :data:`MAX_SKIPPED_DEALS` deals in one loop of opponent play, ``ended`` counting
    them per environment (the first may have been the learner's); the loops over
    arrays that play the other seats (``VectorEnv``'s bots, ``LearnerTables``)."""
    if ended.max() > MAX_SKIPPED_DEALS:
        raise no_decision_error(venv, int(ended.argmax()))


class _ResetAfter:
    """A ``with`` block after which an exception that is not one of ``spared`` leaves
    ``venv`` needing :meth:`VectorEnv.reset`: :func:`others_playing` and
    :func:`whole_step`, one mechanism (a class: a step pays no generator for it)."""

    __slots__ = ("spared", "venv")

    def __init__(self, venv: VectorEnv, spared: tuple[type[BaseException], ...]) -> None:
        self.venv = venv
        self.spared = spared

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None and not issubclass(kind, self.spared):
            self.venv._started = False  # (and the exception goes on)


def others_playing(venv: VectorEnv) -> _ResetAfter:
    """Around a loop that plays the other seats (``VectorEnv``'s bots,
    ``LearnerTables``' opponent policy): an exception raised in it (a bot that
    raised, an id the engine refused, Ctrl-C) leaves tables in the middle of another
    seat's turn, where the agent's next step would be played for that seat; ``venv``
    then needs :meth:`VectorEnv.reset` (its steps raise GameError until then)."""
    return _ResetAfter(venv, ())


def whole_step(venv: VectorEnv) -> _ResetAfter:
    """Around a step or a deal of ``venv``, from its first C call to its arrays
    written: a KeyboardInterrupt (Ctrl-C) or SystemExit landing anywhere in it may
    leave tables in the middle of another seat's turn (its C call done, the bots'
    loop not begun), or the arrays of the step before; ``venv`` then needs
    :meth:`VectorEnv.reset` (its steps raise GameError until then).  An exception
    says itself what it leaves (a refused move changes nothing: the env plays on)."""
    return _ResetAfter(venv, (Exception,))
