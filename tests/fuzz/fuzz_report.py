"""Fuzz the HTML report's inputs: history files as raw bytes (read_histories), history
lines and match reports with one value replaced by an arbitrary object or by text
carrying an injected tag (html_report), report files as raw bytes (the reading of
read_report).

Contract: only OfcError (HistoryError, ArenaError); a page that is written holds no
injected tag and no ``<!--`` anywhere, and its JSON island no ``<``, ``>`` or ``&``
(so nothing from a file can end or hide the page's script elements).
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import atheris
from _common import any_object, main, mutate, ours

from ofc_fast.arena.history import deal_record, read_histories
from ofc_fast.arena.html import html_report
from ofc_fast.arena.report import read_report
from ofc_fast.bots import make_bots
from ofc_fast.game import Game, play_out

TAG = "<x-inj>"
NAMES = ["heuristic", "random"]
TEXT_FIELDS = [("game_id",), ("rules",), ("forfeited_by",), ("bots", 0, "name")]


def _deals() -> list[dict[str, Any]]:
    out = []
    for i, fl in enumerate(([0, 0], [14, 0], [0, 0])):
        g = Game("pineapple", 2, seed=50 + i, fantasyland=fl)
        play_out(g, make_bots(",".join(NAMES), 2, "pineapple", seed=i))
        out.append(json.loads(json.dumps(deal_record(g, i, NAMES))))
    return out


DEALS = _deals()
REPORT = {
    "schema_version": 1,
    "family": "ofc",
    "game_id": "ofc-pineapple",
    "hands": 3,
    "seed": 1,
    "rules": "PINEAPPLE",
    "forfeited_by": None,
    "duplicate": {
        "decks": 1,
        "pairs": [
            {
                "a": NAMES[0],
                "b": NAMES[1],
                "difference_per_deck_mean": 1.0,
                "difference_per_deck_ci95": None,
            }
        ],
    },
    "bots": [
        {
            "name": name,
            "points": sum(d["points"][s] for d in DEALS),  # (html_report: its history)
            "points_per_hand_mean": 0.0,
            "points_per_hand_ci95": 1.0,
            "fouls": 0,
            "fantasylands": 1,
            "scoops": 0,
            "royalties": 0,
            "faults": 0,
            "substituted": 0,
            "decisions": {"count": 9, "p50_ms": 0.5, "p99_ms": None},
        }
        for s, name in enumerate(NAMES)
    ],
}


def hostile(fdp: atheris.FuzzedDataProvider) -> Any:
    """Text with an injected tag (and what ends or hides a script), or any object."""
    if fdp.ConsumeIntInRange(0, 3) == 0:
        return any_object(fdp)
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 12))
    extra = fdp.PickValueInList(["", "<!--<script>", "</script>", "\u2028", "&amp;", "'\""])
    return text + TAG + extra


def check_page(page: str) -> None:
    assert TAG not in page and "<!--" not in page
    island = page.split("id='report-data'>", 1)[1].split("</script>", 1)[0]
    assert not set("<>&\u2028\u2029") & set(island)
    json.loads(island)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 4)
    if mode == 0:  # a history file: a good line and raw bytes
        raw = json.dumps(DEALS[0]).encode() + b"\n" + fdp.ConsumeBytes(4000)
        ours(lambda: list(read_histories(io.BytesIO(raw))))
        return
    if mode == 1:  # a report file's bytes
        ours(read_report, io.BytesIO(fdp.ConsumeBytes(4000)))
        return
    report, deals = copy.deepcopy(REPORT), copy.deepcopy(DEALS)
    make = hostile if fdp.ConsumeBool() else any_object
    for _ in range(fdp.ConsumeIntInRange(1, 3)):
        if mode == 2:
            mutate(fdp.PickValueInList(deals), fdp, depth=7, make=make)
        elif mode == 3:
            mutate(report, fdp, depth=5, make=make)
        else:  # a name everywhere it appears, or a text field of the report
            name = hostile(fdp)
            for d in deals:
                d["seats"][0] = name
            report["bots"][0]["name"] = report["duplicate"]["pairs"][0]["a"] = name
            path = fdp.PickValueInList(TEXT_FIELDS)
            node: Any = report
            for key in path[:-1]:
                node = node[key]
            if path == ("forfeited_by",):  # (a bot of the match, at its first fault)
                report["bots"][0]["faults"] = 1
            node[path[-1]] = name if path == ("forfeited_by",) else hostile(fdp)
    embed = fdp.PickValueInList([None, 0, 1])
    ok, page = ours(html_report, report, deals, embed=embed)
    if ok:
        check_page(page)


if __name__ == "__main__":
    main(test_one_input)
