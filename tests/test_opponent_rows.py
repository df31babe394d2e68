"""Opponent rows in a value model file (format 2 on): what a model's values are priced
against, written, read, checked, and used by the bots and the search."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from model_format import as_version, sealed
from reference_fnv import fnv1a64
from test_learned import random_nets

from ofc_fast import rules
from ofc_fast._native import ffi, lib
from ofc_fast.bots import ValueBot, unseen_cards
from ofc_fast.errors import ModelError
from ofc_fast.game import Game
from ofc_fast.learned import load_model, model_bytes
from ofc_fast.learned._data import row_counts
from ofc_fast.ranking import rank3, rank5
from ofc_fast.scoring import score_pair
from ofc_fast.search import advise
from ofc_fast.solver import ev_tables

P = rules.PINEAPPLE
SIZE = 7918  # strengths per row
HEADER = 64


def resealed(data: bytes, payload: bytes, flag: int | None = None) -> bytes:
    """The file with another payload (its size and checksums fixed) and, when given,
    another opponent flag."""
    head = bytearray(data[:HEADER])
    head[16:20] = struct.pack("<I", len(payload))
    head[40:48] = struct.pack("<Q", fnv1a64(payload))
    if flag is not None:
        head[48:52] = struct.pack("<I", flag)
    return sealed(bytes(head) + payload)


def point_mass(board: str) -> np.ndarray:
    """Opponent rows that are always this board's rows (strengths by the rankers)."""
    front, middle, back = (part.strip() for part in board.split("/"))
    counts = np.zeros(3 * SIZE, np.uint32)
    for row, strength in enumerate((rank3(front), rank5(middle), rank5(back))):
        counts[row * SIZE + strength] = 1
    return counts


def shipped_counts() -> np.ndarray:
    """The library's typical opponent rows, each count times a random factor."""
    deals = ffi.new("uint32_t *")
    raw = lib.ofc_ev_opponent_counts(deals)
    counts = np.frombuffer(ffi.buffer(raw, 4 * 3 * SIZE), np.uint32).copy()
    factor = np.random.default_rng(5).integers(1, 4, counts.size).astype(np.uint32)
    return counts * factor


def test_model_with_opponent_rows_round_trips(tmp_path: Path):
    counts = shipped_counts()
    data = model_bytes(random_nets(1), P, 2, counts)
    assert struct.unpack_from("<II", data, 8)[0] == 3  # format version 3 (2 added the rows)
    assert struct.unpack_from("<I", data, 48)[0] == 1
    assert data[-4 * 3 * SIZE :] == counts.astype("<u4").tobytes()
    (tmp_path / "m.ofcvm").write_bytes(data)
    m = load_model(tmp_path / "m.ofcvm")
    rows = m.opponent_rows
    assert rows is not None and rows.shape == (3, SIZE)
    assert np.array_equal(rows.ravel(), counts)
    # Its tables are those built from its counts, not the rule set's.
    want = ffi.new("ofc_ev_tables *")
    assert lib.ofc_ev_tables_init_counts(_c(P), _u32(counts), want) == 0
    assert bytes(ffi.buffer(m.ev_tables(P))) == bytes(ffi.buffer(want))
    assert bytes(ffi.buffer(m.ev_tables(P))) != bytes(ffi.buffer(ev_tables(P)))


def _c(r: rules.RuleSet) -> object:
    from ofc_fast.rules.compiled import compiled

    return compiled(r)


def _u32(counts: np.ndarray) -> object:
    return ffi.from_buffer("uint32_t[]", counts.astype(np.uint32))


def test_model_without_opponent_rows_uses_the_typical_opponent():
    """Written as format 3 (as every model: format 1 until the header checksum) with
    the opponent flag 0; read as format 3 and as format 1, it is priced against the
    typical opponent."""
    data = model_bytes(random_nets(1), P, 2)
    assert struct.unpack_from("<I", data, 8)[0] == 3
    assert struct.unpack_from("<I", data, 48)[0] == 0
    from ofc_fast.learned import ValueModel

    for blob in (data, as_version(data, 1)):
        m = ValueModel.from_bytes(blob, "typical")
        assert m.opponent_rows is None and m.ev_tables(P) is ev_tables(P)


def test_a_model_against_one_board_values_a_board_as_the_scorer_pays():
    """Against opponent rows that are always one board, the value of a finished
    board is what the pair scorer pays against that board, plus the opponent's
    royalties (which every board of ours pays alike, so the model leaves them out)."""
    them = "Kc 7d 3h / Ac Ad 8c 8d 4s / 6c 6d 6h 4c 4d"
    m_counts = point_mass(them)
    from ofc_fast.learned import ValueModel

    m = ValueModel.from_bytes(model_bytes(random_nets(1), P, 2, m_counts), "one-board")
    fl = [0.0] * 18
    for mine in (
        "Jh Jd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts",  # wins every row
        "2h 3d 5c / 7s 7h 5d 3c 2d / 9c 9s 8h 8s 2s",  # loses every row
        "Ah 2d 3c / Kd Kh 9c 5h 2s / Tc Td Th 7c 7h",  # wins the front and the back
        "Qh Qd 7c / Qs Qc 6s 5h 3s / Ah As Ks Kd 2h",  # fouls
    ):
        pay = score_pair(mine, them, P)
        want = pay.net + sum(pay.royalties[1])
        assert m.value(mine, P, 2, fl_value=fl) == pytest.approx(want, abs=1e-9), mine


