"""The HTML report on a long history: peak memory, page size, deals-file size and CPU
time of ``ofc-fast report``.

    python benchmarks/bench_report.py [--deals N] [--source-hands M] [--dir DIR]

A real match (``heuristic`` against ``random``, Pineapple, seed 1, ``M`` hands) is
played through the arena; its history lines are repeated, renumbered, to ``N`` deals
(every line replays as recorded), and the report's hand count and points per bot
set to theirs; then ``ofc-fast report`` runs in a fresh process on
them.  Reported: that process's peak resident memory (``ru_maxrss``; Linux counts the
parent's memory at the fork too, and this script stays smaller than the report) and
CPU time, and the sizes of the page and of the deals file.  The files go in ``DIR``
and stay there (a new folder is made in a folder that is there); without ``--dir``,
in a temporary folder removed at the end (100,000 deals: 253 MB of history).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ofc_fast.timing import ScriptHelp, ScriptParser, at_least


def make_history(folder: Path, deals: int, source_hands: int) -> tuple[Path, Path]:
    rep, small, hist = folder / "r.json", folder / "small.jsonl", folder / "h.jsonl"
    subprocess.run(
        [sys.executable, "-m", "ofc_fast", "arena", "--rules", "ofc-pineapple",
         "--bot", "heuristic", "--bot", "random", "--hands", str(source_hands),
         "--seed", "1", "--json", str(rep), "--history", str(small), "--quiet"],
        check=True,
    )  # fmt: skip
    lines = [json.loads(x) for x in small.read_text().splitlines()]
    points: dict[str, int] = {}
    with open(hist, "w", encoding="utf-8") as f:
        for i in range(deals):
            rec = {**lines[i % len(lines)], "hand_no": i, "deck_no": i}
            for name, p in zip(rec["seats"], rec["points"]):
                points[name] = points.get(name, 0) + p
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    # the report of those deals (``ofc-fast report`` checks its hands and points)
    report = json.loads(rep.read_text())
    report["hands"] = deals
    for bot in report["bots"]:
        bot["hands"], bot["points"] = deals, points[bot["name"]]
    rep.write_text(json.dumps(report), encoding="utf-8")
    return rep, hist


def main() -> None:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.splitlines()[0])
    ap.add_argument(
        "--deals", type=at_least(1), default=100_000, help="deals in the history reported"
    )
    ap.add_argument(
        "--source-hands",
        type=at_least(1),
        default=300,
        help="hands of the real match whose lines are repeated",
    )
    ap.add_argument(
        "--dir",
        default=None,
        help="where the files go, kept (default: a temporary folder, removed at the end)",
    )
    args = ap.parse_args()
    if args.dir is None:  # (the history of 100,000 deals alone is 253 MB)
        with tempfile.TemporaryDirectory(prefix="bench_report.") as folder:
            measure(Path(folder), args.deals, args.source_hands, kept=False)
        return
    # (absolute: a relative "-1" would reach the child commands as an option)
    folder = Path(args.dir).absolute()
    if folder.exists() and not folder.is_dir():
        ap.error(f"--dir: {args.dir!r} is a file, not a folder")
    if not folder.parent.is_dir():
        ap.error(f"--dir: no folder {str(Path(args.dir).parent)!r} to make it in")
    folder.mkdir(exist_ok=True)
    measure(folder, args.deals, args.source_hands, kept=True)


def measure(folder: Path, deals: int, source_hands: int, kept: bool) -> None:
    """Make the history in ``folder``, run ``ofc-fast report`` on it and print the
    figures (``kept``: the files stay, and the report says where its page went)."""
    rep, hist = make_history(folder, deals, source_hands)
    page = folder / "report.html"
    child = subprocess.Popen(
        [sys.executable, "-m", "ofc_fast", "report", str(rep), str(hist), "-o", str(page)],
        stdout=None if kept else subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        sys.exit(f"ofc-fast report failed ({child.returncode})")
    side = page.with_name("report.deals.jsonl")
    print(
        f"{deals:,} deals, history {hist.stat().st_size / 1e6:.0f} MB: "
        f"peak RSS {usage.ru_maxrss / 1024:.0f} MB, "
        f"CPU {usage.ru_utime + usage.ru_stime:.0f} s, "
        f"page {page.stat().st_size / 1e3:.0f} KB, "
        f"deals file {side.stat().st_size / 1e6 if side.exists() else 0:.1f} MB"
    )


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "bench_report.py"))
