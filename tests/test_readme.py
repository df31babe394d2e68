"""The README's preset table is the one tools/presets_table.py renders."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from c_programs import COMPILER, CSRC, build_and_run

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SCRIPT = ROOT / "tools" / "presets_table.py"


@pytest.mark.skipif(
    not (README.exists() and SCRIPT.exists()),
    reason="needs a source checkout (git clone: README.md, tools/)",
)
def test_readme_preset_table_is_current() -> None:
    spec = importlib.util.spec_from_file_location("presets_table", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = README.read_text(encoding="utf-8")
    start = text.index("<!-- presets-table")
    block = text[text.index("\n", start) + 1 : text.index("<!-- end presets-table -->")]
    assert block.strip() == module.table().strip(), (
        "README preset table is stale: run python tools/presets_table.py"
    )


def _blocks(text: str, lang: str) -> list[str]:
    """The fenced ```lang blocks of a Markdown text."""
    blocks, inside, current = [], False, []
    for line in text.splitlines():
        if line.strip() == "```" + lang:
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks


@pytest.mark.skipif(
    not README.exists(), reason="needs a source checkout (git clone: README.md)"
)
def test_readme_python_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ```python block of the README runs as written (in a scratch directory),
    as the main script: ``if __name__ == "__main__":`` blocks run too (the parallel
    block as a real script: tests/test_parallel_guard.py)."""
    monkeypatch.chdir(tmp_path)
    blocks = _blocks(README.read_text(encoding="utf-8"), "python")
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "__main__"})


@pytest.mark.skipif(
    not (README.exists() and CSRC.is_dir()),
    reason="needs a source checkout (git clone: README.md, csrc/)",
)
@pytest.mark.skipif(COMPILER is None, reason="no C compiler: install gcc")
def test_readme_c_programs_compile_and_run(tmp_path: Path) -> None:
    """Every complete C program of the README builds with -Wall -Wextra -Werror and
    runs to exit status 0."""
    programs = [
        b for b in _blocks(README.read_text(encoding="utf-8"), "c") if "int main(" in b
    ]
    assert programs
    for i, program in enumerate(programs):
        assert build_and_run(program, tmp_path, f"example{i}").strip()
