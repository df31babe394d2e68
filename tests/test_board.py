"""Boards: parsing, fouls (R-ORDER-*, R-FOUL-*), every OFC royalty (R-ROY-OFC-3/4)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest
from boards import random_pair
from hypothesis import given
from hypothesis import strategies as st
from reference_scoring import is_foul as ref_is_foul
from reference_scoring import ofc_royalties as ref_royalties

import ofc_fast as ofc
from ofc_fast import Board, BoardError, CardError, Row, rules

RANKS = "23456789TJQKA"


@st.composite
def _boards(draw: st.DrawFn) -> Board:
    """A board, partial or complete: distinct cards, each row up to its size."""
    cards = draw(st.permutations(range(52)))
    sizes = [draw(st.integers(0, n)) for n in (3, 5, 5)]
    return Board(cards[: sizes[0]], cards[3 : 3 + sizes[1]], cards[8 : 8 + sizes[2]])


@given(_boards(), st.integers(0, pickle.HIGHEST_PROTOCOL))
def test_a_board_pickles_at_every_protocol(board: Board, protocol: int) -> None:
    """Regression: ``pickle.dumps(board, 0)`` (and protocol 1) raised TypeError "a
    class that defines __slots__ without defining __getstate__ cannot be pickled", and
    so did every result holding a board (a Solution, a GameResult, a NaturalHand).  A
    board now pickles at every protocol, and it and its copies equal it, with its hash."""
    for again in (
        pickle.loads(pickle.dumps(board, protocol)),
        copy.copy(board),
        copy.deepcopy(board),
    ):
        assert type(again) is Board and again == board and hash(again) == hash(board)
        assert again.rows == board.rows and str(again) == str(board)
    solution = ofc.solve_fantasyland("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s")
    assert pickle.loads(pickle.dumps(solution, protocol)) == solution


def test_parse_and_text_round_trip() -> None:
    text = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    b = Board.parse(text)
    assert str(b) == text
    assert Board.parse(text.replace("/", "|")) == b
    assert b.front == tuple(ofc.parse_cards("Qh Qd 2c"))
    assert b.rows == (b.front, b.middle, b.back)
    assert b.is_complete
    assert Board.from_cards(b.cards) == b
    assert hash(Board.parse(text)) == hash(b)
    assert eval(repr(b), {"Board": Board}) == b


def test_partial_boards() -> None:
    b = Board.parse("Kh Kd / / As")
    assert not b.is_complete
    assert b.rows == ((46, 45), (), (51,))
    assert str(b) == "Kh Kd / / As"
    assert b.free(Row.FRONT) == 1 and b.free("middle") == 5 and b.free("bottom") == 4
    b2 = b.place("Ks", Row.FRONT)
    assert b2.front == (46, 45, 47) and b.front == (46, 45)  # immutable
    with pytest.raises(BoardError, match="front row is full"):
        b2.place("2c", "front")
    with pytest.raises(BoardError, match="already on the board"):
        b.place("As", "middle")
    for call in (b.is_foul, b.royalties, b.evaluate):  # (not "evaluate() needs")
        with pytest.raises(BoardError, match=r"^incomplete board \(2/0/1 cards\)"):
            call()


@pytest.mark.parametrize(
    "text, message",
    [
        ("Qh Qd 2c 3c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", "front row holds at most 3"),
        ("Qh Qd 2c / 9s 9h 9d 5c 5d 4d / As Ks Qs Js Ts", "middle row holds at most 5"),
        ("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js", None),
        ("Qh Qd 2c / 9s 9h 9d 5c 5d", "three rows"),
        ("Qh Qd 2c / 9s 9h 9d 5c Qh / As Ks Qs Js Ts", "duplicate card Qh"),
        ("Qh Qd Xc / 9s 9h 9d 5c 5d / As Ks Qs Js Ts", "bad card 'Xc'"),
    ],
)
def test_bad_boards(text: str, message: str | None) -> None:
    if message is None:  # parses as a partial board, but cannot be scored
        with pytest.raises(BoardError, match="complete"):
            Board.parse(text).is_foul()
        return
    with pytest.raises((BoardError, CardError), match=message):
        Board.parse(text)


def test_bad_board_inputs() -> None:
    with pytest.raises(BoardError):
        Board.parse(42)  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="13 cards"):
        Board.from_cards([0, 1, 2])
    with pytest.raises(BoardError, match="bad row"):
        Row.parse("side")
    with pytest.raises(BoardError, match="bad row"):
        Row.parse(3)
    assert issubclass(BoardError, ValueError)


@pytest.mark.parametrize(
    "text, foul",
    [
        ("Qh Qd 5c / Qs Qc 4d 3h 2s / Ah Ad Ac Kd Ks", True),  # QQ5 over QQ432
        ("Qh Qd 5c / Qs Qc 5d 3h 2s / Ah Ad Ac Kd Ks", False),  # QQ5 over QQ532
        ("Qh Qd 7c / Qs Qc 6d 5h 4s / Ah Ad Ac Kd Ks", True),  # QQ7 over QQ654
        ("2c 3d 4h / 9c Td Jh Qs Kc / 9d Th Js Qc Kd", False),  # middle == back is legal
        ("Ah Ad 4c / Kh Kd 3h 3d 8c / 6s 6h 7d 7c 8d", True),  # middle two pair > back
        ("2c 3d 5h / 4c 4d 6h 7s 8c / Ad Kh Qs Jc 9d", True),  # pair middle > A-high back
    ],
)
def test_fouls(text: str, foul: bool) -> None:
    """R-ORDER-1 / R-ORDER-2 / R-FOUL-1 pinned cases (ANCHORS section 4)."""
    b = Board.parse(text)
    assert b.is_foul(rules.OFC) is foul
    assert ref_is_foul(list(b.cards)) is foul
    if foul:
        assert b.royalties() == (0, 0, 0)


def test_ex17_front_qqa_over_middle_qqk_fouls() -> None:
    """EX-17: front Q-Q-A, middle Q-Q-K-x-y is a foul (kicker A > K)."""
    assert Board.parse("Qh Qd Ac / Qs Qc Kd 3h 2s / Ah Ad Kc Ks 2c").is_foul()


def test_order_rule_options() -> None:
    """R-ORDER-1 as an option: equal middle and back fouls only under strict."""
    b = Board.parse("2c 3d 4h / 9c Td Jh Qs Kc / 9d Th Js Qc Kd")
    assert not b.is_foul(rules.OFC)
    assert b.is_foul(rules.OFC.replace(order="strict"))


# One 5-card hand per category (no spades but the quads' 9s), with the middle and
# back values of R-ROY-OFC-3 written here from the rules.
CATEGORY_HANDS = {
    "TWO_PAIR": ("9c 9d 4h 4c 2d", 0, 0),
    "TRIPS": ("9c 9d 9h 4c 2d", 2, 0),
    "STRAIGHT": ("9c 8d 7h 6c 5d", 4, 2),
    "FLUSH": ("Kc 9c 7c 4c 2c", 8, 4),
    "FULL_HOUSE": ("9c 9d 9h 4c 4d", 12, 6),
    "QUADS": ("9c 9d 9h 9s 4d", 20, 10),
    "STRAIGHT_FLUSH": ("9c 8c 7c 6c 5c", 30, 15),
    "ROYAL_FLUSH": ("Ac Kc Qc Jc Tc", 50, 25),
}
WEAK_FRONT = "2s 3s 5s"  # five-high: below every middle used here
WEAK_MIDDLE = "3h 3d 7s 8s Js"  # a pair of threes: below every back used here
TOP_BACK = "As Ks Qs Js Ts"  # a royal flush: at least every middle used here


@pytest.mark.parametrize("name", list(CATEGORY_HANDS))
def test_every_middle_and_back_royalty(name: str) -> None:
    """R-ROY-OFC-3: every middle and back value of the OFC schedule."""
    hand, middle_value, back_value = CATEGORY_HANDS[name]
    assert ofc.category(ofc.rank5(hand)).name == name
    in_middle = Board(WEAK_FRONT, hand, TOP_BACK)
    in_back = Board(WEAK_FRONT, WEAK_MIDDLE, hand)
    for board, row, value in ((in_middle, 1, middle_value), (in_back, 2, back_value)):
        assert not board.is_foul()
        assert board.royalties()[row] == value
        assert ref_royalties(list(board.cards))[row] == value


@pytest.mark.parametrize("rank", range(13))
def test_every_front_royalty(rank: int) -> None:
    """R-ROY-OFC-4: front pair 66 = 1 .. AA = 9, trips 222 = 10 .. AAA = 22."""
    r = RANKS[rank]
    kicker = "3" if r == "2" else "2"
    middle, back = "9s 8s 7s 6s 5s", TOP_BACK  # straight flush, royal flush
    pair = Board(f"{r}c {r}d {kicker}h", middle, back)
    trips = Board(f"{r}c {r}d {r}h", middle, back)
    assert not pair.is_foul() and not trips.is_foul()
    assert pair.royalties()[0] == max(0, rank - 3)
    assert trips.royalties()[0] == 10 + rank
    assert ref_royalties(list(trips.cards))[0] == 10 + rank


def test_royalties_against_reference_random() -> None:
    rng = random.Random(20261130)
    for _ in range(3000):
        a, _b = random_pair(rng)
        board = Board.from_cards(a)
        assert board.is_foul() == ref_is_foul(a)
        assert board.royalties() == ref_royalties(a)


def test_eval_boards_batch_matches_board() -> None:
    rng = random.Random(7)
    boards = [random_pair(rng)[0] for _ in range(2000)]
    batch = ofc.eval_boards(np.array(boards, dtype=np.uint8), rules.OFC)
    for i, cards in enumerate(boards):
        e = Board.from_cards(cards).evaluate(rules.OFC)
        assert tuple(batch.strength[i]) == e.strengths
        assert tuple(batch.royalty[i]) == e.royalties
        assert bool(batch.foul[i]) == e.foul


def test_board_batches_compare_by_their_values() -> None:
    """Two BoardBatch results compared with ``==`` raised NumPy's ValueError ("the
    truth value of an array with more than one element is ambiguous") for two or more
    boards (the dataclass compared its arrays as bools), and ``hash()`` blamed a
    ndarray.  Batches are equal when their strengths, royalties and fouls are; a
    batch holds arrays that may change, so it has no hash."""
    rng = random.Random(8)
    boards = np.array([random_pair(rng)[0] for _ in range(5)], dtype=np.uint8)
    first, again = ofc.eval_boards(boards), ofc.eval_boards(boards.copy())
    assert first == again
    assert (first != again) is False
    assert ofc.eval_boards(boards[:0]) == ofc.eval_boards(boards[:0])
    assert first != ofc.eval_boards(boards[:4])  # one board fewer
    assert first != ofc.eval_boards(boards[::-1].copy())  # the same boards, reordered
    assert (first == "x") is False and first != None  # noqa: E711 - no BoardBatch
    changed = ofc.eval_boards(boards)
    changed.royalty[0, 0] += 1
    assert changed != first
    with pytest.raises(TypeError, match="unhashable type: 'BoardBatch'"):
        hash(first)


@pytest.mark.parametrize("bad", [True, False, 1.0, np.float64(2.0), 0.5, None, [1], "1"])
def test_row_refuses_bools_and_floats(bad: object) -> None:
    """A row is a Row, an int 0..2 (NumPy's too) or a name: a bool or a float is a
    BoardError, as ``Move`` refuses them (before, ``free(True)`` read the middle)."""
    with pytest.raises(BoardError, match="bad row"):
        Row.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="bad row"):
        Board().place("As", bad)  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="bad row"):
        Board().free(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("word", "row"),
    [
        ("front", 0), ("Top", 0), (" F ", 0), ("t", 0),
        ("MIDDLE", 1), ("mid", 1), ("m", 1),
        ("back", 2), ("Bottom ", 2), ("B", 2),
    ],
)  # fmt: skip
def test_row_names_read_in_any_case(word: str, row: int) -> None:
    """Every word ``Row.parse`` takes, in any case, spaces around it ignored."""
    assert Row.parse(word) == row and Board().place("As", word).rows[row] == (51,)


def test_row_takes_numpy_ints_and_names() -> None:
    assert Row.parse(np.int64(1)) is Row.MIDDLE
    assert Row.parse(np.uint8(2)) is Row.BACK
    assert Row.parse(Row.FRONT) is Row.FRONT
    assert Board().place("As", np.int8(0)).front == (51,)


def test_row_splits_checks_its_sizes_on_every_call() -> None:
    """row_splits was cached by its arguments before checking them: once
    row_splits(1, 1, 0) had run, row_splits(True, 1, 0) and row_splits(1.0, 1, 0)
    (equal keys to the cache) returned its array instead of the BoardError a first
    call gives; NumPy ints were refused as "no integers".  The sizes are checked on
    every call; NumPy ints give the ints' splits (1 front + 1 middle: 2 orders)."""
    from ofc_fast.board import row_splits

    assert row_splits(1, 1, 0).tolist() == [[0, 1], [1, 0]]
    for bad in ((True, 1, 0), (1.0, 1, 0), (1, 1, np.False_), (-1, 1, 0), ("1", 1, 0)):
        with pytest.raises(BoardError, match="row sizes must be integers"):
            row_splits(*bad)  # type: ignore[arg-type]
    assert row_splits(np.int64(1), np.uint8(1), 0).tolist() == [[0, 1], [1, 0]]
    assert row_splits(np.int8(2), 0, np.int64(1)).tolist() == [
        [0, 1, 2],
        [0, 2, 1],
        [1, 2, 0],
    ]


def test_row_splits_refuses_more_positions_than_a_row_holds() -> None:
    """row_splits took any sizes of 17 positions in all: row_splits(6, 6, 5) built its
    5,717,712 lines in Python (about 30 s and 2 GB, then kept by its cache) before
    answering.  A row holds at most 3 / 5 / 5 cards (R-ROW-1): larger sizes are a
    BoardError at once; every size a board's rows take still gives its splits."""
    import time
    from math import factorial

    from ofc_fast.board import row_splits

    for bad in ((6, 6, 5), (4, 5, 5), (3, 6, 5), (3, 5, 6), (0, 0, 17), (17, 0, 0)):
        start = time.perf_counter()
        with pytest.raises(BoardError, match="at most 3, 5 and 5"):
            row_splits(*bad)
        assert time.perf_counter() - start < 0.5, bad
    for sizes in ((3, 5, 5), (3, 5, 4), (0, 5, 5), (3, 0, 0), (2, 4, 3)):
        want = factorial(sum(sizes)) // (
            factorial(sizes[0]) * factorial(sizes[1]) * factorial(sizes[2])
        )
        assert row_splits(*sizes).shape == (want, sum(sizes))


