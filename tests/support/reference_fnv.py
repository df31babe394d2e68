"""FNV-1a 64, written out here: the independent reference for the checksums of the
binary files ofc_fast writes and reads (value models, opponent-row tables)."""

from __future__ import annotations


def fnv1a64(data: bytes) -> int:
    """The 64-bit FNV-1a hash of ``data``.

    >>> hex(fnv1a64(b"a"))
    '0xaf63dc4c8601ec8c'
    """
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h
