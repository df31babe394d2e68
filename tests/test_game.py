"""Game flow of one deal (R-FLOW-*, R-FL-*, R-27-*): dealing, legal moves, validation,
observations, history and replay, results — on thousands of random deals of every
preset, plus targeted cases."""

from __future__ import annotations

import collections
import json
import pickle
import random
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from game_model import fantasyland_counts

from ofc_fast import Board, Row, card_str, fantasyland_cards, parse_cards, rules, settle
from ofc_fast.bots import make_bots
from ofc_fast.encoding import ENCODING_SIZE, action_mask, encode
from ofc_fast.game import (
    ACTION_SPACE,
    Game,
    GameError,
    Match,
    Move,
    MoveError,
    action_for_move,
    actions_for,
    move_for_action,
    moves_for,
    play_out,
    random_move,
)
from ofc_fast.rules.model import GameKind as Kind

PRESETS = [rules.get(n) for n in rules.names()]
IDS = [r.name for r in PRESETS]


# ------------------------------------------------------------------ helpers

fl_counts = fantasyland_counts  # Fantasyland card counts a rule set can deal


def random_fl(r: rules.RuleSet, players: int, rng: random.Random) -> tuple[int, ...]:
    counts = fl_counts(r)
    normal = 17 if r.game is Kind.PINEAPPLE else 13
    out = []
    for _ in range(players):
        out.append(rng.choice(counts) if counts and rng.random() < 0.3 else 0)
    while sum(c or normal for c in out) > 52:
        out[out.index(max(out))] = 0
    return tuple(out)


