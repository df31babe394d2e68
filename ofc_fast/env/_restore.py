"""Restoring a pickled :class:`~ofc_fast.env.VectorEnv`'s state: every C slot checked
by C (``ofc_vecenv_slot_check``) before any other function reads it, the arrays
checked for their shapes, the arrays of the pending decisions written from the C
slots (:func:`restore_decisions`), not taken from the pickle, the reset seeds
checked (:func:`restore_seeds`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._native import check_error, ffi, lib
from ..errors import GameError, TableError, quote
from ..table import check_seed

STATE_ARRAYS = (
    "encodings",
    "features",
    "action_masks",
    "legal_actions",
    "legal_counts",
    "seats",
    "full_sets",
    "rewards",
    "final_rewards",
    "terminations",
    "truncations",
    "deals_finished",
    "final_encodings",
)
"""The arrays of a VectorEnv's state (its C slots hold the rest): what a copy keeps."""


def restore_slots(config: Any, into: Any, slots: object, started: object) -> None:
    """Copy pickled C slots ``slots`` into the ``ofc_vecenv_slot[]`` ``into`` of a
    VectorEnv configured by ``config`` once C has checked each of them; GameError
    naming the environment and the problem for a damaged or edited state (a step
    past the schedule, a card twice ...), ``into`` then left as it was.  Before
    ``reset()`` (``started`` False) the slots are not read (``reset()`` writes them)
    and not copied."""
    if not isinstance(slots, bytes) or len(slots) != ffi.sizeof(into):
        raise GameError("a pickled VectorEnv of another ofc_fast build (its C state)")
    if started is False:
        return
    if started is not True:
        raise GameError(
            f"a pickled VectorEnv's started flag must be a bool, got {quote(started)}"
        )
    each = ffi.cast("ofc_vecenv_slot *", ffi.from_buffer(slots))  # checked in place
    why = ffi.new("char **")
    for i in range(len(slots) // ffi.sizeof("ofc_vecenv_slot")):
        status = lib.ofc_vecenv_slot_check(config, each + i, why)
        if status:
            raise check_error(status, why, f"a pickled VectorEnv's env {i}", GameError)
    ffi.buffer(into)[:] = slots


def restore_arrays(into: dict[str, np.ndarray], arrays: object) -> None:
    """Copy a pickled VectorEnv's output arrays into its copy's own ``into`` (by
    name); GameError naming the first that is missing or not an array of the same
    shape (a damaged or edited state), before any is copied."""
    if not isinstance(arrays, dict):
        raise GameError(f"a pickled VectorEnv's arrays must be a dict, got {quote(arrays)}")
    for name, target in into.items():
        got = arrays.get(name)
        if not isinstance(got, np.ndarray) or got.shape != target.shape:
            shape = got.shape if isinstance(got, np.ndarray) else quote(got)
            raise GameError(
                f"a pickled VectorEnv's {name} must be an array of shape {target.shape}, "
                f"got {shape}"
            )
    for name, target in into.items():
        target[...] = arrays[name]


def restore_seeds(seeds: object, num_envs: int) -> list[int] | None:
    """A pickled VectorEnv's reset seeds (``reset(seed=[...])``, else None): one seed
    0..2**64-1 per environment; GameError naming them otherwise (a damaged or edited
    state: a reset would fail on them, or start only some environments)."""
    if seeds is None:
        return None
    if isinstance(seeds, list) and len(seeds) == num_envs:
        try:
            return [check_seed(s) for s in seeds]
        except TableError:
            pass
    raise GameError(
        f"a pickled VectorEnv's reset seeds must be None or a list of {num_envs} "
        f"seeds 0..2**64-1, got {quote(seeds)}"
    )


_E_FULL_SET = int(lib.OFC_E_FULL_SET)
DECISION_ARRAYS = (
    "seats",
    "full_sets",
    "legal_counts",
    "legal_actions",
    "action_masks",
    "encodings",
)
"""A VectorEnv's arrays of the pending decisions: what :func:`restore_decisions`
writes from its C state."""


def restore_decisions(config: Any, slots: Any, rows: dict[str, np.ndarray]) -> None:
    """Write every environment's rows of its pending decision into ``rows`` (the
    :data:`DECISION_ARRAYS`, by name) from its restored, checked C slot of ``slots``
    (``ofc_vecenv_slot[]`` of a VectorEnv configured by ``config``), as a step writes
    them: one source of truth, the C state (an edited pickle's rows are not read).
    A finished deal's (seat -1) encoding is its reward seat's view (:func:`_over_seat`)."""
    legal = ffi.new("uint8_t[]", int(lib.OFC_ACTION_SPACE))
    for i in range(int(config.num_envs)):
        game = ffi.addressof(slots[i], "game")
        seat = int(lib.ofc_game_to_act(game))
        n = int(lib.ofc_game_legal_actions(game, legal))
        count = max(n, 0)
        ids = np.frombuffer(ffi.buffer(legal, count), np.uint8)
        rows["seats"][i] = seat
        rows["full_sets"][i] = n == _E_FULL_SET
        rows["legal_counts"][i] = count
        rows["legal_actions"][i, :count] = ids
        rows["action_masks"][i] = False
        rows["action_masks"][i, ids] = True
        view = seat if seat >= 0 else _over_seat(config, game)
        out = ffi.from_buffer("uint8_t[]", rows["encodings"][i], require_writable=True)
        lib.ofc_encode_game(game, view, config.lowball, out)


def _over_seat(config: Any, game: Any) -> int:
    """The seat whose view a finished deal's row shows (C's reward seat): the
    learner, or in self-play the seat of the deal's last agent decision (a full set
    is one only with ``fantasyland="decision"``), the learner when it had none."""
    if config.opponents == lib.OFC_VE_SELF:
        solver = config.fantasyland == lib.OFC_VE_FL_SOLVER
        for k in range(int(game.nsteps) - 1, -1, -1):
            if not (game.steps[k].full and solver):
                return int(game.steps[k].seat)
    return int(config.learner)
