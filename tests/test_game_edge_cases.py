"""Edge cases of the game found by a fuzzer, on the C engine: a pool under table
stakes, immutable moves and history, replays that check every recorded field, bounded
action helpers, and garbage moves, actions and arguments."""

from __future__ import annotations

import copy
import json
import time
import weakref
from random import Random
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.bots import RandomBot
from ofc_fast.errors import GameError, HistoryError, MoveError, OfcError
from ofc_fast.game import Game, Move, actions_for, moves_for
from ofc_fast.game._actions import _destinations, _legal_actions
from ofc_fast.game.moves import (
    action_destinations,
    destinations_table,
    legal_actions_of,
)
from ofc_fast.rules.compiled import game_struct


def finished(
    r: rules.RuleSet = rules.PINEAPPLE, players: int = 2, seed: int = 5, **kw: object
) -> Game:
    g = Game(r, players, seed=seed, **kw)  # type: ignore[arg-type]
    rng = Random(seed)
    while not g.is_over:
        g.play(g.random_move(rng))
    return g


def test_pool_with_table_stakes_settles() -> None:
    r = rules.CLASSIC_1_6.replace(pool={"ante": 1})
    g = finished(r, 2, seed=3, stacks=[10, 10])
    res = g.result()
    assert sum(res.net) == 0 and all(abs(x) <= 10 for x in res.net)
    assert g.history()["result"]["net"] == res.net
    assert g.observation(0)["result"]["net"] == res.net
    m = ofc.Match(r, 2, seed=1, stacks=[10, 10])
    m.play([RandomBot(1), RandomBot(2)], hands=5)
    assert m.hands_played >= 1


def test_move_is_immutable_with_plain_ints() -> None:
    m = Move([(np.int64(51), np.int8(0)), ("Kd", "back")], discard=np.uint8(3))
    assert all(type(c) is int for c in m.cards) and all(
        type(d) is int for d in m.destinations
    )
    with pytest.raises(AttributeError):
        m.placements = ()  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        m.foo = 1  # type: ignore[attr-defined]
    with pytest.raises(MoveError):
        Move([(51, -1)])
    with pytest.raises(MoveError):
        Move([(51, True)])
    with pytest.raises(MoveError):
        Move([(True, 0)])
    assert hash(m) == hash(Move([("Kd", 2), ("As", "front")], discard="2s"))
    assert copy.deepcopy(m) == m


def test_played_moves_cannot_change_history() -> None:
    g = Game(rules.PINEAPPLE, 2, seed=9)
    legal = g.legal_moves()
    before = [x.to_dict() for x in g.legal_moves()]
    pick = legal[0]
    cards = [np.int64(c) for c in pick.cards]
    g.play(Move(list(zip(cards, pick.destinations))))
    assert [x.to_dict() for x in legal] == before  # the list we got is ours
    h = g.history()
    json.dumps(h)  # plain ints only
    while not g.is_over:
        g.play(g.legal_moves()[-1])
    assert Game.replay(json.loads(json.dumps(g.history()))) == g


def refused(history: dict[str, Any], changes: dict[str, object]) -> HistoryError:
    """The HistoryError of replaying ``history`` with ``changes`` ("key" or
    "outer.inner" to value)."""
    for key, value in changes.items():
        if "." in key:
            outer, inner = key.split(".")
            history[outer][inner] = value
        else:
            history[key] = value
    with pytest.raises(HistoryError) as info:
        Game.replay(history)
    return info.value


def test_replay_checks_every_recorded_field() -> None:
    g = finished(seed=11)
    h = json.loads(json.dumps(g.history()))
    assert Game.replay(h) == g

    def bad(**changes: object) -> HistoryError:
        return refused(json.loads(json.dumps(h)), changes)

    assert bad(**{"result.net": [100, -100]}).field == "result.net"
    assert bad(button=1).field.startswith("result")  # another deal order
    assert bad(seed=h["seed"] + 1).field == "deck"  # not the recorded deck
    with pytest.raises(OfcError):  # a swapped preset
        edited = json.loads(json.dumps(h))
        edited["rules"] = rules.OFC.to_dict()
        Game.replay(edited)
    assert bad(**{"result.boards": ["As Ks Qs / / "] * 2}).field == "result.boards"
    assert bad(extra=1).field == "extra"
    assert bad(version=1).field == "version"