class Tracker:
    """Follows a game from the outside to know what each seat may see."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.face_up: set[int] = set()  # placed face up, seen by all
        self.face_down: dict[int, set[int]] = {s: set() for s in range(g.players)}
        self.placed: dict[int, set[int]] = {s: set() for s in range(g.players)}
        self.discards: dict[int, set[int]] = {s: set() for s in range(g.players)}
        self.dealt_counts: dict[int, list[int]] = {s: [] for s in range(g.players)}

    def is_face_down(self, seat: int) -> bool:
        g, r = self.g, self.g.rules
        if r.game is Kind.CLASSIC or g.fantasyland[seat]:
            return True
        rounds = 4 if r.game is Kind.PINEAPPLE else 8
        return g.street > rounds - r.face_down_final

    def play(self, move: Move) -> None:
        g = self.g
        seat = g.to_act
        self.dealt_counts[seat].append(len(g.dealt))
        down = self.is_face_down(seat)
        g.play(move)
        placed = {c for c, _ in g.moves[-1].placements} or set(
            g.boards[seat].cards
        ) - self.placed[seat]
        self.placed[seat] |= placed
        (self.face_down[seat] if down else self.face_up).update(placed)
        self.discards[seat] |= set(move.discards)

    def visible(self, seat: int) -> set[int]:
        g = self.g
        vis = set(self.face_up) | self.placed[seat] | self.discards[seat]
        if g.is_over:
            for s in range(g.players):
                if s not in g.result().surrendered:
                    vis |= self.placed[s]
        elif g.to_act == seat:
            vis |= set(g.dealt)
        return vis


def obs_cards(obs: dict) -> set[int]:
    out: set[int] = set()
    for b in obs["boards"]:
        for row in b:
            out.update(row)
    out.update(obs["discards"])
    out.update(obs["dealt"])
    return out


def check_observations(t: Tracker) -> None:
    g = t.g
    for seat in range(g.players):
        vis = t.visible(seat)
        obs = g.observation(seat)
        json.dumps(obs)  # JSON-able
        assert obs_cards(obs) == vis, (seat, obs)
        x = encode(obs)
        assert x.shape == (ENCODING_SIZE,)
        planes = x[: 15 * 52].reshape(15, 52)
        assert set(np.flatnonzero(planes[:14].any(axis=0))) == vis
        assert set(np.flatnonzero(planes[14])) == set(range(52)) - vis
        mask = action_mask(obs)
        if seat == g.to_act and not obs["full_set"]:
            assert list(np.flatnonzero(mask)) == g.legal_actions()
        else:
            assert not mask.any()
        text = json.dumps(g.observation(seat, cards="text"))
        for c in set(range(52)) - vis:
            assert f'"{card_str(c)}"' not in text, (seat, card_str(c))
        for c in vis:
            assert f'"{card_str(c)}"' in text


def play_random(
    r: rules.RuleSet,
    players: int,
    seed: int,
    fl: tuple[int, ...] | None = None,
    check_obs: bool = False,
    button: int = 0,
) -> tuple[Game, Tracker]:
    rng = random.Random(seed)
    g = Game(r, players, seed=seed, button=button, fantasyland=fl)
    t = Tracker(g)
    while not g.is_over:
        if check_obs:
            check_observations(t)
        t.play(g.random_move(rng))
    if check_obs:
        check_observations(t)
    return g, t


def check_finished(g: Game, t: Tracker) -> None:
    r = g.rules
    res = g.result()
    table: list[int] = []
    for s, b in enumerate(g.boards):
        assert tuple(len(x) for x in b.rows) == (3, 5, 5)
        table.extend(b.cards)
        disc = g.discards(s)
        table.extend(disc)
        n = g.fantasyland[s]
        seen = sum(t.dealt_counts[s])
        if n:
            assert t.dealt_counts[s] == [n]  # all at once (R-FL-2)
            assert len(disc) == n - 13  # keep 13 (R-FL-4)
        elif r.game is Kind.PINEAPPLE:
            assert t.dealt_counts[s] == [5, 3, 3, 3, 3]
            assert seen == 17 and len(disc) == 4  # R-FLOW-PIN-3
        elif r.game is Kind.OFC:
            assert t.dealt_counts[s] == [5] + [1] * 8
            assert not disc
        else:
            assert t.dealt_counts[s] == [13] and not disc
    assert len(table) == len(set(table))  # no card twice
    assert set(table) <= set(range(52))
    assert sum(res.net) == 0
    assert (
        res.net
        == settle(
            g.boards, r, button=g.button, surrendered=res.surrendered, declared=res.declared
        ).net
    )
    for s, b in enumerate(g.boards):
        if s in res.surrendered or s in res.declared:
            continue
        e = b.evaluate(r)
        assert res.fouls[s] == e.foul
        assert res.royalties[s] == e.royalties
        if r.fantasyland is None:
            assert res.fantasyland[s] == 0
        else:
            n = g.fantasyland[s]
            assert res.fantasyland[s] == fantasyland_cards(b, r, n if n else False)


# ------------------------------------------------------- random deals, every preset


@pytest.mark.parametrize("r", PRESETS, ids=IDS)
def test_random_deals_invariants(r: rules.RuleSet) -> None:
    """Thousands of deals per preset: rows complete, no card twice, discards counted,
    Fantasyland dealt right, nets sum to zero, replay equals the original."""
    rng = random.Random(r.name)
    for i in range(1500):
        players = rng.randint(2, r.max_players)
        fl = random_fl(r, players, rng)
        g, t = play_random(
            r, players, seed=rng.getrandbits(40), fl=fl, button=rng.randrange(players)
        )
        check_finished(g, t)
        if i % 10 == 0:
            h = json.loads(json.dumps(g.history()))
            again = Game.replay(h)
            assert again == g and again.result().net == g.result().net
            assert again.history() == g.history()


@pytest.mark.parametrize("r", PRESETS, ids=IDS)
def test_observations_never_leak(r: rules.RuleSet) -> None:
    """Every seat's observation at every decision holds exactly the cards that seat may
    see: never the deck, another seat's dealt cards or discards, or face-down cards
    before the reveal (searched in the JSON)."""
    rng = random.Random("obs" + r.name)
    variants = [r]
    if r.game is Kind.OFC:
        variants.append(r.replace(face_down_final=3))  # R-FLOW-OFC-7
    for v in variants:
        for _ in range(60):
            players = rng.randint(2, v.max_players)
            g, t = play_random(
                v, players, rng.getrandbits(40), random_fl(v, players, rng), check_obs=True
            )
            check_finished(g, t)


@pytest.mark.parametrize("r", PRESETS, ids=IDS)
def test_illegal_moves_leave_state_unchanged(r: rules.RuleSet) -> None:
    rng = random.Random("illegal" + r.name)
    for _ in range(40):
        players = rng.randint(2, r.max_players)
        g = Game(
            r, players, seed=rng.getrandbits(40), fantasyland=random_fl(r, players, rng)
        )
        while not g.is_over:
            before = (g.history(), [g.observation(s) for s in range(players)])
            for bad, reason in illegal_moves(g, rng):
                with pytest.raises(MoveError) as info:
                    if reason == "not_your_turn":
                        g.play(g.random_move(rng), seat=(g.to_act + 1) % players)
                    else:
                        g.play(bad)
                assert info.value.reason == reason, (str(bad), info.value)
                assert isinstance(info.value, ValueError)
                assert (g.history(), [g.observation(s) for s in range(players)]) == before
            g.play(g.random_move(rng))
        with pytest.raises(MoveError) as info:
            g.play(Move())
        assert info.value.reason == "game_over"


def illegal_moves(g: Game, rng: random.Random) -> list[tuple[Move, str]]:
    seat = g.to_act
    dealt = list(g.dealt)
    k = g.to_discard
    good = g.random_move(rng)
    out: list[tuple[Move, str]] = [(good, "not_your_turn")]
    others = [c for c in range(52) if c not in dealt]
    # a card that was not dealt to this seat
    pl = list(good.placements)
    pl[0] = (rng.choice(others), pl[0][1])
    out.append((Move(pl, good.discards), "not_dealt"))
    # the same card twice
    if len(pl) > 1:
        dup = list(good.placements)
        dup[1] = (dup[0][0], dup[1][1])
        out.append((Move(dup, good.discards), "duplicate"))
    # a card left out
    if len(good.placements) > 1:
        out.append((Move(good.placements[1:], good.discards), "missing"))
    # wrong discard count: discard one more / one fewer
    if k:
        out.append(
            (
                Move(good.placements + tuple((c, Row.BACK) for c in good.discards)),
                "discard_count",
            )
        )
    else:
        out.append((Move(good.placements[1:], good.placements[0][0]), "discard_count"))
    # a full row: everything into the front
    kept = [c for c, _ in good.placements]
    if len(g.boards[seat].front) + len(kept) > 3:
        out.append((Move([(c, Row.FRONT) for c in kept], good.discards), "row_full"))
    # classic specials outside classic, or not allowed
    if g.rules.game is not Kind.CLASSIC:
        out.append((Move(surrender=True), "surrender"))
        out.append((Move(declare="dragon"), "declare"))
    elif g.rules.surrender_cost is None:
        out.append((Move(surrender=True), "surrender"))
    return out


# --------------------------------------------------------------- legal moves


def test_opening_has_232_moves() -> None:
    """3**5 row assignments minus the 11 that overflow the front (4 or 5 cards)."""
    g = Game(rules.PINEAPPLE, 2, seed=1)
    moves = g.legal_moves()
    assert len(moves) == 3**5 - (5 * 2 + 1) == 232
    assert len(set(moves)) == 232
    assert g.legal_actions() == sorted(g.legal_actions())
    assert sum(g.action_mask()) == 232 and len(g.action_mask()) == ACTION_SPACE


def test_pineapple_round_has_27_moves() -> None:
    g = Game(rules.PINEAPPLE, 2, seed=2)
    for _ in range(2):  # openings with 2 in the middle, 3 in the back
        g.play(next(m for m in g.legal_moves() if list(map(len, m.rows())) == [0, 2, 3]))
    assert len(g.dealt) == 3 and g.to_discard == 1
    assert len(g.legal_moves()) == 27
    assert len(moves_for([0, 1, 2], [[], [4, 5, 6, 7, 8], [9]], 1)) == 3 * 4  # front/back


def test_legal_moves_respect_rows() -> None:
    assert len(moves_for([7], [[1, 2, 3], [4, 5, 6, 8, 9], [10]])) == 1
    assert len(moves_for([7, 11, 12], [[1, 2], [], [4, 5, 6, 8, 9]], 1)) == 3 * 3


def test_rows_too_full_for_the_kept_cards_are_no_decision() -> None:
    """Two kept cards onto one free slot: a MoveError naming the shape (random_move
    raised IndexError from an empty choice, moves_for returned no move)."""
    rows = [[13, 14, 15], [16, 17, 18, 19, 20], [21, 22, 23, 24]]
    with pytest.raises(MoveError, match="onto free rows"):
        random_move([0, 1, 2], rows, 1, random.Random(0))
    with pytest.raises(MoveError, match="onto free rows"):
        moves_for([0, 1, 2], rows, 1)
    with pytest.raises(MoveError, match="onto free rows"):
        actions_for(1, [[13, 14, 15], [16, 17, 18, 19, 20], [21, 22, 23, 24, 25]])


@pytest.mark.parametrize("np_int", [np.int64, np.uint8, np.intp])
def test_action_ids_and_counts_may_be_numpy_ints(np_int: Any) -> None:
    """A NumPy action id or discard count (a VectorEnv's ``legal_actions`` row, a count
    read from an array) was refused by the module functions ("action np.int64(3) does
    not exist", "no normal decision deals 3 card(s) with np.int64(1) discard(s)"),
    though ``Game.play_action`` and ``Game.action_to_move`` take it.  The reference:
    the same call with Python ints."""
    dealt, rows = [51, 47, 0], [[], [], []]
    one, three = np_int(1), np_int(3)
    assert Move.from_action(dealt, one, three) == Move.from_action(dealt, 1, 3)
    assert moves_for(dealt, rows, one) == moves_for(dealt, rows, 1)
    assert actions_for(three, rows, one) == actions_for(3, rows, 1)
    assert move_for_action(three, dealt, rows, one) == move_for_action(3, dealt, rows, 1)
    move = Move.from_action(dealt, 1, 3)
    assert action_for_move(move, dealt, one) == action_for_move(move, dealt, 1) == 3
    for cards in (dealt, list(range(14))):
        a = random_move(cards, rows, one, random.Random(4))
        assert a == random_move(cards, rows, 1, random.Random(4))
    for bad in (True, 1.0, "1"):  # still no count
        with pytest.raises(MoveError):
            moves_for(dealt, rows, bad)  # type: ignore[arg-type]


def test_random_move_with_a_numpy_generator_is_a_legal_move() -> None:
    """An rng with ``choice`` and ``shuffle`` is taken (NumPy's Generator and
    RandomState have both), yet a NumPy rng's choice returned a NumPy int: the move
    came back holding no destinations (printing or playing it was a TypeError).  The
    reference: random.Random's choice among the legal moves, the same pick."""
    g = Game(rules.PINEAPPLE, 2, seed=1)
    for rng in (np.random.default_rng(1), np.random.RandomState(1)):
        m = g.random_move(rng)  # type: ignore[arg-type]
        assert m in g.legal_moves() and str(m)
    for s in range(5):
        assert g.random_move(random.Random(s)) == random.Random(s).choice(g.legal_moves())

    class Junk:
        def choice(self, seq: Any) -> Any:
            return "x"

        def shuffle(self, seq: Any) -> None:
            pass

    with pytest.raises(GameError, match="rng"):
        g.random_move(Junk())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "dealt, rows, discards",
    [
        (list(range(14)), [[], [], []], 0),  # 14 cards, none discarded: IndexError
        (list(range(13)), [[], [], []], -2),  # IndexError
        (list(range(13)), [[], [], []], "x"),  # TypeError
        (list(range(13)), [[], [], []], 1.5),  # TypeError
        (list(range(13)), [[51], [], []], 0),  # 14 cards on the board: a bogus move
        (list(range(8)), [[], [], []], 0),  # no decision deals 8 cards: a bogus move
    ],
)
def test_random_move_of_a_set_that_no_decision_deals_is_a_move_error(
    dealt: list[int], rows: list[list[int]], discards: object
) -> None:
    """random_move of 6 or more cards sets 13 of them onto an empty board: counts that
    fit no such set (too many or too few kept, a board not empty, a count that is no
    int) raised IndexError or TypeError, or returned a move no game accepts."""
    with pytest.raises(MoveError, match=r"no set deals \d+ card\(s\) with .* onto free"):
        random_move(dealt, rows, discards, random.Random(0))  # type: ignore[arg-type]
    assert len(random_move(list(range(15)), [[], [], []], 2, random.Random(0)).cards) == 15


@pytest.mark.parametrize("r", [rules.OFC, rules.PINEAPPLE, rules.PINEAPPLE_27], ids=str)
def test_every_legal_move_plays_and_illegal_ones_do_not(r: rules.RuleSet) -> None:
    """legal_moves() is exactly the set of moves play() accepts (all assignments of the
    dealt cards tried)."""
    rng = random.Random(5)
    for _ in range(6):
        g = Game(r, 2, seed=rng.getrandbits(30))
        while not g.is_over:
            legal = set(g.legal_moves())
            dealt = g.dealt
            k = g.to_discard
            accepted = set()
            for disc in combinations(dealt, k):
                kept = [c for c in dealt if c not in disc]
                for rows_ in __import__("itertools").product(range(3), repeat=len(kept)):
                    m = Move(list(zip(kept, rows_)), disc)
                    h = g.copy()
                    try:
                        h.play(m)
                    except MoveError:
                        continue
                    accepted.add(m)
            assert accepted == legal
            g.play(rng.choice(sorted(legal, key=Move.key)))


