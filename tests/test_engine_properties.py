"""Property tests of the game engine from random reachable states.

The states, of every preset (and face-down variants), are built by random legal play to
a random depth on the engine and the independent model of ``game_model.py`` in lockstep:

(a) every legal action (and a sample of legal moves / full sets / declarations) applies
    on a copy without error, advances that copy exactly as the model says, and leaves
    the original untouched;
(b) every illegal input (actions outside the legal set or outside 0..242, non-ints, moves
    with undealt / duplicated / missing cards, a wrong number of discards, a full row, a
    bad row, garbage dicts, acting out of turn, declaring or surrendering where not
    allowed, playing after the deal is over) raises an OfcError (MoveError / GameError)
    and leaves the state identical: the engine's raw state bytes (``_state_bytes()``,
    when the engine has it), the history and every seat's observation.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import engine_checks as ec
import game_model as gm
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_differential import RULESETS

import ofc_fast
from ofc_fast import GameError, Move, MoveError, OfcError, Row
from ofc_fast.rules.model import GameKind as Kind

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


class State:
    """A reachable state: the engine's game, the model, and the RNG that built them."""

    def __init__(self, name: str, seed: int, depth: int) -> None:
        self.args = (name, seed, depth)
        self.rng = random.Random(seed)
        r = RULESETS[name]
        self.g, self.m = ec.new_pair(r, ec.random_setup(r, self.rng), explicit_deck=True)
        for _ in range(depth):
            if self.m.is_over:
                break
            ec.random_decision(self.g, self.m, self.rng, natural_rate=0.5)

    def __repr__(self) -> str:
        return f"State{self.args!r}: {self.g!r} at decision {self.m.i}"


@st.composite
def states(draw: Any) -> State:
    name = draw(st.sampled_from(sorted(RULESETS)))
    seed = draw(st.integers(0, 2**64 - 1))
    depth = draw(st.one_of(st.integers(0, 60), st.just(1000)))  # 1000: to the end
    return State(name, seed, depth)


def applies(
    g: ofc_fast.Game,
    m: gm.DealModel,
    play: Callable[[ofc_fast.Game], None],
    play_model: Callable[[gm.DealModel], Any],
) -> None:
    """``play`` works on a copy, which then agrees with the model advanced the same
    way; the original is unchanged."""
    before = ec.snapshot(g)
    c, mc = g.copy(), copy.deepcopy(m)
    play(c)
    play_model(mc)
    assert len(c.history()["moves"]) == len(g.history()["moves"]) + 1
    ec.check_decision(c, mc)
    if mc.is_over:
        ec.check_result(c, mc)
    assert ec.snapshot(g) == before


# ------------------------------------------------------------------- (a) legal


@SETTINGS
@given(states())
def test_every_legal_action_applies(s: State) -> None:
    g, m, rng = s.g, s.m, s.rng
    if m.is_over:
        assert ec.engine_legal_actions(g) is None
        return
    legal = m.legal_actions()
    if legal is not None:
        before = ec.snapshot(g)
        checked = set(rng.sample(legal, min(6, len(legal))))
        for a in legal:
            if a in checked:
                applies(
                    g, m, lambda c, a=a: c.play_action(a), lambda mc, a=a: mc.play_action(a)
                )
            else:
                c = g.copy()
                c.play_action(a)
                assert len(c.history()["moves"]) == len(g.history()["moves"]) + 1
        a = rng.choice(legal)  # numpy integers are action numbers too
        applies(g, m, lambda c: c.play_action(np.int64(a)), lambda mc: mc.play_action(a))
        moves = list(g.legal_moves())
        for mv in rng.sample(moves, min(5, len(moves))):
            c = g.copy()
            c.play(mv, seat=m.to_act)
        assert ec.snapshot(g) == before
        return
    for _ in range(4):
        pl, disc = ec.random_set(m.dealt, m.to_discard, rng)
        applies(
            g,
            m,
            lambda c, pl=pl, disc=disc: c.play(ec.set_move(pl, disc)),
            lambda mc, pl=pl, disc=disc: mc.play_set(pl, disc),
        )
    if m.rules.game is Kind.CLASSIC:
        for name in ec.paid_naturals(m):
            applies(
                g,
                m,
                lambda c, n=name: c.play(Move(declare=n)),
                lambda mc, n=name: mc.declare(n),
            )
        if m.rules.surrender_cost is not None:
            applies(g, m, lambda c: c.play(Move(surrender=True)), lambda mc: mc.surrender())


