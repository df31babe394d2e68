"""Regression tests for what the search harness (tests/fuzz/fuzz_search.py) found: bad
arguments and observation fields used to escape as TypeError, ValueError,
OverflowError, IndexError or RecursionError, or to hang (an exact tree of any size).
Each now raises a specific OfcError subclass naming the field."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast._native import ffi
from ofc_fast.bots import HeuristicBot, SearchBot, ValueBot, make_bot
from ofc_fast.errors import (
    BotError,
    CardError,
    ObservationError,
    OfcError,
    RulesError,
    SearchError,
    SearchRulesError,
)
from ofc_fast.game import Game
from ofc_fast.search import (
    EXACT_NODES_MAX,
    MAX_SAMPLES,
    SearchModel,
    advise,
    best_completion,
    make_observation,
    position,
    position_part,
    search_model,
)

P = rules.PINEAPPLE
NESTED: Any = []
for _ in range(3000):
    NESTED = [NESTED]


def observation() -> dict[str, Any]:
    return make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])


@pytest.mark.parametrize(
    "board",
    [5, None, [[0], 1, [2]], [["As", "Zz"], [], []], [[300], [], []], [[-1], [], []]],
)
def test_best_completion_bad_board_is_named(board: object) -> None:
    with pytest.raises((SearchError, CardError)):
        best_completion(board, "2c 5d Ts", P)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rounds": 7}, "rounds must be a list"),
        ({"rounds": [("3", 1)]}, "a round's cards"),
        ({"rounds": [(300, 1)]}, "a round's cards"),
        ({"rounds": [(3, 4)]}, "a round's discards"),
        ({"rounds": [(3, 1, 0)]}, "a round is"),
        ({"rounds": [(1, 0)] * 10}, "at most 9 rounds"),
        ({"fantasyland": "x"}, "fantasyland must be an int"),
        ({"fantasyland": 5}, "0 or 13..17"),
        ({"policy": np.array(["best", "fast"])}, "policy must be one of"),
        ({"model": "default"}, "model must be a SearchModel"),
    ],
)
def test_best_completion_bad_settings_are_named(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(SearchError, match=match):
        best_completion("Qh / 9s 9h / As Ks", "2c 5d Ts", P, **kwargs)


@pytest.mark.parametrize("given", [1, 9, 10, 12, 14])
def test_best_completion_refuses_rounds_that_deal_other_than_the_cards(given: int) -> None:
    """The rounds deal 11 cards (three Pineapple streets and a last round of 2); the
    C call reads that many from the cards given (it takes no count).  With 10 given
    it read past them: a completion holding 2c, a card never given (the byte after
    the buffer); with 12 the last was silently left out; with 9 a CardError about a
    card twice.  Now a SearchError names the rounds and the cards."""
    board = "Qh / 9s 9h / As Ks"
    deck = [
        "5d",
        "Ts",
        "3c",
        "4c",
        "6c",
        "7c",
        "8c",
        "Kd",
        "Kh",
        "Kc",
        "Qd",
        "Qc",
        "Jc",
        "Jd",
    ]
    rounds = [(3, 1), (3, 1), (3, 1), (2, 0)]
    with pytest.raises(SearchError, match=f"rounds deal 11 cards, cards holds {given}"):
        best_completion(board, " ".join(deck[:given]), P, rounds=rounds)
    done = best_completion(board, " ".join(deck[:11]), P, rounds=rounds)
    placed = set(str(done.board).replace("/", " ").split())
    assert placed - set(board.replace("/", " ").split()) <= set(deck[:11])
    assert len(placed) == 13


def test_best_completion_of_a_finished_board_without_cards_values_it() -> None:
    """A finished board and no card to come (the default rounds: one round of every
    card) was a SearchError, "the cards dealt and to come do not fill the free
    slots", which they do; rounds=[] worked.  Now the board comes back valued, as
    with rounds=[]: a fouled board too."""
    done = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"  # QQ front: 14 cards (PINEAPPLE)
    c = best_completion(done, "", P)
    assert (str(c.board), c.foul, c.fantasyland, c.leaves) == (done, False, 14, 1)
    assert c == best_completion(done, [], P, rounds=[])
    fouled = best_completion("Ah Ad 2c / 9s 9h 9d 5c 5d / As Ks Qs Js 3d", "", P)
    assert (fouled.foul, fouled.fantasyland, fouled.value) == (True, 0, -1000.0)


def _numpy_form(obs: dict[str, Any], dtype: Any) -> dict[str, Any]:
    """``obs`` as NumPy code may hand it over: each card list, count list and the
    legal actions an array of ``dtype`` (the boards row by row), each number a NumPy
    scalar."""
    out = dict(obs)
    for key in ("dealt", "discards", "fantasyland", "face_down_counts", "discard_counts"):
        out[key] = np.array(obs[key], dtype=dtype)
    out["boards"] = [[np.array(r, dtype=dtype) for r in seat] for seat in obs["boards"]]
    if obs.get("legal_actions") is not None:
        out["legal_actions"] = np.array(obs["legal_actions"], dtype=dtype)
    for key in ("seat", "players", "to_discard", "future_cards", "future_discards"):
        out[key] = np.int64(obs[key])
    return out


def _street_two() -> dict[str, Any]:
    g = Game("pineapple", 2, seed=1)
    for _ in range(2):
        g.play_action(g.legal_actions()[-1])
    return dict(g.observation(g.to_act))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.uint64])
def test_advise_gives_the_advice_of_the_lists_for_numpy_arrays(dtype: Any) -> None:
    """Regression: ``advise(dict(obs, dealt=np.array(obs["dealt"])))`` was
    "ObservationError: observation: dealt must be a list", though every bot reads such
    an observation (the search bot through advise).  advise and position now read an
    observation through the bots' one reader of NumPy values: the same advice, and
    the same C position, as from the lists (the reference: the game's own
    observation), at an opening and on a later street."""
    g = Game("pineapple", 2, seed=1)
    for obs in (dict(g.observation(g.to_act)), _street_two()):
        arrays = _numpy_form(obs, dtype)
        assert advise(arrays, samples=4, seed=2) == advise(obs, samples=4, seed=2)
        dealt_only = dict(obs, dealt=np.array(obs["dealt"], dtype=dtype))
        assert advise(dealt_only, samples=4, seed=2) == advise(obs, samples=4, seed=2)
        want = bytes(ffi.buffer(position(obs, P)))
        assert bytes(ffi.buffer(position(arrays, P))) == want


def test_an_empty_dealt_is_an_error_naming_dealt() -> None:
    """An empty dealt, as a list or as an empty NumPy array of any dtype (the bots
    read ``np.asarray([])``, an array of floats, as the empty list), is the
    SearchError naming ``dealt`` (an observation to advise on holds the cards the seat
    places; a seat not to act has nothing to play, as the bots say), never NumPy's
    ValueError ("truth value of an empty array is ambiguous"); it was "seat 1 has no
    decision to make" for a list, naming no field, and "dealt must be a list" for an
    array."""
    g = Game("pineapple", 2, seed=1)
    for obs in (g.observation(1 - g.to_act), g.observation(g.to_act)):
        for empty in ([], np.array([], dtype=np.uint8), np.asarray([])):
            with pytest.raises(SearchError, match=r"^observation: dealt must") as info:
                advise(dict(obs, dealt=empty), samples=2)
            part = position_part(str(info.value))
            assert part is not None and part.path == "dealt"


def test_numpy_settings_give_plain_json_able_advice() -> None:
    """samples=np.int64(20) (a count read from an array) is a valid setting, but
    each record's samples came back a NumPy int (and foul a NumPy float), so
    json.dumps of Advice.as_dict() raised TypeError.  Now the records are those of
    samples=20, of plain Python types."""
    import json

    g = Game(P, 2, seed=5)
    plain = advise(g, samples=20, seed=3, prune=True)
    for n in (np.int64(20), np.int32(20), np.uint8(20)):
        got = advise(g, samples=n, seed=np.uint64(3), prune=True)  # type: ignore[arg-type]
        assert got == plain
        for a in got:
            fields = a.as_dict()
            assert {type(fields[k]) for k in ("samples", "action")} == {int}
            assert {type(fields[k]) for k in ("ev", "stderr", "foul", "royalties")} == {
                float
            }
        json.dumps([a.as_dict() for a in got])


def test_best_completion_takes_the_three_rule_forms() -> None:
    """A RuleSet, a preset name and an arena game id give the same completion and
    model (the one resolver, ofc_fast.rules.as_rules)."""
    board = "Qh Qd / 9s 9h 9d 5c / As Ks Qs Js"
    got = [best_completion(board, "2c 5d Ts", r) for r in (P, "pineapple", "ofc-pineapple")]
    assert len({(str(c.board), c.value, c.fantasyland) for c in got}) == 1
    assert str(got[0].board) == "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    models = [search_model(r) for r in (P, "PINEAPPLE", "ofc-pineapple")]
    assert models[0] == models[1] == models[2]


@pytest.mark.parametrize(
    ("junk", "match"),
    [
        (None, "rules must be a RuleSet, a preset name or a game id, got None"),
        (3, "rules must be a RuleSet, a preset name or a game id, got 3"),
        ("no-such-game", "unknown rule set 'no-such-game'"),
        ("Qh / 9s 9h / As Ks", "unknown rule set 'Qh / 9s 9h / As Ks'"),
    ],
)
def test_best_completion_refuses_junk_rules(junk: object, match: str) -> None:
    """Anything but the three forms is refused with SearchRulesError (a SearchError
    and a RulesError) naming the function and the problem."""
    with pytest.raises(SearchRulesError, match=f"^best_completion: {match}") as exc:
        best_completion("Qh / 9s 9h / As Ks", "2c 5d Ts", junk)  # type: ignore[arg-type]
    assert isinstance(exc.value, SearchError) and isinstance(exc.value, RulesError)
    with pytest.raises(SearchError, match=f"^search_model: {match}"):
        search_model(junk)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("boards", 7),
        ("boards", [[[], [], []]]),
        ("boards", [[[], []], [[], [], []]]),
        ("face_down_counts", [[0, 0, 0], 5]),
        ("face_down_counts", [[0, 0, 0], [0, 0, 9]]),
        ("fantasyland", [0, "14"]),
        ("fantasyland", [0, 5]),
        ("players", True),
        ("seat", 3),
        ("to_discard", np.arange(3)),
        ("future_cards", 10**12),
        ("future_cards", 1.5),
        ("legal_actions", [0, 999]),
        ("legal_actions", "all"),
        ("full_set", np.array([True, False])),
        ("rules", NESTED),
    ],
)
def test_advise_bad_observation_field_is_named(key: str, value: object) -> None:
    obs = observation()
    obs[key] = value
    with pytest.raises(OfcError):
        advise(obs, samples=2)


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"players": 7}, "players"),
        ({"boards": [[[], [], []]]}, "boards"),
        ({"boards": [[[], [], []], [[], []]]}, "boards[1]"),
        ({"boards": [[[], [], [99]], [[], [], []]]}, "boards[0][2]"),
        ({"face_down_counts": [[0, 0, 0], [0, 0]]}, "face_down_counts[1]"),
        ({"face_down_counts": [[0, 0, 0], [0, 9, 0]]}, "face_down_counts[1][1]"),
        ({"fantasyland": [0, 12]}, "fantasyland[1]"),
        ({"dealt": [1, 99]}, "dealt"),
        ({"legal_actions": [0, 999]}, "legal_actions[1]"),
        ({"full_set": "yes"}, "full_set"),
    ],
)
def test_position_part_names_the_part_the_checks_refuse(
    change: dict[str, Any], path: str
) -> None:
    """What ``ofc-fast advise`` and ``ofc-fast serve`` read to name their own input
    (an option, a request field): the part of the observation the error names first,
    or None for the position as a whole (the CLI and the service each parsed the
    messages their own way)."""
    obs = {**observation(), **change}
    with pytest.raises(OfcError) as info:
        advise(obs, samples=2)
    part = position_part(str(info.value))
    assert part is not None and part.path == path, str(info.value)
    with pytest.raises(OfcError) as info:  # 4 cards at the opening: no one part
        make_observation(P, "/ /", "As Kd 9h 9c", ["/ /"])
    part = position_part(str(info.value))
    assert part is not None and (part.key, part.path) == (None, None), str(info.value)
    assert position_part("advise: the observation shows 2d twice") is None


def test_advise_observation_with_too_many_rounds_is_refused() -> None:
    obs = observation()
    obs["future_discards"], obs["future_cards"] = 0, 40  # 40 one-card rounds
    with pytest.raises(SearchError, match="rounds to come"):
        advise(obs, samples=2)


def test_advise_missing_field_is_named() -> None:
    obs = observation()
    del obs["face_down_counts"]
    with pytest.raises(SearchError, match="face_down_counts"):
        advise(obs, samples=2)


def test_advise_with_a_seat_names_an_observation_missing_its_seat() -> None:
    """``advise(obs, seat=0)`` on an observation without ``seat`` said "the
    observation is seat None's, not seat 0's" (a seat no observation has), and one
    whose ``seat`` was an array raised NumPy's ValueError: each names the
    observation's field, as without ``seat=``."""
    obs = {k: v for k, v in observation().items() if k != "seat"}
    for seat in (0, None):
        with pytest.raises(ObservationError, match=r"^observation: seat must") as info:
            advise(obs, seat=seat, samples=2)
        assert "None" not in str(info.value)
        for bad in (np.array([0, 1]), "0", [0]):
            with pytest.raises(ObservationError, match=r"^observation: seat must"):
                advise({**obs, "seat": bad}, seat=seat, samples=2)
    with pytest.raises(SearchError, match="is seat 0's, not seat 1's"):
        advise(observation(), seat=1, samples=2)