def test_actions_round_trip() -> None:
    rng = random.Random(9)
    for r in (rules.OFC, rules.PINEAPPLE):
        for _ in range(20):
            g = Game(r, 3, seed=rng.getrandbits(30))
            while not g.is_over:
                acts = g.legal_actions()
                moves = g.legal_moves()
                assert [g.move_to_action(m) for m in moves] == acts
                assert all(0 <= a < ACTION_SPACE for a in acts)
                seat = g.to_act
                obs = g.observation(seat)
                assert obs["legal_actions"] == acts
                rows = obs["boards"][seat]
                assert list(actions_for(len(g.dealt), rows, g.to_discard)) == acts
                a = rng.choice(acts)
                m = move_for_action(a, g.dealt, rows, g.to_discard)
                assert action_for_move(m, g.dealt, g.to_discard) == a
                assert g.action_to_move(a) == m
                g.play_action(a)
    g = Game(rules.PINEAPPLE, 2, seed=1)
    with pytest.raises(MoveError) as info:
        g.play_action(0)  # 5 cards into the front
    assert info.value.reason == "bad_action"


def test_play_action_takes_an_id_in_range_as_it_is_and_checks_any_other_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # play_action sent every id, a plain int in range too, through the full check (a
    # call, ~400 instructions a decision); an id in range is now taken as it is, and
    # any other value is checked as before: the same errors, word for word (the
    # references written here), and the game unchanged by them
    import ofc_fast.game.state as game_state

    checked: list[object] = []
    real = game_state.action_id

    def spy(action: object) -> int:
        checked.append(action)
        return real(action)

    monkeypatch.setattr(game_state, "action_id", spy)
    refusals = [
        (True, "an action id is an int, not a bool"),
        (False, "an action id is an int, not a bool"),
        (-1, "action -1 is outside 0..242"),
        (ACTION_SPACE, "action 243 is outside 0..242"),
        (2**70, f"action {2**70} is outside 0..242"),
        (np.int64(ACTION_SPACE), "action 243 is outside 0..242"),
        (3.0, "an action id is an int, got float"),
        ("3", "an action id is an int, got str"),
        (None, "an action id is an int, got NoneType"),
    ]
    g = Game(rules.PINEAPPLE, 3, seed=5)
    rng = random.Random(5)
    while not g.is_over:
        before = g.copy()
        for bad, message in refusals:
            with pytest.raises(MoveError) as info:
                g.play_action(bad)  # type: ignore[arg-type]
            assert (str(info.value), info.value.reason) == (message, "bad_action")
            assert g == before
        assert checked == [bad for bad, _ in refusals]
        checked.clear()
        a = rng.choice(g.legal_actions())
        if g.decisions % 2:
            g.play_action(np.int64(a))  # type: ignore[arg-type]
            assert checked == [a]
        else:
            g.play_action(a)
            assert checked == []
        assert g.moves[-1] == before.action_to_move(a)
        checked.clear()
    assert g.decisions == 15


