"""A user's script with NumPy arrays (tests/test_typing.py checks it with ``mypy
--strict``): where the library fixes a dtype, the array is typed with it, so that
``assert_type`` holds and the user's own annotations check."""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import ofc_fast as ofc
from ofc_fast import encoding
from ofc_fast.bots.policy import MlpPolicy, PolicyBot, load_policy
from ofc_fast.env import VectorEnv, VectorInfos
from ofc_fast.env.gym import OfcEnv, OfcVectorEnv


def batches() -> None:
    """The batch calls (README: the first example): int32 strengths and points, bool
    fouls."""
    hands = np.array([[51, 47, 43, 39, 35]], dtype=np.uint8)
    assert_type(ofc.rank5_batch(hands), npt.NDArray[np.int32])
    assert_type(ofc.rank3_batch(np.ascontiguousarray(hands[:, :3])), npt.NDArray[np.int32])
    board = ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    other = ofc.Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c")
    a = np.array([board.cards], dtype=np.uint8)
    b = np.array([other.cards], dtype=np.uint8)
    net: npt.NDArray[np.int32] = np.empty(1, np.int32)
    assert_type(ofc.score_pairs(a, b, ofc.rules.OFC, out=net), npt.NDArray[np.int32])
    batch = ofc.eval_boards(a)
    assert_type(batch.strength, npt.NDArray[np.int32])
    assert_type(batch.royalty, npt.NDArray[np.int32])
    assert_type(batch.foul, npt.NDArray[np.bool_])


def encodings() -> None:
    """The observation encodings (README: reinforcement learning): uint8 bytes, float32
    values and features, a bool action mask; card planes of the encoding's dtype."""
    game = ofc.Game("pineapple", players=2, seed=1)
    seat = game.to_act
    assert seat is not None
    obs = game.observation(seat)
    raw = encoding.encode_bytes(obs)
    assert_type(raw, npt.NDArray[np.uint8])
    assert_type(encoding.encode_game(game, seat), npt.NDArray[np.uint8])
    assert_type(encoding.encode(obs), npt.NDArray[np.float32])
    assert_type(encoding.features(obs), npt.NDArray[np.float32])
    assert_type(encoding.features_of_encoding(raw, obs["dealt"]), npt.NDArray[np.float32])
    assert_type(encoding.action_mask(obs), npt.NDArray[np.bool_])
    assert_type(encoding.planes(raw), npt.NDArray[np.uint8])


def vector_env() -> None:
    """The vector environment's loop (README: reinforcement learning): float32
    rewards, bool terminations and truncations; uint8 or float32 observations."""
    env = VectorEnv("pineapple", num_envs=4, players=2, seed=0, opponents="self")
    obs, infos = env.reset()
    assert_type(obs, npt.NDArray[np.uint8] | npt.NDArray[np.float32])
    actions = infos["legal_actions"][np.arange(env.num_envs), 0]
    obs, rewards, terminations, truncations, infos = env.step(actions)
    assert_type(rewards, npt.NDArray[np.float32])
    assert_type(terminations, npt.NDArray[np.bool_])
    assert_type(truncations, npt.NDArray[np.bool_])
    assert_type(env.observations_float(), npt.NDArray[np.float32])
    assert_type(env.encode(0, 0), npt.NDArray[np.uint8])


def policies() -> None:
    """A saved policy read back (README: reinforcement learning) gives an int action
    id; a policy bot takes ``policy(x, mask) -> action id``, not any object."""
    w = np.zeros((ofc.game.ACTION_SPACE, encoding.FEATURE_SIZE), np.float32)
    mlp = MlpPolicy([w, np.zeros(ofc.game.ACTION_SPACE, np.float32)], ["linear"])
    policy = load_policy(mlp.save(os.path.join(tempfile.mkdtemp(), "policy.npz")))
    game = ofc.Game("pineapple", players=2, seed=1)
    seat = game.to_act
    assert seat is not None
    obs = game.observation(seat)
    action = policy(encoding.features(obs), encoding.action_mask(obs))
    assert_type(action, int)
    bot = PolicyBot(lambda x, mask: np.argmax(mask), seed=1)
    game.play(bot.act(obs))
    if TYPE_CHECKING:  # (not run: a BotError when made, a TypeError when it acts)
        PolicyBot("policy.npz")  # type: ignore[arg-type]
        PolicyBot(lambda x: 0)  # type: ignore[arg-type, misc]


def game_encoding() -> None:
    """``encode_game()`` encodes a Game: an observation given instead is the
    checker's error, not only a GameError when run."""
    game = ofc.Game("pineapple", players=2, seed=1)
    assert_type(encoding.encode_game(game, 0), npt.NDArray[np.uint8])
    if TYPE_CHECKING:  # (not run: a GameError)
        encoding.encode_game(game.observation(0), 0)  # type: ignore[arg-type]


def gymnasium_envs() -> None:
    """The Gymnasium envs (README: reinforcement learning): float64 rewards, bool
    terminations, truncations and action masks."""
    env = OfcVectorEnv("pineapple", num_envs=2, players=2)
    obs, _ = env.reset(seed=0)
    assert_type(obs, dict[str, npt.NDArray[Any]])
    masks = env.action_masks()
    assert_type(masks, npt.NDArray[np.bool_])
    obs, rewards, terminations, truncations, _ = env.step(masks.argmax(axis=1))
    assert_type(rewards, npt.NDArray[np.float64])
    assert_type(terminations, npt.NDArray[np.bool_])
    assert_type(truncations, npt.NDArray[np.bool_])
    single = OfcEnv("pineapple", players=2)
    single.reset(seed=0)
    assert_type(single.action_masks(), npt.NDArray[np.bool_])


def vector_env_infos() -> None:
    """The vector environment's ``infos``: each key an array of its dtype, what a
    training loop picks its actions from; a key it lacks is the checker's error."""
    env = VectorEnv("pineapple", num_envs=2, players=2, seed=0)
    _, infos = env.reset()
    assert_type(infos, VectorInfos)
    assert_type(infos["legal_actions"], npt.NDArray[np.uint8])
    assert_type(infos["action_mask"], npt.NDArray[np.bool_])
    assert_type(infos["seat"], npt.NDArray[np.int8])
    assert_type(
        env.step(infos["legal_actions"][:, 0])[4]["legal_count"], npt.NDArray[np.int16]
    )
    assert_type(env.infos()["final_rewards"], npt.NDArray[np.float32])
    if TYPE_CHECKING:  # (not run: a KeyError)
        infos["legal_action"]  # type: ignore[typeddict-item]