@pytest.mark.parametrize(
    "deck", [7, "As Ks", [[1, 2]], [np.arange(2)] * 52, list(range(51)), [True] * 52]
)
def test_fuzz_replay_with_a_seed_and_an_odd_deck_names_the_deck(deck: object) -> None:
    """Found by tests/fuzz/fuzz_game.py: with a seed recorded, a deck that is not a
    list of card ids raised TypeError (list(7)) instead of HistoryError."""
    h = finished(seed=3).history()
    h["deck"] = deck
    with pytest.raises(HistoryError) as info:
        Game.replay(h)
    assert info.value.field == "deck"
    h["deck"] = [np.int64(c) for c in finished(seed=3).history()["deck"]]
    assert Game.replay(h) == finished(seed=3)  # the same ids as NumPy ints: accepted


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("version", np.arange(3)),
        ("result.net", np.arange(2)),
        ("result.net", [np.arange(2)]),
    ],
)
def test_fuzz_replay_with_an_array_field_names_it(key: str, value: object) -> None:
    """Found by tests/fuzz/fuzz_game.py: a NumPy array as the version or a recorded
    result field raised ValueError (an ambiguous truth value) instead of HistoryError."""
    assert refused(finished(seed=4).history(), {key: value}).field == key


class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("version", 10**5000),
        ("version", _BadRepr()),
        ("result.net", [10**5000, 0]),
        ("result.fouls", _BadRepr()),
    ],
    ids=["version-huge", "version-bad-repr", "net-huge", "fouls-bad-repr"],
)
def test_replay_quotes_a_huge_int_or_a_failing_repr_safely(key: str, value: object) -> None:
    """A history whose version or recorded result held an int of 5,000 digits raised
    ValueError (the int-to-text limit), one whose repr fails that repr's exception,
    while quoting it in the HistoryError: it is quoted as every error quotes input."""
    assert refused(finished(seed=4).history(), {key: value}).field == key


@pytest.mark.parametrize("discards", [1, 2])
def test_fuzz_five_cards_with_one_or_two_discards_have_no_action_ids(discards: int) -> None:
    """Found by the C API harness: 5 cards with 1 or 2 discards have 405 / 270 ids, past
    the 243 of the action space; ofc_actions_legal wrote past its output and
    actions_for crashed the interpreter.  The shape is refused everywhere."""
    with pytest.raises(MoveError):
        actions_for(5, [[], [], []], discards)
    assert len(actions_for(5, [[], [], []], 3)) == 90  # 10 discard pairs x 9 placements
    assert ofc.game.moves.destinations_table(5, discards) == (None,) * 243


def test_replay_names_moves_given_as_a_zero_d_array() -> None:
    """Regression: Game.replay of a history whose moves were a 0-d NumPy array (one
    value, Iterable by type) raised TypeError "iteration over a 0-d array"; it is a
    HistoryError naming moves, as for any other moves that are not a list."""
    assert refused(finished(seed=2).history(), {"moves": np.array(5)}).field == "moves"
    h = finished(seed=2).history()
    h["moves"] = np.array(h["moves"], dtype=object)  # a 1-d array of moves: read
    assert Game.replay(h) == finished(seed=2)


def test_replay_of_a_history_without_players_names_it() -> None:
    h = finished(seed=2).history()
    del h["players"]
    with pytest.raises(HistoryError, match="players"):
        Game.replay(h)


