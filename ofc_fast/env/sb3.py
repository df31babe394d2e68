"""Trainer adapters over one :class:`~ofc_fast.env.VectorEnv`: a Stable-Baselines3
``VecEnv`` (:class:`VecEnv`, with the masks sb3-contrib's MaskablePPO reads) and a
Gymnasium vector env (:class:`GymVectorEnv`); hundreds of C tables in one process.
Needs the ``rl-train`` extra (``pip install 'ofc-fast[rl-train]'``).

>>> from sb3_contrib.common.maskable.utils import get_action_masks
>>> from ofc_fast.env.sb3 import VecEnv
>>> env = VecEnv("pineapple", num_envs=8, opponent="random", seed=0)
>>> obs = env.reset()
>>> obs.shape, get_action_masks(env).shape
((8, 696), (8, 243))
>>> obs, rewards, dones, infos = env.step(get_action_masks(env).argmax(axis=1))

Opponents: ``"random"`` (inside C: fastest), a registered bot name such as
``"heuristic"`` (in Python: slower), or a policy ``f(observations, masks) -> actions``
(:func:`frozen_policy` of a model: self-play against a frozen copy of the learner;
:meth:`VecEnv.set_opponent` swaps in a newer copy).  Rewards are the learner's points
(``shaping`` adds the potential-based shaping of ``VectorEnv``); an episode is one
deal, ``dones`` marks its end and the observation is then already the next deal's.
"""

from __future__ import annotations

import io
import json
import os
import weakref
import zipfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.type_aliases import GymEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from ..bots.policy import SB3_META, MlpPolicy, load_sb3
from ..errors import GameError, RulesError, quote
from ..files import atomic_write
from ..lazy import lazy_module
from ..learned.model import rules_hash, rules_mismatch
from ..rules import RuleSet, as_rules
from ..search import flag
from ..table import check_seed
from ._arguments import takes_arguments
from ._guard import check_open, require_started
from ._learner import LearnerTables, Observations, OpponentPolicy
from ._rows import RESET_OPTIONS, check_options, reset_mask
from ._single import check_render_mode
from ._spaces import observation_box, set_vector_spaces
from ._stuck import whole_step
from ._vector import ACTION_SPACE, FEATURE_SIZE, OBS_SIZE, VectorEnv, check_finite
from .gym import RENDER_MODES, render_human, render_tables

if TYPE_CHECKING:  # (the rl-train extra has it; load_ppo imports it when called)
    import sb3_contrib as _sb3_contrib
else:
    _sb3_contrib = lazy_module("sb3_contrib")

__all__ = ["GymVectorEnv", "VecEnv", "export_policy", "frozen_policy", "load_ppo"]

_RECORDED: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
"""The meta texts of the ``.zip`` each model :func:`load_ppo` read records, kept
beside the model, not in it: ``model.save`` writes none of them again."""


class _Adapter:
    """What both adapters over :class:`~ofc_fast.env._learner.LearnerTables` add."""

    tables: LearnerTables
    render_mode: str | None

    def _make_tables(
        self, args: Any, kwargs: dict[str, Any], render_mode: str | None
    ) -> LearnerTables:
        """The tables of ``args`` and ``kwargs``; ``render_mode``: None or one of the
        single env's modes (RenderModeError else), kept for :meth:`render`."""
        self.render_mode = check_render_mode(render_mode, RENDER_MODES)
        tables = LearnerTables(*args, **kwargs)
        _check_opponent(tables.policy, tables.venv)
        self.tables = tables
        return tables

    def render(self, mode: str | None = None) -> Any:
        """Each table's learner view as text, a tuple (``render_mode="ansi"``;
        ``"human"`` prints them), else None (``mode``: SB3's, unused: the mode is the
        one made with); GameError before a reset."""
        return render_tables(self.render_mode, self.tables.venv)

    def action_masks(self) -> NDArray[np.bool_]:
        """Every table's mask: ``(num_envs, ACTION_SPACE)`` booleans (a copy);
        GameError before a reset and once closed, as its steps
        (``env_method("action_masks")`` too)."""
        require_started(self.tables.venv, "action_masks")
        return np.array(self.tables.masks, np.bool_)

    def set_opponent(self, policy: OpponentPolicy) -> None:
        """Play the opponent seats with ``policy`` from now on (tables made with a
        policy opponent only; a :func:`frozen_policy` of a model that learns on
        other rules is a RulesError)."""
        _check_opponent(policy, self.tables.venv)
        self.tables.set_opponent(policy)