def test_advise_refuses_empty_legal_actions_naming_them() -> None:
    """``"legal_actions": []`` (no action: documented nowhere, a decision has at least
    one) was read as every legal action, the advice answering all of them; it is an
    ObservationError naming ``legal_actions``.  Left out (or None) it still means
    every legal action."""
    obs = observation()
    every = {a.action for a in advise(obs, samples=2)}
    assert len(every) > 1
    with pytest.raises(ObservationError, match=r"^observation: legal_actions must"):
        advise({**obs, "legal_actions": []}, samples=2)
    assert {a.action for a in advise({**obs, "legal_actions": None}, samples=2)} == every


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seat": np.array([0, 1])},
        {"seat": "0"},
        {"rules": np.array([1, 2])},
        {"exact": np.array([True, False])},
        {"exact": 1},
        {"policy": np.array(["auto", "fast"])},
        {"clock": ["wall"]},
        {"prune": np.array([1, 0])},
        {"samples": MAX_SAMPLES + 1},
        {"samples": -(10**5000)},
        {"time_budget": math.inf},
        {"time_budget": 10**400},
        {"row_weight": 10**400},
        {"opponent": 10**400},
        {"seed": 2**64},
    ],
)
def test_advise_bad_setting_is_named(kwargs: dict[str, Any]) -> None:
    with pytest.raises(SearchError):
        advise(Game(P, 2, seed=1), **kwargs)