# ----------------------------------------------------------------- (b) illegal


def refused(g: ofc_fast.Game, attempt: Callable[[ofc_fast.Game], Any], what: str) -> None:
    """``attempt`` raises an OfcError (a MoveError / GameError) and changes nothing."""
    before = ec.snapshot(g)
    with pytest.raises(OfcError) as info:
        attempt(g)
    assert isinstance(info.value, (MoveError, GameError)), (what, info.value)
    assert ec.snapshot(g) == before, what


def card_moves(m: gm.DealModel, rng: random.Random) -> dict[str, Move]:
    """Moves that break the card rules of the current decision (the model says why)."""
    dealt, k = m.dealt, m.to_discard
    free = m.free(m.to_act)  # type: ignore[arg-type]
    if m.legal_actions() is not None:
        pl, disc = ec.random_decision_cards(m, rng)
    else:
        pl, disc = ec.random_set(dealt, k, rng)
    stranger = rng.choice([c for c in range(52) if c not in dealt])
    out: dict[str, Move] = {}
    if pl:
        out["card not dealt"] = ec.set_move([(stranger, pl[0][1])] + pl[1:], disc)
        out["missing card"] = ec.set_move(pl[1:], disc)
    if len(pl) >= 2:
        out["duplicate card"] = ec.set_move([pl[0], (pl[0][0], pl[1][1])] + pl[2:], disc)
    if disc:
        out["too few discards"] = ec.set_move(
            pl + [(disc[0], pl[0][1] if pl else 0)], disc[1:]
        )
    if pl:
        out["too many discards"] = ec.set_move(pl[1:], disc + [pl[0][0]])
    out["discard twice"] = ec.set_move(pl, disc + [disc[0]] if disc else [dealt[0]])
    for row in range(3):  # more cards into a row than it has room for
        if len(pl) > free[row]:
            out[f"row {row} full"] = ec.set_move([(c, row) for c, _ in pl], disc)
            break
    out["placement and surrender"] = (
        Move(surrender=True)
        if m.rules.game is not Kind.CLASSIC or m.rules.surrender_cost is None
        else Move([(dealt[0], Row.FRONT)], surrender=True)
    )
    return out


GARBAGE_ACTIONS = [
    -1,
    243,
    244,
    2**31,
    2**63,
    2**64,
    -(2**64),
    10**30,
    "1",
    "a",
    1.0,
    2.5,
    None,
    True,
    False,
    [0],
    (0,),
    {"a": 0},
    object(),
]
GARBAGE_MOVES: list[Any] = [
    None,
    0,
    "As 2c",
    b"x",
    [("As", 0)],
    ("As", 0),
    object(),
    1.5,
    {"place": 5},
    {"place": [[1]]},
    {"place": [["Zz", 0]]},
    {"place": [[0, 7]]},
    {"place": [[0, -1]]},
    {"place": [[None, None]]},
    {"bogus": 1},
    {"discard": "xx"},
    {"declare": 5},
    {"place": [[0, 0]], "surrender": True, "declare": "dragon"},
    {"place": "As Kd"},
    {"place": [[52, 0]]},
    {"place": [[-1, 0]]},
    {"place": None},
    {"place": [[0, 0], [0, 0]]},
    {"place": [[0.5, 0]]},
    {"place": [["As", "side"]]},
]


@SETTINGS
@given(states())
def test_illegal_inputs_change_nothing(s: State) -> None:
    g, m, rng = s.g, s.m, s.rng
    if m.is_over:
        refused(g, lambda x: x.play_action(0), "play_action after the end")
        refused(g, lambda x: x.play(Move(surrender=True)), "surrender after the end")
        refused(g, lambda x: x.play(Move([(0, Row.FRONT)])), "play after the end")
        return
    legal = m.legal_actions()
    outside = [a for a in range(gm.ACTION_SPACE) if legal is None or a not in legal]
    for a in rng.sample(outside, min(25, len(outside))):
        refused(g, lambda x, a=a: x.play_action(a), f"illegal action {a}")
    for what, mv in card_moves(m, rng).items():
        refused(g, lambda x, mv=mv: x.play(mv), what)
    # out of turn, with a move that is legal for the seat to act
    pl, disc = (
        ec.random_decision_cards(m, rng)
        if legal is not None
        else ec.random_set(m.dealt, m.to_discard, rng)
    )
    good = ec.set_move(pl, disc)
    for other in range(m.players):
        if other != m.to_act:
            refused(g, lambda x, o=other: x.play(good, seat=o), f"seat {other} out of turn")
    for bad_seat in (-1, m.players, 99):
        refused(g, lambda x, b=bad_seat: x.play(good, seat=b), f"seat {bad_seat!r}")
    # declarations and surrenders where the rules or the cards do not allow them
    paid = {nat.name for nat in m.rules.naturals}
    classic_set = m.rules.game is Kind.CLASSIC
    made = set(ec.paid_naturals(m)) if classic_set else set()
    for name in sorted((paid - made) | {"no_such_natural"}):
        refused(g, lambda x, n=name: x.play(Move(declare=n)), f"declare {name}")
    if not classic_set or m.rules.surrender_cost is None:
        refused(g, lambda x: x.play(Move(surrender=True)), "surrender not allowed")
    # still playable, and still the model's game
    g.play(good)
    m.play_set(pl, disc)
    ec.check_decision(g, m)


