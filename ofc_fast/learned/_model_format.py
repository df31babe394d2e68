"""The model file format (``csrc/include/ofc_model.h``) as Python writes it: the header
(:func:`file_bytes`), the nets and opponent rows of the payload (:func:`nets_payload`,
each net's shapes checked: :func:`net_widths`), the largest file the format allows
(:data:`MAX_FILE`); and a file's path checked (:func:`file_path`), why one could not
be read or written (:func:`why`)."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import lib
from ..batch import int_array
from ..errors import ModelError, quote
from ..table import as_int

VERSION = int(lib.OFC_VM_VERSION)  # the format written (ofc_fast.learned.FORMAT_VERSION)
FEATURES = int(lib.OFC_VF_N)  # inputs of every net (feature set 1)
OPP_COUNTS = int(lib.OFC_VM_OPP_COUNTS)  # opponent row counts: 3 rows x 7918 strengths
HEADER = struct.Struct("<8sIIIIIIII Q I")  # bytes 0..51: then their checksum, 4 reserved
MAGIC = b"OFCVALUE"
Nets = Sequence[tuple[int, Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]]]]


MAX_FILE = (
    int(lib.OFC_VM_HEADER_BYTES)
    + int(lib.OFC_VM_MAX_NETS) * 4 * (3 + int(lib.OFC_VM_MAX_LAYERS))
    + 4 * int(lib.OFC_VM_MAX_PARAMS)
    + 4 * OPP_COUNTS
)  # bytes of the largest file the format allows: header, net shapes, weights, rows


def file_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path (ModelError when it is no path, or empty: Path("") is the
    current folder, which the caller never named)."""
    if not isinstance(path, (str, os.PathLike)):
        raise ModelError(f"a model file's path is text, got {quote(path)}")
    if not os.fspath(path):
        raise ModelError("a model file's path is empty: name a file")
    return Path(path)


def why(exc: Exception) -> object:
    """Why a file could not be read or written: the OS's words, or the ValueError's."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else exc


def pair_list(items: object, what: str) -> list[tuple[Any, Any]]:
    """``items`` (``nets``, a net's layers) as a list of pairs, else ModelError."""
    if isinstance(items, Iterable) and not isinstance(items, (str, bytes, Mapping)):
        pairs = [tuple(p) if isinstance(p, (tuple, list)) else () for p in items]
        if all(len(p) == 2 for p in pairs):
            return [(a, b) for a, b in pairs]
    raise ModelError(f"{what}: expected a list of pairs, got {quote(items)}")


def net_widths(
    cards: int, layers: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]]
) -> list[int]:
    """A net's widths (inputs, then each layer's outputs); ModelError when a layer's
    weights are not (out, in) with ``in`` the previous width, its bias not ``out``
    numbers (they would land in the wrong places), or the format holds no such net."""
    n = as_int(cards)
    if n is None or not 5 <= n <= 12:  # (C refused 4 or 13 as 'sizes out of range')
        raise ModelError(f"a net's cards are 5..12, got {quote(cards)}")
    widths: list[int] = []
    for i, (w, b) in enumerate(layers):
        shape = np.shape(w)
        if len(shape) != 2 or (widths and shape[1] != widths[-1]):
            raise ModelError(
                f"net of {cards} cards, layer {i}: weights of shape {shape}, not "
                f"(out, {widths[-1] if widths else 'inputs'})"
            )
        if np.size(b) != shape[0]:
            raise ModelError(
                f"net of {cards} cards, layer {i}: {np.size(b)} biases, not {shape[0]}"
            )
        widths += [int(shape[1]), int(shape[0])] if not widths else [int(shape[0])]
    deep, wide = int(lib.OFC_VM_MAX_LAYERS), int(lib.OFC_VM_MAX_WIDTH)
    fits = 0 < len(layers) <= deep and all(1 <= w <= wide for w in widths)
    if not (fits and widths[0] == FEATURES and widths[-1] == 1):  # (C: 'out of range')
        raise ModelError(
            f"net of {cards} cards: widths {widths}; a net has 1..{deep} layers, takes "
            f"the {FEATURES} inputs, gives 1 output, and each width is 1..{wide}"
        )
    return widths


def nets_payload(nets: Nets, opponent: npt.NDArray[Any] | None) -> tuple[bytes, int]:
    """The payload of a model file of ``nets`` and ``opponent`` rows (or none), and
    its count of nets; ModelError naming what does not fit the format."""
    payload = bytearray()
    checked = pair_list(nets, "nets")
    shaped = [(c, pair_list(net, f"net of {quote(c)} cards: layers")) for c, net in checked]
    for cards, layers in shaped:
        widths = net_widths(cards, layers)
        payload += struct.pack(f"<II{len(widths)}I", int(cards), len(layers), *widths)
        for i, (w, b) in enumerate(layers):
            try:
                payload += np.asarray(w, dtype="<f4").tobytes()
                payload += np.asarray(b, dtype="<f4").tobytes()
            except (ValueError, TypeError):
                raise ModelError(
                    f"net of {cards} cards, layer {i}: weights and biases are numbers"
                ) from None
    if len({int(cards) for cards, _ in shaped}) < len(shaped):
        raise ModelError("two nets for boards of the same card count: one per count")
    if opponent is not None:
        counts = int_array(opponent, np.uint32, "opponent rows", ModelError)
        if counts.size != OPP_COUNTS:
            raise ModelError(f"opponent rows are {OPP_COUNTS} counts, got {counts.size}")
        payload += counts.astype("<u4").tobytes()
    return bytes(payload), len(shaped)


def file_bytes(
    payload: bytes, rules_hash: int, players: int, count: int, opponent: bool
) -> bytes:
    """A model file's bytes: the header (rules fingerprint ``rules_hash``, ``players``
    (0: any), ``count`` nets, ``opponent`` rows or not) under its checksum, then
    ``payload``."""
    checksum = int(lib.ofc_vm_checksum(bytes(payload), len(payload)))
    head = HEADER.pack(
        MAGIC,
        VERSION,
        int(lib.OFC_VM_HEADER_BYTES),
        len(payload),
        rules_hash,
        int(lib.OFC_VF_SET),
        FEATURES,
        players,
        count,
        checksum,
        int(opponent),
    )
    return head + struct.pack("<Q4x", int(lib.ofc_vm_checksum(head, len(head)))) + payload
