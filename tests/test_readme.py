"""The README's preset table is the one tools/presets_table.py renders."""

from __future__ import annotations

from pathlib import Path

import pytest
from c_programs import COMPILER, CSRC, build_and_run
from md_blocks import fenced_blocks, quoted_commands, run_block
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


@pytest.mark.skipif(
    not README.exists(), reason="needs a source checkout (git clone: README.md, docs/)"
)
def test_every_install_command_of_a_code_block_installs_from_the_checkout() -> None:
    """Regression: the README's reinforcement-learning recipe said ``$ pip install
    "ofc-fast[rl-train]"``, which a newcomer's pip answered with "No matching
    distribution found for ofc-fast" (the package is not on the index yet): every
    ``pip install`` of ofc-fast that a code block of the README, CONTRIBUTING.md or
    docs/ runs installs the checkout (``.``, ``".[X]"``), but the README's one block
    for after the first release."""
    import re

    pages = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
    later = re.compile(r"^After the first release[^\n]*\n+```[^\n]*\n.*?^```", re.S | re.M)
    pip = re.compile(r"\b(pip) install\b")
    wrong: list[str] = []
    checked = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        if page == README:
            text, n = later.subn("", text)
            assert n == 1, "the README's block for after the first release moved"
        for _, words, in_block in quoted_commands(text, pip):
            if not in_block:
                continue  # prose: "ofc-fast[X]" is the checkout's ".[X]" (Install)
            checked += any(w.startswith(".") for w in words)
            if any(re.match(r"(?i)ofc[-_]fast(\[|$)", w) for w in words):
                wrong.append(f"{page.name}: pip install {' '.join(words)}")
    assert checked >= 5 and wrong == []


CHECK_DIST = ROOT / "tools" / "check_dist.sh"
# Each row of the README's platform table, as cibuildwheel names its platform.
PLATFORM_ROWS = {
    "Linux x86_64, glibc (manylinux)": "manylinux_x86_64",
    "Linux aarch64, glibc (manylinux)": "manylinux_aarch64",
    "Linux x86_64, musl (musllinux)": "musllinux_x86_64",
    "Linux aarch64, musl (musllinux)": "musllinux_aarch64",
    "macOS Intel (x86_64)": "macosx_x86_64",
    "macOS Apple silicon (arm64)": "macosx_arm64",
    "Windows x64 (AMD64)": "win_amd64",
    "Windows on ARM (ARM64)": "win_arm64",
}


@pytest.mark.skipif(
    not (README.exists() and CHECK_DIST.exists()),
    reason="needs a source checkout (git clone: README.md, tools/)",
)
def test_readme_platform_table_is_the_wheels_check_dist_expects() -> None:
    """The README's "Supported platforms" table promises a wheel per "yes"; the
    build identifiers ``tools/check_dist.sh`` holds cibuildwheel's list to
    (``EXPECTED_LINUX`` ...) were said to be that table, and no test compared them:
    each "yes" (``3.14t``: ``cp314t``, ``PyPy 3.10``: ``pp310``) is one identifier of
    the script's lists, and each identifier a "yes"."""
    import re

    section = README.read_text(encoding="utf-8").split("## Supported platforms", 1)[1]
    table = section.split("\n## ", 1)[0]
    rows = [r.strip("|").split("|") for r in table.splitlines() if r.startswith("| ")]
    header = [c.strip() for c in rows[0][1:]]
    tags = [
        ("pp" if c.startswith("PyPy") else "cp") + c.split()[-1].replace(".", "")
        for c in header
    ]
    promised = {
        f"{tag}-{PLATFORM_ROWS[row[0].strip()]}"
        for row in rows[1:]
        for tag, cell in zip(tags, row[1:], strict=True)
        if cell.strip() == "yes"
    }
    script = CHECK_DIST.read_text(encoding="utf-8")
    lists = re.findall(r'^EXPECTED_[A-Z]+="([^"]*)"', script, re.M)
    expected = {ident for block in lists for ident in block.split()}
    assert len(lists) == 3 and len(rows) == 1 + len(PLATFORM_ROWS)
    assert sorted(promised ^ expected) == []