@pytest.mark.parametrize(
    "setting",
    [
        {"samples": 300},
        {"seed": 5},
        {"seed": 0},
        {"model": "auto"},
        {"policy": "fast"},
        {"prune": True},
        {"clock": "cpu"},
    ],
    ids=["samples", "seed", "seed-0", "model", "policy", "prune", "clock"],
)
def test_advise_exact_true_refuses_samples_seed_and_model(setting: dict[str, Any]) -> None:
    """``advise(obs, exact=True, samples=300)`` (or ``seed=5``, ``model="auto"``,
    ``policy="fast"``, ``prune=True``, ``clock="cpu"``) answered the exact values,
    0 samples and no model: the setting ignored, silently.  Each is refused naming itself;
    ``exact="auto"`` takes them (an exact answer there too, where the tree is small);
    the defaults (``policy="auto"``, ``prune=False``) pass with ``exact=True``."""
    deck = list(range(52))
    opp = [deck[0:3], deck[3:8], deck[8:13]]
    obs = make_observation(P, [deck[13:15], deck[15:19], deck[19:24]], deck[24:27], [opp])
    (name,) = setting
    with pytest.raises(SearchError, match=f"^{name}: an exact search") as info:
        advise(obs, exact=True, **setting)
    assert "exact" in str(info.value)[len(name) :]
    exact = advise(obs, exact=True, policy="auto", prune=False, clock="wall")
    assert exact[0].exact and advise(obs, exact="auto", **setting)[0].exact
    assert [a.ev for a in advise(obs, exact="auto", **setting)] == [a.ev for a in exact]