def test_row_parse_reads_a_row_word_and_index_without_a_scan_or_an_enum_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``Row.parse("back")`` casefolded every row word in turn before it
    found its own (1.5 us, a third of a text move's parsing in ``Move.from_dict``),
    and ``Row.parse(2)`` went through the enum's lookup (``Row(2)``).  A word spelled
    as the options spell it is now one lookup (``match_choice``), and an index the
    member at it; other spellings and bad rows read as before."""
    from ofc_fast.board import _ROW_WORDS
    from ofc_fast.errors import NamedLookup, match_choice

    class Counted(dict):  # type: ignore[type-arg]
        scans = 0

        def __iter__(self) -> Any:
            Counted.scans += 1
            return super().__iter__()

    assert match_choice("back", Counted(_ROW_WORDS)) == "back"
    assert Counted.scans == 0
    assert match_choice(" Bottom ", Counted(_ROW_WORDS)) == "bottom"
    lookups: list[object] = []
    real = NamedLookup.__call__

    def counted(cls: Any, value: object, *args: Any, **kwargs: Any) -> Any:
        lookups.append(value)
        return real(cls, value, *args, **kwargs)

    monkeypatch.setattr(NamedLookup, "__call__", counted)
    assert [Row.parse(v) for v in ("back", 2, Row.BACK, "TOP", 1)] == [
        Row.BACK,
        Row.BACK,
        Row.BACK,
        Row.FRONT,
        Row.MIDDLE,
    ]
    assert lookups == []
    for bad in (3, -1, True, 1.0, None, "x"):
        with pytest.raises(BoardError, match="bad row"):
            Row.parse(bad)  # type: ignore[arg-type]