def _check_opponent(policy: object, venv: VectorEnv) -> None:
    """RulesError when ``policy`` is a :func:`frozen_policy` of a model that learns
    on rules that are not the tables' (:func:`~ofc_fast.learned.model.rules_mismatch`);
    GameError when it reads observations of another width than theirs (their
    ``obs_type``: else a BotError at the first deal it plays, the tables broken)."""
    rules = venv.rules
    if isinstance(policy, _FrozenPolicy):
        reads, width = policy.mlp.weights[0].shape[1], venv.observations.shape[1]
        if reads != width:
            raise GameError(
                f"opponent: a frozen policy of a model that reads {reads} inputs "
                f"cannot play tables of obs_type {venv.obs_type!r} ({width} a row)"
            )
    learned = policy.learned if isinstance(policy, _FrozenPolicy) else None
    why = None if learned is None else rules_mismatch(learned[1], rules)
    if learned is not None and why is not None:
        raise RulesError(
            f"opponent: a frozen policy of a model that learns on {learned[0]} "
            f"({why}) cannot play tables of {rules.name}"
        )


class VecEnv(_Adapter, _SB3VecEnv):
    """A ``stable_baselines3`` ``VecEnv`` of ``num_envs`` tables of ``rules``: the
    arguments of :class:`~ofc_fast.env._learner.LearnerTables` (``rules, num_envs,
    players, seed, opponent``, keywords ``obs_type="features"``, ``shaping``,
    ``learner`` and those of :class:`~ofc_fast.env.VectorEnv`); the opponent as in the
    module docstring.
    ``env_method("action_masks")`` (what sb3-contrib's ``get_action_masks`` calls)
    gives each table's mask; ``infos[i]["episode"]`` reports a finished deal
    (``r``: the learner's points, ``l``: its decisions) and
    ``infos[i]["terminal_observation"]`` is the learner's view of its end (SB3's
    contract: the observation returned is the next deal's).  ``reward_scale``
    multiplies the rewards the trainer sees (not ``r``).  Other keyword arguments go
    to :class:`~ofc_fast.env.VectorEnv` (``stay_value``, ...; Fantasyland sets are
    the solver's: a set has no action id; ``autoreset`` and ``final_obs`` are on).

    >>> env = VecEnv("pineapple", num_envs=2, opponent="random", reward_scale=0.5)
    >>> env.seed(3)  # table i deals from seed 3 + i at the next reset
    [3, 4]
    >>> env.reset().shape, env.env_method("action_masks")[1].shape
    ((2, 696), (243,))
    """

    SETTABLE = ("reward_scale",)
    """What :meth:`set_attr` sets (checked as when made); other attributes are refused."""

    @takes_arguments(LearnerTables)
    def __init__(
        self,
        *args: Any,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.reward_scale = reward_scale
        num_envs = self._make_tables(args, kwargs, render_mode).num_envs
        super().__init__(
            num_envs,
            observation_box(self.tables.venv.obs_type),
            spaces.Discrete(ACTION_SPACE),
        )
        self._actions = np.zeros(num_envs, np.int64)
        self._ret = np.zeros(num_envs, np.float64)
        self._len = np.zeros(num_envs, np.int64)
        self._started = False

    @property
    def reward_scale(self) -> float:
        """What the rewards the trainer sees are multiplied by (not ``r``)."""
        return self._reward_scale

    @reward_scale.setter
    def reward_scale(self, value: object) -> None:
        """GameError unless ``value`` is a finite number (when made, set, set_attr)."""
        self._reward_scale = check_finite(value, "reward_scale")

    # -- the VecEnv API
    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """SB3's: table ``i`` deals from ``seed + i`` at the next :meth:`reset` (None:
        drawn at random); ``seed`` an int with ``seed + num_envs - 1`` at most
        2**64-1, else TableError naming it; GameError while :meth:`set_options` holds
        a ``reset_mask`` for that reset (it takes no seed), nothing set."""
        if seed is not None:
            seed = check_seed(seed, "seed")
            check_seed(
                seed + self.num_envs - 1, f"seed + {self.num_envs - 1} (the last table's)"
            )
        if reset_mask(self._options[0], self.num_envs) is not None:
            raise GameError(
                "seed() with a reset_mask set for the next reset(): a reset_mask takes "
                "no seed (set_options(None) clears it)"
            )
        return super().seed(seed)

    RESET_OPTIONS = RESET_OPTIONS
    """The options :meth:`set_options` takes for the next :meth:`reset`."""

    def set_options(
        self, options: list[dict[str, Any]] | dict[str, Any] | None = None
    ) -> None:
        """SB3's: options for the next :meth:`reset` only (it clears them).
        ``{"reset_mask": m}`` (``num_envs`` booleans; it takes no seed: GameError
        before the first :meth:`reset` or with :meth:`seed` pending, as :meth:`seed`
        is while a mask is set): the tables ``m`` marks where the learner played a
        step of its deal abandon it for their match's next one (a deal not begun is
        kept, as :meth:`GymVectorEnv.reset` keeps it), the others keep their pending
        decision.
        Options are shared by every table: one dict, or SB3's list of ``num_envs``
        dicts all alike (a None entry: no options, ``{}``, as SB3's VecEnvs reset
        that env); None clears them.  Anything else (an option not in
        :attr:`RESET_OPTIONS` included) is a GameError, nothing set."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            per_table = list(options) if isinstance(options, (list, tuple)) else None
            if per_table is None or len(per_table) != self.num_envs:
                raise GameError(
                    f"options must be a dict, a list of {self.num_envs} dicts (one per "
                    f"table) or None, got {quote(options)}"
                )
            # a None entry: that env's reset takes no options (SB3's VecEnvs)
            per_table = [{} if o is None else o for o in per_table]
            options = per_table[0]
            for other in per_table:
                if not _same_options(other, options):
                    raise GameError(
                        "reset options are shared by every table: give one dict, or "
                        f"the same one for each, got {quote(per_table)}"
                    )
        check_options(options, self.RESET_OPTIONS)
        if reset_mask(options, self.num_envs) is not None:  # else: num_envs booleans
            self._check_mask_applies()
        super().set_options(options)

    def _check_mask_applies(self) -> None:
        """GameError unless the next :meth:`reset` can take a ``reset_mask``: it deals
        on started matches (a reset before), with no seed (none pending)."""
        check_open(self.tables.venv, "set_options()")
        if not self.tables.venv.started:
            raise GameError(
                "a reset_mask deals the next deals of started matches: it needs a "
                "reset() first (again after a step that failed)"
            )
        if any(s is not None for s in self._seeds):
            raise GameError(
                "a reset_mask takes no seed: seed() was called for the next reset() "
                "(reset() first, then set_options)"
            )

    def reset(self) -> Observations:
        """Deal every table the learner's next decision: after :meth:`seed` ``(s)``,
        table ``i``'s match starts from seed ``s + i`` (SB3's rule: the match a
        one-table adapter seeded ``s + i`` plays); else, as SB3's VecEnvs reset each
        env with no seed, it goes on (the first reset: the seed made with): a table
        where the learner played a step of its deal deals its match's next deal, one
        whose deal is not begun keeps it (no replay: :meth:`seed` again for that);
        after :meth:`set_options`, as they say.  The seeds and options are for this
        reset only: cleared, even when it raises."""
        seeds = list(self._seeds) if any(s is not None for s in self._seeds) else None
        options = self._options[0] or None
        try:
            with whole_step(self.tables.venv):  # (a Ctrl-C before the sums: reset())
                obs = self.tables.reset(seed=seeds, options=options)
                masked = reset_mask(options, self.num_envs)
                restarted = slice(None) if masked is None else masked
                self._ret[restarted] = 0
                self._len[restarted] = 0
                self._started = True
        finally:  # for this reset only, dealt or not: a failed one leaves none behind
            self._reset_seeds()
            self._reset_options()
        return obs.copy()  # type: ignore[no-any-return]  # (numpy: a union's copy() is Any)

    def step_async(self, actions: NDArray[Any]) -> None:
        """Keep the learner's actions (one integer id per table) for :meth:`step_wait`
        (which refuses anything else with MoveError)."""
        self._actions = np.array(actions)

    def step_wait(
        self,
    ) -> tuple[Observations, NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        """Play them; ``(observations, rewards, dones, infos)`` as SB3 wants them."""
        if not self._started:
            self.reset()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        with whole_step(self.tables.venv):  # (a Ctrl-C before the counts: reset())
            obs, rewards, dones = self.tables.step(self._actions)
            self._ret += rewards
            self._len += 1
            ended = np.flatnonzero(dones)
            for i, final in zip(ended, self.tables.final_observations(ended)):
                infos[i]["episode"] = {"r": float(self._ret[i]), "l": int(self._len[i])}
                infos[i]["terminal_observation"] = final
            self._ret[dones] = 0
            self._len[dones] = 0
        return obs.copy(), rewards * np.float32(self.reward_scale), dones.copy(), infos

    def close(self) -> None:
        """Close the tables (:meth:`LearnerTables.close`): idempotent, their later
        calls (:meth:`reset`, a step) are a GameError."""
        self.tables.close()

    def _indices(self, indices: Any) -> list[int]:
        """SB3's ``indices``: None (every table), a table's number or a sequence of
        them, each in ``-num_envs..num_envs-1`` as a list of the tables reads it
        (SB3's ``DummyVecEnv``); else GameError naming them (not the answer of a
        table that is not there, nor a bare IndexError)."""
        one = isinstance(indices, (int, np.integer)) and not isinstance(indices, bool)
        given = [indices] if one else indices
        try:
            idx: list[Any] = list(self._get_indices(given))
        except TypeError:  # (no sequence)
            idx = [indices]
        n = self.num_envs
        if not all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) and -n <= i < n
            for i in idx
        ):
            raise GameError(
                f"indices must be table numbers -{n}..{n - 1} (or None: every "
                f"table), got {quote(indices)}"
            )
        return [int(i) % n for i in idx]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The adapter's attribute, once per table asked for."""
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set one of :attr:`SETTABLE` (shared by every table: ``indices`` all of
        them), checked as when the adapter is made; else GameError, nothing set."""
        if attr_name not in self.SETTABLE:
            raise GameError(
                f"set_attr sets {', '.join(self.SETTABLE)} only, got {quote(attr_name)}"
            )
        if len(set(self._indices(indices))) != self.num_envs:
            raise GameError(f"{attr_name} is shared by every table: set it for all")
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives each table's row; other methods are the adapter's,
        called once and repeated per table."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No table is wrapped."""
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether the adapter has ``attr_name`` (``action_masks``: yes)."""
        return hasattr(self, attr_name)


class GymVectorEnv(_Adapter, gymnasium.vector.VectorEnv):
    """The same tables as a ``gymnasium.vector.VectorEnv`` (same-step autoreset):
    ``step`` returns ``(obs, rewards, terminations, truncations, infos)`` (float64
    rewards) with ``infos["action_mask"]`` (int8, as Gymnasium's ``sample(mask=)``
    takes it) and its mask ``_action_mask`` (as ``reset``); :meth:`action_masks`
    (booleans), :meth:`set_opponent` and the arguments as in :class:`VecEnv`.  As
    Gymnasium's ``SameStep`` mode documents, a step that ends a deal somewhere adds
    ``infos["final_obs"]`` (an object array: the learner's view of the deal's end
    where ``infos["_final_obs"]``, else None) and
    ``infos["final_info"]`` (the ended tables' infos: an empty ``action_mask``) with
    its mask ``infos["_final_info"]``: key by key what Gymnasium's ``SyncVectorEnv``
    in that mode gives over one-table envs whose step ends a deal with its end
    (``autoreset=False``) and whose info is ``{"action_mask": ...}``.

    >>> env = GymVectorEnv("pineapple", num_envs=4, opponent="random")
    >>> obs, infos = env.reset(seed=0)
    >>> obs, r, term, trunc, infos = env.step(infos["action_mask"].argmax(axis=1))
    >>> obs.shape, infos["action_mask"].dtype
    ((4, 696), dtype('int8'))
    >>> action = env.single_action_space.sample(mask=infos["action_mask"][0])
    """

    metadata = {  # noqa: RUF012
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    @takes_arguments(LearnerTables)
    def __init__(self, *args: Any, render_mode: str | None = None, **kwargs: Any) -> None:
        self.num_envs = num_envs = self._make_tables(args, kwargs, render_mode).num_envs
        set_vector_spaces(self, observation_box(self.tables.venv.obs_type), num_envs)

    def close_extras(self, **kwargs: Any) -> None:
        """What Gymnasium's ``close()`` (idempotent: ``closed`` then True) calls: close
        the tables (:meth:`LearnerTables.close`; their later calls are a GameError)."""
        self.tables.close()

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        """Deal every table the learner's next decision: with ``seed`` (an int, or a
        list of ``num_envs`` seeds, int or None, as Gymnasium's vector envs take:
        table ``i`` then plays the match a one-table env reset with ``seed[i]``
        plays, None one drawn at random) every match starts again from it; without
        one it goes on, as the one-table env's reset (the first reset: the seed made
        with): a table where the learner played a step of its deal deals its match's
        next deal, one whose deal is not begun keeps it (no replay);
        ``options={"reset_mask": m}`` (``num_envs`` booleans, no
        seed): the tables ``m`` marks where the learner played a step of its deal
        abandon it for the match's next one, a deal not begun is kept (as the
        one-table env's and ``make_vec``'s ``reset`` keep it: its button and
        Fantasyland), the others are left as they are.  An int ``seed`` seeds
        :attr:`np_random` too, as Gymnasium's ``VectorEnv.reset`` does."""
        obs = self.tables.reset(seed=seed, options=options)
        one = np.asarray(seed, object)  # an int (a NumPy one too), not a list
        if seed is not None and one.ndim == 0:  # Gymnasium's np_random takes it too
            super().reset(seed=int(one.item()))
        render_human(self)
        return obs.copy(), self._infos()

    def _infos(self) -> dict[str, Any]:
        """Every table's ``action_mask`` (int8, the dtype of Gymnasium's masks, as
        the one-table env's ``obs["action_mask"]``), with its mask ``_action_mask``
        (every table has one), as Gymnasium's vector envs batch a key of their envs'
        infos."""
        return {
            "action_mask": self.action_masks().view(np.int8),
            "_action_mask": np.ones(self.num_envs, np.bool_),
        }

    def step(
        self, actions: Any
    ) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """One learner decision per table (see :meth:`LearnerTables.step`)."""
        obs, rewards, dones = self.tables.step(actions)
        infos = self._infos()
        if dones.any():  # gymnasium.vector.SyncVectorEnv's keys in SameStep mode
            final_obs = np.full(self.num_envs, None, object)
            ended = np.flatnonzero(dones)
            for i, final in zip(ended, self.tables.final_observations(ended)):
                final_obs[i] = final
            infos["final_obs"], infos["_final_obs"] = final_obs, dones.copy()
            infos["final_info"] = {
                "action_mask": np.zeros_like(infos["action_mask"]),
                "_action_mask": dones.copy(),
            }
            infos["_final_info"] = dones.copy()
        render_human(self)
        return (
            obs.copy(),
            rewards.astype(np.float64),  # (Gymnasium's vector envs' dtype)
            dones.copy(),
            np.zeros(self.num_envs, np.bool_),
            infos,
        )