def test_exact_true_refuses_a_tree_beyond_its_limit_instead_of_hanging() -> None:
    g = Game(rules.ULTIMATE_PINEAPPLE, 2, seed=285017798)
    while g.to_act is not None and g.observation(g.to_act)["future_cards"] > 3:
        g.play_action(g.legal_actions()[0])
    obs = g.observation(g.to_act)
    with pytest.raises(SearchError, match="the time budget allows"):
        advise(obs, exact=True, time_budget=1e-6)
    assert EXACT_NODES_MAX >= 10 * ofc.search.EXACT_NODES_DEFAULT


def test_rules_get_refuses_a_name_that_is_not_text() -> None:
    with pytest.raises(RulesError, match="text"):
        rules.get(NESTED)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time_budget": "fast"},
        {"time_budget": 10**400},
        {"samples": "many"},
        {"row_weight": [1]},
        {"opening_factor": "3"},
        {"prune": "yes"},
        {"clock": ["cpu"]},
        {"policy": np.array(["auto"])},
    ],
)
def test_search_bot_bad_setting_is_a_bot_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(BotError):
        SearchBot(**kwargs)


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, [7], float("nan")])
def test_search_and_heuristic_bot_bad_seed_is_a_bot_error(seed: Any) -> None:
    """A seed that is not None or an int >= 0 is a BotError naming it, at once and at
    reset(): -1 was a ValueError and 1.5 / "7" a TypeError (from NumPy's generator), a
    NaN seeded nothing reproducible."""
    for make in (
        lambda s: SearchBot(seed=s, samples=4),
        lambda s: HeuristicBot(seed=s),
        lambda s: make_bot("search", seed=s, samples=4),
        lambda s: make_bot("heuristic", seed=s),
        lambda s: ValueBot(seed=s),
    ):
        with pytest.raises(BotError, match="seed"):
            make(seed)
    for bot in (SearchBot(seed=1, samples=4), HeuristicBot(seed=1), ValueBot(seed=1)):
        with pytest.raises(BotError, match="seed"):
            bot.reset(seed)


