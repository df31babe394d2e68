"""Positions and labels for training value models: plain-data tasks that run on any
executor of :mod:`ofc_fast.parallel` (the same arrays for the same seed, whatever
the workers).  Private to :mod:`ofc_fast.learned.train`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import OK, ffi, lib, status_error
from ..bots import HeuristicBot, ValueBot
from ..bots.base import unseen_cards
from ..errors import ModelError
from ..game import Game, actions_for
from ..rules import RuleSet
from ..rules.model import GameKind
from ..search import decision_actions
from .model import FEATURES, ValueModel, board_bytes, held_context

__all__ = [
    "EvalTask",
    "GenTask",
    "LabelTask",
    "after_state",
    "eval_chunk",
    "features",
    "gen_chunk",
    "label_chunk",
    "row_counts",
]

ALL = (1 << 52) - 1


def next_decision(rules: RuleSet, players: int) -> tuple[int, int, int]:
    """(cards, discards, cards the others show) of a street after the opening."""
    if rules.game is GameKind.PINEAPPLE:
        return 3, 1, 2 * (players - 1)
    return 1, 0, players - 1


@lru_cache(maxsize=8)
def _rules(text: str) -> RuleSet:
    return RuleSet.from_json(text)


@lru_cache(maxsize=8)
def _model(data: bytes | None) -> ValueModel | None:
    return None if data is None else ValueModel.from_bytes(data, "training")


Stay = tuple[float, ...]  # five Fantasyland values (13..17 cards), or () for the default


def _stay_value(stay: Stay) -> dict[int, float] | None:
    """``stay`` as the bots' ``fl_value`` reads it (None: the rules' default)."""
    return dict(zip(range(13, 18), stay)) if stay else None


def fl_values(rules: RuleSet, stay: Stay) -> list[float]:
    """The search model's 18 Fantasyland values for ``stay`` (() : the default)."""
    from ..search.model import search_model

    return list(search_model(rules, _stay_value(stay)).fl_value)


def context(
    rules: RuleSet,
    players: int,
    model: ValueModel | None,
    opponent: bytes | None = None,
    stay: Stay = (),
) -> Any:
    """A value context with a model (its own opponent rows), or without one (complete
    boards only) against ``opponent`` (uint32 row counts; None: the typical one);
    ``stay``: the Fantasyland values of 13..17 cards (empty: the rules' default)."""
    if model is not None:
        return model.context(rules, players, fl_values(rules, stay))
    return _bare_context(rules, players, opponent, stay)


@lru_cache(maxsize=8)
def _bare_context(
    rules: RuleSet, players: int, opponent: bytes | None, stay: Stay = ()
) -> Any:
    from ..rules.compiled import compiled, compiled_fl
    from ..solver import ev_tables

    ev = ev_tables(rules)
    if opponent is not None:
        ev = ffi.new("ofc_ev_tables *")
        counts = ffi.from_buffer("uint32_t[]", opponent)
        st = lib.ofc_ev_tables_init_counts(compiled(rules), counts, ev)
        if st != OK:
            raise status_error(st, "opponent rows", ModelError)
    owner = ffi.new("ofc_value_ctx *")
    keep = (compiled(rules), compiled_fl(rules), ev)
    owner.rules, owner.fl, owner.ev = keep
    owner.model = ffi.NULL
    owner.fl_value = fl_values(rules, stay)
    owner.players = players
    owner.in_fl = 0
    return held_context(owner, keep)


def after_state(
    board: bytes, dealt: bytes, k: int, action: int, dead: int
) -> tuple[bytes, int]:
    """The board after an action and the dead cards with its discards."""
    dest = ffi.new("uint8_t[5]")
    if lib.ofc_action_decode(len(dealt), k, action, dest) != OK:
        raise ModelError(f"action {action} does not exist for {len(dealt)} cards")
    out = bytearray(board)
    for i, card in enumerate(dealt):
        r = dest[i]
        if r == lib.OFC_DISCARD:
            dead |= 1 << card
            continue
        start, size = (0, 3) if r == 0 else (3, 5) if r == 1 else (8, 5)
        j = next(j for j in range(start, start + size) if out[j] == 0xFF)
        out[j] = card
    return bytes(out), dead


# ------------------------------------------------------------------ positions


@dataclass(frozen=True)
class GenTask:
    """Deals start..stop-1 of a run: every normal decision of every seat, played by
    the behaviour policy (HeuristicBot, or a ValueBot with the model file ``behaviour``
    when given; a random legal move with probability ``epsilon``)."""

    rules: str
    players: int
    seed: int
    start: int
    stop: int
    epsilon: float
    behaviour: bytes | None = None
    stay: Stay = ()  # the behaviour ValueBot's Fantasyland values (() : default)


