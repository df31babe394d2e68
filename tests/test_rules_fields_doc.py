"""docs/rules.md, "Every field of a rule set": each field of a rule set and of its parts
is listed with its type, values and default, and a rules file plays what the page says:
the default is what a left-out key gets, each end of a documented range is taken, and a
value one past either end is refused with a RulesError naming the dotted key.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ofc_fast import RulesError
from ofc_fast.rules import Fantasyland, Lowball, Natural, Pool, RuleSet, Schedule

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
pytestmark = pytest.mark.skipif(
    not RULES_MD.exists(), reason="needs a source checkout (git clone: docs/rules.md)"
)
CLASSES = {c.__name__: c for c in (RuleSet, Schedule, Natural, Lowball, Fantasyland, Pool)}


def field_tables() -> dict[str, list[list[str]]]:
    """Class name -> the rows (cells) of its table in the section (none without the
    page: the tests beside an installed wheel)."""
    if not RULES_MD.exists():
        return {}
    text = RULES_MD.read_text(encoding="utf-8")
    section = text.split("### Every field of a rule set", 1)[1]
    tables: dict[str, list[list[str]]] = {}
    current = None
    for line in section.splitlines():
        head = re.match(r"^`(\w+)`( \(.*\))?:$", line)
        if head:
            current = head.group(1)
            tables[current] = []
        elif current and line.startswith("| `"):
            tables[current].append([cell.strip() for cell in line.strip("|").split("|")])
    return tables


TABLES = field_tables()


def documented_default(cell: str, code_value: Any) -> Any:
    """The default a table cell gives: JSON in backticks, or "every value `0`"."""
    if cell.startswith("every value"):
        zero = json.loads(re.search(r"`(.*)`", cell).group(1))  # type: ignore[union-attr]
        if isinstance(code_value, dict):  # a Schedule: every row
            return {k: [zero] * len(v) for k, v in code_value.items()}
        return [zero] * len(code_value)
    return json.loads(re.fullmatch(r"`(.*)`", cell).group(1))  # type: ignore[union-attr]


def test_the_page_lists_every_field_of_each_class() -> None:
    assert set(TABLES) == set(CLASSES)
    for name, cls in CLASSES.items():
        listed = [row[0].strip("`") for row in TABLES[name]]
        assert listed == [f.name for f in dataclasses.fields(cls)], name
        assert all(len(row) == 5 and row[1] and row[4] for row in TABLES[name]), name


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_left_out_key_takes_the_documented_default(name: str) -> None:
    """A rules object with every key left out reads as the page's defaults."""
    made = CLASSES[name].from_dict({}).to_dict()
    for row in TABLES[name]:
        field = row[0].strip("`")
        assert made[field] == documented_default(row[3], made[field]), (name, field)


# A rules file with one value put where each documented range applies, and the key the
# refusal names.  Contexts: a 2-7 entry needs a 2-7 middle, `lowball_both` the entry.
PLACES: dict[tuple[str, str], tuple[Callable[[int], dict[str, Any]], str]] = {
    **{
        ("RuleSet", f): ((lambda v, f=f: {f: v}), f)
        for f in (
            "max_players",
            "face_down_final",
            "sweep_bonus",
            "majority_bonus",
            "overall_bonus",
            "sweep_multiplier",
            "sweep_all_multiplier",
            "sweep_all_bonus",
            "single_winner",
            "surrender_cost",
        )
    },
    ("RuleSet", "royalties"): (
        lambda v: {"royalties": {"back": [0] * 9 + [v]}},
        "royalties",
    ),
    ("RuleSet", "win_bonus"): (
        lambda v: {"win_bonus": {"middle": [v] + [0] * 9}},
        "win_bonus",
    ),
    ("RuleSet", "aces_bet"): (lambda v: {"aces_bet": [0, 1, 2, 6, v]}, "aces_bet"),
    ("Natural", "units"): (
        lambda v: {"naturals": [{"name": "dragon", "units": v}]},
        "naturals[0].units",
    ),
    ("Lowball", "limit"): (lambda v: {"lowball": {"limit": v}}, "lowball.limit"),
    ("Lowball", "royalties"): (
        lambda v: {"lowball": {"royalties": [0] * 12 + [v]}},
        "lowball.royalties",
    ),
    ("Lowball", "nuts"): (lambda v: {"lowball": {"nuts": v}}, "lowball.nuts"),
    ("Fantasyland", "entry"): (
        lambda v: {"fantasyland": {"entry": [["QQ", v]]}},
        "fantasyland.entry[0]",
    ),
    ("Fantasyland", "lowball_entry"): (
        lambda v: {"lowball": {}, "fantasyland": {"lowball_entry": v}},
        "fantasyland.lowball_entry",
    ),
    ("Fantasyland", "lowball_both"): (
        lambda v: {"lowball": {}, "fantasyland": {"lowball_entry": 14, "lowball_both": v}},
        "fantasyland.lowball_both",
    ),
    ("Fantasyland", "stay_cards"): (
        lambda v: {"fantasyland": {"stay_cards": v}},
        "fantasyland.stay_cards",
    ),
    ("Pool", "ante"): (lambda v: {"game": "classic", "pool": {"ante": v}}, "pool.ante"),
    ("Pool", "sweep_extra"): (
        lambda v: {"game": "classic", "pool": {"sweep_extra": v}},
        "pool.sweep_extra",
    ),
}
RANGES = [
    (name, row[0].strip("`"), row[2])
    for name, rows in TABLES.items()
    for row in rows
    if re.search(r"-?\d+\.\.-?\d+", row[2]) and ("ints" not in row[1] or "each" in row[2])
]


