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