def test_search_bot_largest_budget_plays_the_opening() -> None:
    """SearchBot(time_budget=1e6) was accepted (1e6 is advise's largest budget), but
    the opening's budget times opening_factor (3e6) made every opening act() raise a
    SearchError about a budget the user never gave; it is capped at 1e6."""
    g = Game(P, 2, seed=3)
    obs = g.observation(g.to_act)
    bot = SearchBot(P, 1, time_budget=1e6, samples=4, model=None)
    assert bot.act(obs) in g.legal_moves()


def test_search_bot_numpy_seed_is_the_int_seed() -> None:
    """SearchBot(seed=np.int64(7)) was a TypeError (random.Random refuses NumPy ints);
    it plays as seed=7."""
    g = Game(P, 2, seed=3)
    obs = g.observation(g.to_act)
    a = SearchBot(P, np.int64(7), samples=4, time_budget=None, model=None).act(obs)
    assert a == SearchBot(P, 7, samples=4, time_budget=None, model=None).act(obs)
    assert ValueBot(P, np.int64(7)).act(obs) == ValueBot(P, 7).act(obs)


@pytest.mark.parametrize(
    "opponents", [None, 5, "7c / 8d 8h / 4s 4d", ofc.Board.parse("7c / 8d 8h / 4s 4d")]
)
def test_make_observation_opponents_must_be_a_list(opponents: Any) -> None:
    """``opponents`` is a list of boards: None or a number was a TypeError, one board
    (text or a Board) read its characters or cards as boards ("got '7'")."""
    with pytest.raises(SearchError, match="opponents must be a list"):
        make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", opponents)


@pytest.mark.parametrize("opponents", [np.array(5), np.array("7c / 8d 8h / 4s 4d")])
def test_make_observation_opponents_0d_array_is_named(opponents: Any) -> None:
    """A 0-d array is Iterable by type yet holds one value: it was read as a list and
    failed with NumPy's TypeError ("iteration over a 0-d array")."""
    with pytest.raises(SearchError, match="opponents must be a list"):
        make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", opponents)