def test_every_documented_range_is_checked_here() -> None:
    assert {(name, field) for name, field, _ in RANGES} == set(PLACES)


@pytest.mark.parametrize(("name", "field", "values"), RANGES)
def test_a_documented_range_is_the_one_a_rules_file_gets(
    name: str, field: str, values: str
) -> None:
    lo, hi = (int(v) for v in re.search(r"(-?\d+)\.\.(-?\d+)", values).groups())  # type: ignore[union-attr]
    make, key = PLACES[(name, field)]
    takes = [lo, hi] + ([0] if values.startswith("0 or ") else [])
    for v in takes:
        RuleSet.from_dict(make(v))  # taken
    for v in (lo - 1, hi + 1):
        if v == 0 and values.startswith("0 or "):
            continue
        with pytest.raises(RulesError, match=rf"^{re.escape(key)}(?!\w)"):
            RuleSet.from_dict(make(v))


@pytest.mark.parametrize(("name", "field", "values"), RANGES)
def test_a_refused_value_is_told_the_range_of_its_own_field(
    name: str, field: str, values: str
) -> None:
    """The refusal of a value one past either end of a documented range quotes that
    range, the field's own: ``win_bonus`` (-1..1000) and ``royalties`` (0..1000) were
    told the range of ``Schedule`` (``win_bonus.middle: 1001 is outside -1000..1000``),
    and a value below their least was told no range at all."""
    lo, hi = (int(v) for v in re.search(r"(-?\d+)\.\.(-?\d+)", values).groups())  # type: ignore[union-attr]
    make, key = PLACES[(name, field)]
    for v in (lo - 1, hi + 1):
        if v == 0 and values.startswith("0 or "):
            continue
        with pytest.raises(RulesError) as info:
            RuleSet.from_dict(make(v))
        message = str(info.value)
        assert re.match(rf"^{re.escape(key)}(?!\w)", message), message
        assert re.search(rf"(?<![\d.-]){re.escape(f'{lo}..{hi}')}(?![\d.])", message), (
            message
        )
        assert re.search(rf"(?<![\d.]){re.escape(str(v))}(?![\d.])", message), message


@pytest.mark.parametrize(
    ("name", "field", "values"),
    [
        (name, row[0].strip("`"), row[2])
        for name, rows in TABLES.items()
        for row in rows
        if row[1] == "word"
    ],
)
def test_each_documented_word_is_taken(name: str, field: str, values: str) -> None:
    words = re.findall(r"`(\w+)`", values)
    cls = CLASSES[name]
    # (a natural of no usual list has no units to take for granted: R-NAT-1)
    given = {"units": 1} if cls is Natural else {}
    for word in words:
        assert cls.from_dict({field: word, **given}).to_dict()[field] == word
    with pytest.raises(RulesError, match=rf"^{field}:"):
        cls.from_dict({field: words[0] + "_x"})
