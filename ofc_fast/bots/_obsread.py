"""The built-in bots' one reader of an observation's NumPy values (private to
:mod:`ofc_fast.bots`).

An observation may come from NumPy code (a Gymnasium dict space, ``np.asarray`` of a
field): its card lists, counts and legal action ids as integer arrays of any dtype,
its numbers as NumPy scalars.  :func:`plain_observation` turns them into the plain
Python lists and numbers a :meth:`~ofc_fast.game.Game.observation` holds, at every
bot's entry (``names_bad_observations``, ``RandomBot.act``), so that no bot meets an
array (whose truth value NumPy refuses) and every bot reads the same position from
either form.  An array no list could stand for is an OfcError naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain
from typing import Any

import numpy as np

from ..errors import CardError, ObservationError, OfcError
from ..game import ACTION_SPACE

__all__ = ["plain_observation"]

_CARDS = ("card ids", 51)
_ACTIONS = ("action ids", ACTION_SPACE - 1)
_COUNTS = ("counts", None)

_LISTS: dict[str, tuple[int, tuple[str, int | None]]] = {
    # field: (levels of lists, (what its items are, the largest one or None))
    "boards": (3, _CARDS),
    "dealt": (1, _CARDS),
    "discards": (1, _CARDS),
    "legal_actions": (1, _ACTIONS),
    "fantasyland": (1, _COUNTS),
    "discard_counts": (1, _COUNTS),
    "face_down_counts": (2, _COUNTS),
}
_SCALARS = (
    "seat",
    "players",
    "button",
    "to_act",
    "street",
    "to_discard",
    "future_cards",
    "future_discards",
    "full_set",
    "face_down",
    "is_over",
    "lowball",
)
_LIST_TYPE = frozenset((list,))
_PLAIN_TYPES = frozenset((int, bool, type(None), list, str, float, dict))
_DIMS = {1: "a one-dimensional", 2: "a two-dimensional", 3: "a three-dimensional"}


def plain_observation(observation: Any) -> Any:
    """``observation`` with its NumPy values as the plain Python values a
    :meth:`~ofc_fast.game.Game.observation` holds: ``boards``, ``dealt``,
    ``discards``, ``legal_actions``, ``fantasyland``, ``discard_counts`` and
    ``face_down_counts`` given as NumPy integer arrays (any int dtype, as a whole or
    per seat or row; an empty array of any dtype, as ``np.asarray([])`` makes) as the
    lists of ints they hold, and its NumPy scalars (``seat``, ``to_discard``,
    ``full_set``, ...) as Python's numbers and bools (a NumPy integer among a list's
    items is left as it is: every check reads it as the int it is).  The observation
    itself when it holds none (a new dict otherwise: the caller's is never changed),
    or anything but a mapping as it is (the bots' checks name it).

    An array no list of the field could stand for is an OfcError naming the field: an
    array of another dtype (floats, bools) or of the wrong number of dimensions
    (:class:`~ofc_fast.errors.ObservationError`); a card id outside 0..51
    (:class:`~ofc_fast.errors.CardError`) or an action id outside the action space
    (ObservationError).  Other malformations (text, a card given twice) are left to
    the checks that read the plain observation, as for lists.

    >>> import numpy as np
    >>> obs = {"dealt": np.array([5, 9], np.uint8), "seat": np.int64(1), "discards": []}
    >>> plain_observation(obs)
    {'dealt': [5, 9], 'seat': 1, 'discards': []}
    >>> plain_observation({"dealt": np.array([5.0, 9.0])})
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ObservationError: observation: dealt must hold integer card ids, got an array of float64
    """  # noqa: E501 - the error, verbatim
    if not isinstance(observation, Mapping):
        return observation
    if _already_plain(observation):  # (a Game's, or JSON's: the bots' every decision)
        return observation
    get = observation.get
    changed: dict[str, Any] = {}
    for key, (levels, items) in _LISTS.items():
        value = get(key)
        if value is not None:
            plain = _plain(value, key, levels, items)
            if plain is not value:
                changed[key] = plain
    for key in _SCALARS:
        value = get(key)
        if isinstance(value, np.generic):
            changed[key] = value.item()
    return {**observation, **changed} if changed else observation


def _already_plain(observation: Mapping[str, Any]) -> bool:
    """Whether ``observation`` holds no array and no NumPy scalar where
    :func:`plain_observation` reads: its values, its boards' seats and rows and its
    Face-down counts' rows of plain types only (a quick test of types, in C-level
    passes; not of the rows' items: a NumPy integer among them is read as the int it
    is).  False sends the observation to the full reading."""
    if not _PLAIN_TYPES.issuperset(map(type, observation.values())):
        return False
    boards = observation.get("boards")
    counts = observation.get("face_down_counts")
    if type(boards) is not list or type(counts) is not list:
        return False
    return _LIST_TYPE.issuperset(map(type, boards)) and _LIST_TYPE.issuperset(
        map(type, chain(counts, chain.from_iterable(boards)))
    )


def _plain(value: Any, what: str, levels: int, items: tuple[str, int | None]) -> Any:
    """``value`` (a field ``what`` of ``levels`` levels of lists of ``items``) with its
    arrays as lists; ``value`` itself when it holds none."""
    kind = type(value)
    if kind is list or kind is tuple:
        if levels == 1:
            return value  # its items as they are (a NumPy integer: the int it is)
        inner = [_plain(v, _part(what, i), levels - 1, items) for i, v in enumerate(value)]
        return value if all(a is b for a, b in zip(inner, value)) else inner
    if isinstance(value, np.ndarray):
        return _array(value, what, levels, items)
    return value  # anything else (text, a NumPy scalar for a list): the checks name it


def _part(what: str, i: int) -> str:
    """The name of item ``i`` of the field part ``what``, as the bots' checks name it
    (``board 1 row 0``, ``face_down_counts[1]``)."""
    if what == "boards":
        return f"board {i}"
    if what.startswith("board "):
        return f"{what} row {i}"
    return f"{what}[{i}]"


def _array(arr: np.ndarray, what: str, levels: int, items: tuple[str, int | None]) -> Any:
    """The plain lists of ``arr``, the field part ``what`` of ``levels`` levels of
    ``items``; the OfcError naming ``what`` when no such list is an array like it."""
    noun, high = items
    if arr.ndim == 0 or (arr.dtype.kind != "O" and arr.ndim != levels):
        raise ObservationError(
            f"observation: {what} must be a list of {noun} ({_DIMS[levels]} array), "
            f"got an array of shape {arr.shape}"
        )
    if arr.dtype.kind == "O":  # a ragged array of rows, say: its items, read as a list's
        return _plain(arr.tolist(), what, levels, items)
    if arr.dtype.kind not in "iu" and arr.size:  # (np.asarray([]) is of floats)
        raise ObservationError(
            f"observation: {what} must hold integer {noun}, got an array of {arr.dtype}"
        )
    if high is not None and arr.size and (arr.min() < 0 or arr.max() > high):
        raise _out_of_range(arr, what, noun, high)
    return arr.tolist()


def _out_of_range(arr: np.ndarray, what: str, noun: str, high: int) -> OfcError:
    """The error of the first item of ``arr`` outside 0..``high``, worded as the bots'
    checks word it for a list."""
    where = [int(i) for i in np.argwhere((arr < 0) | (arr > high))[0]]
    bad = int(arr[tuple(where)])
    for i in where[:-1]:  # the row (or list) that holds it
        what = _part(what, i)
    if noun == "card ids":
        return CardError(f"observation: {what} holds {bad}, not a card id 0..{high}")
    return ObservationError(
        f"observation: {_part(what, where[-1])} must be an int within 0..{high}, got {bad}"
    )
