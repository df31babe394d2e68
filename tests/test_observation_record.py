"""One observation: callers without a game (the search from a dict, make_observation,
the arena client) fill the same C record as the engine (ofc_observation_complete does
the schedule's part) and read it with the one reader; the deal's schedule is worked out
in C only."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from ofc_fast import Game, GameError, rules
from ofc_fast._native import ffi
from ofc_fast.game.observation import observation_record, read_observation, record_rounds
from ofc_fast.rules._lookup import carried_rules
from ofc_fast.search import make_observation

ROOT = Path(__file__).resolve().parent.parent
TABLES = [
    (rules.PINEAPPLE, 3, None),
    (rules.PINEAPPLE, 2, (14, 0)),
    (rules.OFC, 4, None),
    (rules.OFC.replace(name="OFC_FD3", face_down_final=3), 3, None),
    (rules.PROGRESSIVE_PINEAPPLE, 3, (0, 16, 0)),
    (rules.CLASSIC_1_6, 3, None),
]


@pytest.mark.parametrize("preset, players, fl", TABLES, ids=lambda x: str(x)[:24])
def test_record_from_the_dict_equals_the_games_observation(
    preset: rules.RuleSet, players: int, fl: tuple[int, ...] | None
) -> None:
    """At every decision of random deals, the seat to act's observation rebuilt from
    its own dict (boards, counts, dealt cards) through observation_record and
    read_observation equals Game.observation; so do the rounds to come, which place
    exactly the cards each seat still has to show."""
    rng = random.Random(22)
    for deal in range(6):
        g = Game(preset, players, seed=deal, button=deal % players, fantasyland=fl)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            want = g.observation(seat)
            o = observation_record(
                preset,
                seat,
                want["boards"],
                want["dealt"],
                button=want["button"],
                fantasyland=want["fantasyland"],
                face_down_counts=want["face_down_counts"],
                discard_counts=want["discard_counts"],
                discards=want["discards"],
            )
            got = read_observation(
                bytes(ffi.buffer(o)),
                preset,
                want["legal_actions"],
                carried_rules(preset),  # "rule_set" of rules that are not a preset
            )
            assert got == want
            for s, rounds in enumerate(record_rounds(o)):
                visible = sum(len(r) for r in want["boards"][s])
                now = len(want["dealt"]) - want["to_discard"] if s == seat else 0
                assert visible + now + sum(n - k for n, k in rounds) == 13
            g.play(g.random_move(rng))


def test_make_observation_comes_from_the_record() -> None:
    obs = make_observation(
        rules.PINEAPPLE, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"], "3h"
    )
    assert (obs["to_discard"], obs["future_cards"], obs["future_discards"]) == (1, 9, 3)
    assert obs["street"] == 1 and obs["discards"] == [obs["discards"][0]]
    ofc_obs = make_observation(
        rules.OFC, "Qh / 9s 9h / As Ks", "2c", ["7c / 8d 8h / 4s 4d"]
    )
    assert (ofc_obs["to_discard"], ofc_obs["future_cards"]) == (0, 7)


def test_a_position_no_schedule_reaches_is_refused() -> None:
    with pytest.raises(GameError, match="schedule"):
        observation_record(rules.PINEAPPLE, 0, [[[1], [2], [3]], [[], [], []]], [4, 5, 6])
    with pytest.raises(GameError, match="seat 2"):
        observation_record(rules.PINEAPPLE, 2, [[[], [], []], [[], [], []]], [1, 2, 3])
    with pytest.raises(GameError, match="too many"):
        observation_record(rules.PINEAPPLE, 0, [[[1, 2, 3, 4], [], []], [[], [], []]])


def test_record_refuses_more_discards_than_the_decisions_made() -> None:
    """A Pineapple seat discards none in its opening and one per 3-card round, OFC
    none (the rule text): more discards than that, for any seat, are refused; fewer
    (counts a caller does not know) are not.  Button 0: seat 1 has played its
    opening and a round (7 cards), seat 0 its opening (5) and is to act."""
    table = [[[1], [2, 3], [4, 5]], [[7], [8, 9, 15], [10, 11, 16]]]
    record = observation_record(
        rules.PINEAPPLE, 0, table, [12, 13, 14], discard_counts=[0, 1]
    )
    assert (record.discard_count[1], record.k) == (1, 1)
    assert observation_record(rules.PINEAPPLE, 0, table, [12, 13, 14]).k == 1
    with pytest.raises(GameError, match="discards"):
        observation_record(rules.PINEAPPLE, 0, table, [12, 13, 14], discards=[20])
    with pytest.raises(GameError, match="discards"):
        observation_record(rules.PINEAPPLE, 0, table, [12, 13, 14], discard_counts=[0, 2])
    table[1][2].pop()  # OFC: 6 cards, an opening and one single card
    assert observation_record(rules.OFC, 0, table, [12]).n == 1
    with pytest.raises(GameError, match="discards"):
        observation_record(rules.OFC, 0, table, [12], discard_counts=[0, 1])


def test_no_python_rederivation_of_the_schedule() -> None:
    """The schedule (rounds per seat, cards per round) lives in C: the search and the
    arena client no longer work it out."""
    import inspect

    import ofc_fast.arena.client
    import ofc_fast.search

    search = inspect.getsource(ofc_fast.search)  # the installed modules, as shipped
    client = inspect.getsource(ofc_fast.arena.client)
    for name in ("def _rounds", "def _own_rounds"):
        assert name not in search
    assert "cards_per_seat" not in client and "future_cards =" not in client


@pytest.mark.parametrize(
    "boards, dealt, discards, field",
    [
        ([[[52], [2, 3], [4, 5]], [[], [], []]], [6, 7, 8], (), "board 0 row 0"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, -1], (), "dealt"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, 255], (), "dealt"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, "x"], (), "dealt"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, True], (), "dealt"),
        ([[[1], [2, 3], [4, 5]], [[], [], [2]]], [6, 7, 8], (), "board 1 row 2"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, 1], (), "dealt"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, 8], (60,), "discards"),
        ([[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, 8], (7,), "discards"),
    ],
)
def test_record_refuses_bad_card_ids(
    boards: list[list[list[object]]],
    dealt: list[object],
    discards: tuple[int, ...],
    field: str,
) -> None:
    """observation_record wrote card 52 (or 255, the C empty slot) into the record and
    took a card shown twice (an OverflowError for -1, a TypeError for text): a card id
    outside 0..51, a bool or a repeated card is the caller's error naming the field."""
    with pytest.raises(GameError, match=f"observation: {field} "):
        observation_record(rules.PINEAPPLE, 0, boards, dealt, discards=discards)  # type: ignore[arg-type]
    good = observation_record(
        rules.PINEAPPLE, 0, [[[1], [2, 3], [4, 5]], [[], [], []]], [6, 7, 8]
    )
    assert list(good.dealt[0:3]) == [6, 7, 8]