def test_a_ctrl_c_as_full_sets_are_listed_leaves_the_collector_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``legal_moves()`` of a full set turns Python's garbage collector
    off while it lists the 72,072 settings; a Ctrl-C landing just after it was turned
    off, before the ``try`` that turns it back on, left it off for the rest of the
    process (memory of reference cycles never freed).  Here KeyboardInterrupt is
    raised right as the collector is turned off."""
    import gc

    from interrupts import InterruptedGc

    from ofc_fast.game import state

    g = Game(rules.OFC, 2, seed=4, fantasyland=(13, 0))
    monkeypatch.setattr(state, "gc", InterruptedGc)
    try:
        with pytest.raises(KeyboardInterrupt):
            g.legal_moves()
        assert gc.isenabled()
    finally:
        gc.enable()


def test_full_sets() -> None:
    g = Game(rules.OFC, 2, seed=4, fantasyland=(13, 0))
    assert g.to_act == 0 and len(g.dealt) == 13
    assert g.observation(0)["legal_actions"] is None
    with pytest.raises(GameError):
        g.legal_actions()
    assert g.legal_move_count() == 72072
    moves = g.legal_moves()
    assert len(moves) == 72072 and len(set(moves[:500])) == 500
    g2 = Game(rules.PROGRESSIVE_PINEAPPLE, 3, seed=4, fantasyland=(0, 17, 0))
    assert g2.to_act == 1 and len(g2.dealt) == 17 and g2.to_discard == 4
    assert g2.legal_move_count() == 2380 * 72072
    with pytest.raises(GameError, match="too many"):
        g2.legal_moves()
    m = g2.random_move(random.Random(1))
    assert len(m.placements) == 13 and len(m.discards) == 4
    g2.play(m)
    # the Fantasyland set is face down to the others until the reveal (R-FL-5)
    obs = g2.observation(0)
    assert obs["boards"][1] == [[], [], []] and obs["face_down_counts"][1] == [3, 5, 5]
    assert g2.observation(1)["boards"][1] == [list(r) for r in g2.boards[1].rows]


def test_several_fantasylands_at_once() -> None:
    """R-FL-7: each Fantasyland seat sets independently, first, from left of button."""
    g = Game(rules.ULTIMATE_PINEAPPLE, 3, seed=11, button=1, fantasyland=(15, 0, 16))
    assert g.to_act == 2 and len(g.dealt) == 16
    g.play(g.random_move(random.Random(0)))
    assert g.to_act == 0 and len(g.dealt) == 15
    g.play(g.random_move(random.Random(0)))
    assert g.to_act == 1 and len(g.dealt) == 5


# ------------------------------------------------------------------ flow order


def test_ofc_order_and_one_card_at_a_time() -> None:
    """R-FLOW-OFC-2/3/4: left of the button first, the button last; 5 then 1s."""
    g = Game(rules.OFC, 4, seed=3, button=2)
    order = []
    sizes = []
    while not g.is_over:
        order.append(g.to_act)
        sizes.append(len(g.dealt))
        g.play(g.legal_moves()[-1])
    assert order == [3, 0, 1, 2] * 9
    assert sizes == [5] * 4 + [1] * 32
    assert sorted(c for b in g.boards for c in b.cards) == list(range(52))  # R-FLOW-OFC-9


def test_pineapple_three_players_deal_51() -> None:
    g, t = play_random(rules.PINEAPPLE, 3, seed=8)
    used = [c for b in g.boards for c in b.cards] + [
        c for s in range(3) for c in g.discards(s)
    ]
    assert len(used) == 51  # EX-15


def test_classic_sets_at_once_face_down() -> None:
    g = Game(rules.CLASSIC_1_6, 4, seed=5)
    assert len(g.dealt) == 13 and g.to_act == 1
    g.play(g.random_move(random.Random(1)))
    obs = g.observation(2)
    assert obs["boards"][1] == [[], [], []] and obs["face_down_counts"][1] == [3, 5, 5]
    for _ in range(3):
        g.play(g.random_move(random.Random(1)))
    assert g.is_over
    assert g.observation(2)["boards"][1] == [list(r) for r in g.boards[1].rows]


def test_same_seed_same_cards_whatever_the_moves() -> None:
    a = Game(rules.PINEAPPLE, 3, seed=99)
    b = Game(rules.PINEAPPLE, 3, seed=99)
    ra, rb = random.Random(1), random.Random(2)
    while not a.is_over:
        assert (a.to_act, a.dealt) == (b.to_act, b.dealt)
        a.play(a.random_move(ra))
        b.play(b.random_move(rb))
    assert Game(rules.PINEAPPLE, 3, seed=98).deck != a.deck
    assert Game(rules.PINEAPPLE, 3).seed != Game(rules.PINEAPPLE, 3).seed


def test_face_down_final_cards() -> None:
    r = rules.OFC.replace(face_down_final=3)
    g = Game(r, 2, seed=6)
    while g.street < 6:
        g.play(g.legal_moves()[0])
    placed_face_up = [c for row in g.observation(0)["boards"][1] for c in row]
    down = []
    while not g.is_over:
        seat = g.to_act
        assert g.observation(seat)["face_down"]
        if seat == 1:
            down.extend(g.dealt)
        g.play(g.legal_moves()[0])
        if not g.is_over:
            seen = [c for row in g.observation(0)["boards"][1] for c in row]
            assert seen == placed_face_up and not set(down) & set(seen)
    assert g.observation(0)["face_down_counts"][1] == [0, 0, 0]
    assert set(down) <= {c for row in g.observation(0)["boards"][1] for c in row}


# --------------------------------------------------------- classic specials


def deck_with(hands: list[str], seed: int = 0) -> list[int]:
    """A deck dealing these 13-card hands first (seat order from left of button)."""
    first = [c for h in hands for c in parse_cards(h)]
    rest = [c for c in range(52) if c not in first]
    random.Random(seed).shuffle(rest)
    return first + rest


DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
SIX_PAIRS = "2d 2h 3c 3h 4c 4d 5c 5d 6d 6h 7c 7h Kd"


def test_declare_a_natural() -> None:
    g = Game(rules.SINGAPORE, 2, button=1, deck=deck_with([DRAGON, SIX_PAIRS]))
    assert g.to_act == 0
    names = [m.declare for m in g.legal_moves() if m.declare]
    assert names == ["dragon", "three_straights"]
    with pytest.raises(MoveError) as info:
        g.play(Move(declare="six_pairs"))  # not in these cards
    assert info.value.reason == "declare"
    with pytest.raises(MoveError) as info:
        g.play(Move(declare="one_suit"))  # not a Singapore natural
    assert info.value.reason == "declare"
    g.play(Move(declare="dragon"))
    assert g.observation(1)["result" if g.is_over else "boards"][0] == [[], [], []]
    g.play(Move(declare="six_pairs"))
    res = g.result()
    assert res.declared == {0: "dragon", 1: "six_pairs"}
    assert res.net == [13, -13]  # the Dragon is paid in full
    assert Game.replay(g.history()) == g
    assert g.observation(1)["result"]["declared"] == {"0": "dragon", "1": "six_pairs"}


def test_a_declared_natural_s_name_reads_as_a_rule_set_reads_it() -> None:
    """Game.play(Move(declare="Dragon")) was a MoveError "SINGAPORE pays no natural
    'Dragon' (naturals: dragon, ...)": a natural's name is read as a rule set and
    settle read it, in any case, a space or "-" for each "_"; the move, the history
    and the result hold the name as NATURAL_NAMES spells it."""
    assert Move(declare="Three Straights").declare == "three_straights"
    assert Move(declare="no such").declare == "no such"  # the game names it
    g = Game(rules.SINGAPORE, 2, button=1, deck=deck_with([DRAGON, SIX_PAIRS]))
    g.play(Move(declare=" DRAGON "))
    g.play({"declare": "Six-Pairs"})
    res = g.result()
    assert res.declared == {0: "dragon", 1: "six_pairs"}
    assert res.net == [13, -13]  # the Dragon is paid in full (R-VAR-SG-1)
    assert Game.replay(g.history()) == g
    g = Game(rules.SINGAPORE, 2, button=1, deck=deck_with([DRAGON, SIX_PAIRS]))
    with pytest.raises(MoveError, match="pays no natural 'Dragons'"):
        g.play(Move(declare="Dragons"))


def test_surrender() -> None:
    g = Game(rules.HAWAIIAN_GARDENS, 3, seed=3)
    assert Move(surrender=True) in g.legal_moves()
    g.play(Move(surrender=True))
    # nobody learns of the surrender before the reveal
    assert g.observation(2)["face_down_counts"][g.moves and 1] == [3, 5, 5]
    while not g.is_over:
        g.play(g.random_move(random.Random(2)))
    res = g.result()
    assert res.surrendered == (1,)
    assert res.net[1] == -2 * rules.HAWAIIAN_GARDENS.surrender_cost
    obs = g.observation(0)
    assert obs["boards"][1] == [[], [], []]  # a surrendered hand is never shown
    assert obs["result"]["surrendered"] == [1]
    g2 = Game(rules.CLASSIC_1_6, 2, seed=3)
    with pytest.raises(MoveError) as info:
        g2.play(Move(surrender=True))
    assert info.value.reason == "surrender"
    with pytest.raises(MoveError):
        g2.play(Move([(g2.dealt[0], 0)], surrender=True))


# ------------------------------------------------------------------ moves


def test_move_forms() -> None:
    a = Move([("As", "back"), (0, Row.FRONT), ("Kd", 1)], discard="7h")
    b = Move({"middle": "Kd", "front": [0], "bottom": "As"}, discard=["7h"])
    assert a == b and hash(a) == hash(b)
    assert a.discard == parse_cards("7h")[0] and b.discards == (parse_cards("7h")[0],)
    assert Move.from_dict(json.loads(json.dumps(a.to_dict()))) == a
    assert a.rows() == ((0,), (45,), (51,))
    assert str(Move(surrender=True)) == "surrender" and "Move((" in repr(a)
    assert Move([], discard="2c 3c").discard == (0, 4)
    assert Move([(np.int64(5), 1)], discard=np.int8(7)).key() == Move([(5, 1)], 7).key()
    with pytest.raises(MoveError):
        Move([], discard=3.5)  # type: ignore[arg-type]
    for bad in ([("Zz", 0)], [(0, "sideways")], [(0,)], "As front"):
        with pytest.raises(MoveError):
            Move(bad)  # type: ignore[arg-type]
    with pytest.raises(MoveError):
        Move.from_dict({"place": [], "oops": 1})


def test_move_from_dict_takes_a_numpy_discard() -> None:
    """Move.from_dict({"discard": np.int64(2)}) was a bare ValueError (the empty-list
    test compared the NumPy scalar with [] element-wise); it is the move Move() makes
    of the same values, and a bad discard a MoveError."""
    assert Move.from_dict({"place": [[5, 1]], "discard": [np.int64(7)]}) == Move(
        [(5, 1)], 7
    )
    assert Move.from_dict({"discard": np.array([3], dtype=np.uint8)}) == Move([], 3)
    assert Move.from_dict({"place": [], "discard": ()}).discard is None
    for bad in (np.int64(7), np.float64(2.5)):  # a dict's discard is a list of cards
        with pytest.raises(MoveError, match="discard"):
            Move.from_dict({"discard": bad})


def test_move_from_dict_reads_only_the_documented_dict_form() -> None:
    """The dict form (data from JSON) is ``{"place": [[card, row], ...], "discard":
    [cards]}``: ``{"discard": 5}`` discarded card id 5 and ``{"place": ["As"]}`` read
    the text as the pair (card 'A', row 's'); anything else than a list of cards or a
    [card, row] pair is a MoveError naming the field and the index."""
    cases: list[tuple[dict[str, Any], str]] = [
        ({"place": [["As", "front"]], "discard": 5}, "discard: a list of cards, got 5"),
        ({"discard": "2c"}, "discard: a list of cards, got '2c'"),
        ({"discard": {"2c": 1}}, "discard: a list of cards"),
        ({"discard": {0}}, "discard: a list of cards"),
        ({"place": ["As"]}, "place[0]: a [card, row] pair, got 'As'"),
        ({"place": [["Kd", 2], "Qc"]}, "place[1]: a [card, row] pair, got 'Qc'"),
        ({"place": [["As", "front", 1]]}, "place[0]: a [card, row] pair"),
        ({"place": [{"As": 0, "Kd": 1}]}, "place[0]: a [card, row] pair"),
        ({"place": [51]}, "place[0]: a [card, row] pair, got 51"),
        ({"place": [[51, 0], ["Zz", 0]]}, "place[1]: bad card 'Zz'"),
        ({"place": [[51, "side"]]}, "place[0]: bad row 'side'"),
        ({"discard": [0, "Zz"]}, "discard[1]: bad card 'Zz'"),
        ({"discard": [[0]]}, "discard[0]: bad card [0]"),
    ]
    for data, message in cases:
        with pytest.raises(MoveError) as info:
            Move.from_dict(data)
        assert str(info.value).startswith(message), (data, str(info.value))
        assert info.value.reason == "bad_move"
    # the documented forms: ids or text, rows as names or indexes, lists or tuples
    want = Move([(51, Row.FRONT), (45, Row.BACK)], discard=[0])
    assert Move.from_dict({"place": [["As", "front"], [45, 2]], "discard": ["2c"]}) == want
    assert Move.from_dict({"place": [("As", 0), ("Kd", "back")], "discard": (0,)}) == want
    assert Move.from_dict({"place": np.array([[51, 0], [45, 2]]), "discard": [0]}) == want


def test_move_from_dict_parses_each_card_and_row_once(monkeypatch: Any) -> None:
    """Regression: Move.from_dict parsed every card and row twice (once into ids for
    its error messages, then again in Move()), about 13 us for a 3-placement move;
    each card and row is read once, and the move is the one Move() makes."""
    from ofc_fast.game import moves as moves_mod

    calls: collections.Counter[str] = collections.Counter()
    card, row = moves_mod.read_card, moves_mod.read_row

    def counted_card(value: object) -> int:
        calls["card"] += 1
        return card(value)

    def counted_row(value: object) -> int:
        calls["row"] += 1
        return row(value)

    monkeypatch.setattr(moves_mod, "read_card", counted_card)
    monkeypatch.setattr(moves_mod, "read_row", counted_row)
    data = {"place": [["As", "front"], ["Kd", "back"]], "discard": ["2c"]}
    got = Move.from_dict(data)
    assert calls == {"card": 3, "row": 2}
    assert got == Move([("As", 0), ("Kd", 2)], "2c")
    assert Move.from_dict({**data, "declare": "Dragon"}).declare == "dragon"
    with pytest.raises(MoveError, match="surrender must be True or False"):
        Move.from_dict({**data, "surrender": 1})


def test_play_accepts_a_dict() -> None:
    g = Game(rules.OFC, 2, seed=1)
    m = g.legal_moves()[3]
    g.play(m.to_dict())
    assert g.moves[-1] == m
    with pytest.raises(MoveError):
        g.play("front")  # type: ignore[arg-type]


# ---------------------------------------------------------- construction


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(rules=rules.PINEAPPLE, players=4),
        dict(players=1),
        dict(button=2),
        dict(fantasyland=(14,)),
        dict(fantasyland=(12, 0)),
        dict(fantasyland=(True, 0)),
        dict(rules=rules.CLASSIC_1_6, fantasyland=(13, 0)),
        dict(seed="x"),
        dict(deck=list(range(51))),
        dict(stacks=(1,)),
        dict(stacks=(-1, 3)),
        dict(rules=rules.PINEAPPLE.replace(max_players=4), players=4),  # 68 cards
        dict(rules=3),
    ],
)
def test_bad_games(kwargs: dict) -> None:
    with pytest.raises(GameError):
        Game(**kwargs)


def test_result_before_the_end_and_bad_seats() -> None:
    g = Game(rules.OFC, 2, seed=1)
    with pytest.raises(GameError):
        g.result()
    with pytest.raises(GameError):
        g.observation(2)
    with pytest.raises(GameError):
        g.observation(0, cards="emoji")
    assert Game("pineapple", 2, seed=1).rules is rules.PINEAPPLE


def test_copy_is_independent() -> None:
    g = Game(rules.PINEAPPLE, 2, seed=1)
    h = g.copy()
    h.play(h.legal_moves()[0])
    assert g.decisions == 0 and h.decisions == 1 and g != h


def _observables(g: Game) -> tuple[Any, ...]:
    """What a user sees of a game: boards, whose turn, the legal moves (by count and
    action ids), every seat's observation, the history (and so the result)."""
    return (
        g.boards,
        g.to_act,
        g.dealt,
        g.legal_move_count(),
        None if g.is_over else g.random_move(random.Random(0)),
        [g.observation(s) for s in range(g.players)],
        g.history(),
    )


