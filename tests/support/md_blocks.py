"""Code blocks of the project's Markdown pages (README.md, docs/*.md), for the tests
that run them."""

from __future__ import annotations


def fenced_blocks(text: str, lang: str) -> list[str]:
    r"""The fenced ```lang blocks of a Markdown text, in order.

    >>> fenced_blocks("a\n```py\nx = 1\n```\n```c\nint y;\n```", "py")
    ['x = 1']
    """
    blocks: list[str] = []
    inside, current = False, []
    for line in text.splitlines():
        if line.strip() == "```" + lang:
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks
