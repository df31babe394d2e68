#!/usr/bin/env python3
"""Print the README's rule-preset table (markdown) from ``ofc_fast.rules``.

    python tools/presets_table.py

tests/test_readme.py checks that README.md holds exactly this table.
"""

from __future__ import annotations

import argparse
import sys

from ofc_fast import rules
from ofc_fast.rules import Game, HandCategory


def _scoring(r: rules.RuleSet) -> str:
    if r.pool is not None:
        return f"pool, ante {r.pool.ante} a row"
    parts = []
    if r.sweep_bonus == 3 and not r.majority_bonus:
        parts.append("1-6")
    elif r.majority_bonus and not r.sweep_bonus:
        parts.append("2-4")
    elif not r.sweep_bonus and not r.majority_bonus:
        parts.append("1 a row")
    else:
        parts.append(f"sweep +{r.sweep_bonus}, majority +{r.majority_bonus}")
    if r.sweep_multiplier > 1:
        parts.append(f"sweep x{r.sweep_multiplier}")
    if r.sweep_all_multiplier > 1:
        parts.append(f"table sweep x{r.sweep_all_multiplier}")
    if r.sweep_all_bonus:
        parts.append(f"table sweep +{r.sweep_all_bonus}")
    if r.house:
        parts.append("vs the bank, bank wins ties")
    if r.surrender_cost is not None:
        parts.append(f"surrender {r.surrender_cost}")
    if r.stakes.value == "chips":
        parts.append("chip cap")
    return "; ".join(parts)


def _range(values: tuple[int, ...], base: int) -> str:
    vals = [v + base for v in values if v]
    if not vals:
        return ""
    return str(vals[0]) if min(vals) == max(vals) else f"{vals[0]}..{vals[-1]}"


def _schedule(s: rules.Schedule, base: int = 0) -> str:
    """Compact text of the nonzero entries of a schedule (shown as value + base):
    front pairs/trips, then each category as middle/back."""
    parts = []
    if _range(s.front_pair, base):
        parts.append(f"front pairs {_range(s.front_pair, base)}")
    if _range(s.front_trips, base):
        parts.append(f"front trips {_range(s.front_trips, base)}")
    for cat in HandCategory:
        m, b = s.middle[cat], s.back[cat]
        if m or b:
            name = cat.name.lower().replace("_", " ")
            parts.append(f"{name} {m + base}/{b + base}")
    return ", ".join(parts)


def _bonuses(r: rules.RuleSet) -> str:
    out = []
    if r.lowball is not None:
        out.append(
            "royalties " + _schedule(r.royalties) + "; 2-7 middle: 9-high 1, "
            "8-high 2, 7-high 4, 7-5-4-3-2 8"
        )
    elif any(
        r.royalties.front_pair
        + r.royalties.front_trips
        + r.royalties.middle
        + r.royalties.back
    ):
        out.append("royalties " + _schedule(r.royalties))
    wb = r.win_bonus
    if any(wb.front_pair + wb.front_trips + wb.middle + wb.back):
        out.append("a won row pays " + _schedule(wb, base=1))
    return "; ".join(out) or "-"


def _fantasyland(r: rules.RuleSet) -> str:
    fl = r.fantasyland
    if fl is None:
        return "-"
    entry = ", ".join(f"{t} {n}" for t, n in fl.entry)
    if fl.lowball_entry:
        entry += f", 7-5-4-3-2 middle {fl.lowball_entry}, both {fl.lowball_both}"
    stays = [
        s
        for s in (
            fl.stay_front and f"{fl.stay_front}+ front",
            fl.stay_middle and f"{fl.stay_middle.name.lower().replace('_', ' ')}+ middle",
            fl.stay_back and f"{fl.stay_back.name.lower()}+ back",
        )
        if s
    ]
    return f"{entry}; stay: {' / '.join(stays)} -> {fl.stay_cards}"


def _naturals(r: rules.RuleSet) -> str:
    return ", ".join(f"{n.name} {n.units}" for n in r.naturals) or "-"


def table() -> str:
    head = (
        "| preset | game | scoring | royalties (paid win or lose) / won-row values "
        "(middle/back) | Fantasyland | naturals |\n"
        "|---|---|---|---|---|---|"
    )
    rows = []
    for r in rules.PRESETS.values():
        game = {Game.CLASSIC: "classic", Game.OFC: "OFC", Game.PINEAPPLE: "Pineapple"}[
            r.game
        ]
        rows.append(
            f"| `{r.name}` | {game}, 2-{r.max_players} | {_scoring(r)} | "
            f"{_bonuses(r)} | {_fantasyland(r)} | {_naturals(r)} |"
        )
    return "\n".join([head, *rows])


if __name__ == "__main__":
    argparse.ArgumentParser(  # no options: a stray one (--check) is refused, exit 2
        description="Print the README's rule-preset table (markdown)."
    ).parse_args()
    from ofc_fast.cli import run_command  # (a reader gone: no BrokenPipeError)

    sys.exit(run_command(lambda: print(table()), "presets_table.py"))
