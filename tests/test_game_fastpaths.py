"""The C fast paths (``ofc_fast._native._speedups``: ``observe``, ``legal_actions``, the
card checks, ``score_pair`` ...) against their portable twins, the paths PyPy uses
(``ofc_fast._native._portable``), on every state of random deals; and the fast paths'
guards against forged input."""

from __future__ import annotations

import collections
import random
import types

import numpy as np
import pytest

from ofc_fast import rules
from ofc_fast._native import _fast, _portable
from ofc_fast.game import Game, state

speedups = None
if _fast.NATIVE:
    from ofc_fast._native import _speedups as speedups

needs_speedups = pytest.mark.skipif(
    speedups is None,
    reason="no _speedups: built on CPython only (install ofc-fast on CPython)",
)

PRESETS = [
    rules.PINEAPPLE,
    rules.OFC,
    rules.CLASSIC_1_6,
    rules.PINEAPPLE_27,
    rules.OFC.replace(name="OFC_FD3", face_down_final=3),
]


def _states(r: rules.RuleSet, deals: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        players = rng.randint(2, min(r.max_players, 3 if r is rules.PINEAPPLE else 4))
        fl = None
        if r.fantasyland is not None and r.game.value != "classic" and rng.random() < 0.3:
            fl = tuple(rng.choice((0, 0, 13, 14)) for _ in range(players))
            if sum(n or (17 if r.game.value == "pineapple" else 13) for n in fl) > 52:
                fl = None
        g = Game(
            r, players, seed=seed * 1000 + i, button=rng.randrange(players), fantasyland=fl
        )
        while True:
            out.append(g.copy())
            if g.is_over:
                break
            g.play(g.random_move(rng))
    return out


def _portable_view(g: Game, seat: int) -> dict:
    saved = state._observe, state._legal_actions
    state._observe, state._legal_actions = _portable.observe, _portable.legal_actions
    try:
        obs = g.observation(seat)
        legal = None if g.is_over or g._steps[g.decisions][4] else g.legal_actions()
        return {"obs": obs, "legal": legal}
    finally:
        state._observe, state._legal_actions = saved


@needs_speedups
@pytest.mark.parametrize("r", PRESETS, ids=lambda r: r.name)
def test_fast_observation_equals_portable(r: rules.RuleSet) -> None:
    for g in _states(r, 12, seed=len(r.name)):
        for seat in range(g.players):
            slow = _portable_view(g, seat)
            fast = g.observation(seat)
            assert fast == slow["obs"]
            assert list(fast) == list(slow["obs"])  # the same key order
            if slow["legal"] is not None:
                assert g.legal_actions() == slow["legal"]


def test_portable_path_plays_a_deal() -> None:
    """The PyPy path alone: the observation's legal actions play a whole deal."""
    saved = state._observe, state._legal_actions, state._place, state._act
    state._observe, state._legal_actions = _portable.observe, _portable.legal_actions
    state._place, state._act = _portable.place, _portable.act
    try:
        g = Game(rules.PINEAPPLE, 3, seed=5)
        rng = random.Random(1)
        while not g.is_over:
            obs = g.observation(g.to_act)
            assert obs["legal_actions"] == g.legal_actions()
            g.play_action(rng.choice(obs["legal_actions"]))
        assert g.observation(0)["result"]["net"] == g.result().net
    finally:
        state._observe, state._legal_actions, state._place, state._act = saved


@pytest.mark.parametrize("impl", ["speedups", "portable"])
def test_apply_books_an_accepted_move_in_the_same_call(impl: str) -> None:
    """``act(game, action, booked)`` and ``place(game, dest, booked, move)`` append
    the move to ``booked`` when the engine accepts it (the builtins in the same C
    call: ``Game.play_action`` / ``play`` book a move whole under a Ctrl-C); a
    refused move, or a ``booked`` that is no list, leaves both as they were."""
    if impl == "speedups" and speedups is None:
        pytest.skip("no _speedups: built on CPython only")
    fast: types.ModuleType = speedups if impl == "speedups" else _portable  # type: ignore[assignment]
    g = Game(rules.PINEAPPLE, 2, seed=3)
    buf = bytearray(g._buf)
    booked: list = []
    before = bytes(buf)
    assert fast.act(buf, 0, booked) != 0 and booked == [] and bytes(buf) == before
    assert fast.place(buf, (0,) * 5, booked, "m") != 0 and booked == []
    for bad in ((), [].copy, None.__class__):
        with pytest.raises(TypeError):
            fast.act(buf, g.legal_actions()[0], bad)
    assert booked == [] and bytes(buf) == before
    first = g.legal_actions()[0]
    assert fast.act(buf, first, booked) == 0 and booked == [first]
    ref = g.copy()
    ref.play_action(first)
    assert bytes(buf) == ref._state_bytes()
    move = ref.legal_moves()[0]
    dest = move[1]
    assert fast.place(buf, dest, booked, move) == 0 and booked == [first, move]
    ref.play(move)
    assert bytes(buf) == ref._state_bytes() and ref._moves == booked


def _apply_outcome(fn: object, buf: bytearray, args: tuple, words: bool) -> tuple:
    """What ``fn(buf, *args)`` did: its status or its exception (the type, and its
    words when ``words``), the booked list after and the game's bytes after."""
    try:
        got: tuple = ("status", fn(buf, *args))  # type: ignore[operator]
    except (TypeError, ValueError) as e:
        got = ("raised", type(e), str(e) if words else "")
    booked = [a for a in args if type(a) is list]
    return got, [list(b) for b in booked], bytes(buf)


@needs_speedups
def test_apply_builtins_and_twins_take_the_same_arguments() -> None:
    """Regression: ``act(game, a, None)`` / ``place(game, dest, None, move)`` raised
    TypeError "booked must be a list" from the builtins but not from the portable
    twins (and the stub allowed None), and the twins' 3-argument ``place(game, dest,
    [])`` booked None as the move where the builtin refused 3 arguments.  Both sides
    now take exactly the same arguments with the same meaning (booked None: no
    booking; place books only with both booked and move): differential, call by call,
    over legal and refused moves (the outcome, its words, the booked list, the
    game's bytes)."""
    g = Game(rules.PINEAPPLE, 2, seed=3)
    first = g.legal_actions()[0]
    move = g.action_to_move(first)
    dest, bad_dest = move[1], (9,) * 5
    cases = [(first, True), (0, True), (10**6, True)]  # legal, refused, out of range
    calls: list[tuple[str, tuple, bool]] = []
    for a, words in cases:
        for rest in ((), (None,), ([],), ([7],), ((),), ({},)):
            calls.append(("act", (a, *rest), words))
        calls.append(("act", (a, [], None), False))  # too many: Python's own words
    for d in (dest, bad_dest, (0,) * 5, [0] * 5, (0, 1.0)):
        for rest in ((), (None,), ([],), (None, "m"), ([], "m"), ([1], move), ((), "m")):
            calls.append(("place", (d, *rest), True))
        calls.append(("place", (d, [], "m", 0), True))
    calls.append(("place", (), False))  # too few: Python's own words
    for name, args, words in calls:
        copies = [tuple(list(a) if type(a) is list else a for a in args) for _ in "ab"]
        outcomes = [
            _apply_outcome(getattr(impl, name), bytearray(g._buf), copy, words)
            for impl, copy in zip((speedups, _portable), copies)
        ]
        assert outcomes[0] == outcomes[1], (name, args)


def test_fresh_lists_every_call() -> None:
    """Mutating an observation's lists changes neither the game nor the next one."""
    g = Game(rules.PINEAPPLE, 2, seed=3)
    a = g.observation(1)
    a["legal_actions"].clear()
    a["dealt"].append(99)
    a["fantasyland"][0] = 14
    b = g.observation(1)
    assert b["legal_actions"] and len(b["dealt"]) == 5 and b["fantasyland"] == [0, 0]
    legal = g.legal_actions()
    legal.clear()
    assert g.legal_actions()


@needs_speedups
def test_forged_states_are_refused() -> None:
    g = Game(rules.PINEAPPLE, 3, seed=2)
    t = g._obs if g._obs is not None else (g.observation(0), g._obs)[1]
    size = len(g._buf)
    rng = random.Random(7)
    for bad in (b"", bytes(size), bytearray(size - 1), bytearray(size + 1), None, 3):
        with pytest.raises((TypeError, ValueError)):
            speedups.observe(bad, 0, t)
        with pytest.raises((TypeError, ValueError)):
            speedups.legal_actions(bad)
    with pytest.raises((TypeError, ValueError, OverflowError)):
        speedups.observe(g._buf, 3, t)
    with pytest.raises((TypeError, ValueError, OverflowError)):
        speedups.observe(g._buf, -1, t)
    with pytest.raises(TypeError):
        speedups.observe(g._buf, 0, [])
    # random garbage and single-byte corruptions: an error or a dict, never a crash
    for _ in range(3000):
        buf = bytearray(g._buf)
        if rng.random() < 0.2:
            buf = bytearray(rng.getrandbits(8) for _ in range(size))
        else:
            for _ in range(rng.randint(1, 4)):
                buf[rng.randrange(size)] = rng.getrandbits(8)
        dest = tuple(rng.randrange(5) for _ in range(rng.randint(0, 17)))
        for call in (
            lambda buf=buf: speedups.observe(buf, rng.randrange(4), t),
            lambda buf=buf: speedups.legal_actions(buf),
            lambda buf=buf, dest=dest: speedups.place(buf, dest),
            lambda buf=buf: speedups.act(buf, rng.randrange(243)),
        ):
            try:
                call()
            except (ValueError, TypeError):
                pass
    before = bytes(g._buf)
    for dest in (
        [0, 0, 0, 0, 0],
        (0, 0, 0, 0, -1),
        (0, 0, 0, 0, 256),
        (0,) * 18,
        (0, 0, 0, 0, True),
        (0, 0, 0, 0, 1.0),
    ):
        with pytest.raises((TypeError, ValueError)):
            speedups.place(g._buf, dest)
    for action in (-1, 243, True, 1.0, None, 2**80):
        with pytest.raises((TypeError, ValueError)):
            speedups.act(g._buf, action)
    assert speedups.place(g._buf, (0, 0, 0, 0, 4)) != 0  # the engine refuses
    assert speedups.place(g._buf, (0, 0, 0, 0)) != 0
    assert speedups.act(g._buf, 0) != 0  # 5 cards cannot all go to the front
    assert bytes(g._buf) == before
    assert not hasattr(speedups, "bind")  # linked with the library: nothing handed over


def _random_items(rng: random.Random) -> list:
    pool = [0, 1, 5, 51, 52, -1, 2**70, True, False, 3.0, "As", None, 12]
    return [
        rng.choice(pool) if rng.random() < 0.2 else rng.randrange(52)
        for _ in range(rng.randint(0, 14))
    ]


def _plain_cases() -> list[tuple[object, bool]]:
    """Observations and near-observations, each with whether it holds only plain
    values where ``plain_observation`` reads (the reference, by hand)."""
    g = Game(rules.PINEAPPLE, 2, seed=4)
    g.play_action(g.legal_actions()[0])
    obs = g.observation(g.to_act)
    boards, counts = obs["boards"], obs["face_down_counts"]
    over = Game(rules.PINEAPPLE, 2, seed=4)
    while not over.is_over:
        over.play_action(over.legal_actions()[0])
    cases: list[tuple[object, bool]] = [
        (obs, True),
        (over.observation(0), True),  # its "result": a dict
        ({**obs, "boards": [[[np.int64(c) for c in r] for r in b] for b in boards]}, True),
        ({**obs, "extra": 1.5, "label": "x", "flag": None}, True),
        ({**obs, "seat": np.int64(1)}, False),
        ({**obs, "full_set": np.bool_(False)}, False),
        ({**obs, "dealt": np.array(obs["dealt"])}, False),
        ({**obs, "dealt": tuple(obs["dealt"])}, False),
        ({**obs, "boards": np.array(boards, dtype=object)}, False),
        ({**obs, "boards": [boards[0], tuple(boards[1])]}, False),
        ({**obs, "boards": [boards[0], [*boards[1][:2], np.array(boards[1][2])]]}, False),
        ({**obs, "face_down_counts": [counts[0], np.array(counts[1])]}, False),
        ({**obs, "face_down_counts": tuple(counts)}, False),
        ({k: v for k, v in obs.items() if k != "boards"}, False),
        ({k: v for k, v in obs.items() if k != "face_down_counts"}, False),
        (types.MappingProxyType(obs), False),
        (collections.OrderedDict(obs), False),  # a dict subclass: the full reading
        ([obs], False),
        (None, False),
    ]
    return cases


def test_plain_check_agrees_with_portable_twin() -> None:
    """plain_observation spent more on proving a Game's observation plain (a set of the
    types of its 21 values, then of its rows) than RandomBot on its whole decision:
    the check is now one builtin, the same answer as its portable twin."""
    checks = [_portable.plain] + ([speedups.plain] if speedups is not None else [])
    assert _fast.plain in checks
    for value, want in _plain_cases():
        for check in checks:
            assert check(value) is want, (check, value)


def test_plain_seat_agrees_with_portable_twin() -> None:
    """RandomBot's one check of a decision (plain values, the seat in range, one board
    per player): the builtin's seat or -1 is its portable twin's, for the plain check's
    cases and seats and player counts out of range or of other types."""
    checks = [_portable.plain_seat] + (
        [speedups.plain_seat] if speedups is not None else []
    )
    assert _fast.plain_seat in checks
    obs = Game(rules.PINEAPPLE, 3, seed=4).observation(2)
    seats: list[object] = [0, 2, 3, -1, True, 2**70, -(2**70), 1.0, None, "1"]
    cases: list[tuple[object, int]] = [
        (v, v["seat"]) for v, want in _plain_cases() if want and isinstance(v, dict)
    ]
    cases += [(value, -1) for value, want in _plain_cases() if not want]
    cases += [
        ({**obs, "seat": s}, s if s in (0, 2) and s is not True else -1) for s in seats
    ]
    cases += [({**obs, "players": p}, 2 if p == 3 and p is not True else -1) for p in seats]
    cases += [({k: v for k, v in obs.items() if k != "seat"}, -1), (obs, 2)]
    for most, want_obs in ((2, -1), (3, 2), (6, 2)):
        cases.append(({**obs, "most": most}, 2))  # (an extra key: no matter)
        for check in checks:
            assert check(obs, most) == want_obs, (check, most)
    for value, want in cases:
        for check in checks:
            assert check(value, 6) == want, (check, value)


def test_plain_check_holds_what_a_key_s_eq_removes() -> None:
    """A key whose ``__eq__`` runs on the second lookup (a hash equal to
    ``"face_down_counts"``'s) and removes ``"boards"``: the builtin read the list it
    had looked up, freed by then (False, or a crash under ``-X dev``), where its twin
    holds it (True); an ``__eq__`` that raises is raised by both."""
    checks = [_portable.plain] + ([speedups.plain] if speedups is not None else [])
    mode = ["off"]

    class Collides:
        def __hash__(self) -> int:
            return hash("face_down_counts")

        def __eq__(self, other: object) -> bool:
            if mode[0] == "raise":
                raise LookupError("no comparing")
            if mode[0] == "pop":
                obs.pop("boards", None)
            return False

    for check in checks:
        for _ in range(3):
            mode[0] = "off"
            obs = {
                Collides(): 1,
                "boards": [[[*range(100)], [], []]],
                "face_down_counts": [[0]],
            }
            mode[0] = "pop"
            assert check(obs) is True, check
            _ = [(1, 2, 3) for _ in range(1000)]  # (reuse what a free let go)
        obs = {Collides(): 1, "boards": [[[], [], []]], "face_down_counts": [[0]]}
        mode[0] = "raise"
        with pytest.raises(LookupError, match="no comparing"):
            check(obs)


def _no_shared_containers(copy: object, original: object) -> None:
    """``copy`` equals ``original``, with new exact dicts and lists all the way down
    and every other value the very same object (the reference, by a walk here)."""
    if type(original) in (dict, list):
        assert type(copy) is type(original) and copy is not original
        assert len(copy) == len(original)  # type: ignore[arg-type]
        if type(original) is dict:
            assert list(copy) == list(original)  # type: ignore[call-overload]
            pairs = zip(copy.values(), original.values())  # type: ignore[union-attr]
        else:
            pairs = zip(copy, original)  # type: ignore[call-overload]
        for a, b in pairs:
            _no_shared_containers(a, b)
    else:
        assert copy is original


def test_plain_copy_agrees_with_portable_twin() -> None:
    """Every decision of a game of custom rules copied the rule set its observation
    carries in Python (about 140 calls: most of a RandomBot decision); the copy is one
    builtin now, the same copy as its portable twin's."""
    custom = rules.PINEAPPLE.replace(sweep_bonus=4, name="custom")
    carried = Game(custom, 2, seed=1).observation(0)["rule_set"]
    odd = collections.OrderedDict(a=[1])
    values = [
        carried,
        {"a": [[1, 2], [], {"b": (3, [4])}], "c": None, "d": 1.5, "e": odd},
        [[[]]],
        (1, [2]),
        "text",
        odd,
    ]
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    loop: dict[str, object] = {}
    loop["self"] = loop
    copies = [_portable.plain_copy] + (
        [speedups.plain_copy] if speedups is not None else []
    )
    assert _fast.plain_copy in copies
    for copy in copies:
        for value in values:
            out = copy(value)
            assert out == value
            _no_shared_containers(out, value)
        for bad in (deep, loop):
            with pytest.raises(RecursionError):
                copy(bad)


@needs_speedups
def test_card_checks_agree_with_portable_twins() -> None:
    from ofc_fast._native import _speedups

    rng = random.Random(11)
    for _ in range(4000):
        items = _random_items(rng)
        for seq in (items, tuple(items)):
            expect = _portable.distinct_ids(tuple(items))
            assert _speedups.distinct_ids(seq) is expect, seq
            assert _portable.distinct_ids(seq) is expect, seq
            ids = _speedups.card_ids(seq)
            assert ids == (tuple(items) if expect and 1 <= len(items) <= 5 else None)
            assert _portable.card_ids(seq) == ids
            for n, f in ((5, "rank5"), (3, "rank3")):
                assert getattr(_speedups, f)(seq) == getattr(_portable, f)(seq), seq
                if expect and len(items) == n:
                    assert getattr(_speedups, f)(seq) > 0
    for other in (None, 3, "As Kd", iter([1, 2]), {1: 2}, bytearray(b"\x01")):
        assert _speedups.distinct_ids(other) is False
        assert _speedups.card_ids(other) is None
        assert _portable.distinct_ids(other) is False
        assert _portable.card_ids(other) is None
        assert _speedups.rank5(other) == _portable.rank5(other) == -1


@pytest.mark.parametrize("fast", [True, False])
def test_moves_and_from_action_both_paths(
    fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """moves_for_actions / Move.from_action, with the C helpers and without (PyPy),
    against the action decoding written out here."""
    from importlib import import_module
    from itertools import combinations

    from ofc_fast.errors import MoveError
    from ofc_fast.game import Move
    from ofc_fast.game.moves import moves_for_actions

    moves = import_module("ofc_fast.game.moves")

    if not fast:
        monkeypatch.setattr(moves, "_moves", _portable.moves)
        monkeypatch.setattr(moves, "_card_ids", _portable.card_ids)
    elif not _fast.NATIVE:
        pytest.skip("no _speedups: built on CPython only (install ofc-fast on CPython)")
    rng = random.Random(3)
    for _ in range(300):
        n = rng.randint(1, 5)
        k = rng.randrange(n) if n == 3 else 0
        dealt = rng.sample(range(52), n)
        kept = n - k
        expect = {}
        for ci, gone in enumerate(combinations(range(n), k)):
            keep = [i for i in range(n) if i not in gone]
            for code in range(3**kept):
                dest = [3] * n
                for j, i in enumerate(keep):
                    dest[i] = code // 3**j % 3
                expect[ci * 3**kept + code] = tuple(dest)
        acts = rng.sample(sorted(expect), min(len(expect), rng.randint(1, 40)))
        got = moves_for_actions(dealt, k, acts)
        assert [m.destinations for m in got] == [expect[a] for a in acts]
        assert all(type(m) is Move and m.cards == tuple(dealt) for m in got)
        assert got[0] == Move.from_action(dealt, k, acts[0])
        bad = rng.choice(
            [
                243,
                -1,
                True,
                1.0,
                "1",
                None,
                next((a for a in range(243) if a not in expect), 242),
            ]
        )
        if bad not in expect or type(bad) is not int:
            with pytest.raises(MoveError):
                moves_for_actions(dealt, k, acts + [bad])
            with pytest.raises(MoveError):
                Move.from_action(dealt, k, bad)


@needs_speedups
def test_moves_helper_refuses_bad_arguments() -> None:
    from ofc_fast._native import _speedups
    from ofc_fast.game import Move
    from ofc_fast.game.moves import destinations_table

    table = destinations_table(3, 1)
    assert _speedups.moves(Move, (1, 2, 3), table, [0, True]) is None
    assert _speedups.moves(Move, (1, 2, 3), table, [0, 10**30]) is None
    assert _speedups.moves(Move, (1, 2, 3), table, iter([0])) is None
    assert _speedups.moves(Move, (1, 2, 3), (None,) * 243, [0]) is None
    for args in (
        (int, (1,), table, [0]),
        (Move, [1], table, [0]),
        (Move, (1,), [], [0]),
        ("Move", (1,), table, [0]),
    ):
        with pytest.raises(TypeError):
            _speedups.moves(*args)
    with pytest.raises(TypeError):
        _speedups.moves(Move, (1,), table)


def _random_board_cards(rng: random.Random) -> object:
    """Two boards' card tuples, mostly valid, sometimes sharing a card, short, or
    holding something that is not a card id."""
    d = rng.sample(range(52), 26)
    a, b = tuple(d[:13]), tuple(d[13:])
    roll = rng.random()
    if roll < 0.1:
        b = (a[0], *b[1:])
    elif roll < 0.15:
        a = a[:12]
    elif roll < 0.2:
        b = (*b[:12], rng.choice([52, 255, 256, -1, True, 1.0, None]))
    elif roll < 0.22:
        a = list(a)  # type: ignore[assignment]
    return a, b


@needs_speedups
@pytest.mark.parametrize("r", PRESETS, ids=lambda r: r.name)
def test_score_pair_equals_portable(r: rules.RuleSet) -> None:
    """``score_pair`` in C and its portable twin: the same PairScore (equal to the
    dataclass built field by field), None for the same refused inputs."""
    from dataclasses import fields

    from ofc_fast._native import _speedups
    from ofc_fast.rules.compiled import compiled
    from ofc_fast.scoring import PairScore

    c = compiled(r)
    address = _fast.rules_handle(c)
    rng = random.Random(len(r.name))
    for _ in range(1500):
        a, b = _random_board_cards(rng)
        fast = _speedups.score_pair(PairScore, a, b, address)
        slow = _portable.score_pair(PairScore, a, b, _portable.rules_handle(c))
        assert fast == slow
        if fast is not None:
            assert type(fast) is PairScore
            assert fast == PairScore(
                **{f.name: getattr(fast, f.name) for f in fields(fast)}
            )
    with pytest.raises(TypeError):
        _speedups.score_pair(None, a, b, address)
    with pytest.raises(ValueError):
        _speedups.score_pair(PairScore, a, b, 0)


def test_portable_switch_in_a_fresh_interpreter() -> None:
    """``OFC_FAST_PORTABLE=1`` makes ``ofc_fast._native._fast`` pick the portable twins
    (as PyPy does): a deal plays and scores through them."""
    import os
    import subprocess
    import sys

    code = (
        "import ofc_fast as ofc\n"
        "from ofc_fast._native import _fast, _portable\n"
        "assert not _fast.NATIVE and _fast.observe is _portable.observe\n"
        "g = ofc.Game('pineapple', players=2, seed=4)\n"
        "while not g.is_over:\n"
        "    g.play_action(g.observation(g.to_act)['legal_actions'][0])\n"
        "print(g.result().net, ofc.rank5([51, 47, 43, 39, 35]))\n"
    )
    env = dict(os.environ, OFC_FAST_PORTABLE="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    g = Game(rules.PINEAPPLE, 2, seed=4)
    while not g.is_over:
        g.play_action(g.observation(g.to_act)["legal_actions"][0])
    from ofc_fast import rank5

    assert out == f"{list(g.result().net)} {rank5([51, 47, 43, 39, 35])}"
