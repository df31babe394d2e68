"""The heuristic bot's C kernels (csrc/include/ofc_heuristic.h via ofc_fast.bots.model) and the
shared split list, against references written here: board values against the
reference royalties, fouls and Fantasyland rule; move scores against boards built and
valued one by one; the sampler's draws checked for what they must contain."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import numpy as np
import pytest
import reference_fantasyland as reference_fl
from boards import random_pair
from reference_scoring import is_foul, ofc_royalties

from ofc_fast import Board, rules
from ofc_fast.board import row_splits
from ofc_fast.bots.model import (
    ModelSettings,
    MoveRows,
    ValueModel,
    row_cdfs,
    sample_futures,
    value_model,
)
from ofc_fast.errors import ArrayError, BoardError, CardError, ModelError, OfcError

CARD = 64  # OFC_HEUR_CARD


def _boards(seed: int, n: int) -> list[list[int]]:
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        out.extend(random_pair(rng))
    return out[:n]


@pytest.mark.parametrize(
    "preset",
    [rules.OFC, rules.PINEAPPLE, rules.PROGRESSIVE_PINEAPPLE],
    ids=lambda r: r.name,
)
def test_values_are_royalties_fouls_and_fantasyland(preset: rules.RuleSet) -> None:
    """With the row term off, a board is worth its royalties (R-ROY-OFC-3) plus the
    Fantasyland bonus it earns (reference rule), -foul_penalty when fouled."""
    s = ModelSettings(foul_penalty=7.5, fl_value=10.0, fl_step=3.0, row_weight=0.0)
    m = ValueModel(preset, s)
    boards = _boards(1, 3000)
    for in_fl in (0, 14, 16):
        got = m.values(np.array(boards, dtype=np.uint8), in_fl)
        for b, v in zip(boards, got):
            if is_foul(b):
                assert v == -7.5
                continue
            nxt = reference_fl.next_cards(preset.fantasyland, b, False, False, in_fl)
            bonus = 10.0 + 3.0 * (nxt - 14) if nxt else 0.0
            assert v == pytest.approx(sum(ofc_royalties(b)) + bonus, abs=1e-4), b
    assert sum(not is_foul(b) for b in boards) > 500


def test_row_term_against_the_typical_board() -> None:
    """The row term: per row 2p - 1 (p: the chance to beat that row of a typical
    board), plus the sweep bonus on p_f p_m p_b - q_f q_m q_b (q = 1 - p)."""
    r = rules.OFC.replace(name="OFC_SWEEP", sweep_bonus=3)
    m = ValueModel(r, ModelSettings(row_weight=2.0, fl_value=0.0, fl_step=0.0))
    flat = ValueModel(r, ModelSettings(row_weight=0.0, fl_value=0.0, fl_step=0.0))
    cdf = row_cdfs()
    boards = [b for b in _boards(2, 2000) if not is_foul(b)][:300]
    arr = np.array(boards, dtype=np.uint8)
    extra = m.values(arr) - flat.values(arr)
    for b, e in zip(boards, extra):
        s = Board.from_cards(b).evaluate(r).strengths
        p = [cdf[i][s[i]] for i in range(3)]
        q = [1 - x for x in p]
        want = 2.0 * (
            sum(2 * x - 1 for x in p) + 3 * (p[0] * p[1] * p[2] - q[0] * q[1] * q[2])
        )
        assert e == pytest.approx(want, abs=1e-4)


def test_typical_rows_order_strengths() -> None:
    f, mid, back, _ = row_cdfs()
    aa = Board.parse("Ah Ad 2c / 2d 3h 4s 5c 7d / 8h 9h Th Jh Qs").evaluate().strengths
    low = Board.parse("2h 3d 5c / 2d 3h 4s 6c 8d / 8h 9h Th Jh Ks").evaluate().strengths
    assert f[aa[0]] > 0.95 > 0.1 > f[low[0]]
    assert back[aa[2]] > back[low[2]] and mid[aa[1]] < mid[low[1]] + 0.2


def _move_rows() -> tuple[MoveRows, list[list[int]]]:
    """Three moves of a board with 4 free slots: their rows as templates and, per
    move, the 13 template bytes in row order."""
    fronts = np.array([[CARD + 48, CARD + 49, 0], [CARD + 48, 0, 1]], dtype=np.uint8)
    fives = np.array(
        [
            [CARD + 20, CARD + 21, CARD + 22, 1, 2],
            [CARD + 20, CARD + 21, CARD + 22, 2, 3],
            [CARD + 30, CARD + 31, CARD + 32, CARD + 33, 3],
            [CARD + 30, CARD + 31, CARD + 32, CARD + 33, CARD + 49],
        ],
        dtype=np.uint8,
    )
    moves = np.array([[0, 0, 2], [1, 1, 3], [0, 0, 2]], dtype=np.uint16)
    boards = [list(fronts[a]) + list(fives[b]) + list(fives[c]) for a, b, c in moves]
    return MoveRows(fronts, fives, moves), boards


@pytest.mark.parametrize("optimism", [1.0, 0.6, 0.0])
def test_score_moves_against_boards_one_by_one(optimism: float) -> None:
    m = value_model(rules.PINEAPPLE)
    rows, templates = _move_rows()
    rng = np.random.default_rng(3)
    pool = np.array(
        [c for c in range(52) if c not in (20, 21, 22, 30, 31, 32, 33, 48, 49)],
        dtype=np.uint8,
    )
    K, P = 5, 4
    fills = np.array(
        [[rng.choice(pool, 4, replace=False) for _ in range(P)] for _ in range(K)],
        dtype=np.uint8,
    )
    got = m.score_moves(rows, fills, 0, optimism)
    for c, t in enumerate(templates):
        per_k = []
        for k in range(K):
            boards = [
                [fills[k, p, b] if b < CARD else b - CARD for b in t] for p in range(P)
            ]
            v = m.values(np.array(boards, dtype=np.uint8))
            per_k.append(optimism * v.max() + (1 - optimism) * v.mean())
        assert got[c] == pytest.approx(np.mean(per_k), abs=1e-9)
    assert got[0] == got[2]


def test_score_moves_rejects_bad_input() -> None:
    m = value_model(rules.PINEAPPLE)
    rows, _ = _move_rows()
    fills = np.array([[[0, 1, 2, 3]]], dtype=np.uint8)
    with pytest.raises(CardError):  # a fill repeats a card
        m.score_moves(rows, np.array([[[0, 0, 2, 3]]], dtype=np.uint8))
    with pytest.raises(CardError):  # a fill card is on the board already
        m.score_moves(rows, np.array([[[0, 1, 2, 48]]], dtype=np.uint8))
    with pytest.raises(CardError):  # not a card
        m.score_moves(rows, np.array([[[0, 1, 2, 60]]], dtype=np.uint8))
    with pytest.raises(OfcError):  # a slot beyond the fill
        m.score_moves(rows, np.array([[[0, 1, 2]]], dtype=np.uint8))
    with pytest.raises(OfcError):  # a row index out of range
        m.score_moves(rows._replace(moves=np.array([[0, 0, 9]], dtype=np.uint16)), fills)
    with pytest.raises(CardError):  # two rows of a move share a card
        m.score_moves(rows._replace(moves=np.array([[0, 2, 3]], dtype=np.uint16)), fills)
    with pytest.raises(OfcError):  # two rows of a move share a slot
        m.score_moves(rows._replace(moves=np.array([[0, 0, 1]], dtype=np.uint16)), fills)
    with pytest.raises(OfcError):
        m.score_moves(rows, fills, optimism=1.5)
    with pytest.raises(OfcError):
        m.score_moves(rows, fills, in_fl=12)
    with pytest.raises(OfcError):  # no sample
        m.score_moves(rows, np.zeros((0, 1, 4), dtype=np.uint8))
    with pytest.raises(ArrayError):
        m.score_moves(rows, fills[0])
    assert m.score_moves(
        rows._replace(moves=np.zeros((0, 3), dtype=np.uint16)), fills
    ).shape == (0,)


def test_values_reject_bad_boards() -> None:
    m = value_model(rules.OFC)
    with pytest.raises(CardError):
        m.values(np.array([list(range(12)) + [11]], dtype=np.uint8))
    with pytest.raises(CardError):
        m.values(np.array([list(range(12)) + [52]], dtype=np.uint8))
    with pytest.raises(ArrayError):
        m.values(np.zeros((2, 12), dtype=np.uint8))
    with pytest.raises(OfcError):
        m.values(np.array([list(range(13))], dtype=np.uint8), in_fl=18)
    assert m.values(np.zeros((0, 13), dtype=np.uint8)).shape == (0,)


def test_values_take_any_integer_dtype_and_never_cast_silently() -> None:
    """A board array of another integer dtype is its values (as uint8); values past
    uint8 (307 would wrap to 51), floats and bad in_fl are errors, never cast."""
    m = value_model(rules.PINEAPPLE)
    boards = _boards(3, 20)
    want = m.values(np.array(boards, dtype=np.uint8))
    for dtype in (np.int8, np.uint16, np.int64, ">i4"):
        wide = np.asfortranarray(np.array(boards, dtype=dtype))
        assert np.array_equal(m.values(wide), want)
    assert np.array_equal(m.values([list(b) for b in boards]), want)
    wrapped = np.array(boards, dtype=np.int64)
    wrapped[0, 12] += 256
    with pytest.raises(ArrayError):
        m.values(wrapped)
    with pytest.raises(ArrayError):
        m.values(np.array(boards, dtype=float) + 0.5)
    with pytest.raises(ArrayError):
        m.values(np.array(boards, dtype=np.int64) - 1)
    for bad in (1.5, -1, 2**40, True, np.float64(14)):
        with pytest.raises(CardError, match="in_fl"):
            m.values(np.array(boards, dtype=np.uint8), bad)  # type: ignore[arg-type]
    assert np.array_equal(
        m.values(np.array(boards, np.uint8), np.int64(14)),
        m.values(np.array(boards, np.uint8), 14),
    )


def test_score_moves_never_cast_silently() -> None:
    m = value_model(rules.PINEAPPLE)
    rows, _ = _move_rows()
    fills = np.array([[[0, 1, 2, 3]]], dtype=np.uint8)
    want = m.score_moves(rows, fills)
    assert np.array_equal(m.score_moves(rows, fills.astype(np.int64)), want)
    with pytest.raises(ArrayError):  # 256 would wrap to card 0
        m.score_moves(rows, fills.astype(np.int64) + np.array([256, 0, 0, 0]))
    with pytest.raises(ArrayError):
        m.score_moves(rows, fills.astype(float))
    big = np.array(rows.moves, dtype=np.int64)
    big[0, 0] += 65536  # would wrap to the same move
    with pytest.raises(ArrayError):
        m.score_moves(rows._replace(moves=big), fills)
    with pytest.raises(CardError, match="in_fl"):
        m.score_moves(rows, fills, in_fl=-1)


def test_values_and_score_moves_refuse_a_bool_among_ints() -> None:
    """A bool among the ints of a board or fill is an ArrayError naming the argument,
    not card 1 (numpy reads [True, 2] as [1, 2]: the board of card 1 was valued)."""
    m = value_model(rules.PINEAPPLE)
    board = list(_boards(5, 1)[0])
    one = board.index(1) if 1 in board else 0
    board[one] = 1
    with_bool = [list(board)]
    with_bool[0][one] = True
    with pytest.raises(ArrayError, match=r"values: boards .*bool"):
        m.values(with_bool)
    with pytest.raises(ArrayError, match=r"values: boards .*bool"):
        m.values(np.array(with_bool, dtype=object))
    rows, _ = _move_rows()
    with pytest.raises(ArrayError, match=r"score_moves: fills .*bool"):
        m.score_moves(rows, [[[0, True, 2, 3]]])
    assert m.values([board]).shape == (1,)


def test_model_rejects_non_finite_settings() -> None:
    with pytest.raises(OfcError, match="foul_penalty must be a finite number"):
        ValueModel(rules.OFC, ModelSettings(foul_penalty=float("nan")))


# ------------------------------------------------------------------------ sampling


def test_sample_futures_draws_from_unseen() -> None:
    unseen = np.array(sorted(random.Random(1).sample(range(52), 30)), dtype=np.uint8)
    fut, fills = sample_futures(unseen, 8, 5, 200, 6, seed=42)
    assert fut.shape == (200, 8) and fills.shape == (200, 6, 5)
    for k in range(200):
        assert len(set(fut[k])) == 8 and set(fut[k]) <= set(unseen)
        for p in range(6):
            assert len(set(fills[k, p])) == 5 and set(fills[k, p]) <= set(fut[k])
        # fill 0: the five highest ranks of the future, the lowest of them first
        ranks = sorted((c >> 2 for c in fut[k]), reverse=True)[:5]
        assert sorted((c >> 2 for c in fills[k, 0]), reverse=True) == ranks
        assert [c >> 2 for c in fills[k, 0]] == sorted(c >> 2 for c in fills[k, 0])
    again = sample_futures(unseen, 8, 5, 200, 6, seed=42)
    assert (again[0] == fut).all() and (again[1] == fills).all()
    assert not (sample_futures(unseen, 8, 5, 200, 6, seed=43)[0] == fut).all()


def test_sample_futures_never_casts_unseen_silently() -> None:
    """Unseen card ids past uint8 (300 would wrap to card 44, which was drawn),
    floats or bools are an ArrayError naming them; ids 52..255 a CardError (C)."""
    for bad in (np.array([300, 1]), np.array([1.5, 2.5]), [True, 2]):
        with pytest.raises(ArrayError, match="sample_futures: unseen"):
            sample_futures(bad, 1, 1, 1, 1, seed=1)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        sample_futures(np.array([60]), 1, 1, 1, 1, seed=1)
    fut, _ = sample_futures(np.array([44, 45], dtype=np.int64), 1, 1, 4, 1, seed=1)
    assert set(fut.ravel()) <= {44, 45}


def test_sample_futures_is_uniform() -> None:
    """Every unseen card about equally often in the futures (chi-square, fixed seed)."""
    unseen = np.arange(20, dtype=np.uint8)
    fut, _ = sample_futures(unseen, 5, 0, 20000, 0, seed=7)
    counts = Counter(fut.ravel().tolist())
    expected = 20000 * 5 / 20
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in range(20))
    assert chi2 < 43.8  # 19 degrees of freedom, p = 0.001


def test_sample_futures_pineapple_rounds() -> None:
    """Rounds of 3 future cards keep 2 each: no fill uses all 3 cards of a round."""
    unseen = np.arange(10, 40, dtype=np.uint8)
    fut, fills = sample_futures(unseen, 6, 4, 100, 8, seed=3, rounds=2)
    for k in range(100):
        rounds = [set(fut[k, :3]), set(fut[k, 3:])]
        for p in range(8):
            f = set(fills[k, p])
            assert all(len(f & r) == 2 for r in rounds)
        low = [min(r, key=lambda c: (c >> 2, list(fut[k]).index(c))) for r in rounds]
        assert not set(low) & set(fills[k, 0])


def test_sample_futures_rejects_bad_input() -> None:
    u = np.arange(10, dtype=np.uint8)
    with pytest.raises(OfcError):
        sample_futures(u, 11, 2, 1, 1, seed=1)
    with pytest.raises(OfcError):
        sample_futures(u, 3, 4, 1, 1, seed=1)
    with pytest.raises(OfcError):
        sample_futures(u, 5, 2, 1, 1, seed=1, rounds=2)
    with pytest.raises(CardError):
        sample_futures(np.array([1, 1, 2], dtype=np.uint8), 2, 1, 1, 1, seed=1)
    with pytest.raises(CardError):
        sample_futures(np.array([1, 52], dtype=np.uint8), 2, 1, 1, 1, seed=1)


# -------------------------------------------------------------------- split list


@pytest.mark.parametrize("sizes", [(0, 0, 0), (1, 1, 0), (1, 2, 2), (3, 2, 1), (2, 3, 3)])
def test_row_splits_small_exhaustive(sizes: tuple[int, int, int]) -> None:
    f, m, b = sizes
    n = f + m + b
    want = {
        tuple(sorted(p[:f])) + tuple(sorted(p[f : f + m])) + tuple(sorted(p[f + m :]))
        for p in permutations(range(n))
    }
    got = [tuple(r) for r in row_splits(f, m, b).tolist()]
    assert len(got) == len(set(got)) and set(got) == want


def test_row_splits_13() -> None:
    s = row_splits()
    assert s.shape == (72072, 13) and not s.flags.writeable
    assert (np.sort(s, axis=1) == np.arange(13)).all()
    for lo, hi in ((0, 3), (3, 8), (8, 13)):  # each row ascending
        assert (np.diff(s[:, lo:hi], axis=1) > 0).all()
    keys = {(tuple(r[:3]), tuple(r[3:8])) for r in s.tolist()}
    assert len(keys) == 72072
    with pytest.raises(BoardError):
        row_splits(-1, 5, 5)
    with pytest.raises(BoardError):
        row_splits(6, 6, 6)


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("foul_penalty", "a"),
        ("fl_value", None),
        ("fl_step", float("nan")),
        ("row_weight", [1]),
    ],
)
def test_value_model_names_a_setting_that_is_no_number(field: str, bad: object) -> None:
    """value_model refuses ModelSettings whose field is no finite number with a
    ModelError naming the field (it raised TypeError: "bad operand type for unary
    -: 'str'", "unhashable type: 'list'"), and still caches equal settings."""
    with pytest.raises(ModelError, match=f"value model: {field} must be a"):
        value_model(rules.PINEAPPLE, ModelSettings(**{field: bad}))  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="settings must be a ModelSettings"):
        value_model(rules.PINEAPPLE, (9.0, 10.0, 3.0, 1.0))  # type: ignore[arg-type]
    assert value_model(rules.PINEAPPLE, ModelSettings(foul_penalty=9)) is value_model(
        "pineapple"
    )


