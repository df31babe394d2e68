"""HeuristicBot: fast and sound.

For each legal move it completes the board many times with cards it has not seen (a
sample of the cards still to come, arranged a few ways, the best arrangement kept),
values all those boards in one C call (:mod:`ofc_fast.bots.model`: royalties, the
rows' chances against a typical board, a Fantasyland bonus, a penalty for fouling),
and plays the move with the best average value.  Fantasyland sets use the exact
solver (:func:`ofc_fast.solver.solve_fantasyland`), else a pruned exhaustive search;
classic hands take the C arranger's setting with the most expected points (else
this module values all 72,072 settings), and declare a natural or surrender when
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

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, permutations, product
from math import factorial
from numbers import Integral
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._native import lib
from ..batch import rank5_batch
from ..board import ROW_SIZES, free_slots, row_splits
from ..errors import BotError, RulesError, quote
from ..game import Move, actions_for, move_for_action
from ..rules import RuleSet, RulesLike, as_rules
from ..search import decision_actions, flag, given_actions
from ..table import check_seed
from ._warm import rehearse, warm_seats, warm_table
from .base import (
    ObservationLike,
    SeparateCopies,
    dealt_cards,
    names_bad_observations,
    rules_of,
    unseen_cards,
)
from .model import (
    SETTING_MAX,
    HeuristicModel,
    ModelSettings,
    MoveRows,
    number_setting,
    sample_futures,
    value_model,
)

__all__ = ["HeuristicBot"]

_CARD = int(lib.OFC_HEUR_CARD)  # template byte of card c: _CARD + c; below: a slot
_OWN = 16  # position code of the i-th card of own row r: _OWN + 5 r + i
_DEALT = 32  # position code of dealt card i: _DEALT + i


class _Shape(NamedTuple):
    """The legal moves of one decision shape (cards, discards, free slots per row):
    their action ids, their rows as templates in position codes (slots 0.., own cards
    _OWN.., dealt cards _DEALT..; each distinct row once), and the free slots each
    move leaves per row."""

    actions: tuple[int, ...]
    rows: MoveRows
    free_after: tuple[tuple[int, int, int], ...]


@lru_cache(maxsize=512)
def _shape(n: int, k: int, free: tuple[int, int, int]) -> _Shape:
    """Templates from the public move generator, with dummy card ids: dealt card i is
    id i, so a placement's card is the dealt index."""
    own: list[list[int]] = []
    for r in range(3):
        start = n + sum(len(o) for o in own)
        own.append(list(range(start, start + ROW_SIZES[r] - free[r])))
    acts = actions_for(n, own, k)
    index: list[dict[tuple[int, ...], int]] = [{}, {}]  # fronts, fives
    moves = np.empty((len(acts), 3), dtype=np.uint16)
    after = []
    for a_i, action in enumerate(acts):
        move = move_for_action(action, list(range(n)), own, k)
        placed: list[list[int]] = [[], [], []]
        for card, row in move.placements:
            placed[int(row)].append(card)
        slot = 0
        for r in range(3):
            left = free[r] - len(placed[r])
            codes = tuple(
                [_OWN + 5 * r + i for i in range(ROW_SIZES[r] - free[r])]
                + [_DEALT + i for i in placed[r]]
                + list(range(slot, slot + left))
            )
            slot += left
            table = index[r > 0]
            moves[a_i, r] = table.setdefault(codes, len(table))
        after.append(
            (free[0] - len(placed[0]), free[1] - len(placed[1]), free[2] - len(placed[2]))
        )
    fronts = np.array(list(index[0]), dtype=np.uint8).reshape(-1, 3)
    fives = np.array(list(index[1]), dtype=np.uint8).reshape(-1, 5)
    for arr in (fronts, fives, moves):
        arr.flags.writeable = False
    return _Shape(acts, MoveRows(fronts, fives, moves), tuple(after))


