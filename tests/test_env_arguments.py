"""Every constructor argument of every environment class, given a value it cannot
take, is refused with an OfcError naming that argument (never the bare TypeError or
ValueError of comparing or unpacking the value): a table of classes, arguments and
hostile values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ofc_fast.env import VectorEnv
from ofc_fast.env._learner import LearnerTables
from ofc_fast.errors import OfcError


class NoEquality:
    """A value whose comparison and truth fail (an object of another library)."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise RuntimeError("tested for truth")


HOSTILE = {
    "an object": object(),
    "an array": np.array([1, 2]),
    "no equality": NoEquality(),
    "a dict of numbers": {1: 2},
}
"""Values no argument of an environment takes."""

VECTOR_ENV_KEYWORDS = (
    "rules",
    "num_envs",
    "players",
    "seed",
    "opponents",
    "fantasyland",
    "learner",
    "shaping",
    "stay_value",
    "autoreset",
    "bot_settings",
    "obs_type",
    "final_obs",
)
"""VectorEnv's arguments, which every adapter passes on (or refuses)."""


def _classes() -> list[tuple[str, Any, dict[str, Any], tuple[str, ...], str]]:
    """(name, class, the settings it is made with, its arguments, its opponents'
    keyword) of every environment class whose package is installed."""
    rows: list[tuple[str, Any, dict[str, Any], tuple[str, ...], str]] = [
        ("VectorEnv", VectorEnv, {"num_envs": 2}, VECTOR_ENV_KEYWORDS, "opponents"),
        (
            "LearnerTables",
            LearnerTables,
            {"num_envs": 2},
            (*VECTOR_ENV_KEYWORDS, "opponent"),
            "opponent",
        ),
    ]
    try:
        from ofc_fast.env.aec import OfcAECEnv
        from ofc_fast.env.gym import OfcEnv, OfcVectorEnv
    except ImportError:
        return rows
    rows += [
        (
            "OfcEnv",
            OfcEnv,
            {},
            (*VECTOR_ENV_KEYWORDS, "render_mode", "illegal"),
            "opponents",
        ),
        (
            "OfcVectorEnv",
            OfcVectorEnv,
            {"num_envs": 2},
            (*VECTOR_ENV_KEYWORDS, "render_mode", "illegal", "max_episode_steps"),
            "opponents",
        ),
        ("OfcAECEnv", OfcAECEnv, {}, (*VECTOR_ENV_KEYWORDS, "render_mode"), "opponents"),
    ]
    try:
        from ofc_fast.env.sb3 import GymVectorEnv, VecEnv
    except ImportError:
        return rows
    more = (*VECTOR_ENV_KEYWORDS, "opponent", "render_mode")
    rows += [
        ("VecEnv", VecEnv, {"num_envs": 2}, (*more, "reward_scale"), "opponent"),
        ("GymVectorEnv", GymVectorEnv, {"num_envs": 2}, more, "opponent"),
    ]
    return rows


CASES = [
    pytest.param(cls, base, argument, value, opponents, id=f"{name}-{argument}-{what}")
    for name, cls, base, arguments, opponents in _classes()
    for argument in arguments
    for what, value in HOSTILE.items()
]


@pytest.mark.parametrize("cls,base,argument,value,opponents", CASES)
def test_every_env_argument_refuses_a_bad_value_with_an_ofc_error_naming_it(
    cls: Any, base: dict[str, Any], argument: str, value: object, opponents: str
) -> None:
    """Regression: an array or an object given as the SB3 adapters' ``opponent``, as
    a setting an adapter fixes itself (``num_envs`` of the one-table envs,
    ``autoreset``, ``final_obs``, the PettingZoo env's ``opponents``) was the
    ValueError of its truth value (or whatever its comparison raised), and
    ``bot_settings`` of a number key the TypeError of passing it as a keyword."""
    kwargs = {**base, argument: value}
    if argument == "bot_settings" and cls.__name__ != "OfcAECEnv":
        kwargs[opponents] = "heuristic"  # (bot settings: for bot opponents only)
    with pytest.raises(OfcError) as err:
        cls(**kwargs)
    assert argument.rstrip("s") in str(err.value)


POSITIONAL = {
    "VectorEnv": ("rules", "num_envs", "players", "seed", "opponents"),
    "LearnerTables": ("rules", "num_envs", "players", "seed", "opponent"),
    "OfcEnv": ("rules", "players", "opponents", "render_mode", "illegal"),
    "OfcVectorEnv": (
        "rules",
        "num_envs",
        "players",
        "opponents",
        "render_mode",
        "illegal",
        "max_episode_steps",
    ),
    "OfcAECEnv": ("rules", "players", "render_mode"),
    "VecEnv": ("rules", "num_envs", "players", "seed", "opponent"),
    "GymVectorEnv": ("rules", "num_envs", "players", "seed", "opponent"),
}
"""The arguments each class documents as positional, in order."""

SETS_ITSELF = {
    "VectorEnv": (),
    "LearnerTables": ("autoreset", "final_obs"),
    "OfcEnv": ("num_envs",),
    "OfcVectorEnv": ("autoreset", "final_obs"),
    "OfcAECEnv": ("num_envs", "opponents", "autoreset"),
    "VecEnv": ("autoreset", "final_obs"),
    "GymVectorEnv": ("autoreset", "final_obs"),
}
"""The keywords of VectorEnv each class sets itself (refusing any other value)."""

CLASSES = [
    pytest.param(name, cls, base, opponents, id=name)
    for name, cls, base, _, opponents in _classes()
]


