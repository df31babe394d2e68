"""The heuristic bot's value of a finished board, in C (``csrc/include/ofc_heuristic.h``).

A board is worth its royalties, plus ``row_weight`` times its expected row points
against a typical board (each row's chance to beat the same row of 13 random cards
set greedily, or the solver's typical-opponent tables), plus a Fantasyland bonus by
the cards it earns next deal (the one C entry / stay rule, ``ofc_fl_next_cards``); a
fouled board is worth ``-foul_penalty``.  :class:`HeuristicModel` compiles that into
the C ``ofc_heur_model`` once per rule set and settings, and evaluates boards and
candidate moves over sampled futures in single C calls.

>>> import numpy as np
>>> from ofc_fast import Board, rules
>>> m = value_model(rules.PINEAPPLE)
>>> good = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts").cards
>>> foul = Board.parse("Ah Ad Ac / 9s 9h 2d 5c 3d / Ks Kd Qs Js Ts").cards
>>> v = m.values(np.array([good, foul], dtype=np.uint8))
>>> bool(v[0] > 30), float(v[1])
(True, -9.0)
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from numbers import Real
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._native import OK, ffi, lib, status_error
from ..batch import int_array, rank5_batch
from ..errors import ArrayError, CardError, ModelError, OfcError, quote
from ..ranking import STRENGTH_CARDS, STRENGTH_CATEGORY, STRENGTH_MAX
from ..rules import RuleSet, RulesLike, as_rules, play_key
from ..rules.compiled import LOW27, compiled, compiled_fl
from ..rules.model import GameKind
from ..table import as_int

__all__ = ["HeuristicModel", "ModelSettings", "value_model"]

_SIZE = STRENGTH_MAX + 1


SETTING_MAX = 1e6
"""The largest size of a :class:`ModelSettings` number (points)."""


class ModelSettings(NamedTuple):
    """The bot settings a value model depends on: finite numbers within
    -:data:`SETTING_MAX`..:data:`SETTING_MAX`.

    >>> ModelSettings(foul_penalty=6.0)
    ModelSettings(foul_penalty=6.0, fl_value=10.0, fl_step=3.0, row_weight=1.0)
    """

    foul_penalty: float = 9.0
    fl_value: float = 10.0
    fl_step: float = 3.0
    row_weight: float = 1.0


def _typical_rows(
    n: int = 3000, seed: int = 12345
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """Strengths of the rows of ``n`` typical boards: 13 random cards set greedily
    (strongest back, then strongest middle, front the rest)."""
    rng = np.random.default_rng(seed)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :13].astype(np.uint8)
    c5 = np.array(list(combinations(range(13), 5)), dtype=np.intp)
    bs = rank5_batch(np.ascontiguousarray(hands[:, c5].reshape(-1, 5))).reshape(n, len(c5))
    bi = bs.argmax(axis=1)
    back_strength = bs[np.arange(n), bi]
    rest_idx = np.array([[i for i in range(13) if i not in c] for c in c5], dtype=np.intp)
    rest = np.take_along_axis(hands, rest_idx[bi], axis=1)  # (n, 8)
    c58 = np.array(list(combinations(range(8), 5)), dtype=np.intp)
    ms = rank5_batch(np.ascontiguousarray(rest[:, c58].reshape(-1, 5))).reshape(n, len(c58))
    mi = ms.argmax(axis=1)
    mid_strength = ms[np.arange(n), mi]
    front_idx = np.array([[i for i in range(8) if i not in c] for c in c58], dtype=np.intp)
    fronts = np.take_along_axis(rest, front_idx[mi], axis=1)
    fs = np.array([lib.ofc_rank3_unchecked(int(a), int(b), int(c)) for a, b, c in fronts])
    return fs, mid_strength, back_strength


def _cdf(
    samples: npt.NDArray[Any], valid: npt.NDArray[Any], key: npt.NDArray[Any] | None = None
) -> npt.NDArray[Any]:
    """Per strength: share of ``samples`` below it plus half the equal ones (smoothed
    with one pseudo-observation per valid strength, so unseen strengths still order)."""
    k = np.arange(_SIZE) if key is None else key
    sk = np.sort(k[samples])
    allk = np.sort(k[valid])
    below = np.searchsorted(sk, k, "left") + np.searchsorted(allk, k, "left") * 0.02
    equal = (
        np.searchsorted(sk, k, "right")
        - np.searchsorted(sk, k, "left")
        + (np.searchsorted(allk, k, "right") - np.searchsorted(allk, k, "left")) * 0.02
    )
    total = len(sk) + len(allk) * 0.02
    return np.where(valid, (below + 0.5 * equal) / total, 0.0).astype(np.float64)


@lru_cache(maxsize=1)
def row_cdfs() -> tuple[
    npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]
]:
    """Per strength, the chance that a row beats the front, middle and back of a
    typical board, and a 2-7 middle the middle of a typical 2-7 board (computed once)."""
    fs, ms, bs = _typical_rows()
    three, five = STRENGTH_CARDS == 3, STRENGTH_CARDS == 5
    low_valid = five & (STRENGTH_CATEGORY == 0)
    lows = np.flatnonzero(low_valid)
    rng = np.random.default_rng(7)
    return (
        _cdf(fs, three),
        _cdf(ms, five),
        _cdf(bs, five),
        _cdf(rng.choice(lows, 4000), low_valid, LOW27),
    )


def number_setting(
    value: object,
    what: str,
    low: float,
    high: float,
    error: type[OfcError] = ModelError,
    who: str = "value model",
) -> float:
    """A number setting as a finite float within low..high (no bools, no text), else
    ``error`` naming ``who`` and the setting ``what``."""
    if type(value) is float and low <= value <= high and math.isfinite(value):
        return value  # (a bot's settings, checked every decision: one test)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise error(f"{who}: {what} must be a number, got {quote(value)}")
    try:
        v = float(value)
    except (OverflowError, ValueError):  # a huge int
        v = math.inf
    if not (math.isfinite(v) and low <= v <= high):
        raise error(
            f"{who}: {what} must be a finite number within {low:g}..{high:g}, "
            f"got {quote(value)}"
        )
    return v


def checked_settings(settings: object) -> ModelSettings:
    """``settings`` as a :class:`ModelSettings` of floats; ModelError naming the
    field that is no finite number within -SETTING_MAX..SETTING_MAX."""
    if not isinstance(settings, ModelSettings):
        raise ModelError(
            f"value model: settings must be a ModelSettings, got {quote(settings)}"
        )
    return ModelSettings(
        *(
            number_setting(getattr(settings, k), k, -SETTING_MAX, SETTING_MAX)
            for k in ModelSettings._fields
        )
    )


def _raise(status: int, fn: str) -> None:
    raise status_error(status, fn)


def _in_fl(in_fl: object, fn: str) -> int:
    """``in_fl`` as an int for C (CardError when it is no card count)."""
    n = as_int(in_fl)
    if n is None or not 0 <= n < 1 << 32:
        got = quote(in_fl) if n is None else n
        raise CardError(f"{fn}: in_fl must be 0 or a Fantasyland hand's cards, got {got}")
    return n


class HeuristicModel:
    """Board values under one rule set and :class:`ModelSettings`, in C.

    Build with :func:`value_model` (cached).  ``classic``: the rules are a classic
    game (no Fantasyland term; a won row pays its win value).

    >>> import numpy as np
    >>> from ofc_fast import Board, rules
    >>> m = HeuristicModel(rules.PINEAPPLE, ModelSettings(foul_penalty=6.0))
    >>> foul = Board.parse("Ah Ad Ac / 9s 9h 2d 5c 3d / Ks Kd Qs Js Ts").cards
    >>> m.classic, float(m.values(np.array([foul], dtype=np.uint8))[0])
    (False, -6.0)
    """

    def __init__(self, rules: RulesLike, settings: ModelSettings = ModelSettings()) -> None:
        self.rules = rules = as_rules(rules, "HeuristicModel")
        self.settings = settings = checked_settings(settings)
        self.classic = rules.game is GameKind.CLASSIC
        self._rules_c = compiled(rules)
        has_fl = rules.fantasyland is not None and not self.classic
        self._fl_c: Any = compiled_fl(rules) if has_fl else ffi.NULL
        self._model = ffi.new("ofc_heur_model *")
        self._fill(rules, settings)
        if lib.ofc_heur_model_check(self._model) != OK:
            raise OfcError(
                f"heuristic bot: settings {settings} give a model with non-finite values"
            )

    def _chances(
        self, rules: RuleSet
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
        """(win, lose, expected row units) per row and strength."""
        c = self._rules_c
        win_value = (
            np.frombuffer(ffi.buffer(c.win_value), dtype=np.int16)
            .reshape(3, _SIZE)
            .astype(np.float64)
        )
        f, m, b, low = row_cdfs()
        win = np.stack([f, low if rules.lowball is not None else m, b])
        lose = 1.0 - win
        units = win * win_value - lose if self.classic else win - lose
        return win, lose, units

    def _fill(self, rules: RuleSet, s: ModelSettings) -> None:
        win, lose, units = self._chances(rules)
        royalty = np.frombuffer(ffi.buffer(self._rules_c.royalty), dtype=np.int16).reshape(
            3, _SIZE
        )
        rows = np.zeros((3, _SIZE, 4), dtype=np.float32)
        rows[:, :, 0] = royalty + s.row_weight * units
        rows[:, :, 1] = win
        rows[:, :, 2] = lose
        ffi.buffer(self._model.row)[:] = rows.tobytes()
        m = self._model
        m.sweep = s.row_weight * (rules.sweep_bonus + rules.majority_bonus)
        m.majority = s.row_weight * rules.majority_bonus
        m.foul_value = -s.foul_penalty
        for k in range(lib.OFC_HEUR_FL_VALUES):
            m.fl_value[k] = s.fl_value + s.fl_step * (k - 14) if k else 0.0

    def values(self, boards: npt.NDArray[Any], in_fl: int = 0) -> npt.NDArray[Any]:
        """Values of complete boards: an (n, 13) uint8 array (front 3, middle 5, back
        5); ``in_fl``: 0 for a normal hand, else the cards of this Fantasyland hand."""
        b = int_array(boards, np.uint8, "values: boards")
        in_fl = _in_fl(in_fl, "values")
        if b.ndim != 2 or b.shape[1] != 13:
            raise ArrayError(f"values: expected an (n, 13) array, got {b.shape}")
        out = np.empty(len(b), dtype=np.float64)
        bad = ffi.new("size_t *")
        status = lib.ofc_heur_values(
            self._rules_c,
            self._fl_c,
            self._model,
            ffi.from_buffer("uint8_t[]", b),
            len(b),
            in_fl,
            ffi.from_buffer("double[]", out),
            bad,
        )
        if status != OK:
            _raise(status, "values")
        return out

    def score_moves(
        self,
        moves: MoveRows,
        fills: npt.NDArray[Any],
        in_fl: int = 0,
        optimism: float = 1.0,
    ) -> npt.NDArray[Any]:
        """Per move, the mean over samples of the ``optimism`` blend of the best and
        the mean value over fills; ``fills`` is a (samples, fills, slots) uint8 array
        of the cards for the slots (``ofc_heur_score_moves``)."""
        f = int_array(fills, np.uint8, "score_moves: fills")
        in_fl = _in_fl(in_fl, "score_moves")
        if f.ndim != 3:
            raise ArrayError(
                f"score_moves: expected (samples, fills, slots) fills, got shape {f.shape}"
            )
        fronts = int_array(moves.fronts, np.uint8, "score_moves: fronts")
        fives = int_array(moves.fives, np.uint8, "score_moves: fives")
        index = int_array(moves.moves, np.uint16, "score_moves: moves")
        if fronts.shape[1:] != (3,) or fives.shape[1:] != (5,) or index.shape[1:] != (3,):
            raise ArrayError(
                f"score_moves: expected (F, 3) fronts, (V, 5) fives and "
                f"(M, 3) moves, got {fronts.shape}, {fives.shape}, "
                f"{index.shape}"
            )
        rows = ffi.new("ofc_heur_rows *")
        keep = [
            ffi.from_buffer("uint8_t[]", fronts),
            ffi.from_buffer("uint8_t[]", fives),
            ffi.from_buffer("uint16_t[]", index),
        ]
        rows.fronts, rows.fives, rows.moves = keep
        rows.n_fronts, rows.n_fives, rows.n_moves = len(fronts), len(fives), len(index)
        out = np.empty(len(index), dtype=np.float64)
        k, p, slots = f.shape
        status = lib.ofc_heur_score_moves(
            self._rules_c,
            self._fl_c,
            self._model,
            rows,
            ffi.from_buffer("uint8_t[]", f) if f.size else ffi.NULL,
            k,
            p,
            slots,
            in_fl,
            optimism,
            ffi.from_buffer("double[]", out),
        )
        if status != OK:
            _raise(status, "score_moves")
        return out


ValueModel = HeuristicModel
"""The former name of :class:`HeuristicModel` (kept); not to be confused with the
learned model, :class:`ofc_fast.learned.ValueModel`."""


class MoveRows(NamedTuple):
    """Candidate moves as row templates (``ofc_heur_rows``): template bytes are
    ``OFC_HEUR_CARD + card`` or a slot number; move i is the board (fronts[moves[i,
    0]], fives[moves[i, 1]], fives[moves[i, 2]])."""

    fronts: npt.NDArray[Any]  # (F, 3) uint8
    fives: npt.NDArray[Any]  # (V, 5) uint8
    moves: npt.NDArray[Any]  # (M, 3) uint16


def value_model(
    rules: RulesLike, settings: ModelSettings = ModelSettings()
) -> HeuristicModel:
    """The cached :class:`HeuristicModel` of a rule set and settings (ModelError
    naming a setting that is no finite number, :func:`checked_settings`): one for
    rule sets that play alike (:func:`~ofc_fast.rules.play_key`: renamed ones).

    >>> from ofc_fast import rules
    >>> value_model(rules.PINEAPPLE) is value_model("pineapple")
    True
    >>> value_model(rules.PINEAPPLE.replace(name="home")) is value_model("pineapple")
    True
    >>> value_model("pineapple", ModelSettings(row_weight=float("nan")))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ModelError: ...row_weight...
    """
    rules = as_rules(rules, "value_model")
    return _value_model(_play_key_of(rules), checked_settings(settings))


class _PlayKey(NamedTuple):
    """A rule set as a cache key by how it plays (:func:`~ofc_fast.rules.play_key`):
    renamed or redescribed copies of one rule set are one key, and share one model;
    rule sets that differ never do."""

    play: tuple[object, ...]
    rules: RuleSet

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PlayKey) and self.play == other.play

    def __hash__(self) -> int:
        return hash(self.play)


@lru_cache(maxsize=64)
def _play_key_of(rules: RuleSet) -> _PlayKey:
    """The cache key of ``rules`` (made once per rule set: a bot asks every decision)."""
    return _PlayKey(play_key(rules), rules)


@lru_cache(maxsize=32)
def _value_model(key: _PlayKey, settings: ModelSettings) -> HeuristicModel:
    return HeuristicModel(key.rules, settings)


def sample_futures(
    unseen: npt.NDArray[Any],
    n_future: int,
    n_slots: int,
    samples: int,
    fills: int,
    seed: int,
    rounds: int = 0,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """``samples`` futures of ``n_future`` cards drawn from ``unseen`` and ``fills``
    ways to fill ``n_slots`` slots from each (``ofc_heur_sample`` documents them:
    fill 0 by rank, the others at random; ``rounds`` Pineapple rounds keep 2 of each
    3 cards): a (samples, n_future) and a (samples, fills, n_slots) uint8 array.

    >>> fut, fill = sample_futures(np.arange(10, dtype=np.uint8), 3, 2, 4, 5, seed=1)
    >>> fut.shape, fill.shape, bool(np.isin(fill[0], fut[0]).all())
    ((4, 3), (4, 5, 2), True)
    """
    u = int_array(unseen, np.uint8, "sample_futures: unseen")
    fut = np.empty((samples, n_future), dtype=np.uint8)
    out = np.empty((samples, fills, n_slots), dtype=np.uint8)
    status = lib.ofc_heur_sample(
        ffi.from_buffer("uint8_t[]", u) if u.size else ffi.NULL,
        u.size,
        n_future,
        rounds,
        n_slots,
        samples,
        fills,
        seed & 0xFFFFFFFFFFFFFFFF,
        ffi.from_buffer("uint8_t[]", fut) if fut.size else ffi.NULL,
        ffi.from_buffer("uint8_t[]", out) if out.size else ffi.NULL,
    )
    if status != OK:
        _raise(status, "sample_futures")
    return fut, out
