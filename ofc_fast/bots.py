"""Bots: anything with ``act(observation) -> Move`` can sit at a :class:`~ofc_fast.Game`.

* :class:`RandomBot` plays a uniformly random legal move.
* :class:`HeuristicBot` is fast and sound: for each legal move it completes the board
  many times with cards it has not seen (a sample of the cards still to come, arranged a
  few ways, the best arrangement kept), evaluates all those boards in one C batch call,
  and plays the move with the best average value: royalties, the rows' chances against
  a typical board, a Fantasyland bonus, and a penalty for fouling.  Fantasyland sets use
  the exact solver (``ofc_fast.solver``) when it is built, else a pruned exhaustive
  search; classic hands take the C arranger's setting with the most expected points
  (else this module tries all 72,072 settings), declare a natural or surrender when
  that is worth more.

>>> from ofc_fast import rules
>>> from ofc_fast.bots import HeuristicBot, RandomBot
>>> from ofc_fast.game import Game
>>> g = Game(rules.PINEAPPLE, players=2, seed=3)
>>> bots = [HeuristicBot(seed=0), RandomBot(seed=1)]
>>> while not g.is_over:
...     seat = g.to_act
...     g.play(bots[seat].act(g.observation(seat)))
>>> g.result().fouls[0]
False

A complete bot is a class with one method; the observation is plain data
(see :meth:`ofc_fast.game.Game.observation`)::

    from random import Random
    from ofc_fast.game import moves_for, random_move

    class BackFirst:
        def __init__(self):
            self.rng = Random(0)

        def act(self, obs):
            rows = obs["boards"][obs["seat"]]
            if obs["full_set"]:  # Fantasyland or classic: 13-17 cards at once
                return random_move(obs["dealt"], rows, obs["to_discard"], self.rng)
            return moves_for(obs["dealt"], rows, obs["to_discard"])[-1]
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations, product
from random import Random
from typing import Any, Mapping, Optional, Protocol, Sequence, Union

import numpy as np

from ._compiled import LOW27, compiled
from ._native import ffi, lib
from .batch import eval_boards, rank5_batch
from .board import Row
from .errors import GameError
from .game import Move, actions_for, random_move
from .game.moves import action_destinations


def _patterns(n: int, k: int, ff: int, fm: int, fb: int) -> list[tuple]:
    out = []
    for a in actions_for(n, [[0] * (3 - ff), [0] * (5 - fm), [0] * (5 - fb)], k):
        d = action_destinations(n, k, a)
        kept = tuple(i for i in range(n) if d[i] != 3)
        out.append((a, kept, tuple(d[i] for i in kept), tuple(i for i in range(n) if d[i] == 3)))
    return out


def _pattern_move(dealt, p) -> Move:
    return Move._of(tuple(dealt), action_destinations(len(dealt), len(p[3]), p[0]))
from .ranking import STRENGTH_MAX
from .rules import RuleSet
from .rules import get as get_rules
from .rules.fantasyland_text import front_threshold
from .rules.model import Game as GameKind

__all__ = ["Bot", "RandomBot", "HeuristicBot", "BOTS", "make_bot", "make_bots"]


class Bot(Protocol):
    """The bot interface."""

    def act(self, observation: Mapping[str, Any]) -> Move:
        """The move for the seat ``observation["seat"]``, whose turn it is."""
        ...  # pragma: no cover


_SIZE = STRENGTH_MAX + 1
_INFO = np.array([lib.ofc_strength_info(s) for s in range(_SIZE)], dtype=np.uint32)
_NCARDS = (_INFO >> 24).astype(np.int8)
_CAT = ((_INFO >> 20) & 0xF).astype(np.int8)
_NUTS27 = int(LOW27.max())


def _unseen(obs: Mapping[str, Any]) -> np.ndarray:
    """Cards this seat has not seen anywhere."""
    seen = np.zeros(52, dtype=bool)
    for b in obs["boards"]:
        for r in b:
            seen[r] = True
    seen[obs["dealt"]] = True
    seen[obs["discards"]] = True
    return np.flatnonzero(~seen).astype(np.uint8)


class RandomBot:
    """A uniformly random legal move (a Fantasyland or classic set: a uniformly random
    setting of uniformly random kept cards)."""

    name = "random"

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = Random(seed)

    def act(self, observation: Mapping[str, Any]) -> Move:
        obs = observation
        return random_move(obs["dealt"], obs["boards"][obs["seat"]], obs["to_discard"],
                           self.rng)


# ------------------------------------------------------------- evaluation model

def _typical_rows(n: int = 3000, seed: int = 12345) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """Strengths of the rows of ``n`` typical boards: 13 random cards set greedily
    (strongest back, then strongest middle, front the rest)."""
    rng = np.random.default_rng(seed)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :13].astype(np.uint8)
    c5 = np.array(list(combinations(range(13), 5)), dtype=np.intp)
    backs = hands[:, c5].reshape(-1, 5)
    bs = rank5_batch(np.ascontiguousarray(backs)).reshape(n, len(c5))
    bi = bs.argmax(axis=1)
    back_strength = bs[np.arange(n), bi]
    rest_idx = np.array([[i for i in range(13) if i not in c] for c in c5], dtype=np.intp)
    rest = np.take_along_axis(hands, rest_idx[bi], axis=1)  # (n, 8)
    c58 = np.array(list(combinations(range(8), 5)), dtype=np.intp)
    mids = rest[:, c58].reshape(-1, 5)
    ms = rank5_batch(np.ascontiguousarray(mids)).reshape(n, len(c58))
    mi = ms.argmax(axis=1)
    mid_strength = ms[np.arange(n), mi]
    front_idx = np.array([[i for i in range(8) if i not in c] for c in c58], dtype=np.intp)
    fronts = np.take_along_axis(rest, front_idx[mi], axis=1)
    fs = np.array([lib.ofc_rank3_unchecked(int(a), int(b), int(c)) for a, b, c in fronts])
    return fs, mid_strength, back_strength


def _cdf(samples: np.ndarray, valid: np.ndarray, key: Optional[np.ndarray] = None
         ) -> np.ndarray:
    """Per strength: share of ``samples`` below it plus half the equal ones (smoothed
    with one pseudo-observation per valid strength, so unseen strengths still order)."""
    k = np.arange(_SIZE) if key is None else key
    sk = np.sort(k[samples])
    allk = np.sort(k[valid])
    below = np.searchsorted(sk, k, "left") + np.searchsorted(allk, k, "left") * 0.02
    equal = (np.searchsorted(sk, k, "right") - np.searchsorted(sk, k, "left")
             + (np.searchsorted(allk, k, "right") - np.searchsorted(allk, k, "left")) * 0.02)
    total = len(sk) + len(allk) * 0.02
    return np.where(valid, (below + 0.5 * equal) / total, 0.0).astype(np.float64)


@lru_cache(maxsize=1)
def _row_cdfs() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    fs, ms, bs = _typical_rows()
    three, five = _NCARDS == 3, _NCARDS == 5
    low_valid = five & (_CAT == 0)
    lows = np.flatnonzero(low_valid)
    rng = np.random.default_rng(7)
    return (_cdf(fs, three), _cdf(ms, five), _cdf(bs, five),
            _cdf(rng.choice(lows, 4000), low_valid, LOW27))


@lru_cache(maxsize=1)
def _splits13() -> np.ndarray:
    """(72072, 13) indices: every front/middle/back split of 13 positions."""
    out = []
    for f in combinations(range(13), 3):
        rest = [i for i in range(13) if i not in f]
        for m in combinations(rest, 5):
            out.append(f + m + tuple(i for i in rest if i not in m))
    return np.array(out, dtype=np.intp)


@lru_cache(maxsize=8)
def _mid_front(m: int) -> np.ndarray:
    """(N, 8) positions in range(m): every middle 5 and front 3 of m cards."""
    out = []
    for mid in combinations(range(m), 5):
        rest = [i for i in range(m) if i not in mid]
        for f in combinations(rest, 3):
            out.append(f + mid)
    return np.array(out, dtype=np.intp)


@lru_cache(maxsize=32)
def _model(rules: RuleSet, solver_tables: bool = False) -> "_Model":
    m = _Model(rules)
    if solver_tables:
        m.use_solver_tables()
    return m


class _Model:
    """Vectorised board values under one rule set."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.lowball = rules.lowball is not None
        f, m, b, low = _row_cdfs()
        self.pct = (f, low if self.lowball else m, b)
        c = compiled(rules)
        self.win_value = np.frombuffer(ffi.buffer(c.win_value), dtype=np.int16
                                       ).reshape(3, _SIZE).astype(np.float64)
        self.classic = rules.game is GameKind.CLASSIC
        self.win: Optional[np.ndarray] = None
        self.lose: Optional[np.ndarray] = None
        fl = rules.fantasyland
        self.fl = fl
        if fl is not None and not self.classic:
            self.entry = sorted((front_threshold(t), n) for t, n in fl.entry)
            self.stay_front = front_threshold(fl.stay_front) if fl.stay_front else None
        else:
            self.entry = []
            self.stay_front = None

    def next_fl(self, strength: np.ndarray, foul: np.ndarray, in_fl: int) -> np.ndarray:
        """Fantasyland cards earned next deal (vectorised fantasyland_cards)."""
        n = len(foul)
        out = np.zeros(n, dtype=np.int16)
        fl = self.fl
        if fl is None or self.classic:
            return out
        front, mid, back = strength[:, 0], strength[:, 1], strength[:, 2]

        def entry() -> np.ndarray:
            e = np.zeros(n, dtype=np.int16)
            for thr, cards in self.entry:
                e = np.where(front >= thr, np.maximum(e, cards), e)
            if self.lowball and fl.lowball_entry:
                nuts = LOW27[mid] == _NUTS27
                both = fl.lowball_both if fl.lowball_both else fl.lowball_entry
                e = np.where(nuts, np.where(e > 0, both if fl.lowball_both else
                                            np.maximum(e, fl.lowball_entry),
                                            fl.lowball_entry), e)
            return e

        if not in_fl:
            out = entry()
        else:
            stays = np.zeros(n, dtype=bool)
            if self.stay_front is not None:
                stays |= front >= self.stay_front
            if fl.stay_middle is not None and not self.lowball:
                stays |= _CAT[mid] >= int(fl.stay_middle)
            if fl.stay_back is not None:
                stays |= _CAT[back] >= int(fl.stay_back)
            if fl.stay_cards == "same":
                cards = np.full(n, in_fl, dtype=np.int16)
            elif fl.stay_cards == "entry":
                e = entry()
                cards = np.where(e > 0, e, min(c for _, c in fl.entry))
            else:
                cards = np.full(n, int(fl.stay_cards), dtype=np.int16)
            out = np.where(stays, cards, 0).astype(np.int16)
        return np.where(foul, 0, out)

    def use_solver_tables(self) -> bool:
        """Take the rows' win / lose chances from the solver's typical-opponent tables
        (``ofc_fast.solver.ev_tables``)."""
        from .solver import ev_tables

        t = ev_tables(self.rules)
        self.win = np.frombuffer(ffi.buffer(t.win), dtype=np.float32).reshape(3, _SIZE)
        self.lose = np.frombuffer(ffi.buffer(t.lose), dtype=np.float32).reshape(3, _SIZE)
        return True

    def row_ev(self, strength: np.ndarray) -> np.ndarray:
        """Expected row and sweep points against one typical board."""
        r = self.rules
        win, lose = self.win, self.lose
        if win is not None and lose is not None and not self.classic:
            w0, w1, w2 = (win[i][strength[:, i]].astype(np.float64) for i in range(3))
            l0, l1, l2 = (lose[i][strength[:, i]].astype(np.float64) for i in range(3))
            ev = (w0 - l0) + (w1 - l1) + (w2 - l2)
            ev = ev + r.sweep_bonus * (w0 * w1 * w2 - l0 * l1 * l2)
            if r.majority_bonus:
                ev = ev + r.majority_bonus * (w0 * w1 + w0 * w2 + w1 * w2 - 2 * w0 * w1 * w2
                                              - (l0 * l1 + l0 * l2 + l1 * l2 - 2 * l0 * l1 * l2))
            return ev
        p0 = self.pct[0][strength[:, 0]]
        p1 = self.pct[1][strength[:, 1]]
        p2 = self.pct[2][strength[:, 2]]
        ev = (2 * p0 - 1) + (2 * p1 - 1) + (2 * p2 - 1)
        if self.classic:  # win-only bonuses: a won row pays its win value
            wv = self.win_value
            ev = (p0 * wv[0][strength[:, 0]] - (1 - p0)) \
                + (p1 * wv[1][strength[:, 1]] - (1 - p1)) \
                + (p2 * wv[2][strength[:, 2]] - (1 - p2))
        sweep_for = p0 * p1 * p2
        sweep_against = (1 - p0) * (1 - p1) * (1 - p2)
        ev = ev + r.sweep_bonus * (sweep_for - sweep_against)
        if r.majority_bonus:
            two_for = p0 * p1 + p0 * p2 + p1 * p2 - 2 * sweep_for
            two_against = ((1 - p0) * (1 - p1) + (1 - p0) * (1 - p2) + (1 - p1) * (1 - p2)
                           - 2 * sweep_against)
            ev = ev + r.majority_bonus * (two_for + sweep_for - two_against - sweep_against)
        return ev


