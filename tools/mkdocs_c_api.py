"""mkdocs hook: renders the public C headers into docs/c-api.md.

The page holds a marker, ``<!-- c-api -->``; at build time it is replaced by, for each
public header of ``csrc/`` (``ofc_fast.h`` first; private ``ofc_internal*.h`` and the
generated ``ofc_tables.h`` are left out), its overview comment and every declaration
that has a ``/*! ... */`` doc comment, shown verbatim.  So the page always says what the
headers say.

    python tools/mkdocs_c_api.py > /tmp/c-api.md     # the rendered text, without mkdocs
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

MARKER = "<!-- c-api -->"
ROOT = Path(__file__).resolve().parent.parent
PRIVATE = re.compile(r"ofc_(internal\w*|tables)\.h$")


class Declaration(NamedTuple):
    name: str
    comment: str
    code: str


def public_headers(root: Path = ROOT) -> list[Path]:
    """Public headers of csrc/, the main header first."""
    headers = [
        p for p in sorted((root / "csrc").glob("ofc_*.h")) if not PRIVATE.search(p.name)
    ]
    return sorted(headers, key=lambda p: p.name != "ofc_fast.h")


def _declaration_end(text: str, start: int) -> int:
    """End of the declaration starting at ``start``: a ``#define`` line (with its
    continuations), or up to the ``;`` outside braces."""
    if text.startswith("#", start):
        end = start
        while True:
            nl = text.find("\n", end)
            if nl < 0:
                return len(text)
            if text[nl - 1] != "\\":
                return nl
            end = nl + 1
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            return i + 1
    return len(text)


def _name(code: str) -> str:
    """The declared name: a macro, a function, or a typedef's last identifier."""
    define = re.match(r"#\s*define\s+(\w+)", code)
    if define:
        return define.group(1)
    if code.startswith("typedef"):
        idents = re.findall(r"\w+", code.rsplit("}", 1)[-1])
        return idents[-1] if idents else code.split()[1]
    call = re.search(r"(\w+)\s*\(", code)
    if call:
        return call.group(1)
    idents = re.findall(r"\w+", code)
    return idents[-1] if idents else "?"


def declarations(text: str) -> list[Declaration]:
    """Every ``/*! ... */`` comment of a header with the declaration after it."""
    out = []
    for m in re.finditer(r"/\*!(.*?)\*/", text, re.DOTALL):
        start = m.end()
        while start < len(text) and text[start].isspace():
            start += 1
        code = text[start : _declaration_end(text, start)].strip()
        comment = "/*!" + m.group(1) + "*/"
        out.append(Declaration(_name(code), comment, code))
    return out


def overview(text: str) -> str:
    """The header's leading comment, without its comment markers."""
    m = re.match(r"\s*/\*(?!!)(.*?)\*/", text, re.DOTALL)
    if not m:
        return ""
    lines = [re.sub(r"^ ?\* ?", "", ln) for ln in m.group(1).splitlines()]
    return "\n".join(lines).strip("\n")


def render(root: Path = ROOT) -> str:
    """Markdown for every public header."""
    parts = []
    for header in public_headers(root):
        text = header.read_text(encoding="utf-8")
        parts.append(f"## {header.name}\n")
        intro = overview(text)
        if intro:
            parts.append(f"```text\n{intro}\n```\n")
        for d in declarations(text):
            parts.append(f"### `{d.name}`\n\n```c\n{d.comment}\n{d.code}\n```\n")
    return "\n".join(parts)


# A bracketed source or tag ("[000][001]", "[AMBIG]") is plain text, not a link.
_TAG = re.compile(r"(?<![\\`])\[(\d{3}|[A-Z]{4,})\](?![(:])")


def escape_tags(markdown: str) -> str:
    """Escape the brackets of source citations and tags outside code spans."""
    parts = re.split(r"(`[^`]*`)", markdown)
    return "".join(p if p.startswith("`") else _TAG.sub(r"\\[\1\\]", p) for p in parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Escape citation brackets and fill the marker (the mkdocs hook)."""
    markdown = escape_tags(markdown)
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, render())


if __name__ == "__main__":
    sys.stdout.write(render())