def _same_options(a: object, b: dict[str, Any]) -> bool:
    """Whether ``a`` is a dict of the options ``b`` holds (arrays compared by value)."""
    return (
        isinstance(a, dict)
        and a.keys() == b.keys()
        and all(np.array_equal(np.asarray(a[k]), np.asarray(b[k])) for k in b)
    )


def mlp_of(model: BaseAlgorithm, **meta: Any) -> MlpPolicy:
    """A MaskablePPO model's action network (an MLP on the flat observation) as a
    NumPy :class:`~ofc_fast.bots.policy.MlpPolicy` (a frozen copy); ``meta``:
    kept with it as text (``rules`` as their name and fingerprint; ``obs_type``:
    the one of the network's width, a given one that is not it a GameError).
    GameError for what is no such model (no ``policy.mlp_extractor.policy_net`` and
    ``policy.action_net``; a layer other than Linear, Tanh and ReLU)."""
    import torch

    policy = getattr(model, "policy", None)
    net = getattr(policy, "mlp_extractor", None)
    layers = [*getattr(net, "policy_net", ()), getattr(policy, "action_net", None)]
    if net is None or layers[-1] is None:
        raise GameError(f"not a MaskablePPO model with an MLP policy: {quote(model)}")
    params: list[NDArray[Any]] = []
    acts: list[str] = []
    for m in layers:
        if isinstance(m, torch.nn.Linear):
            params += [m.weight.detach().cpu().numpy(), m.bias.detach().cpu().numpy()]
            acts.append("linear")
        elif isinstance(m, (torch.nn.Tanh, torch.nn.ReLU)) and acts:
            acts[-1] = type(m).__name__.lower()
        else:
            raise GameError(
                f"cannot export a {type(m).__name__} layer (an MLP of Linear, Tanh "
                "and ReLU layers only)"
            )
    width = params[0].shape[1]
    obs_type = {FEATURE_SIZE: "features", OBS_SIZE: "bytes"}.get(width)
    given = meta.get("obs_type", obs_type)
    if obs_type is None or not (isinstance(given, str) and given == obs_type):
        raise GameError(
            f"the model reads {width} inputs: obs_type {obs_type or 'of no table'}"
            + ("" if "obs_type" not in meta else f", not {quote(meta['obs_type'])}")
        )
    return MlpPolicy([p.copy() for p in params], acts, {**meta, "obs_type": obs_type})