@pytest.mark.parametrize("name,cls,base,opponents", CLASSES)
def test_an_argument_a_class_does_not_take_names_that_class(
    name: str, cls: Any, base: dict[str, Any], opponents: str
) -> None:
    """Regression: an unknown keyword given to any env class was the TypeError of the
    class it passes its keywords on to (``OfcEnv(bogus=1)``: "VectorEnv.__init__()
    got an unexpected keyword argument", ``VecEnv``: "VectorEnv"; one positional too
    many for ``VecEnv``: "LearnerTables.__init__() takes ..."), no OfcError.  Now an
    ArgumentError (a GameError and a TypeError) naming the class called and the
    keyword, with the closest one it takes (else all of them: not the other spelling
    of its opponents' keyword), and its signature shows the arguments it documents."""
    import inspect

    from ofc_fast.errors import ArgumentError, GameError

    with pytest.raises(ArgumentError) as err:
        cls(**base, bogus=1)
    assert isinstance(err.value, GameError) and isinstance(err.value, TypeError)
    message = str(err.value)
    assert message.startswith(f"{name}() got an unexpected keyword argument 'bogus' (")
    listed = [k for k in ("seed", "shaping", opponents) if k not in SETS_ITSELF[name]]
    assert all(f" {keyword}," in message for keyword in listed)
    other = "opponent" if opponents == "opponents" else "opponents"
    assert f" {other}," not in message  # the other spelling: refused, so not listed
    with pytest.raises(
        ArgumentError, match=rf"^{name}\(\) .* 'seeds' \(did you mean 'seed'\?\)$"
    ):
        cls(**base, seeds=1)
    documented = POSITIONAL[name]
    with pytest.raises(
        ArgumentError,
        match=rf"^{name}\(\) takes at most {len(documented)} positional arguments "
        rf"\({', '.join(documented)}\), got {len(documented) + 1}$",
    ):
        cls(*([None] * (len(documented) + 1)))
    with pytest.raises(
        ArgumentError, match=rf"^{name}\(\) got multiple values for argument 'rules'$"
    ):
        cls("pineapple", rules="pineapple")
    shown = list(inspect.signature(cls).parameters)
    assert tuple(shown[: len(documented)]) == documented


@pytest.mark.parametrize("name,cls,base,opponents", CLASSES)
def test_a_keyword_a_class_sets_itself_is_neither_listed_nor_suggested(
    name: str, cls: Any, base: dict[str, Any], opponents: str
) -> None:
    """Regression: the keywords an unknown one was answered with held those the
    class sets itself and refuses (``OfcEnv(bogus=1)`` listed ``num_envs``, which
    ``OfcEnv(num_envs=2)`` refuses; ``OfcAECEnv``: ``opponents``, ``autoreset``), and
    "did you mean" suggested them (``OfcEnv(num_env=2)``: 'num_envs')."""
    from ofc_fast.errors import ArgumentError

    for keyword in SETS_ITSELF[name]:
        with pytest.raises(ArgumentError) as err:
            cls(**base, bogus=1)
        assert f" {keyword}," not in str(err.value) and f" {keyword})" not in str(err.value)
        with pytest.raises(ArgumentError) as err:
            cls(**base, **{keyword[:-1] + "x": 1})  # one letter off
        assert f"'{keyword}'" not in str(err.value)
        with pytest.raises(OfcError, match=f"{keyword}=.* itself"):
            cls(**base, **{keyword: np.array([1, 2])})  # (refused naming it, still)


def test_a_factory_forwarding_keywords_names_itself_in_the_refusal() -> None:
    """Regression: ``pettingzoo_env(bogus=1)`` named ``OfcAECEnv()``, the class it
    makes, not the function the user called."""
    pytest.importorskip("pettingzoo", reason="pip install 'ofc-fast[rl]'")
    from ofc_fast.env import pettingzoo_env
    from ofc_fast.errors import ArgumentError

    with pytest.raises(
        ArgumentError,
        match=r"^pettingzoo_env\(\) got an unexpected keyword argument 'bogus' \(it takes ",
    ):
        pettingzoo_env(bogus=1)
    with pytest.raises(
        ArgumentError, match=r"^pettingzoo_env\(\) .* 'seeds' \(did you mean 'seed'\?\)$"
    ):
        pettingzoo_env(seeds=1)


_TOO_MANY_ENVS = """
import resource
from ofc_fast.env import VectorEnv
from ofc_fast.errors import GameError
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, resource.RLIM_INFINITY))
try:
    VectorEnv("pineapple", num_envs=1 << 24, seed=0)
except GameError as exc:
    print(exc)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="run on Linux (RLIMIT_AS)")
def test_buffers_too_big_to_allocate_are_a_game_error_naming_num_envs() -> None:
    """Regression: ``VectorEnv(num_envs=1 << 24)``, within the allowed range, needs
    tens of GiB of buffers; under a memory limit (``ulimit -v``) the user got a bare
    MemoryError of one NumPy array.  It is now a GameError naming ``num_envs`` and
    the bytes its buffers need."""
    import ofc_fast

    env = dict(os.environ)
    root = str(Path(ofc_fast.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    said = subprocess.check_output(
        [sys.executable, "-c", _TOO_MANY_ENVS], env=env, text=True, timeout=120
    ).strip()
    one = VectorEnv("pineapple", num_envs=1, seed=0)
    arrays = {id(a): a for a in vars(one).values() if isinstance(a, np.ndarray)}
    per_env = sum(a.nbytes for a in arrays.values())  # (its C slots come on top)
    assert said.startswith("num_envs=16777216: the environments' buffers need "), said
    needed = int(said.split(" need ")[1].split()[0])
    assert per_env << 24 < needed < (per_env + 4096) << 24