@pytest.mark.parametrize("count", [0, 3, 6])
def test_make_observation_too_many_or_no_opponents_names_opponents(count: int) -> None:
    """Six opponent boards on Pineapple (two or three seats) said "PINEAPPLE seats
    2..3 players, got 7", naming neither the argument nor its count; the part
    position_part reads is now ``opponents`` (``ofc-fast advise``: ``--opponent``)."""
    with pytest.raises(SearchError) as info:
        make_observation(P, "- / - / -", "As Ks Qs Js Ts", ["- / - / -"] * count)
    message = str(info.value)
    assert message.startswith("make_observation: opponents must hold 1..2 boards"), message
    assert message.endswith(f"got {count}"), message
    part = position_part(message)
    assert part is not None and part.argument == "opponents"
    assert part.said("--opponent").startswith("--opponent: must hold 1..2 boards")


def test_make_observation_opponents_any_iterable() -> None:
    boards = ["7c / 8d 8h / 4s 4d"]
    want = make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", boards)
    assert make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", iter(boards)) == want
    assert make_observation(P, "Qh / 9s 9h / As Ks", "2c 5d Ts", tuple(boards)) == want


def test_advise_takes_numpy_numbers_as_the_python_ones() -> None:
    """``advise`` refused NumPy scalars ("samples must be an int ..., got np.int64(8)")
    where the bots, Game and VectorEnv take them: each gives the advice of the Python
    number, and NumPy bools, complex numbers and NaN stay refused."""
    g = Game(P, 2, seed=1)
    ref = advise(g, samples=8, seed=3, row_weight=1.0, opponent=0.5)
    for kw in (
        {"samples": np.int64(8)},
        {"seed": np.uint64(3)},
        {"row_weight": np.float32(1.0)},
        {"opponent": np.float64(0.5)},
    ):
        got = advise(
            g, **{"samples": 8, "seed": 3, "row_weight": 1.0, "opponent": 0.5, **kw}
        )
        assert [(a.move, a.ev) for a in got] == [(a.move, a.ev) for a in ref], kw
    for bad in (np.bool_(True), np.complex128(8), np.float64("nan"), np.float64(8.0)):
        with pytest.raises(SearchError, match="samples"):
            advise(g, samples=bad)


def test_a_bad_carried_rule_set_is_named() -> None:
    """An observation carrying a rule set that cannot be read (``rule_set``: an
    unknown field, not a dict) was refused as "unknown rules 'PINEAPPLE'", a preset
    that exists: the error names ``rule_set`` and what is wrong with it."""
    from ofc_fast.errors import ObservationError

    g = ofc.Game("pineapple", players=2, seed=5)
    obs = g.observation(g.to_act)
    with pytest.raises(ObservationError, match=r"rule_set: .*no_such_field"):
        ofc.advise({**obs, "rule_set": {"no_such_field": 1}}, samples=2)
    with pytest.raises(ObservationError, match="rule_set"):
        ofc.advise({**obs, "rule_set": "x"}, samples=2)
    with pytest.raises(ObservationError, match="unknown rules 'nope'"):
        ofc.advise({**obs, "rules": "nope"}, samples=2)
    with pytest.raises(ObservationError, match=r"missing field.*rules"):
        ofc.advise({k: v for k, v in obs.items() if k != "rules"}, samples=2)
    assert ofc.advise({**obs, "rules": "nope"}, samples=2, rules="pineapple")


def test_an_exact_tree_past_the_count_s_cap_is_not_given_as_a_count() -> None:
    """Regression: against a seat with every card to come (an empty board: a
    Fantasyland set face-down alike) ``exact=True`` was refused saying the tree "has
    4,611,686,018,427,387,904 nodes", the C estimate's saturation at 2**62, not a
    count.  The refusal now says the tree has at least that many."""
    obs = make_observation(
        P, "Qh Qd / 9s 9h 2d 3d 4d / As Ks 5h 6h", "2c 5d Ts", ["- / - / -"]
    )
    cap = f"{2**62:,}"
    for budget in (None, 5.0):
        with pytest.raises(SearchError) as err:
            advise(obs, exact=True, time_budget=budget)
        said = str(err.value)
        assert f"has at least {cap} nodes" in said, said
        assert f"has {cap} nodes" not in said


