"""Independent pure-Python model of one deal, written from the engine's specification
(docs/rules.md section 10, docs/design.md "Deal RNG", the formulas in csrc/include/ofc_game.h),
not from its code: the counter-based RNG and the deck of a seed, the deal schedule of
every game kind with Fantasyland seats, the legal action set of a normal decision,
applying an action or a full set (classic declarations and surrenders included), what
each seat may see, and the reference result of a finished deal.

It never imports ``ofc_fast.game`` and never calls ``Game``: the differential and property
tests (test_engine_differential.py, test_engine_properties.py) hold the engine to it.  From
ofc_fast it only reads rule sets (``rules.game``, ``face_down_final``, the royalty
schedules, Fantasyland settings, naturals) and, where the settlement is not plain
pairwise, calls ``ofc_fast.settle`` (tested on its own elsewhere).  Hands are evaluated by
the independent references ``reference.py``, ``reference_scoring.py`` and
``reference_naturals.py``.

>>> deck_of_seed(0)[:5]
[12, 35, 8, 48, 2]
>>> m = DealModel(rules.PINEAPPLE, 2, button=0, deck=deck_of_seed(7))
>>> m.to_act, len(m.dealt), len(m.legal_actions())
(1, 5, 232)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from typing import Any

import reference as ref
import reference_naturals as ref_nat
import reference_scoring as ref_score

import ofc_fast
from ofc_fast import rules
from ofc_fast.rules.model import GameKind as Kind

# ------------------------------------------------------------------------------ RNG

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
DEAL_SEED_XOR = 0x6F66632D66617374  # "ofc-fast" in ASCII


def mix64(z: int) -> int:
    """SplitMix64's output function (all arithmetic mod 2**64)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def random64(key: int, ctr: int) -> int:
    """The ctr-th (0-based) output of SplitMix64 seeded with ``key``."""
    return mix64((key + (ctr + 1) * GOLDEN) & MASK64)


def bounded(key: int, ctr: int, n: int) -> tuple[int, int]:
    """Uniform value in 0..n-1 (Lemire's multiply-shift with rejection) drawn from
    counter ``ctr`` on; returns (value, next counter)."""
    assert 1 <= n <= 1 << 32
    while True:
        x = random64(key, ctr)
        ctr += 1
        m = (x >> 32) * n
        lo = m & 0xFFFFFFFF
        if lo < n and lo < ((1 << 32) - n) % n:
            continue
        return m >> 32, ctr


