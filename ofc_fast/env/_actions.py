"""What a :class:`~ofc_fast.env.VectorEnv` step takes, checked before any table moves:
``num_envs`` action ids (:func:`action_array`), environment 0's one id
(:func:`check_action_id`), ``num_envs`` rows of destinations (:func:`placement_array`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import lib, move_error
from ..errors import MoveError
from ._rows import as_array

ACTION_SPACE = int(lib.OFC_ACTION_SPACE)
MAX_DEALT = 17
NO_DESTINATION = 255  # pads a placement row: C refuses it (OFC_E_DESTINATION)


def action_array(actions: object, num_envs: int) -> npt.NDArray[Any]:
    """``actions`` as ``num_envs`` integer ids (-1: play the placements), else
    MoveError; an unsigned id past the action space is refused here (it would wrap to
    a negative in int64)."""
    a = as_array(actions)
    if a.shape != (num_envs,) or a.dtype.kind not in "iu":
        raise MoveError(
            f"actions must be {num_envs} integers, got shape {a.shape} of {a.dtype}",
            "bad_action",
        )
    if a.dtype.kind == "u" and a.size and int(a.max()) >= ACTION_SPACE:
        # unsigned ids past int64 would wrap to negatives (-1: play placements)
        i = int(a.argmax())
        raise move_error(int(lib.OFC_E_ACTION), f"env {i}, action {int(a[i])}")
    return a


def check_action_id(action: object, seat: int) -> int:
    """``action`` (an int or NumPy int) as an id of the action space, else the
    MoveError of an illegal action of environment 0's ``seat``."""
    if (
        isinstance(action, bool)
        or not isinstance(action, (int, np.integer))
        or not 0 <= action < ACTION_SPACE
    ):
        raise move_error(int(lib.OFC_E_ACTION), f"env 0, action {action}, seat {seat}")
    return int(action)


def placement_array(placements: object, num_envs: int) -> npt.NDArray[np.uint8]:
    """``placements`` as ``num_envs`` rows of :data:`MAX_DEALT` destinations 0..3
    (uint8), the columns past those given :data:`NO_DESTINATION`; else MoveError."""
    try:
        p = np.asarray(placements)
        if (
            p.ndim != 2
            or p.shape[0] != num_envs
            or p.shape[1] > MAX_DEALT
            or (p.size and (p.dtype.kind not in "iu" or p.min() < 0 or p.max() > 3))
        ):
            raise ValueError
    except (ValueError, TypeError, OverflowError):
        raise MoveError(
            f"placements must be {num_envs} rows of at most {MAX_DEALT} destinations 0..3",
            "bad_move",
        ) from None
    # past the given columns: no destination, so a row shorter than the deal is
    # OFC_E_DESTINATION, not its last cards sent to the front (0)
    out = np.full((num_envs, MAX_DEALT), NO_DESTINATION, np.uint8)
    out[:, : p.shape[1]] = p
    return out
