"""Every public class under the object protocols a user's program relies on: repr,
pickle (multiprocessing, Ray), ``copy.copy`` / ``copy.deepcopy``, ``==`` and ``hash``.

A class added to a public ``__all__`` without a sample here fails
:func:`test_every_public_class_has_a_sample`, so it is covered from the start.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pickle
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import errors

PUBLIC_MODULES = (
    "ofc_fast",
    "ofc_fast.arena",
    "ofc_fast.bots",
    "ofc_fast.env",
    "ofc_fast.game",
    "ofc_fast.learned",
    "ofc_fast.parallel",
    "ofc_fast.rules",
    "ofc_fast.scoring",
    "ofc_fast.search",
    "ofc_fast.serve",
)

BOARD = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
OTHER = "2h 3d 4c / 9c 8h 7d 5h 5s / Ac Kc Qc Jc 3c"
NATURAL = "2h 3h 4h / 5h 6h 7h 8h 9h / Th Jh Qh Kh Ah"  # a dragon

NO_SAMPLE = {
    "Bot": "an abstract base: its subclasses are sampled",
    "Executor": "an abstract base: its subclasses are sampled",
    "RayExecutor": "needs a Ray cluster (test_parallel_ray.py copies and pickles one)",
}


def _played_game() -> ofc.Game:
    game = ofc.Game("pineapple", seed=5)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    return game


def _arena() -> Any:
    from ofc_fast.arena import Arena
    from ofc_fast.arena._host import parse_bot_spec

    return Arena("pineapple", [parse_bot_spec("ann@random")] * 2, 2, seed=1)


def _run() -> Any:
    from ofc_fast.parallel import RunSpec, play_parallel

    return play_parallel(
        RunSpec.make("pineapple", 2, seed=1, hands=2, bots=[("random", {})])
    )


def _samples() -> dict[str, Callable[[], object]]:
    from ofc_fast import arena, bots, env, learned, parallel, rules, scoring, search, serve

    board, other = ofc.Board.parse(BOARD), ofc.Board.parse(OTHER)
    return {
        "Advice": lambda: ofc.advise(ofc.Game("pineapple", seed=3))[0],
        "Board": lambda: board,
        "BoardBatch": lambda: ofc.eval_boards(np.array([board.cards], dtype=np.uint8)),
        "BoardEval": lambda: board.evaluate(),
        "Game": lambda: ofc.Game("pineapple", seed=3),
        "GameResult": lambda: _played_game().result(),
        "Match": lambda: ofc.Match("pineapple", 2, seed=1),
        "Move": lambda: ofc.Game("pineapple", seed=3).legal_moves()[0],
        "NaturalHand": lambda: next(iter(ofc.detect_naturals(NATURAL).values())),
        "PairScore": lambda: ofc.score_pair(board, other, rules=rules.OFC),
        "RuleSet": lambda: rules.PINEAPPLE,
        "SeatStats": lambda: ofc.SeatStats(),
        "Settlement": lambda: ofc.settle([board, other], rules=rules.OFC),
        "SettlementItem": lambda: ofc.settle([board, other], rules=rules.OFC).items[0],
        "Solution": lambda: ofc.solve_fantasyland(
            ofc.parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s 2d")
        ),
        "HeuristicBot": lambda: bots.HeuristicBot(seed=1),
        "RandomBot": lambda: bots.RandomBot(seed=1),
        "SearchBot": lambda: bots.SearchBot(seed=1),
        "ValueBot": lambda: bots.ValueBot(seed=1),
        "VectorEnv": lambda: env.VectorEnv(num_envs=2, seed=0),
        "Arena": _arena,
        "BotSpec": lambda: arena.BotSpec("builtin", "random"),
        "Completion": lambda: ofc.best_completion(
            "Ah Kd / 2c 3c 4c 5c / 3d 4d 5d 6d", "7s 7d 7h", rules.PINEAPPLE
        ),
        "SearchModel": lambda: search.model.search_model(rules.PINEAPPLE),
        "ValueModel": lambda: learned.model.shipped_model(rules.PINEAPPLE, 2),
        "LocalExecutor": parallel.LocalExecutor,
        "ProcessExecutor": lambda: parallel.ProcessExecutor(2),
        "ParallelRun": _run,
        "RunSpec": lambda: parallel.RunSpec.make(
            "pineapple", 2, seed=1, hands=2, bots=[("random", {})]
        ),
        "Fantasyland": lambda: rules.PINEAPPLE.fantasyland,
        "Lowball": lambda: rules.PINEAPPLE_27.lowball,
        "Natural": lambda: rules.TYPICAL_NATURALS[0],
        "Pool": lambda: rules.Pool(),
        "Schedule": lambda: rules.ROYALTIES_OFC,
        "EvaluatedBoard": lambda: scoring.pair.evaluate_for_scoring(board, rules.OFC),
        "App": lambda: serve.App(serve.ServeConfig(workers=1)),
        "ServeConfig": serve.ServeConfig,
    }


def _public_classes() -> dict[str, type]:
    """Each public class (not an error, an enum or a TypedDict) by its name."""
    found: dict[str, type] = {}
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            value = getattr(module, attr)
            if (
                inspect.isclass(value)
                and typing.get_origin(value) is None  # (3.10: Callable[...] is a class)
                and not issubclass(value, (BaseException, Enum))
                and not typing.is_typeddict(value)
            ):
                found[value.__name__] = value
    return found


def test_every_public_class_has_a_sample() -> None:
    """A public class without a sample here would escape the protocol tests."""
    missing = set(_public_classes()) - set(_samples()) - set(NO_SAMPLE)
    assert not missing, f"add a sample to tests/test_object_protocols.py: {missing}"


def _defines_eq(cls: type) -> bool:
    return any("__eq__" in vars(k) for k in cls.__mro__ if k is not object)


_CFFI_WORDS = ("cdata", "ctype", "_cffi_backend", "lock", "thread")


@pytest.mark.parametrize("name", sorted(_samples()))
def test_public_objects_repr_copy_and_pickle(name: str) -> None:
    """Regression: ``repr`` of an Arena, an App and the executors showed only
    ``<ofc_fast.arena._host.Arena object at 0x7f...>``; every public object's repr now
    names its class and state.  Each one pickles and copies into an object of its
    class (equal to it where the class defines ``==``, with an equal hash), or is
    refused with an OfcError/TypeError saying why, never a cffi or lock error."""
    obj = _samples()[name]()
    text = repr(obj)
    assert " object at 0x" not in text, text
    for how in (
        copy.copy,
        copy.deepcopy,
        lambda x: pickle.loads(pickle.dumps(x)),
    ):
        try:
            again = how(obj)
        except (TypeError, errors.OfcError) as exc:
            assert not any(w in str(exc) for w in _CFFI_WORDS[:3]), exc
            assert not str(exc).startswith("cannot pickle '"), exc  # (Python's own)
            continue
        assert type(again) is type(obj)
        if _defines_eq(type(obj)):
            assert again == obj
            if type(obj).__hash__ is not None:
                assert hash(again) == hash(obj)


def _error_classes() -> list[type[errors.OfcError]]:
    """Every OfcError subclass the library defines (public or not)."""
    for name in PUBLIC_MODULES:
        importlib.import_module(name)
    importlib.import_module("ofc_fast.timing")
    todo, seen = [errors.OfcError], []
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return seen


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: c.__name__)
def test_every_error_pickles_with_its_message_and_attributes(cls: type) -> None:
    """A multiprocessing worker's error, re-raised in the parent, keeps its type, its
    message, its args and its extra attributes (``MoveError.reason``...)."""
    exc = cls("what went wrong")
    exc.extra = 7  # type: ignore[attr-defined]
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is cls
    assert (again.args, str(again), vars(again)) == (exc.args, str(exc), vars(exc))
    if isinstance(exc, errors.MoveError):
        moved = pickle.loads(pickle.dumps(errors.MoveError("taken", "row_full")))
        assert moved.reason == "row_full"


def test_a_closed_vector_env_says_so_in_its_repr() -> None:
    """Regression: a closed VectorEnv's repr was an open one's
    (``<VectorEnv PINEAPPLE x2, 2 players, opponents self, seed 0>``), so a log or a
    debugger showed nothing of why its next step was refused; it ends ``, closed>``.
    Every public object with ``close()`` keeps an informative repr once closed."""
    from ofc_fast.env import VectorEnv

    env = VectorEnv("pineapple", 2, seed=0)
    assert not repr(env).endswith(", closed>")
    env.close()
    assert (
        repr(env) == "<VectorEnv PINEAPPLE x2, 2 players, opponents self, seed 0, closed>"
    )
    for name, make in _samples().items():
        obj = make()
        if callable(getattr(obj, "close", None)):
            obj.close()
            assert " object at 0x" not in repr(obj), name


def test_a_half_built_vector_env_has_a_repr() -> None:
    """Regression: ``repr()`` of a VectorEnv whose ``__init__`` raised partway (0
    environments refused after ``rules`` was set), or of an ``object.__new__`` one, raised
    AttributeError ('VectorEnv' object has no attribute ...): a debugger or a log of
    the failed construction failed in turn.  A repr never raises: it says the env is
    not fully built (``errors.built_repr``, as Game's and Match's)."""
    from ofc_fast.env import VectorEnv

    bare = object.__new__(VectorEnv)
    assert repr(bare) == "<VectorEnv, not fully built: no rules>"
    half = object.__new__(VectorEnv)
    with pytest.raises(errors.GameError, match="num_envs"):
        half.__init__("pineapple", 0)  # type: ignore[misc]
    assert "rules" in vars(half) and "num_envs" not in vars(half)
    assert repr(half) == "<VectorEnv, not fully built: no num_envs>"


def test_the_gymnasium_env_repr_names_its_rules_seat_and_players() -> None:
    """Regression: ``repr(OfcEnv(...))`` was Python's default
    (``<ofc_fast.env.gym.OfcEnv object at 0x7f...>``): nothing of its table.  It now
    names the rules, the agent's seat, the players and the opponents, as a
    VectorEnv's does; a half-built one says it is not fully built."""
    pytest.importorskip("gymnasium", reason="pip install 'ofc-fast[rl]'")
    from ofc_fast.env.gym import OfcEnv

    env = OfcEnv("pineapple", players=3, learner=2, opponents="heuristic")
    assert repr(env) == "<OfcEnv PINEAPPLE, seat 2 of 3 players, opponents heuristic>"
    bare = object.__new__(OfcEnv)
    assert repr(bare) == "<OfcEnv, not fully built: no _venv>"