def frozen_policy(
    model: BaseAlgorithm, deterministic: bool = False, seed: int = 0
) -> Callable[[NDArray[Any], NDArray[np.bool_]], NDArray[np.int64]]:
    """A frozen copy of a MaskablePPO model's policy as an opponent policy
    ``f(observations, masks) -> actions`` (sampled from its masked softmax, or its best
    action when ``deterministic``: True or False, else GameError); the model trains
    on, the copy does not.  ``seed``: 0..2**64-1, else TableError; with the tables'
    seeds, where its draws start again at each seeded reset (and the first) of an
    adapter it plays in, so that the same seed replays its moves.  The copy keeps
    the rules of the model's env (a :class:`VecEnv`, or a ``DummyVecEnv`` or
    ``SubprocVecEnv`` of :class:`~ofc_fast.env.gym.OfcEnv` tables; a model with none:
    those the ``.zip`` :func:`load_ppo` read it from records, :func:`export_policy`'s):
    an adapter of other rules refuses it as its opponent (RulesError; a preset renamed
    is the same rules).

    >>> from sb3_contrib import MaskablePPO
    >>> env = VecEnv("pineapple", num_envs=2, opponent="random", seed=0)
    >>> model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=8, seed=0)
    >>> policy = frozen_policy(model, deterministic=True)
    >>> obs, masks = env.reset(), env.action_masks()
    >>> bool(masks[[0, 1], policy(obs, masks)].all())  # a legal action per table
    True
    >>> rival = VecEnv("pineapple", num_envs=2, opponent=policy, seed=0)  # self-play
    """
    deterministic = flag(deterministic, "deterministic", GameError)
    seed = check_seed(seed)
    rng = None if deterministic else np.random.default_rng(seed)
    return _FrozenPolicy(mlp_of(model), rng, _learned_rules(model), seed)


