"""Everything that speaks of the code points inside the repository: no tracked file
(CHANGELOG.md aside, which records history) cites the rules or design page under an
old outside name, an issue of a tracker by number, or a path of the machine the project
was written on.  The rules are ``docs/rules.md`` and the design is ``docs/design.md``.

Needs a git checkout (the list of tracked files); skipped in an unpacked sdist.
"""

from __future__ import annotations

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
