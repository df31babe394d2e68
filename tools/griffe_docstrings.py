"""Griffe extension for the API pages (mkdocs.yml loads it).

The package's docstrings are reST-flavoured prose with doctest examples (every example
runs in tests/test_doctests.py).  Markdown would read an example's ``>>>`` lines and
outputs such as ``['heuristic', 'random']`` as prose and links; this extension shows
each run of doctest lines as a ``pycon`` code block, and Sphinx roles such as
``:class:`Board``` as inline code.  The docstrings themselves stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`~?([^`]+)`")


def doctest_blocks(text: str) -> str:
    """Wrap every run of doctest lines (a ``>>>`` line, its ``...`` continuations and
    its output, up to a blank line) in a fenced ``pycon`` block."""
    out: list[str] = []
    block: list[str] = []
    indent = ""
    for line in text.splitlines():
        stripped = line.strip()
        if block and not stripped:
            out += [f"{indent}```pycon", *block, f"{indent}```", line]
            block = []
        elif block:
            block.append(line)
        elif stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = [line]
        else:
            out.append(line)
    if block:
        out += [f"{indent}```pycon", *block, f"{indent}```"]
    return "\n".join(out)


def markdown_docstring(text: str) -> str:
    """The docstring as the API pages show it."""
    return doctest_blocks(_ROLE.sub(r"`\1`", text))


def computed_value(value: object) -> bool:
    """True for an attribute value that is code rather than a constant (a
    comprehension, a call, anything over several lines): the page shows the name and
    its docstring, not the expression that computes it."""
    text = str(value)
    return "\n" in text or " for " in text or len(text) > 80


class DocstringsForMarkdown(griffe.Extension):
    """Rewrites each docstring for Markdown once the object tree is built (the
    top-level package too: griffe announces it with ``on_package``, not
    ``on_object``), and hides the values of attributes computed by code."""

    def on_object(self, *, obj: Any, loader: Any, **kwargs: Any) -> None:
        self._rewrite(obj)

    def on_package(self, *, pkg: Any, loader: Any, **kwargs: Any) -> None:
        self._rewrite(pkg)

    @staticmethod
    def _rewrite(obj: Any) -> None:
        doc = obj.docstring
        if doc is not None and "```pycon" not in doc.value:  # once per object
            doc.value = markdown_docstring(doc.value)
        attribute = getattr(obj, "is_attribute", False) and obj.value is not None
        if attribute and computed_value(obj.value):
            obj.value = None
