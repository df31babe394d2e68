"""Every table-level field of every preset, written here from docs/rules.md (the rule ids
in the comments), against the preset as a rules file holds it.  The royalty and
won-row tables and the naturals are pinned in tests/test_presets.py; every other field
is pinned here, so that a field added to ``RuleSet`` must be given its value per preset.
"""

from __future__ import annotations

from typing import Any

import pytest

from ofc_fast import rules, settle

PINNED_ELSEWHERE = {"name", "description", "royalties", "win_bonus", "naturals"}

# What every preset plays unless its rules say otherwise: 1-6 (R-SCORE-2), no majority
# or overall point, no multiplied sweep, rows non-strict, a foul pays the sweep
# (R-FOUL-3, Q-3), no bank, pool, single winner, surrender or aces bet, the win cap from
# the seat left of the button (R-STAKES-1/2, R-SETTLE-1/2), no 2-7 middle, every card
# face up (R-FLOW-OFC-6), the higher natural paid in full (R-NAT-6).
COMMON: dict[str, Any] = {
    "face_down_final": 0,
    "sweep_bonus": 3,
    "majority_bonus": 0,
    "majority_rule": "two_rows",
    "overall_bonus": 0,
    "sweep_multiplier": 1,
    "sweep_all_multiplier": 1,
    "sweep_all_bonus": 0,
    "lowball": None,
    "order": "nonstrict",
    "foul_pays_sweep": True,
    "house": False,
    "pool": None,
    "single_winner": 0,
    "surrender_cost": None,
    "aces_bet": None,
    "naturals_rule": "higher_full",
    "stakes": "win_cap",
    "settlement_start": "left_of_button",
    "fantasyland": None,
}


def fantasyland(entry: list[list[Any]], **stay: Any) -> dict[str, Any]:
    """A Fantasyland as a rules file writes it; the stay's fields given, the 2-7 entry
    0 and the button frozen (R-FL-6) unless given."""
    return {
        "entry": entry,
        "lowball_entry": 0,
        "lowball_both": 0,
        "stay_front": None,
        "stay_middle": None,
        "stay_back": None,
        "button_frozen": True,
        **stay,
    }


STAY_003 = {"stay_front": "222", "stay_middle": "FULL_HOUSE", "stay_back": "QUADS"}
"""R-FL-10 [003] and [001]'s OFC: trips front, full house+ middle or quads+ back."""
PROGRESSIVE = [["QQ", 14], ["KK", 15], ["AA", 16], ["222", 17]]  # R-FL-3, EX-16

