"""Value model file headers written here by the format in docs/learned.md (not by the
library): the version 3 header checksum, and files of the older versions 1 and 2
(no header checksum), so the tests check the library's writer and parser against an
independent reading of the format."""

from __future__ import annotations

import struct

from reference_fnv import fnv1a64

HEADER = 64  # header bytes
HEADER_SUM = 52  # version 3: FNV-1a 64 of the header bytes before it, at 52..59


def sealed(data: bytes) -> bytes:
    """``data``, a version 3 model file, with its header checksum recomputed (after a
    test changed a header field on purpose)."""
    head = bytearray(data[:HEADER])
    assert struct.unpack_from("<I", head, 8)[0] == 3
    struct.pack_into("<Q", head, HEADER_SUM, fnv1a64(bytes(head[:HEADER_SUM])))
    return bytes(head) + data[HEADER:]


def as_version(data: bytes, version: int) -> bytes:
    """``data``, a version 3 model file, as the older ``version`` (1: no opponent rows
    field; 2: with it) wrote it: the same payload, no header checksum."""
    head = bytearray(data[:HEADER])
    struct.pack_into("<I", head, 8, version)
    head[HEADER_SUM:] = bytes(HEADER - HEADER_SUM)
    return bytes(head) + data[HEADER:]