class _FrozenPolicy:
    """:func:`frozen_policy`'s opponent policy: an object, not a closure, so that an
    adapter playing it copies and pickles whole (its random generator too: the copy
    draws the moves the original would)."""

    def __init__(
        self,
        mlp: MlpPolicy,
        rng: np.random.Generator | None,
        learned: tuple[str, int] | None,
        seed: int = 0,
    ) -> None:
        self.mlp, self.rng = mlp, rng
        self.learned = learned  # the model's rules (_learned_rules), for _check_opponent
        self.seed = seed  # frozen_policy's: with the tables' seed, what reseed() takes

    def __call__(
        self, observations: NDArray[Any], masks: NDArray[np.bool_]
    ) -> NDArray[np.int64]:
        return self.mlp.act_batch(observations, masks, self.rng)

    def reseed(self, seed: int | Sequence[int | None] | NDArray[Any]) -> None:
        """Start the sampling again from :attr:`seed` and the tables' ``seed`` (an int
        or one per table; a None among them: a stream drawn at random, as those
        tables' matches are), as an adapter does when its matches start again from
        a seed (:meth:`~ofc_fast.env._learner.LearnerTables.reset`): a reset with
        the same seed replays the opponents' moves."""
        if self.rng is None:  # deterministic: nothing drawn
            return
        seeds: list[Any] = list(np.asarray(seed, object).reshape(-1))  # int: one
        known = None not in seeds
        self.rng = np.random.default_rng([self.seed, *map(int, seeds)] if known else None)


