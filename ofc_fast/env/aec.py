"""A PettingZoo AEC environment: one table, every seat an agent (self-play), following
PettingZoo's classic games: observations ``{"observation", "action_mask"}``, rewards at
the end of each deal, one deal an episode.

>>> from ofc_fast.env import pettingzoo_env
>>> env = pettingzoo_env(rules="pineapple", players=3)
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated or truncated else
...              env.action_space(agent).sample(obs["action_mask"]))
>>> sum(env._cumulative_rewards.values()) == 0
True

Fantasyland sets are played by the exact solver; :meth:`OfcAECEnv.reset` without a
seed deals the next deal of the match (button and Fantasyland carried), with a seed
starts the match again (an env given no seed, neither there nor ``seed=`` when made,
draws its match's seed at random).  A deal in which no seat has a decision (every seat
in Fantasyland) is played by the solver inside :meth:`OfcAECEnv.reset`; its points are
the first rewards of the episode that reset() starts (each agent's first
:meth:`~pettingzoo.AECEnv.last`), so that every deal's points reach the agents.  After
1,000 such deals in a row (rules where every seat stays in Fantasyland with certainty)
:meth:`OfcAECEnv.reset` raises GameError instead of dealing on forever.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, overload

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv

from ..encoding import features_of_encoding
from ..errors import GameError, UnknownAgentError, quote
from ..rules import RuleSet
from ._arguments import takes_arguments
from ._rows import check_options
from ._single import check_render_mode, check_solver_sets, deal_on, single_table
from ._stuck import whole_step
from ._vector import ACTION_SPACE, OBS_SIZE, VectorEnv, require_started
from .gym import RENDER_MODES, action_id, observation_space, render_human, render_text

__all__ = ["OfcAECEnv"]


class OfcAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Seats ``player_0`` .. ``player_{players-1}`` of one table of ``rules``.

    >>> env = OfcAECEnv("pineapple", players=3)
    >>> env.reset(seed=0)
    >>> env.possible_agents
    ['player_0', 'player_1', 'player_2']
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "name": "ofc_fast_v0",
        "is_parallelizable": False,
    }

    # also: the spelling single_table names, and what the env sets itself
    @takes_arguments(VectorEnv, also=("opponent", "num_envs", "opponents", "autoreset"))
    def __init__(
        self,
        rules: RuleSet | str = "pineapple",
        players: int = 2,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__()
        check_solver_sets(kwargs, "the PettingZoo env")
        self._venv = single_table(
            rules,
            players,
            "the PettingZoo env (every seat an agent, one deal an episode)",
            kwargs,
            opponents="self",
            autoreset=False,
        )
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        self.observation_spaces = {
            a: observation_space(self._venv.obs_type) for a in self.possible_agents
        }
        self.action_spaces = {
            a: spaces.Discrete(ACTION_SPACE) for a in self.possible_agents
        }
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._enc = np.zeros(OBS_SIZE, np.uint8)
        self.np_random: np.random.Generator
        """The env's NumPy generator, as PettingZoo's envs have it (for the agents'
        sampling; the deals are the table's): seeded as the match is, by
        :meth:`reset` with a seed or ``seed=`` when made, else at random."""
        self._seed(self._venv.seed)

    def _seed(self, seed: int) -> None:
        """Seed :attr:`np_random` with ``seed`` (PettingZoo's ``seeding.np_random``)."""
        self.np_random, _ = seeding.np_random(seed)

    def _seat_of(self, agent: object) -> int:
        """The seat of ``agent`` (one of :attr:`possible_agents`), else
        UnknownAgentError naming it and them."""
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise UnknownAgentError(
                f"unknown agent {quote(agent)}; the env's agents are "
                + ", ".join(self.possible_agents)
            )
        return seat

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat;
        UnknownAgentError for an agent the env does not have)."""
        self._seat_of(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: one id per legal action shape
        (UnknownAgentError for an agent the env does not have)."""
        self._seat_of(agent)
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (``seed``: start the match again from it, and reseed
        :attr:`np_random`; ``options`` a dict, whose keys it ignores as PettingZoo's
        ``api_test`` wants, or None, else GameError and nothing changes)."""
        check_options(options, None)
        v = self._venv
        with whole_step(v):  # (a Ctrl-C before the agent is selected: reset() again)
            # deals where no seat has a decision (played on, bounded): their points
            skipped = np.zeros(len(self.possible_agents))  # start it
            if seed is not None or not v.started:
                v.reset(seed=seed)
            else:
                skipped = deal_on(v)
            if seed is not None:
                self._seed(v.seed)
            self.agents = list(self.possible_agents)
            self.rewards = {a: float(skipped[s]) for s, a in enumerate(self.agents)}
            self._cumulative_rewards = dict(self.rewards)
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.possible_agents[int(v.seats[0])]
        render_human(self)

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """What ``agent`` sees now: its encoded observation and action mask;
        UnknownAgentError for an agent the env does not have, GameError before
        :meth:`reset`."""
        v = self._venv
        seat = self._seat_of(agent)
        require_started(v, "observe")
        if int(v.seats[0]) == seat:  # the seat to act: the vector env wrote its view
            return {
                "observation": v.observations[0].copy(),
                "action_mask": v.action_masks[0].view(np.int8).copy(),
            }
        enc = v.encode(0, seat, np.zeros(OBS_SIZE, np.uint8))
        return {  # not its decision: no dealt cards of its own
            "observation": enc if v.obs_type == "bytes" else features_of_encoding(enc),
            "action_mask": np.zeros(ACTION_SPACE, np.int8),
        }

    def _require_agents(self, call: str) -> None:
        """GameError naming ``call`` when no agent is left to act (before the first
        :meth:`reset`, or after every agent's last step of a deal)."""
        if not self.agents:
            raise GameError(
                f"{call}() with no agent to act: call reset() (before the first deal, "
                "or after every agent's last step of a deal)"
            )

    @overload
    def last(
        self, observe: Literal[True] = True
    ) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]: ...
    @overload
    def last(
        self, observe: Literal[False]
    ) -> tuple[None, float, bool, bool, dict[str, Any]]: ...
    @overload
    def last(
        self, observe: bool
    ) -> tuple[dict[str, NDArray[Any]] | None, float, bool, bool, dict[str, Any]]: ...
    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's: the acting agent's observation (:meth:`observe`; None
        unless ``observe``), cumulative reward, termination, truncation and info;
        GameError when no agent is left to act (as :meth:`step`)."""
        self._require_agents("last")
        result: tuple[dict[str, NDArray[Any]] | None, float, bool, bool, dict[str, Any]]
        result = super().last(observe)
        return result

    def step(self, action: Any) -> None:
        """Play the selected agent's action, then move to the next seat to act;
        GameError when no agent is left to act (before :meth:`reset`, or after every
        agent's last step of a deal: reset() deals the next)."""
        self._require_agents("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        v = self._venv
        with whole_step(v):  # (a Ctrl-C before the next agent is selected: reset())
            v.step_first(action_id(action))
            self._cumulative_rewards[agent] = 0.0
            self.rewards = {a: 0.0 for a in self.agents}
            if v.terminations[0]:
                for s, a in enumerate(self.agents):
                    self.rewards[a] = float(v.final_rewards[0, s])
                    self.terminations[a] = True
            else:
                self.agent_selection = self.possible_agents[int(v.seats[0])]
            # the acting seat's reward: its shaping (when on) and, at the end, its points
            self.rewards[agent] = float(v.rewards[0])
            self._accumulate_rewards()
        render_human(self)

    def render(self) -> str | None:
        """The acting seat's observation as text (``render_mode="ansi"``; ``"human"``
        prints it), else ``None``; GameError before :meth:`reset`."""
        return render_text(self.render_mode, self._view_text)

    def _view_text(self) -> str:
        require_started(self._venv, "render")
        return str(
            self._venv.observation(0, self.possible_agents.index(self.agent_selection))
        )

    def close(self) -> None:
        """Nothing to release (the PettingZoo API calls it); the env can be reset and
        played again after it, as checkers that close and then reset expect."""
