"""One mechanism for every rule dataclass: typed fields normalised and checked on
construction, plain-JSON export and import.

A rule dataclass derives from :class:`RuleData`.  On construction each field is
converted to its annotated type (lists to tuples, strings to enums, dicts to nested
rule dataclasses), and a wrong type raises :class:`RulesError` naming the dotted key.
Ranges are declared per field with ``field(metadata={"range": (lo, hi)})``, the longest
text of a string field with :func:`text` (``metadata={"chars": most}``).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, Union

from .._native._fast import plain_copy
from ..errors import RulesError, as_int, match_choice, quote, unicode_problem

__all__ = ["RuleData", "convert", "hash_once", "ranged"]


def _cached_hash(self: Any) -> int:
    """Hash of a frozen rule dataclass, computed once (rule sets key caches)."""
    try:
        cached: int = self.__dict__["_hash"]
        return cached
    except KeyError:
        h = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
        object.__setattr__(self, "_hash", h)
        return h


_T = typing.TypeVar("_T", bound=type)


_CACHED = frozenset(("_hash", "_plain", "_play_key"))
"""What a rule dataclass keeps of its own making: its hash, its ``to_dict`` data and
its :func:`~ofc_fast.rules.play_key`."""


def _state_without_hash(self: Any) -> dict[str, Any]:
    """What pickle and copy keep of a rule dataclass: its fields, not the cached hash
    (a string's hash differs from one process to the next, so a hash carried into a
    spawned worker would differ from that of an equal rule set made there) nor the
    cached ``to_dict`` data (made again where it is asked for)."""
    return {k: v for k, v in self.__dict__.items() if k not in _CACHED}


def hash_once(cls: _T) -> _T:
    """Class decorator, above ``@dataclass(frozen=True)``: the hash of an instance is
    computed once and kept (rule sets key the compiled-struct cache); pickles and
    copies leave it out, to be computed again where they are loaded."""
    # replacing the method dataclass(frozen=True) generated is the point here
    cls.__hash__ = _cached_hash  # type: ignore[assignment,method-assign]
    cls.__getstate__ = _state_without_hash  # type: ignore[attr-defined]
    return cls


def ranged(default: Any, lo: int, hi: int) -> Any:
    """A dataclass field whose int value (or every int of a tuple) lies in lo..hi; a
    field holding a rule dataclass (a ``Schedule``) declares
    ``metadata={"range": (lo, hi)}`` for every int it holds."""
    return dataclasses.field(default=default, metadata={"range": (lo, hi)})


def text(default: str, most: int) -> Any:
    """A dataclass field whose string holds at most ``most`` characters (names and
    descriptions are echoed in messages, logs and replies)."""
    return dataclasses.field(default=default, metadata={"chars": most})


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (Union, types.UnionType)


def _type_name(tp: Any) -> str:
    if typing.get_origin(tp) is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    names = {int: "an int", str: "a string", bool: "true or false"}
    return names.get(tp) or getattr(tp, "__name__", None) or str(tp)


class _LongNumber:
    """An integer of a rules JSON document too long to read (:func:`_read_int`): kept
    as its number of digits, refused where its key is known (:func:`_convert`)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {self.digits} digits>"


_MAX_DIGITS = 640
"""Most digits of an integer :meth:`RuleData.from_json` reads as one (the least
limit ``sys.set_int_max_str_digits`` allows, so never refused by Python itself)."""


def _read_int(text: str) -> int | _LongNumber:
    """A JSON integer (``json.loads``' ``parse_int``): an int, or a longer one as a
    :class:`_LongNumber` (``int()`` refused it, naming no key, with a hint to call
    ``sys.set_int_max_str_digits``)."""
    digits = len(text) - text.startswith("-")
    return int(text) if digits <= _MAX_DIGITS else _LongNumber(digits)