def deck_of_seed(seed: int) -> list[int]:
    """The deck of a game seed: Fisher-Yates from the top, cards dealt from deck[0]."""
    assert 0 <= seed <= MASK64
    deck = list(range(52))
    ctr = 0
    for i in range(51, 0, -1):
        j, ctr = bounded(seed, ctr, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_seed(run_seed: int, i: int) -> int:
    """Game seed of deal ``i`` of a run (Match, tournament) seeded with ``run_seed``."""
    return random64(run_seed ^ DEAL_SEED_XOR, i)


# ------------------------------------------------------------------------- schedule

ROW_SIZES = (3, 5, 5)
ACTION_SPACE = 243


@dataclass(frozen=True)
class Step:
    """One decision: ``seat`` gets deck[start:start+n], discards ``k``; ``full``: a
    Fantasyland / classic set placed at once."""

    seat: int
    start: int
    n: int
    k: int
    full: bool
    face_down: bool
    street: int


def normal_cards(r: rules.RuleSet) -> int:
    """Cards a seat outside Fantasyland sees in a deal."""
    return 17 if r.game is Kind.PINEAPPLE else 13


def cards_needed(r: rules.RuleSet, fl: Sequence[int]) -> int:
    return sum(n or normal_cards(r) for n in fl)


def schedule(r: rules.RuleSet, players: int, button: int, fl: Sequence[int]) -> list[Step]:
    """Every decision of a deal in order (spec: 'Schedule of a deal')."""
    order = [(button + 1 + i) % players for i in range(players)]
    steps: list[Step] = []
    pos = 0

    def take(seat: int, n: int, k: int, full: bool, down: bool, street: int) -> None:
        nonlocal pos
        steps.append(Step(seat, pos, n, k, full, down, street))
        pos += n

    if r.game is Kind.CLASSIC:
        for s in order:
            take(s, 13, 0, True, True, 0)
        return steps
    for s in order:
        if fl[s]:
            take(s, fl[s], fl[s] - 13, True, True, 0)
    normal = [s for s in order if not fl[s]]
    for s in normal:
        take(s, 5, 0, False, False, 0)
    rounds, per, k = (4, 3, 1) if r.game is Kind.PINEAPPLE else (8, 1, 0)
    for rnd in range(1, rounds + 1):
        for s in normal:
            take(s, per, k, False, rnd > rounds - r.face_down_final, rnd)
    assert pos == cards_needed(r, fl) <= 52
    return steps


def fantasyland_counts(r: rules.RuleSet) -> list[int]:
    """Fantasyland card counts the rules can deal (none for classic or no FL)."""
    fl = r.fantasyland
    if fl is None or r.game is Kind.CLASSIC:
        return []
    counts = {n for _, n in fl.entry} | {fl.lowball_entry, fl.lowball_both}
    if isinstance(fl.stay_cards, int):
        counts.add(fl.stay_cards)
    counts.discard(0)
    return sorted(counts)


# ------------------------------------------------------------------ action numbers


@cache
def legal_action_set(n: int, k: int, free: tuple[int, int, int]) -> tuple[int, ...]:
    """Every legal action number of a normal decision, increasing."""
    kept = n - k
    out = set()
    for ci in range(len(list(combinations(range(n), k)))):
        for rows in product(range(3), repeat=kept):
            if all(rows.count(r) <= free[r] for r in range(3)):
                out.add(ci * 3**kept + sum(r * 3**j for j, r in enumerate(rows)))
    return tuple(sorted(out))


def decode_action(
    n: int, k: int, action: int
) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """(discarded deal indices, [(deal index, row)] of the kept cards) of an action."""
    kept = n - k
    ci, code = divmod(action, 3**kept)
    disc = list(combinations(range(n), k))[ci]
    rows = []
    for _ in range(kept):
        code, r = divmod(code, 3)
        rows.append(r)
    keep = [i for i in range(n) if i not in disc]
    return disc, list(zip(keep, rows))


# ---------------------------------------------------------------------- the deal


class ModelError(Exception):
    """An input the spec does not allow (the engine must refuse it too)."""


class DealModel:
    """One deal as the spec describes it.  Cards come from ``deck`` (e.g.
    ``deck_of_seed(seed)``); ``fl``: Fantasyland cards per seat (0 = normal)."""

    def __init__(
        self,
        r: rules.RuleSet,
        players: int,
        button: int = 0,
        fl: Sequence[int] | None = None,
        deck: Sequence[int] = (),
        stacks: Sequence[int] | None = None,
    ) -> None:
        self.rules, self.players, self.button = r, players, button
        self.fl = tuple(fl) if fl is not None else (0,) * players
        self.deck = list(deck)
        assert sorted(self.deck) == list(range(52))
        self.stacks = None if stacks is None else list(stacks)
        self.steps = schedule(r, players, button, self.fl)
        self.i = 0
        self.rows: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
        self.face_up: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
        self.face_down: list[list[int]] = [[0, 0, 0] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.declared: dict[int, str] = {}
        self.surrendered: set[int] = set()
        self.unset_cards: dict[int, list[int]] = {}  # declared / surrendered hands

    # -- state
    @property
    def is_over(self) -> bool:
        return self.i >= len(self.steps)

    @property
    def step(self) -> Step:
        return self.steps[self.i]

    @property
    def to_act(self) -> int | None:
        return None if self.is_over else self.step.seat

    @property
    def dealt(self) -> list[int]:
        if self.is_over:
            return []
        st = self.step
        return self.deck[st.start : st.start + st.n]

    @property
    def to_discard(self) -> int:
        return 0 if self.is_over else self.step.k

    def free(self, seat: int) -> tuple[int, int, int]:
        return tuple(size - len(row) for size, row in zip(ROW_SIZES, self.rows[seat]))  # type: ignore[return-value]

    def future(self, seat: int) -> tuple[int, int]:
        """(cards, discards) this seat gets after the current decision."""
        later = [st for st in self.steps[self.i + 1 :] if st.seat == seat]
        return sum(st.n for st in later), sum(st.k for st in later)

    def legal_actions(self) -> tuple[int, ...] | None:
        """Legal action numbers, or None for a full set (outside the action space)."""
        if self.is_over or self.step.full:
            return None
        st = self.step
        return legal_action_set(st.n, st.k, self.free(st.seat))

    # -- applying decisions
    def play_action(self, action: int) -> tuple[list[tuple[int, int]], list[int]]:
        """Apply a legal action; returns its (placements, discards) as cards."""
        legal = self.legal_actions()
        if legal is None or action not in legal:
            raise ModelError(f"action {action!r} is not legal")
        st, dealt = self.step, self.dealt
        disc, kept = decode_action(st.n, st.k, action)
        placements = [(dealt[i], r) for i, r in kept]
        discards = [dealt[i] for i in disc]
        self._place(placements, discards)
        return placements, discards

    def play_set(
        self, placements: Sequence[tuple[int, int]], discards: Sequence[int]
    ) -> None:
        """Apply an explicit placement (any decision): every dealt card placed or
        discarded once, the right number of discards, no row over its size."""
        if self.is_over:
            raise ModelError("the deal is over")
        dealt = self.dealt
        used = [c for c, _ in placements] + list(discards)
        if sorted(used) != sorted(dealt):
            raise ModelError("the move must use every dealt card exactly once")
        if len(discards) != self.step.k:
            raise ModelError("wrong number of discards")
        if any(r not in (0, 1, 2) for _, r in placements):
            raise ModelError("bad row")
        free = self.free(self.step.seat)
        if any(sum(1 for _, x in placements if x == r) > free[r] for r in range(3)):
            raise ModelError("a row is over its size")
        if self.step.full and len(placements) != 13:
            raise ModelError("a full set must complete the board")
        self._place(placements, discards)

    def declare(self, name: str) -> None:
        """Classic: show a natural the rules pay and the cards make (R-NAT-2)."""
        st = self.step if not self.is_over else None
        if st is None or self.rules.game is not Kind.CLASSIC:
            raise ModelError("only a classic hand may declare")
        if name not in {
            nat.name for nat in self.rules.naturals
        } or name not in ref_nat.naturals(self.dealt):
            raise ModelError(f"cannot declare {name}")
        self.declared[st.seat] = name
        self._unset()

    def surrender(self) -> None:
        """Classic with a surrender cost: give up the hand (never shown)."""
        if (
            self.is_over
            or self.rules.game is not Kind.CLASSIC
            or self.rules.surrender_cost is None
        ):
            raise ModelError("surrender is not allowed")
        self.surrendered.add(self.step.seat)
        self._unset()

    def _unset(self) -> None:
        self.unset_cards[self.step.seat] = list(self.dealt)
        self.i += 1

    def _place(
        self, placements: Sequence[tuple[int, int]], discards: Sequence[int]
    ) -> None:
        st = self.step
        for c, r in placements:
            self.rows[st.seat][r].append(c)
            if st.face_down:
                self.face_down[st.seat][r] += 1
            else:
                self.face_up[st.seat][r].append(c)
        self.discards[st.seat].extend(discards)
        self.i += 1

    # -- information model
    def board_cards(self, seat: int) -> list[int]:
        """Every card on a seat's board (a declared / surrendered hand's 13 cards)."""
        if seat in self.unset_cards:
            return list(self.unset_cards[seat])
        return [c for row in self.rows[seat] for c in row]

    def knowable(self, me: int) -> set[int]:
        """Every card ``me`` may know now."""
        out = set(self.board_cards(me)) | set(self.discards[me])
        if self.to_act == me:
            out |= set(self.dealt)
        for o in range(self.players):
            if o == me:
                continue
            if self.is_over:
                if o not in self.surrendered:
                    out |= set(self.board_cards(o))
            else:
                out |= {c for row in self.face_up[o] for c in row}
        return out

    def shown_rows(self, me: int, other: int) -> list[list[int]] | None:
        """Sorted rows of ``other``'s board that ``me`` sees (None: all the cards of a
        hand whose rows the model does not fix, a declared or surrendered hand, shown
        to its owner, and once the deal is over to all when declared; a surrendered
        hand is never shown to the others)."""
        if other in self.unset_cards:
            if other == me or (self.is_over and other in self.declared):
                return None
            return [[], [], []]
        rows = self.rows[other] if (other == me or self.is_over) else self.face_up[other]
        return [sorted(r) for r in rows]

    def face_down_counts(self, me: int, other: int) -> list[int]:
        """Face-down cards per row of ``other`` that ``me`` cannot see."""
        if self.is_over:
            return [0, 0, 0]
        if other in self.unset_cards:  # a complete hand, set face down
            return list(ROW_SIZES)
        return list(self.face_down[other])

    # -- result
    def final_boards(self) -> list[list[int]]:
        """13 cards per seat, front + middle + back (a declared / surrendered hand:
        its cards in deal order, which settle() accepts)."""
        assert self.is_over
        return [self.board_cards(s) for s in range(self.players)]

    def result(self) -> dict[str, Any]:
        """Reference nets, fouls, royalties and next-deal Fantasyland counts."""
        boards = self.final_boards()
        unset = set(self.unset_cards)
        fouls, royalties, fl_next = [], [], []
        for s, b in enumerate(boards):
            if s in unset:
                fouls.append(False)
                royalties.append((0, 0, 0))
                fl_next.append(0)
                continue
            fouls.append(ref_foul(b, self.rules))
            royalties.append(ref_royalties(b, self.rules))
            fl_next.append(next_fantasyland(b, self.rules, self.fl[s]))
        return {
            "net": reference_nets(self, boards),
            "fouls": fouls,
            "royalties": royalties,
            "fantasyland": fl_next,
        }


# ----------------------------------------------------------------- reference result


def _lowball_middle_ok(cards: Sequence[int], limit: int) -> bool:
    """R-27-4: a 2-7 middle fouls with a pair, a straight (ace high only), a flush or a
    card above ``limit``."""
    ranks = sorted(c // 4 for c in cards)
    if len(set(ranks)) < 5 or len({c % 4 for c in cards}) == 1:
        return False
    if ranks[4] - ranks[0] == 4:
        return False
    return ranks[4] <= limit


def ref_foul(board: Sequence[int], r: rules.RuleSet) -> bool:
    b = list(board)
    if r.lowball is not None:
        return not (
            ref.hand_key(b[8:]) > ref.hand_key(b[:3])
            and _lowball_middle_ok(b[3:8], r.lowball.limit)
        )
    return ref_score.is_foul(b, str(r.order.value))


def ref_royalties(board: Sequence[int], r: rules.RuleSet) -> tuple[int, int, int]:
    """Royalty per row from the rules' schedule; none on a fouled board."""
    b = list(board)
    if ref_foul(b, r):
        return (0, 0, 0)
    sched = r.royalties
    f = ref.category(b[:3])
    if f == ref.TRIPS:
        front = sched.front_trips[ref_score.front_rank(b[:3])]
    elif f == ref.ONE_PAIR:
        front = sched.front_pair[ref_score.front_rank(b[:3])]
    else:
        front = 0
    if r.lowball is not None:
        ranks = sorted(c // 4 for c in b[3:8])
        nuts = ranks == [0, 1, 2, 3, 5]
        middle = r.lowball.nuts if nuts else r.lowball.royalties[ranks[4]]
    else:
        middle = sched.middle[ref.category(b[3:8])]
    return (front, middle, sched.back[ref.category(b[8:])])


def _score_27(a: list[int], b: list[int], r: rules.RuleSet) -> int:
    """1-6 pair score with a 2-7 middle (R-27-*, R-SCORE-5), royalties netted."""
    fa, fb = ref_foul(a, r), ref_foul(b, r)
    if fa and fb:
        return 0
    if fa or fb:
        res = [-1] * 3 if fa else [1] * 3
    else:
        keys = [
            (ref.hand_key(a[:3]), ref.hand_key(b[:3])),
            (ref.low27_key(a[3:8]), ref.low27_key(b[3:8])),
            (ref.hand_key(a[8:]), ref.hand_key(b[8:])),
        ]
        res = [(x > y) - (x < y) for x, y in keys]
    sweep = 3 if res == [1, 1, 1] else -3 if res == [-1, -1, -1] else 0
    return sum(res) + sweep + sum(ref_royalties(a, r)) - sum(ref_royalties(b, r))


PAIRWISE_OFC = ("OFC", "PINEAPPLE", "PROGRESSIVE_PINEAPPLE", "ULTIMATE_PINEAPPLE")
PAIRWISE_CLASSIC = {"CLASSIC_1_6": "1-6", "CLASSIC_2_4": "2-4"}


def pair_score(a: list[int], b: list[int], r: rules.RuleSet) -> int | None:
    """Independent pair score of a plain pairwise preset (None for other rules)."""
    if rules.PRESETS.get(r.name) != r:
        return None
    if r.name in PAIRWISE_OFC:
        return ref_score.score_ofc(a, b)
    if r.name == "PINEAPPLE_27":
        return _score_27(a, b, r)
    if r.name in PAIRWISE_CLASSIC:
        return ref_score.score_classic(a, b, PAIRWISE_CLASSIC[r.name])
    return None


def reference_nets(m: DealModel, boards: list[list[int]]) -> list[int]:
    """Nets of a finished deal: the independent pair scores for plain pairwise presets
    without stacks, declarations or surrenders; otherwise ``ofc_fast.settle``."""
    r, n = m.rules, m.players
    if (
        m.stacks is None
        and not m.unset_cards
        and pair_score(boards[0], boards[1], r) is not None
    ):
        net = [0] * n
        for i, j in combinations(range(n), 2):
            s = pair_score(boards[i], boards[j], r)
            assert s is not None
            net[i] += s
            net[j] -= s
        return net
    kwargs: dict[str, Any] = {}
    if m.stacks is not None:
        kwargs["stacks"] = list(m.stacks)
    if m.surrendered:
        kwargs["surrendered"] = tuple(sorted(m.surrendered))
    if m.declared:
        kwargs["declared"] = dict(m.declared)
    return list(ofc_fast.settle(boards, r, button=m.button, **kwargs).net)


def next_fantasyland(board: list[int], r: rules.RuleSet, fl_now: int) -> int:
    """Fantasyland cards next deal (spec: ``ofc_fast.fantasyland_cards``; tests have no
    independent reference of the entry / stay rules, test_fantasyland.py pins them)."""
    if r.fantasyland is None:
        return 0
    b = ofc_fast.Board(board[:3], board[3:8], board[8:])
    return ofc_fast.fantasyland_cards(b, r, in_fantasyland=fl_now if fl_now else False)