@pytest.mark.parametrize("seat", [2, 3, 5])
def test_advise_names_the_seats_of_the_game_s_table(seat: int) -> None:
    """Regression: ``advise(game, seat=5)`` on a two-seat game said the seat "must be
    an int within 0..3" (the search's largest table), and ``seat=2`` or 3, no seat
    of the table, that it "is not to act"; each now names the table's seats, 0..1."""
    g = Game(P, 2, seed=1)
    with pytest.raises(SearchError) as err:
        advise(g, seat=seat)
    assert str(err.value) == f"seat must be an int within 0..1, got {seat}"


@pytest.mark.parametrize("obs", [5, None, b"dealt", [1, 2], "seat"])
def test_position_names_an_observation_that_is_no_dict(obs: object) -> None:
    """Regression: position(obs, rules) with obs an int, None, bytes or a list raised
    TypeError ("argument of type 'int' is not iterable", "a bytes-like object is
    required") from its check of the fields; it is an ObservationError saying an
    observation is a dict."""
    with pytest.raises(ObservationError, match="an observation is a dict"):
        position(obs, P)  # type: ignore[arg-type]
    game = Game(P, seed=1)
    assert position(game.observation(game.to_act), P) is not None


class _ChangingObservation(Mapping[str, Any]):
    """An observation mapping whose ``dealt`` reads as another list (22 cards) from
    its read number ``after`` + 1 on."""

    def __init__(self, obs: dict[str, Any], after: int) -> None:
        self.obs, self.after, self.reads = obs, after, 0

    def __getitem__(self, key: str) -> Any:
        if key == "dealt":
            self.reads += 1
            if self.reads > self.after:
                return list(range(30, 52))
        return self.obs[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.obs)

    def __len__(self) -> int:
        return len(self.obs)


@pytest.mark.parametrize("after", range(8))
def test_position_reads_a_mapping_s_fields_once(after: int) -> None:
    """Regression: position() and advise() of a Mapping (not a dict) whose dealt cards
    read as other cards after the checks read them raised cffi's IndexError ("index
    too large (expected 22 <= 5)"); the mapping is read once into a dict, so the
    cards checked are the cards used: the position of the cards first read, or the
    SearchError of 22 dealt cards (a full set)."""
    game = Game(P, seed=1)
    obs = game.observation(game.to_act)
    try:
        pos = position(_ChangingObservation(obs, after), P)
    except SearchError:
        assert after == 0  # (the one read gave the 22 cards)
    else:
        assert after > 0 and pos.n_dealt == len(obs["dealt"])
    with pytest.raises(ObservationError, match="lists the key 'ghost'"):
        position(_Ghost(obs), P)


class _Ghost(Mapping[str, Any]):
    """An observation mapping that lists a key ``ghost`` it gives no value for."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs

    def __getitem__(self, key: str) -> Any:
        return self.obs[key]

    def __iter__(self) -> Iterator[str]:
        return iter([*self.obs, "ghost"])

    def __len__(self) -> int:
        return len(self.obs) + 1


def test_best_completion_too_many_cards_names_no_null_pointer() -> None:
    """Regression: best_completion of a one-card board with seven cards to come (a
    pineapple board has twelve free slots) raised a SearchError ending "...or a NULL
    pointer", though a Python caller passes no pointer; it names the free slots and the
    cards the rounds keep."""
    with pytest.raises(SearchError, match="the board has 12 free slots") as err:
        best_completion("Ah / / ", "2c 3c 4c 5c 6c 7c 8c", "pineapple")
    assert "NULL" not in str(err.value) and "pointer" not in str(err.value)
    with pytest.raises(SearchError, match="12 free slots, the rounds keep 6 cards"):
        best_completion("Ah / / ", "2c 3c 4c 5c 6c 7c 8c", P, rounds=[(7, 1)])


@pytest.mark.parametrize(
    ("rounds", "match"),
    [
        ([(0, 0), (12, 0)], r"a round's cards must be an int within 1\.\.17, got 0"),
        ([(3, 3), (12, 0)], r"a round's discards must be an int within 0\.\.2, got 3"),
    ],
)
def test_best_completion_round_keeping_no_card_is_named(
    rounds: list[tuple[int, int]], match: str
) -> None:
    """Regression: a round of no cards, or one discarding every card it deals, passed
    the argument checks and the C call refused it: the SearchError said "the cards
    dealt and to come do not fill the free slots" (with C's "... or a NULL pointer"),
    though the rounds did fill them; it now names the round's count and its range."""
    cards = " ".join(f"{r}c" for r in "23456789TJQKA") + " 2d 3d"
    ids = cards.split()[: sum(n for n, _ in rounds)]
    with pytest.raises(SearchError, match=match):
        best_completion("Ah / / ", " ".join(ids), P, rounds=rounds)


