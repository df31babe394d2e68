"""The docs site renders what a reader needs: the package's example
as code (not a nested block quote), no computed attribute value shown as code, a C API
page without raw Doxygen, the pages for the command line, the arena and its report,
and parallel runs in the navigation, and links that lead somewhere."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"

pytestmark = pytest.mark.skipif(
    not (TOOLS / "mkdocs_c_api.py").exists() or not (ROOT / "mkdocs.yml").exists(),
    reason="needs a source checkout (git clone: tools/, docs/, mkdocs.yml)",
)


def _tool(name: str):
    return load_script(TOOLS / f"{name}.py")


def _loaded():
    griffe = pytest.importorskip("griffe", reason='pip install ".[test]" (griffelib)')
    ext = _tool("griffe_docstrings")
    return griffe.load(
        "ofc_fast",
        extensions=griffe.load_extensions(ext.DocstringsForMarkdown()),
        search_paths=[str(ROOT)],
    )


def test_the_package_example_is_a_code_block() -> None:
    pkg = _loaded()
    doc = pkg.docstring.value
    assert "```pycon\n>>> import ofc_fast as ofc" in doc
    assert doc.count("```pycon") == 1  # rewritten once, not twice


def test_a_computed_attribute_shows_no_code() -> None:
    pkg = _loaded()
    natural_ids = pkg["game.state.NATURAL_IDS"]
    assert natural_ids.value is None  # the dict comprehension is not shown
    assert pkg["parallel._plan.DEFAULT_CHUNK"].value is not None  # a constant still is


def _outside_code(markdown: str) -> str:
    return re.sub(r"```.*?```", "", markdown, flags=re.S)


def test_the_c_api_page_has_no_raw_doxygen() -> None:
    c_api = _tool("mkdocs_c_api")
    page = c_api.render()
    prose = _outside_code(page)
    for tag in ("@code", "@endcode", "@brief", "@param", "@return"):
        assert tag not in prose, tag
    assert "/*!" not in page  # comments are prose, not shown verbatim
    block = page.split("### `ofc_rank3_inline`", 1)[1].split("### ", 1)[0]
    code = block.split("```c\n", 1)[1].split("```", 1)[0]
    assert code.rstrip().endswith("}")  # an inline function ends at its brace
    # each parameter its own item (clang -Wdocumentation reads "@param a, b" as "a,")
    assert "- **`a`**: the first card;\n- **`b`**: the second card;\n" in block
    cps = page.split("### `ofc_cards_per_seat`", 1)[1].split("### ", 1)[0]
    assert "```c\nassert(ofc_cards_per_seat(OFC_KIND_PINEAPPLE, 0) == 17);" in cps


def test_the_c_api_prose_is_literal_markdown() -> None:
    c_api = _tool("mkdocs_c_api")
    assert c_api.escape_prose("out[0..*bad-1] and `a[1]` <x>") == (
        r"out\[0..\*bad-1\] and `a[1]` \<x>"
    )
    md = c_api.doc_markdown("/*! @brief f.\n * @param n samples;  @param k fills.\n */")
    assert md == "f.\n\n- **`n`**: samples;\n- **`k`**: fills."


def test_the_new_pages_are_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in ("cli.md", "arena.md", "parallel.md"):
        assert f": {page}" in nav, page
        assert (ROOT / "docs" / page).exists(), page
    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert '"front / middle / back"' in cli and "What advise's ev means" in cli


def _slug(heading: str) -> str:
    """The anchor MkDocs (Python-Markdown's ``toc``) gives a heading: its text without
    code marks and link targets, lower case, punctuation dropped, spaces as ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.replace("`", ""))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def _prose(text: str) -> str:
    """A Markdown text without its fenced code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _headings(page: Path) -> list[str]:
    """The anchors of a Markdown page's headings (none for another file)."""
    if page.suffix != ".md" or not page.is_file():
        return []
    text = _prose(page.read_text(encoding="utf-8"))
    return [_slug(h) for h in re.findall(r"^#{1,6} +(.+?) *$", text, re.M)]


def test_every_link_names_a_file_and_a_heading_that_are_there() -> None:
    """Regression: a link to a heading no page has (``rules.md#no-such-heading``)
    passed ``mkdocs build --strict``, the check CI runs and CONTRIBUTING.md calls "any
    warning fails": MkDocs reports a missing anchor only as information unless
    mkdocs.yml's ``validation: anchors`` says ``warn``; and the links of README.md
    and CONTRIBUTING.md, which no build reads, were checked by nothing. The site's
    build warns on a missing anchor, and every relative link of those pages and of
    docs/ names a file that is there and, for a page, one of its headings."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^validation:\n(?:  .*\n)*  anchors: warn$", config, re.M)
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    pages += sorted((ROOT / "docs").rglob("*.md"))
    broken, checked = [], 0
    for page in pages:
        text = re.sub(r"`[^`\n]*`", "", _prose(page.read_text(encoding="utf-8")))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            linked = (page.parent / path) if path else page
            if not linked.exists() or (anchor and anchor not in _headings(linked)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            checked += 1
    assert broken == [] and checked > 30, (broken, checked)