# a normal decision, a Fantasyland set, a classic set, a finished deal
FIXED_STATES = [
    ("PINEAPPLE", 3, 4),
    ("PINEAPPLE", 2, 0),
    ("OFC", 5, 9),
    ("CLASSIC_1_6", 2, 1),
    ("HAWAIIAN_GARDENS", 4, 0),
    ("OFC", 1, 1000),
]


def fixed_states() -> list[State]:
    out = [State(*args) for args in FIXED_STATES]
    assert any(x.m.is_over for x in out)
    assert any(not x.m.is_over and x.m.legal_actions() is None for x in out)
    assert any(not x.m.is_over and x.m.legal_actions() is not None for x in out)
    return out


@pytest.mark.parametrize("bad", GARBAGE_MOVES, ids=repr)
def test_garbage_moves_are_refused(bad: Any) -> None:
    for s in fixed_states():
        refused(s.g, lambda x: x.play(bad), f"{s!r}: play({bad!r})")


@pytest.mark.parametrize("bad", GARBAGE_ACTIONS, ids=repr)
def test_garbage_actions_are_refused(bad: Any) -> None:
    """Not an action number: whatever it equals, a float, a bool, text or a container
    is refused (an int outside 0..242 too)."""
    for s in fixed_states():
        refused(s.g, lambda x: x.play_action(bad), f"{s!r}: play_action({bad!r})")


@pytest.mark.parametrize("bad", ["0", 1.0, True, [0], 2**64], ids=repr)
def test_garbage_seats_are_refused(bad: Any) -> None:
    """play(move, seat=x) with x not a seat number is refused, even when x equals the
    seat to act (1.0, True) and the move is legal."""
    for s in fixed_states():
        if s.m.is_over:
            continue
        legal = s.m.legal_actions()
        pl, disc = (
            ec.random_decision_cards(s.m, s.rng)
            if legal is not None
            else ec.random_set(s.m.dealt, s.m.to_discard, s.rng)
        )
        good = ec.set_move(pl, disc)
        as_float = float(s.m.to_act)  # type: ignore[arg-type]
        for seat in (bad, as_float) if isinstance(bad, float) else (bad,):
            refused(
                s.g, lambda x, b=seat, mv=good: x.play(mv, seat=b), f"{s!r}: seat={seat!r}"
            )
            refused(
                s.g, lambda x, b=seat: x.observation(b), f"{s!r}: observation({seat!r})"
            )


# ------------------------------------------------------------ (f) copies and pickles

_COPIERS: dict[str, Callable[[ofc_fast.Game], ofc_fast.Game]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    **{
        f"pickle{p}": (lambda g, p=p: pickle.loads(pickle.dumps(g, p)))
        for p in range(pickle.HIGHEST_PROTOCOL + 1)
    },
}


@SETTINGS
@given(states(), st.sampled_from(sorted(_COPIERS)))
def test_every_state_copies_into_a_game_that_plays_on_as_the_model(
    s: State, how: str
) -> None:
    """Every reachable state (dealt from an explicit deck, Fantasyland, naturals,
    stacks) copies and pickles, at every protocol, into an equal game that plays on to
    the end exactly as the model says, while the original stays as it was."""
    g, m, rng = s.g, s.m, s.rng
    before = ec.snapshot(g)
    c = _COPIERS[how](g)
    assert type(c) is ofc_fast.Game and c == g and ec.snapshot(c) == before
    mc = copy.deepcopy(m)
    while not mc.is_over:
        ec.check_decision(c, mc)
        ec.random_decision(c, mc, rng, natural_rate=0.5)
    ec.check_result(c, mc)
    assert ec.snapshot(g) == before
