"""Everything that speaks of the code points inside the repository: no tracked file
(CHANGELOG.md aside, which records history) cites the rules or design page under an
old outside name, an issue of a tracker by number, or a path of the machine the project
was written on.  The rules are ``docs/rules.md`` and the design is ``docs/design.md``.
And no regular expression of the package uses syntax newer than the oldest Python it
supports (3.10, ``requires-python``): possessive quantifiers (``*+``) and atomic groups
(``(?>...)``), Python 3.11's, fail there only when the module is imported.

Needs a git checkout (the list of tracked files); skipped in an unpacked sdist.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Written in pieces, so that this file does not match itself.
FORBIDDEN = {
    "the old name of docs/rules.md": re.compile(re.escape("RULES" + ".md")),
    "the old name of docs/design.md": re.compile(re.escape("DESIGN" + ".md")),
    "a tracker's issue by number": re.compile(r"\bissues?\s+#?[0-9]+", re.IGNORECASE),
    "a path outside the repository": re.compile(re.escape("/" + "work/")),
}
EXEMPT = {"CHANGELOG.md"}


def tracked_files() -> list[Path]:
    """The repository's tracked files, or a skip when this is not a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip(
            "not a git checkout (the tracked files are unknown): git clone the repository"
        )
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"],
        check=True,
        capture_output=True,
    ).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def offending_lines(text: str) -> list[str]:
    """``"line N: what"`` for each line of ``text`` with a forbidden mention."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in FORBIDDEN.items():
            if pattern.search(line):
                found.append(f"line {number}: {what}")
    return found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see RULES" + ".md R-FL-1", ["the old name of docs/rules.md"]),
        ("as DESIGN" + ".md pins", ["the old name of docs/design.md"]),
        ("(Issue" + " 21, item 3)", ["a tracker's issue by number"]),
        ("issues" + " #4 and 5", ["a tracker's issue by number"]),
        ("written from /" + "work/notes/spec.md", ["a path outside the repository"]),
        ("docs/rules.md section 9; no issue here; tissue 3", []),
    ],
)
def test_the_patterns_catch_what_they_name(text: str, expected: list[str]) -> None:
    assert [line.split(": ", 1)[1] for line in offending_lines(text)] == expected


def test_no_tracked_file_points_outside_the_repository() -> None:
    bad = []
    for path in tracked_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in EXEMPT or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:  # binary: a model, an image
            continue
        bad += [f"{rel}: {hit}" for hit in offending_lines(data.decode("utf-8", "replace"))]
    assert not bad, "\n".join(bad)


# The package's regular expressions: the Python 3.11 syntax that 3.10 refuses.
QUANTIFIER_END = re.compile(r"[*+?]|\{[0-9]*,?[0-9]*\}")
RE_CALLS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn"}


def newer_regex_syntax(pattern: str) -> list[str]:
    """What of Python 3.11's regular expression syntax ``pattern`` uses: ``"possessive
    at N"`` for a quantifier followed by ``+``, ``"atomic group at N"`` for ``(?>``
    (escapes and character classes skipped)."""
    found = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":  # a class: up to its first unescaped ] (one first is literal)
            i += 2 if pattern[i + 1 : i + 2] == "^" else 1
            i += 1 if pattern[i : i + 1] == "]" else 0
            while i < len(pattern) and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
            i += 1
            continue
        if pattern.startswith("(?>", i):
            found.append(f"atomic group at {i}")
        quantifier = QUANTIFIER_END.match(pattern, i)
        if quantifier and i > 0 and pattern[i - 1 : i] != "(":
            end = quantifier.end()
            if pattern[end : end + 1] == "+":
                found.append(f"possessive at {end}")
            i = end + 1 if pattern[end : end + 1] in ("+", "?") else end
            continue
        i += 1
    return found


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r'"(?:[^"\\]++|\\.)*+"?', ["possessive at 11", "possessive at 18"]),
        (
            r"[ \t]*+:|a?+|b{2,3}+",
            ["possessive at 6", "possessive at 11", "possessive at 19"],
        ),
        (r"(?>ab|a)c", ["atomic group at 0"]),
        (r'"[^"\\]*(?:\\.[^"\\]*)*"?([ \t\n\r]*:)?', []),
        (r"\++|[*+]+|[]+]+|a+?|\{+|(?:x)+", []),
    ],
)
def test_newer_regex_syntax_finds_what_it_names(pattern: str, expected: list[str]) -> None:
    assert newer_regex_syntax(pattern) == expected


def test_no_regular_expression_needs_python_3_11() -> None:
    bad = []
    for path in sorted((ROOT / "ofc_fast").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in RE_CALLS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                continue
            rel = path.relative_to(ROOT).as_posix()
            for hit in newer_regex_syntax(node.args[0].value):
                bad.append(f"{rel}:{node.lineno}: {hit}")
    assert not bad, "\n".join(bad)