_FL0 = (0.0,) * 18  # fl_value[k]: a Fantasyland of k cards, k = 0..17


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        (("x", 1.0), "fl_value"),
        (([0.0] * 18, 1.0), "fl_value"),  # a list: unhashable, and no tuple
        ((_FL0 * 2, 1.0), "fl_value"),
        (((0.0,) * 3, 1.0), "fl_value"),  # was read as 3 values and 15 zeros
        (((2**2000,) * 18, 1.0), "fl_value"),
        (((True,) * 18, 1.0), "fl_value"),
        ((_FL0, None), "row_weight"),
        ((_FL0, True), "row_weight"),
        ((_FL0, 1.0, 2**70), "opp_random"),
        ((_FL0, 1.0, 0.0, "x"), "opp_self"),
        ((_FL0, 1.0, 0.0, np.array([1, 2])), "opp_self"),
    ],
)
def test_a_search_model_of_bad_fields_is_refused_naming_the_field(
    fields: tuple[Any, ...], field: str
) -> None:
    """Regression: a SearchModel built by hand reached the C struct unchecked:
    best_completion(model=SearchModel("x", 1.0)) raised cffi's TypeError, 40 values
    an IndexError ("too many initializers"), a list fl_value "unhashable type",
    opp_self="x" int()'s ValueError, a huge int OverflowError, and 3 values were
    read as 3 and 15 zeros.  The model is checked when it is made: a SearchError
    naming the field; the library's own models still work."""
    with pytest.raises(SearchError, match=rf"^SearchModel: {field} ") as info:
        SearchModel(*fields)
    assert len(str(info.value)) < 300
    good = SearchModel(_FL0, 1.0, np.float64(0.5), np.True_)
    assert good == SearchModel(_FL0, 1.0, 0.5, True)
    made = search_model(P, fl_value=0, row_weight=0)
    assert SearchModel(*dataclasses.astuple(made)) == made
    c = best_completion("Qh Qd / 9s 9h 9d 5c / As Ks Qs Js", "2c 5d Ts", P, model=made)
    assert c.value == 44.0


@pytest.mark.parametrize(
    ("fl_value", "row_weight", "opponent"),
    [
        (None, 1.0, "best"),
        (0, 0.0, "random"),
        ({14: 12.5, "17": -3}, 2, "self"),
        (np.float32(1e5), np.int64(7), 0.25),
    ],
)
def test_search_model_makes_the_model_the_checked_constructor_makes(
    fl_value: Any, row_weight: Any, opponent: Any
) -> None:
    """search_model() makes its model without running ``SearchModel``'s check again
    (the check cost three quarters of its time): the model equals, field by field
    and type by type, the one the checked constructor makes of the same fields, under
    rules with and without Fantasyland."""
    from ofc_fast.search.model import _FIELDS

    assert tuple(f.name for f in dataclasses.fields(SearchModel)) == _FIELDS
    for rule_set in (rules.PINEAPPLE, rules.OFC, rules.OFC.replace(fantasyland=None)):
        made = search_model(rule_set, fl_value, row_weight, opponent)
        checked = SearchModel(*(getattr(made, name) for name in _FIELDS))
        assert made == checked and hash(made) == hash(checked)
        for name in _FIELDS:
            value = getattr(made, name)
            assert type(value) is type(getattr(checked, name)), name
        assert all(type(v) is float for v in made.fl_value)
        assert type(made.row_weight) is float and type(made.opp_random) is float
