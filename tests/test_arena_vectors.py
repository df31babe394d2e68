"""Showdowns and scores captured from the poker-arena reference arena (the example
transcript of WIRE_PROTOCOL_OFC.md and its transcripts/ofc.jsonl, ofc-27.jsonl), as
test vectors for the game-id mapping: the same final boards give the same fouls, raw
royalties per row, next-hand Fantasyland and points under the preset each id maps to
(the row values are engine-specific and not compared)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ofc_fast import settle
from ofc_fast.arena import rules_for_game_id
from ofc_fast.arena._events import showdown_event
from ofc_fast.board import Board
from ofc_fast.fantasyland import fantasyland_cards

# (game id, [(board, in Fantasyland, royalties top/middle/bottom, fouled, next FL,
# points)] in seat order 0, 1, ...)
VECTORS: list[
    tuple[str, str, list[tuple[str, int, tuple[int, int, int], bool, Any, int]]]
] = [
    (
        "WIRE_PROTOCOL_OFC.md example",
        "ofc-pineapple",
        [
            ("5d Tc Js / 4s Kd Ts Th Qs / Ad Kc Ah 8h 4c", 0, (0, 0, 0), False, None, -7),
            ("5s Qd Kh / 3h 5c 7c Qc 3s / 2c 2h 6c 6h 6s", 0, (0, 0, 6), False, None, 7),
        ],
    ),
    (
        "ofc.jsonl hand 3",
        "ofc",
        [
            ("9c 8c 6s / 5d Jc 4c As 6d / 6c Td Kd Ad Qs", 0, (0, 0, 0), False, None, -11),
            ("4s Tc Jd / 6h Jh 7h 4d Qh / 2h 3h Th Ks Ac", 0, (0, 0, 0), False, None, -13),
            ("3d Kc 8h / 5c Qd Ah 8d 3s / 7c 3c Js 9d 7d", 0, (0, 0, 0), False, None, 11),
            ("7s Qc 2s / 2c 2d 5s Ts Kh / 9h 9s 4h 5h 8s", 0, (0, 0, 0), False, None, 13),
        ],
    ),
    (
        "ofc.jsonl hand 127",
        "ofc",
        [
            ("Jh Qc Th / 6c 6d 8c Jd 4d / Jc 5d Ks 4c 7d", 0, (0, 0, 0), True, None, -28),
            ("Kc Qh 3c / 6h 4s 7s 7h Ts / 2c 2h 3h 8d 8s", 0, (0, 0, 0), False, None, -2),
            ("8h Kh Qd / 5s Td Kd Qs As / Ah 4h 6s Ac 2s", 0, (0, 0, 0), False, None, -4),
            ("3s 5h 2d / 7c Ad 5c Js Tc / 9c 9h 9s 3d 9d", 0, (0, 0, 10), False, None, 34),
        ],
    ),
    (
        "ofc.jsonl hand 248",
        "ofc",
        [
            ("9d Qs Qd / 8d Kc Kh 7c 7h / Ah As 3c Ts Tc", 0, (7, 0, 0), False, 13, 39),
            ("5s Ad 5d / 2s Kd 2h 4d 8c / 3h Ks 4h Jd 3d", 0, (0, 0, 0), True, None, -13),
            ("5c 2d 6d / 8s 8h 6h 9s Th / 2c 3s 4s 6c Qh", 0, (0, 0, 0), True, None, -13),
            ("9h Js Jh / 9c Ac Qc Td 6s / 7d Jc 5h 7s 4c", 0, (6, 0, 0), True, None, -13),
        ],
    ),
    (
        "ofc-27.jsonl hand 477",
        "ofc-27",
        [
            ("9h 2h Ks / 2c Kd 7s 5h Qc / 8c 8d Ah 3s 5s", 0, (0, 0, 0), True, None, -14),
            ("5c 2s 7h / 6h Jh 6s 7d 4h / 3h 6d 9s Js Ad", 0, (0, 0, 0), True, None, -14),
            ("9c Jc Ac / 2d 3c 4d 6c 8h / Tc Td Th Kc Kh", 0, (0, 2, 6), False, None, 28),
        ],
    ),
    (
        "ofc-27.jsonl hand 892",
        "ofc-27",
        [
            ("7d 6c 6s / 2h Kc 6d 9h 3s / 4c 5d 7c Qh Ah", 0, (1, 0, 0), True, None, -18),
            ("4h Kd Ks / 3h 6h 7s 2c 5c / As 3d Qs 3c Ac", 0, (8, 4, 0), False, 14, 36),
            ("5s Jd Ts / 7h 8c 4d 8d Tc / Jc 9s 8h Ad Qd", 0, (0, 0, 0), True, None, -18),
        ],
    ),
    (
        "ofc-27.jsonl hand 1451",
        "ofc-27",
        [
            ("7s 8d Kh / 2d 3d 4s 5s 7h / Th Jd Qc Kc Ac", 14, (0, 8, 2), False, None, 31),
            ("9h 7c 8c / 3h 8h 6s 7d 9d / As 2h 9s Qh Ad", 0, (0, 1, 0), False, None, -8),
            ("5d Tc Js / 4h 6c 3c 5h 2c / 2s 4d Ts Jc Ah", 0, (0, 0, 0), True, None, -23),
        ],
    ),
]


@pytest.mark.parametrize("source, game_id, seats", VECTORS, ids=[v[0] for v in VECTORS])
def test_reference_showdowns(source: str, game_id: str, seats: list[Any]) -> None:
    rules = rules_for_game_id(game_id)
    boards = [Board.parse(s[0]) for s in seats]
    next_fl = [fantasyland_cards(b, rules, s[1]) for b, s in zip(boards, seats)]
    result = SimpleNamespace(boards=boards, fantasyland=next_fl)
    for seat, (_text, _, royalties, fouled, nxt, _) in enumerate(seats):
        ev = showdown_event(seat, rules, result)  # type: ignore[arg-type]
        assert (
            ev["royalties"]["top"],
            ev["royalties"]["middle"],
            ev["royalties"]["bottom"],
        ) == royalties, (source, seat)
        assert ev["fouled"] is fouled and ev["next_fantasyland"] == nxt, (source, seat)
    assert list(settle(boards, rules).net) == [s[5] for s in seats], source