class HeuristicBot:
    """A fast Monte-Carlo heuristic (see the module doc).

    ``samples`` futures per move and ``arrangements`` ways of setting each (more: slower,
    a little stronger); ``foul_penalty``: value of a fouled board (points per opponent);
    ``fl_value``: value of a Fantasyland deal with 14 cards, ``fl_step`` per extra card;
    ``row_weight`` scales the rows' expected points against the royalties.
    ``exhaustive``: in one-card-at-a-time play, try every split of each sampled future
    into the rows when there are at most this many (0: never); ``optimism`` (0..1)
    blends the best split (1) with the average one (0).  ``use_solver``: Fantasyland
    sets by the exact solver when it is built (else the pruned search);
    ``classic_solver``: classic hands by the C arranger's expected points (else the
    NumPy search below); ``solver_tables``: rate rows with the solver's
    typical-opponent tables instead of this module's (no better in tests so far).
    """

    name = "heuristic"

    def __init__(self, rules: Union[RuleSet, str, None] = None, seed: Optional[int] = None,
                 *, samples: int = 24, arrangements: int = 10, foul_penalty: float = 9.0,
                 fl_value: float = 10.0, fl_step: float = 3.0, row_weight: float = 1.0,
                 exhaustive: int = 200, optimism: float = 0.6,
                 use_solver: bool = True, classic_solver: bool = True,
                 solver_tables: bool = False) -> None:
        self.rules = get_rules(rules) if isinstance(rules, str) else rules
        self.rng = np.random.default_rng(seed)
        self.samples = samples
        self.arrangements = arrangements
        self.foul_penalty = foul_penalty
        self.fl_value = fl_value
        self.fl_step = fl_step
        self.row_weight = row_weight
        self.exhaustive = exhaustive
        self.optimism = optimism
        self.use_solver = use_solver
        self.classic_solver = classic_solver
        self.solver_tables = solver_tables

    # -- values
    def _fl_bonus(self, cards: np.ndarray) -> np.ndarray:
        return np.where(cards > 0, self.fl_value + self.fl_step * (cards - 14), 0.0)

    def _values(self, model: _Model, boards: np.ndarray, in_fl: int) -> np.ndarray:
        e = eval_boards(boards, model.rules)
        s = e.strength
        v = e.royalty.sum(axis=1) + self.row_weight * model.row_ev(s)
        if model.fl is not None and not model.classic:
            v = v + self._fl_bonus(model.next_fl(s, e.foul, in_fl))
        return np.where(e.foul, -self.foul_penalty, v)

    # -- the interface
    def act(self, observation: Mapping[str, Any]) -> Move:
        obs = observation
        rules = self.rules
        if rules is None or rules.name != obs["rules"]:
            rules = self.rules if self.rules is not None and \
                self.rules.name == obs["rules"] else get_rules(obs["rules"])
        model = _model(rules, self.solver_tables)
        dealt = list(obs["dealt"])
        if not dealt:
            raise GameError(f"seat {obs['seat']} has nothing to play")
        if obs.get("full_set") or len(dealt) > 5:
            if model.classic:
                return self._classic(model, dealt)
            return self._fantasyland(model, dealt, obs["to_discard"],
                                     obs["fantasyland"][obs["seat"]])
        return self._normal(model, obs, dealt)

    # -- normal decisions
    def _normal(self, model: _Model, obs: Mapping[str, Any], dealt: list[int]) -> Move:
        seat = obs["seat"]
        rows = [list(r) for r in obs["boards"][seat]]
        k = obs["to_discard"]
        free = (3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2]))
        pats = _patterns(len(dealt), k, *free)
        if len(pats) == 1:
            return _pattern_move(dealt, pats[0])
        n_fut = obs["future_cards"]
        fut_disc = obs["future_discards"]
        slots = sum(free) - (len(dealt) - k)
        # templates: index into [slot cards..., 0..51]
        tmpl = np.empty((len(pats), 13), dtype=np.intp)
        for ci, (_, kept, prow, _) in enumerate(pats):
            cur = [list(r) for r in rows]
            for i, row in zip(kept, prow):
                cur[row].append(dealt[i])
            t: list[int] = []
            j = 0
            for placed, size in zip(cur, (3, 5, 5)):
                t.extend(slots + c for c in placed)
                for _ in range(size - len(placed)):
                    t.append(j)
                    j += 1
            tmpl[ci] = t
        in_fl = obs["fantasyland"][seat]
        if slots == 0:
            boards = np.ascontiguousarray(np.arange(52, dtype=np.uint8)[tmpl])
            values = self._values(model, boards, in_fl)
            return _pattern_move(dealt, pats[int(np.argmax(values))])
        unseen = _unseen(obs)
        n_fut = min(n_fut, len(unseen))
        K = self.samples
        pick = np.argsort(self.rng.random((K, len(unseen))), axis=1)[:, :n_fut]
        fut = unseen[pick]  # (K, n_fut)
        if fut_disc == 0 and len(pats) <= 3 and n_fut == slots and self.exhaustive \
                and _fact(slots) // (_fact(free[0]) * _fact(free[1]) * _fact(free[2])) \
                <= self.exhaustive:
            score = self._exhaustive_scores(model, tmpl, pats, dealt, rows, fut, in_fl)
            return _pattern_move(dealt, pats[int(np.argmax(score))])
        sel = self._arrangements(fut, slots, fut_disc)  # (K, P, slots)
        P = sel.shape[1]
        filled = np.take_along_axis(fut[:, None, :], sel, axis=2)  # (K, P, slots)
        ext = np.concatenate([filled, np.broadcast_to(np.arange(52, dtype=np.uint8),
                                                      (K, P, 52))], axis=2)
        boards = ext[:, :, tmpl]  # (K, P, C, 13)
        flat = np.ascontiguousarray(boards.reshape(-1, 13))
        values = self._values(model, flat, in_fl).reshape(K, P, len(pats))
        score = values.max(axis=1).mean(axis=0)
        return _pattern_move(dealt, pats[int(np.argmax(score))])

    def _exhaustive_scores(self, model: _Model, tmpl: np.ndarray, pats: tuple,
                           dealt: list[int], rows: list[list[int]], fut: np.ndarray,
                           in_fl: int) -> np.ndarray:
        """One card at a time (OFC): every way of setting each sampled future, per
        move; the value blends the best setting (what a clairvoyant player would
        reach) and the average one (what chance alone gives), by ``optimism``."""
        K, n = fut.shape
        scores = np.empty(len(pats))
        for ci, (_, kept, prow, _) in enumerate(pats):
            free = [3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2])]
            for r in prow:
                free[r] -= 1
            sel = _row_assignments(*free)  # (A, n): future card per slot
            filled = fut[:, sel]  # (K, A, n)
            A = sel.shape[0]
            ext = np.concatenate([filled, np.broadcast_to(np.arange(52, dtype=np.uint8),
                                                          (K, A, 52))], axis=2)
            flat = np.ascontiguousarray(ext[:, :, tmpl[ci]].reshape(-1, 13))
            v = self._values(model, flat, in_fl).reshape(K, A)
            blend = self.optimism * v.max(axis=1) + (1 - self.optimism) * v.mean(axis=1)
            scores[ci] = blend.mean()
        return scores

    def _arrangements(self, fut: np.ndarray, slots: int, fut_disc: int) -> np.ndarray:
        """(K, P, slots) indices into each future: which card fills which slot."""
        K, n = fut.shape
        rounds = fut_disc
        if rounds and n != 3 * rounds:  # only Pineapple discards during play
            rounds = 0
        # every arrangement when there are few
        if rounds:
            count = 3 ** rounds * _fact(slots)
        else:
            count = _fact(n) // _fact(n - slots) if n >= slots else 0
        if count <= max(self.arrangements, 6) and count > 0:
            allp = _all_arrangements(n, slots, rounds)
            return np.broadcast_to(allp, (K,) + allp.shape)
        P = self.arrangements
        r = self.rng.random((K, P, n))
        if rounds:
            # keep 2 of each round's 3 cards at random
            order = np.argsort(r.reshape(K, P, rounds, 3), axis=3)[..., :2]
            kept = (order + 3 * np.arange(rounds)[None, None, :, None]).reshape(K, P, -1)
        else:
            kept = np.broadcast_to(np.arange(n), (K, P, n))
        perm = np.argsort(self.rng.random((K, P, kept.shape[2])), axis=2)[..., :slots]
        sel = np.take_along_axis(kept, perm, axis=2)
        # arrangement 0: the highest cards to the back, the lowest to the front
        ranks = (fut >> 2).astype(np.int16)
        if rounds:  # drop the lowest card of each round
            low = np.argmin(ranks.reshape(K, rounds, 3), axis=2)
            per_round = ranks.reshape(K, rounds, 3).copy()
            per_round[np.arange(K)[:, None], np.arange(rounds)[None, :], low] = -1
            cand = per_round.reshape(K, -1)
        else:
            cand = ranks
        by_rank = np.argsort(-cand, axis=1, kind="stable")[:, :slots]
        sel = np.array(sel)
        sel[:, 0, :] = by_rank[:, ::-1]
        return sel

    # -- full sets
    def _fantasyland(self, model: _Model, dealt: list[int], discards: int,
                     in_fl: int) -> Move:
        if self.use_solver:
            return _solver_move(model.rules, dealt)
        n = len(dealt)
        cards = np.array(dealt, dtype=np.uint8)
        if n == 13:
            idx = _splits13()
            boards = np.ascontiguousarray(cards[idx])
            v = self._values(model, boards, in_fl)
            best = idx[int(np.argmax(v))]
            return _set_move(cards, best[:3], best[3:8], best[8:], [])
        c5 = np.array(list(combinations(range(n), 5)), dtype=np.intp)
        bs = rank5_batch(np.ascontiguousarray(cards[c5]))
        mf = _mid_front(n - 5)
        budget = 160_000
        top = max(4, min(len(c5), budget // len(mf)))
        order = np.argsort(-bs, kind="stable")[:top]
        best_v, best = -np.inf, None
        for chunk in np.array_split(order, max(1, len(order) // 64)):
            if len(chunk) == 0:
                continue
            backs = c5[chunk]  # (B, 5)
            rest = np.array([[i for i in range(n) if i not in b] for b in backs],
                            dtype=np.intp)  # (B, n-5)
            mfi = rest[:, mf]  # (B, M, 8) positions: front 3 + middle 5
            B, M = mfi.shape[0], mfi.shape[1]
            pos = np.concatenate([mfi, np.broadcast_to(backs[:, None, :], (B, M, 5))],
                                 axis=2).reshape(-1, 13)
            boards = np.ascontiguousarray(cards[pos])
            v = self._values(model, boards, in_fl)
            i = int(np.argmax(v))
            if v[i] > best_v:
                best_v, best = v[i], pos[i]
        assert best is not None
        used = set(best.tolist())
        disc = [i for i in range(n) if i not in used]
        return _set_move(cards, best[:3], best[3:8], best[8:], disc)

    def _classic_zero(self, model: _Model, hands: int = 24) -> float:
        """Mean value of the best setting of random 13-card hands (computed once)."""
        key = (model.rules, self.row_weight)
        if key not in _ZERO:
            rng = np.random.default_rng(99)
            idx = _splits13()
            total = 0.0
            for _ in range(hands):
                cards = rng.permutation(52)[:13].astype(np.uint8)
                total += float(self._values(model, np.ascontiguousarray(cards[idx]),
                                            0).max())
            _ZERO[key] = total / hands / max(self.row_weight, 1e-9)
        return _ZERO[key]

    def _classic(self, model: _Model, dealt: list[int]) -> Move:
        if self.use_solver and self.classic_solver:
            return _classic_solver_move(model.rules, dealt)
        cards = np.array(dealt, dtype=np.uint8)
        idx = _splits13()
        boards = np.ascontiguousarray(cards[idx])
        v = self._values(model, boards, 0)
        i = int(np.argmax(v))
        best_value = float(v[i]) / max(self.row_weight, 1e-9)
        rules = model.rules
        if rules.naturals or rules.surrender_cost is not None:
            # centre the value: an average hand is worth 0 against an average hand
            best_value -= self._classic_zero(model)
        if rules.naturals:
            from .naturals import naturals
            found = naturals(dealt, rules)
            if found and found[0].units >= best_value:
                return Move(declare=found[0].name)
        if rules.surrender_cost is not None and best_value < -rules.surrender_cost:
            return Move(surrender=True)
        b = idx[i]
        return _set_move(cards, b[:3], b[3:8], b[8:], [])


_ZERO: dict[tuple, float] = {}


def _fact(n: int) -> int:
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


@lru_cache(maxsize=256)
def _row_assignments(f: int, m: int, b: int) -> np.ndarray:
    """(A, f+m+b) orders of the future cards 0..n-1 into the free slots (front slots
    first), one per distinct split into rows: n! / (f! m! b!) of them."""
    n = f + m + b
    out = []
    for front in combinations(range(n), f):
        rest = [i for i in range(n) if i not in front]
        for mid in combinations(rest, m):
            out.append(front + mid + tuple(i for i in rest if i not in mid))
    return np.array(out, dtype=np.intp).reshape(len(out), n)


@lru_cache(maxsize=64)
def _all_arrangements(n: int, slots: int, rounds: int) -> np.ndarray:
    out: list[tuple[int, ...]] = []
    if rounds:
        for drops in product(range(3), repeat=rounds):
            kept = [3 * r + i for r in range(rounds) for i in range(3) if i != drops[r]]
            out.extend(permutations(kept, slots))
    else:
        out.extend(permutations(range(n), slots))
    return np.array(out, dtype=np.intp).reshape(len(out), slots)


def _set_move(cards: np.ndarray, front: Sequence[int], middle: Sequence[int],
              back: Sequence[int], discard: Sequence[int]) -> Move:
    pl = tuple((int(cards[i]), Row.FRONT) for i in front) + \
        tuple((int(cards[i]), Row.MIDDLE) for i in middle) + \
        tuple((int(cards[i]), Row.BACK) for i in back)
    return Move(pl, tuple(int(cards[i]) for i in discard))


def _classic_solver_move(rules: RuleSet, dealt: list[int]) -> Move:
    """Classic: the C arranger's best setting by expected points; a natural worth
    more is declared, a surrender that loses less is taken."""
    from .solver import best_setting

    sol = best_setting(dealt, rules, objective="ev")
    if sol.naturals and sol.naturals[0].units >= sol.value:
        return Move(declare=sol.naturals[0].name)
    if rules.surrender_cost is not None and sol.value < -rules.surrender_cost:
        return Move(surrender=True)
    b = sol.board
    return Move(tuple((c, Row.FRONT) for c in b.front)
                      + tuple((c, Row.MIDDLE) for c in b.middle)
                      + tuple((c, Row.BACK) for c in b.back))


def _solver_move(rules: RuleSet, dealt: list[int]) -> Move:
    """The exact Fantasyland solver's setting."""
    from .solver import solve_fantasyland

    sol = solve_fantasyland(dealt, rules=rules)
    b = sol.board
    pl = tuple((c, Row.FRONT) for c in b.front) + tuple((c, Row.MIDDLE) for c in b.middle) \
        + tuple((c, Row.BACK) for c in b.back)
    return Move(pl, tuple(sol.discards))


# ---------------------------------------------------------------------- registry

BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
"""Bot classes by name (the names ``ofc-fast play --bots`` accepts)."""


def make_bot(name: str, rules: Optional[RuleSet] = None, seed: Optional[int] = None) -> Any:
    """A bot by name: ``"random"`` or ``"heuristic"``."""
    key = name.strip().lower()
    if key not in BOTS:
        raise GameError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    if key == "heuristic":
        return HeuristicBot(rules, seed=seed)
    return BOTS[key](seed=seed)


def make_bots(names: Union[str, Sequence[str]], players: int,
              rules: Optional[RuleSet] = None, seed: Optional[int] = None) -> list[Any]:
    """One bot per seat from names (a comma-separated string or a list): one name
    for every seat, or exactly one per seat.  Seeds derive from ``seed``."""
    items = [n for n in (names.split(",") if isinstance(names, str) else names)
             if n.strip()]
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise GameError(f"{players} seats need 1 or {players} bot names, got {len(items)}: "
                        f"{', '.join(items)}")
    rng = Random(seed)
    return [make_bot(n, rules, rng.getrandbits(63)) for n in items]
