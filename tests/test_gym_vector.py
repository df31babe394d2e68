"""``gymnasium.make_vec`` of the registered ids (ofc_fast.env.gym.OfcVectorEnv, their
``vector_entry_point``): the tables of one C VectorEnv, checked against one-table
Gymnasium envs stepped one by one with the same actions (reset with ``s + i``, as
Gymnasium's ``"sync"`` mode resets its copies) and against the deals of ``Match``."""

from __future__ import annotations

import numpy as np
import pytest
from vector_infos import assert_same_infos

from ofc_fast.errors import GameError, MoveError, TableError
from ofc_fast.game import Match

gymnasium = pytest.importorskip("gymnasium", reason="pip install .[rl]")

from ofc_fast.env import GYM_IDS, env_seed  # noqa: E402  (registers the ids)

N = 3


def _singles(env_id: str, seed: int, **kwargs: object) -> list:
    """The reference: ``N`` one-table envs, env ``i`` reset with ``seed + i``."""
    singles = [gymnasium.make(env_id, **kwargs).unwrapped for _ in range(N)]
    for i, env in enumerate(singles):
        env.reset(seed=seed + i)
    return singles


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_make_vec_default_is_the_c_vector_env_playing_as_one_table_envs(
    env_id: str,
) -> None:
    """``gymnasium.make_vec(id, num_envs=n)`` was Gymnasium's ``SyncVectorEnv`` of n
    Python envs ("vector_entry_point" mode: gymnasium.error.Error, no vector entry
    point): now one C VectorEnv, same-step autoreset, whose table ``i`` plays what a
    one-table env reset with ``s + i`` plays, step for step (observations in the
    space, masks, rewards, terminations; illegal ids remapped the same way)."""
    envs = gymnasium.make_vec(env_id, num_envs=N)
    assert type(envs).__name__ == "OfcVectorEnv"
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, _ = envs.reset(seed=40)
    singles = _singles(env_id, 40)
    first = [
        Match(GYM_IDS[env_id], 2, seed=env_seed(40 + i, 0)).next_game().seed
        for i in range(N)
    ]
    assert [int(envs.unwrapped._venv.game_of(i).seed) for i in range(N)] == first
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(60):
        assert envs.observation_space.contains(obs)
        for i, env in enumerate(singles):
            want = env._obs()
            assert np.array_equal(obs["observation"][i], want["observation"])
            assert np.array_equal(obs["action_mask"][i], want["action_mask"])
        legal = [np.flatnonzero(m) for m in obs["action_mask"]]
        actions = np.array([int(rng.choice(ids)) for ids in legal])
        if step % 7 == 3:
            actions[1] = 500 + step  # illegal: remapped, as the one-table env does
        obs, rewards, terms, truncs, infos = envs.step(actions)
        for i, env in enumerate(singles):
            _, r, t, tr, info = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (r, t, tr)
            filed = infos["final_info"] if t else infos  # an ending step's: SameStep's
            assert info.get("illegal_action", False) == bool(
                filed.get("illegal_action", np.zeros(N, bool))[i]
            )
            if t:
                ends += 1
                final = infos["final_obs"][i]
                assert envs.single_observation_space.contains(final)
                assert not final["action_mask"].any() and infos["_final_obs"][i]
                assert np.array_equal(
                    infos["final_info"]["final_rewards"][i], info["final_rewards"]
                )
    assert ends > 0
    envs.close()


def test_make_vec_reset_without_a_seed_deals_on_as_the_one_table_env() -> None:
    """``reset()`` without a seed: the tables cut short mid-deal deal their next deal,
    the others keep their pending decision, as ``OfcEnv.reset()`` does."""
    envs = gymnasium.make_vec(
        "ofc_fast/OFC-v0", num_envs=N, vectorization_mode="vector_entry_point"
    )
    obs, _ = envs.reset(seed=[5, 6, 7])
    singles = _singles("ofc_fast/OFC-v0", 5)
    rng = np.random.default_rng(1)
    for _ in range(7):  # OFC: 5 decisions a deal, so some tables end one
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])
        obs, *_ = envs.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))
    obs, _ = envs.reset(options={})  # no reset_mask: as reset()
    for i, env in enumerate(singles):
        want, _ = env.reset()
        assert np.array_equal(obs["observation"][i], want["observation"])
    envs.step(obs["action_mask"].argmax(axis=1))  # every table mid-deal again
    for env in singles:
        env.step(int(env.action_masks().argmax()))
    mask = np.array([True, False, False])
    obs, _ = envs.reset(options={"reset_mask": mask})  # table 0 deals on
    assert np.array_equal(obs["observation"][0], singles[0].reset()[0]["observation"])
    obs, _ = envs.reset()  # then the others, still cut short; table 0 stays
    for i, env in enumerate(singles):
        want = env.reset()[0] if i else env._obs()
        assert np.array_equal(obs["observation"][i], want["observation"])


