"""Match reports and hand histories read as files against the JSON Schemas the
package ships (``report.schema.json``, ``hand_history.schema.json``): what the schema
allows is read, what it does not is refused with an OfcError naming the field (and
the line), and the numbers of a file are those its writer could have written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_data import deals, report_of

from ofc_fast.arena.report import REPORT_SCHEMA_PATH, read_report
from ofc_fast.errors import ArenaError

SEED_LIMIT = 2**64
"""The seeds a match is dealt from: 0 to 2**64 - 1 (docs/arena.md, ``--seed``)."""
SAFE_INTEGER = 2**53 - 1
"""The largest count a page's script reads exactly (a JavaScript number)."""


@pytest.fixture(scope="module")
def lines() -> list[dict[str, Any]]:
    return deals(2)


def _jsonschema_valid(schema_path: Path, doc: object) -> bool | None:
    """Whether the reference validator finds ``doc`` valid (None without it)."""
    try:
        import jsonschema
    except ImportError:
        return None
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return bool(jsonschema.Draft202012Validator(schema).is_valid(doc))


@pytest.mark.parametrize(
    ("field", "value", "taken"),
    [
        ("seed", 0, True),
        ("seed", SEED_LIMIT - 1, True),
        ("seed", SEED_LIMIT, False),
        ("seed", -1, False),
        ("seed", 10**30, False),
        ("hands", SAFE_INTEGER, True),
        ("hands", SAFE_INTEGER + 1, False),
        ("hands", 10**100, False),
    ],
)
def test_a_report_number_its_match_cannot_have_is_refused(
    field: str, value: int, taken: bool, lines: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A report whose ``seed`` is no seed a match is dealt from (past 2**64 - 1, or
    negative) or whose ``hands`` is past what the page counts exactly was read as a
    match's report; the schema and the reader now both refuse it, naming the field."""
    report = {**report_of(lines), field: value}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert _jsonschema_valid(REPORT_SCHEMA_PATH, report) in (None, taken)
    if taken:
        assert read_report(path)[field] == value
        return
    with pytest.raises(ArenaError) as caught:
        read_report(path)
    assert str(caught.value).startswith(f"{path}: report: {field}: expected at ")