def export_policy(model: BaseAlgorithm, path: str, **meta: Any) -> str:
    """Write a MaskablePPO model's action network as an ``.npz`` that
    :class:`ofc_fast.bots.policy.MlpPolicy` runs with NumPy alone (``policy:PATH``
    bots need no torch); ``meta``: kept with it as text (``obs_type``: the one the
    network reads, a GameError when given otherwise; ...); ``path``: text or a
    ``Path`` (else GameError).  A
    ``path`` ending in ``.zip`` writes the whole model instead (SB3's ``save``: what
    ``MaskablePPO.load`` and ``policy:PATH`` read) with the same texts, its rules
    among them, as an entry of its own (:data:`~ofc_fast.bots.policy.SB3_META`,
    JSON): :func:`load_ppo` and ``policy:PATH`` read them; a later ``model.save``
    of the model writes none.  Either file is written whole or not at all (a Ctrl-C
    leaves the file there as it was).
    ``rules``: the rules it was trained for (a RuleSet, a preset name or a game id;
    default: the rules of the model's env, a :class:`VecEnv` or a ``DummyVecEnv`` or
    ``SubprocVecEnv`` of :class:`~ofc_fast.env.gym.OfcEnv` tables (an env of other
    tables: none), or for a model with no env those the ``.zip`` :func:`load_ppo`
    read it from records), kept
    as their name and fingerprint (``meta_rules``, ``meta_rules_hash``: a policy bot
    of other rules, edited ones under a preset's name among them, is a BotError);
    rules other than those the model learns on are a RulesError naming both.
    Returns the path written.

    >>> import os, tempfile
    >>> from sb3_contrib import MaskablePPO
    >>> from ofc_fast.bots.policy import MlpPolicy
    >>> env = VecEnv("pineapple", num_envs=2, opponent="random", seed=0)
    >>> model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=8, seed=0)
    >>> path = export_policy(model, os.path.join(tempfile.mkdtemp(), "p"), rules="pineapple")
    >>> os.path.basename(path), MlpPolicy.load(path).meta["rules"]
    ('p.npz', 'PINEAPPLE')
    """
    if not isinstance(path, str) and not (
        isinstance(path, os.PathLike) and isinstance(os.fspath(path), str)
    ):  # (else a file named after the object: "None.npz")
        raise GameError(f"export_policy: path must be a file path, got {quote(path)}")
    path = os.fspath(path)
    learned = _learned_rules(model)
    given = meta.get("rules")
    if learned is not None and given is not None:
        why = rules_mismatch(learned[1], as_rules(given, "export_policy"))
        if why is not None:
            raise RulesError(
                f"export_policy: the model learns on {learned[0]} ({why}), not "
                f"rules={quote(given)}"
            )
    elif learned is not None:  # the name and fingerprint, kept as they are
        meta = {**meta, "rules": learned[0], "rules_hash": f"{learned[1]:08x}"}
    mlp = mlp_of(model, **meta)
    if not str(path).endswith(".zip"):
        return mlp.save(path)
    made = io.BytesIO()  # (the file is written whole: never a zip without the texts)
    model.save(made)  # (a zip SB3 writes anew), then the texts as an entry of their own
    with zipfile.ZipFile(made, "a") as archive:  # (SB3 neither reads nor keeps it)
        archive.writestr(SB3_META, json.dumps(mlp.meta, sort_keys=True))
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)  # (as SB3's save did)
    atomic_write(path, made.getvalue())
    return str(path)


