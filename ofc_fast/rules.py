"""Rule sets: frozen dataclasses describing how a table scores, and named presets.

>>> from ofc_fast import rules
>>> rules.OFC.sweep_bonus, rules.OFC.royalties.middle[rules.HandCategory.FLUSH]
(3, 8)
>>> house = rules.OFC.replace(name="house", royalties=rules.OFC.royalties.replace(
...     front_trips=(20,) * 13))                       # R-ROY-OFC-4, flat 20
>>> rules.RuleSet.from_dict(house.to_dict()) == house
True
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .errors import RulesError
from .ranking import HandCategory

__all__ = ["HandCategory", "Schedule", "OrderRule", "MajorityRule", "RuleSet", "OFC",
           "PINEAPPLE", "CLASSIC_1_6", "CLASSIC_2_4", "PRESETS", "get", "names"]


def _int_tuple(value: Any, length: int, key: str) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise RulesError(f"{key}: expected a list of {length} ints, got {value!r}")
    if len(value) != length:
        raise RulesError(f"{key}: expected {length} values, got {len(value)}")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise RulesError(f"{key}: expected ints, got {v!r}")
        if not -32768 <= v <= 32767:
            raise RulesError(f"{key}: value {v} outside -32768..32767")
    return tuple(value)


@dataclass(frozen=True)
class Schedule:
    """Units per row and hand: the front by the rank of its pair or trips (2..A), the
    middle and back by :class:`HandCategory` (HIGH_CARD .. ROYAL_FLUSH).

    >>> Schedule().back
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    """

    front_pair: tuple[int, ...] = (0,) * 13
    front_trips: tuple[int, ...] = (0,) * 13
    middle: tuple[int, ...] = (0,) * 10
    back: tuple[int, ...] = (0,) * 10

    def __post_init__(self) -> None:
        for f, n in (("front_pair", 13), ("front_trips", 13), ("middle", 10), ("back", 10)):
            object.__setattr__(self, f, _int_tuple(getattr(self, f), n, f))

    def replace(self, **changes: Any) -> Schedule:
        """A copy with some rows changed."""
        return dataclasses.replace(self, **changes)

    @staticmethod
    def by_category(values: dict[HandCategory, int]) -> tuple[int, ...]:
        """A 10-entry row from ``{HandCategory: units}`` (others 0)."""
        row = [0] * 10
        for cat, units in values.items():
            row[HandCategory(cat)] = units
        return tuple(row)


class OrderRule(str, Enum):
    """Row ordering (R-ORDER-1)."""

    NONSTRICT = "nonstrict"  #: front <= middle <= back (default, [003])
    STRICT = "strict"        #: front < middle < back
    MIXED = "mixed"          #: front < middle <= back ([001] OFC page)


class MajorityRule(str, Enum):
    """Who takes the majority bonus of 2-4 scoring (Q-4)."""

    TWO_ROWS = "two_rows"    #: a side that won two or more rows ([003])
    MORE_ROWS = "more_rows"  #: a side that won more rows than the other ([001])


_C = HandCategory
OFC_ROYALTIES = Schedule(
    front_pair=(0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9),  # 66 = 1 .. AA = 9
    front_trips=tuple(range(10, 23)),  # 222 = 10 .. AAA = 22
    middle=Schedule.by_category({_C.TRIPS: 2, _C.STRAIGHT: 4, _C.FLUSH: 8,
                                 _C.FULL_HOUSE: 12, _C.QUADS: 20, _C.STRAIGHT_FLUSH: 30,
                                 _C.ROYAL_FLUSH: 50}),
    back=Schedule.by_category({_C.STRAIGHT: 2, _C.FLUSH: 4, _C.FULL_HOUSE: 6,
                               _C.QUADS: 10, _C.STRAIGHT_FLUSH: 15, _C.ROYAL_FLUSH: 25}),
)
"""R-ROY-OFC-3/4: the standard OFC schedule (front trips by rank, middle trips 2)."""

CLASSIC_WIN_BONUS = Schedule(
    front_trips=(2,) * 13,  # a row won with front trips pays 3 instead of 1
    middle=Schedule.by_category({_C.FULL_HOUSE: 1, _C.QUADS: 3, _C.STRAIGHT_FLUSH: 4,
                                 _C.ROYAL_FLUSH: 4}),
    back=Schedule.by_category({_C.QUADS: 3, _C.STRAIGHT_FLUSH: 4, _C.ROYAL_FLUSH: 4}),
)
"""R-BON-CP-2: extra units (on top of 1) for a row won with the hand."""


@dataclass(frozen=True)
class RuleSet:
    """How a table scores.  Frozen: derive variants with :meth:`replace`.

    Scoring of a pair (R-SCORE-*): each row won pays ``1 + win_bonus`` (of the
    winner's hand) units; winning all three rows adds ``sweep_bonus``; the majority of
    rows adds ``majority_bonus``; both players collect ``royalties`` for the hands they
    made whether or not the row wins, netted; the net winner adds ``overall_bonus``.
    A fouled board loses every row and earns nothing; two fouled boards exchange
    nothing (R-FOUL-3/4).
    """

    name: str = "custom"
    description: str = ""
    game: str = "ofc"  #: "classic", "ofc" or "pineapple" (game flow)
    sweep_bonus: int = 3
    majority_bonus: int = 0
    majority_rule: MajorityRule = MajorityRule.TWO_ROWS
    overall_bonus: int = 0
    royalties: Schedule = field(default_factory=Schedule)
    win_bonus: Schedule = field(default_factory=Schedule)
    order: OrderRule = OrderRule.NONSTRICT

    def __post_init__(self) -> None:
        _validate(self)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (validated).

        >>> OFC.replace(sweep_bonus=0).sweep_bonus
        0
        """
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(f"unknown rule field(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (enums as strings, schedules as dicts of lists)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, Schedule):
                value = {k: list(v) for k, v in dataclasses.asdict(value).items()}
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Build from :meth:`to_dict` data; unknown keys and bad values raise
        :class:`RulesError` naming the key.  Missing keys take the defaults."""
        if not isinstance(data, dict):
            raise RulesError(f"rules: expected a dict, got {type(data).__name__}")
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise RulesError(f"unknown rule key(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("royalties", "win_bonus"):
                if not isinstance(value, dict):
                    raise RulesError(f"{key}: expected a dict of rows, got {value!r}")
                rows = {f.name for f in dataclasses.fields(Schedule)}
                bad = set(value) - rows
                if bad:
                    raise RulesError(f"{key}: unknown row(s) {', '.join(sorted(bad))}")
                try:
                    value = Schedule(**value)
                except RulesError as exc:
                    raise RulesError(f"{key}.{exc}") from None
            elif key == "order":
                value = _enum(OrderRule, value, key)
            elif key == "majority_rule":
                value = _enum(MajorityRule, value, key)
            kwargs[key] = value
        return cls(**kwargs)

    def to_json(self, **kwargs: Any) -> str:
        """JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> RuleSet:
        """Inverse of :meth:`to_json`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError(f"rules JSON: {exc}") from None
        return cls.from_dict(data)


def _enum(kind: type[Enum], value: Any, key: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in kind)  # type: ignore[attr-defined]
        raise RulesError(f"{key}: {value!r} is not one of {allowed}") from None


_GAMES = ("classic", "ofc", "pineapple")


def _validate(r: RuleSet) -> None:
    for key in ("name", "description", "game"):
        if not isinstance(getattr(r, key), str):
            raise RulesError(f"{key}: expected a string, got {getattr(r, key)!r}")
    if r.game not in _GAMES:
        raise RulesError(f"game: {r.game!r} is not one of {', '.join(_GAMES)}")
    for key in ("sweep_bonus", "majority_bonus", "overall_bonus"):
        v = getattr(r, key)
        if isinstance(v, bool) or not isinstance(v, int):
            raise RulesError(f"{key}: expected an int, got {v!r}")
        if not 0 <= v <= 1000:
            raise RulesError(f"{key}: {v} outside 0..1000")
    for key, kind in (("order", OrderRule), ("majority_rule", MajorityRule)):
        if not isinstance(getattr(r, key), kind):
            object.__setattr__(r, key, _enum(kind, getattr(r, key), key))
    for key in ("royalties", "win_bonus"):
        if not isinstance(getattr(r, key), Schedule):
            raise RulesError(f"{key}: expected a Schedule, got {getattr(r, key)!r}")
    sched = r.win_bonus
    if min(sched.front_pair + sched.front_trips + sched.middle + sched.back) < -1:
        raise RulesError("win_bonus: a won row must pay at least 0 units (bonus >= -1)")


OFC = RuleSet(
    name="OFC",
    description="Open Face Chinese Poker: 1-6 scoring, standard royalties netted, "
                "Fantasyland on QQ+ with 13 cards",
    game="ofc",
    royalties=OFC_ROYALTIES,
)
PINEAPPLE = OFC.replace(
    name="PINEAPPLE",
    description="Pineapple OFC: OFC scoring and royalties, 5 then 4 rounds of "
                "3 cards (place 2, discard 1), Fantasyland 14 cards",
    game="pineapple",
)
CLASSIC_1_6 = RuleSet(
    name="CLASSIC_1_6",
    description="Classic Chinese Poker, 1-6 method (1 a row, +3 sweep), win-only "
                "bonuses (front trips 3, middle full house 2, quads 4, straight flush 5)",
    game="classic",
    win_bonus=CLASSIC_WIN_BONUS,
)
CLASSIC_2_4 = CLASSIC_1_6.replace(
    name="CLASSIC_2_4",
    description="Classic Chinese Poker, 2-4 method (1 a row, +1 for two or more rows), "
                "win-only bonuses as CLASSIC_1_6",
    sweep_bonus=0,
    majority_bonus=1,
)

PRESETS: dict[str, RuleSet] = {r.name: r for r in (OFC, PINEAPPLE, CLASSIC_1_6,
                                                    CLASSIC_2_4)}
"""Every preset by name."""


def names() -> list[str]:
    """Names of the presets."""
    return list(PRESETS)


def get(name: str) -> RuleSet:
    """A preset by name, case-insensitive (``"pineapple"``, ``"classic-2-4"``).

    >>> get("pineapple") is PINEAPPLE
    True
    """
    key = str(name).upper().replace("-", "_").replace(" ", "_")
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(f"unknown rule set {name!r}; presets: {', '.join(PRESETS)}") from None