def _convert(value: Any, tp: Any, key: str) -> Any:
    """``value`` as type ``tp``, or RulesError naming ``key``."""
    if isinstance(value, _LongNumber):  # outside every rule's range
        raise RulesError(f"{key}: {value!r}, longer than any rule's value")
    if _is_union(tp):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(value, arg, key)
            except RulesError as exc:
                errors.append(str(exc))
        raise RulesError(
            errors[0]
            if len(errors) == 1
            else f"{key}: expected "
            f"{' or '.join(_type_name(a) for a in args if a is not type(None))}"
            f", got {quote(value)}"
        )
    origin = typing.get_origin(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, (list, tuple)):
            raise RulesError(f"{key}: expected a list, got {quote(value)}")
        if len(args) == 2 and args[1] is Ellipsis:  # tuple[X, ...]
            if len(value) > _MAX_ITEMS:  # refused before each item is read
                raise RulesError(f"{key}: at most {_MAX_ITEMS} values, got {len(value)}")
            args = (args[0],) * len(value)
        elif len(value) != len(args):
            raise RulesError(f"{key}: expected {len(args)} values, got {len(value)}")
        return tuple(
            _convert(v, a, f"{key}[{i}]") for i, (v, a) in enumerate(zip(value, args))
        )
    if origin is typing.Literal:
        allowed = typing.get_args(tp)
        # type first: `in` would compare an array (or any object) element-wise
        named = match_choice(value, [a for a in allowed if isinstance(a, str)])
        if named is not None:  # text in any case (the one reader: match_choice)
            return named
        if not any(isinstance(value, type(a)) and value == a for a in allowed):
            raise RulesError(
                f"{key}: {quote(value)} is not one of {', '.join(repr(a) for a in allowed)}"
            )
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{key}: expected true or false, got {quote(value)}")
        return value
    if tp is int:
        number = as_int(value)  # a Python or NumPy int, never a bool
        if number is None:
            raise RulesError(f"{key}: expected an int, got {quote(value)}")
        return number
    if tp is str:
        if not isinstance(value, str):
            raise RulesError(f"{key}: expected a string, got {quote(value)}")
        bad = unicode_problem(value)
        if bad is not None:
            raise RulesError(f"{key}: {bad}")
        return value
    if isinstance(tp, type) and issubclass(tp, Enum):
        if isinstance(value, tp):
            return value
        names = ", ".join(member.name for member in tp)  # (not the aliases)
        if issubclass(tp, int) and isinstance(value, str):  # IntEnum by name or alias
            name = match_choice(value, tp.__members__)
            if name is not None:
                return tp.__members__[name]
            raise RulesError(f"{key}: {quote(value)} is not one of {names}")
        if issubclass(tp, int) and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(f"{key}: expected one of {names}, got {quote(value)}")
        choices = ", ".join(repr(member.value) for member in tp)
        if not isinstance(value, (str, int, float)):  # lists, dicts: no enum value
            raise RulesError(f"{key}: expected one of {choices}, got {quote(value)}")
        named = match_choice(value, [str(member.value) for member in tp])
        try:
            return tp(value if named is None else named)
        except RulesError as exc:  # the enum's word: a removed option, its values
            raise RulesError(f"{key}: {exc}") from None
        except (ValueError, TypeError):
            raise RulesError(f"{key}: {quote(value)} is not one of {choices}") from None
    if isinstance(tp, type) and issubclass(tp, RuleData):
        if isinstance(value, tp):
            return value
        if not isinstance(value, dict):
            raise RulesError(
                f"{key}: expected a dict of {tp.__name__} fields, got {quote(value)}"
            )
        return tp._from_dict(value, key)
    raise TypeError(f"unsupported rule field type {quote(tp)}")  # pragma: no cover


def convert(value: Any, tp: Any, key: str) -> Any:
    """``value`` as type ``tp``, read as a rules file's value is (an enum by value or
    name, a tuple from a list...), or RulesError naming ``key``."""
    return _convert(value, tp, key)


def _check_range(value: Any, lo: int, hi: int, key: str) -> None:
    """RulesError naming ``key`` (with the index of a list's value, the field of a
    part's: ``royalties.back[9]``) and the range when an int of ``value`` lies outside
    lo..hi: an int, a tuple's, or every int of a rule dataclass held by the field (a
    ``Schedule`` takes the range of the field holding it)."""
    if isinstance(value, RuleData):
        for f in dataclasses.fields(value):
            _check_range(getattr(value, f.name), lo, hi, f"{key}.{f.name}")
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            _check_range(v, lo, hi, f"{key}[{i}]")
    elif isinstance(value, int) and not lo <= value <= hi:
        raise RulesError(f"{key}: {quote(value)} is outside {lo}..{hi}")


def _check_text(value: str, most: int, key: str) -> None:
    if len(value) > most:
        raise RulesError(f"{key}: at most {most} characters, got {len(value)}")


def _key_list(keys: list[str], prefix: str = "") -> str:
    """Unknown keys for a message: each cut to 40 characters, at most 5 of them (then
    how many more), so that a hostile rules file is never echoed whole; a key with a
    character that does not print (a newline, a terminal escape) as its ``repr``, so
    that the message stays one line of plain text."""
    cut = [k if len(k) <= 40 else k[:37] + "..." for k in keys[:5]]
    shown = [prefix + (k if k.isprintable() else repr(k)) for k in cut]
    return ", ".join(shown) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


def _plain(value: Any) -> Any:
    if isinstance(value, RuleData):
        return value.to_dict()
    if isinstance(value, Enum) and isinstance(value, int):
        return value.name  # IntEnum (HandCategory) by name: readable rule files
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


_R = typing.TypeVar("_R", bound="RuleData")