def _played(rule_set: Any, moves: list[Move]) -> Game:
    """The reference: a fresh game of the same table with ``moves`` played on it."""
    g = Game(rule_set, 2, seed=5)
    for m in moves:
        g.play(m)
    return g


COPY_RULES = [rules.PINEAPPLE, rules.OFC, rules.CLASSIC_1_6]


def _pickled(g: Game) -> Game:
    import pickle

    again = pickle.loads(pickle.dumps(g))
    assert isinstance(again, Game)
    return again


@pytest.mark.parametrize("rule_set", COPY_RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("made", [1, 99])
@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_copy_deepcopy_and_pickle_are_independent_both_ways(
    rule_set: Any, made: int, how: str
) -> None:
    import copy

    copier = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": _pickled}[how]
    rng = random.Random(made)
    g = Game(rule_set, 2, seed=5)
    while g.decisions < made and not g.is_over:
        g.play(g.random_move(rng))
    c = copier(g)
    assert c == g and _observables(c) == _observables(g)
    if g.is_over:
        assert c.result() == g.result()
        return
    before = list(g.moves)
    c.play(c.random_move(rng))
    assert _observables(g) == _observables(_played(rule_set, before))
    assert _observables(c) == _observables(_played(rule_set, list(c.moves)))
    g.play(g.random_move(random.Random(99)))
    assert _observables(c) == _observables(_played(rule_set, list(c.moves)))
    assert _observables(g) == _observables(_played(rule_set, list(g.moves)))


def _play_on_alike(g: Game, again: Game, rng: random.Random) -> None:
    """Play ``g`` and its copy ``again`` on with the same moves to the end: the same
    observables at every step, then the same result and history."""
    while not g.is_over:
        m = g.random_move(rng)
        g.play(m)
        again.play(m)
        assert _observables(again) == _observables(g)
    assert again.result() == g.result() and again.history() == g.history()


@pytest.mark.parametrize("rule_set", COPY_RULES, ids=lambda r: r.name)
def test_pickle_round_trip_plays_on_to_the_same_result(rule_set: Any) -> None:
    g = Game(rule_set, 2, seed=8, button=1)
    rng = random.Random(2)
    g.play(g.random_move(rng))
    again = _pickled(g)
    _play_on_alike(g, again, rng)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_game_dealt_from_a_deck_pickles_and_plays_on(protocol: int) -> None:
    """Regression: a Game dealt from an explicit ``deck`` (no seed: a replayed real
    deal) pickled, but ``pickle.loads`` raised GameError "deck: bad cards b'...':
    bytes are no card text" (the unpickler passed the state's deck bytes back to
    ``Game(deck=...)``), so such games could not go to a process pool or Ray.  The
    copy now plays on exactly as the original."""
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    g = Game(rules.PINEAPPLE, 2, deck=deck, button=1)
    rng = random.Random(4)
    g.play(g.random_move(rng))
    again = pickle.loads(pickle.dumps(g, protocol))
    assert again == g and again.seed is None and again.deck == g.deck
    _play_on_alike(g, again, rng)


def test_damaged_pickle_is_refused() -> None:
    import pickle

    g = Game(rules.PINEAPPLE, 2, seed=5)
    g.play(g.legal_moves()[0])
    data = pickle.dumps(g)
    state = g._state_bytes()
    assert data.count(state) == 1

    def damaged(offset: int, value: int) -> bytes:
        bad = bytearray(state)
        bad[offset] = value
        return data.replace(state, bytes(bad))

    board = _state_offset("board")  # 13 cells per seat, 0xFF empty
    placed = next(i for i in range(board, board + 26) if state[i] != 0xFF)
    empty = next(i for i in range(board, board + 26) if state[i] == 0xFF)
    with pytest.raises(GameError, match="a pickled Game: "):
        pickle.loads(damaged(empty, state[placed]))  # a card twice
    with pytest.raises(GameError, match="a pickled Game: "):
        pickle.loads(damaged(_state_offset("players"), 9))
    with pytest.raises(GameError, match="a pickled Game: "):
        pickle.loads(damaged(_state_offset("step"), 3))
    rebuild, (table, stacks, _, moves) = g.__reduce__()
    with pytest.raises(GameError, match="a pickled Game: move 0: action 9999"):
        rebuild(table, stacks, state, [9999])
    with pytest.raises(GameError, match="a pickled Game: its moves"):
        rebuild(table, stacks, state, moves + moves)
    with pytest.raises(GameError, match="a pickled Game: its state is not a deal"):
        rebuild(table[:2] + (1,) + table[3:], stacks, state, moves)  # another button
    # every byte set to each of a few values: refused, or a game that plays on safely
    for offset in range(len(state)):
        for value in (0, 1, 0x7F, 0xFF):
            try:
                h = pickle.loads(damaged(offset, value))
            except GameError:
                continue
            rng = random.Random(offset)
            while not h.is_over:
                h.play(h.random_move(rng))
            h.result()


@pytest.mark.parametrize("rule_set", COPY_RULES, ids=lambda r: r.name)
def test_pickle_with_edited_moves_is_refused(rule_set: Any) -> None:
    """The moves of a pickle were taken unchecked (but for an action id's range): an
    edited pickle that swapped a move for another legal move of the same decision
    unpickled into a game whose moves and history lie about its boards.  The
    reference: a fresh game with the edited moves played reaches another state."""
    g = Game(rule_set, 2, seed=5)
    rng = random.Random(1)
    while g.decisions < 2:
        g.play(g.random_move(rng))
    rebuild, (table, stacks, state, moves) = g.__reduce__()
    assert rebuild(table, stacks, state, list(moves)) == g
    start = _played(rule_set, [])
    other = start.random_move(rng)
    while other == moves[0]:
        other = start.random_move(rng)
    edits: list[list[Any]] = [[other, moves[1]]]
    if rule_set.game is not Kind.CLASSIC:  # an action id of the same decision
        edits.append([start.move_to_action(other), moves[1]])
    for edited in edits:
        ref = _played(rule_set, [])
        ref.play(other)
        ref.play(moves[1])
        assert ref._state_bytes() != state
        with pytest.raises(GameError, match="a pickled Game: its moves do not make"):
            rebuild(table, stacks, state, edited)


@pytest.mark.parametrize(
    "fields",
    [
        ("dealt", (7,) * 5, None, False),  # a destination past the discard
        ("dealt", ("a",) * 5, None, False),
        ("abc", None, None, False),
        ("dealt", (0, 0, 1, 1, 2, 2), None, False),  # one destination too many
        ((), (), 5, "x"),
    ],
)
def test_an_edited_pickle_of_a_move_is_refused(fields: tuple[Any, ...]) -> None:
    """A pickled Move was rebuilt from its fields unchecked: an edited pickle (of a
    move, or of a Game holding it) gave a move that raised TypeError or ValueError
    when printed or played.  It is a MoveError naming the pickle; a move's own pickle
    keeps its cards in their order."""
    import pickle

    g = Game(rules.PINEAPPLE, 2, seed=3)
    cards = tuple(g.dealt) if fields[0] == "dealt" else fields[0]
    junk = tuple.__new__(Move, (cards, *fields[1:]))
    with pytest.raises(MoveError, match="a pickled Move"):
        pickle.loads(pickle.dumps(junk))
    g.play(g.legal_moves()[0])
    good = g.moves[0]
    assert pickle.loads(pickle.dumps(good)) == good
    assert pickle.loads(pickle.dumps(good)).cards == good.cards


def test_a_move_comes_back_from_the_json_of_its_items() -> None:
    """A Move is a tuple, so ``json.dumps(move)`` (or of ``g.moves``, or of a record
    holding moves) writes its items as lists; ``Move(json.loads(...))`` was a MoveError
    ("a pickled Move holds no move's fields"), where the tuple of the same items is the
    move.  The reference: each move's own cards, rows, declaration and surrender."""
    g = Game(rules.HAWAIIAN_GARDENS, 2, seed=1)
    g.play(Move(surrender=True))
    h = Game(rules.PINEAPPLE, 2, seed=3)
    for _ in range(3):
        h.play(h.random_move(random.Random(1)))
    for move in (*g.moves, *h.moves, Move(declare="dragon")):
        items = json.loads(json.dumps(move))
        assert type(items) is list and type(items[0]) is list
        back = Move(items)
        assert type(back) is Move and back == move and back.cards == move.cards
        assert (back.destinations, back.declare, back.surrender) == (
            move.destinations,
            move.declare,
            move.surrender,
        )
        assert type(back.cards) is tuple and hash(back) == hash(move)
    again = Game(rules.PINEAPPLE, 2, seed=3)
    for items in json.loads(json.dumps(h.moves)):
        again.play(Move(items))
    assert again == h
    with pytest.raises(MoveError, match="no move's fields"):
        Move([[52], [0], None, False])


def _state_offset(field: str) -> int:
    from ofc_fast._native import ffi

    return int(ffi.offsetof("ofc_game", field))


def test_copy_sets_every_slot() -> None:
    """Game.copy assigns the slots one by one: none is left out (an unset slot would
    be an AttributeError later), the state, the moves and the move lock are the
    copy's own."""
    g = Game(rules.OFC, 2, seed=3, button=1, stacks=(50, 60))
    g.play(g.legal_moves()[0])
    g.observation(0)  # the observation template too
    h = g.copy()
    for name in Game.__slots__:
        if name != "__weakref__":
            assert hasattr(h, name), name
            if name not in ("_buf", "_entries", "_g", "_moves", "_state_lock"):
                assert getattr(h, name) is getattr(g, name), name
    assert h._buf == g._buf and h._buf is not g._buf and h._moves == g._moves
    assert g._entries == 2 and h._entries == 0  # its own count of the moves let in
    assert h._state_lock is not g._state_lock  # and a lock of its own
    assert not h._state_lock._is_owned()
    assert h._moves is not g._moves and h == g and h.history() == g.history()


class _LabelledGame(Game):
    """A user's subclass of Game with an attribute of its own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.labels = ["mine"]


@pytest.mark.parametrize("how", ["method", "copy", "deepcopy", "pickle"])
def test_copy_of_a_subclass_is_of_the_subclass(how: str) -> None:
    """``copy()``, ``copy.copy``, ``copy.deepcopy`` and pickling of a subclass of Game
    returned a plain Game, the subclass and its attributes lost: the copy is of the
    subclass, with its attributes (their own objects only under deepcopy and pickle)."""
    import copy
    import pickle

    copier = {
        "method": lambda g: g.copy(),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    }[how]
    g = _LabelledGame(rules.PINEAPPLE, 2, seed=4)
    g.play(g.legal_moves()[0])
    c = copier(g)
    assert type(c) is _LabelledGame and c == g and c.labels == ["mine"]
    assert (c.labels is g.labels) is (how in ("method", "copy"))
    c.play(c.legal_moves()[0])
    assert (g.decisions, c.decisions) == (1, 2)
    assert type(Game(rules.PINEAPPLE, 2, seed=4).copy()) is Game


def test_partial_history_replays() -> None:
    g = Game(rules.PROGRESSIVE_PINEAPPLE, 3, seed=12, fantasyland=(0, 16, 0), button=2)
    rng = random.Random(3)
    for _ in range(5):
        g.play(g.random_move(rng))
    h = g.history()
    assert "result" not in h and len(h["moves"]) == 5
    again = Game.replay(json.loads(json.dumps(h)))
    assert again == g and again.dealt == g.dealt
    bad = dict(h, moves=h["moves"] + [h["moves"][0]])
    with pytest.raises(MoveError, match="history move 5"):
        Game.replay(bad)
    with pytest.raises(GameError):
        Game.replay({"nope": 1})


def test_stacks_reach_settle() -> None:
    g = Game(rules.OFC, 2, seed=2, stacks=(5, 100))
    while not g.is_over:
        g.play(g.random_move(random.Random(4)))
    res = g.result()
    assert max(abs(n) for n in res.net) <= 5
    assert res.settlement is not None and res.settlement.stacks is not None
    assert Game.replay(g.history()).result().net == res.net


def test_random_move_uniform_on_a_round() -> None:
    rng = random.Random(0)
    counts: dict = {}
    for _ in range(27 * 200):
        m = random_move([1, 2, 3], [[], [], []], 1, rng)
        counts[m] = counts.get(m, 0) + 1
    assert len(counts) == 27 and min(counts.values()) > 130


def test_result_reports_per_seat() -> None:
    deck = deck_with(["Qh Qd 2c 9s 9h 9d 5c 5d As Ks Qs Js Ts"])
    g = Game(rules.OFC, 2, deck=deck, fantasyland=(13, 0), button=1)
    g.play(
        Move({"front": "Qh Qd 2c", "middle": "9s 9h 9d 5c 5d", "back": "As Ks Qs Js Ts"})
    )
    while not g.is_over:
        g.play(g.legal_moves()[-1])
    res = g.result()
    assert res.royalties[0] == (7, 12, 25) and not res.fouls[0]
    assert res.fantasyland[0] == 13  # stays: full house in the middle
    assert res.in_fantasyland == (13, 0)
    d = res.to_dict()
    assert json.loads(json.dumps(d))["boards"][0] == str(g.boards[0])
    assert str(Board.parse(d["boards"][0])) == d["boards"][0]


@pytest.mark.parametrize("bad", [None, "As", 3, [(51, 0)]])
def test_move_to_action_refuses_what_is_not_a_move(bad: object) -> None:
    """move_to_action() of anything but a Move is a MoveError, as play() raises, not a
    TypeError from indexing it."""
    g = Game(rules.PINEAPPLE, seed=3)
    with pytest.raises(MoveError, match="expected a Move"):
        g.move_to_action(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_play_seat_that_is_not_an_int_says_so(kind: str) -> None:
    """play(move, seat=...) with the right seat as a bool or a float is a MoveError
    saying the seat is not an int ("bad_move"), not the contradictory "seat 1 cannot
    act: it is seat 1's turn"; the game is left as it was.  A NumPy int is the
    Python int (test_play_takes_a_numpy_seat_as_every_seat_argument_does)."""
    g = Game(rules.PINEAPPLE, seed=5)
    seat = g.to_act
    bad = {"bool": bool(seat), "float": float(seat)}[kind]
    before = g.history()
    with pytest.raises(MoveError, match="an int") as info:
        g.play(g.legal_moves()[0], seat=bad)  # type: ignore[arg-type]
    assert info.value.reason == "bad_move"
    assert g.history() == before
    g.play(g.legal_moves()[0], seat=seat)


def test_random_move_names_an_rng_that_is_not_a_random() -> None:
    """Game.random_move(rng) and game.random_move(..., rng) take a random.Random: an
    int (0 was read as "no rng"), a text or a list is a GameError naming rng (it was
    an AttributeError)."""
    game = Game(rules.PINEAPPLE, 2, seed=1)
    obs = game.observation(game.to_act)
    rows = obs["boards"][obs["seat"]]
    for bad in (5, 0, "x", [1, 2]):
        with pytest.raises(GameError, match=r"rng must be a random\.Random"):
            game.random_move(bad)  # type: ignore[arg-type]
        with pytest.raises(GameError, match=r"rng must be a random\.Random"):
            random_move(obs["dealt"], rows, obs["to_discard"], bad)  # type: ignore[arg-type]
    game.play(game.random_move(random.Random(3)))  # a Random, or None, still plays
    game.play(game.random_move())


def test_play_out_names_bots_that_are_not_one_bot_per_seat() -> None:
    """play_out with None, a text, a bot missing or an object without act() was a
    TypeError, an IndexError or an AttributeError mid-deal: a GameError naming the
    problem before any move, as Match.play gives."""

    class First:
        def act(self, obs: dict) -> Move:
            return moves_for(obs["dealt"], obs["boards"][obs["seat"]], obs["to_discard"])[0]

    for bots, word in [
        (None, "one bot per seat"),
        ("random", "one bot per seat"),
        ([First()], "2 seats need 2 bots"),
        ([First(), None], "seat 1: None is not a bot"),
        (["random", "random"], "seat 0: 'random' is not a bot"),
    ]:
        game = Game(rules.PINEAPPLE, 2, seed=1)
        with pytest.raises(GameError, match=word):
            play_out(game, bots)  # type: ignore[arg-type]
        assert game.history()["moves"] == []
    assert play_out(Game(rules.PINEAPPLE, 2, seed=1), [First(), First()]).net[0] is not None


def test_a_bot_class_instead_of_a_bot_is_named() -> None:
    """Bots given as classes (``[RandomBot, RandomBot]``: ``act`` is there, unbound)
    passed the check and the first decision was a TypeError ("act() missing 1
    required positional argument"): a TableError naming the seat and the class."""
    from ofc_fast.bots import RandomBot

    for call in (
        lambda: play_out(Game(rules.PINEAPPLE, 2, seed=1), [RandomBot(1), RandomBot]),
        lambda: Match(rules.PINEAPPLE, 2, seed=1).play([RandomBot, RandomBot(1)]),
    ):
        with pytest.raises(GameError, match=r"seat \d: .*RandomBot.* is a class"):
            call()


def test_a_bot_s_bad_move_names_its_seat() -> None:
    """A bot returning no move (None, an action id) in a match of three was "MoveError:
    expected a Move, got int", naming neither the seat nor the bot.  The MoveError
    names the seat and the bot's class, its reason kept."""
    from ofc_fast.bots import RandomBot

    class NoMove:
        def act(self, obs: dict) -> Any:
            return None

    class ActionIds:
        def act(self, obs: dict) -> Any:
            return obs["legal_actions"][0]

    for bad in (NoMove(), ActionIds()):
        name = type(bad).__name__
        bots = [RandomBot(1), RandomBot(2), bad]
        want = rf"^seat 2 \({name}\): expected a Move"
        with pytest.raises(MoveError, match=want) as e:
            play_out(Game(rules.PINEAPPLE, 3, seed=1), bots)
        assert e.value.reason == "bad_move"
        with pytest.raises(MoveError, match=want):
            Match(rules.PINEAPPLE, 3, seed=1).play(bots)


def test_play_out_names_a_game_that_is_no_game() -> None:
    """play_out(None, bots) (or a game's observation, a match) was an AttributeError:
    a GameError naming ``game``."""
    bots = make_bots("random", 2, seed=1)
    for game in (None, "pineapple", Game(rules.PINEAPPLE, 2, seed=1).observation(0)):
        with pytest.raises(GameError, match=r"^play_out: game must be a Game, got "):
            play_out(game, bots)  # type: ignore[arg-type]


def test_move_helpers_name_dealt_and_rows_that_hold_no_cards() -> None:
    """moves_for, actions_for, Move.from_action and random_move given None or a number
    for the dealt cards or the rows raised TypeError: a MoveError naming them."""
    empty: list[list[int]] = [[], [], []]
    rng = random.Random(1)
    for bad in (None, 5, 2.5):
        with pytest.raises(MoveError, match="dealt cards: expected a list"):
            moves_for(bad, empty, 0)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="dealt cards: expected a list"):
            Move.from_action(bad, 0, 0)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="dealt cards: expected a list"):
            random_move(bad, empty, 0, rng)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="rows must be"):
            moves_for([1, 2, 3], bad, 1)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="rows must be"):
            actions_for(3, bad, 1)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="rows must be"):
            random_move([1, 2, 3], bad, 1, rng)  # type: ignore[arg-type]


