"""The C calls of a :class:`~ofc_fast.env.VectorEnv` (``csrc/include/ofc_vecenv.h``)
that read none of its private state: the config it is made with
(:func:`vecenv_config`), a restart of every match, or of each from its own
seed (:func:`restart`), a step's refusal as an exception (:func:`step_error`) and the
features of encoding rows (:func:`feature_rows`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._native import ffi, lib, move_error, status_error
from ..errors import GameError
from ..rules.compiled import game_struct
from ..search import flag
from ._checks import STATUS_HINTS, check_finite

if TYPE_CHECKING:
    from ._vector import VectorEnv

FEATURE_SIZE = int(lib.OFC_FEAT_SIZE)


def vecenv_config(
    venv: VectorEnv, shaping: float, stay_value: Any, autoreset: bool
) -> tuple[Any, tuple[Any, ...]]:
    """The checked ``ofc_vecenv_config`` of ``venv``'s settings (its rules, seed,
    sizes, opponents, Fantasyland mode and learner, set before) and the C data it
    points to (keep it alive as long as the config); GameError when C refuses it."""
    from ..solver import ev_tables, stay_values

    r = venv.rules
    c = ffi.new("ofc_vecenv_config *")
    keep = (game_struct(r), ev_tables(r))
    c.rules, c.ev = keep
    c.stay_value = list(stay_values(r, stay_value))
    c.seed = venv.seed
    c.shaping = check_finite(shaping, "shaping")
    c.num_envs = venv.num_envs
    c.players = venv.players
    c.opponents = {"self": lib.OFC_VE_SELF, "random": lib.OFC_VE_RANDOM}.get(
        venv.opponents, lib.OFC_VE_EXTERNAL
    )
    c.fantasyland = (
        lib.OFC_VE_FL_SOLVER if venv.fantasyland == "solver" else lib.OFC_VE_FL_DECISION
    )
    c.learner = venv.learner
    c.button_frozen = int(r.fantasyland is not None and r.fantasyland.button_frozen)
    c.autoreset = int(flag(autoreset, "autoreset", GameError))
    c.lowball = int(r.lowball is not None)
    status = lib.ofc_vecenv_config_check(c)
    if status:
        raise status_error(status, "the vector environment refused the settings", GameError)
    return c, keep


def restart(
    config: Any,
    slots: Any,
    out: Any,
    out_rows: Sequence[tuple[str, int]],
    seeds: Sequence[int] | None,
) -> int:
    """Start every match (C's status); with a list of ``seeds`` environment ``i``'s
    as environment 0 of a VectorEnv seeded ``seeds[i]`` (a C call on its slot and
    output rows, each field's row i starting i * its row width in: ``out_rows``): the
    first status other than ``OFC_E_NO_DECISION``, else that one when an environment
    had it, else 0."""
    if seeds is None:
        return int(lib.ofc_vecenv_reset(config, slots, 0, config.num_envs, 1, out))
    e_no_decision = int(lib.OFC_E_NO_DECISION)
    one = ffi.new("ofc_vecenv_config *", config[0])
    one.num_envs = 1
    rows = ffi.new("ofc_vecenv_out *")
    stuck = 0
    for i, s in enumerate(seeds):
        one.seed = s
        for field, width in out_rows:
            p = getattr(out, field)
            setattr(rows, field, p + i * width if p != ffi.NULL else p)
        status = lib.ofc_vecenv_reset(one, slots + i, 0, 1, 1, rows)
        if status == e_no_decision:
            stuck = stuck or status
        elif status:
            return int(status)
    return stuck


def step_error(
    status: int, env: int, autoreset: bool, full_set: bool, played: str
) -> Exception:
    """The MoveError of a step C refused with ``status`` at environment ``env``
    (``played``: its action and seat), with what to do about it."""
    hint = STATUS_HINTS.get(status, "")
    if status == lib.OFC_E_GAME_OVER and autoreset:
        hint = " (its deal stopped on an engine error: reset())"
    if status == lib.OFC_E_ACTION and not full_set:
        hint = ""  # an illegal id at a normal decision (no placement plays)
    return move_error(status, f"env {env}{hint}, {played}")


def feature_rows(enc: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The float32 features of encoding rows ``enc`` (a new array, one row each)."""
    out = np.zeros((len(enc), FEATURE_SIZE), np.float32)
    status = lib.ofc_features_rows(
        ffi.from_buffer("uint8_t[]", enc),
        ffi.NULL,
        len(enc),
        ffi.from_buffer("float[]", out),
    )
    if status:  # pragma: no cover - C wrote these encodings
        raise status_error(status, "features", GameError)
    return out