def test_make_vec_vector_env_refuses_bad_settings_and_actions() -> None:
    """Its settings are checked as OfcEnv's (GameError naming them); an action that
    is not an integer id is a MoveError and no table changes; with
    ``illegal="raise"`` an illegal id too."""
    with pytest.raises(GameError, match="has one agent"):
        gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, opponents="self")
    with pytest.raises(GameError, match=r"autoreset.*vectorization_mode='sync'"):
        gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, autoreset=False)
    sync = gymnasium.make_vec(
        "ofc_fast/Pineapple-v0", num_envs=2, autoreset=False, vectorization_mode="sync"
    )
    assert sync.reset(seed=1)[0]["observation"].shape == (2, 828)
    with pytest.raises(GameError, match="illegal"):
        gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, illegal="skip")
    envs = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, illegal="raise")
    obs, _ = envs.reset(seed=3)
    for bad in ([0.5, 1.5], [1, 2, 3], np.array([242, 0])):
        with pytest.raises(MoveError):
            envs.step(bad)
    again, _ = envs.reset()  # nothing was played: the same decisions
    assert np.array_equal(again["observation"], obs["observation"])
    with pytest.raises(TableError, match=r"seed \+ 1"):  # 2**64 for table 1
        envs.reset(seed=2**64 - 1)
    assert envs.np_random_seed == 3  # nothing changed
    assert np.array_equal(envs.reset()[0]["observation"], obs["observation"])
    envs.close()
    with pytest.raises(GameError):
        envs.step(np.zeros(2, np.int64))


def test_make_vec_vector_env_renders_each_table() -> None:
    """``render_mode="ansi"``: a tuple of each table's learner view, the text its
    one-table env renders."""
    envs = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N, render_mode="ansi")
    envs.reset(seed=1)
    singles = _singles("ofc_fast/Pineapple-v0", 1, render_mode="ansi")
    assert envs.render() == tuple(env.render() for env in singles)
    assert len(set(envs.render())) == N


def test_make_vec_vector_env_refuses_its_masks_before_reset_and_once_closed() -> None:
    """Before the first reset and after close() (twice: Gymnasium's idempotent
    close), ``action_masks()`` is the GameError its step and render give (were
    all-False masks, then the closed tables' old masks)."""
    envs = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N)
    with pytest.raises(GameError, match=r"^call reset\(\) before action_masks\(\)"):
        envs.unwrapped.action_masks()  # no deal yet (was N rows of no legal action)
    obs, _ = envs.reset(seed=0)
    masks = envs.unwrapped.action_masks()
    assert np.array_equal(masks, obs["action_mask"] != 0) and masks.any(axis=1).all()
    envs.close()
    envs.close()
    with pytest.raises(GameError, match=r"^action_masks\(\) on a closed VectorEnv"):
        envs.unwrapped.action_masks()
    with pytest.raises(GameError, match=r"^step\(\) on a closed VectorEnv"):
        envs.step(masks.argmax(axis=1))


def test_make_vec_without_a_seed_deals_different_hands() -> None:
    """No seed (neither reset's nor made with): every table, and every env made so,
    plays a match of its own, as the "sync" mode's copies do; ``seed=s`` when made
    is the first reset's seed."""
    a, b = (gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N) for _ in range(2))
    rows = [r.tobytes() for env in (a, b) for r in env.reset()[0]["observation"]]
    assert len(set(rows)) == 2 * N
    made = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N, seed=9)
    seeded = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N)
    want = seeded.reset(seed=9)[0]["observation"]
    assert np.array_equal(made.reset()[0]["observation"], want)