def test_replay_of_a_hand_history_line_says_to_pass_its_history() -> None:
    """docs/arena.md and ``play --help`` called a ``--history`` line what
    ``Game.replay()`` reads; a reader who passed the line got "history must be a dict
    made by Game.history()", nothing saying the line holds it under ``history``.  The
    error says so, and the line's ``history`` replays the deal."""
    g = finished(seed=2)
    line = {"format": "ofc-fast/hand-history", "version": 1, "hand_no": 0}
    line |= {"deck_no": 0, "rotation": 0, "game_id": "ofc-pineapple"}
    line |= {"seats": ["a", "b"], "points": list(g.result().net)}
    line["history"] = json.loads(json.dumps(g.history()))
    with pytest.raises(HistoryError, match=r"a hand-history line.*\[.history.\]"):
        Game.replay(line)
    assert Game.replay(line["history"]) == g


def test_destinations_table_checks_its_counts_on_every_call() -> None:
    """The cache answered ``(3.0, 1)`` and ``(3, True)`` once ``(3, 1)`` had been asked
    (they hash alike), where a first call refuses them."""
    assert len(destinations_table(3, 1)) == 243
    for n, k in ((3.0, 1), (3, True), (True, 0), (3, 1.0)):
        with pytest.raises(MoveError, match="no normal decision"):
            destinations_table(n, k)  # type: ignore[arg-type]


def test_action_helpers_are_bounded() -> None:
    t = time.perf_counter()
    with pytest.raises(MoveError):
        actions_for(20, [[], [], []], 0)
    with pytest.raises(MoveError):
        moves_for(list(range(14)), [[], [], []], 1)
    assert time.perf_counter() - t < 1.0
    for big in (243, 10**6, -1, 2**40):
        assert action_destinations(3, 1, big) is None
    assert _destinations.cache_info().currsize <= 15  # (n, k) pairs only
    with pytest.raises(MoveError):
        legal_actions_of(3, 1, (4, 5, 5))
    assert _legal_actions.cache_info().currsize <= 6 * 5 * 4 * 6 * 6


def test_games_pin_no_compiled_rules_once_they_end() -> None:
    """The schedule cache was keyed by the compiled rules of each Game's rule set
    (about 92 KB each, up to 4,096 of them): a server dealing under many rule sets
    kept every compile that the compile cache (128 rule sets) had already dropped."""
    first = rules.OFC.replace(sweep_bonus=999)
    probe = weakref.ref(game_struct(first))
    Game(first, 2, seed=1)
    for k in range(140):  # more rule sets than the compile cache keeps
        Game(rules.OFC.replace(sweep_bonus=800 + k), 2, seed=1)
    assert probe() is None  # nothing but the compile cache held it


GARBAGE = [
    ("play", m)
    for m in (
        {"place": None},
        {"place": 5},
        {"place": "As"},
        {"discard": [{}]},
        {"nope": 1},
        3.5,
        None,
    )
] + [("play_action", a) for a in (1.0, True, [0], {"a": 0}, "4", 243, -1, 10**30)]


@pytest.mark.parametrize(("method", "value"), GARBAGE)
def test_garbage_moves_and_actions_raise_move_error(method: str, value: object) -> None:
    g = Game(rules.PINEAPPLE, 2, seed=4)
    before = g._state_bytes()
    with pytest.raises(MoveError):
        getattr(g, method)(value)
    assert g._state_bytes() == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": -1},
        {"seed": 2**64},
        {"seed": 1.5},
        {"players": 5},
        {"button": True},
        {"fantasyland": (14, 0, 0)},
        {"stacks": [1.5, 2]},
        {"deck": list(range(51))},
    ],
)
def test_bad_game_arguments_raise_game_error(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"players": 2, "seed": 1}
    args.update(kwargs)
    with pytest.raises(GameError):
        Game(rules.PINEAPPLE, **args)  # type: ignore[arg-type]


