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


class DocstringsForMarkdown(griffe.Extension):
    """Rewrites each docstring for Markdown once the object tree is built."""

    def on_object(self, *, obj: Any, loader: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