def test_make_vec_vector_env_works_under_gymnasiums_same_step_vector_wrappers() -> None:
    """``metadata["autoreset_mode"]`` is Gymnasium's ``AutoresetMode.SAME_STEP`` (an
    enum member, what the ``gymnasium.wrappers.vector`` wrappers read): under
    ``RecordEpisodeStatistics`` each deal's ``episode`` return and length are the
    sums of the rewards and steps a table returned since its last deal ended, the
    terminating step's reward included (the same-step reading: a next-step one would
    give the reset step to the next deal), counted here by hand."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N))
    assert type(envs.unwrapped.metadata["autoreset_mode"]) is gymnasium.vector.AutoresetMode
    obs, _ = envs.reset(seed=11)
    ret, length, reported = np.zeros(N), np.zeros(N, int), 0
    rng = np.random.default_rng(2)
    for _ in range(24):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, rewards, terms, truncs, infos = envs.step(np.array(actions))
        ret, length = ret + rewards, length + 1
        assert ("episode" in infos) == bool(terms.any())
        for i in np.flatnonzero(terms):
            assert infos["_episode"][i]
            episode = infos["episode"]
            assert (episode["r"][i], episode["l"][i]) == (ret[i], length[i])
            ret[i], length[i], reported = 0.0, 0, reported + 1
    assert reported >= N


def test_docs_name_the_vector_wrappers_that_refuse_the_same_step_mode() -> None:
    """docs/environments.md said that the ``gymnasium.wrappers.vector`` wrappers
    "work over either" mode; Gymnasium's observation wrappers refuse the default
    mode's same-step autoreset (ValueError), and work over the "sync" copies.  The
    docs now say so, and which ones work; both halves are checked here."""
    from gymnasium.wrappers import vector as wrappers
    from scripts import checkout_file

    doc = checkout_file("docs/environments.md").read_text(encoding="utf-8")
    assert "work over either." not in doc and "refuse the default" in doc
    refused = ("FlattenObservation", "NormalizeObservation")
    for name in (*refused, "RecordEpisodeStatistics", "NormalizeReward", "DictInfoToList"):
        assert f"`vector.{name}`" in doc, name
    for name in refused:
        with pytest.raises(ValueError, match="NEXT_STEP or DISABLED"):
            getattr(wrappers, name)(gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N))
    sync = gymnasium.make_vec(
        "ofc_fast/Pineapple-v0", num_envs=N, vectorization_mode="sync"
    )
    flat, _ = wrappers.FlattenObservation(sync).reset(seed=0)
    assert flat.shape == (N, 828 + 243)
    for name in ("RecordEpisodeStatistics", "NormalizeReward", "DictInfoToList"):
        envs = getattr(wrappers, name)(
            gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N)
        )
        obs, _ = envs.reset(seed=0)
        envs.step(obs["action_mask"].argmax(axis=1))


def _compare_steps(vec, sync, obs, rng, steps: int) -> dict:
    """Step ``vec`` and ``sync`` with the same random legal actions; every output
    equal (the cut deals' ``final_obs`` and every seat's points at the ends too).  Returns the last
    observation and counts of the ends seen."""
    seen = {"term": 0, "trunc": 0, "both": 0}
    for _ in range(steps):
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        want = sync.step(actions)
        for key in ("observation", "action_mask"):
            assert np.array_equal(obs[key], want[0][key])
        for got, ref in zip((rewards, terms, truncs), want[1:4]):
            assert np.array_equal(got, ref)
        ended = terms | truncs
        assert np.array_equal(infos.get("_final_obs", np.zeros(N, bool)), ended)
        for i in np.flatnonzero(truncs & ~terms):  # the cut deal's pending decision
            for key in ("observation", "action_mask"):
                assert np.array_equal(
                    infos["final_obs"][i][key], want[4]["final_obs"][i][key]
                )
        for i in np.flatnonzero(terms):  # (the copies': the next deal's, already dealt)
            assert not infos["final_obs"][i]["action_mask"].any()
            assert np.array_equal(
                infos["final_info"]["final_rewards"][i],
                want[4]["final_info"]["final_rewards"][i],
            )
        seen["term"] += int((terms & ~truncs).sum())
        seen["trunc"] += int((truncs & ~terms).sum())
        seen["both"] += int((terms & truncs).sum())
    seen["obs"] = obs
    return seen


@pytest.mark.parametrize("limit", [1, 3, 5])
def test_make_vec_max_episode_steps_truncates_as_time_limited_copies(limit: int) -> None:
    """``make_vec(id, num_envs=n, max_episode_steps=k)`` was a bare TypeError from
    OfcVectorEnv (Gymnasium passes it to the vector entry point; the "sync" copies
    took it as a TimeLimit): each table is truncated at its k-th step since its last
    reset (``truncated`` True, with ``terminated`` too when the deal ends there: Pineapple's
    fifth) and
    dealt its next deal in the same step, the cut deal's view in ``final_obs``;
    checked step by step against the "sync" mode's TimeLimit copies under Gymnasium's
    same-step autoreset, resets with and without a ``reset_mask`` included."""
    same = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
    vec = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N, max_episode_steps=limit)
    sync = gymnasium.make_vec(
        "ofc_fast/Pineapple-v0",
        num_envs=N,
        max_episode_steps=limit,
        vectorization_mode="sync",
        vector_kwargs=same,
    )
    assert type(vec).__name__ == "OfcVectorEnv" and vec.max_episode_steps == limit
    obs, _ = vec.reset(seed=21)
    assert np.array_equal(obs["observation"], sync.reset(seed=21)[0]["observation"])
    rng = np.random.default_rng(limit)
    seen = _compare_steps(vec, sync, obs, rng, 13)
    mask = np.array([True, False, True])
    obs, _ = vec.reset(options={"reset_mask": mask})  # their step counts restart
    want, _ = sync.reset(options={"reset_mask": mask.copy()})
    assert np.array_equal(obs["observation"], want["observation"])
    more = _compare_steps(vec, sync, obs, rng, 4)
    obs, _ = vec.reset()  # every count restarts
    assert np.array_equal(obs["observation"], sync.reset()[0]["observation"])
    last = _compare_steps(vec, sync, obs, rng, 8)
    total = {k: seen[k] + more[k] + last[k] for k in ("term", "trunc", "both")}
    assert total["trunc"] > 0 if limit < 5 else total["trunc"] == 0
    assert total["both"] > 0 if limit == 5 else total["term"] == 0


def test_make_vec_max_episode_steps_is_checked() -> None:
    """``max_episode_steps``: a positive int (a NumPy int too), None or -1 (no limit,
    as ``gymnasium.make`` reads -1); anything else is the env's GameError naming it,
    not TimeLimit's bare TypeError or AssertionError."""
    for bad in (0, -2, 2.5, True, "3"):
        with pytest.raises(GameError, match="max_episode_steps must be"):
            gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, max_episode_steps=bad)
    for none in (None, -1):
        envs = gymnasium.make_vec(
            "ofc_fast/Pineapple-v0", num_envs=2, max_episode_steps=none
        )
        assert envs.max_episode_steps is None
    envs = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=2, max_episode_steps=2**70)
    obs, _ = envs.reset(seed=0)
    assert not envs.step(obs["action_mask"].argmax(axis=1))[3].any()
    envs = gymnasium.make_vec(
        "ofc_fast/Pineapple-v0", num_envs=2, max_episode_steps=np.int64(1)
    )
    obs, _ = envs.reset(seed=0)
    assert envs.step(obs["action_mask"].argmax(axis=1))[3].all()


