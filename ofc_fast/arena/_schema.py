"""Reading untrusted JSON (:func:`parse`: one error class for every way it can fail;
:func:`json_integer` and :func:`json_number`, its numbers, :func:`reject_constant`,
:class:`LongInteger` and :class:`ManyDigits`, shared with the service),
and a small JSON Schema checker for the package's own schemas (``hand_history.schema.json``,
``report.schema.json``): the keywords they use (``type``, ``const``, ``enum``,
``required``, ``properties``, ``additionalProperties: false``, ``items``,
``prefixItems``, ``minItems``/``maxItems``, ``minimum``/``maximum``,
``minLength``/``maxLength``), with JSON's types: a bool is not an integer, and a
number is finite.  An integer ``const`` is a format version: a larger one, read
before any other field, is named as a later release's (upgrade, not a broken file).

It descends into a value only where the schema describes it, so its depth is the
schema's, whatever the value's nesting; an object it descends into (a dict a caller
made, not read from a text) has text keys only, as a JSON text's.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..errors import OfcError, RulesError, quote, unicode_problem
from ..rules import unique_keys

__all__ = [
    "MAX_DIGITS",
    "LongInteger",
    "ManyDigits",
    "json_integer",
    "json_number",
    "parse",
    "problem",
    "reject_constant",
]

MAX_DIGITS = sys.get_int_max_str_digits() or sys.int_info.default_max_str_digits
"""The most digits of an integer the interpreter reads as one (4,300 by default)."""


class LongInteger(ValueError):
    """An integer of a JSON text with more digits than the interpreter reads as one
    (``digits``: how many, None where too many to count); its text says so (``an
    integer of 5000 digits``), for the reader to say which field takes none."""

    def __init__(self, digits: int | None) -> None:
        many = f"more than {MAX_DIGITS:,}" if digits is None else str(digits)
        super().__init__(f"an integer of {many} digits")


def json_integer(text: str) -> int:
    """A JSON integer literal as an int (the ``parse_int`` of :func:`json.loads`); one
    of more digits than the interpreter turns into an int
    (``sys.get_int_max_str_digits()``, 4,300) is a :class:`LongInteger`, not text
    that is no JSON.

    >>> json_integer("-12")
    -12
    >>> try:
    ...     json_integer("9" * 5000)
    ... except LongInteger as exc:
    ...     print(exc)
    an integer of 5000 digits
    """
    try:
        return int(text)
    except ValueError:
        raise LongInteger(len(text.lstrip("-"))) from None


def reject_constant(name: str) -> Any:
    """The ``parse_constant`` of :func:`json.loads`: ``NaN``, ``Infinity`` and
    ``-Infinity`` are no JSON (RFC 8259, 6), a ValueError saying so."""
    raise ValueError(f"{name} is not JSON")


class ManyDigits(ValueError):
    """The whole numbers of a text written with an exponent hold more digits in all
    than its ``budget`` (:func:`json_number`)."""


def json_number(text: str, budget: list[int] | None = None) -> float | int:
    """A JSON number written with a fraction or an exponent: an int where its value is
    whole (the ``parse_float`` of :func:`json.loads`).  JSON has one number type, and
    JSON Schema's ``integer`` (the package's schemas', ``/openapi.json``'s: a seed,
    ``hand_no``, card ids...) admits ``4.0`` and ``1e3``, so every field that takes
    ``4`` takes them too; a whole number beyond every float (``1e400``) is the
    integer it is, as if written out (out of a field's range; beyond the digits the
    interpreter reads, a :class:`LongInteger`).  ``budget``: the digits the text's
    whole numbers may still make, in one item, taken from (beyond, a
    :class:`ManyDigits`): 7 bytes, ``1e4000``, make 4,001 digits, and a 1 MiB text of
    them 250 MB of integers, read for minutes.

    >>> json_number("4.0"), json_number("1e3"), json_number("0.25")
    (4, 1000, 0.25)
    >>> json_number("1e400") == 10**400
    True
    >>> json_number("18446744073709551615.0"), json_number("3.0000000000000001")
    (18446744073709551615, 3.0)
    >>> json_number("0e99999999999999999999"), json_number("5e-99999999999999999999")
    (0, 0.0)
    >>> try:
    ...     json_number("1e99999")
    ... except ValueError as exc:
    ...     print(exc)
    an integer of 100000 digits
    """
    value = float(text)
    if not value.is_integer() and not math.isinf(value):
        return value
    try:
        exact = Decimal(text)  # the literal's own value, not its nearest float
    except ArithmeticError:  # an exponent beyond Decimal's: 0, a fraction, or vast
        if not re.split("[eE]", text, maxsplit=1)[0].strip("+-0."):
            return 0  # 0e...
        if math.isinf(value):
            raise LongInteger(None) from None
        return value  # a fraction
    if exact != exact.to_integral_value():
        return value
    digits = exact.adjusted() + 1
    if digits > MAX_DIGITS:  # (as int() refuses such a literal written out)
        raise LongInteger(digits)
    if budget is not None:
        budget[0] -= digits
        if budget[0] < 0:
            raise ManyDigits
    return int(exact)


def parse(data: str | bytes, error: type[OfcError]) -> object:
    r"""The JSON value of ``data`` (UTF-8 when bytes; a leading byte-order mark, as
    Windows editors save one, is read as nothing; a whole number written with a
    fraction or an exponent, ``1.0``, an int: :func:`json_number`); ``error`` saying
    why when it is not UTF-8, not JSON (``NaN``, ``Infinity``), nested too deep for
    the parser, gives a key twice in one object (readers differ on which value
    counts) or holds an integer of more digits than the interpreter reads (no field
    of ours takes one).

    >>> parse(b"[1, 2.0]", ValueError), parse("\ufeff[1]", ValueError)
    ([1, 2], [1])
    >>> parse(b"[" * 100000, OfcError)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: not JSON: nested too deep
    >>> parse(b'{"a": 1, "a": 2}', OfcError)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: key 'a' is given twice in one object
    >>> parse(b"[1e400]", OfcError) == [10**400]
    True
    >>> parse(b"[1e4000, 1e4000]", OfcError)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: its numbers written with an exponent make more than 4,300 digits in all, which no field takes
    """  # noqa: E501 - the error message as the user sees it
    if isinstance(data, bytes):
        raw = data
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(
                f"not UTF-8 (byte {raw[exc.start]:#04x} at offset {exc.start})"
                + _encoding_hint(raw)
            ) from None
    most = max(len(data), MAX_DIGITS)  # (what the text could write out, or one int)
    budget = [most]
    try:
        return json.loads(
            data.removeprefix("\ufeff"),
            parse_int=json_integer,
            parse_float=lambda text: json_number(text, budget),
            parse_constant=reject_constant,
            object_pairs_hook=unique_keys,
        )
    except RecursionError:
        raise error("not JSON: nested too deep") from None
    except LongInteger as exc:
        raise error(f"{exc}, which no field takes") from None
    except ManyDigits:
        raise error(
            f"its numbers written with an exponent make more than {most:,} digits in "
            "all, which no field takes"
        ) from None
    except RulesError as exc:  # a key given twice (unique_keys)
        raise error(str(exc)) from None
    except ValueError as exc:
        raise error(f"not JSON ({str(exc)[:80]})") from None


def _encoding_hint(data: bytes) -> str:
    r"""What a text that is not UTF-8 is, by its first bytes, for its error: compressed
    with gzip (``deals.jsonl.gz``), or UTF-16 after its byte-order mark (Windows
    PowerShell's ``>`` writes it); else nothing.

    >>> _encoding_hint(b"\xff\xfe{"), _encoding_hint(b"\xff")
    (': UTF-16 text: save it as UTF-8', '')
    """
    if data.startswith(b"\x1f\x8b"):
        return ": compressed with gzip: decompress it first (gunzip)"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return ": UTF-16 text: save it as UTF-8"
    return ""


def _is(value: object, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "integer":
        return type(value) is int
    if kind == "number":
        return type(value) is int or (type(value) is float and math.isfinite(value))
    raise AssertionError(f"schema type {kind!r} is not supported")


def _kinds(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    return [] if kind is None else [kind] if isinstance(kind, str) else list(kind)


def problem(value: object, schema: Mapping[str, Any], path: str = "") -> str | None:
    """The first place where ``value`` breaks ``schema`` (``"seats: expected at least 2
    items, got 0"``), or None when it conforms.

    >>> problem({"a": [1, True]}, {"properties": {"a": {"items": {"type": "integer"}}}})
    'a[1]: expected integer, got True'
    """
    where = path or "the line"
    kinds = _kinds(schema)
    if kinds and not any(_is(value, k) for k in kinds):
        return f"{where}: expected {' or '.join(kinds)}, got {quote(value)}"
    if _newer(value, schema, where):
        from .. import __version__

        return (
            f"{where}: version {value} is newer than this ofc-fast ({__version__}) "
            f"reads ({schema['const']}): written by a later release? upgrade it "
            "(pip install -U ofc-fast)"
        )
    if "const" in schema and not _same(value, schema["const"]):
        return f"{where}: expected {schema['const']!r}, got {quote(value)}"
    if "enum" in schema and not any(_same(value, v) for v in schema["enum"]):
        return f"{where}: expected one of {schema['enum']!r}, got {quote(value)}"
    if _is(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            return f"{where}: expected at least {schema['minimum']}, got {quote(value)}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{where}: expected at most {schema['maximum']}, got {quote(value)}"
    if isinstance(value, str):
        bad = unicode_problem(value)
        if bad is not None:
            return f"{where}: {bad}"
        if len(value) < schema.get("minLength", 0):
            return f"{where}: expected at least {schema['minLength']} characters"
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return f"{where}: expected at most {schema['maxLength']} characters"
    if isinstance(value, dict):
        return _object_problem(value, schema, path)
    if isinstance(value, list):
        return _array_problem(value, schema, path)
    return None


_VERSION_KEYS = frozenset({"version", "schema_version"})  # the files' format versions


def _newer(value: object, schema: Mapping[str, Any], path: str) -> bool:
    """Whether ``value``, at ``path``, is a format version above the one ``schema``
    reads (the integer ``const`` of a key named as a version: any other integer
    ``const`` is a fixed value, not a version)."""
    if path.rsplit(".", 1)[-1] not in _VERSION_KEYS:
        return False
    const = schema.get("const")
    return _is(const, "integer") and _is(value, "integer") and value > const  # type: ignore[operator]


def _same(a: object, b: object) -> bool:
    """JSON equality: ``1 == True`` is not."""
    return type(a) is type(b) and a == b


def _object_problem(
    value: dict[Any, Any], schema: Mapping[str, Any], path: str
) -> str | None:
    prefix = f"{path}." if path else ""
    for key in value:  # (a dict a caller made: a JSON text's keys are all text)
        if not isinstance(key, str):
            return f"{prefix}{quote(key)}: a key that is no text (JSON's keys are)"
    props = schema.get("properties", {})
    for key, sub in props.items():  # a newer format's version: first, whatever else
        if key in value and _newer(value[key], sub, f"{prefix}{key}"):
            return problem(value[key], sub, f"{prefix}{key}")
    for key in schema.get("required", ()):
        if key not in value:
            return f"{prefix}{key}: missing"
    if schema.get("additionalProperties") is False:
        extra = sorted(str(k) for k in value if k not in props)
        if extra:
            return f"{prefix}{quote(extra[0])}: not a known field"
    for key, sub in props.items():
        if key in value:
            found = problem(value[key], sub, f"{prefix}{key}")
            if found:
                return found
    return None


def _array_problem(value: list[Any], schema: Mapping[str, Any], path: str) -> str | None:
    where = path or "the line"
    if len(value) < schema.get("minItems", 0):
        return f"{where}: expected at least {schema['minItems']} items, got {len(value)}"
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        return f"{where}: expected at most {schema['maxItems']} items, got {len(value)}"
    prefix = schema.get("prefixItems", [])
    for i, item in enumerate(value):
        sub = prefix[i] if i < len(prefix) else schema.get("items")
        if sub is not None:
            found = problem(item, sub, f"{path}[{i}]")
            if found:
                return found
    return None
