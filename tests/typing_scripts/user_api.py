"""A user's script, written as the README and docs/ write theirs, that
tests/test_typing.py checks with ``mypy --strict``: each ``assert_type`` is a return
type users rely on, which an ``Any`` from the library fails (an ``Any`` switches the
checker off in the user's code that touches it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numpy.typing import NDArray
from typing_extensions import assert_type

import ofc_fast as ofc
from ofc_fast.bots import Bot, HeuristicBot, RandomBot, SearchBot, ValueBot, make_bot
from ofc_fast.env import pettingzoo_env
from ofc_fast.env.aec import OfcAECEnv
from ofc_fast.game import Move, RuleSetDict
from ofc_fast.learned import ModelSpec, shipped_model
from ofc_fast.search import make_observation


def cards_and_ranks() -> None:
    """Cards, hand ranks, boards and pair scores (README: the first example)."""
    assert_type(ofc.parse_cards("As Ks"), list[int])
    assert_type(ofc.rank5("As Ks Qs Js Ts"), int)
    assert_type(ofc.rank3("Qh Qd 5c") > ofc.rank5("Qs Qc 4d 3h 2s"), bool)
    board = ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    assert_type(board.is_foul(), bool)
    assert_type(board.royalties(ofc.rules.OFC), tuple[int, int, int])
    pair = ofc.score_pair(board, "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c")
    assert_type(pair.net, int)
    rules = ofc.rules.PINEAPPLE.replace(name="Thursday game", overall_bonus=1)
    assert_type(ofc.RuleSet.from_json(rules.to_json(indent=2)), ofc.RuleSet)
    settled = ofc.settle([board, "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"], rules)
    assert_type(settled, ofc.Settlement)


def games_and_bots() -> None:
    """A game played by the bots, the advice of the search and the solver."""
    game = ofc.Game("pineapple", players=2, seed=5)
    bots: list[Bot] = [HeuristicBot(seed=2), RandomBot(seed=3)]
    assert_type(make_bot("random", seed=1), Bot)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        move = bots[seat].act(game.observation(seat))
        assert_type(move, Move)
        game.play(move)
    assert_type(game.result(), ofc.GameResult)
    assert_type(ofc.Game.replay(game.history()), ofc.Game)
    advice = ofc.advise(ofc.Game("pineapple", players=2, seed=5), samples=4, seed=1)
    assert_type(advice[0].ev, float)
    solution = ofc.solve_fantasyland("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s")
    assert_type(solution.board, ofc.Board)
    match = ofc.Match(ofc.rules.PINEAPPLE, players=2, seed=1)
    assert_type(
        match.play([RandomBot(seed=1), RandomBot(seed=2)], hands=2), list[ofc.SeatStats]
    )


def pettingzoo_environment() -> None:
    """The PettingZoo AEC environment (README: reinforcement learning)."""
    aec = pettingzoo_env(rules="pineapple", players=3)
    assert_type(aec, OfcAECEnv)
    aec.reset(seed=0)
    assert_type(aec.render(), str | None)


def pettingzoo_loop() -> None:
    """The README's AEC loop: ``last()`` gives the observation dict (None with
    ``observe=False``)."""
    aec = pettingzoo_env(rules="pineapple", players=3)
    aec.reset(seed=0)
    obs, reward, termination, truncation, info = aec.last()
    assert_type(obs, dict[str, NDArray[Any]])
    assert_type(obs["action_mask"], NDArray[Any])
    assert_type(reward, float)
    assert_type(aec.last(observe=False)[0], None)
    assert_type(aec.last(bool(reward))[0], dict[str, NDArray[Any]] | None)


def match_bots() -> None:
    """A match's and ``play_out``'s bots are Bots: a seat given something
    else is the checker's error (``# type: ignore`` would be unused otherwise)."""
    match = ofc.Match(ofc.rules.PINEAPPLE, players=2, seed=1)
    bots = [RandomBot(seed=1), HeuristicBot(seed=2)]
    assert_type(match.play_hand(bots), ofc.GameResult)
    assert_type(ofc.game.play_out(ofc.Game("pineapple", 2, seed=3), bots), ofc.GameResult)
    if TYPE_CHECKING:  # (not run: each raises TableError)
        match.play_hand([RandomBot(seed=1), "heuristic"])  # type: ignore[list-item]
        match.play(["random", "random"], hands=1)  # type: ignore[list-item]
        ofc.game.play_out(ofc.Game("pineapple", 2), [None, None])  # type: ignore[list-item]


def model_settings() -> None:
    """A bot's ``model=`` (docs/learned.md): ``"auto"``, None, a path, a ValueModel or
    its data; anything else is the checker's error, not only a BotError."""
    model = shipped_model(ofc.rules.PINEAPPLE, 2)
    assert model is not None
    specs: list[ModelSpec] = ["auto", model, {"name": "m", "base64": ""}, None]
    ValueBot("pineapple", model=model)
    SearchBot("pineapple", model=None)
    assert len(specs) == 4
    if TYPE_CHECKING:  # (not run: each raises BotError)
        ValueBot("pineapple", model=1)  # type: ignore[arg-type]
        SearchBot("pineapple", model=["auto"])  # type: ignore[arg-type]


def carried_rule_set() -> None:
    """A game of house rules: its observation carries them under ``rule_set``, the
    dict a rules file holds, typed field by field (``RuleSetDict``)."""
    rules = ofc.rules.PINEAPPLE.replace(name="Thursday game", overall_bonus=1)
    observation = ofc.Game(rules, players=2, seed=1).observation(0)
    assert_type(observation.get("rule_set"), RuleSetDict | None)
    rule_set = observation["rule_set"]
    assert_type(rule_set["overall_bonus"], int)
    assert_type(rule_set["royalties"]["back"], list[int])
    assert_type(rule_set["surrender_cost"], int | None)
    fantasyland = rule_set["fantasyland"]
    assert fantasyland is not None
    assert_type(fantasyland["stay_back"], str | None)
    assert ofc.RuleSet.from_dict(dict(rule_set)) == rules


def made_position() -> None:
    """A position without a game (docs: the search): the observation a game gives,
    typed field by field."""
    obs = make_observation(
        "pineapple", "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"]
    )
    assert_type(obs, ofc.game.Observation)
    assert_type(obs["future_cards"], int)
    assert_type(ofc.advise(obs, samples=2, seed=1)[0].ev, float)
