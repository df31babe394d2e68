"""mkdocs hook: renders the public C headers into docs/c-api.md.

The page holds a marker, ``<!-- c-api -->``; at build time it is replaced by, for each
public header of ``csrc/include/`` (``ofc_fast.h`` first), its overview comment (its ``@code``
examples as C blocks) and every declaration that has a ``/*! ... */`` doc comment: the
declaration as C, the comment as prose (``@param``, ``@pre``, ``@return`` as a list).
So the page always says what the headers say.

    python tools/mkdocs_c_api.py > /tmp/c-api.md     # the rendered text, without mkdocs
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

MARKER = "<!-- c-api -->"
ROOT = Path(__file__).resolve().parent.parent


class Declaration(NamedTuple):
    name: str
    comment: str
    code: str


def public_headers(root: Path = ROOT) -> list[Path]:
    """Public headers of csrc/include/, the main header first."""
    headers = sorted((root / "csrc" / "include").glob("ofc_*.h"))
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
    body = False  # a function definition (static inline): it ends with its "}"
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            if depth == 0:
                head = text[start:i]
                body = ")" in head and not re.match(r"\s*(typedef|struct|enum|union)", head)
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and body:
                return i + 1
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


def comment_lines(comment: str) -> list[str]:
    """The text of a ``/*! ... */`` or ``/* ... */`` comment, without its markers and
    the leading ``*`` of each line."""
    body = re.sub(r"^/\*!?", "", comment.strip())
    body = re.sub(r"\*/$", "", body)
    return [re.sub(r"^\s*\* ?", "", ln).rstrip() for ln in body.splitlines()]


def _code_blocks(lines: list[str]) -> list[str]:
    """Markdown lines: ``@code`` ... ``@endcode`` become fenced C blocks (with the
    indentation common to their lines removed)."""
    out: list[str] = []
    code: list[str] | None = None
    for line in lines:
        if line.strip() == "@code":
            code = []
        elif line.strip() == "@endcode" and code is not None:
            width = min((len(c) - len(c.lstrip()) for c in code if c.strip()), default=0)
            out += ["", "```c", *(c[width:] for c in code), "```", ""]
            code = None
        elif code is not None:
            code.append(line)
        else:
            out.append(line)
    return out


_TAG_LINE = re.compile(r"@(brief|param|pre|return)\b\s*(.*)")


def doc_markdown(comment: str) -> str:
    """A doc comment as Markdown prose: the description (``@brief`` and free text),
    a list of the parameters, preconditions and return value, and ``@code`` examples
    as C blocks, so that nothing shows as raw Doxygen and prose wraps."""
    prose: list[str] = []
    items: list[list[str]] = []  # [label, text...]
    current: list[str] | None = None
    lines = [
        part
        for line in _code_blocks(comment_lines(comment))
        for part in re.split(r"\s+(?=@(?:brief|param|pre|return)\b)", line)
    ]
    brief = False  # in the @brief's paragraph: hanging-indented lines are its text
    for line in lines:
        m = _TAG_LINE.match(line.strip())
        if m:
            brief = False
        if m and m.group(1) == "brief":
            current = None
            brief = True
            prose.append(m.group(2))
        elif brief and line.strip() and not line.startswith("```"):
            prose.append(line.strip())
        elif m and m.group(1) == "param":
            names = re.match(r"((?:\w+,\s*)*\w+)\s*(.*)", m.group(2))
            name, text = names.groups() if names else (m.group(2), "")
            current = [f"`{name}`", text.strip()]
            items.append(current)
        elif m:
            current = ["Precondition" if m.group(1) == "pre" else "Returns", m.group(2)]
            items.append(current)
        elif current is not None and line.strip() and not line.startswith("```"):
            current.append(line.strip())
        else:
            current = None
            brief = False
            prose.append(line)
    text = _paragraphs("\n".join(prose))
    listed = "\n".join(
        f"- **{i[0]}**: {escape_prose(' '.join(x for x in i[1:] if x))}" for i in items
    )
    return "\n\n".join(part for part in (text, listed) if part)


def escape_prose(text: str) -> str:
    """Comment text as literal Markdown: brackets (``out[0..n-1]`` is no link),
    asterisks (``*bad`` is no emphasis), underscores and ``<`` escaped; code spans
    kept."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(
        p if p.startswith("`") else re.sub(r"([\\*_\[\]<#])", r"\\\1", p) for p in parts
    )


def _paragraphs(text: str) -> str:
    """Prose paragraphs escaped (they wrap on the page); a paragraph with indented
    lines (a formula, a table) or a fenced C example is kept verbatim."""
    out = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        if block.lstrip().startswith("```"):
            out.append(block.strip("\n"))
        elif any(ln.startswith("  ") for ln in block.splitlines()):
            out.append(f"```text\n{block}\n```")
        elif block.strip():
            out.append(escape_prose(block))
    return "\n\n".join(out)


def render(root: Path = ROOT) -> str:
    """Markdown for every public header: its overview, then each documented
    declaration as C with its doc comment as prose."""
    parts = []
    for header in public_headers(root):
        text = header.read_text(encoding="utf-8")
        parts.append(f"## {header.name}\n")
        intro = overview(text)
        if intro:
            chunks = "\n".join(_code_blocks(intro.splitlines())).split("```")
            for i, chunk in enumerate(chunks):
                if i % 2:  # a C example
                    parts.append(f"```{chunk}```\n")
                elif chunk.strip():
                    parts.append(f"```text\n{chunk.strip(chr(10))}\n```\n")
        for d in declarations(text):
            parts.append(
                f"### `{d.name}`\n\n```c\n{d.code}\n```\n\n{doc_markdown(d.comment)}\n"
            )
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
    argparse.ArgumentParser(  # no options: a stray one (--check) is refused, exit 2
        description="Print the C API page the mkdocs hook renders (markdown)."
    ).parse_args()
    from ofc_fast.cli import run_command  # (a reader gone: no BrokenPipeError)

    sys.exit(run_command(lambda: print(render(), end=""), "mkdocs_c_api.py"))