def load_ppo(
    path: str | os.PathLike[str], env: GymEnv | None = None, **kwargs: Any
) -> _sb3_contrib.MaskablePPO:
    """``MaskablePPO.load(path, env, **kwargs)`` that keeps, beside the model, the rules
    (and the other texts) :func:`export_policy`'s ``.zip`` records
    (:data:`~ofc_fast.bots.policy.SB3_META`): a model it reads without an env
    learns on them for :func:`export_policy` and :func:`frozen_policy`; given an env
    (or one by ``set_env``), on the env's rules, whatever the ``.zip`` records.  A later
    ``model.save`` records none of them (a model trained on since may play other
    rules).  ``path``: as SB3 reads it (``"m"`` for ``m.zip`` too); a file that is no
    MaskablePPO ``.zip`` of these tables (a missing one too), or one whose texts are
    damaged: BotError naming it; a path that is no file path: GameError.

    >>> import os, tempfile
    >>> from sb3_contrib import MaskablePPO
    >>> env = VecEnv("pineapple", num_envs=2, opponent="random", seed=0)
    >>> model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=8, seed=0)
    >>> path = export_policy(model, os.path.join(tempfile.mkdtemp(), "m.zip"))
    >>> policy = frozen_policy(load_ppo(path))  # plays PINEAPPLE tables only
    """
    if not isinstance(path, str) and not (
        isinstance(path, os.PathLike) and isinstance(os.fspath(path), str)
    ):
        raise GameError(f"load_ppo: path must be a file path, got {quote(path)}")
    p = os.fspath(path)
    if not os.path.isfile(p) and os.path.isfile(p + ".zip"):  # (as SB3 reads it)
        p += ".zip"
    model, meta = load_sb3(p, env=env, **kwargs)
    _RECORDED[model] = meta
    return model