def test_renamed_rule_sets_share_one_value_model() -> None:
    """value_model keys its cache by how the rules play: 32 renamed copies of one
    preset are one HeuristicModel (each built its own 380 KB C model and pushed the
    others out of the 32-entry cache), and rules that play otherwise are another."""
    models = [value_model(rules.PINEAPPLE.replace(name=f"t{k}")) for k in range(32)]
    assert len({id(m) for m in models}) == 1
    assert models[0] is value_model(rules.PINEAPPLE.replace(description="home game"))
    assert value_model(rules.PINEAPPLE.replace(sweep_bonus=9)) is not models[0]


def _royalty_9(back: int, middle: int) -> rules.RuleSet:
    """PINEAPPLE with its royal flush royalties (back, middle) changed."""
    data = rules.PINEAPPLE.to_dict()
    data["royalties"]["back"][9], data["royalties"]["middle"][9] = back, middle
    return rules.RuleSet.from_dict(data)


def test_rule_sets_whose_fingerprints_collide_get_their_own_value_models() -> None:
    """value_model keyed its cache by the 32-bit rules fingerprint alone, so two rule
    sets that differ but collide (royal flush royalties 258/389 and 416/604) shared
    one model: a bot valued a board under the other rule set's royalties.  The key
    compares how the rules play exactly."""
    from ofc_fast.learned import rules_hash

    a, b = _royalty_9(258, 389), _royalty_9(416, 604)
    assert a != b and rules_hash(a) == rules_hash(b)  # the premise: a collision
    assert value_model(a) is not value_model(b)
    assert value_model(b).rules.royalties.back[9] == 416