def gen_chunk(task: GenTask) -> dict[str, npt.NDArray[Any]]:
    """Decisions of the task's deals: ``board`` (D, 13) before, ``dealt`` (D, 5),
    ``n``, ``k``, ``dead`` (uint64 bit masks), ``played`` (action id), ``deal``; and
    ``rows``, the row strengths of the deals' clean finished boards (counts, as
    :func:`row_counts`)."""
    rules = _rules(task.rules)
    rows: dict[str, list[Any]] = {
        k: [] for k in ("board", "dealt", "n", "k", "dead", "played", "deal")
    }
    finished: list[list[list[int]]] = []
    for i in range(task.start, task.stop):
        rng = np.random.default_rng([task.seed, i])
        g = Game(rules, task.players, seed=int(rng.integers(2**62)))
        bots = [
            _behaviour(rules, task, int(rng.integers(2**62))) for _ in range(task.players)
        ]
        while g.to_act is not None:
            s = g.to_act
            obs = g.observation(s)
            dealt = list(obs["dealt"])
            if obs.get("full_set") or len(dealt) > 5:
                g.play(bots[s].act(obs))
                continue
            own = obs["boards"][s]
            k = int(obs["to_discard"])
            legal = decision_actions(obs)
            board = board_bytes(own)
            seen = ALL
            for c in unseen_cards(obs):
                seen &= ~(1 << int(c))
            dead = seen & ~_mask(board) & ~_mask(dealt)
            if rng.random() < task.epsilon:
                action = int(legal[int(rng.integers(len(legal)))])
            else:
                move = bots[s].act(obs)
                g.play(move)
                action = _action_of(board, dealt, k, legal, g, s)
                _add(rows, board, dealt, k, dead, action, i)
                continue
            g.play_action(action)
            _add(rows, board, dealt, k, dead, action, i)
        finished += [g.observation(p)["boards"][p] for p in range(task.players)]
    return {**_arrays(rows), "rows": row_counts(rules, finished)}


def row_counts(rules: RuleSet, boards: list[list[list[int]]]) -> npt.NDArray[Any]:
    """(3 * 7918,) uint64: per row and strength, how many of the complete ``boards``
    (three rows of card ids each) that do not foul have that row at that strength
    (an opponent row distribution: ``csrc/include/ofc_model.h``)."""
    from ..board import Board

    size = int(lib.OFC_STRENGTH_TABLE_SIZE)
    out = np.zeros(int(lib.OFC_VM_OPP_COUNTS), np.uint64)
    for rows in boards:
        e = Board.from_ids(*(tuple(r) for r in rows)).evaluate(rules)
        if not e.foul:
            for r, strength in enumerate(e.strengths):
                out[r * size + strength] += 1
    return out


def _behaviour(rules: RuleSet, task: GenTask, seed: int) -> Any:
    """The behaviour bot of one seat."""
    model = _model(task.behaviour)
    if model is None:
        return HeuristicBot(rules, seed)
    return ValueBot(rules, seed, model=model, fl_value=_stay_value(task.stay))


def _action_of(
    board: bytes, dealt: list[int], k: int, legal: list[int], g: Game, s: int
) -> int:
    """The action id whose after-state is the seat's board now."""
    now = board_bytes(g.observation(s)["boards"][s])
    for a in legal:
        if after_state(board, bytes(dealt), k, a, 0)[0] == now:
            return int(a)
    raise ModelError("the played move has no action id")  # pragma: no cover


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        if c != 0xFF:
            m |= 1 << int(c)
    return m


def _add(
    rows: dict[str, list[Any]],
    board: bytes,
    dealt: list[int],
    k: int,
    dead: int,
    action: int,
    deal: int,
) -> None:
    rows["board"].append(np.frombuffer(board, np.uint8))
    rows["dealt"].append(np.array(list(dealt) + [0xFF] * (5 - len(dealt)), np.uint8))
    rows["n"].append(len(dealt))
    rows["k"].append(k)
    rows["dead"].append(dead)
    rows["played"].append(action)
    rows["deal"].append(deal)


def _arrays(rows: dict[str, list[Any]]) -> dict[str, npt.NDArray[Any]]:
    return {
        "board": np.array(rows["board"], np.uint8).reshape(-1, 13),
        "dealt": np.array(rows["dealt"], np.uint8).reshape(-1, 5),
        "n": np.array(rows["n"], np.int8),
        "k": np.array(rows["k"], np.int8),
        "dead": np.array(rows["dead"], np.uint64),
        "played": np.array(rows["played"], np.int16),
        "deal": np.array(rows["deal"], np.int64),
    }


# ------------------------------------------------------------------ labels


