"""The value model file's header checksum (format 3, docs/learned.md): a damaged
header field is refused, not read as another model; versions 1 and 2 still load."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from model_format import HEADER, as_version
from reference_fnv import fnv1a64
from test_learned import random_nets
from test_opponent_rows import shipped_counts

from ofc_fast import rules
from ofc_fast.errors import ModelError
from ofc_fast.learned import FORMAT_VERSION, ValueModel, load_model, model_bytes
from ofc_fast.learned.model import MODEL_DIR

P = rules.PINEAPPLE
BOARD = "Kc 7d / Ac Ad 8c / 6c 6d"


def test_flipped_seat_count_is_refused_not_read_as_any_seat_count():
    """Regression: a shipped heads-up model with its players field (bytes 32..35)
    damaged to 0, "any seat count", was accepted, and valued 3-player tables with the
    heads-up model; a damaged rules hash read as "trained for other rules".  Both are
    refused now as a corrupt file, naming the header checksum."""
    data = bytearray((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    assert ValueModel.from_bytes(bytes(data)).value(BOARD, P, players=2) is not None
    data[32:36] = struct.pack("<I", 0)
    with pytest.raises(ModelError, match="header checksum"):
        ValueModel.from_bytes(bytes(data)).value(BOARD, P, players=3)
    data = bytearray((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    data[20] ^= 1
    with pytest.raises(ModelError, match="header checksum"):
        ValueModel.from_bytes(bytes(data))


@pytest.mark.parametrize("rows", [False, True], ids=["typical", "opponent rows"])
def test_every_header_byte_damaged_is_refused(rows: bool):
    """Each of the 64 header bytes xor 0xFF, and each bit of it flipped, in a file
    write_model writes: refused (a ModelError), never another model."""
    data = model_bytes(random_nets(1), P, 2, shipped_counts() if rows else None)
    assert struct.unpack_from("<I", data, 8)[0] == FORMAT_VERSION == 3
    assert struct.unpack_from("<Q", data, 52)[0] == fnv1a64(data[:52])
    assert data[60:HEADER] == bytes(4)
    ValueModel.from_bytes(data)
    for at in range(HEADER):
        for mask in (0xFF, 1, 2, 4, 8, 16, 32, 64, 128):
            bad = bytearray(data)
            bad[at] ^= mask
            with pytest.raises(ModelError):
                ValueModel.from_bytes(bytes(bad))


def test_versions_1_and_2_still_load(tmp_path: Path):
    """Files of the older formats (no header checksum: their header is not checked)
    load as before, the same nets, rules and checksum as the version 3 file."""
    for counts, version in ((None, 1), (shipped_counts(), 2)):
        data = model_bytes(random_nets(2), P, 2, counts)
        old = as_version(data, version)
        (tmp_path / "old.ofcvm").write_bytes(old)
        new, got = ValueModel.from_bytes(data), load_model(tmp_path / "old.ofcvm")
        assert (got.cards, got.checksum, got.rules_hash, got.players) == (
            new.cards,
            new.checksum,
            new.rules_hash,
            new.players,
        )
        assert got.value(BOARD, P, 2) == new.value(BOARD, P, 2)
        assert (got.opponent_rows is None) == (counts is None)


def test_shipped_models_keep_their_payload_checksums():
    """The shipped files were rewritten as format 3: the payload, and so the payload
    checksum a ``{"path": ..., "checksum": ...}`` setting pins, unchanged."""
    want = {
        "ofc-2p": 0x32C0F0367E5E747B,
        "ofc-3p": 0x68E8ED3573918319,
        "pineapple-2p": 0xD620DFCA60533CD7,
        "pineapple-3p": 0xCF5D8D871EBECF25,
    }
    for name, checksum in want.items():
        data = (MODEL_DIR / f"{name}.ofcvm").read_bytes()
        assert struct.unpack_from("<I", data, 8)[0] == 3
        assert (
            fnv1a64(data[HEADER:])
            == checksum
            == load_model(MODEL_DIR / f"{name}.ofcvm").checksum
        )
