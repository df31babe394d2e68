"""A small reader of C headers: the top-level functions a header declares, each with
the ``/*! ... */`` doc comment right before it (tests/test_c_headers.py checks what
those comments hold, tests/test_layout.py that every public function has one)."""

from __future__ import annotations

import re
from typing import NamedTuple


class Function(NamedTuple):
    header: str
    name: str
    returns: str
    params: list[str]  # parameter names ([] for (void))
    comment: str  # the /*! ... */ right before it, or ""


def _blank(pattern: str, text: str) -> str:
    return re.sub(
        pattern,
        lambda m: re.sub(r"[^\n]", " ", m.group(0)),
        text,
        flags=re.DOTALL | re.MULTILINE,
    )


def blank_comments(text: str) -> str:
    """``text`` with every comment, the C++ guards (``extern "C" {`` ... ``}``) and
    every preprocessor line replaced by spaces (offsets kept)."""
    text = _blank(r"/\*.*?\*/|//[^\n]*", text)
    text = _blank(r"^#ifdef __cplusplus$.*?^#endif[^\n]*$", text)
    return _blank(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*$", text)


_PROTOTYPE = re.compile(
    r"^(?:OFC_API\s+)?(?P<ret>(?:static\s+)?(?:inline\s+)?(?:const\s+)?[A-Za-z_]\w*(?:\s+\w+)*[\s\*]+?)"
    r"(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^;{}()]*)\)\s*[;{]",
    re.MULTILINE,
)


def _param_name(param: str) -> str:
    param = re.sub(r"\[[^\]]*\]", "", param).strip()
    return re.findall(r"[A-Za-z_]\w*", param)[-1]


def functions(text: str, header: str = "") -> list[Function]:
    """Every top-level function declared (or defined) in a header's text, with the
    doc comment right before it."""
    code = blank_comments(text)
    depth, top = 0, []
    for ch in code:  # mark the characters outside any braces
        top.append(depth == 0)
        depth += (ch == "{") - (ch == "}")
    out = []
    for m in _PROTOTYPE.finditer(code):
        ret = m.group("ret").strip()
        if not top[m.start()] or ret.startswith(("typedef", "return")):
            continue
        params = [p.strip() for p in m.group("params").split(",")]
        names = [] if params in ([""], ["void"]) else [_param_name(p) for p in params]
        before = text[: m.start()].rstrip()
        comment = ""
        if before.endswith("*/"):
            start = before.rfind("/*")
            if before.startswith("/*!", start):
                comment = before[start:]
        out.append(Function(header, m.group("name"), ret, names, comment))
    return out
