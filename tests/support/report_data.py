"""Hand histories and match reports for the report tests, made in-process: deals
played by the built-in bots (some in Fantasyland), history lines written with
``deal_record``, and a report whose totals are summed here from the deals."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ofc_fast.arena.history import deal_record
from ofc_fast.bots import make_bots
from ofc_fast.game import Game, play_out

NAMES = ("heuristic", "random")


def deals(
    n: int, names: Sequence[str] = NAMES, *, fl_every: int = 4
) -> list[dict[str, Any]]:
    """``n`` history lines of Pineapple between heuristic (seat 0) and random; every
    ``fl_every``-th deal seat 0 plays in Fantasyland (14 cards)."""
    out = []
    for i in range(n):
        fl = [14, 0] if fl_every and i % fl_every == fl_every - 1 else [0, 0]
        g = Game("pineapple", 2, seed=1000 + i, fantasyland=fl)
        play_out(g, make_bots(",".join(NAMES), 2, "pineapple", seed=i))
        out.append(json.loads(json.dumps(deal_record(g, i, list(names)))))
    return out


def report_of(
    lines: Sequence[dict[str, Any]], names: Sequence[str] = NAMES
) -> dict[str, Any]:
    """A match report for ``lines`` (points, fouls, royalties summed from them)."""
    bots = []
    for s, name in enumerate(names):
        res = [d["history"]["result"] for d in lines]
        pts = [d["points"][s] for d in lines]
        bots.append(
            {
                "name": name,
                "kind": f"builtin:{NAMES[s]}",
                "points": sum(pts),
                "points_per_hand_mean": sum(pts) / len(pts) if pts else None,
                "points_per_hand_ci95": 1.5 if len(pts) > 1 else None,
                "hands": len(pts),
                "fouls": sum(r["fouls"][s] for r in res),
                "fantasylands": sum(1 for r in res if r["fantasyland"][s]),
                "scoops": 0,
                "royalties": sum(sum(r["royalties"][s]) for r in res),
                "faults": 0,
                "fault_kinds": {},
                "substituted": 0,
                "decisions": {"count": 9 * len(pts), "p50_ms": 0.25, "p99_ms": 1.75},
            }
        )
    return {
        "schema_version": 1,
        "family": "ofc",
        "game_id": "ofc-pineapple",
        "hands": len(lines),
        "seed": 1,
        "seat_count": 2,
        "forfeited_by": None,
        "rules": "PINEAPPLE",
        "bots": bots,
        "duplicate": None,
    }


def write(tmp: Path, report: dict[str, Any], lines: Sequence[Any]) -> tuple[Path, Path]:
    """The report and the history (one JSON line per deal; a str or bytes line is
    written as it is) under ``tmp``."""
    rep, hist = tmp / "r.json", tmp / "h.jsonl"
    rep.write_text(json.dumps(report))
    with open(hist, "wb") as f:
        for line in lines:
            if isinstance(line, str):
                line = line.encode("utf-8", "surrogatepass")
            f.write(line if isinstance(line, bytes) else json.dumps(line).encode())
            f.write(b"\n")
    return rep, hist