@pytest.mark.parametrize(
    "damage, what",
    [
        ("flag 2", "out of range"),
        ("short by one count", "out of range"),
        ("a front count at a 5-card strength", "out of range"),
        ("a count at strength 0", "out of range"),
        ("a row without counts", "out of range"),
        ("rows under format 1", "out of range"),
        ("flag 1 without rows", "out of range"),
    ],
)
def test_damaged_opponent_rows_raise_model_error(tmp_path: Path, damage: str, what: str):
    counts = shipped_counts()
    data = model_bytes(random_nets(1), P, 2, counts)
    nets, rows = data[HEADER : -4 * 3 * SIZE], counts.copy()
    flag = None
    if damage == "flag 2":
        flag = 2
    elif damage == "short by one count":
        rows = rows[:-1]
    elif damage == "a front count at a 5-card strength":
        rows[rank5("As Ks Qs Js Ts")] = 1
    elif damage == "a count at strength 0":
        rows[SIZE] = 1
    elif damage == "a row without counts":
        rows[2 * SIZE :] = 0
    bad = resealed(data, nets + rows.astype("<u4").tobytes(), flag)
    if damage == "rows under format 1":
        bad = as_version(bad, 1)
    if damage == "flag 1 without rows":
        bad = resealed(data, nets)
    assert fnv1a64(bad[HEADER:]) == struct.unpack_from("<Q", bad, 40)[0]
    (tmp_path / "bad.ofcvm").write_bytes(bad)
    with pytest.raises(ModelError, match=what):
        load_model(tmp_path / "bad.ofcvm")


def test_row_counts_worked_example():
    boards = [
        [[42, 41, 20], [31, 30, 29, 12, 13], [51, 47, 43, 39, 35]],  # clean
        [[50, 49, 0], [28, 24, 1, 5, 9], [48, 44, 40, 36, 32]],  # a foul: left out
        [[2, 6, 10], [3, 7, 14, 18, 22], [11, 15, 19, 23, 27]],  # clean
    ]
    from ofc_fast.board import Board

    assert [Board.from_ids(*(tuple(r) for r in b)).is_foul(P) for b in boards] == [
        False,
        True,
        False,
    ]
    counts = row_counts(P, boards)
    assert counts.sum() == 6
    for b in (boards[0], boards[2]):
        front, middle, back = b
        assert counts[rank3(front)] >= 1
        assert counts[SIZE + rank5(middle)] >= 1
        assert counts[2 * SIZE + rank5(back)] >= 1


def _decision(cards: int) -> dict[str, object]:
    """The observation of the first decision whose seat has ``cards`` on its board."""
    g, bot = Game(P, 2, seed=4), ValueBot(P, 0)
    while g.to_act is not None:
        obs = g.observation(g.to_act)
        if sum(len(r) for r in obs["boards"][g.to_act]) == cards:
            return dict(obs)
        g.play(bot.act(obs))
    raise AssertionError("no such decision")  # pragma: no cover


def test_the_bots_and_the_search_price_boards_against_the_models_opponent(tmp_path: Path):
    """The same nets with opponent rows and without give other values: the model's
    action values (ValueBot's) and advise read the model's own tables; against an
    opponent that always holds a weak board every clean board is worth more."""
    weak = point_mass("2h 3d 5c / 7s 6h 4d 3c 2d / 9c Ts 8h 7h 2s")
    nets = random_nets(1)
    typical = tmp_path / "typical.ofcvm"
    typical.write_bytes(model_bytes(nets, P, 2))
    (tmp_path / "weak.ofcvm").write_bytes(model_bytes(nets, P, 2, weak))
    fl = [0.0] * 18
    obs = _decision(11)
    seat = int(obs["seat"])  # type: ignore[call-overload]
    args = (
        P,
        2,
        fl,
        obs["boards"][seat],
        obs["dealt"],
        1,
        unseen_cards(obs),  # type: ignore[index]
        obs["legal_actions"],
    )
    low = load_model(typical).action_values(*args)  # type: ignore[arg-type]
    high = load_model(tmp_path / "weak.ofcvm").action_values(*args)  # type: ignore[arg-type]
    assert all(h > lo for h, lo in zip(high, low) if lo > -5.5)  # clean boards
    obs = _decision(5)
    a = {x.action: x.ev for x in advise(obs, samples=16, seed=1, model=typical)}
    b = {
        x.action: x.ev
        for x in advise(obs, samples=16, seed=1, model=tmp_path / "weak.ofcvm")
    }
    assert a.keys() == b.keys() and a != b


@pytest.mark.parametrize("name", ["pineapple-2p", "pineapple-3p", "ofc-2p", "ofc-3p"])
def test_every_shipped_model_carries_opponent_rows(name: str):
    """The shipped models are trained with ``--opponent play`` (docs/learned.md): each
    file is format 3 (rewritten from format 2 with a header checksum, the payload
    unchanged), and its rows are a played opponent's (every row counted on the
    same clean boards, a front only at 3-card strengths), not the typical opponent."""
    from ofc_fast.learned.model import MODEL_DIR

    data = (MODEL_DIR / f"{name}.ofcvm").read_bytes()
    assert struct.unpack_from("<I", data, 8)[0] == 3
    rows = load_model(MODEL_DIR / f"{name}.ofcvm").opponent_rows
    assert rows is not None and rows.shape == (3, SIZE)
    assert rows[0].sum() == rows[1].sum() == rows[2].sum() > 10_000
    front = np.flatnonzero(rows[0]).tolist()
    assert all(rank3("2c 3d 4h") <= s <= rank3("Ac Ad Ah") for s in front)
