"""Generated tables: regenerating gives the same bytes; C and Python presets agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ofc_fast import rules
from ofc_fast._native import OK, ffi, lib
from ofc_fast.rules.compiled import compiled

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "tools" / "gen_tables.py"


@pytest.mark.skipif(
    not GENERATOR.exists(), reason="needs a source checkout (git clone: tools/)"
)
def test_regenerating_tables_gives_identical_bytes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(GENERATOR), "--out-dir", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for name in ("ofc_tables.c", "ofc_tables.h"):
        committed = ROOT / "csrc" / "generated" / name
        assert (tmp_path / name).read_bytes() == committed.read_bytes(), name


def _struct_bytes(c) -> bytes:
    return bytes(ffi.buffer(c))


@pytest.mark.parametrize(
    "preset, init",
    [
        (rules.OFC, lambda c: lib.ofc_rules_init_ofc(c)),
        (rules.PINEAPPLE, lambda c: lib.ofc_rules_init_ofc(c)),
        (rules.CLASSIC_1_6, lambda c: lib.ofc_rules_init_classic(c, 0)),
        (rules.CLASSIC_2_4, lambda c: lib.ofc_rules_init_classic(c, 1)),
    ],
)
def test_python_presets_compile_to_the_c_presets(preset, init) -> None:
    """The Python rule model and the C initialisers are written separately; the
    compiled structs must be byte-identical."""
    c = ffi.new("ofc_rules *")
    assert init(c) == OK
    assert _struct_bytes(compiled(preset)) == _struct_bytes(c)


@pytest.mark.skipif(
    not GENERATOR.exists(), reason="needs a source checkout (git clone: tools/)"
)
@pytest.mark.parametrize("script", ["gen_tables.py", "gen_opponent_rows.py"])
def test_generators_refuse_an_out_dir_that_is_not_there(
    tmp_path: Path, script: str
) -> None:
    """``--out-dir`` of a folder that is not there ended in a FileNotFoundError
    traceback (exit status 1) when the first file was written."""
    missing = tmp_path / "nowhere"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / script), "--out-dir", str(missing)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"argument --out-dir: no folder {str(missing)!r}" in proc.stderr
    assert not missing.exists()


@pytest.mark.skipif(
    not GENERATOR.exists(), reason="needs a source checkout (git clone: tools/)"
)
@pytest.mark.parametrize("option", [["--check"], ["--out-dir", "."]])
def test_opponent_rows_quick_refuses_what_it_does_not_do(option: list[str]) -> None:
    """``gen_opponent_rows.py --quick --check`` printed the digest of a small run and
    exited 0 whatever the committed files held (``--quick`` writes and compares
    nothing), and ``--quick --out-dir DIR`` wrote nothing there: argparse's usage
    error naming ``--quick``, exit status 2, before the run."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_opponent_rows.py"), "--quick", *option],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"error: --quick: not with {option[0]}" in proc.stderr