def _templates(
    shape: _Shape, rows: Sequence[Sequence[int]], dealt: Sequence[int]
) -> MoveRows:
    """The shape's row templates with this decision's cards."""
    lut = bytearray(range(_DEALT + 5))
    for r, row in enumerate(rows):
        for i, c in enumerate(row):
            lut[_OWN + 5 * r + i] = _CARD + c
    for i, c in enumerate(dealt):
        lut[_DEALT + i] = _CARD + c
    codes = np.frombuffer(bytes(lut), dtype=np.uint8)
    return MoveRows(codes[shape.rows.fronts], codes[shape.rows.fives], shape.rows.moves)


def _allowed(obs: ObservationLike, actions: tuple[int, ...]) -> list[int] | None:
    """The indices into ``actions`` (every legal action of the decision) of the
    observation's ``legal_actions``, checked as the search reads them
    (:func:`~ofc_fast.search.decision_actions`: an ObservationError naming them); None
    where it gives every one (the engine's list) or none (None, or no key)."""
    given = given_actions(obs)  # an empty list: ObservationError
    if given is None or (len(given) == len(actions) and list(given) == list(actions)):
        return None
    index = {a: i for i, a in enumerate(actions)}
    return [index[a] for a in decision_actions(obs)]


def _some(shape: _Shape, allowed: list[int]) -> _Shape:
    """``shape`` with the moves of its ``allowed`` indices only."""
    rows = shape.rows
    return _Shape(
        tuple(shape.actions[i] for i in allowed),
        rows._replace(moves=rows.moves[allowed]),
        tuple(shape.free_after[i] for i in allowed),
    )


def _arrangement_count(n: int, slots: int, rounds: int) -> int:
    """How many ways to fill the slots from n future cards (0: none)."""
    if rounds:
        ways: int = 3**rounds * factorial(slots)  # int ** int is Any to mypy
        return ways
    return factorial(n) // factorial(n - slots) if n >= slots else 0


@lru_cache(maxsize=64)
def _all_arrangements(n: int, slots: int, rounds: int) -> npt.NDArray[Any]:
    """Every arrangement of n future cards into slots: (A, slots) indices; with
    Pineapple rounds (3 cards, keep 2), every choice of kept cards too."""
    out: list[tuple[int, ...]] = []
    if rounds:
        for drops in product(range(3), repeat=rounds):
            kept = [3 * r + i for r in range(rounds) for i in range(3) if i != drops[r]]
            out.extend(permutations(kept, slots))
    else:
        out.extend(permutations(range(n), slots))
    return np.array(out, dtype=np.intp).reshape(len(out), slots)


_SAMPLES_MAX = 10_000
"""The most ``samples``: with :data:`_ARRANGEMENTS_MAX` the boards a move is valued on
(samples x arrangements) stay at most 1,000,000, about 2 s a decision with no stop
(``samples=1_000_000`` took some 17 s a Pineapple decision; both large, 12 GB)."""
_ARRANGEMENTS_MAX = 100
_EXHAUSTIVE_MAX = 1_000_000  # a threshold on splits: far past any decision's count


