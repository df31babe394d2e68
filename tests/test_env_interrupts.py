"""A Ctrl-C (KeyboardInterrupt) landing in an RL adapter's step after the C step it
makes and before its own bookkeeping (step counts, mid-deal flags, the agent to
act, episode sums) is written: the adapter then needs reset() (its steps refused
with GameError), as the VectorEnv it wraps, and never plays on a step behind."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ofc_fast.env import VectorEnv
from ofc_fast.errors import GameError

gymnasium = pytest.importorskip("gymnasium", reason="pip install .[rl]")

from ofc_fast.env.gym import OfcEnv, OfcVectorEnv  # noqa: E402


def _then_ctrl_c(monkeypatch: pytest.MonkeyPatch, venv: VectorEnv, name: str) -> None:
    """Make ``venv.<name>`` do its work, then raise KeyboardInterrupt (a Ctrl-C
    landing on the adapter's next bytecode), once."""
    real = getattr(venv, name)

    def cut(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(venv, name, real)
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(venv, name, cut)


def _first_legal(mask: np.ndarray) -> Any:
    return np.argmax(np.asarray(mask, np.bool_), axis=-1)


def test_ctrl_c_after_the_vector_step_leaves_no_step_count_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``OfcVectorEnv.step`` interrupted after its tables stepped, before
    it counted the step, played on with every table's count a step behind: the
    ``max_episode_steps`` truncation came a step late.  Now the env needs reset()
    (GameError until then), whose tables truncate at the limit counted from it."""
    env = OfcVectorEnv("pineapple", num_envs=2, seed=4, max_episode_steps=3)
    obs, _ = env.reset()
    env.step(_first_legal(obs["action_mask"]))
    _then_ctrl_c(monkeypatch, env._venv, "step")
    with pytest.raises(KeyboardInterrupt):
        env.step(_first_legal(env.action_masks()))
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.step(_first_legal(env._venv.action_masks))
    obs, _ = env.reset()
    truncations = []
    for _ in range(3):  # the reference: the limit's 3 steps, counted here
        obs, _, done, cut, _ = env.step(_first_legal(obs["action_mask"]))
        assert not done.any()
        truncations.append(cut.tolist())
    assert truncations == [[False, False], [False, False], [True, True]]


def test_ctrl_c_after_the_one_table_step_leaves_no_mid_deal_flag_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``OfcEnv.step`` interrupted after the deal's first step, before
    it marked the deal begun: a seedless reset() then returned that deal's next
    decision as if it were a new deal's first.  Now the env needs reset()
    (GameError until then), which starts its match again from its seed (as a
    one-table env made and reset with that seed: the reference)."""
    env = OfcEnv("pineapple", seed=9)
    obs, _ = env.reset(seed=9)
    _then_ctrl_c(monkeypatch, env._venv, "step_first")
    with pytest.raises(KeyboardInterrupt):
        env.step(int(_first_legal(obs["action_mask"])))
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.step(int(_first_legal(env._venv.action_masks[0])))
    again, _ = env.reset()
    fresh, _ = OfcEnv("pineapple").reset(seed=9)
    assert np.array_equal(again["observation"], fresh["observation"])
    assert np.array_equal(again["action_mask"], fresh["action_mask"])


def test_ctrl_c_after_the_pettingzoo_step_does_not_play_for_the_wrong_agent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: the PettingZoo env's step interrupted after its table stepped,
    before it selected the next agent: the next step, made for the agent still
    selected, was played for the seat now to act.  Now the env needs reset()."""
    pytest.importorskip("pettingzoo", reason="pip install .[rl]")
    from ofc_fast.env import pettingzoo_env

    aec = pettingzoo_env("pineapple", 2)
    aec.reset(seed=2)
    _then_ctrl_c(monkeypatch, aec._venv, "step_first")
    mask = aec.observe(aec.agent_selection)["action_mask"]
    with pytest.raises(KeyboardInterrupt):
        aec.step(int(_first_legal(mask)))
    with pytest.raises(GameError, match=r"reset\(\)"):
        aec.step(int(_first_legal(aec._venv.action_masks[0])))
    aec.reset()
    seat = int(aec._venv.seats[0])
    assert aec.agent_selection == aec.possible_agents[seat]


def test_ctrl_c_after_the_sb3_step_leaves_no_episode_length_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: SB3 ``VecEnv.step_wait`` interrupted after its tables stepped,
    before it added the step to the episodes' sums: the ``episode`` info's length
    ``l`` came out a step short.  Now the env needs reset() (GameError until then),
    after which each episode's length is the steps of its deal, counted here."""
    pytest.importorskip("stable_baselines3", reason="pip install .[rl]")
    from ofc_fast.env.sb3 import VecEnv

    env = VecEnv("pineapple", num_envs=1, seed=5)
    obs = env.reset()
    env.step(_first_legal(env.action_masks()))
    _then_ctrl_c(monkeypatch, env.tables, "step")
    with pytest.raises(KeyboardInterrupt):
        env.step(_first_legal(env.action_masks()))
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.step(_first_legal(env.tables.venv.action_masks))
    obs = env.reset()
    steps = 0
    while True:  # the reference: the learner's decisions of the deal, counted here
        obs, _, dones, infos = env.step(_first_legal(env.action_masks()))
        steps += 1
        if dones[0]:
            break
    assert infos[0]["episode"]["l"] == steps
    del obs


def test_ctrl_c_inside_a_vector_reset_leaves_it_needing_reset_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: a reset() interrupted after its tables dealt, before the adapter
    cleared its own flags, left ``OfcVectorEnv``'s step counts (the
    ``max_episode_steps`` truncation came early), ``OfcEnv``'s mid-deal flag (the
    next seedless reset skipped a deal) and the PettingZoo env's selected agent
    (the next step played for another seat) of the deal before.  Now each needs
    reset() again (its steps raise GameError until then)."""
    import ofc_fast.env.gym as gym_module

    vec = OfcVectorEnv("pineapple", num_envs=2, seed=4, max_episode_steps=3)
    obs, _ = vec.reset()
    for _ in range(2):
        obs, *_ = vec.step(_first_legal(obs["action_mask"]))
    real = gym_module.reset_tables

    def cut(*args: Any) -> Any:
        real(*args)
        raise KeyboardInterrupt

    monkeypatch.setattr(gym_module, "reset_tables", cut)
    with pytest.raises(KeyboardInterrupt):
        vec.reset()
    monkeypatch.setattr(gym_module, "reset_tables", real)
    with pytest.raises(GameError, match=r"reset\(\)"):
        vec.step(_first_legal(vec._venv.action_masks))


@pytest.mark.parametrize("adapter", ["OfcEnv", "pettingzoo"])
def test_ctrl_c_inside_a_one_table_reset_leaves_it_needing_reset_again(
    monkeypatch: pytest.MonkeyPatch, adapter: str
) -> None:
    """As above, for ``OfcEnv.reset`` (its mid-deal flag) and the PettingZoo env's
    reset (its selected agent), interrupted after the next deal was dealt."""
    if adapter == "OfcEnv":
        env: Any = OfcEnv("pineapple", seed=9)
    else:
        pytest.importorskip("pettingzoo", reason="pip install .[rl]")
        from ofc_fast.env import pettingzoo_env

        env = pettingzoo_env("pineapple", 2)
    env.reset(seed=9)
    env.step(int(_first_legal(env._venv.action_masks[0])))
    _then_ctrl_c(monkeypatch, env._venv, "reset")  # (its reset_mask deals on)
    with pytest.raises(KeyboardInterrupt):
        env.reset()
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.step(int(_first_legal(env._venv.action_masks[0])))


def test_ctrl_c_inside_an_sb3_reset_leaves_it_needing_reset_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: SB3 ``VecEnv.reset`` interrupted after its tables dealt, before
    it cleared the episodes' sums, played on with the episode before's return and
    length in the next ``episode`` info.  Now it needs reset() again."""
    pytest.importorskip("stable_baselines3", reason="pip install .[rl]")
    from ofc_fast.env.sb3 import VecEnv

    env = VecEnv("pineapple", num_envs=1, seed=5)
    env.reset()
    env.step(_first_legal(env.action_masks()))
    _then_ctrl_c(monkeypatch, env.tables, "reset")
    with pytest.raises(KeyboardInterrupt):
        env.reset()
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.step(_first_legal(env.tables.venv.action_masks))
