"""The docs site renders what a reader needs: the package's example
as code (not a nested block quote), no computed attribute value shown as code, a C API
page without raw Doxygen, the pages for the command line, the arena and its report,
and parallel runs in the navigation, and links that lead somewhere."""

from __future__ import annotations

import importlib
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

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


# A full or collapsed reference-style link, ``[text][ref]`` / ``[text][]``, not escaped
# (the hook writes a citation, ``[000][001]``, as ``\[000\]\[001\]``).
_REFERENCE = re.compile(r"(?<![\\\]])\[([^\[\]\n]+)\]\[([^\[\]\n]*)\]")


class _Anchors(HTMLParser):
    """The ids a rendered page offers as anchors (as MkDocs collects them: every
    element's ``id``, an ``<a>``'s ``name``), the targets of its links and images, and
    the reference-style links whose reference the page does not define."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.targets: list[str] = []
        self.undefined: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.ids.update(v for k, v in found.items() if v and k == "id")
        if tag == "a" and found.get("name"):
            self.ids.add(str(found["name"]))
        target = found.get("href" if tag == "a" else "src" if tag == "img" else "")
        if target is not None and found.get("class") != "headerlink":  # toc's own
            self.targets.append(target)


def _docs_module(name: str) -> Any:
    """The docs extra's module ``name``; without it the test is skipped, except under
    ``OFC_REQUIRE_DOCS=1`` (CI's docs step, which installed the extra): there a
    missing module fails, so that a broken install cannot pass the link check as
    skips."""
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("OFC_REQUIRE_DOCS") == "1":
            pytest.fail(f"OFC_REQUIRE_DOCS=1 but {name} is missing: pip install '.[docs]'")
        pytest.skip('pip install ".[docs]"')


class _Site:
    """Pages rendered as ``mkdocs build`` renders them: mkdocs.yml's Markdown
    extensions and their settings (``toc``'s slugs, duplicate headings' ``_1``,
    ``attr_list``'s ``{#id}``, reference-style links) and its hooks' page text."""

    def __init__(self, docs_dir: Path = ROOT / "docs") -> None:
        markdown = _docs_module("markdown")
        config = _docs_module("mkdocs.config")
        loaded = config.load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(docs_dir))
        self._md = markdown.Markdown(
            extensions=loaded["markdown_extensions"],
            extension_configs=loaded["mdx_configs"],
        )
        self._hooks = [
            h.on_page_markdown
            for h in loaded["hooks"].values()
            if hasattr(h, "on_page_markdown")
        ]
        self._docs = Path(loaded["docs_dir"]).resolve()
        self._pages: dict[Path, _Anchors] = {}

    def page(self, path: Path) -> _Anchors:
        """A page's anchors and links (none for a file that is not a page)."""
        path = path.resolve()
        if path not in self._pages:
            parsed = _Anchors()
            if path.suffix == ".md" and path.is_file():
                text = path.read_text(encoding="utf-8")
                if path.is_relative_to(self._docs):  # the hooks see docs/ pages only
                    for hook in self._hooks:
                        text = hook(text, page=None, config=None, files=None)
                parsed.feed(self._md.reset().convert(text))
                code = r"^```.*?^```|`[^`\n]*`"
                for m in _REFERENCE.finditer(re.sub(code, "", text, flags=re.S | re.M)):
                    ref = " ".join((m[2] or m[1]).split()).lower()
                    if ref not in self._md.references:  # shown as text, no link
                        parsed.undefined.append(m[0])
            self._pages[path] = parsed
        return self._pages[path]

    def broken_links(self, pages: list[Path], root: Path) -> tuple[list[str], int]:
        """The relative links of ``pages`` to a file that is not there or to an
        anchor its page does not have, and how many links were checked."""
        broken, checked = [], 0
        for page in pages:
            name = page.relative_to(root)
            broken += [
                f"{name}: {ref} (no such reference)" for ref in self.page(page).undefined
            ]
            for target in self.page(page).targets:
                parts = urlsplit(target)
                if parts.scheme or parts.netloc:
                    continue  # https:, mailto:
                linked = (page.parent / unquote(parts.path)) if parts.path else page
                anchor = unquote(parts.fragment)
                if not linked.exists() or (anchor and anchor not in self.page(linked).ids):
                    broken.append(f"{name}: {target}")
                checked += 1
        return broken, checked


def test_every_link_names_a_file_and_a_heading_that_are_there() -> None:
    """Regression: a link to a heading no page has (``rules.md#no-such-heading``)
    passed ``mkdocs build --strict``, the check CI runs and CONTRIBUTING.md calls "any
    warning fails": MkDocs reports a missing anchor only as information unless
    mkdocs.yml's ``validation: anchors`` says ``warn``; and the links of README.md
    and CONTRIBUTING.md, which no build reads, were checked by nothing. The site's
    build warns on a missing anchor, and every relative link of those pages and of
    docs/ names a file that is there and, for a page, one of its anchors."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^validation:\n(?:  .*\n)*  anchors: warn$", config, re.M)
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    pages += sorted((ROOT / "docs").rglob("*.md"))
    broken, checked = _Site().broken_links(pages, ROOT)
    assert broken == [] and checked > 30, (broken, checked)


def test_the_link_check_reads_anchors_as_mkdocs_renders_them(tmp_path: Path) -> None:
    """Regression: the link check computed a heading's anchor itself and read only
    inline links, so a broken link passed it when it pointed at an explicit anchor's
    heading text (``## Setup {#install}`` is ``#install``, not ``#setup-install``),
    at a repeated heading by GitHub's suffix (``#usage-1``; MkDocs writes
    ``#usage_1``) or was reference-style (``[text][ref]`` with ``[ref]: url``, or
    no ``[ref]:`` at all: the page shows the brackets as text); and it refused the
    right links to the last two. It now renders each page with mkdocs.yml's Markdown
    extensions and checks the anchors and links it renders."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "b.md").write_text(
        "# B\n\n## Setup {#install}\n\n## Usage\n\n## Usage\n\n"
        '<a name="old"></a>\n\nText.\n',
        encoding="utf-8",
    )
    good = ["b.md#install", "b.md#usage", "b.md#usage_1", "b.md#old", "#top", "b.md"]
    bad = ["b.md#setup-install", "b.md#usage-1", "b.md#usage_2", "c.md", "#nowhere"]
    links = [f"[{i}]({t})" for i, t in enumerate(good[:3])]
    links += [f"[r{i}][ref{i}]" for i in range(len(good) - 3 + len(bad))]
    defs = [f"[ref{i}]: {t}" for i, t in enumerate(good[3:] + bad)]
    # a collapsed reference (any case), one with no definition, code and an escape
    links += ["[Setup][]", "[r][missing]", "`[c][code]`", r"\[001\]\[002\]"]
    defs += ["[setup]: b.md#install"]
    (docs / "a.md").write_text(
        "# A {#top}\n\n" + "\n".join(links) + "\n\n" + "\n".join(defs) + "\n",
        encoding="utf-8",
    )
    site = _Site(docs)
    broken, checked = site.broken_links([docs / "a.md"], tmp_path)
    expected = ["docs/a.md: [r][missing] (no such reference)"]
    expected += [f"docs/a.md: {t}" for t in bad]
    assert broken == expected and checked == len(good + bad) + 1


def test_every_file_under_docs_is_one_the_site_reaches() -> None:
    """Regression: docs/img/learned-pineapple-2p.png, the held-out figure of a value
    model shipped once and long replaced, was copied into every build of the site and
    shown by no page: each page under docs/ is in mkdocs.yml's nav, and each other file
    is one a page links or shows."""
    site = _Site()
    nav = re.findall(r":\s+([\w./-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    docs = (ROOT / "docs").resolve()
    pages = sorted(docs.rglob("*.md"))
    reached = {docs / p for p in nav}
    for page in [ROOT / "README.md", *pages]:
        for target in site.page(page).targets:
            parts = urlsplit(target)
            if not (parts.scheme or parts.netloc) and parts.path:
                reached.add((page.parent / unquote(parts.path)).resolve())
    files = [p for p in sorted(docs.rglob("*")) if p.is_file()]
    assert len(files) > len(nav) and len(reached) > len(nav)
    assert [str(p.relative_to(docs)) for p in files if p not in reached] == []