def test_move_helpers_name_counts_actions_and_moves_of_the_wrong_type() -> None:
    """actions_for, moves_for, random_move and move_for_action given a list for the
    card or discard count raised TypeError (unhashable, from their cache);
    move_for_action given an array for the action raised ValueError; action_for_move
    given no Move or a bad discard count raised TypeError, IndexError, KeyError or
    OverflowError: each a MoveError."""
    empty: list[list[int]] = [[], [], []]
    dealt = [0, 1, 2]
    move = moves_for(dealt, empty, 1)[0]
    rng = random.Random(1)
    for bad in ([], [1], {}, np.array([1, 2]), None, 2.5, -1, 2**64):
        with pytest.raises(MoveError):
            actions_for(bad, empty, 1)  # type: ignore[arg-type]
        with pytest.raises(MoveError):
            actions_for(3, empty, bad)  # type: ignore[arg-type]
        with pytest.raises(MoveError):
            moves_for(dealt, empty, bad)  # type: ignore[arg-type]
        with pytest.raises(MoveError):
            random_move(dealt, empty, bad, rng)  # type: ignore[arg-type]
        with pytest.raises(MoveError):
            move_for_action(0, dealt, empty, bad)  # type: ignore[arg-type]
        with pytest.raises(MoveError):
            move_for_action(bad, dealt, empty, 1)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="discard"):
            action_for_move(move, dealt, bad)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="expected a Move"):
            action_for_move(bad, dealt, 1)  # type: ignore[arg-type]
    for bad_move in ("", (), [51], {0: 1}, np.int64(3)):
        with pytest.raises(MoveError, match="expected a Move"):
            action_for_move(bad_move, dealt, 1)  # type: ignore[arg-type]
    assert move_for_action(action_for_move(move, dealt, 1), dealt, empty, 1) == move


