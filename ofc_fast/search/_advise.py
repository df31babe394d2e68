"""Advice: every legal move of the seat to act with its value (:func:`advise`), from
rollouts with best completions or exact expectimax (csrc/include/ofc_search.h)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeAlias

from .._native import OK, ffi, lib
from ..errors import ModelError, SearchError, quote
from ..game import Game, Move, move_for_action
from ..learned.model import ModelSpec, ValueModel, resolve_model
from ..rules import RuleSet, RulesLike
from ..rules.compiled import compiled, compiled_fl
from ..solver import StayValue, ev_tables
from ..table import check_seed
from ._checks import exact_nodes, exact_stopped_advice, flag, in_range, raise_status
from ._completion import policy_id
from ._positions import decision_actions, game_observation, position
from ._stop import POLL, stop_hook, stoppable
from .model import POLICIES, Opponent, check_row_weight, search_model

__all__ = ["EXACT_NODES_DEFAULT", "EXACT_NODES_MAX", "MAX_SAMPLES", "Advice", "advise"]


EXACT_NODES_DEFAULT = 3_000_000
"""Largest exact tree (ofc_search_exact_cost) ``exact="auto"`` searches without a
time budget (about a quarter of a second)."""

MAX_SAMPLES = 1_000_000_000
"""Most sampled futures :func:`advise` takes (hours of search on the largest decision)."""

EXACT_NODES_MAX = 120_000_000
"""Largest exact tree ``exact=True`` searches without a time budget (about ten
seconds; ``should_stop`` or Ctrl-C stop it); a larger one raises SearchError."""

_EXACT_NODES_PER_SECOND = 12_000_000  # measured: tools-free estimate for time budgets

_EXACT_NODES_PER_SECOND_FAST = 48_000_000  # a fast machine's speed (this one: ~35M):
# exact=True under a time budget tries the tree it would search within the budget,
# stopped at the budget's end (the conservative speed refused trees searched in a
# third of it)

_EXACT_SHARE = 0.5  # exact "auto" under a time budget: its longest part (then stopped)

_BATCH = 16

_POLL = POLL  # seconds: the longest C call of a sampled search (a slow batch is split)

_SAMPLE_AT_ONCE = 0.05  # seconds: a slower sample of the moves is split by moves too

_PROBE = 8  # moves: the first C call of a sampled search, its speed unknown

_EXACT_AT_ONCE = 1_000_000  # nodes (about 0.1 s): a larger exact tree can be stopped

_CLOCKS: dict[str, Callable[[], float]] = {
    "wall": time.perf_counter,
    "cpu": time.thread_time,
}

_KEEP = 8  # prune=True: halve the candidates after each batch down to this many

_SWITCH = 30  # auto policy, an opening: fast screening until this many moves are left


@dataclass(frozen=True)
class Advice:
    """One legal move and its value: ``ev`` (the move's points against the modelled
    opponent play plus the Fantasyland worth: a value to rank moves by, not a fair
    estimate of the deal; see the module doc), ``stderr`` (standard error of ``ev``;
    0 when exact, and from fewer than 2 samples: no spread measured), ``exact`` and
    ``samples`` (sampled futures behind ``ev``; 0 when exact).  What the seat's own
    board does, counted in C over the same rollouts (or, when exact, the expectation
    over every draw under the completion the search picks): ``foul`` (the
    probability that it fouls), ``fantasyland`` (the probability that it enters or
    keeps Fantasyland) and ``royalties`` (its expected royalties).
    ``model``: the name of the learned value model that placed the searcher's cards in
    the rollouts (None: rollouts without one, or exact values).  ``source``: where
    ``ev`` comes from, ``"exact"``, ``"rollouts"`` or ``"model"``: a move an opening
    screen left unsampled (``advise(model=..., prune=True)``) has 0 samples and the
    model's value of its after-state as ``ev``, with no ``stderr``, ``foul``,
    ``fantasyland`` nor ``royalties`` measured (None).  A record unpacks as
    ``(move, ev, stderr, exact)``, the pinned shape of :func:`advise`'s list.  The
    records :func:`advise` returns build their ``move`` on first access (equal, in
    every respect and in pickle, to records built with it).

    >>> import ofc_fast as ofc
    >>> a = ofc.advise(ofc.Game("pineapple", players=2, seed=5), samples=16, seed=1)[0]
    >>> 0 <= a.foul <= 1 and 0 <= a.fantasyland <= 1 and a.royalties >= 0
    True
    >>> move, ev, stderr, exact = a
    >>> (move, ev, exact) == (a.move, a.ev, a.exact)
    True
    """

    action: int
    move: Move
    ev: float
    stderr: float | None
    exact: bool
    samples: int
    foul: float | None = 0.0
    fantasyland: float | None = 0.0
    royalties: float | None = 0.0
    model: str | None = None

    @property
    def source(self) -> str:
        """Where ``ev`` comes from: ``"exact"`` (expectimax), ``"rollouts"`` (the
        mean of ``samples`` sampled futures) or ``"model"`` (the learned value model
        alone: no future sampled, ``samples`` 0)."""
        return "exact" if self.exact else "rollouts" if self.samples else "model"

    def __iter__(self) -> Iterator[Any]:
        """``move, ev, stderr, exact = advice``: the shape :func:`advise` promises."""
        return iter((self.move, self.ev, self.stderr, self.exact))

    if not TYPE_CHECKING:  # no attribute a type checker should accept

        def __getattr__(self, name: str) -> Any:
            """``move`` of a record :func:`advise` made (:func:`_records`): built from
            its action on first access and kept, so a caller that reads the best move
            builds one Move, not one per legal move."""
            state = self.__dict__
            if name != "move" or "_position" not in state:
                raise AttributeError(f"'Advice' object has no attribute {name!r}")
            # built before the position is dropped: a thread reading the move at the
            # same time finds one or the other (and builds an equal move)
            move = state["move"] = move_for_action(state["action"], *state["_position"])
            state.pop("_position", None)
            return move

    def __getstate__(self) -> dict[str, Any]:
        """The fields (``move`` built): the pickle of the record built eagerly."""
        return {name: getattr(self, name) for name in _FIELDS}

    def as_dict(self) -> dict[str, Any]:
        """JSON-able: the move as text."""
        return {
            "action": self.action,
            "move": str(self.move),
            "ev": self.ev,
            "stderr": self.stderr,
            "exact": self.exact,
            "samples": self.samples,
            "foul": self.foul,
            "fantasyland": self.fantasyland,
            "royalties": self.royalties,
            "model": self.model,
            "source": self.source,
        }


_FIELDS = tuple(f.name for f in fields(Advice))


def _records(
    rows: Sequence[tuple[int, float, float | None, bool, int, _Stats | None]],
    dealt: Sequence[int],
    board: Sequence[Sequence[int]],
    k: int,
    model: str | None = None,
) -> list[Advice]:
    """The Advice records of ``rows`` (action, ev, stderr, exact, samples, stats), each
    move left to build on access (``Advice.__getattr__``) from a copy of the position;
    equal, in repr, hash and pickle, to the records built with their moves."""
    position = (tuple(dealt), tuple(tuple(r) for r in board), k)
    new = object.__new__
    out = []
    for a, ev, se, exact, n, stats in rows:
        foul, fl, royalties = (None, None, None) if stats is None else stats
        rec = new(Advice)
        rec.__dict__.update(
            action=a,
            ev=ev,
            stderr=se,
            exact=exact,
            samples=n,
            foul=foul,
            fantasyland=fl,
            royalties=royalties,
            model=model,
            _position=position,
        )
        out.append(rec)
    return out


def _auto_policy(pos: Any, moves: int) -> str:
    rounds = pos.seats[pos.seat].rounds
    return "best" if rounds <= 1 else "fast" if moves > 60 else "sequential"


Position: TypeAlias = Game | Mapping[str, Any]
"""What :func:`advise` takes: a :class:`~ofc_fast.game.Game`, or an observation dict of
the seat to act (:class:`~ofc_fast.game.Observation`; NumPy arrays and scalars in it
read as the lists and numbers they hold, as every bot reads them:
:func:`~ofc_fast.game.observation.plain_observation`)."""


def check_settings(
    samples: Any = None,
    time_budget: Any = None,
    exact: Any = "auto",
    policy: Any = "auto",
    seed: Any = None,
    clock: Any = "wall",
    prune: Any = False,
    row_weight: Any = 1.0,
    model: Any = None,
) -> None:
    """Checks :func:`advise`'s keyword settings (and :class:`~ofc_fast.bots.SearchBot`'s):
    SearchError naming the first bad one; with ``exact=True``, ``samples``, ``seed``
    or ``model`` given, a ``policy`` other than ``"auto"``, ``prune=True`` or a
    ``clock`` other than ``"wall"`` is refused too, naming it (an exact search
    samples nothing: no rollout policy, no pruning, no clock).

    >>> check_settings(samples=0)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.SearchError: samples must be an int within 1..1,000,000,000, got 0
    """
    if samples is not None and not in_range(samples, 1, MAX_SAMPLES, integer=True):
        raise SearchError(
            f"samples must be an int within 1..{MAX_SAMPLES:,}, got {quote(samples)}"
        )
    if time_budget is not None and not (in_range(time_budget, 0, 1e6) and time_budget > 0):
        raise SearchError(
            "time_budget must be a positive number of seconds, at most 1e6, "
            f"got {quote(time_budget)}"
        )
    if not isinstance(exact, bool) and not (isinstance(exact, str) and exact == "auto"):
        raise SearchError(f"exact must be 'auto', True or False, got {quote(exact)}")
    if not (isinstance(policy, str) and policy in POLICIES):
        raise SearchError(f"policy must be one of {POLICIES}, got {quote(policy)}")
    if seed is not None:
        check_seed(seed, "seed", SearchError)
    flag(prune, "prune", SearchError)
    if not (isinstance(clock, str) and clock in _CLOCKS):
        raise SearchError(f"clock must be 'wall' or 'cpu', got {quote(clock)}")
    sampling = (  # what only a sampled search reads, where given
        ("samples", samples is not None),
        ("seed", seed is not None),
        ("model", model is not None),
        ("policy", policy != "auto"),
        ("prune", prune),
        ("clock", clock != "wall"),
    )
    for name, given in sampling:
        if exact is True and given:  # (it was ignored, silently)
            raise SearchError(
                f"{name}: an exact search (exact True) samples no future, with no "
                f"rollout policy, pruning, value model nor clock (a time budget "
                f"bounds its tree): leave {name} out, or let exact be 'auto'"
            )
    check_row_weight(row_weight)


def advise(
    game: Position,
    seat: int | None = None,
    *,
    samples: int | None = None,
    time_budget: float | None = None,
    seed: int | None = None,
    exact: str | bool = "auto",
    policy: str = "auto",
    fl_value: StayValue = None,
    row_weight: float = 1.0,
    rules: RulesLike | None = None,
    prune: bool = False,
    clock: str = "wall",
    opponent: Opponent = "best",
    model: ModelSpec = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[Advice]:
    """Every legal move of the seat to act with its expected points, best first.

    ``samples``: sampled futures (default 256 without a time budget); ``time_budget``
    (seconds): sample in batches of 16 until it is spent, past it by about 0.05 s
    at most once every move has a sample (the first sample of the moves is taken
    whole; a sample under way at the end is dropped; then the sample count, and
    so the advice, depends on the machine: pass ``samples`` to reproduce); ``seed``:
    of the sampled futures (None: 0); ``clock``:
    what the budget counts, ``"wall"`` time or this thread's ``"cpu"`` time (and an
    exact search's, that of the thread it runs in: the same search whatever else
    the machine runs);
    ``exact``: ``"auto"`` (exact when the tree is estimated, at 12 million nodes
    a second, a conservative speed, to take at most the time budget; it is
    stopped at half the budget on a machine slower than that, and the samples
    that replace it get the other half; or
    :data:`EXACT_NODES_DEFAULT` without a budget), True (exact, or SearchError when
    the position has no exact search or its tree would take longer than the
    whole time budget even on a fast machine, at 48 million nodes a second, or is
    larger than :data:`EXACT_NODES_MAX` without one, or the budget is spent before
    its end on a slower machine (the tree is searched till then):
    exact values were asked for within the budget, and sampled ones would not be
    exact; leave ``time_budget`` out to search to the end; it takes no ``samples``, ``seed``,
    ``model``, ``policy`` other than ``"auto"``, ``prune=True`` nor ``clock`` other
    than ``"wall"``), False (always
    sampled); ``policy``: see :data:`POLICIES`;
    ``fl_value`` / ``row_weight``: see :class:`SearchModel`; ``opponent``: how the
    rollouts complete the other seats' boards (:data:`OPPONENTS`; exact values only
    with ``"best"``); ``rules`` (a RuleSet, a
    preset name or a game id): by default the game's, or the observation's (its
    ``"rules"``, or the ``"rule_set"`` it carries when they are not a preset); ``prune``: after each
    batch of 16 samples keep sampling only the better half of the moves (down to 8;
    the others keep the values of their fewer samples, see ``Advice.samples``, and
    come after the moves that outlasted them); with the auto policy an opening
    (more than 60 moves) is screened by the fast policy until at most 30 moves are
    left, which then start again under the sequential policy; ``model``: a learned
    value model (:data:`ofc_fast.learned.ModelSpec`: ``"auto"`` the one shipped for
    the rule set and seat count, a path, a ValueModel; None: none) that places the
    searcher's cards in the sequential rollouts (csrc/include/ofc_search.h, Learned value)
    and, with pruning and the auto policy, screens an opening instead of the fast
    policy: the 30 moves of largest model value get the whole budget, the others
    keep the model's value as ``ev`` with 0 samples (``Advice.source`` ``"model"``,
    no ``stderr`` nor statistics: None); ``should_stop``: None, or a
    callable (e.g. a ``threading.Event``'s ``is_set``; its answer read as a truth
    value, and one that has none, such as a NumPy array of several items, a
    SearchError naming it) asked after each batch of 16
    samples, and within a batch slower than 0.05 s (an opening under the best
    policy: seconds) every 0.05 s, after each of its parts (a batch is sampled in
    C calls of about 0.05 s whatever the hook, as Ctrl-C waits for the C call too;
    a sample of the moves slower than that, about 0.3 s at a Pineapple opening
    under the best policy, in parts of its moves): once it returns True the
    sampling stops there, as when the time budget is spent, and the advice is that
    of the samples completed (a sample under way is dropped; the first sample of
    the moves is always taken whole).  An exact search (in C)
    of more than about 0.1 s is asked every 0.05 s too, and stopped by the hook, by
    its time budget (in the ``clock``'s time: at a speed the estimate overrated;
    half the budget with ``exact="auto"``) or by Ctrl-C within about 0.05 s: with ``exact="auto"``
    the advice is then sampled, with the samples the time left has room for (half
    the budget, when the time budget stopped it), with ``exact=True`` it is a
    SearchError naming why.  ``ofc-fast serve`` stops an analysis whose client
    went away.
    The same arguments give the same advice, except where a time budget ends the
    search: its sample count, and whether an exact search ends, then depend on the
    machine (``Advice.samples`` and ``exact`` tell); pass ``samples`` without a
    time budget to reproduce advice.

    >>> import ofc_fast as ofc
    >>> obs = ofc.Game("pineapple", players=2, seed=5).observation(1)
    >>> a = ofc.advise(obs, samples=32, seed=2)
    >>> a == ofc.advise(obs, samples=32, seed=2), a[0].samples, a[0].exact
    (True, 32, False)
    """
    check_settings(samples, time_budget, exact, policy, seed, clock, prune, model=model)
    # NumPy ints as plain ones (the records' sample counts: JSON-able ints)
    seed = 0 if seed is None else int(seed)
    samples = None if samples is None else int(samples)
    should_stop = stop_hook(should_stop)  # (its answers read as truth values)
    obs, rules = game_observation(game, seat, rules)
    pos = position(obs, rules)
    rows = obs["boards"][obs["seat"]]
    dealt, k = list(obs["dealt"]), int(obs["to_discard"])
    actions = decision_actions(obs)
    model_ = search_model(rules, fl_value, row_weight, opponent)
    value = resolve_model(model, rules, int(pos.players))
    if value is not None:
        _check_nets(value, pos, model_.opp_self)
    args = (
        compiled(rules),
        compiled_fl(rules),
        *_with_value(rules, model_.c_model(), value),
        pos,
        bytes(actions),
        len(actions),
    )
    t0 = _CLOCKS[clock]()
    opponents = model_.opp_random > 0 or model_.opp_self
    values, cpu = _exact(args, pos, exact, time_budget, opponents, should_stop, clock)
    if time_budget is not None:  # what an exact search left (at least 1 - _EXACT_SHARE)
        spent = _CLOCKS[clock]() - t0 + (cpu if clock == "cpu" else 0.0)
        time_budget = max(time_budget - spent, 1e-9)
    if values is not None:
        exact_rows = [
            (a, float(v), 0.0, True, 0, st) for a, (v, st) in zip(actions, values)
        ]
        exact_rows.sort(key=lambda x: (-x[1], x[0]))
        return _records(exact_rows, dealt, rows, k)
    name = _auto_policy(pos, len(actions)) if policy == "auto" else policy
    then = None
    if policy == "auto" and name == "fast" and prune and pos.seats[pos.seat].rounds > 1:
        then = int(lib.OFC_COMPLETE_SEQUENTIAL)  # screen fast, then play honestly
    stats: Sequence[tuple[float, float | None, int, int, _Stats | None]]
    if then is not None and value is not None:  # screen by the model instead
        screen = value.action_values(
            rules,
            int(pos.players),
            model_.fl_value,
            rows,
            dealt,
            k,
            [pos.unseen[i] for i in range(pos.n_unseen)],
            actions,
        )
        stats = _screened(
            args, screen, then, seed, samples, time_budget, clock, should_stop
        )
    else:
        stats = _sampled(
            args,
            policy_id(name, True),
            seed,
            samples,
            time_budget,
            prune,
            then,
            _CLOCKS[clock],
            should_stop,
        )
    ranked = sorted(zip(actions, stats), key=lambda x: (-x[1][2], -x[1][0], x[0]))
    named = None if value is None else value.name
    sampled_rows = [(a, float(v), se, False, n, st) for a, (v, se, _, n, st) in ranked]
    return _records(sampled_rows, dealt, rows, k, named)


def _screened(
    args: tuple[Any, ...],
    screen: list[float],
    policy: int,
    seed: int,
    samples: int | None,
    time_budget: float | None,
    clock: str,
    should_stop: Callable[[], bool] | None,
) -> list[tuple[float, float | None, int, int, _Stats | None]]:
    """An opening screened by the model: its _SWITCH best moves by the model's value
    sampled under ``policy`` (with pruning; one round survived more than the rest),
    the others valued by the model alone (0 samples, no stderr nor statistics: None)."""
    actions, n = args[-2], args[-1]
    order = sorted(range(n), key=lambda i: (-screen[i], actions[i]))
    keep = sorted(order[:_SWITCH])
    sub = (*args[:-2], bytes(actions[i] for i in keep), len(keep))
    sampled = _sampled(
        sub, policy, seed, samples, time_budget, True, None, _CLOCKS[clock], should_stop
    )
    out: list[tuple[float, float | None, int, int, _Stats | None]] = [
        (screen[i], None, 0, 0, None) for i in range(n)
    ]
    for i, (mean, se, survived, count, stats) in zip(keep, sampled):
        out[i] = (mean, se, survived + 1, count, stats)
    return out


def _check_nets(value: ValueModel, pos: Any, opp_self: bool) -> None:
    """ModelError when ``value`` has no net for a board the sequential rollouts value
    by it: the searcher's after each of its rounds but the last (from its board after
    the pending move), and with ``opp_self`` those of the other seats that play as it
    does (two rounds or more left); the C rollouts would price such a board as a foul."""
    for p in range(int(pos.players)):
        seat = pos.seats[p]
        rounds = int(seat.rounds)
        if p != pos.seat and not (opp_self and rounds > 1):
            continue
        placed = sum(1 for c in seat.board if c != lib.OFC_NO_CARD)
        if p == pos.seat:
            placed += int(pos.n_dealt) - int(pos.k)
        for i in range(rounds - 1):
            placed += int(seat.round_n[i]) - int(seat.round_k[i])
            if placed not in value.cards:
                raise ModelError(
                    f"value model {value.name}{value.where()} has no net for boards of "
                    f"{placed} cards, which the search values by it (its nets: "
                    f"{list(value.cards)})"
                )


def _with_value(rules: RuleSet, c_model: Any, value: ValueModel | None) -> tuple[Any, Any]:
    """The C expected-points tables and search model of a search with a learned value
    model (the model's tables: its opponent rows, if its file has them; the model
    attached to a copy of the search model, the cached struct staying model-free),
    or without one (None)."""
    if value is None:
        return ev_tables(rules), c_model
    c = ffi.new("ofc_search_model *", c_model[0])
    c.value = value.c
    return value.ev_tables(rules), c


_Stats: TypeAlias = tuple[float, float, float]  # foul, fantasyland, royalties


def _stats_of(c: Any) -> _Stats:
    """(foul, fantasyland, royalties) of an ``ofc_search_stats``."""
    return (float(c.foul), float(c.fantasyland), float(c.royalties))


def _exact(
    args: tuple[Any, ...],
    pos: Any,
    exact: str | bool,
    time_budget: float | None,
    sampled_opponents: bool,
    should_stop: Callable[[], bool] | None = None,
    clock: str = "wall",
) -> tuple[list[tuple[float, _Stats]] | None, float]:
    """The exact values and statistics of the moves, or None for a sampled search
    (``exact`` "auto": no exact search fits, or the one started was stopped), and
    the CPU seconds of the search's thread (0 if none); a tree larger than
    _EXACT_AT_ONCE is searched in a thread (``_stop.stoppable``) stopped at its
    time (:func:`_exact_limits`: in ``clock``'s time), by ``should_stop`` or by
    Ctrl-C."""
    if exact is False or (exact == "auto" and sampled_opponents):
        return None, 0.0
    if sampled_opponents:
        raise SearchError(  # (each starts with its keyword: ofc-fast names --exact)
            "exact: exact search models opponents that complete by the best "
            "completion (opponent='best'); another opponent model is sampled"
        )
    cost = int(lib.ofc_search_exact_cost(pos, args[-1]))
    limit, seconds = _exact_limits(exact, time_budget)
    if exact == "auto" and not 0 < cost <= limit:
        return None, 0.0
    if cost == 0:
        raise SearchError(
            "exact: exact search needs the searcher to have at most one round "
            "left (a Pineapple or OFC last-two-streets position)"
        )
    if cost > limit:
        raise SearchError(
            f"exact: the exact tree has {exact_nodes(cost)}, more than the {limit:,} "
            + ("the time budget allows" if time_budget is not None else "EXACT_NODES_MAX")
            + ": sampled values come with exact 'auto', or with it off"
        )
    values = ffi.new("double[]", max(1, args[-1]))
    stats = ffi.new("ofc_search_stats[]", max(1, args[-1]))
    call = (*args, limit, values, stats)
    cpu = 0.0
    if cost <= _EXACT_AT_ONCE and (
        time_budget is None or cost <= time_budget * _EXACT_NODES_PER_SECOND
    ):  # (a short call, within the budget at the conservative speed)
        st = lib.ofc_search_exact_stats(*call)
    else:
        st, why, cpu = stoppable(
            lambda word: lib.ofc_search_exact_stop(*(*call, word)),
            seconds,
            clock == "cpu",
            should_stop,
        )
        if st == lib.OFC_E_STOPPED:
            if exact == "auto":
                return None, cpu  # the advice of the samples the time left has room for
            if why.startswith("the time budget"):
                why += (
                    f" (its estimate: {cost / _EXACT_NODES_PER_SECOND:.3g} s at "
                    f"{_EXACT_NODES_PER_SECOND:,} nodes a second, a conservative "
                    f"speed, {cost / _EXACT_NODES_PER_SECOND_FAST:.3g} s at a fast "
                    "machine's; this machine searched "
                    f"slower): {exact_stopped_advice()}"
                )
            raise SearchError(
                f"exact: the exact search ({exact_nodes(cost)}) was stopped before its "
                f"end: {why}"
            )
    if st != OK:
        raise_status(st, "advise")
    return [(float(values[i]), _stats_of(stats[i])) for i in range(args[-1])], cpu


def _exact_limits(exact: str | bool, time_budget: float | None) -> tuple[int, float | None]:
    """The largest exact tree (nodes) ``exact`` searches under ``time_budget``, and
    the seconds after which it is stopped (None: not by time): with ``exact="auto"``
    the tree the whole budget is estimated to search (_EXACT_NODES_PER_SECOND, a
    conservative speed), stopped at _EXACT_SHARE of it, its samples
    (:func:`advise`) then getting the rest of the budget, never one sample after
    all of it; with ``exact=True`` the tree a fast machine searches within the
    budget (_EXACT_NODES_PER_SECOND_FAST), stopped at its end."""
    if time_budget is None:
        return (EXACT_NODES_DEFAULT if exact == "auto" else EXACT_NODES_MAX), None
    if exact is True:  # (nothing sampled after it: a slower machine is stopped)
        speed = max(_EXACT_NODES_PER_SECOND, _EXACT_NODES_PER_SECOND_FAST)
        return int(time_budget * speed), time_budget
    return int(time_budget * _EXACT_NODES_PER_SECOND), time_budget * _EXACT_SHARE


def _sampled(
    args: tuple[Any, ...],
    policy: int,
    seed: int,
    samples: int | None,
    time_budget: float | None,
    prune: bool,
    then: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    should_stop: Callable[[], bool] | None = None,
) -> list[tuple[float, float, int, int, _Stats]]:
    """(mean, stderr, rounds survived, samples, (foul, fantasyland, royalties) means)
    per move; with ``then``, once pruning leaves _SWITCH moves or fewer they start
    again under that policy; ``should_stop``: asked after each batch, and every
    _POLL seconds within a slower one (see advise).  A batch is sampled in C calls
    of at most about _POLL seconds (:class:`_Batch`): the same sums, however split."""
    actions, n = args[-2], args[-1]
    total, squares, counts, survived = [0.0] * n, [0.0] * n, [0] * n, [0] * n
    sums = [[0.0, 0.0, 0.0] for _ in range(n)]  # foul, fantasyland, royalties
    target = samples if samples is not None else (None if time_budget else 256)
    active = list(range(n))
    done = 0
    run = _Batch(args, seed, time_budget, clock, should_stop)
    while True:
        batch = _BATCH if target is None else min(_BATCH, target - done)
        moves = bytes(actions[i] for i in active)
        ran = run.sample(moves, policy, done, batch, sampled=counts[active[0]] > 0)
        for j, i in enumerate(active):
            total[i] += run.sum[j]
            squares[i] += run.sq[j]
            counts[i] += ran
            st_j = run.stats[j]
            sums[i][0] += st_j.foul
            sums[i][1] += st_j.fantasyland
            sums[i][2] += st_j.royalties
        done += ran
        if (
            run.stopped
            or (target is not None and done >= target)
            or run.spent()
            or (should_stop is not None and should_stop())
        ):
            break
        run.asked = time.perf_counter()
        if prune and len(active) > _KEEP:
            active.sort(key=lambda i: -total[i] / counts[i])
            active = sorted(active[: max(_KEEP, len(active) // 2)])
            for i in active:
                survived[i] += 1
            if then is not None and len(active) <= _SWITCH:
                policy, then = then, None
                run.rate = run.mean = None  # (its cost: measured again)
                for i in active:
                    total[i] = squares[i] = counts[i] = 0
                    sums[i] = [0.0, 0.0, 0.0]
                    survived[i] += 1
    out = []
    for i in range(n):
        c = counts[i]
        mean = total[i] / c
        var = max(0.0, squares[i] / c - mean * mean) * c / max(1, c - 1)
        stats = (sums[i][0] / c, sums[i][1] / c, sums[i][2] / c)
        out.append((mean, math.sqrt(var / c), survived[i], c, stats))
    return out


class _Batch:
    """The C calls of a sampled search's batches (:func:`_sampled`): each batch's
    sums over its samples of the moves (``sum``, ``sq``, ``stats``, one entry per
    move), added in C in sample order however the batch is split: whole samples of
    the moves in a call of at most about _POLL seconds at the rate last measured
    (never below the last whole sample's: its cheap moves size no call), or, where
    one sample of the moves is slower than _SAMPLE_AT_ONCE (an opening under the
    best policy: about 0.3 s), one sample in parts of its moves (_PROBE moves
    first, the speed unknown).  A search stopped (its time budget spent,
    ``should_stop`` True, asked every _POLL seconds) within a sample drops that
    sample's part (the sums as they were before it), except in the first sample of
    the moves (one at least)."""

    def __init__(
        self,
        args: tuple[Any, ...],
        seed: int,
        time_budget: float | None,
        clock: Callable[[], float],
        should_stop: Callable[[], bool] | None,
    ) -> None:
        n = max(1, args[-1])
        self.head, self.seed = args[:-2], seed
        self.budget, self.clock, self.should_stop = time_budget, clock, should_stop
        self.sum = ffi.new("double[]", n)
        self.sq = ffi.new("double[]", n)
        self.stats = ffi.new("ofc_search_stats[]", n)
        self.rate: float | None = None  # seconds per move and sample, last measured
        self.mean: float | None = None  # ...over the last sample of the moves, all parts
        self.start, self.asked = clock(), time.perf_counter()  # (should_stop: last)
        self.stopped = False  # should_stop said so

    def spent(self) -> bool:
        """Whether the time budget is spent."""
        return self.budget is not None and self.clock() - self.start >= self.budget

    def sample(
        self, moves: bytes, policy: int, first: int, batch: int, sampled: bool
    ) -> int:
        """The samples ``first``.. of ``moves`` (up to ``batch``) summed afresh into
        the sums; the number taken: ``batch``, fewer when stopped (none, where the
        moves were ``sampled`` before; else their first sample, taken whole)."""
        m = len(moves)
        size = (8 * m, 8 * m, ffi.sizeof("ofc_search_stats") * m)
        outs = (self.sum, self.sq, self.stats)
        for out, k in zip(outs, size):
            ffi.memmove(out, bytes(k), k)
        ran = part = 0  # samples taken; moves of the sample under way summed
        spent = 0.0  # seconds of the sample under way
        saved: list[bytes] = []
        while ran < batch:
            left = (
                _POLL if self.budget is None else self.budget - (self.clock() - self.start)
            )
            room, rate = min(left, _POLL), self.rate
            if rate is not None and self.mean is not None:
                rate = max(rate, self.mean)
            lo, step = part, 1
            if rate is None:  # (a first call: its speed unknown)
                hi = min(m, _PROBE)
            elif rate * (m - part) > _SAMPLE_AT_ONCE:  # the sample in parts of its moves
                hi = min(m, part + max(1, int(room / rate)))
            elif part:  # the rest of the sample under way
                hi = m
            else:
                hi, step = m, max(1, min(batch - ran, int(room / (rate * m))))
            if lo == 0 and hi < m:  # a sample begun in parts: its sums before it
                saved = [bytes(ffi.buffer(out, k)) for out, k in zip(outs, size)]
            t = self.clock()
            call = (*self.head, moves[lo:hi], hi - lo, policy, self.seed, first + ran, step)
            outs_at = (self.sum + lo, self.sq + lo, self.stats + lo)  # (hi - lo moves)
            st = lib.ofc_search_rollouts_stats(*(*call, *outs_at))
            if st != OK:
                raise_status(st, "advise")
            took = max(self.clock() - t, 1e-9)
            self.rate, spent = took / (step * (hi - lo)), took + (spent if lo else 0.0)
            if hi == m:
                self.mean = spent / (step * m)
            part = hi % m
            ran += 0 if part else step
            if part and not ran and not sampled:
                continue  # (the first sample of the moves: taken whole)
            if self.spent() or self._stop():
                if part:  # (the sample under way: dropped)
                    for out, data in zip(outs, saved):
                        ffi.memmove(out, data, len(data))
                break
        return ran

    def _stop(self) -> bool:
        """Whether ``should_stop`` says so, asked if _POLL seconds have passed since
        it was last asked (``stopped``: it did)."""
        if self.should_stop is None or time.perf_counter() - self.asked < _POLL:
            return False
        self.asked, self.stopped = time.perf_counter(), self.should_stop()
        return self.stopped
