"""The README's preset table is the one tools/presets_table.py renders."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SCRIPT = ROOT / "tools" / "presets_table.py"


@pytest.mark.skipif(not (README.exists() and SCRIPT.exists()),
                    reason="source tree (README.md, tools/) not available")
def test_readme_preset_table_is_current() -> None:
    spec = importlib.util.spec_from_file_location("presets_table", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = README.read_text(encoding="utf-8")
    start = text.index("<!-- presets-table")
    block = text[text.index("\n", start) + 1:text.index("<!-- end presets-table -->")]
    assert block.strip() == module.table().strip(), \
        "README preset table is stale: run python tools/presets_table.py"


def _python_blocks(text: str) -> list[str]:
    blocks, inside, current = [], False, []
    for line in text.splitlines():
        if line.strip() == "```python":
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks


@pytest.mark.skipif(not README.exists(), reason="source tree (README.md) not available")
def test_readme_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```python block of the README runs as written (in a scratch directory)."""
    monkeypatch.chdir(tmp_path)
    blocks = _python_blocks(README.read_text(encoding="utf-8"))
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102