def test_record_names_a_badly_shaped_field() -> None:
    """observation_record raised IndexError or TypeError for per-seat lists shorter
    than the boards (fantasyland, face_down_counts, discard_counts), a row that is no
    list or a board that is None: the caller's ``error`` naming the field."""
    boards = [[[1], [2, 3], [4, 5]], [[], [], []]]
    cases = [
        ({"fantasyland": [0]}, boards, "fantasyland"),
        ({"fantasyland": 5}, boards, "fantasyland"),
        ({"face_down_counts": [[0, 0, 0]]}, boards, "face_down_counts"),
        ({"face_down_counts": [[0, 0], [0, 0, 0]]}, boards, r"face_down_counts\[0\]"),
        ({"discard_counts": [0]}, boards, "discard_counts"),
        ({"discards": None}, boards, "discards"),
        ({}, [None, [[], [], []]], "board 0"),
        ({}, [[[1], 5, [4]], [[], [], []]], "board 0 row 1"),
        ({}, 5, "boards"),
    ]
    for kw, b, field in cases:
        with pytest.raises(GameError, match=f"observation: {field} must be"):
            observation_record(rules.PINEAPPLE, 0, b, [6, 7, 8], **kw)  # type: ignore[arg-type]


def test_record_reads_numpy_integers_as_the_ints_they_are() -> None:
    """observation_record read card ids given as NumPy integers but refused the seat,
    button and counts so given ("a count must be a small int, got '0'"): the search
    bot and ``advise`` refused an observation whose lists held NumPy integers (as a
    list of an array's items holds them); a NumPy bool is still no count."""
    g = Game(rules.PINEAPPLE, 3, seed=4, fantasyland=(0, 14, 0), button=1)
    for _ in range(3):
        g.play(g.random_move(random.Random(1)))
    seat = g.to_act
    assert seat is not None
    want = g.observation(seat)
    for kind in (np.uint8, np.int16, np.int64, np.uint64):
        o = observation_record(
            rules.PINEAPPLE,
            kind(seat),
            [[[kind(c) for c in row] for row in board] for board in want["boards"]],
            [kind(c) for c in want["dealt"]],
            button=kind(want["button"]),
            fantasyland=[kind(n) for n in want["fantasyland"]],
            face_down_counts=[[kind(n) for n in row] for row in want["face_down_counts"]],
            discard_counts=[kind(n) for n in want["discard_counts"]],
            discards=[kind(c) for c in want["discards"]],
        )
        got = read_observation(bytes(ffi.buffer(o)), rules.PINEAPPLE, want["legal_actions"])
        assert got == want  # the reference: the game's own observation
    with pytest.raises(GameError, match="observation: a count must be a small int"):
        observation_record(
            rules.PINEAPPLE,
            seat,
            want["boards"],
            want["dealt"],
            face_down_counts=[[np.True_] * 3 for _ in want["boards"]],
        )


def test_record_refuses_an_observer_s_discard_count_its_discards_do_not_make() -> None:
    """Regression: ``discard_counts=[0, 1]`` for observer seat 1 with ``discards=[]``
    was taken with the observer's count silently replaced by 0 (the cards given).  A
    count that disagrees with the observer's discards is refused, naming both; one
    that agrees is taken (seat 1 of this table has made one Pineapple discard)."""
    table = [[[1], [2, 3], [4, 5]], [[7], [8, 9, 15], [10, 11, 16]]]
    got = observation_record(
        rules.PINEAPPLE, 1, table, discard_counts=[0, 1], discards=[20]
    )
    assert (got.discard_count[1], got.discards[0]) == (1, 20)
    with pytest.raises(GameError) as err:
        observation_record(rules.PINEAPPLE, 1, table, discard_counts=[0, 1], discards=[])
    said = str(err.value)
    assert "discard_counts[1]" in said and "is 1" in said and "holds 0" in said, said
    assert observation_record(rules.PINEAPPLE, 1, table).discard_count[1] == 0