@dataclass(frozen=True)
class LabelTask:
    """Labels of after-states start..stop-1: the mean best value of the next decision
    over ``samples`` draws, through ``model`` (the later streets' nets; None: the
    next board is complete)."""

    rules: str
    players: int
    model: bytes | None
    boards: npt.NDArray[Any]
    dead: npt.NDArray[Any]
    seed: int
    start: int
    samples: int
    opponent: bytes | None = None  # without a model: the opponent rows (uint32)
    stay: Stay = ()  # Fantasyland values of 13..17 cards (() : the rules' default)


def label_chunk(task: LabelTask) -> npt.NDArray[Any]:
    """float64 labels, one per after-state of the task."""
    rules = _rules(task.rules)
    ctx = context(rules, task.players, _model(task.model), task.opponent, task.stay)
    return np.array(
        [
            expect(
                ctx,
                bytes(b),
                int(d),
                next_decision(rules, task.players),
                task.seed,
                task.start + j,
                task.samples,
            )
            for j, (b, d) in enumerate(zip(task.boards, task.dead))
        ],
        np.float64,
    )


def expect(
    ctx: Any,
    board: bytes,
    dead: int,
    shape: tuple[int, int, int],
    seed: int,
    index: int,
    samples: int,
) -> float:
    """One label (C ``ofc_value_expect``): ``shape`` is the next decision's (cards,
    discards, cards the others show); the draws' stream is that of ``index``."""
    mean = ffi.new("double *")
    n, k, reveal = shape
    st = lib.ofc_value_expect(
        ctx, board, dead, n, k, reveal, _seed(seed, index), samples, mean, ffi.NULL
    )
    if st != OK:
        raise status_error(st, "label", ModelError)
    return float(mean[0])


def _seed(seed: int, i: int) -> int:
    return int(lib.ofc_random64(seed & (2**64 - 1), i))


def features(
    rules: RuleSet,
    players: int,
    boards: npt.NDArray[Any],
    dead: npt.NDArray[Any],
    opponent: bytes | None = None,
) -> npt.NDArray[Any]:
    """(N, FEATURES) float32 features of after-states, against ``opponent`` (uint32
    row counts; None: the typical opponent)."""
    ctx = _bare_context(rules, players, opponent)
    out = np.empty((len(boards), FEATURES), np.float32)
    buf = ffi.new(f"float[{FEATURES}]")
    for j, (b, d) in enumerate(zip(boards, dead)):
        st = lib.ofc_value_features(ctx, bytes(b), int(d), buf)
        if st != OK:
            raise status_error(st, "features", ModelError)
        out[j] = np.frombuffer(ffi.buffer(buf), np.float32)
    return out


# ------------------------------------------------------------------ evaluation


@dataclass(frozen=True)
class EvalTask:
    """Held-out decisions start..stop-1: every legal after-state valued by the model
    and by its teacher (the label through the later nets)."""

    rules: str
    players: int
    model: bytes
    teacher: bytes | None
    board: npt.NDArray[Any]
    dealt: npt.NDArray[Any]
    n: npt.NDArray[Any]
    k: npt.NDArray[Any]
    dead: npt.NDArray[Any]
    seed: int
    start: int
    samples: int
    stay: Stay = ()  # Fantasyland values of 13..17 cards (() : the rules' default)


def eval_chunk(task: EvalTask) -> npt.NDArray[Any]:
    """(D, 2): per decision the teacher's regret of the model's choice and 1 when the
    model picks the teacher's best move."""
    rules = _rules(task.rules)
    model = _model(task.model)
    assert model is not None
    ctx = context(rules, task.players, model, None, task.stay)
    tctx = context(rules, task.players, _model(task.teacher), None, task.stay)
    out = np.zeros((len(task.board), 2))
    vals = ffi.new(f"double[{int(lib.OFC_ACTION_SPACE)}]")
    for j in range(len(task.board)):
        n, k = int(task.n[j]), int(task.k[j])
        board, dealt = bytes(task.board[j]), bytes(task.dealt[j][:n])
        rows = [[c for c in board[s:e] if c != 0xFF] for s, e in ((0, 3), (3, 8), (8, 13))]
        legal = bytes(actions_for(n, rows, k))
        st = lib.ofc_value_actions(
            ctx, board, dealt, n, k, int(task.dead[j]), legal, len(legal), vals
        )
        if st != OK:
            raise status_error(st, "eval", ModelError)
        mine = int(np.argmax([vals[i] for i in range(len(legal))]))
        shape = next_decision(rules, task.players)
        teacher = np.array(
            [
                expect(
                    tctx,
                    *after_state(board, dealt, k, a, int(task.dead[j])),
                    shape,
                    task.seed,
                    task.start + j,
                    task.samples,
                )
                for a in legal
            ]
        )
        out[j] = (teacher.max() - teacher[mine], float(teacher[mine] >= teacher.max()))
    return out
