"""The README's preset table is the one tools/presets_table.py renders."""

from __future__ import annotations

from pathlib import Path

import pytest
from c_programs import COMPILER, CSRC, build_and_run
from md_blocks import fenced_blocks, run_block
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SCRIPT = ROOT / "tools" / "presets_table.py"


@pytest.mark.skipif(
    not (README.exists() and SCRIPT.exists()),
    reason="needs a source checkout (git clone: README.md, tools/)",
)
def test_readme_preset_table_is_current() -> None:
    module = load_script(SCRIPT, "presets_table")
    text = README.read_text(encoding="utf-8")
    start = text.index("<!-- presets-table")
    block = text[text.index("\n", start) + 1 : text.index("<!-- end presets-table -->")]
    assert block.strip() == module.table().strip(), (
        "README preset table is stale: run python tools/presets_table.py"
    )


@pytest.mark.skipif(
    not SCRIPT.exists(), reason="needs a source checkout (git clone: tools/)"
)
def test_presets_table_refuses_an_option() -> None:
    """``python tools/presets_table.py --check`` printed the table and exited 0: a
    check that checked nothing."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "unrecognized arguments: --check" in proc.stderr


@pytest.mark.skipif(
    not README.exists(), reason="needs a source checkout (git clone: README.md)"
)
def test_readme_python_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ```python block of the README runs as written (in a scratch directory),
    as the main script: ``if __name__ == "__main__":`` blocks run too (the parallel
    block as a real script: tests/test_parallel_guard.py); an expression whose line
    ends in a ``# literal`` comment (the quickstart's ``# (50, (1, 1, 1))``) gives
    that value, as in the docs pages (the README's claims were never compared)."""
    monkeypatch.chdir(tmp_path)
    blocks = fenced_blocks(README.read_text(encoding="utf-8"), "python")
    assert blocks
    for block in blocks:
        run_block(block, "README.md")


@pytest.mark.skipif(
    not (README.exists() and CSRC.is_dir()),
    reason="needs a source checkout (git clone: README.md, csrc/)",
)
@pytest.mark.skipif(COMPILER is None, reason="no C compiler: install gcc")
def test_readme_c_programs_compile_and_run(tmp_path: Path) -> None:
    """Every C block of the README is a complete program: it builds with -Wall -Wextra
    -Werror -pedantic and runs to exit status 0 (a fragment that does not compile, such
    as one naming an undeclared board, fails here)."""
    programs = fenced_blocks(README.read_text(encoding="utf-8"), "c")
    assert programs
    for i, program in enumerate(programs):
        assert "int main(" in program, f"C block {i} of the README is not a whole program"
        assert build_and_run(program, tmp_path, f"example{i}").strip()


@pytest.mark.skipif(
    not README.exists(), reason="needs a source checkout (git clone: README.md)"
)
@pytest.mark.skipif(COMPILER is None, reason="no C compiler: install gcc")
def test_readme_scoring_program_agrees_with_the_python_api(tmp_path: Path) -> None:
    """The README's C scoring program prints the net that ``score_pair`` gives for the
    same two boards under the OFC preset (the boards are written as ids there)."""
    import ofc_fast as ofc

    program = next(
        b
        for b in fenced_blocks(README.read_text(encoding="utf-8"), "c")
        if "ofc_score_boards" in b
    )
    out = build_and_run(program, tmp_path, "score")
    lines = dict(line.split(": ") for line in out.strip().splitlines())
    a = ofc.Board.parse("Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts")
    b = ofc.Board.parse("2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c")
    assert int(lines["net"]) == ofc.score_pair(a, b, ofc.rules.OFC).net
    assert int(lines["royal flush"]) == ofc.rank5("As Ks Qs Js Ts")


@pytest.mark.skipif(
    not README.exists(), reason="needs a source checkout (git clone: README.md)"
)
def test_readme_names_every_key_an_observation_holds() -> None:
    """The README's list of an observation's keys left out ``game``, ``lowball``,
    ``is_over`` and ``face_down``, which every observation holds: the paragraph names
    each key that ``Game.observation`` gives (a deal in progress, a deal over, rules
    that are no preset), and no other."""
    import re

    import ofc_fast as ofc

    text = " ".join(README.read_text(encoding="utf-8").split())
    para = text.split("An observation (`ofc_fast.game.Observation`", 1)[1]
    para = para.split("so the observation stays plain JSON", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", para))
    seen: set[str] = set()
    for rules in (ofc.rules.PINEAPPLE, ofc.rules.OFC.replace(overall_bonus=1)):
        g = ofc.Game(rules, players=2, seed=3)
        seen.update(g.observation(0))
        while not g.is_over:
            g.play_action(g.legal_actions()[0])
        seen.update(g.observation(1))
    assert {"result", "rule_set", "face_down"} <= seen
    assert named == seen, (sorted(seen - named), sorted(named - seen))
