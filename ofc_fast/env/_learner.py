"""One learner seat at many tables: the core the trainer adapters share
(:mod:`ofc_fast.env.sb3`), usable by any trainer.  Needs only NumPy.

The learner is seat ``learner`` of every table of one :class:`VectorEnv`.  The other
seats are played inside C (``"random"``), by a registered bot in Python (a bot name),
or by an *opponent policy*: any callable ``policy(observations, masks) -> actions``
over a batch (a frozen copy of the learner for self-play), played between C calls
with :meth:`VectorEnv.step_active`.  After :meth:`LearnerTables.reset` and every
:meth:`LearnerTables.step` every table waits for a learner decision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from ..errors import GameError, MoveError, match_choice
from ..rules import RuleSet
from ._arguments import takes_arguments
from ._rows import as_array, reset_tables
from ._single import adapter_settings, check_solver_sets, check_spelling
from ._stuck import whole_step
from ._vector import VectorEnv, check_opponents, check_skipped_deals, others_playing

__all__ = ["LearnerTables", "OpponentPolicy"]

OpponentPolicy = Callable[[NDArray[Any], NDArray[Any]], Any]
"""``policy(observations, masks) -> actions``: one legal action id per row (a policy
that samples may have ``reseed(seed)``: :meth:`LearnerTables.reset` calls it)."""


Observations: TypeAlias = NDArray[np.uint8] | NDArray[np.float32]
"""The learner's observations: the encodings (uint8), or with ``obs_type="features"``
the features (float32)."""


class LearnerTables:
    """The learner's side of ``num_envs`` tables (see the module docstring).

    >>> t = LearnerTables("pineapple", num_envs=4, opponent="random", seed=1)
    >>> obs = t.reset()
    >>> obs.shape, t.masks.shape
    ((4, 696), (4, 243))
    >>> acts = t.masks.argmax(axis=1)
    >>> obs, rewards, dones = t.step(acts)
    >>> rewards.shape, dones.dtype
    ((4,), dtype('bool'))
    """

    # also: the spelling check_spelling names, and what the tables set themselves
    @takes_arguments(VectorEnv, also=("opponents", "final_obs", "autoreset"))
    def __init__(
        self,
        rules: RuleSet | str = "pineapple",
        num_envs: int = 256,
        players: int = 2,
        seed: int | None = 0,
        opponent: str | OpponentPolicy = "random",
        *,
        obs_type: str = "features",
        learner: int = 0,
        shaping: float = 0.0,
        **kwargs: Any,
    ) -> None:
        what = "an SB3 adapter (the learner's tables)"  # (a singular verb follows)
        check_solver_sets(kwargs, what)
        check_spelling(kwargs, what, "opponent", "opponents")
        self.policy: OpponentPolicy | None = None
        if callable(opponent):
            self.policy, mode = opponent, "self"
        elif match_choice(opponent, ("self",)) is not None:  # (an array: no ==)
            raise GameError(
                "opponent 'self' needs a policy: pass the callable "
                "policy(observations, masks) -> actions (a frozen copy of the learner)"
            )
        else:  # (a learner's opponents are never "self" without a policy)
            mode = check_opponents(
                opponent, "opponent", ("random",), " or a policy (frozen_policy(model))"
            )
        self.venv = VectorEnv(
            rules,
            num_envs,
            players,
            seed=seed,
            learner=learner,
            shaping=shaping,
            obs_type=obs_type,
            # final_obs: the adapters' terminal observations; autoreset: SB3's
            **adapter_settings(
                kwargs, what, opponents=mode, final_obs=True, autoreset=True
            ),
        )
        self.num_envs = num_envs
        self.learner = learner
        self.masks = np.zeros((num_envs, self.venv.action_masks.shape[1]), np.bool_)
        self.rewards = np.zeros(num_envs, np.float32)
        self.dones = np.zeros(num_envs, np.bool_)
        self.deals = 0
        self._mid_deal = np.zeros(num_envs, np.bool_)  # a learner step in the deal

    @property
    def observations(self) -> Observations:
        """The learner's observations (the VectorEnv's array: copy what you keep)."""
        return self.venv.observations

    def final_observations(self, tables: NDArray[Any]) -> NDArray[Any]:
        """The terminal observations of ``tables`` (indices) after a :meth:`step` that
        ended their learner's deals (``dones``): the learner's views of those deals'
        ends, of the observations' type, one row per table (a new array; the
        observations returned are the next deals' already)."""
        return self.venv.final_observations(tables)

    def set_opponent(self, policy: OpponentPolicy) -> None:
        """Replace the opponent policy (a newer frozen copy of the learner)."""
        if self.policy is None or not callable(policy):
            raise GameError("set_opponent() needs tables made with an opponent policy")
        self.policy = policy

    def reset(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> Observations:
        """Deal every table the learner's next decision, as the one-table env
        resets (:func:`~ofc_fast.env._rows.reset_tables`): with ``seed`` (as
        :meth:`VectorEnv.reset`, an int or one seed per table; the first reset: the
        seed made with) every match starts again from it; without one, a table where
        the learner played a step of its deal deals its match's next deal, one whose
        deal is not begun keeps it (no replay); ``options={"reset_mask": m}``: only
        the tables ``m`` marks, that way.  An opponent policy with a ``reseed(seed)``
        method (:func:`~ofc_fast.env.sb3.frozen_policy`'s) has it called with the
        seed whenever the matches start again from one (a seeded reset, the first),
        so that a reset with a seed replays the opponents' moves too.  Returns the
        learner's first observations."""
        first = not self.venv.started
        with whole_step(self.venv):  # (Ctrl-C in it: reset() again)
            reset_tables(self.venv, self._mid_deal, seed, options)
            reseed = getattr(self.policy, "reseed", None)
            if callable(reseed) and (seed is not None or first):  # the matches restart
                reseed(self.venv.seed if seed is None else seed)
            self.rewards[:] = 0
            self.dones[:] = False
            self._play_opponents()
            self.masks[:] = self.venv.action_masks
        return self.observations

    def step(
        self, actions: Any
    ) -> tuple[Observations, NDArray[np.float32], NDArray[np.bool_]]:
        """Play one learner decision at every table, then the others' decisions up to
        the learner's next one (``actions``: ``num_envs`` integer ids, MoveError
        otherwise).  Returns ``(observations, rewards, dones)``: rewards
        are the learner's points (shaped when shaping is on) and ``dones`` marks the
        tables where a deal of the learner ended (the observation is already the next
        deal's)."""
        v = self.venv
        a = as_array(actions)
        # one id per table in any shape; VectorEnv.step refuses non-integers (MoveError)
        with whole_step(v):  # (a Ctrl-C after the learner's step: reset())
            v.step(a.reshape(self.num_envs) if a.size == self.num_envs else a)
            self.rewards[:] = v.rewards
            self.dones[:] = v.terminations
            self._play_opponents()
            self.masks[:] = v.action_masks
            self.deals += int(self.dones.sum())
            self._mid_deal[:] = ~self.dones  # (ended: the next deal's, not begun)
        return self.observations, self.rewards, self.dones

    def close(self) -> None:
        """Close the tables' VectorEnv (:meth:`VectorEnv.close`: idempotent; their later
        calls are a GameError)."""
        self.venv.close()

    def _play_opponents(self) -> None:
        """Let the opponent policy play every table where another seat is to act.
        GameError (the tables need a reset) once a table ended more than
        MAX_SKIPPED_DEALS deals here (the first may be the learner's): the rules keep
        the learner in Fantasyland, and the opponents would play on forever."""
        if self.policy is None:
            return
        with others_playing(self.venv):  # one that fails: the tables need reset()
            v = self.venv
            ended = np.zeros(self.num_envs, np.int64)  # deals ended here, per table
            while True:
                todo = (v.seats != self.learner) & (v.seats >= 0)
                if not todo.any():
                    return
                check_skipped_deals(v, ended)
                idx = np.flatnonzero(todo)
                actions = np.zeros(self.num_envs, np.int64)
                chosen = as_array(self.policy(v.observations[idx], v.action_masks[idx]))
                if chosen.size != idx.size or chosen.dtype.kind not in "iu":
                    # as the learner's actions: no cast (4.9 is not action 4), no broadcast
                    raise MoveError(
                        f"the opponent policy must return {idx.size} integer action ids "
                        f"(one per row), got shape {chosen.shape} of {chosen.dtype}",
                        "bad_action",
                    )
                actions[idx] = chosen.reshape(-1)
                v.step_active(actions, todo, ended=self.dones)
                done = todo & v.terminations
                self.rewards[done] += v.final_rewards[done, self.learner]
                self.dones |= done
                ended += done