def test_make_vec_reset_mask_keeps_a_deal_not_begun_as_the_one_table_env() -> None:
    """``reset(options={"reset_mask": m})`` at a table whose deal just ended (its
    next deal dealt, no step played in it) keeps that deal, as ``OfcEnv.reset()``
    does, the "sync" copies' reset_mask too (before: it was abandoned for the one
    after, the button moved on and a Fantasyland it carried lost); a table
    mid-deal deals on."""
    envs = gymnasium.make_vec("ofc_fast/OFC-v0", num_envs=N)
    obs, _ = envs.reset(seed=[3, 4, 5])
    singles = [gymnasium.make("ofc_fast/OFC-v0").unwrapped for _ in range(N)]
    for env, s in zip(singles, (3, 4, 5)):
        env.reset(seed=s)
    for _ in range(12):  # OFC: every table ends its first deal at its 9th step
        actions = obs["action_mask"].argmax(axis=1)
        obs, _, terms, *_ = envs.step(actions)
        for env, a in zip(singles, actions):
            env.step(int(a))
        if terms.all():
            break
    assert terms.all()  # every table at its second deal's first decision
    obs, _ = envs.reset(options={"reset_mask": np.array([True, True, False])})
    for i, env in enumerate(singles):
        want = env.reset()[0] if i < 2 else env._obs()
        assert np.array_equal(obs["observation"][i], want["observation"])
    envs.step(obs["action_mask"].argmax(axis=1))
    for env in singles:
        env.step(int(env.action_masks().argmax()))
    obs, _ = envs.reset(options={"reset_mask": np.array([False, True, True])})
    for i, env in enumerate(singles):
        want = env.reset()[0] if i else env._obs()
        assert np.array_equal(obs["observation"][i], want["observation"])