def _int_setting(value: object, what: str, low: int, high: int) -> int:
    """A count setting as an int within low..high (NumPy ints too; no bools, no
    floats, no text), else BotError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise BotError(f"heuristic bot: {what} must be an int, got {quote(value)}")
    n = int(value)
    if not low <= n <= high:
        raise BotError(
            f"heuristic bot: {what} must be within {low}..{high:,}, got {quote(n)}"
        )
    return n


def _float_setting(value: object, what: str, low: float, high: float) -> float:
    """A number setting as a finite float within low..high (no bools, no text), else
    BotError."""
    return number_setting(value, what, low, high, BotError, "heuristic bot")


def seed_setting(seed: object, who: str) -> int | None:
    """A bot seed: None (fresh entropy) or an int 0..2**64-1 (NumPy's too) as a plain
    int, else BotError naming ``who``: the seeds a table, the search and the CLI take
    (:func:`ofc_fast.table.check_seed`, the one reader; NumPy's generator refuses
    negative, float and text seeds with a ValueError or TypeError; random.Random
    refuses NumPy ints)."""
    return None if seed is None else check_seed(seed, f"{who}: seed", BotError)


def rules_setting(rules: object, who: str) -> RuleSet | None:
    """A bot's ``rules``: None (the observation's) or the RuleSet
    :func:`~ofc_fast.rules.as_rules` resolves, else its RulesError naming ``who``; an
    int there (a seed given first, as to ``RandomBot(2)``: these bots take ``(rules,
    seed)``) says to pass ``seed=``."""
    if isinstance(rules, Integral) and not isinstance(rules, (bool, np.bool_)):
        raise RulesError(
            f"{who}: rules must be a RuleSet, a preset name or a game id, got "
            f"{quote(rules)} (the seed comes second, as in (rules, seed); or pass "
            f"seed={quote(int(rules))})"
        )
    return None if rules is None else as_rules(rules, who)


def _bool_setting(value: object, what: str) -> bool:
    """A flag setting: True or False (NumPy's too), else BotError."""
    return flag(value, f"heuristic bot: {what}", BotError)


@names_bad_observations
class HeuristicBot(SeparateCopies):
    """A fast Monte-Carlo heuristic (see the module doc).

    ``samples`` futures per move and ``arrangements`` ways of setting each (more: slower,
    a little stronger; at both tops, 10,000 and 100, about 2 s a decision, with no time
    budget: :class:`~ofc_fast.bots.SearchBot` takes one); ``foul_penalty``: value of a
    fouled board (points per opponent); ``fl_value``: value of a Fantasyland deal with
    14 cards, ``fl_step`` per extra card; ``row_weight`` scales the rows' expected
    points against the royalties.
    ``exhaustive``: in one-card-at-a-time play, try every split of each sampled future
    into the rows when there are at most this many (0: never); ``optimism`` (0..1)
    blends the best split (1) with the average one (0).  ``use_solver``: Fantasyland
    sets by the exact solver (else the pruned search); ``classic_solver``: classic
    hands by the C arranger's expected points (else the search below).  Counts are
    ints (``samples`` 1..10,000, ``arrangements`` 1..100, ``exhaustive``
    0..1,000,000), values finite numbers within +-1e6, flags True or False: anything
    else is a BotError naming the setting.  A normal decision's move is one of the
    observation's ``legal_actions`` (read as the search reads them: left out or None,
    every legal action; an empty list or an action of no legal move, an
    ObservationError naming it).

    >>> from ofc_fast.game import Game
    >>> g = Game("pineapple", players=2, seed=2)
    >>> bot = HeuristicBot("pineapple", seed=1, samples=8)
    >>> move = bot.act(g.observation(g.to_act))
    >>> move in g.legal_moves(), bot.settings()["samples"]
    (True, 8)
    >>> HeuristicBot(samples=0)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.BotError: ...samples...
    """

    name = "heuristic"

    def __init__(
        self,
        rules: RuleSet | str | None = None,
        seed: int | None = None,
        *,
        samples: int = 24,
        arrangements: int = 10,
        foul_penalty: float = 9.0,
        fl_value: float = 10.0,
        fl_step: float = 3.0,
        row_weight: float = 1.0,
        exhaustive: int = 200,
        optimism: float = 0.6,
        use_solver: bool = True,
        classic_solver: bool = True,
    ) -> None:
        self.rules = rules_setting(rules, "heuristic bot")
        self.rng = np.random.default_rng(seed_setting(seed, "heuristic bot"))
        self._carried: list[Any] = []  # the last carried rule set (rules_of memo)
        self.samples = _int_setting(samples, "samples", 1, _SAMPLES_MAX)
        self.arrangements = _int_setting(arrangements, "arrangements", 1, _ARRANGEMENTS_MAX)
        self.exhaustive = _int_setting(exhaustive, "exhaustive", 0, _EXHAUSTIVE_MAX)
        self.optimism = _float_setting(optimism, "optimism", 0.0, 1.0)
        self.use_solver = _bool_setting(use_solver, "use_solver")
        self.classic_solver = _bool_setting(classic_solver, "classic_solver")
        self.model_settings = ModelSettings(
            *(
                _float_setting(v, k, -SETTING_MAX, SETTING_MAX)
                for k, v in (
                    ("foul_penalty", foul_penalty),
                    ("fl_value", fl_value),
                    ("fl_step", fl_step),
                    ("row_weight", row_weight),
                )
            )
        )

    def settings(self) -> dict[str, Any]:
        """The keyword settings (JSON-able): ``HeuristicBot(rules, seed, **settings)``
        rebuilds an equal bot."""
        return {
            "samples": self.samples,
            "arrangements": self.arrangements,
            **self.model_settings._asdict(),
            "exhaustive": self.exhaustive,
            "optimism": self.optimism,
            "use_solver": self.use_solver,
            "classic_solver": self.classic_solver,
        }

    def reset(self, seed: int | None = None) -> None:
        """Start the random stream again from ``seed``."""
        self.rng = np.random.default_rng(seed_setting(seed, "heuristic bot"))

    def warm_up(self, rules: RulesLike | None = None, players: int | None = None) -> None:
        """Build the tables the first decision needs (``rules``, else the bot's own,
        else PINEAPPLE; ``players`` seats, else 2) by a rehearsal deal of a copy: this
        bot's random stream is untouched.  ``ofc-fast bot`` calls it before joining,
        with the table's rules and seat count, so that the first decision is as fast
        as the others.

        >>> HeuristicBot(seed=0).warm_up("ofc", players=3)
        """
        who = "heuristic bot warm_up"
        table = warm_table(rules, self.rules, who)
        seats = 2 if players is None else warm_seats(players, table, who)  # (0: refused)
        rehearse(HeuristicBot(table, 0, **self.settings()), table, seats)

    # -- the interface
    def act(self, observation: ObservationLike) -> Move:
        """The move for the observed decision (a Fantasyland set by the solver)."""
        obs = observation
        rules = rules_of(obs, self.rules, self._carried)
        model = value_model(rules, self.model_settings)
        dealt = dealt_cards(obs, rules.max_players)
        if obs.get("full_set") or len(dealt) > 5:
            if model.classic:
                return self._classic(model, dealt)
            return self._fantasyland(
                model, dealt, obs["to_discard"], obs["fantasyland"][obs["seat"]]
            )
        return self._normal(model, obs, dealt)

    # -- normal decisions
    def _normal(
        self, model: HeuristicModel, obs: ObservationLike, dealt: list[int]
    ) -> Move:
        seat = obs["seat"]
        rows = obs["boards"][seat]
        k = obs["to_discard"]
        free = free_slots(rows)
        shape = _shape(len(dealt), k, free)
        allowed = _allowed(obs, shape.actions)
        if allowed is not None:  # some legal actions only: value theirs
            shape = _some(shape, allowed)
        if len(shape.actions) == 1:
            return move_for_action(shape.actions[0], dealt, rows, k)
        tmpl = _templates(shape, rows, dealt)
        slots = sum(free) - (len(dealt) - k)
        in_fl = obs["fantasyland"][seat]
        if slots == 0:
            score = model.score_moves(tmpl, np.empty((1, 1, 0), dtype=np.uint8), in_fl)
            return move_for_action(shape.actions[int(np.argmax(score))], dealt, rows, k)
        unseen = unseen_cards(obs)
        n_fut = min(obs["future_cards"], len(unseen))
        fut_disc = obs["future_discards"]
        seed = int(self.rng.bit_generator.random_raw())
        K = self.samples
        if (
            fut_disc == 0
            and len(shape.actions) <= 3
            and n_fut == slots
            and self.exhaustive
            and factorial(slots)
            // (factorial(free[0]) * factorial(free[1]) * factorial(free[2]))
            <= self.exhaustive
        ):
            fut, _ = sample_futures(unseen, n_fut, slots, K, 0, seed)
            score = np.array(
                [
                    model.score_moves(
                        tmpl._replace(moves=tmpl.moves[c : c + 1]),
                        fut[:, row_splits(*after)],
                        in_fl,
                        self.optimism,
                    )[0]
                    for c, after in enumerate(shape.free_after)
                ]
            )
        else:
            # only Pineapple discards during play: rounds of 3 cards, 1 discarded
            rounds = fut_disc if fut_disc and n_fut == 3 * fut_disc else 0
            every = (
                _all_arrangements(n_fut, slots, rounds)
                if 0 < _arrangement_count(n_fut, slots, rounds) <= max(self.arrangements, 6)
                else None
            )
            fut, fills = sample_futures(
                unseen,
                n_fut,
                slots,
                K,
                0 if every is not None else self.arrangements,
                seed,
                rounds,
            )
            if every is not None:
                fills = fut[:, every]
            score = model.score_moves(tmpl, fills, in_fl)
        return move_for_action(shape.actions[int(np.argmax(score))], dealt, rows, k)

    # -- full sets
    def _fantasyland(
        self, model: HeuristicModel, dealt: list[int], discards: int, in_fl: int
    ) -> Move:
        if self.use_solver:
            from ..solver import solve_fantasyland

            sol = solve_fantasyland(dealt, rules=model.rules)
            return Move.from_board(sol.board, sol.discards)
        n = len(dealt)
        cards = np.array(dealt, dtype=np.uint8)
        if n == 13:
            idx = row_splits()
            best = idx[int(np.argmax(model.values(cards[idx], in_fl)))]
            return Move.from_rows(cards[best[:3]], cards[best[3:8]], cards[best[8:]])
        c5 = np.array(list(combinations(range(n), 5)), dtype=np.intp)
        bs = rank5_batch(np.ascontiguousarray(cards[c5]))
        mf = row_splits(3, 5, n - 13)[:, :8]  # every front 3 + middle 5 of the rest
        budget = 160_000
        top = max(4, min(len(c5), budget // len(mf)))
        order = np.argsort(-bs, kind="stable")[:top]
        best_v, best_pos = -np.inf, None
        for chunk in np.array_split(order, max(1, len(order) // 64)):
            if len(chunk) == 0:
                continue
            backs = c5[chunk]  # (B, 5)
            rest = np.array(
                [[i for i in range(n) if i not in b] for b in backs], dtype=np.intp
            )  # (B, n-5)
            mfi = rest[:, mf]  # (B, M, 8) positions: front 3 + middle 5
            B, M = mfi.shape[0], mfi.shape[1]
            pos = np.concatenate(
                [mfi, np.broadcast_to(backs[:, None, :], (B, M, 5))], axis=2
            ).reshape(-1, 13)
            v = model.values(cards[pos], in_fl)
            i = int(np.argmax(v))
            if v[i] > best_v:
                best_v, best_pos = v[i], pos[i]
        assert best_pos is not None
        used = set(best_pos.tolist())
        return Move.from_rows(
            cards[best_pos[:3]],
            cards[best_pos[3:8]],
            cards[best_pos[8:]],
            [c for i, c in enumerate(dealt) if i not in used],
        )

    def _classic(self, model: HeuristicModel, dealt: list[int]) -> Move:
        rules = model.rules
        if self.use_solver and self.classic_solver:
            from ..solver import best_setting

            sol = best_setting(dealt, rules, objective="ev")
            if sol.naturals and sol.naturals[0].units >= sol.value:
                return Move(declare=sol.naturals[0].name)
            if rules.surrender_cost is not None and sol.value < -rules.surrender_cost:
                return Move(surrender=True)
            return Move.from_board(sol.board)
        cards = np.array(dealt, dtype=np.uint8)
        idx = row_splits()
        v = model.values(cards[idx])
        i = int(np.argmax(v))
        weight = max(model.settings.row_weight, 1e-9)
        best_value = float(v[i]) / weight
        if rules.naturals or rules.surrender_cost is not None:
            # centre the value: an average hand is worth 0 against an average hand
            best_value -= _classic_zero(model) / weight
        if rules.naturals:
            from ..scoring.naturals import naturals

            found = naturals(dealt, rules)
            if found and found[0].units >= best_value:
                return Move(declare=found[0].name)
        if rules.surrender_cost is not None and best_value < -rules.surrender_cost:
            return Move(surrender=True)
        b = idx[i]
        return Move.from_rows(cards[b[:3]], cards[b[3:8]], cards[b[8:]])


@lru_cache(maxsize=16)
def _classic_zero(model: HeuristicModel, hands: int = 24) -> float:
    """Mean value of the best setting of random 13-card hands (computed once)."""
    rng = np.random.default_rng(99)
    idx = row_splits()
    total = 0.0
    for _ in range(hands):
        cards = rng.permutation(52)[:13].astype(np.uint8)
        total += float(model.values(cards[idx]).max())
    return total / hands