def test_moves_for_reads_card_text_and_refuses_a_card_dealt_and_placed() -> None:
    """``moves_for("As Kd 7h", ...)`` read the text character by character (MoveError:
    bad card 'A'), and rows as text were counted in characters; a dealt card already
    on the rows was accepted.  Text is read as ``parse_cards`` reads it, and a card
    both dealt and placed is a CardError naming it."""
    from ofc_fast.errors import CardError
    from ofc_fast.game import move_for_action, random_move

    ids = ofc.parse_cards("As Kd 7h")
    empty: list[list[int]] = [[], [], []]
    assert moves_for("As Kd 7h", empty, 1) == moves_for(ids, empty, 1)
    rows = [ofc.parse_cards("Ah"), ofc.parse_cards("2c 3c 4c 5c"), []]
    expected = moves_for(ids, rows, 1)
    assert len(expected) == 3 * 8  # a discard, then 9 row pairs but middle-middle
    for text_rows in (["Ah", "2c 3c 4c 5c", ""], "Ah / 2c 3c 4c 5c / -"):
        assert moves_for("As Kd 7h", text_rows, 1) == expected  # type: ignore[arg-type]
        assert actions_for(3, text_rows, 1) == actions_for(3, rows, 1)  # type: ignore[arg-type]
    assert move_for_action(3, "As Kd 7h", empty, 1) == move_for_action(3, ids, empty, 1)
    for dealt, on_rows, card in (
        ([1, 2, 3], [[1], [], []], "2d"),
        ("As Kd", [[], ["Kd"], []], "Kd"),
    ):
        for call, args in (
            (moves_for, (dealt, on_rows, 1)),
            (move_for_action, (0, dealt, on_rows, 1)),
            (random_move, (dealt, on_rows, 1, Random(0))),
        ):
            with pytest.raises(CardError, match=f"^duplicate card {card} in dealt cards"):
                call(*args)  # type: ignore[operator]


@pytest.mark.parametrize("bad", [[[0]], [True], [1.0], [27], ["x"], [-1]])
def test_moves_for_actions_refuses_garbage_ids(bad: list[object]) -> None:
    from ofc_fast.game.moves import moves_for_actions

    assert len(moves_for_actions([1, 2, 3], 1, [0, 26])) == 2
    with pytest.raises(MoveError):
        moves_for_actions([1, 2, 3], 1, bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("players", 9),
        ("players", 2.0),
        ("button", 5),
        ("button", True),
        ("seed", -1),
        ("seed", "3"),
        ("stacks", [1, -1]),
        ("stacks", "ab"),
        ("fantasyland", [20, 0]),
        ("fantasyland", [0]),
    ],
)
def test_replay_names_the_table_field_it_refuses(key: str, value: object) -> None:
    """A history whose button, seed, stacks or Fantasyland counts no table takes was
    refused with ``field == "players"`` whatever the field: HistoryError.field names
    the field at fault (as it does for the deck, the version and the result)."""
    assert refused(finished(seed=4).history(), {key: value}).field == key


def test_replay_names_the_deck_a_deck_game_cannot_deal() -> None:
    """A deck-dealt game's history (no seed) with a deck that is not the 52 cards:
    the field is ``deck``, not ``players``."""
    h = finished(seed=4).history()
    h["seed"], h["deck"] = None, [0] * 52
    assert refused(h, {}).field == "deck"


@pytest.mark.parametrize("free", [(0, 0, 10**6), (0, 256, 0), (2**70, 5, 5)], ids=repr)
def test_free_slots_past_the_engine_s_byte_are_a_move_error(free: Any) -> None:
    """Regression: ``legal_actions_of(3, 1, (0, 0, 10**6))`` (the cached shape lookup
    behind ``actions_for``, ``moves_for`` and the arena client) raised cffi's bare
    OverflowError ("integer 1000000 does not fit 'uint8_t'"); no public call passes
    such counts (they come from ``free_slots``: 0..5), but the lookup now names the
    shape, a MoveError, as for any other shape no decision has."""
    with pytest.raises(MoveError, match=r"no normal decision deals 3 card\(s\)"):
        legal_actions_of(3, 1, free)
    assert len(legal_actions_of(3, 1, (3, 5, 5))) == 27
