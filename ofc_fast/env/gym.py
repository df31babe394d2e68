"""A Gymnasium environment: one table, the agent one seat, the others played inside C
(``opponents="random"``) or by a bot (``"heuristic"``, slower).

>>> import gymnasium
>>> import ofc_fast.env
>>> env = gymnasium.make("ofc_fast/Pineapple-v0", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), obs["observation"].shape, int(obs["action_mask"].sum())
(['action_mask', 'observation'], (828,), 232)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

An episode is one deal; the match goes on between episodes (button, Fantasyland):
:meth:`OfcEnv.reset` without a seed continues it (a deal cut short by a truncation is
abandoned for the next: it earns no Fantasyland, the button moves on), with a seed
starts it again.  An env given no seed (neither
``reset(seed=)`` nor ``seed=`` when made) draws its match's seed at random, as
Gymnasium's envs do: its copies deal different hands.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .._native import lib, move_error
from ..errors import GameError, MoveError, built_repr, choice, quote
from ..game.observation import Observation
from ..rules import RuleSet
from ..table import check_seed
from ._arguments import takes_arguments
from ._rows import as_array, check_options, reset_tables
from ._seeds import seed_list
from ._single import check_render_mode, check_solver_sets, deal_on, single_table
from ._spaces import observation_box, set_vector_spaces
from ._stuck import whole_step
from ._vector import (
    ACTION_SPACE,
    VectorEnv,
    check_opponents,
    require_started,
)

__all__ = ["OfcEnv", "OfcVectorEnv"]

RENDER_MODES = ("ansi", "human")
"""The render modes of every env: ``"ansi"`` returns the text, ``"human"`` prints it
(Gymnasium's convention for text environments; the Gymnasium and PettingZoo envs
print it after each reset and step too: :func:`render_human`)."""


def render_text(render_mode: str | None, text: Callable[[], str]) -> str | None:
    """What ``render()`` of an env made with ``render_mode`` (checked by
    :func:`check_render_mode`) does: ``"ansi"`` returns ``text()``, ``"human"`` prints
    it to stdout and returns None, None renders nothing (``text`` is not called)."""
    if render_mode is None:
        return None
    out = text()
    if render_mode == "human":
        print(out)
        return None
    return out


def render_human(env: Any) -> None:
    """Gymnasium's and PettingZoo's ``render_mode="human"``: the env renders itself
    after each reset and step (``env.render()`` prints its text); other modes
    render only when asked."""
    if env.render_mode == "human":
        env.render()


def observation_space(obs_type: str = "bytes") -> spaces.Dict:
    """The observation space: the observation (``obs_type`` ``"bytes"``: the uint8
    encoding; ``"features"``: the float32 features in [0, 1]) and the action mask
    (int8, as PettingZoo's classic games have it).

    >>> observation_space("features")["observation"].shape
    (696,)
    """
    mask = spaces.Box(0, 1, (ACTION_SPACE,), np.int8)
    return spaces.Dict({"observation": observation_box(obs_type), "action_mask": mask})


def remap_action(venv: VectorEnv, env: int, action: int) -> tuple[int, bool]:
    """What ``illegal="remap"`` plays for ``action`` at table ``env``: the action
    itself when it is legal (or the table has no legal action: the step then refuses
    it), else legal action number ``action % count`` of the increasing legal ids; and
    whether it was remapped."""
    count = int(venv.legal_counts[env])
    if count == 0 or (0 <= action < ACTION_SPACE and venv.action_masks[env, action]):
        return action, False
    return int(venv.legal_actions[env, action % count]), True


def add_flags(infos: dict[str, Any], key: str, flags: NDArray[Any]) -> None:
    """Add ``flags`` (one boolean per table) to a vector env's ``infos`` as ``key``
    with its mask ``_key``, both the tables whose one-table info holds ``key`` (True),
    as Gymnasium's vector envs batch them; nothing when no table does."""
    if flags.any():
        infos[key], infos[f"_{key}"] = flags.copy(), flags.copy()


def agent_opponents(opponents: str, what: str) -> str:
    """``opponents`` checked (:func:`check_opponents`) for an env of one agent seat
    (``what``: its name in errors): ``"self"`` is a GameError (self-play needs every
    seat an agent)."""
    opponents = check_opponents(opponents)  # ("Self" is self)
    if opponents == "self":
        raise GameError(
            f"{what} has one agent: opponents 'random' or a bot name (self-play: "
            "VectorEnv or the PettingZoo env)"
        )
    return opponents


def render_tables(render_mode: str | None, venv: VectorEnv) -> tuple[str, ...] | None:
    """What ``render()`` of an env of many tables does (:func:`render_text` for each
    table's learner view): a tuple of texts for ``"ansi"``, else None."""
    texts = [
        render_text(render_mode, partial(table_text, venv, i)) for i in range(venv.num_envs)
    ]
    return tuple(t for t in texts if t is not None) if render_mode == "ansi" else None


def table_text(venv: VectorEnv, table: int) -> str:
    """Table ``table``'s learner view as text; GameError before a reset."""
    require_started(venv, "render")
    return str(venv.observation(table, venv.learner))


def episode_limit(value: object) -> int | None:
    """``max_episode_steps`` checked: a positive int (a NumPy int too), or None or -1
    for no limit (``gymnasium.make`` reads -1 so); else GameError naming it."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or value == 0
        or value < -1
    ):
        raise GameError(
            "max_episode_steps must be a positive int (each table's steps until a "
            f"truncation, as Gymnasium's TimeLimit) or None, got {quote(value)}"
        )
    return None if value == -1 else int(value)


def action_id(action: Any) -> int:
    """An action as an int (MoveError for anything else)."""
    if isinstance(action, (bool, np.bool_)) or action is None:
        raise MoveError(
            f"an action is an int 0..{ACTION_SPACE - 1}, got {action!r}", "bad_action"
        )
    try:
        return operator.index(action)
    except TypeError:
        raise MoveError(
            f"an action is an int 0..{ACTION_SPACE - 1}, got {type(action).__name__}",
            "bad_action",
        ) from None


class OfcEnv(gymnasium.Env):
    """One table of ``rules`` for ``players`` seats; the agent is seat ``learner``.

    Observations are ``{"observation": uint8[828], "action_mask": int8[243]}`` (the
    encoding of :mod:`ofc_fast.encoding`; with ``obs_type="features"`` the observation
    is float32[696], the features of ``csrc/include/ofc_features.h``), actions
    ``Discrete(243)`` action ids; :meth:`action_masks` gives the mask as booleans
    (sb3-contrib's MaskablePPO reads it).  The
    reward is the agent's net points when its deal ends (``terminated``); Fantasyland
    sets are played by the exact solver.  ``illegal``: what an action outside the mask
    does: ``"remap"`` (default; it plays legal action number ``action % count`` of the
    increasing legal ids, and ``info["illegal_action"]`` is True) or ``"raise"``
    (MoveError, nothing changes).  The text options (``illegal``, ``opponents``,
    ``obs_type``, ``render_mode``, ...) take any case.  Other keyword arguments go
    to :class:`VectorEnv`.

    The next deal starts as soon as one ends: the observation returned with
    ``terminated`` is already the next deal's first decision, and :meth:`reset` without
    a seed returns it again (with a seed it starts the match again; in the middle of a
    deal, after a truncation, it abandons that deal and deals the next).  With
    ``autoreset=False`` the step that ends a deal returns the learner's view of its end
    (an empty mask; a further step is a MoveError) and :meth:`reset` returns the next
    deal's first decision.  Deals without a learner decision (it sits in Fantasyland)
    are skipped, their points added to the reward of the step that ended the deal
    before (with or without autoreset), at most 1,000 in a row: then GameError (rules
    that keep it in Fantasyland for good), and :meth:`reset` starts the match again.

    >>> env = OfcEnv("pineapple", opponents="random")
    >>> obs, info = env.reset(seed=1)
    >>> sorted(obs), int(env.action_masks().sum())  # the opening: 232 legal actions
    (['action_mask', 'observation'], 232)
    """

    # gymnasium.Env declares metadata an instance attribute: no ClassVar here
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    # also: the spelling single_table names, and what the env sets itself
    @takes_arguments(VectorEnv, also=("opponent", "num_envs"))
    def __init__(
        self,
        rules: RuleSet | str = "pineapple",
        players: int = 2,
        opponents: str = "random",
        render_mode: str | None = None,
        illegal: str = "remap",
        **kwargs: Any,
    ) -> None:
        check_solver_sets(kwargs, "the Gymnasium env")
        opponents = agent_opponents(opponents, "the Gymnasium env")
        self._venv = single_table(
            rules, players, "the Gymnasium env", kwargs, opponents=opponents
        )
        self.observation_space = observation_space(self._venv.obs_type)
        self.action_space = spaces.Discrete(ACTION_SPACE)
        self.illegal = choice(illegal, ("remap", "raise"), "illegal", "", GameError)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._mid_deal = False  # a step was played since the deal's first decision
        self._end_view: Observation | None = None  # autoreset=False: the ended deal

    @property
    def rules(self) -> RuleSet:
        """The table's rule set (a preset name given: its RuleSet): what
        :func:`ofc_fast.env.sb3.export_policy` records for a model trained on it."""
        return self._venv.rules

    @built_repr
    def __repr__(self) -> str:
        v = self._venv
        return (
            f"<{type(self).__name__} {v.rules.name}, seat {v.learner} of {v.players} "
            f"players, opponents {v.opponents}>"
        )

    def _obs(self) -> dict[str, NDArray[Any]]:
        v = self._venv
        return {
            "observation": v.observations[0].copy(),
            "action_mask": v.action_masks[0].view(np.int8).copy(),
        }

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the pending decision: ``ACTION_SPACE`` booleans (a
        copy; sb3-contrib's convention): none after a deal's end without autoreset;
        GameError before :meth:`reset`, as :meth:`render`."""
        require_started(self._venv, "action_masks")
        return np.array(self._venv.action_masks[0], np.bool_) & (self._end_view is None)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Deal a new hand and play the opponents up to the learner's first decision:
        with a seed the match starts again; without one, after a deal ended, the next
        deal's first decision (already dealt) is returned again, and in the middle of a
        deal (a truncation) that deal is abandoned for the next one.  ``seed``: an int
        0..2**64-1 (a NumPy int too), else TableError and nothing changes; ``options``
        None or ``{}`` (it takes none), else GameError and nothing changes."""
        check_options(options)
        seed = None if seed is None else check_seed(seed)
        super().reset(seed=seed)
        v = self._venv
        with whole_step(v):  # (a Ctrl-C before the flags are cleared: reset() again)
            if seed is not None or not v.started:
                v.reset(seed=seed)
            elif self._mid_deal or v.seats[0] < 0:  # cut short, or ended (no autoreset)
                deal_on(v)  # (up to a learner decision)
            self._mid_deal = False
            self._end_view = None
        render_human(self)
        return self._obs(), {}

    def step(
        self, action: Any
    ) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents' until the learner acts again."""
        v = self._venv
        a = action_id(action)
        if self._end_view is not None:  # autoreset=False: the next deal waits for reset
            raise move_error(int(lib.OFC_E_GAME_OVER), "env 0 (autoreset is off: reset())")
        info: dict[str, Any] = {}
        if self.illegal == "remap":
            a, remapped = remap_action(v, 0, a)
            if remapped:
                info["illegal_action"] = True
        with whole_step(v):  # (a Ctrl-C before the mid-deal flag is set: reset())
            v.step_first(a)
            done = bool(v.terminations[0])
            self._mid_deal = not done
            obs, reward = self._obs(), float(v.rewards[0])
            if done:
                info["final_rewards"] = v.final_rewards[0, : v.players].copy()
            if done and v.seats[0] < 0:  # autoreset=False: its end's view is returned
                # deal on now, so that the deals the learner sits out (Fantasyland)
                # add their points here, as with autoreset; reset() returns the decision
                self._end_view = v.observation(0, v.learner)
                skipped = deal_on(v)
                reward += float(skipped[v.learner])
                info["final_rewards"] += skipped  # as autoreset's sum over the deals
        render_human(self)
        return obs, reward, done, False, info

    def render(self) -> str | None:
        """The learner's observation as text (``render_mode="ansi"``; ``"human"``
        prints it), else ``None``; GameError before :meth:`reset`."""
        return render_text(self.render_mode, self._view_text)

    def _view_text(self) -> str:
        require_started(self._venv, "render")
        view = self._end_view
        return str(
            view if view is not None else self._venv.observation(0, self._venv.learner)
        )


class OfcVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` tables of :class:`OfcEnv` as one ``gymnasium.vector.VectorEnv``
    stepped in one C call: what ``gymnasium.make_vec(id, num_envs=n)`` makes for the
    registered ids (their ``vector_entry_point``, Gymnasium's default mode; ``"sync"``
    and ``"async"`` make copies of :class:`OfcEnv` instead).  The arguments are
    :class:`OfcEnv`'s (``autoreset`` aside): the same spaces (batched), the same
    ``illegal`` rule per table (``infos["illegal_action"]`` marks the remapped ones;
    ``infos["final_info"]["illegal_action"]`` at a table whose deal ended or was cut
    in that step, where Gymnasium's ``SameStep`` mode files an ending step's infos),
    and ``reset(seed=s)`` gives table ``i`` the match of an :class:`OfcEnv` reset with
    ``s + i``, as the copies of the ``"sync"`` mode (a list: table ``i`` ``seed[i]``;
    ``seed=s`` when made: the first reset's); :meth:`reset` without a seed deals the
    tables cut short mid-deal their next deal.  Autoreset is same-step
    (``metadata["autoreset_mode"]``): the observation returned with a termination is
    already the next deal's first decision, the end's is ``infos["final_obs"]`` (with
    ``infos["final_info"]["final_rewards"]``, every seat's points), as Gymnasium's
    ``SameStep`` mode has them.  ``max_episode_steps`` (``make_vec`` passes it on):
    Gymnasium's ``TimeLimit`` per table, the step that is a table's ``k``-th since its
    last reset or deal's end is ``truncated`` (``terminated`` too when the deal ends
    there) and, mid-deal, that table deals its next deal in the same step, the cut
    deal's view in ``infos["final_obs"]``, as the ``"sync"`` mode's copies do under
    same-step autoreset; None (or -1) for no limit.

    >>> import gymnasium
    >>> envs = gymnasium.make_vec("ofc_fast/Pineapple-v0", num_envs=4)
    >>> obs, infos = envs.reset(seed=0)
    >>> obs["observation"].shape, obs["action_mask"].shape
    ((4, 828), (4, 243))
    >>> obs, rewards, terminations, truncations, infos = envs.step(
    ...     obs["action_mask"].argmax(axis=1))
    """

    metadata = {  # noqa: RUF012
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    @takes_arguments(VectorEnv, also=("opponent", "autoreset", "final_obs"))
    def __init__(
        self,
        rules: RuleSet | str = "pineapple",
        num_envs: int = 1,
        players: int = 2,
        opponents: str = "random",
        render_mode: str | None = None,
        illegal: str = "remap",
        max_episode_steps: int | None = None,
        **kwargs: Any,
    ) -> None:
        what = "the Gymnasium vector env"
        self.max_episode_steps = episode_limit(max_episode_steps)
        check_solver_sets(kwargs, what)
        off = kwargs.get("autoreset", True)
        if isinstance(off, (bool, np.bool_)) and not off:  # (other values: refused below)
            raise GameError(
                f"{what} autoresets (same-step); for autoreset="
                f"{kwargs['autoreset']!r} make copies of the one-table env: "
                "gymnasium.make_vec(..., vectorization_mode='sync')"
            )
        seed = kwargs.pop("seed", None)
        self._first_seed = None if seed is None else check_seed(seed)
        self._venv = v = single_table(
            rules,
            players,
            what,
            kwargs,
            opponents=agent_opponents(opponents, what),
            num_envs=num_envs,
            autoreset=True,
            final_obs=True,
        )
        self.num_envs = v.num_envs
        set_vector_spaces(self, observation_space(v.obs_type), v.num_envs)
        self.illegal = choice(illegal, ("remap", "raise"), "illegal", "", GameError)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._mid_deal = np.zeros(v.num_envs, np.bool_)  # tables cut short by a reset
        self._steps = np.zeros(v.num_envs, np.int64)  # each table's, for the limit

    def _obs(self) -> dict[str, NDArray[Any]]:
        v = self._venv
        return {
            "observation": v.observations.copy(),
            "action_mask": v.action_masks.view(np.int8).copy(),
        }

    def action_masks(self) -> NDArray[np.bool_]:
        """Every table's legal actions: ``(num_envs, ACTION_SPACE)`` booleans (a copy);
        GameError before :meth:`reset` and once closed, as its steps."""
        require_started(self._venv, "action_masks")
        return np.array(self._venv.action_masks, np.bool_)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Deal every table its learner's next decision: ``seed`` an int ``s`` (table
        ``i`` then plays the match of an :class:`OfcEnv` reset with ``s + i``; every
        ``s + i`` 0..2**64-1, else TableError) or ``num_envs`` seeds (int or None);
        without one, the tables cut short mid-deal deal their next deal and the others
        keep their pending decision (the first reset: the seed given when made, else
        drawn at random).  ``options={"reset_mask": m}``: the tables ``m`` marks
        that are mid-deal abandon their deal for the next one (a deal not begun is
        kept, as :meth:`OfcEnv.reset` keeps it), the others are left as they are.
        The tables reset (all, or those the mask marks) count their steps to
        ``max_episode_steps`` from 0 again."""
        v = self._venv
        if seed is None and not v.started:
            seed = self._first_seed
        seeds = seed_list(seed, self.num_envs)
        s = None  # an int seed: np_random's, once the tables took it
        if seeds is None and seed is not None:
            s = check_seed(seed.item() if isinstance(seed, np.ndarray) else seed)
            seeds = [check_seed(s + i, f"seed + {i}") for i in range(self.num_envs)]
        with whole_step(v):  # (a Ctrl-C before the counts are cleared: reset() again)
            masked = reset_tables(v, self._mid_deal, seeds, options)  # (None: all)
            self._steps[slice(None) if masked is None else masked] = 0
        if s is not None:
            super().reset(seed=s)
        render_human(self)
        return self._obs(), {}

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, NDArray[Any]],
        NDArray[np.float64],
        NDArray[np.bool_],
        NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One learner decision per table (``num_envs`` integer action ids), then the
        opponents' decisions up to the learner's next one."""
        v = self._venv
        require_started(v, "step")
        a = as_array(actions)
        infos: dict[str, Any] = {}
        remapped = np.zeros(self.num_envs, np.bool_)
        if self.illegal == "remap" and a.shape == (self.num_envs,) and a.dtype.kind in "iu":
            ids = a
            a = ids.astype(np.int64)  # a copy that holds any legal id (not int8's)
            legal = (ids >= 0) & (ids < ACTION_SPACE)
            inside = np.flatnonzero(legal)
            legal[inside] = v.action_masks[inside, ids[inside]]
            for i in np.flatnonzero(~legal):  # (the legal ones: played as they are)
                a[i], remapped[i] = remap_action(v, int(i), int(ids[i]))
        with whole_step(v):  # (a Ctrl-C before the steps are counted: reset())
            v.step(a)  # MoveError for anything else, and no table changes
            done = v.terminations.copy()
            rewards = v.rewards.astype(np.float64)
            cut = self._count_steps(done)
            self._mid_deal = ~done
            # a table's step infos, as SyncVectorEnv's SameStep mode files them: those
            # of a table whose deal ended or was cut under infos["final_info"]
            add_flags(infos, "illegal_action", remapped & ~(done | cut))
            if cut.any() or done.any():
                self._final_infos(infos, done, cut, remapped)
            if (cut & ~done).any():  # as the copies' TimeLimit and same-step reset
                v.reset(options={"reset_mask": cut & ~done})
                self._mid_deal[cut] = False
        render_human(self)
        return self._obs(), rewards, done, cut, infos

    def _count_steps(self, done: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Count a step at every table (Gymnasium's ``TimeLimit``): the truncations,
        the tables at ``max_episode_steps``; a table ended (``done``) or truncated
        counts from 0 again."""
        self._steps += 1
        cut: NDArray[np.bool_] = np.zeros(self.num_envs, np.bool_)
        if self.max_episode_steps is not None:
            cut = self._steps >= self.max_episode_steps
        self._steps[done | cut] = 0
        return cut

    def _final_infos(
        self,
        infos: dict[str, Any],
        done: NDArray[Any],
        cut: NDArray[Any],
        remapped: NDArray[Any],
    ) -> None:
        """Add SameStep's ``final_obs`` and ``final_info`` of the tables whose deal
        ended (``done``: the learner's view of the end, every seat's points) or was
        cut (``cut``: the decision pending there) to ``infos``; ``final_info`` holds
        their step's ``illegal_action`` (``remapped``) too."""
        v = self._venv
        ended = done | cut
        final_obs = np.full(self.num_envs, None, object)
        for table in np.flatnonzero(cut & ~done):
            final_obs[table] = {
                "observation": v.observations[table].copy(),
                "action_mask": v.action_masks[table].view(np.int8).copy(),
            }
        tables = np.flatnonzero(done)
        for table, row in zip(tables, v.final_observations(tables)):
            final_obs[table] = {
                "observation": row,
                "action_mask": np.zeros(ACTION_SPACE, np.int8),
            }
        infos["final_obs"], infos["_final_obs"] = final_obs, ended
        infos["final_info"] = {}
        if done.any():
            infos["final_info"] = {
                "final_rewards": np.where(
                    done[:, None], v.final_rewards[:, : v.players], 0
                ),
                "_final_rewards": done.copy(),
            }
        add_flags(infos["final_info"], "illegal_action", remapped & ended)
        infos["_final_info"] = ended.copy()

    def render(self) -> tuple[str, ...] | None:
        """Each table's learner view as text, a tuple (``render_mode="ansi"``;
        ``"human"`` prints them), else None; GameError before :meth:`reset`."""
        return render_tables(self.render_mode, self._venv)

    def close_extras(self, **kwargs: Any) -> None:
        """What Gymnasium's ``close()`` (idempotent) calls: close the tables
        (:meth:`VectorEnv.close`; their later calls are a GameError)."""
        self._venv.close()
