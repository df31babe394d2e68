"""The helpers that exist once, checked against independent
references: the per-strength tables decoded in ``ofc_fast.ranking``, row sizes and free
slots, 13-card hands, moves from a board, the row comparison value (2-7 middle), the
cards a seat is dealt (C ``ofc_cards_per_seat``), and bots that play a custom rule set
without being given it."""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest
import reference as ref
from game_model import normal_cards
from hypothesis import given, settings
from hypothesis import strategies as st

import ofc_fast as ofc
from ofc_fast import Board, Game, rules
from ofc_fast.board import ROW_SIZES, free_slots, hand_cards
from ofc_fast.bots import HeuristicBot, RandomBot, SearchBot
from ofc_fast.bots.base import rules_of
from ofc_fast.errors import BoardError, CardError, GameError, MoveError, RulesError
from ofc_fast.game import Move, cards_per_seat, play_out
from ofc_fast.ranking import STRENGTH_CARDS, STRENGTH_CATEGORY, STRENGTH_RANKS


def _random_hand(rng: random.Random, n: int) -> list[int]:
    return rng.sample(range(52), n)


def test_strength_tables_match_the_reference() -> None:
    """The decoded per-strength tables agree with the reference classifier on random
    3- and 5-card hands, and are read-only (shared by every module)."""
    rng = random.Random(15)
    for _ in range(3000):
        for n in (3, 5):
            hand = _random_hand(rng, n)
            s = ofc.rank(hand)
            assert STRENGTH_CARDS[s] == n
            assert STRENGTH_CATEGORY[s] == ref.category(hand)
            lead = STRENGTH_RANKS[s][0]
            ranks = sorted(
                (c // 4 for c in hand),
                key=lambda r: (-[c // 4 for c in hand].count(r), -r),
            )
            if ref.category(hand) not in (4, 8, 9):  # straights read from their top
                assert lead == ranks[0]
    assert STRENGTH_CARDS[0] == 0 and (STRENGTH_RANKS[0] == 15).all()
    for table in (STRENGTH_CARDS, STRENGTH_CATEGORY, STRENGTH_RANKS):
        with pytest.raises(ValueError):
            table[1] = 0


def test_row_sizes_and_free_slots() -> None:
    assert ROW_SIZES == (3, 5, 5)
    assert free_slots([[1, 2], [], [3, 4, 5, 6, 7]]) == (1, 5, 0)
    assert free_slots([[], [], []]) == ROW_SIZES
    with pytest.raises(BoardError, match="front, middle, back"):
        free_slots([[], []])
    with pytest.raises(BoardError, match="overflow"):
        free_slots([[1, 2, 3, 4], [], []])
    with pytest.raises(MoveError, match="front, middle, back"):  # the game's wording
        ofc.game.actions_for(1, [[], []])


@given(st.lists(st.integers(0, 3), min_size=0, max_size=13))
def test_free_slots_any_partial_board(rows_of: list[int]) -> None:
    rows: list[list[int]] = [[], [], []]
    for i, r in enumerate(rows_of):
        if r < 3 and len(rows[r]) < ROW_SIZES[r]:
            rows[r].append(i)
    assert free_slots(rows) == tuple(size - len(row) for size, row in zip((3, 5, 5), rows))


def test_hand_cards() -> None:
    text = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    board = Board.parse(text)
    ids = list(board.cards)
    assert hand_cards(text) == ids == hand_cards(board) == hand_cards(ids)
    assert hand_cards(" ".join(ofc.card_str(c) for c in ids)) == ids
    with pytest.raises(CardError, match=r"^a natural: expected exactly 13 cards, got 12"):
        hand_cards(ids[:12], what="a natural")
    with pytest.raises(CardError, match=r"^expected 13 to 17 cards, got 2"):
        hand_cards("As Ks", 13, 17)
    with pytest.raises(CardError):
        hand_cards(ids[:12] + [ids[0]])  # a repeated card
    # the callers: naturals and both solvers share it
    with pytest.raises(CardError, match="exactly 13 cards, got 12"):
        ofc.detect_naturals(ids[:12])
    with pytest.raises(CardError, match=r"^best_setting: expected exactly 13 cards"):
        ofc.best_setting(ids[:12])
    with pytest.raises(CardError, match=r"^solve_fantasyland: expected 13 to 17 cards"):
        ofc.solve_fantasyland(ids[:12])


def test_move_from_rows_and_board() -> None:
    board = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    m = Move.from_board(board, discard=[4])
    assert m == Move(
        {"front": board.front, "middle": board.middle, "back": board.back}, discard=4
    )
    assert m.rows() == (board.front, board.middle, board.back) and m.discards == (4,)
    arrays = Move.from_rows(
        np.array(board.front, dtype=np.uint8),
        np.array(board.middle),
        np.array(board.back, dtype=np.int64),
    )
    assert arrays == Move.from_board(board) and arrays.discards == ()
    assert all(type(c) is int for c in arrays.cards)
    assert Move.from_rows("Qh Qd 2c", "", "As") == Move(
        [("Qh", 0), ("Qd", 0), ("2c", 0), ("As", 2)]
    )
    with pytest.raises(MoveError):
        Move.from_rows([52], [], [])
    m = Move([(47, "back"), (51, "front")], discard=0)
    ordered = m.in_order([0, 51, 47])
    assert ordered == m and ordered.cards == (0, 51, 47)
    assert ordered.destinations == (3, 0, 2)


def test_move_from_rows_board_and_in_order_name_what_holds_no_cards() -> None:
    """Move.from_rows given None or a number for a row or the discards raised
    TypeError, Move.from_board given no Board AttributeError, Move.in_order given
    dealt cards that are no sequence of cards TypeError: each a MoveError."""
    board = Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    for bad in (None, 5, 2.5, object()):
        with pytest.raises(MoveError, match="front"):
            Move.from_rows(bad, [], [])
        with pytest.raises(MoveError, match="back"):
            Move.from_rows([], [], bad)
        with pytest.raises(MoveError, match="discard"):
            Move.from_rows([51], [], [], bad)
        with pytest.raises(MoveError, match="Board"):
            Move.from_board(bad)
        with pytest.raises(MoveError, match="dealt"):
            Move([(51, 0)]).in_order(bad)
        with pytest.raises(MoveError, match="discard"):
            Move.from_board(board, bad)
    for bad_board in (str(board), list(board.cards), board.rows):
        with pytest.raises(MoveError, match="Board"):
            Move.from_board(bad_board)
    with pytest.raises(MoveError, match="dealt"):
        Move([(51, 0)]).in_order([[51], [0]])
    assert Move([(51, 0)]).in_order(np.array([0, 51])).cards == (51,)


def test_row_values_are_the_comparison_of_each_row() -> None:
    """Board.row_values (C ofc_row_value): the strength, but a 2-7 middle's value,
    whose order is the reference 2-7 order (R-27-2)."""
    rng = random.Random(27)
    p27 = rules.PINEAPPLE_27
    boards = [Board.from_cards(_random_hand(rng, 13)) for _ in range(400)]
    for b in boards:
        ev = b.evaluate(p27)
        assert b.row_values(rules.PINEAPPLE) == ev.strengths
        v = b.row_values(p27)
        assert (v[0], v[2]) == (ev.strengths[0], ev.strengths[2])
        assert v[1] == ofc.low27(ev.strengths[1])
    for a, b in pairwise(boards):
        ka, kb = ref.low27_key(list(a.middle)), ref.low27_key(list(b.middle))
        va, vb = a.row_values(p27)[1], b.row_values(p27)[1]
        assert (va > vb) == (ka > kb) and (va == vb) == (ka == kb)


def test_row_value_refuses_bad_input() -> None:
    from ofc_fast._native import ffi, lib
    from ofc_fast.rules.compiled import compiled

    E_RULES, E_STRENGTH, e_value = lib.OFC_E_RULES, lib.OFC_E_STRENGTH, lib.OFC_E_VALUE

    c = compiled(rules.OFC)
    front, five = ofc.rank3("Ah Ad Kc"), ofc.rank5("As Ks Qs Js Ts")
    assert lib.ofc_row_value(c, 0, front) == front
    assert lib.ofc_row_value(c, 0, five) == E_STRENGTH  # not a front hand
    assert lib.ofc_row_value(c, 2, front) == E_STRENGTH
    assert lib.ofc_row_value(c, 3, five) == e_value
    assert lib.ofc_row_value(c, 1, 0) == E_STRENGTH
    assert lib.ofc_row_value(ffi.NULL, 1, five) == E_RULES


def test_cards_per_seat_is_the_engine_schedule() -> None:
    """cards_per_seat (C ofc_cards_per_seat) against the reference model and against
    what a game really deals each seat."""
    for preset in rules.PRESETS.values():
        assert cards_per_seat(preset) == normal_cards(preset)
        fl_counts = [0] if preset.fantasyland is None else [0, 13, 14, 15, 16, 17]
        for fl in fl_counts:
            g = Game(preset, players=2, seed=3, fantasyland=(fl, 0))
            bots, seen = [RandomBot(seed=1), RandomBot(seed=2)], 0
            while not g.is_over:
                seat = g.to_act
                assert seat is not None
                seen += len(g.dealt) if seat == 0 else 0
                g.play(bots[seat].act(g.observation(seat)))
            assert cards_per_seat(preset, fl) == seen
        if preset.fantasyland is None:
            with pytest.raises(GameError):
                cards_per_seat(preset, 14)


def test_cards_per_seat_quotes_a_huge_count_safely() -> None:
    """cards_per_seat(rules, 10**5000) raised ValueError (Python's int-to-text limit)
    while writing the count into its GameError: it is quoted as every error quotes
    input."""
    for count in (10**5000, -(10**5000)):
        with pytest.raises(GameError, match="Fantasyland cards"):
            cards_per_seat(rules.PINEAPPLE, count)
    for bad in (12, 18, -1, 300):
        with pytest.raises(GameError):
            cards_per_seat(rules.PINEAPPLE, bad)
    with pytest.raises(GameError):
        cards_per_seat(rules.PINEAPPLE, "14")  # type: ignore[arg-type]


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bot_without_rules_plays_a_custom_rule_set(seed: int) -> None:
    """A bot made without rules plays a game under a ``.replace()``d rule set (named
    "custom", which no preset lookup can find) by that rule set's exact rules."""
    table = rules.PINEAPPLE.replace(sweep_bonus=5, royalties=rules.ROYALTIES_ALT_3)
    assert table.name == "custom"
    with pytest.raises(RulesError):
        rules.get(table.name)
    g = Game(table, players=2, seed=seed)
    assert (
        rules_of(g.observation(0)) == table
    )  # an equal rule set (templates are shared by equal tables)
    result = play_out(
        g,
        [
            HeuristicBot(seed=1, samples=2, arrangements=2),
            SearchBot(seed=2, samples=2) if seed % 2 else RandomBot(seed=2),
        ],
    )
    assert sum(result.net) == 0
    # a bot given other rules still plays the game's own
    assert rules_of(Game(table, seed=1).observation(1), rules.OFC) == table
    # a plain-data observation (no rule set carried) falls back to the presets
    plain = dict(Game(rules.OFC, seed=1).observation(1), rules="OFC")
    assert rules_of(plain) is rules.OFC
    # a preset's name without a carried rule set is that preset, even to a bot whose
    # own rules differ under the same name (an edited preset file keeps the name) ...
    assert rules_of(plain, table.replace(name="OFC")) is rules.OFC
    # ... while the bot's own rules of a name no preset has are its own
    mine = dict(plain, rules="my-table")
    assert rules_of(mine, table.replace(name="my-table")).sweep_bonus == 5


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32, np.int64])
def test_int_array_gives_c_an_aligned_array(dtype: type) -> None:
    """``batch.int_array``, the one reader of integer arrays for C, returned an array
    of its dtype at an odd address as it was (``buf[1:].view(np.uint16)``: C-contiguous
    yet not aligned), which its callers hand to C as a ``uint16_t *`` / ``uint32_t *``
    (``HeuristicModel.score_moves``'s moves): reads through it are undefined
    behaviour.  It gives an aligned array holding the same values."""
    from ofc_fast.batch import int_array

    values = [[1, 2, 3], [40, 50, 60]]
    size = np.dtype(dtype).itemsize
    buf = np.zeros(6 * size + 1, dtype=np.uint8)
    odd = buf[1:].view(dtype).reshape(2, 3)
    odd[:] = values
    assert odd.flags.c_contiguous and not odd.flags.aligned
    got = int_array(odd, dtype, "rows")
    assert got.flags.aligned and got.flags.c_contiguous and got.dtype == dtype
    assert got.tolist() == values
