"""The shared test vectors of tests/vectors/, which the C tests read too."""

from __future__ import annotations

from pathlib import Path

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
"""tests/vectors/: one value a line, ``#`` comment lines."""


def read_u64(name: str) -> list[int]:
    """The decimal values of ``tests/vectors/<name>``, comment and blank lines aside."""
    lines = (VECTORS / name).read_text(encoding="ascii").splitlines()
    return [int(line) for line in lines if line.strip() and not line.startswith("#")]
