"""Readers of request fields: each returns the field with its type checked, or raises
:class:`~ofc_fast.serve._problems.ApiError` (400) naming the field.

>>> get_int({"seed": 3}, "seed", default=0, low=0, high=10)
3
>>> get_int({"seed": "3"}, "seed")
Traceback (most recent call last):
...
ofc_fast.serve._problems.ApiError: seed must be an integer, got a string
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from typing import Any, TypeAlias

from ..errors import cut_text, quote
from ._problems import ApiError

__all__ = [
    "CARD",
    "INTEGER",
    "ROW",
    "check_item",
    "check_items",
    "check_known",
    "check_query",
    "get_bool",
    "get_int",
    "get_list",
    "get_number",
    "get_obj",
    "get_str",
    "given",
    "kind",
    "sized",
]

_MISSING: Any = object()


def kind(value: Any) -> str:
    """A JSON type name for messages ("a string", "an object", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


Kind: TypeAlias = type | tuple[type, ...]
"""A JSON type as Python's (``int``), or those of several (``(int, str)``)."""

Items: TypeAlias = tuple[Kind, str]
"""What each item of a list must be: its type (:data:`Kind`) and its name in an error."""

INTEGER: Items = (int, "an integer")
CARD: Items = ((int, str), "a card (an id or text)")
ROW: Items = ((int, str), "a row (0..2 or its name)")


def _is(value: Any, kind_: Kind) -> bool:
    """``value`` is a ``kind_`` as JSON types go: a boolean is no integer, though
    Python's bool is an int.

    >>> _is(True, int), _is(3, int), _is(True, bool), _is(True, (int, str))
    (False, True, True, False)
    """
    return isinstance(value, kind_) and (kind_ is bool or not isinstance(value, bool))


def check_items(values: list[Any], path: str, items: Items) -> None:
    """400 naming the first item of ``values`` (the list at ``path``) that is not of
    the type ``items`` gives (null and a boolean among them: JSON's, not Python's).

    >>> check_items([14, None], "fantasyland", INTEGER)
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: fantasyland[1] must be an integer, got null
    """
    for i, item in enumerate(values):
        check_item(item, f"{path}[{i}]", items)


def check_item(value: Any, path: str, items: Items) -> None:
    """400 naming ``path`` unless ``value`` is of the type ``items`` gives.

    >>> check_item(True, "place[0][1]", ROW)
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: place[0][1] must be a row (0..2 or its name), got a boolean
    """
    if not _is(value, items[0]):
        raise ApiError(400, path, f"{path} must be {items[1]}, got {kind(value)}")


def check_known(body: Mapping[str, Any], names: Collection[str], prefix: str = "") -> None:
    """422 naming the first field of ``body`` that is none of ``names`` (a typo would
    otherwise be ignored, its default used), with the known name it is closest to
    (``prefix``: the object ``body`` is, in the request: ``move``).

    >>> check_known({"samples": 4, "seed": 1}, ("samples", "seed"))
    >>> check_known({"sample": 4}, ("samples", "seed"))
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: unknown field 'sample' (did you mean 'samples'?)
    >>> check_known({"discards": []}, ("place", "discard"), prefix="move")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: unknown field 'move.discards' (did you mean 'discard'?)
    """
    for name in body:
        if name not in names:
            shown = f"{prefix}.{cut_text(name, 40)}" if prefix else cut_text(name, 40)
            close = difflib.get_close_matches(name[:64], sorted(names), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ApiError(422, shown, f"unknown field {shown!r}{hint}")


def check_query(query: bytes) -> None:
    """400 for a request's query string: no operation takes a parameter there (a
    request's fields are its JSON body's), and a field sent there, read by nothing,
    would take its default (``POST /v1/analyze?samples=4``: 256 samples), where the
    same field unknown in the body is refused (:func:`check_known`).

    >>> check_query(b"")
    >>> try:
    ...     check_query(b"samples=4")
    ... except ApiError as e:
    ...     print(e.status, e.detail)
    400 query string 'samples=4': no endpoint takes one (fields go in the JSON body)
    """
    if query:
        shown = query.decode("latin-1")[:100]
        detail = (
            f"query string {shown!r}: no endpoint takes one (fields go in the JSON body)"
        )
        raise ApiError(400, None, detail)


def given(body: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a request body given a value, and of each object it holds (an
    observation, a move) the same: a field given as null is absent (an optional one
    takes its default), as are those left out; a required one given as null is then
    refused as missing (a 400 naming it; an observation's, as the search refuses it
    missing).  ``/openapi.json`` says so: every optional field of a request is
    nullable (``ofc_fast.serve._schemas``).  Deeper objects are the library's own
    JSON, where null is a value (an observation's ``rule_set``: a Fantasyland with
    ``stay_back: null`` stays on no back row), read as the library reads them; an
    item of a list is no field, and null there is refused as a value of the wrong
    type there is, naming it (``observation.boards[1]``).

    >>> given({"samples": None, "seed": 3})
    {'seed': 3}
    >>> given({"move": {"place": [], "surrender": None}, "version": None})
    {'move': {'place': []}}
    >>> given({"observation": {"rule_set": {"fantasyland": None}}})
    {'observation': {'rule_set': {'fantasyland': None}}}
    """
    return {
        name: _present(value) if isinstance(value, dict) else value
        for name, value in body.items()
        if value is not None
    }


def _present(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of an object given a value (:func:`given`)."""
    return {name: value for name, value in fields.items() if value is not None}


def _get(body: Mapping[str, Any], name: str, default: Any, path: str) -> Any:
    if name in body:
        return body[name]
    if default is _MISSING:
        raise ApiError(400, path, f"{path} is required")
    return default


def _path(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def get_obj(body: Any, name: str, default: Any = _MISSING, prefix: str = "") -> Any:
    """An object (dict) field."""
    path = _path(prefix, name)
    value = _get(body, name, default, path)
    if value is not default and not isinstance(value, dict):
        raise ApiError(400, path, f"{path} must be an object, got {kind(value)}")
    return value


def _sized(
    body: Mapping[str, Any],
    name: str,
    default: Any,
    max_len: int,
    kind_: type,
    what: str,
    prefix: str = "",
) -> Any:
    """A str or list field (``kind_``) of at most ``max_len`` characters or items."""
    path = _path(prefix, name)
    value = _get(body, name, default, path)
    if value is default:
        return value
    return sized(value, path, max_len, kind_, what)


def sized(value: Any, path: str, max_len: int, kind_: type, what: str) -> Any:
    """``value``, the field at ``path``, if it is a ``kind_`` (str or list; ``what``:
    its name in the error) of at most ``max_len`` characters or items, else 400 naming
    ``path``.

    >>> sized(list(range(53)), "cards", 52, list, "an array of cards")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: cards has 53 items, at most 52
    """
    if not isinstance(value, kind_):
        raise ApiError(400, path, f"{path} must be {what}, got {kind(value)}")
    size = len(value) if isinstance(value, (str, list)) else 0
    if size > max_len:
        unit = "characters" if kind_ is str else "items"
        raise ApiError(400, path, f"{path} has {size} {unit}, at most {max_len}")
    return value


def get_str(
    body: Mapping[str, Any],
    name: str,
    default: Any = _MISSING,
    *,
    max_len: int,
    prefix: str = "",
) -> Any:
    """A string field of at most ``max_len`` characters (``prefix``: the object
    holding it, for the field's name in an error): a limit each field states (a
    field of ``ofc_fast.serve._sizes.SIZES``, which ``/openapi.json`` gives as its
    ``maxLength``), never one of its own.

    >>> from ofc_fast.serve._sizes import SIZES
    >>> get_str({"rules": 5}, "rules", max_len=SIZES.rules_text, prefix="observation")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: observation.rules must be a string, got a number
    """
    return _sized(body, name, default, max_len, str, "a string", prefix)


def get_list(
    body: Mapping[str, Any],
    name: str,
    default: Any = _MISSING,
    max_len: int = 64,
    prefix: str = "",
    items: Items | None = None,
) -> Any:
    """An array field of at most ``max_len`` items (``prefix``: as :func:`get_str`);
    ``items``: the type each item must be and its name in the error, which names the
    item (``move.place[1]``).

    >>> get_list({"discard": {}}, "discard", prefix="move")
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: move.discard must be an array, got an object
    >>> get_list({"place": [["As", "front"], "Kd"]}, "place", items=(list, "an array"))
    Traceback (most recent call last):
    ...
    ofc_fast.serve._problems.ApiError: place[1] must be an array, got a string
    """
    value = _sized(body, name, default, max_len, list, "an array", prefix)
    if items is not None and value is not default:
        check_items(value, _path(prefix, name), items)
    return value


def get_int(
    body: Mapping[str, Any],
    name: str,
    default: Any = _MISSING,
    low: int | None = None,
    high: int | None = None,
    prefix: str = "",
) -> Any:
    """An integer field (not a boolean) within low..high (``prefix``: as
    :func:`get_str`)."""
    path = _path(prefix, name)
    value = _get(body, name, default, path)
    if value is default:
        return value
    if not _is(value, int):
        raise ApiError(400, path, f"{path} must be an integer, got {kind(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiError(
            422, path, f"{path} must be within {low}..{high}, got {quote(value)}"
        )
    return value


def get_number(
    body: Mapping[str, Any],
    name: str,
    default: Any = _MISSING,
    low: float = 0,
    high: float = 1,
) -> Any:
    """A finite number field within low..high."""
    value = _get(body, name, default, name)
    if value is default:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ApiError(400, name, f"{name} must be a number, got {kind(value)}")
    if not low <= value <= high:  # NaN fails too
        raise ApiError(
            422, name, f"{name} must be within {low}..{high}, got {quote(value)}"
        )
    return value


def get_bool(
    body: Mapping[str, Any], name: str, default: Any = _MISSING, prefix: str = ""
) -> Any:
    """A boolean field (``prefix``: as :func:`get_str`)."""
    path = _path(prefix, name)
    value = _get(body, name, default, path)
    if value is not default and not isinstance(value, bool):
        raise ApiError(400, path, f"{path} must be true or false, got {kind(value)}")
    return value
