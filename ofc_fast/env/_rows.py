"""The environments a :class:`~ofc_fast.env.VectorEnv` call reads rows of: one index
(:func:`check_env`), indices or a mask of ``num_envs`` booleans (``terminations``),
checked before any row is read; the arrays a call takes, a ragged list among them
(:func:`as_array`), an encoding's ``out`` (:func:`check_out`); a reset's options,
checked for every env (:func:`check_options`); the vector adapters' rule for a
``reset_mask`` (:func:`deal_on_masked`) and for a reset (:func:`reset_tables`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import GameError, MoveError, quote


def as_array(value: object) -> npt.NDArray[Any]:
    """``np.asarray(value)``; a ragged list (an id and a list mixed: NumPy's
    ValueError) gives a 0-d object array instead, which the callers' checks of shape
    and dtype refuse, naming their argument."""
    try:
        return np.asarray(value)
    except ValueError:
        return np.array(None, object)


def check_env(env: object, num_envs: int) -> int:
    """``env`` as an environment index (an int or NumPy int), else GameError."""
    if (
        isinstance(env, (bool, np.bool_))
        or not isinstance(env, (int, np.integer))
        or not 0 <= env < num_envs
    ):
        raise GameError(f"env must be an int 0..{num_envs - 1}, got {quote(env)}")
    return int(env)


def check_out(out: object, size: int) -> npt.NDArray[np.uint8]:
    """``out`` when it is a contiguous, writable uint8 array of ``size`` (an
    encoding's output), else GameError."""
    if (
        not isinstance(out, np.ndarray)
        or out.shape != (size,)
        or out.dtype != np.uint8
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        raise GameError(f"out must be a contiguous, writable uint8 array of {size}")
    return out


def env_flags(value: object, num_envs: int, what: str) -> npt.NDArray[Any]:
    """``value`` as ``num_envs`` booleans (bools or integers, 0 False), else
    MoveError naming ``what`` (a step's ``active`` and ``ended``)."""
    a = as_array(value)
    if a.shape != (num_envs,) or a.dtype.kind not in "biu":
        raise MoveError(f"{what} must be {num_envs} booleans", "bad_action")
    flags: npt.NDArray[Any] = a != 0
    return flags


def env_indices(envs: object, num_envs: int) -> npt.NDArray[Any]:
    """``envs`` as a 1-D array of environment indices: an int (one), a sequence or a
    1-D array of ints 0..num_envs-1, or a mask of ``num_envs`` booleans (the
    environments it marks); else GameError naming ``envs``.

    >>> env_indices([2, 0], 3), env_indices(np.array([True, False, True]), 3)
    (array([2, 0]), array([0, 2]))
    """
    idx = np.atleast_1d(as_array(envs))
    if idx.dtype == np.bool_ and idx.shape == (num_envs,):
        return np.flatnonzero(idx)
    if idx.size == 0 and idx.ndim == 1:
        return np.zeros(0, np.intp)
    if (
        idx.ndim != 1
        or idx.dtype.kind not in "iu"
        or not (idx.min() >= 0 and idx.max() < num_envs)
    ):
        raise GameError(
            f"envs must be environment indices 0..{num_envs - 1} or a mask of "
            f"{num_envs} booleans, got {quote(envs)}"
        )
    return idx.astype(np.intp)


RESET_OPTIONS = ("reset_mask",)
"""The options a vector env's ``reset`` takes (the one-table envs' take none)."""


def check_options(options: object, takes: Sequence[str] | None = ()) -> dict[str, Any]:
    """A ``reset(options=...)``'s ``options`` (None: ``{}``), the one check of every
    env: GameError unless a dict of the options its reset ``takes`` (a misspelt key
    would else be ignored), naming the keys it does not take and those it does;
    ``takes`` None: any key (PettingZoo's API, whose ``api_test`` resets with
    ``options={"options": 1}``), a dict still.

    >>> check_options(None), check_options({"reset_mask": None}, RESET_OPTIONS)
    ({}, {'reset_mask': None})
    """
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise GameError(f"options must be a dict or None, got {quote(options)}")
    if takes is None:  # PettingZoo's: any key
        return options
    unknown = sorted(map(quote, set(options) - set(takes)))  # keys of any type
    if unknown:
        taken = f"the option {', '.join(takes)} only" if takes else "no options"
        raise GameError(f"reset() takes {taken}, got {', '.join(unknown)}")
    return options


def reset_mask(options: object, num_envs: int) -> npt.NDArray[Any] | None:
    """The environments that a reset's ``options`` mark with Gymnasium's
    ``reset_mask`` (``num_envs`` booleans; the indices of the True ones), None when
    ``options`` is None or holds no mask; GameError naming the problem otherwise (a
    mask of ints too: indices or flags?; another option, :func:`check_options`).

    >>> reset_mask({"reset_mask": np.array([True, False, True])}, 3), reset_mask(None, 3)
    (array([0, 2]), None)
    """
    options = check_options(options, RESET_OPTIONS)
    if "reset_mask" not in options:
        return None
    mask = as_array(options["reset_mask"])
    if mask.shape != (num_envs,) or mask.dtype != np.bool_:
        raise GameError(
            f"options['reset_mask'] must be {num_envs} booleans (one per environment), "
            f"got {quote(options['reset_mask'])}"
        )
    return np.flatnonzero(mask)


def deal_on_masked(
    venv: Any, mid_deal: npt.NDArray[Any], seed: object, options: object
) -> npt.NDArray[Any] | None:
    """Gymnasium's ``reset(options={"reset_mask": m})`` at the tables of ``venv`` (a
    VectorEnv) as the one-table env resets, the rule every vector adapter follows:
    the marked tables whose agent played a step of the deal pending there
    (``mid_deal``, one boolean per table) abandon that deal for their match's next
    one; a marked table whose deal is not begun keeps it (its button and
    Fantasyland), the tables not marked keep their pending decision.  Clears
    ``mid_deal`` at the marked tables and returns their indices; None (nothing done)
    when ``options`` hold no mask; GameError for a bad mask, or a mask with a
    ``seed`` or before the first reset (nothing changed)."""
    masked = reset_mask(options, venv.num_envs)
    if masked is not None:
        cut = np.zeros(venv.num_envs, np.bool_)  # the others keep their decision
        cut[masked] = mid_deal[masked]
        venv.reset(seed=seed, options={"reset_mask": cut})
        mid_deal[masked] = False
    return masked


def reset_tables(
    venv: Any, mid_deal: npt.NDArray[Any], seed: object, options: object
) -> npt.NDArray[Any] | None:
    """A vector adapter's ``reset(seed, options)`` at the tables of ``venv`` (a
    VectorEnv) as its one-table envs reset, the rule every vector adapter follows
    (Gymnasium's and SB3's vector envs reset each env with ``seed=None``: it goes
    on, no replay): a ``reset_mask``, :func:`deal_on_masked`; a ``seed`` (and the
    first reset) starts every match from it; no seed, the tables where the agent
    played a step of its deal (``mid_deal``) deal their match's next deal and the
    others keep their pending decision (a deal not begun).  Clears ``mid_deal``
    where done; returns the masked tables' indices, None when every table was reset."""
    masked = deal_on_masked(venv, mid_deal, seed, options)
    if masked is None:
        if seed is not None or not venv.started:
            venv.reset(seed=seed)
        elif mid_deal.any():
            venv.reset(options={"reset_mask": mid_deal.copy()})
        mid_deal[:] = False
    return masked
