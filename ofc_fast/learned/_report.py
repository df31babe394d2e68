"""The training command's report: ``report.md`` and ``report.png``.  Private to
:mod:`ofc_fast.learned.train`."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..files import atomic_write
from ._fit import import_extra
from ._run import damaged_run_file, read_json

__all__ = ["markdown", "plot", "read_report", "report_files"]


def markdown(report: dict[str, Any]) -> str:
    """``report.md``: per street the held-out regret and top-1 agreement, and the
    cost of each step."""
    lines = [
        f"# Value model {report['model']} ({report['rules']}, {report['players']} players)",
        "",
        "| cards after the move | held-out decisions | regret (points) | top-1 agreement |",
        "|---|---|---|---|",
    ]
    for c, s in report["streets"].items():
        lines.append(
            f"| {c} | {s['decisions']} | {_cell(s, 'regret', 1, '.3f')} "
            f"| {_cell(s, 'top1', 100, '.1f', '%')} |"
        )
    lines += ["", "| step | seconds |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in report["cost_seconds"].items()]
    lines.append(f"| total | {report['total_seconds']} |")
    return "\n".join(lines) + "\n"


def read_report(path: Path) -> dict[str, Any]:
    """A run's ``report.json``, a report :func:`markdown` (and :func:`plot`) can show
    (ModelError naming it when it is damaged: a field missing or of another type)."""
    report = read_json(path)
    try:
        markdown(report)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        why = f"no field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise damaged_run_file(path, why) from None
    return report


def _interval(street: dict[str, Any], key: str) -> float | None:
    """The 95% half-width of a street's ``key`` (``"regret"``, ``"top1"``); None
    below two held-out decisions, where there is none (the report's null)."""
    return None if street["decisions"] < 2 else float(street[f"{key}_ci95"])


def _cell(street: dict[str, Any], key: str, scale: float, spec: str, unit: str = "") -> str:
    """A street's ``key`` times ``scale`` with its 95% interval, as report.md shows it."""
    ci = _interval(street, key)
    value = f"{scale * street[key]:{spec}}{unit}"
    return (
        f"{value} (no interval: n < 2)" if ci is None else f"{value} ± {scale * ci:{spec}}"
    )


def plot(report: dict[str, Any], path: Path) -> bool:
    """``report.png``: the regret and agreement of :func:`markdown` as bars.  False
    without matplotlib, when an earlier run's plot there is removed (it would show
    other numbers than the report beside it).  A bare ``Figure``, not pyplot: the
    caller's backend and figures stay as they were."""
    try:
        Figure = import_extra("matplotlib.figure").Figure
    except ImportError:
        path.unlink(missing_ok=True)
        return False
    streets = list(report["streets"])
    fig = Figure(figsize=(8, 3))
    ax = fig.subplots(1, 2)
    ax[0].bar(
        streets,
        [report["streets"][s]["regret"] for s in streets],
        yerr=[_interval(report["streets"][s], "regret") or 0.0 for s in streets],
    )
    ax[0].set_title("held-out regret (points)")
    ax[1].bar(
        streets,
        [100 * report["streets"][s]["top1"] for s in streets],
        yerr=[100 * (_interval(report["streets"][s], "top1") or 0.0) for s in streets],
    )
    ax[1].set_title("top-1 agreement (%)")
    ax[1].set_ylim(0, 100)  # (all 0: the autoscaled axis went below 0)
    for a in ax:
        a.set_xlabel("cards on the board after the move")
    ax[0].set_ylim(bottom=0)  # a regret is never below 0
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    atomic_write(path, buf.getvalue())
    return True


def report_files(
    report: dict[str, Any], out: Path, say: Callable[[str], None], missing: bool = False
) -> None:
    """``report.md`` and ``report.png`` of ``report`` in ``out``; with ``missing``,
    only those not there (a finished run's: a plot drawn once matplotlib is installed,
    a report.md deleted since)."""
    md, png = out / "report.md", out / "report.png"
    if not (missing and md.exists()):
        atomic_write(md, markdown(report).encode())
    if not (missing and png.exists()) and not plot(report, png):
        say("report.png: not drawn without matplotlib (pip install 'ofc-fast[learn]')")
