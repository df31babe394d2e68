"""``VectorEnv``: many tables stepped in one C call (``csrc/include/ofc_vecenv.h``).

>>> import numpy as np
>>> from ofc_fast.env import VectorEnv
>>> env = VectorEnv("pineapple", num_envs=4, players=2, seed=0)
>>> obs, infos = env.reset()
>>> obs.shape, obs.dtype, infos["action_mask"].shape
((4, 828), dtype('uint8'), (4, 243))
>>> rng = np.random.default_rng(0)
>>> for _ in range(30):   # masked-random actions chosen in NumPy
...     pick = (rng.random(4) * env.legal_counts).astype(np.int64)
...     obs, rewards, terms, truncs, infos = env.step(env.legal_actions[np.arange(4), pick])
>>> int(env.deals_finished.sum()) > 0
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import ffi, lib, status_error
from ..errors import GameError, built_repr, choice
from ..game import resolve_rules
from ..game.match import check_deck
from ..game.moves import destinations_of
from ..game.observation import Observation, read_observation
from ..rules import RuleSet, carried_rules
from ..rules.model import GameKind
from ..search import flag
from ..table import check_fantasyland, check_players, check_seat, check_seed, random_seed
from ._actions import ACTION_SPACE as ACTION_SPACE  # for its users
from ._actions import MAX_DEALT, action_array, check_action_id, placement_array
from ._arguments import takes_arguments
from ._bots import make_bots
from ._checks import OPPONENTS as OPPONENTS  # for its users
from ._checks import buffers_error, check_bot_settings, check_num_envs
from ._checks import check_finite as check_finite  # for its users
from ._checks import check_opponents as check_opponents  # for its users
from ._guard import if_open, lock_free_view, one_thread
from ._guard import require_started as require_started  # for its users
from ._infos import Observations, VectorInfos
from ._restore import (
    STATE_ARRAYS,
    restore_arrays,
    restore_decisions,
    restore_seeds,
    restore_slots,
)
from ._rows import check_env, check_out, env_flags, env_indices, reset_mask
from ._seeds import env_seed as env_seed  # for its users
from ._seeds import seed_list
from ._stuck import MAX_SKIPPED_DEALS as MAX_SKIPPED_DEALS  # for its users
from ._stuck import check_skipped_deals as check_skipped_deals
from ._stuck import no_decision_error as no_decision_error
from ._stuck import others_playing as others_playing
from ._stuck import whole_step
from ._vecenv_calls import FEATURE_SIZE as FEATURE_SIZE  # for its users
from ._vecenv_calls import feature_rows, restart, step_error, vecenv_config

__all__ = ["FANTASYLAND_MODES", "OBS_TYPES", "OPPONENTS", "VectorEnv", "env_seed"]

FANTASYLAND_MODES = ("solver", "decision")
OBS_TYPES = ("bytes", "features")
"""``obs_type``: the uint8 encoding (:mod:`ofc_fast.encoding`) or the float32 features
(``csrc/include/ofc_features.h``)."""
OBS_SIZE = int(lib.OFC_ENC_SIZE)
MAX_SEATS = 4
_E_NO_DECISION = int(lib.OFC_E_NO_DECISION)


class VectorEnv:
    """``num_envs`` tables of ``rules`` stepped together in C with the GIL released.

    ``opponents``: ``"self"`` (self-play: every decision of every seat is an agent step;
    ``infos["seat"]`` says whose), ``"random"`` (the other seats play uniformly random
    legal moves inside C) or a bot name such as ``"heuristic"`` (the other seats are
    played by that bot in Python between C calls: much slower).  The agent is seat
    ``learner`` in the last two.  ``fantasyland``: ``"solver"`` (every Fantasyland set
    is played by the exact solver inside C) or ``"decision"`` (an agent's Fantasyland
    set is its own decision: ``infos["full_set"]`` is True, the mask is empty, and
    :meth:`step` takes its ``placements`` row).  ``shaping``: weight of the
    potential-based per-street shaping (royalties of completed rows, returned at the deal
    end so a deal's rewards still add up to its points; 0 = off).  ``stay_value``: the
    solver's worth of keeping Fantasyland (as :func:`ofc_fast.solver.solve_fantasyland`).
    ``obs_type``: ``"bytes"`` (the OBS_SIZE uint8 encoding) or ``"features"``
    (FEATURE_SIZE float32 features in [0, 1], computed in C from that encoding and the
    deal order of one's own cards); :attr:`encodings` always holds the bytes.

    Environment ``i`` plays the match ``ofc_fast.Match(rules, players,
    seed=env_seed(seed, i))``: deal ``j`` from ``ofc_deal_seed(env_seed, j)``, button
    moving, Fantasyland carried.  Rewards are the reward seat's net points when its deal
    ends (the learner, or in self-play the seat that acted); ``final_rewards[i, s]``
    holds every seat's at that step.  A finished deal is followed at once by the next
    deal's first agent decision (same-step autoreset); with ``final_obs=True`` (a small
    cost per deal) ``final_encodings[i]`` then holds seat ``learner``'s encoding of the
    deal that step ended (its terminal observation; where ``terminations[i]``, else
    stale; :meth:`final_observations`).  Truncations are always False.  Deals without
    an agent decision (every agent seat in Fantasyland, set by the solver) are played
    on, at most :data:`MAX_SKIPPED_DEALS` in a row in one call: then GameError (rules
    that keep a seat in Fantasyland for good, e.g. a stay any clean board meets), and
    the VectorEnv needs :meth:`reset`.

    The arrays returned are owned by the environment and overwritten by the next call
    (copy what you keep).  Two VectorEnvs may be stepped from two threads at once; one
    VectorEnv is for one thread at a time: :meth:`reset`, :meth:`next_deal`,
    :meth:`step` and :meth:`step_first` called while another thread is in one of them
    raise GameError and change nothing.  A VectorEnv pickles and copies
    (``copy.deepcopy``) with its whole state, and so do the Gymnasium and PettingZoo
    envs over it: the copy plays on as the original would (a copy taken while another
    thread steps it: GameError too).

    >>> env = VectorEnv("pineapple", num_envs=4, seed=0)
    >>> obs, infos = env.reset()
    >>> obs.shape, infos["legal_count"].tolist()  # 232 legal openings at each table
    ((4, 828), [232, 232, 232, 232])
    >>> obs, rewards, terminations, truncations, infos = env.step(infos["legal_actions"][:, 0])
    """

    metadata: dict[str, Any] = {"autoreset_mode": "SameStep"}  # noqa: RUF012
    """``autoreset_mode``: the value of ``gymnasium.vector.AutoresetMode.SAME_STEP``
    (a string: this module needs no Gymnasium), ``"Disabled"`` for an instance made
    with ``autoreset=False``; :class:`ofc_fast.env.sb3.GymVectorEnv` has the members."""

    @takes_arguments()
    def __init__(
        self,
        rules: RuleSet | str = "pineapple",
        num_envs: int = 1024,
        players: int = 2,
        seed: int | None = 0,
        opponents: str = "self",
        *,
        fantasyland: str = "solver",
        learner: int = 0,
        shaping: float = 0.0,
        stay_value: Any = None,
        autoreset: bool = True,
        bot_settings: dict[str, Any] | None = None,
        obs_type: str = "bytes",
        final_obs: bool = False,
    ) -> None:
        self._state_lock = threading.RLock()  # held by a step and the views (if_open)
        self._entries = 0  # twice the calls one_thread let in, odd during one
        self.closed = False
        """Whether :meth:`close` was called (``gymnasium.vector.VectorEnv``'s flag)."""
        self.rules = resolve_rules(rules)
        self._carried = carried_rules(self.rules)  # an observation's "rule_set"
        if self.rules.game is GameKind.CLASSIC:
            raise GameError(
                "classic Chinese Poker has no vector environment (its 13-card "
                "sets have no action ids)"
            )
        num_envs = check_num_envs(num_envs)
        players = check_players(players, self.rules)
        check_fantasyland(None, players, self.rules)  # one deal fits the deck
        check_deck(self.rules, players)  # and every seat in Fantasyland
        learner = check_seat(learner, players, "learner")
        self.num_envs = num_envs
        self.players = players
        self.learner = learner
        self.opponents = check_opponents(opponents)
        self._bot_settings = check_bot_settings(bot_settings, self.opponents)
        self.fantasyland = choice(
            fantasyland, FANTASYLAND_MODES, "fantasyland", "", GameError
        )
        self.seed = random_seed() if seed is None else check_seed(seed)
        self.obs_type = choice(obs_type, OBS_TYPES, "obs_type", "", GameError)
        self._c, self._c_data = vecenv_config(self, shaping, stay_value, autoreset)
        if not autoreset:  # gymnasium.vector.AutoresetMode.DISABLED's value
            self.metadata = {**VectorEnv.metadata, "autoreset_mode": "Disabled"}
        self._stay_value = stay_value  # as given: a copy is made with it (__reduce__)
        self.final_obs = flag(final_obs, "final_obs", GameError)
        try:
            self._alloc()
        except MemoryError:  # (named with one environment's buffers, times num_envs)
            self._alloc(1)
            raise buffers_error(num_envs, self._slots, vars(self)) from None
        self._bots: list[list[Any]] | None = None
        self._env_seeds: list[int] | None = None  # reset(seed=[...]): per environment
        if self.opponents not in OPPONENTS:
            self._make_bots()

    # -- construction
    def _alloc(self, n: int | None = None) -> None:
        n = self.num_envs if n is None else n
        self.encodings = np.zeros((n, OBS_SIZE), np.uint8)
        feats = self.obs_type == "features"
        self.features = np.zeros((n if feats else 0, FEATURE_SIZE), np.float32)
        self.observations: Observations = self.features if feats else self.encodings
        self.action_masks = np.zeros((n, ACTION_SPACE), np.bool_)
        self.legal_actions = np.zeros((n, ACTION_SPACE), np.uint8)
        self.legal_counts = np.zeros(n, np.int16)
        self.seats = np.zeros(n, np.int8)
        self.full_sets = np.zeros(n, np.bool_)
        self.rewards = np.zeros(n, np.float32)
        self.final_rewards = np.zeros((n, MAX_SEATS), np.float32)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self.deals_finished = np.zeros(n, np.int64)
        self.final_encodings = np.zeros((n, OBS_SIZE), np.uint8)
        self._actions = np.zeros(n, np.int64)
        self._placements = np.zeros((n, MAX_DEALT), np.uint8)
        self._active = np.zeros(n, np.uint8)
        self._slots = ffi.new("ofc_vecenv_slot[]", n)
        out = self._out = ffi.new("ofc_vecenv_out *")
        self._keep: list[Any] = []  # the cdata views keep the arrays' buffers alive
        views: tuple[tuple[str, str, npt.NDArray[Any]], ...] = (
            ("obs", "uint8_t[]", self.encodings),
            ("mask", "uint8_t[]", self.action_masks),
            ("legal", "uint8_t[]", self.legal_actions),
            ("full", "uint8_t[]", self.full_sets),
            ("terminations", "uint8_t[]", self.terminations),
            ("truncations", "uint8_t[]", self.truncations),
            ("legal_count", "int16_t[]", self.legal_counts),
            ("seat", "int8_t[]", self.seats),
            ("rewards", "float[]", self.rewards),
            ("final_rewards", "float[]", self.final_rewards),
            ("final_obs", "uint8_t[]", self.final_encodings),
        )
        self._out_rows = tuple((field, arr[0].size) for field, _, arr in views)
        for field, ctype, arr in views:
            self._keep.append(ffi.from_buffer(ctype, arr))
            setattr(out, field, self._keep[-1])
        if not self.final_obs:  # C writes no terminal observations
            out.final_obs = ffi.NULL
        self._p_actions = ffi.from_buffer("int64_t[]", self._actions)
        self._p_placements = ffi.from_buffer("uint8_t[]", self._placements)
        self._p_active = ffi.from_buffer("uint8_t[]", self._active)
        self._bad = ffi.new("uint32_t *")
        self._p_enc = self._keep[0]
        self._p_features = ffi.from_buffer("float[]", self.features)
        self._started = False

    def _match_seed(self, i: int) -> int:
        """The seed of environment ``i``'s match (:func:`env_seed`; see :meth:`reset`
        for a list of seeds)."""
        if self._env_seeds is None:
            return env_seed(self.seed, i)
        return env_seed(self._env_seeds[i], 0)

    def _make_bots(self) -> None:
        self._bots = make_bots(
            self.opponents,
            self.rules,
            self._bot_settings,
            [self._match_seed(i) for i in range(self.num_envs)],
            self.players,
            self.learner,
        )

    # -- the gymnasium.vector-shaped API
    @one_thread
    def reset(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, VectorInfos]:
        """Start every environment's match again (from ``seed`` when given, else the
        seeds of the last reset), up to its first agent decision; bot opponents are
        made again from that seed, so a match replays whole (a ``"search"`` bot's
        moves: with ``bot_settings`` of ``samples`` and no ``time_budget``).  ``seed``
        a list of ``num_envs`` seeds (Gymnasium's vector API): environment ``i``
        plays the match of a one-table env seeded ``seed[i]``, ``env_seed(seed[i],
        0)`` (None: drawn at random), a 1-D numpy integer array too; :attr:`seed` is
        left as it is.
        ``options={"reset_mask": m}`` (Gymnasium's disabled autoreset mode; ``num_envs``
        booleans, no seed): the environments ``m`` marks deal on to an agent decision,
        the others kept (``infos["final_rewards"]``: deals played on, 0 elsewhere)."""
        masked = reset_mask(options, self.num_envs)
        if masked is not None:
            if seed is not None or not self.started:
                raise GameError(
                    "a reset_mask deals the next deals of started matches: it takes no "
                    "seed, and needs a reset() before (reset(seed=...) starts them again)"
                )
            self.final_rewards[:] = 0  # (this reset's points: 0 at the tables kept)
            self._deal_on(masked, play_on=True)
            return self.observations, self.infos()
        seeds = seed_list(seed, self.num_envs)
        if seeds is not None:
            self._env_seeds = seeds
        elif seed is not None:
            self.seed = self._c.seed = check_seed(
                seed.item() if isinstance(seed, np.ndarray) else seed
            )
            self._env_seeds = None
        with whole_step(self):  # (Ctrl-C in it: reset() again)
            if self._bots is not None:
                self._make_bots()
            status = restart(
                self._c, self._slots, self._out, self._out_rows, self._env_seeds
            )
            if status == _E_NO_DECISION:
                raise no_decision_error(self, int(np.argmax(self.seats < 0)))
            if status:
                raise status_error(
                    status, "the vector environment could not start", GameError
                )
            self.deals_finished[:] = 0
            self._started = True
            self._play_bots()
            self._write_features()
        return self.observations, self.infos()

    @one_thread
    def next_deal(self, env: int) -> None:
        """Start the next deal of environment ``env``'s match now (without autoreset:
        after its deal ended, one without an agent decision is then over; an unfinished
        deal is abandoned: no Fantasyland, the button moves on as after a deal without it)."""
        require_started(self, "step")
        self._deal_on([self._check_env(env)])

    def _deal_on(self, envs: Iterable[int], play_on: bool = False) -> None:
        """Deal the next deals of environments ``envs`` (indices; :meth:`next_deal`, a
        ``reset_mask``: ``play_on``, those without an agent decision played on as with
        autoreset, their points per seat summed in ``final_rewards``).  One that fails
        stops the deals; raises after the bots and features of those dealt are updated.
        The points of the deals played on are summed aside, in an array made only when
        one is (a deal with an agent decision, the usual case, needs none)."""
        status = env = 0
        todo, passed = [int(e) for e in envs], None
        with whole_step(self):
            for _ in range(MAX_SKIPPED_DEALS):
                for env in todo:
                    status = lib.ofc_vecenv_reset(
                        self._c, self._slots, env, 1, 0, self._out
                    )
                    if status:
                        break
                self._play_bots()
                todo = [e for e in todo if play_on and self.seats[e] < 0]  # no decision
                if status or not todo:
                    break
                if passed is None:
                    passed = np.zeros_like(self.final_rewards)
                passed[todo] += self.final_rewards[todo]
            else:
                status, env = _E_NO_DECISION, todo[0]
            if passed is not None:
                self.final_rewards += passed
            self._write_features()
        if status == _E_NO_DECISION:  # (the environment then needs a reset())
            raise no_decision_error(self, int(env))
        if status:
            raise status_error(status, "the vector environment could not deal", GameError)

    @one_thread
    def step(
        self, actions: npt.ArrayLike, placements: npt.ArrayLike | None = None
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        VectorInfos,
    ]:
        """Play one decision in every environment: ``actions[i]`` an action id of the
        pending decision, or -1 to play ``placements[i]`` (one destination per dealt
        card, 0 front, 1 middle, 2 back, 3 discard; needed for a full set; columns
        past an environment's dealt cards are ignored, a row shorter than them is a
        MoveError).  Returns
        ``(observations, rewards, terminations, truncations, infos)``.  MoveError (and
        no environment changes) when any action is illegal."""
        require_started(self, "step")
        self._actions[:] = action_array(actions, self.num_envs)
        place = ffi.NULL
        if placements is not None:
            self._placements[:] = placement_array(placements, self.num_envs)
            place = self._p_placements
        self._step_set(place)
        return (
            self.observations,
            self.rewards,
            self.terminations,
            self.truncations,
            self.infos(),
        )

    @property
    def started(self) -> bool:
        """Whether :meth:`reset` has dealt the first hands."""
        return self._started

    @one_thread
    def step_first(self, action: int) -> None:
        """Play action id ``action`` in environment 0 (the single-game adapters' path:
        :mod:`ofc_fast.env.gym`, :mod:`ofc_fast.env.aec`); the other environments
        must have no pending decision of theirs to play, as in a one-environment
        VectorEnv.  MoveError (and nothing changes) when it is illegal, out of
        ``0..ACTION_SPACE-1`` included (an int beyond int64 too); the results are in
        the arrays, as after :meth:`step`."""
        require_started(self, "step")
        if self.num_envs != 1:
            raise GameError(f"step_first() needs num_envs=1, got {self.num_envs}")
        self._actions[0] = check_action_id(action, int(self.seats[0]))
        self._step_set(ffi.NULL)

    def _step_set(self, placements: Any) -> None:
        """Step with the actions already in ``self._actions``."""
        with whole_step(self):  # (a Ctrl-C after the C step: reset())
            self._call_step(placements, ffi.NULL)
            self._play_bots()
            self._write_features()
            self.deals_finished += self.terminations

    @one_thread
    def step_active(
        self,
        actions: npt.ArrayLike,
        active: npt.ArrayLike,
        *,
        ended: npt.ArrayLike | None = None,
    ) -> None:
        """:meth:`step` for the environments where ``active`` (num_envs booleans) is
        True only; the others are left as they are, and so are their rows of the
        arrays (read only the active rows; the results are in the arrays, as after
        :meth:`step_first`).  A frozen opponent policy (:mod:`ofc_fast.env.sb3`)
        plays its seats this way.  ``ended`` (num_envs booleans): the environments
        whose learner's deal already ended in this round of calls; their
        ``final_encodings`` rows stay that deal's (a later deal, one the learner sat
        out, does not overwrite them)."""
        require_started(self, "step")
        a = env_flags(active, self.num_envs, "active")
        if ended is not None:
            ended = env_flags(ended, self.num_envs, "ended")
        self._actions[:] = action_array(actions, self.num_envs)
        self._active[:] = a
        with whole_step(self):
            self._call_step(ffi.NULL, self._p_active, ended)
            self._play_bots()
            self._write_features()
            self.deals_finished += self.terminations & a

    def _write_features(self) -> None:
        """Recompute the features of every environment (obs_type="features")."""
        if self.obs_type == "features":
            status = lib.ofc_features_slots(
                self._slots, 0, self.num_envs, self._p_enc, self._p_features
            )
            if status:  # pragma: no cover - the C state and its encodings always agree
                raise status_error(status, "features", GameError)

    def _call_step(self, placements: Any, active: Any, ended: Any = None) -> None:
        """Step ``self._actions``; the ``final_encodings`` rows where ``ended`` stay."""
        kept = None
        if ended is not None:
            kept = np.flatnonzero(np.asarray(ended, np.bool_) & (self._active != 0))
            saved = self.final_encodings[kept]
        status = lib.ofc_vecenv_step(
            self._c,
            self._slots,
            0,
            self.num_envs,
            self._p_actions,
            placements,
            active,
            self._out,
            self._bad,
        )
        if kept is not None and kept.size:
            self.final_encodings[kept] = saved
        if status == _E_NO_DECISION:
            raise no_decision_error(self, int(self._bad[0]))
        if status:
            i = int(self._bad[0])
            raise step_error(
                status,
                i,
                bool(self._c.autoreset),
                bool(self.full_sets[i]),
                f"action {int(self._actions[i])}, seat {int(self.seats[i])}",
            )

    # -- bots in Python (opponents = a bot name)
    def _play_bots(self) -> None:
        """Let the bots play every environment where a seat other than the learner is
        to act; rewards, terminations and final rewards add up over the calls."""
        if self._bots is None:
            return
        with others_playing(self):  # a bot that raises: the VectorEnv needs reset()
            rewards = self.rewards.copy()
            terms = self.terminations.copy()
            final = self.final_rewards.copy()
            ended = np.zeros(self.num_envs, np.int64)  # deals ended in this loop, per env
            while True:
                todo = np.flatnonzero((self.seats != self.learner) & (self.seats >= 0))
                if todo.size == 0:
                    break
                check_skipped_deals(self, ended)
                self._active[:] = 0
                for i in todo:
                    seat = int(self.seats[i])
                    obs = self.observation(int(i), seat)
                    move = self._bots[i][seat].act(obs)
                    dest = destinations_of(move, obs["dealt"])
                    self._placements[i, : len(dest)] = dest
                    self._actions[i] = -1
                    self._active[i] = 1
                self._call_step(self._p_placements, self._p_active, terms)
                rewards[todo] += self.rewards[todo]
                terms[todo] |= self.terminations[todo]
                ended[todo] += self.terminations[todo]
                final[todo] += self.final_rewards[todo]
        self.rewards[:] = rewards
        self.terminations[:] = terms
        self.final_rewards[:] = final

    # -- views
    @if_open
    def infos(self) -> VectorInfos:
        """The :class:`~ofc_fast.env.VectorInfos` of the last step: its arrays."""
        return {
            "seat": self.seats,
            "action_mask": self.action_masks,
            "legal_actions": self.legal_actions,
            "legal_count": self.legal_counts,
            "full_set": self.full_sets,
            "final_rewards": self.final_rewards,
        }

    @if_open
    def final_observations(self, envs: npt.ArrayLike) -> Observations:
        """The terminal observations of environments ``envs`` (indices, or a mask such
        as ``terminations``) whose deal the last step ended: ``final_encodings`` rows,
        or with ``obs_type="features"`` their features, computed now (a new array, one
        row per environment; one int: its row)."""
        if not self.final_obs:
            raise GameError(
                "final_observations() needs a VectorEnv made with final_obs=True"
            )
        enc: npt.NDArray[np.uint8] = self.final_encodings[env_indices(envs, self.num_envs)]
        if self.obs_type != "features":
            return enc if np.ndim(envs) else enc.reshape(-1)  # one int: its row alone
        out = feature_rows(enc)
        return out if np.ndim(envs) else out.reshape(-1)

    @if_open
    def observations_float(self) -> npt.NDArray[np.float32]:
        """The observations as float32, each value scaled as
        :func:`ofc_fast.encoding.encode` scales it (a new array)."""
        from ..encoding import SCALE

        return self.encodings * SCALE

    @if_open
    def game_of(self, env: int) -> Any:
        """The C ``ofc_game`` of environment ``env`` (cdata, read it, never write it)."""
        return self._game(env)

    def _game(self, env: int) -> Any:
        return ffi.addressof(self._slots[self._check_env(env)], "game")

    def _check_env(self, env: object) -> int:
        return check_env(env, self.num_envs)

    def _check_seat(self, seat: object) -> int:
        return check_seat(
            int(seat) if isinstance(seat, np.integer) else seat, self.players, "seat"
        )

    @lock_free_view
    def observation(self, env: int, seat: int) -> Observation:
        """``seat``'s :class:`~ofc_fast.game.Observation` of environment ``env``'s deal
        (what a bot reads); GameError before :meth:`reset`."""
        require_started(self, "observation")
        g = self._game(env)
        seat = self._check_seat(seat)
        o = ffi.new("ofc_observation *")
        lib.ofc_game_observe(g, seat, o)
        legal = None
        if o.n and not o.full:
            out = ffi.new("uint8_t[]", ACTION_SPACE)
            legal = list(out[0 : lib.ofc_game_legal_actions(g, out)])
        return read_observation(bytes(ffi.buffer(o)), self.rules, legal, self._carried)

    @lock_free_view
    def encode(
        self, env: int, seat: int, out: npt.NDArray[np.uint8] | None = None
    ) -> npt.NDArray[np.uint8]:
        """``seat``'s encoding of environment ``env``'s deal (uint8, OBS_SIZE), written
        into ``out`` when given (a contiguous, writable uint8 array; else GameError);
        GameError before :meth:`reset`."""
        require_started(self, "encode")
        g = self._game(env)
        seat = self._check_seat(seat)
        out = np.zeros(OBS_SIZE, np.uint8) if out is None else check_out(out, OBS_SIZE)
        lib.ofc_encode_game(
            g,
            seat,
            int(self._c.lowball),
            ffi.from_buffer("uint8_t[]", out, require_writable=True),
        )
        return out

    @partial(one_thread, call="copy or pickle")
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy (``copy.deepcopy``, a subprocess): the settings and the
        state (every table's C slot, the arrays, the bots), so that the copy plays on
        exactly as the original would; GameError while another thread steps it."""
        settings = {
            "rules": self.rules,
            "num_envs": self.num_envs,
            "players": self.players,
            "seed": self.seed,
            "opponents": self.opponents,
            "fantasyland": self.fantasyland,
            "learner": self.learner,
            "shaping": float(self._c.shaping),
            "stay_value": self._stay_value,
            "autoreset": bool(self._c.autoreset),
            "bot_settings": self._bot_settings,
            "obs_type": self.obs_type,
            "final_obs": self.final_obs,
        }
        arrays = {name: getattr(self, name).copy() for name in STATE_ARRAYS}
        state = (
            bytes(ffi.buffer(self._slots)),
            arrays,
            self._started,
            self._bots,
            self._env_seeds,
        )
        return (_restored, (settings, state))

    def close(self, **kwargs: Any) -> None:
        """Release the environment, as ``gymnasium.vector.VectorEnv.close`` does: its
        bot opponents are dropped, :attr:`closed` is True, and every later call
        (:meth:`reset`, a step, an observation, :meth:`infos`, :meth:`game_of`,
        :meth:`final_observations`, :meth:`observations_float`, a copy) is a GameError.  Closing a
        closed VectorEnv does nothing; ``kwargs`` are Gymnasium's (unused)."""
        if not self.closed:
            self._close()

    @partial(one_thread, call="close()")
    def _close(self) -> None:
        """:meth:`close`: GameError while another thread steps the VectorEnv."""
        self._bots = None
        self._started = False
        self.closed = True

    @built_repr
    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.rules.name} x{self.num_envs}, {self.players} "
            f"players, opponents {self.opponents}, seed {self.seed}"
            f"{', closed' * self.closed}>"
        )


def _restored(settings: dict[str, Any], state: tuple[Any, ...]) -> VectorEnv:
    """A VectorEnv made with ``settings`` and given ``state`` (``__reduce__``)."""
    slots, arrays, started, bots, env_seeds = state
    venv = VectorEnv(**settings)
    restore_slots(venv._c, venv._slots, slots, started)
    restore_arrays({name: getattr(venv, name) for name in STATE_ARRAYS}, arrays)
    if started:  # the pending decisions' rows: the checked C state's, not the pickle's
        restore_decisions(venv._c, venv._slots, venv._out)
        venv._write_features()
    venv._started = started
    venv._bots = bots
    venv._env_seeds = restore_seeds(env_seeds, venv.num_envs)
    return venv