def test_observation_names_a_card_form_that_is_an_array() -> None:
    """Game.observation given cards= as a NumPy array raised NumPy's ValueError (the
    truth value of an element-wise comparison): a GameError naming cards."""
    g = Game(rules.PINEAPPLE, 2, seed=1)
    for bad in (np.array(["ids", "text"]), np.array([]), ["ids"], None):
        with pytest.raises(GameError, match="cards must be"):
            g.observation(0, cards=bad)  # type: ignore[arg-type]
    assert g.observation(0, cards=np.str_("text")) == g.observation(0, cards="text")


def test_a_result_edited_by_its_caller_leaves_the_game_as_it_was() -> None:
    """Game.result() returned the game's own cached GameResult (frozen, yet holding
    lists): a caller sorting or editing its net, fouls, royalties, Fantasyland or
    declarations changed every later result(), the observations' result and the
    history, which then no longer replayed (HistoryError result.net)."""
    g = Game(rules.PINEAPPLE, 2, seed=3)
    rng = random.Random(1)
    while not g.is_over:
        g.play(g.random_move(rng))
    want = settle(g.boards, rules.PINEAPPLE, button=g.button).net
    r = g.result()
    assert r.net == want
    r.net[0] += 7
    r.net.append(1)
    r.fouls.reverse()
    r.royalties.append((1, 2, 3))
    r.fantasyland[0] = 17
    r.declared[0] = "dragon"
    r.settlement.net[1] += 5
    assert g.result().net == want and g.result().settlement.net == want
    assert g.result().royalties == [b.royalties(rules.PINEAPPLE) for b in g.boards]
    assert g.result().declared == {} and len(g.result().fouls) == 2
    assert g.observation(0)["result"]["net"] == want
    assert Game.replay(g.history()) == g


def _settled(rule_set: rules.RuleSet, stacks: Any) -> tuple[Game, Any]:
    """A 2-seat deal of ``rule_set`` played out at random, and the reference its result
    must give: settle() of its boards."""
    g = Game(rule_set, 2, seed=3, stacks=stacks)
    rng = random.Random(1)
    while not g.is_over:
        g.play(g.random_move(rng))
    return g, settle(g.boards, rule_set, button=g.button, stacks=stacks)