@pytest.mark.parametrize(
    ("dtype", "illegal"),
    [
        (np.int8, -1),
        (np.int16, -1),
        (np.int32, -1),
        (np.uint16, 432),
        (np.uint64, 2**64 - 64),
    ],
)
def test_make_vec_remaps_illegal_ids_of_any_integer_dtype(
    dtype: type, illegal: int
) -> None:
    """An illegal id in an int8 action array, remapped to a legal id past 127, was
    NumPy's OverflowError (the remapped ids were written into the caller's dtype);
    now every integer dtype plays what the one-table env plays for the same ids (a
    uint64 id past int64's range too: remapped from its own value)."""
    envs = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=N)
    obs, _ = envs.reset(seed=4)
    singles = _singles("ofc_fast/Pineapple-v0", 4)
    ids = np.array([illegal, 127, 3], dtype)
    legal = np.flatnonzero(obs["action_mask"][0])
    assert legal[illegal % len(legal)] > 127  # the remapped id needs more than int8
    obs, rewards, *_, infos = envs.step(ids)
    assert infos["illegal_action"][0]
    for i, env in enumerate(singles):
        want, r, *_ = env.step(int(ids[i]))
        assert np.array_equal(obs["observation"][i], want["observation"])
        assert rewards[i] == r


@pytest.mark.parametrize("limit", [None, 4])
def test_make_vec_infos_are_the_same_step_sync_copies_key_by_key(limit: int | None) -> None:
    """``infos`` of make_vec's OfcVectorEnv are those of Gymnasium's SyncVectorEnv in
    its same-step autoreset mode over one-table envs (``autoreset=False``: the step
    that ends a deal returns its end, as ``final_obs`` here), key by key: the
    ``illegal_action`` of a table whose deal ended (or was cut by
    ``max_episode_steps``) in that step is under ``infos["final_info"]``, as every
    info of an ending step (before: at the top level of ``infos``)."""
    env_id = "ofc_fast/Pineapple-v0"
    ref = gymnasium.make_vec(
        env_id,
        N,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
        autoreset=False,
        max_episode_steps=limit,
    )
    envs = gymnasium.make_vec(env_id, N, max_episode_steps=limit)
    want_obs, want = ref.reset(seed=10)
    obs, infos = envs.reset(seed=10)
    assert_same_infos(want, infos, "reset")
    rng = np.random.default_rng(1)
    ended_illegal = 0
    for step in range(150):
        legal = [np.flatnonzero(m) for m in want_obs["action_mask"]]
        actions = np.array([int(rng.choice(ids)) for ids in legal])
        actions[rng.random(N) < 0.3] = 300 + step  # illegal: remapped
        want_obs, *want_rest, want = ref.step(actions)
        obs, *rest, infos = envs.step(actions)
        assert_same_infos(want_obs, obs, f"step {step} obs")
        for w, g in zip(want_rest, rest):
            assert_same_infos(w, g, f"step {step}")
        assert_same_infos(want, infos, f"step {step} infos")
        ended_illegal += "illegal_action" in want.get("final_info", {})
    assert ended_illegal > 0  # the case in question was met
    ref.close()
    envs.close()