class RuleData:
    """Base of the frozen rule dataclasses (see the module docstring)."""

    if typing.TYPE_CHECKING:  # every subclass is a dataclass (dataclasses.fields works)
        __dataclass_fields__: typing.ClassVar[dict[str, dataclasses.Field[Any]]]

    _key_prefix = ""

    def __new__(cls: type[_R], *args: Any, **fields: Any) -> _R:
        """Refuses what the generated ``__init__`` would refuse with a TypeError, an
        unknown field or too many values, with the RulesError a rules file gets."""
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(fields) - set(names))
        if unknown:
            raise RulesError(
                f"unknown rule field(s): {_key_list(unknown)}; known: "
                f"{', '.join(sorted(names))}"
            )
        if len(args) > len(names):
            raise RulesError(
                f"{cls.__name__}: at most {len(names)} values, got {len(args)}"
            )
        return object.__new__(cls)

    def __post_init__(self) -> None:
        # mypy checks a class against Hashable with its instances' __hash__ signature
        hints = _hints(type(self))  # type: ignore[arg-type]
        prefix = self._key_prefix
        for f in dataclasses.fields(self):
            key = f"{prefix}{f.name}"
            value = _convert(getattr(self, f.name), hints[f.name], key)
            if "range" in f.metadata:
                lo, hi = f.metadata["range"]
                _check_range(value, lo, hi, key)
            if "chars" in f.metadata:
                _check_text(value, f.metadata["chars"], key)
            object.__setattr__(self, f.name, value)
        self._validate()

    def _validate(self) -> None:
        """Cross-field checks of a subclass (raise RulesError)."""

    def replace(self: _R, **changes: Any) -> _R:
        """A copy with some fields changed, validated like a new one (an unknown
        field is refused by :meth:`__new__`)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: enums as strings, tuples as lists, nested dicts; a new
        dict each call, a copy of the one made by the first (rule data never
        changes, and a match reads it every deal: each history, a carried rule set)."""
        try:
            made = self.__dict__["_plain"]
        except KeyError:
            made = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
            object.__setattr__(self, "_plain", made)
        return plain_copy(made)  # type: ignore[no-any-return]

    @classmethod
    def _from_dict(cls: type[_R], data: dict[str, Any], where: str) -> _R:
        names = {f.name for f in dataclasses.fields(cls)}
        prefix = f"{where}." if where else ""
        for k in data:
            if not isinstance(k, str):
                raise RulesError(
                    f"rule key {prefix}{quote(k)}: keys must be strings "
                    f"(got {type(k).__name__})"
                )
        unknown = sorted(set(data) - names)
        if unknown:
            raise RulesError(f"unknown rule key(s): {_key_list(unknown, prefix)}")
        obj = cls.__new__(cls)
        obj_prefix = f"{where}." if where else ""
        object.__setattr__(obj, "_key_prefix", obj_prefix)
        defaults = cls()
        for f in dataclasses.fields(cls):
            # a left-out key takes the field's default as the constructor does (a
            # Natural's units: None, the usual value of its name), a factory's anew
            default = f.default
            if default is dataclasses.MISSING:
                default = getattr(defaults, f.name)
            object.__setattr__(obj, f.name, data.get(f.name, default))
        obj.__post_init__()
        object.__delattr__(obj, "_key_prefix")
        return obj

    @classmethod
    def from_dict(cls: type[_R], data: dict[str, Any]) -> _R:
        """Build from :meth:`to_dict` data.  Missing keys take their defaults;
        unknown keys, wrong types and impossible values raise :class:`RulesError`
        naming the key."""
        if not isinstance(data, dict):
            got = "int" if isinstance(data, _LongNumber) else type(data).__name__
            raise RulesError(f"rules: expected a dict, got {got}")
        return cls._from_dict(data, "")

    def to_json(self, **kwargs: Any) -> str:
        """JSON text of :meth:`to_dict` (``kwargs`` go to :func:`json.dumps`)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls: type[_R], text: str) -> _R:
        """Inverse of :meth:`to_json`.  Text that is no JSON, nests too deeply or
        gives a key twice in one object raises :class:`RulesError`; so does a number
        beyond a field's range, however long, naming its key.  A leading byte-order
        mark (as Windows editors save one) is read as nothing, in text as in bytes."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise RulesError(f"rules JSON: expected text, got {type(text).__name__}")
        if isinstance(text, str):  # json.loads drops it from bytes only
            text = text.removeprefix("\ufeff")
        try:
            data = json.loads(text, object_pairs_hook=unique_keys, parse_int=_read_int)
        except RecursionError:  # the parser's own limit (CPython before 3.13)
            raise RulesError("rules JSON: nested too deeply") from None
        except ValueError as exc:  # JSONDecodeError, digits beyond the int limit
            text = str(exc)
            raise RulesError(
                f"rules JSON: {text[:200]}{'...' if len(text) > 200 else ''}"
            ) from None
        if _depth(data) > _MAX_DEPTH:  # parsers that do not recurse (CPython 3.13+)
            raise RulesError("rules JSON: nested too deeply")
        return cls.from_dict(data)


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict, or RulesError (a ValueError) when a key repeats:
    ``json.loads`` alone keeps the last value and drops the others without a word."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RulesError(f"key {quote(key)} is given twice in one object")
        out[key] = value
    return out


_MAX_DEPTH = 64
"""Deepest nesting a rules JSON document may have (a rule set nests 4 levels)."""
_MAX_ITEMS = 64
"""Longest list of one rule field (the longest a rule set can use: 18 naturals)."""


def _depth(data: object) -> int:
    """Nesting depth of parsed JSON (lists and dicts), without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level <= _MAX_DEPTH:
                stack.extend(
                    (x, level + 1)
                    for x in (item.values() if isinstance(item, dict) else item)
                )
    return deepest