def test_a_ray_executor_copies_without_owning_the_cluster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: pickling or deep-copying a RayExecutor raised ``TypeError: cannot
    pickle 'module' object`` (the Ray module it held), and a ``copy.copy`` owned the
    cluster its original started: closing the copy shut Ray down under the original.
    A copy (pickled, copied, deep-copied) now has the settings and its own Ray module
    but never the ownership: only the original's close() shuts Ray down.  A stand-in
    Ray module counts the shutdowns."""
    import sys
    import types

    from ofc_fast.parallel import RayExecutor

    ray = types.ModuleType("ray")
    shutdowns: list[int] = []
    up = [False]
    ray.is_initialized = lambda: up[0]  # type: ignore[attr-defined]
    ray.init = lambda **_: up.__setitem__(0, True)  # type: ignore[attr-defined]
    ray.cluster_resources = lambda: {"CPU": 3}  # type: ignore[attr-defined]
    ray.shutdown = lambda: shutdowns.append(1)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    pool = RayExecutor(num_cpus=3, max_retries=2)
    for take in (copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))):
        again = take(pool)
        assert (again.workers, again.max_retries, again.ray) == (3, 2, ray)
        again.close()
        assert shutdowns == [], take
    pool.close()
    assert shutdowns == [1]


def test_a_half_built_match_has_a_repr() -> None:
    """Regression: ``repr()`` of a Match its ``__init__`` left half-built (a bad
    argument refused after the rules and players were set: a traceback's locals, a
    debugger) or of ``object.__new__(Match)`` raised AttributeError ("'Match' object
    has no attribute '_state_lock'"); it now says the match is not fully built, and a
    built match's repr is as before."""
    from ofc_fast import Match

    assert repr(object.__new__(Match)) == "<Match, not fully built: no _state_lock>"
    half = object.__new__(Match)
    with pytest.raises(errors.GameError, match="keep_nets"):
        half.__init__("pineapple", 2, keep_nets="no")  # type: ignore[misc]
    assert vars(half) and repr(half).startswith("<Match, not fully built: ")
    half.__init__("pineapple", 2, seed=3)  # type: ignore[misc]
    assert repr(half) == "<Match PINEAPPLE 2 players, seed 3, 0 hands, totals [0, 0]>"


def test_a_half_built_game_has_a_repr_and_a_str() -> None:
    """Regression: ``repr()`` and ``str()`` of a Game its ``__init__`` left half-built
    (a bad argument refused partway) or of ``object.__new__(Game)`` raised
    AttributeError ("'Game' object has no attribute '_moves'"); both now say the game
    is not fully built, and a built game's are as before."""
    from ofc_fast import Game

    bare = object.__new__(Game)
    assert repr(bare).startswith("<Game, not fully built: no ")
    assert str(bare).startswith("<Game, not fully built: no ")
    half = object.__new__(Game)
    with pytest.raises(errors.OfcError):
        half.__init__("pineapple", 2, seed=-1)  # type: ignore[misc]
    assert repr(half).startswith("<Game, not fully built: ")
    built = Game("pineapple", 2, seed=3)
    assert repr(built) == "<Game PINEAPPLE 2 players, button 0, seed 3, seat 1 to act>"
    assert str(built).startswith(repr(built) + "\n  seat 0: ")


def test_a_repr_that_reads_another_objects_missing_attribute_still_raises() -> None:
    """The half-built fallback (``errors.built_repr``) answers only for the object's own
    missing attributes: a repr's AttributeError about another object is its bug, raised
    as it is, not hidden."""

    class Holder:
        @errors.built_repr
        def __repr__(self) -> str:
            return f"<Holder {object().missing}>"  # type: ignore[attr-defined]

    with pytest.raises(AttributeError, match="missing"):
        repr(Holder())