def _learned_rules(model: Any) -> tuple[str, int] | None:
    """The name and fingerprint (:func:`~ofc_fast.learned.rules_hash`) of the rules
    ``model`` learns on: its env's (:func:`_env_rules`; an env of no known rules: None);
    without one (:func:`load_ppo` of a ``.zip`` given no env), those its ``.zip``
    records (:data:`~ofc_fast.bots.policy.SB3_META`, :func:`export_policy`'s); else
    None.  A fingerprint recorded that is no 8 hex digits is a RulesError."""
    env = model.get_env() if callable(getattr(model, "get_env", None)) else None
    if env is not None:  # (the zip's rules are not what a model given an env learns on)
        rules = _env_rules(env)
        return None if rules is None else (rules.name, rules_hash(rules))
    try:
        recorded = _RECORDED.get(model, {})
    except TypeError:  # (no weak reference to it: no model load_ppo read)
        recorded = {}
    if "rules_hash" not in recorded:
        return None
    name, text = recorded.get("rules"), recorded["rules_hash"]
    if not isinstance(text, str) or len(text) != 8 or text.strip("0123456789abcdefABCDEF"):
        raise RulesError(
            f"the model records rules_hash {quote(text)} in {SB3_META}, which is no "
            "rules fingerprint (8 hex digits, ofc_fast.learned.rules_hash)"
        )
    return str(name), int(text, 16)


def _env_rules(env: Any) -> RuleSet | None:
    """The rules of the tables of a model's env: a :class:`VecEnv` (through SB3's
    wrappers), or another SB3 ``VecEnv`` (``DummyVecEnv``, ``SubprocVecEnv``: asked
    through its ``get_attr``, each table in its own process too) whose tables' ``rules``
    (:class:`~ofc_fast.env.gym.OfcEnv`'s, through Gymnasium's wrappers) are one rule
    set; None for any other env (its rules are not known here)."""
    while not isinstance(env, VecEnv) and getattr(env, "venv", None) is not None:
        env = env.venv
    if isinstance(env, VecEnv):
        return env.tables.venv.rules
    if not isinstance(env, _SB3VecEnv) or not env.has_attr("rules"):
        return None  # (a table of no known rules)
    found: dict[int, RuleSet] = {}
    for rules in env.get_attr("rules"):  # (OfcEnv.rules: its table's)
        if not isinstance(rules, RuleSet):
            return None
        found[rules_hash(rules)] = rules
    return next(iter(found.values())) if len(found) == 1 else None