RULEBOOK: dict[str, dict[str, Any]] = {
    # R-FLOW-OFC-1 (Q-14: up to 4); R-FL-1, R-FL-3 (13 cards), R-FL-10 [001] OFC: trips
    # front, full house middle or quads back, 13 cards
    "OFC": {
        "game": "ofc",
        "max_players": 4,
        "fantasyland": fantasyland([["QQ", 13]], stay_cards=13, **STAY_003),
    },
    # R-FLOW-PIN-1 (2 or 3), R-FL-3 (14, one discarded), R-FL-10 [003]
    "PINEAPPLE": {
        "game": "pineapple",
        "max_players": 3,
        "fantasyland": fantasyland([["QQ", 14]], stay_cards=14, **STAY_003),
    },
    # R-FL-10 [000] Progressive: trips front or quads+ back, 14
    "PROGRESSIVE_PINEAPPLE": {
        "game": "pineapple",
        "max_players": 3,
        "fantasyland": fantasyland(
            PROGRESSIVE, stay_front="222", stay_back="QUADS", stay_cards=14
        ),
    },
    # R-FL-10 [000] Ultimate: as Progressive, the count that first earned it
    "ULTIMATE_PINEAPPLE": {
        "game": "pineapple",
        "max_players": 3,
        "fantasyland": fantasyland(
            PROGRESSIVE, stay_front="222", stay_back="QUADS", stay_cards="same"
        ),
    },
    # R-27-1 (Pineapple flow), R-27-2/4/5 (ten-high limit, 9-high 1, 8-high 2, 7-high 4,
    # 7-5-4-3-2 8), R-27-6 (KK+ or 7-5-4-3-2: 14, both 15), R-27-7 (stay: trips front or
    # quads+ back, 14)
    "PINEAPPLE_27": {
        "game": "pineapple",
        "max_players": 3,
        "lowball": {
            "limit": 8,
            "royalties": [0, 0, 0, 0, 0, 4, 2, 1, 0, 0, 0, 0, 0],
            "nuts": 8,
        },
        "fantasyland": fantasyland(
            [["KK", 14]],
            lowball_entry=14,
            lowball_both=15,
            stay_front="222",
            stay_back="QUADS",
            stay_cards=14,
        ),
    },
    # R-FLOW-CP-1 (up to four), R-SCORE-2
    "CLASSIC_1_6": {"game": "classic", "max_players": 4},
    # R-SCORE-3: 1 a row, +1 for two rows or more, no sweep bonus
    "CLASSIC_2_4": {
        "game": "classic",
        "max_players": 4,
        "sweep_bonus": 0,
        "majority_bonus": 1,
    },
    # R-VAR-MAL-1 (three players against the bank, which takes ties), R-VAR-MAL-4
    # (naturals by difference), R-VAR-MAL-5 (1 a row)
    "MALAYAN": {
        "game": "classic",
        "max_players": 4,
        "sweep_bonus": 0,
        "house": True,
        "naturals_rule": "difference",
    },
    # R-VAR-VIET-1/2: 1 a row; a sweep doubled, a sweep of the table tripled
    "VIETNAMESE": {
        "game": "classic",
        "max_players": 4,
        "sweep_bonus": 0,
        "sweep_multiplier": 2,
        "sweep_all_multiplier": 3,
    },
    # R-VAR-SG-3/4/5: 1 a row; the table sweep doubled; equal claims cancel
    "SINGAPORE": {
        "game": "classic",
        "max_players": 4,
        "sweep_bonus": 0,
        "sweep_all_multiplier": 2,
        "naturals_rule": "higher_full_equal_cancel",
    },
    # R-VAR-HG-1 (lower natural pays the difference), R-VAR-HG-2 (2 rows 1, 3 rows 6,
    # the table 9 from each), R-VAR-HG-4 (surrender 3), R-VAR-HG-5 (chip rule
    # R-STAKES-3, settled from the dealer R-SETTLE-3)
    "HAWAIIAN_GARDENS": {
        "game": "classic",
        "max_players": 4,
        "sweep_all_bonus": 3,
        "surrender_cost": 3,
        "stakes": "chips",
        "settlement_start": "button",
        "naturals_rule": "difference",
    },
}


def test_every_preset_is_in_the_rulebook_table() -> None:
    assert list(RULEBOOK) == rules.names()


@pytest.mark.parametrize("name", list(RULEBOOK))
def test_a_preset_holds_the_fields_its_rules_fix(name: str) -> None:
    held = rules.get(name).to_dict()
    want = {**COMMON, **RULEBOOK[name]}
    assert set(want) | PINNED_ELSEWHERE == set(held)  # every field pinned somewhere
    assert {k: held[k] for k in want} == want


# Worked deal: A sweeps B and C, B sweeps C; D holds a Dragon (12 clubs and Ad).
SWEEPER = "Kh Ks 2d / 9h 9s 9d Th Ts / 2h 3h 4h 5h 6h"  # KK / full house / straight flush
SECOND = "Qh Qs 3d / 8h 8s 4d 4s Kd / Js Jd Jh 7s 7d"  # QQ / two pair / full house
LAST = "Qd 2s 3s / 5d 5s 6d 6s 7h / Ac Ah As Td 8d"  # Q-high / two pair / trips
DRAGON = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad"


def test_a_table_sweep_needs_three_seats_playing_their_rows() -> None:
    """docs/rules.md Q-7: VIETNAMESE triples (R-VAR-VIET-2), SINGAPORE doubles
    (R-VAR-SG-5) and HAWAIIAN_GARDENS adds 3 (R-VAR-HG-2) for a sweep of the table;
    heads-up, or beside a natural (SG: "provided no naturals are involved"), a sweep
    is a plain one.  Won rows against SECOND / LAST: front 1, middle full house 2,
    back straight flush 5 (VIET, HG) or 7 (SG)."""
    heads_up = {"VIETNAMESE": 8 * 2, "SINGAPORE": 1 + 2 + 7, "HAWAIIAN_GARDENS": 8 + 3}
    for name, units in heads_up.items():
        assert settle([SWEEPER, LAST], name).net == [units, -units], name
    # SG, three seats: the table sweep doubles A's 10 from each; B v C is 1 + 1 + 1.
    assert settle([SWEEPER, SECOND, LAST], "SINGAPORE").net == [40, -17, -23]
    # Beside a Dragon (13 from each): plain sweeps, 10 from each.
    table = [SWEEPER, SECOND, LAST, DRAGON]
    got = settle(table, "SINGAPORE", declared={3: True}).net
    assert got == [10 + 10 - 13, -10 + 3 - 13, -10 - 3 - 13, 39]