@pytest.mark.parametrize("stacks", [None, (30, 5)])
def test_a_result_pickles_and_deep_copies(stacks: Any) -> None:
    """A GameResult (a frozen dataclass, handed to callers, kept in lists, sent back
    from worker processes) held the engine's output as cffi data: pickle.dumps and
    copy.deepcopy were a TypeError ("cannot pickle '_cffi_backend.__CDataOwn'
    object").  The reference: settle() of the same boards."""
    import copy
    import pickle

    g, want = _settled(rules.PINEAPPLE, stacks)
    r = g.result()
    for c in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert c == r and c.settlement == want and c.to_dict() == r.to_dict()
        c.net[0] += 1
        assert g.result().net == want.net


@pytest.mark.parametrize("stacks", [None, (30, 5)])
def test_a_result_converts_with_dataclasses_asdict_and_astuple(stacks: Any) -> None:
    """``dataclasses.asdict(g.result())`` and ``astuple`` (the standard way to turn a
    dataclass into plain data, e.g. for a replay buffer) raised TypeError ("cannot
    pickle '_cffi_backend.__CDataOwn' object"): they deep-copy every field, and the
    engine's output was cffi data.  The reference: settle() of the same boards."""
    import dataclasses

    g, want = _settled(rules.OFC, stacks)
    r = g.result()
    d = dataclasses.asdict(r)
    assert d["net"] == want.net and d["boards"] == g.boards and d["button"] == g.button
    assert dataclasses.astuple(r)[0] == want.net
    d["net"][0] += 1
    assert r.net == want.net and r.settlement == want  # its copies, its settlement
    assert g.result().settlement == want


@pytest.mark.parametrize("stacks", [None, (30, 5)])
def test_a_copied_result_reads_its_settlement_after_dataclasses_replace(
    stacks: Any,
) -> None:
    """``dataclasses.replace()`` of a pickled or deep-copied GameResult (one sent back
    from a worker process, say) gave a result whose ``settlement`` and ``to_dict()``
    raised AttributeError ('NoneType' object has no attribute 'settlement'): the copy
    dropped the engine's output the settlement is read from.  The reference: settle()
    of the same boards."""
    import copy
    import dataclasses
    import pickle

    g, want = _settled(rules.PINEAPPLE, stacks)
    r = g.result()
    for c in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        for again in (
            dataclasses.replace(c, button=c.button),
            pickle.loads(pickle.dumps(c)),
        ):
            assert again.settlement == want and again.to_dict() == r.to_dict()
            again.settlement.net[0] += 1  # its own settlement
        assert c.settlement == want and g.result().settlement == want


def test_play_takes_a_numpy_seat_as_every_seat_argument_does() -> None:
    """Game.play(move, seat=np.int64(1)) was a MoveError ("seat must be a seat number
    (an int)") though observation(), discards() and the table checks take a NumPy
    integer as the Python int; a bool or a float is still refused."""
    g = Game(rules.PINEAPPLE, 2, seed=1)
    ref = g.copy()
    move = g.legal_moves()[0]
    with pytest.raises(MoveError, match="cannot act") as info:
        g.play(move, seat=np.int64(1 - g.to_act))
    assert info.value.reason == "not_your_turn"
    for bad in (True, float(g.to_act), np.float64(g.to_act), "1"):
        with pytest.raises(MoveError, match="seat must be a seat number"):
            g.play(move, seat=bad)  # type: ignore[arg-type]
    assert g == ref
    g.play(move, seat=np.int64(g.to_act))
    ref.play(move, seat=ref.to_act)
    assert g == ref


def test_move_takes_numpy_arrays_of_cards_as_sequences() -> None:
    """Move(discard=np.array([0, 4])) and Move({"front": np.array([51, 47])}) were a
    MoveError ("bad card array([0, 4])"): an array has __index__, so it was read as one
    card; a 1-d array is its cards, as a list is (Move.from_rows already took them)."""
    want = Move([(51, 0), (47, 0)], discard=[0, 4])
    assert Move([(51, 0), (47, 0)], discard=np.array([0, 4])) == want
    assert Move({"front": np.array([51, 47])}, discard=np.array([0, 4])) == want
    assert (
        Move.from_dict({"place": [[51, 0], [47, 0]], "discard": np.array([0, 4])}) == want
    )
    assert Move([(51, 0)], discard=np.array([], dtype=np.int64)) == Move([(51, 0)])
    assert Move([(51, 0)], discard=np.array(3)) == Move([(51, 0)], discard=3)
    with pytest.raises(MoveError, match="bad card"):
        Move([(51, 0)], discard=np.array([0.5]))


def test_moves_and_decks_refuse_mappings_and_sets_of_cards() -> None:
    """``Move(discard={0: "x"})`` discarded card 0 (a dict gave its keys) and a set
    of cards was read in hash order, where the order of the cards names the action
    (dealt cards) or the deal (a deck): both are refused, naming the problem."""
    for call in (
        lambda: Move(discard={0: "x"}),
        lambda: Move({"front": {51: 1, 47: 2}}),
        lambda: moves_for({5: 0, 9: 0, 13: 0}, ([], [], []), 1),
    ):
        with pytest.raises(MoveError, match="a mapping is no list of cards"):
            call()
    for call in (
        lambda: Move(discard={0, 4}),
        lambda: Move({"front": frozenset([51, 47])}),
        lambda: moves_for({5, 9, 13}, ([], [], []), 1),
    ):
        with pytest.raises(MoveError, match="a set has no order"):
            call()
    with pytest.raises(GameError, match=r"deck: bad cards .*a set has no order"):
        Game(rules.OFC, 2, deck=set(range(52)))
    with pytest.raises(GameError, match=r"deck: bad cards .*a mapping"):
        Game(rules.OFC, 2, deck=dict.fromkeys(range(52)))
    assert Move(discard=[0, 4]) == Move(discard=(4, 0))  # lists and tuples stay


def test_a_game_refuses_a_seed_with_a_deck() -> None:
    """``Game(seed=5, deck=...)`` dealt the deck and dropped the seed (``g.seed`` None,
    the history without it); the pair is refused, naming both."""
    deck = list(range(52))[::-1]
    with pytest.raises(GameError, match=r"seed and deck: give one .*got seed 5 and a deck"):
        Game(rules.PINEAPPLE, 2, seed=5, deck=deck)
    g = Game(rules.PINEAPPLE, 2, deck=deck)
    assert g.seed is None and list(g.deck) == deck


def test_a_result_says_it_is_not_hashable() -> None:
    """A GameResult (a frozen dataclass) claimed to be hashable
    (``isinstance(r, Hashable)``, a generated ``__hash__``) and ``hash(r)`` failed
    inside it on a list field ("unhashable type: 'list'"); it compares by value and
    says it is unhashable, as a Game does, its public list fields as they were."""
    from collections.abc import Hashable

    g = Game(rules.PINEAPPLE, 2, seed=7)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    r = g.result()
    assert not isinstance(r, Hashable) and r == g.result()
    assert isinstance(r.net, list) and isinstance(r.fouls, list)
    with pytest.raises(TypeError, match="unhashable type: 'GameResult'"):
        hash(r)


def test_move_to_action_names_a_declaration_or_surrender() -> None:
    """``Game.move_to_action(Move(surrender=True))`` at a Pineapple decision said
    "the move leaves Ks Kd Jd Qh 2c unplayed": a declaration or a surrender has no
    action id, and the MoveError says so."""
    g = Game(rules.PINEAPPLE, 2, seed=1)
    for move, what in (
        (Move(surrender=True), "surrender"),
        (Move(declare="dragon"), "declar"),
    ):
        with pytest.raises(MoveError, match=f"{what}.* no action id"):
            g.move_to_action(move)


def test_random_move_reads_the_board_of_the_seat_to_act_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``random_move()`` built every seat's board (``game.boards``) to read
    the rows of the seat to act, a quarter of its time at 3 seats (8.7 us a call).
    It now builds that seat's board alone: at 4 seats, 2 boards a call (its own, and
    the one ``moves.random_move`` checks the cards against), not 5; the moves are the
    same."""
    g = Game(rules.OFC, players=4, seed=8)
    for _ in range(6):
        g.play_action(g.legal_actions()[0])
    want = g.random_move(random.Random(3))
    made: list[int] = []
    from_ids = Board.from_ids

    def counted(*rows: Any) -> Board:
        made.append(1)
        return from_ids(*rows)

    monkeypatch.setattr(Board, "from_ids", counted)
    assert g.random_move(random.Random(3)) == want
    assert len(made) == 2
    assert [b.rows for b in g.boards] == [b.rows for b in g.copy().boards]
