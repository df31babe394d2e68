"""One resolver of rules (ofc_fast.rules.as_rules): every public function that takes
rules accepts the same three forms -- a RuleSet, a preset name and an arena game id --
and gives the same result for each."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest

import ofc_fast as ofc
from ofc_fast import rules

BOARD = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
OTHER = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
PRESET = rules.PINEAPPLE
EMPTY = [[[], [], []], [[], [], []]]  # two empty boards
PARTIAL = "Qh / 9s 9h / As Ks"  # a partial board (8 free slots)
NEARLY_FULL = "Qh Qd / 9s 9h 9d 5c / As Ks Qs Js"  # 3 free slots
FORMS = (PRESET, "pineapple", "ofc-pineapple")  # a RuleSet, a preset name, a game id


def _same(x: Any) -> Any:
    """What to compare of a result: C structs by their bytes, objects by their repr."""
    from ofc_fast._native import ffi

    if isinstance(x, ffi.CData):
        return bytes(ffi.buffer(x))
    if isinstance(x, (int, float, str, tuple, list, dict, bool)) or x is None:
        return x
    return repr(x) if type(x).__repr__ is not object.__repr__ else type(x).__name__


def _game_over() -> Any:
    from ofc_fast.bots import RandomBot
    from ofc_fast.game.state import play_out

    g = ofc.Game(PRESET, 2, seed=3)
    play_out(g, [RandomBot(1), RandomBot(2)])
    return g.result()


def _calls() -> dict[str, Callable[[Any], Any]]:
    import numpy as np

    from ofc_fast.arena._events import showdown_event
    from ofc_fast.arena._games import game_id_of
    from ofc_fast.arena._host import Arena, parse_bot_spec
    from ofc_fast.batch import eval_boards, score_pairs
    from ofc_fast.bots import (
        HeuristicBot,
        RandomBot,
        SearchBot,
        ValueBot,
        make_bot,
        make_bots,
    )
    from ofc_fast.bots._warm import warm_table
    from ofc_fast.bots.model import value_model
    from ofc_fast.bots.policy import PolicyBot
    from ofc_fast.env import VectorEnv
    from ofc_fast.env._learner import LearnerTables
    from ofc_fast.env._single import single_table
    from ofc_fast.game._engine import game_rules, resolve_rules
    from ofc_fast.game.match import check_deck, max_fantasyland_cards, next_button
    from ofc_fast.game.observation import observation_record
    from ofc_fast.game.state import cards_per_seat
    from ofc_fast.learned.model import (
        resolve_model,
        rules_hash,
        rules_mismatch,
        shipped_model,
    )
    from ofc_fast.rules._lookup import carried_rules
    from ofc_fast.rules.compiled import (
        compile_rules,
        compiled,
        compiled_fl,
        game_struct,
        table_rules,
    )
    from ofc_fast.scoring.naturals import natural_payment, naturals
    from ofc_fast.scoring.pair import evaluate_for_scoring, score_evaluated
    from ofc_fast.search import advise, best_completion, search_model
    from ofc_fast.search._checks import search_rules
    from ofc_fast.search._positions import position
    from ofc_fast.solver import best_setting, ev_tables, solve_fantasyland, stay_values
    from ofc_fast.table import check_fantasyland, check_players, check_table

    a, b = ofc.Board.parse(BOARD), ofc.Board.parse(OTHER)
    arr = np.array([a.cards], dtype=np.uint8)
    arr2 = np.array([b.cards], dtype=np.uint8)
    result = _game_over()
    fl_hand = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s 2h"
    return {
        "Board.evaluate": lambda r: a.evaluate(r),
        "Board.is_foul": lambda r: a.is_foul(r),
        "Board.row_values": lambda r: a.row_values(r),
        "Board.royalties": lambda r: a.royalties(r),
        "eval_boards": lambda r: eval_boards(arr, r).royalty.tolist(),
        "score_pairs": lambda r: score_pairs(arr, arr2, r).tolist(),
        "score_pair": lambda r: ofc.score_pair(a, b, r),
        "evaluate_for_scoring": lambda r: evaluate_for_scoring(a, r).royalties,
        "EvaluatedBoard": None,  # built by evaluate_for_scoring, which resolved the rules
        "score_evaluated": lambda r: score_evaluated(
            evaluate_for_scoring(a, PRESET), evaluate_for_scoring(b, PRESET), r
        ),
        "settle": lambda r: ofc.settle([a, b], r).net,
        "settlement_of": None,  # takes C output of settle(), which resolved the rules
        "naturals": lambda r: naturals(BOARD.replace("/", ""), r),
        "natural_payment": lambda r: natural_payment(None, None, r),
        "fantasyland_cards": lambda r: ofc.fantasyland_cards(BOARD, r),
        "solve_fantasyland": lambda r: str(solve_fantasyland(fl_hand, r).board),
        "best_setting": lambda r: str(best_setting(fl_hand.rsplit(" ", 1)[0], r).board),
        "stay_values": lambda r: stay_values(r),
        "ev_tables": lambda r: ev_tables(r),
        "cli_solve": None,  # the CLI's text of solve_fantasyland (above)
        "Game": lambda r: ofc.Game(r, 2, seed=1).history(),
        "Match": lambda r: ofc.Match(r, 2, seed=1).next_game().history(),
        "cards_per_seat": lambda r: cards_per_seat(r),
        "max_fantasyland_cards": lambda r: max_fantasyland_cards(r),
        "check_deck": lambda r: check_deck(r, 3),
        "resolve_rules": lambda r: resolve_rules(r),
        "game_rules": lambda r: game_rules(r),
        "compile_rules": lambda r: compile_rules(r).rules,
        "compiled": lambda r: compiled(r),
        "compiled_fl": lambda r: compiled_fl(r),
        "table_rules": lambda r: table_rules(r),
        "game_struct": lambda r: game_struct(r),
        "CompiledRules": None,  # built by compile_rules (above), never by hand
        "as_rules": lambda r: rules.as_rules(r),
        "check_players": lambda r: check_players(3, r),
        "check_fantasyland": lambda r: check_fantasyland((14, 0), 2, r),
        "check_table": lambda r: check_table(r, 3, 1),
        "RandomBot": lambda r: RandomBot(1, r).settings(),
        "HeuristicBot": lambda r: HeuristicBot(r, seed=1).rules,
        "SearchBot": lambda r: SearchBot(r, seed=1, samples=4).rules,
        "make_bot": lambda r: make_bot("heuristic", r, 1).rules,
        "make_bots": lambda r: [b.rules for b in make_bots(["heuristic"], 2, r, 1)],
        "value_model": lambda r: value_model(r).rules,
        "ValueModel": None,  # built by value_model (above)
        "HeuristicModel": None,  # its new name (ValueModel kept as an alias)
        "VectorEnv": lambda r: VectorEnv(r, 1, seed=1).rules,
        "OfcEnv": lambda r: _gym(r),
        "OfcVectorEnv": lambda r: _gym(r, vector=True),
        "OfcAECEnv": lambda r: _aec(r),
        "pettingzoo_env": lambda r: _aec(r, wrapped=True),
        "VecEnv": lambda r: _sb3(r),
        "GymVectorEnv": lambda r: _sb3(r, vector=True),
        "Arena": lambda r: Arena(r, [parse_bot_spec("random")] * 2, 1).rules,
        "game_id_of": lambda r: game_id_of(r),
        "showdown_event": lambda r: showdown_event(0, r, result),
        "observation_record": lambda r: observation_record(r, 0, EMPTY, [1, 2, 3, 4, 5]),
        "play_run": None,  # the CLI's parallel runner: its --rules went through load_rules
        "check_bot_count": None,  # the arena's seat check, of the RuleSet it resolved
        "HeuristicBot.warm_up": lambda r: HeuristicBot(seed=0).warm_up(r),
        "SearchBot.warm_up": lambda r: sorted(_warm_search(r)),
        "ValueBot": lambda r: ValueBot(r, seed=1).rules,
        "rules_hash": lambda r: rules_hash(r),
        "rules_mismatch": lambda r: rules_mismatch(rules_hash("ofc"), r),
        "shipped_model": lambda r: shipped_model(r, 2).name,  # type: ignore[union-attr]
        "resolve_model": lambda r: resolve_model("auto", r, 2).name,  # type: ignore[union-attr]
        "next_button": lambda r: next_button(r, 0, 2, [0, 0]),
        "LearnerTables": lambda r: LearnerTables(r, num_envs=2, seed=1).venv.rules,
        "single_table": lambda r: single_table(r, 2, "an env", {"seed": 1}).rules,
        "PolicyBot": lambda r: PolicyBot(_first_legal, r).fallback.rules,
        # policy_bot(path, rules): PolicyBot over a file (the tests of the policy files).
        "policy_bot": None,
        # Take the RuleSet their callers resolved (the model's own methods, the model
        # writers and the trainer are fed by resolve_model / the training command's
        # --rules, which go through load_rules); the warm-up's rehearsal deal likewise.
        "ValueModel.check_rules": None,
        "ValueModel.context": None,
        "ValueModel.value": None,
        "ValueModel.action_values": None,
        "ValueModel.ev_tables": None,
        "model_bytes": None,
        "write_model": None,
        # The fingerprint a model file stores (ofc_fast.learned._fingerprint): fed the
        # RuleSet rules_hash (above) and ValueModel.check_rules resolved.
        "fingerprint": None,
        "earlier_fingerprints": None,
        "play_data": None,
        "trained_for": None,  # (rules_mismatch's wording: fed its RuleSet)
        # Where two rule sets differ (ofc_fast.rules._diff): fed the RuleSets the
        # arena and rules_mismatch resolved.
        "differing_fields": None,
        "play_key": None,  # (the caches by rule set: fed the RuleSet as_rules gave)
        "train": None,
        "rehearse": None,
        "warm_seats": None,  # (fed the RuleSet warm_table resolved)
        "warm_table": lambda r: warm_table(r, None, "test"),
        # train's settings check and its nets (ofc_fast.learned._settings): fed the
        # RuleSet train resolved.
        "check_settings": None,
        "sizes": None,
        # The training data's tasks and features (ofc_fast.learned._data): fed by
        # train, whose --rules went through load_rules.
        "EvalTask": None,
        "GenTask": None,
        "LabelTask": None,
        "features": None,
        "row_counts": None,
        # The bot client: --rules is a game id or a preset name passed to
        # resolve_arena_rules, the arena's resolver over as_rules.
        "play_bot": None,
        # BotClient(rules=) takes the RuleSet play_bot resolved from --rules.
        "BotClient": None,
        # The parallel runs' faulty bots for the tests (ofc_fast.parallel._chaos):
        # made by name like any bot, they ignore their rules.
        "crasher": None,
        "late_crasher": None,
        "quitter": None,
        "cheater": None,
        "sleeper": None,
        "best_completion": lambda r: str(best_completion(NEARLY_FULL, "2c 5d Ts", r).board),
        "search_model": lambda r: search_model(r, fl_value=0),
        "position": lambda r: position(_position(PRESET), r),
        "make_observation": lambda r: _position(r),
        "search_rules": lambda r: search_rules(r, "test"),
        "carried_rules": lambda r: carried_rules(r),
        "advise": lambda r: [
            a.action for a in advise(_position(PRESET), rules=r, samples=4, seed=1)
        ],
    }


def _position(r: Any) -> Any:
    """An observation without a game: seat 0 places 2 of 3 cards, one opponent."""
    from ofc_fast.search import make_observation

    return make_observation(r, PARTIAL, "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])


def _first_legal(x: Any, mask: Any) -> int:
    return int(mask.argmax())


def _warm_search(r: Any) -> Any:
    from ofc_fast.bots import SearchBot

    bot = SearchBot(seed=0, time_budget=0.005)
    bot.warm_up(r)
    return bot.overruns()


def _gym(r: Any, vector: bool = False) -> Any:
    pytest.importorskip("gymnasium", reason='pip install ".[test]" (gymnasium)')
    from ofc_fast.env.gym import OfcEnv, OfcVectorEnv

    return repr((OfcVectorEnv(r, 2) if vector else OfcEnv(r)).reset(seed=1)[0])


def _sb3(r: Any, vector: bool = False) -> Any:
    pytest.importorskip(
        "stable_baselines3", reason='pip install ".[rl]" (stable-baselines3)'
    )
    from ofc_fast.env.sb3 import GymVectorEnv, VecEnv

    return (GymVectorEnv if vector else VecEnv)(r, num_envs=2, seed=1).tables.venv.rules


def _aec(r: Any, wrapped: bool = False) -> Any:
    pytest.importorskip("pettingzoo", reason='pip install ".[test]" (pettingzoo)')
    from ofc_fast.env import pettingzoo_env
    from ofc_fast.env.aec import OfcAECEnv

    env = pettingzoo_env(r) if wrapped else OfcAECEnv(r)
    env.reset(seed=1)
    return repr(env.observe(env.agent_selection))


def _rules_taking_public_functions() -> set[str]:
    """Names of every public function, class or public method (in any module's
    ``__all__``) with a parameter called ``rules``."""
    names: set[str] = set()
    for info in pkgutil.walk_packages(ofc.__path__, "ofc_fast."):
        if info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra is not installed
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            found = [(name, obj)]
            if inspect.isclass(obj):
                found += [
                    (f"{name}.{k}", v)
                    for k, v in vars(obj).items()
                    if not k.startswith("_") and callable(v)
                ]
            for label, fn in found:
                try:
                    params = inspect.signature(fn).parameters
                except (TypeError, ValueError):
                    continue
                if "rules" in params:
                    names.add(label)
    return names


def test_every_rules_taking_function_is_listed() -> None:
    listed = set(_calls())
    missing = _rules_taking_public_functions() - listed
    assert not missing, f"add these to tests/test_rules_forms.py: {sorted(missing)}"


@pytest.mark.parametrize(
    "name", sorted(k for k, v in _calls().items() if v is not None), ids=str
)
def test_rules_taking_functions_accept_the_three_forms(name: str) -> None:
    call = _calls()[name]
    assert call is not None
    got = [_same(call(form)) for form in FORMS]
    assert got[0] == got[1] == got[2], (name, got)


def test_fantasyland_cards_takes_a_preset_name() -> None:
    """It used to refuse "OFC" that every other call accepts."""
    assert ofc.fantasyland_cards(BOARD, "OFC") == ofc.fantasyland_cards(BOARD, rules.OFC)
    assert ofc.fantasyland_cards(BOARD, "ofc") == ofc.fantasyland_cards(BOARD, rules.OFC)


def test_bad_rules_are_refused_alike() -> None:
    with pytest.raises(ofc.RulesError, match="unknown rule set"):
        ofc.fantasyland_cards(BOARD, "no-such-game")
    with pytest.raises(ofc.RulesError, match="RuleSet, a preset name or a game id"):
        ofc.score_pair(BOARD, OTHER, 3)  # type: ignore[arg-type]
    with pytest.raises(ofc.GameError, match="unknown rule set"):
        ofc.Game("no-such-game")


def test_warm_up_refuses_bad_rules_alike() -> None:
    """``warm_up(rules)`` read an empty name, 0 or an empty list as no rules (``rules or
    the bot's own``) and rehearsed the bot's own table, where every other taker of
    rules refuses them; ``players=0`` rehearsed 2 seats."""
    from ofc_fast.bots import HeuristicBot, SearchBot

    for bot in (HeuristicBot(rules.OFC, seed=0), SearchBot(rules.OFC, seed=0)):
        with pytest.raises(ofc.RulesError, match="unknown rule set ''"):
            bot.warm_up("")
        for bad in (0, []):
            with pytest.raises(ofc.RulesError, match="RuleSet, a preset name or a game id"):
                bot.warm_up(bad)
    with pytest.raises(ofc.TableError, match="got 0"):
        HeuristicBot(seed=0).warm_up("ofc", players=0)
