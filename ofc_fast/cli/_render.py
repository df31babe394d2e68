"""Text for the ``ofc-fast`` command line: tables (rich on a terminal when installed,
plain text otherwise), progress, a played deal, the solver's result
(:func:`cli_solve`, :func:`solve_json`) and the search's advice (:func:`cli_advise`).
The domain modules (``ofc_fast.solver``, ``ofc_fast.search``) return data; the words
and columns are made here.

>>> plain_table("T", ["a", "b"], [[1, "x"]], None, width=None)
T
a  b
-  -
1  x
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from .. import search
from ..board import Board
from ..cards import CardsLike, cards_str, parse_cards
from ..errors import ModelError, OfcError
from ..learned import resolve_model
from ..rules import RuleSet, RulesLike, as_rules
from ..solver import best_setting, solution_dict, solve_fantasyland, stay_values
from ._columns import column_widths, pad
from .options import load_rules, named

__all__ = ["cli_advise", "cli_solve"]

WIDTH = 80  # tables and notes fit this many columns


def wrap(text: str) -> None:
    print("\n".join(textwrap.wrap(text, WIDTH)))


def rich_console(stderr: bool = False) -> Any:
    """A rich console on standard output (or error), None without rich; with
    ``NO_COLOR`` set (no-color.org) it writes no escape codes, not even rich's bold
    and italic, which its own reading of ``NO_COLOR`` keeps."""
    try:
        from rich.console import Console
    except ImportError:
        return None
    if os.environ.get("NO_COLOR"):
        return Console(stderr=stderr, color_system=None)
    return Console(stderr=stderr)


Justify = Literal["left", "right"]
"""How a table column is aligned."""


def table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    justify: Sequence[Justify] | None = None,
) -> None:
    """Print a table.  On a terminal: rich when available (cells fold, never cut
    short), aligned plain text within 80 columns otherwise; into a pipe or a file:
    plain text at its full width, no trailing spaces."""
    tty = sys.stdout.isatty()
    console = rich_console() if tty else None
    if console is None:
        plain_table(title, columns, rows, justify, WIDTH if tty else None)
        return
    from rich.table import Table

    console.width = min(console.width, WIDTH)
    table = Table(title=title, title_justify="left")
    for i, col in enumerate(columns):
        table.add_column(col, justify=(justify[i] if justify else "left"), overflow="fold")
    for row in rows:
        table.add_row(*(str(c) for c in row))
    console.print(table)


def plain_table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    justify: Sequence[Justify] | None,
    width: int | None = WIDTH,
) -> None:
    """Aligned plain text; within ``width`` columns (the last column wraps when
    needed), or at full width when ``width`` is None."""
    cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
    widths = column_widths(cells)  # (as a terminal shows them: 北京 takes 4)
    if width is not None:
        room = width - sum(widths[:-1]) - 2 * (len(widths) - 1)
        widths[-1] = min(widths[-1], max(room, 10))
    right = [j == "right" for j in (justify or ["left"] * len(columns))]
    if width is None:
        print(title)
    else:
        wrap(title)
    for i, r in enumerate(cells):
        last = textwrap.wrap(r[-1], max(widths[-1], 1)) or [""]
        for k, part in enumerate(last):
            line = [c if k == 0 else "" for c in r[:-1]] + [part]
            print(
                "  ".join(
                    pad(c, w, right=rt and i > 0) for c, w, rt in zip(line, widths, right)
                ).rstrip()
            )
        if i == 0:
            print("  ".join("-" * w for w in widths).rstrip())


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def progress(total: int, enabled: bool) -> tuple[Callable[[], None], Callable[[], None]]:
    """(advance, close) for a progress display on stderr: rich when installed and
    stderr is a terminal, a few plain lines otherwise, nothing when disabled."""
    if not enabled:
        return (lambda: None), (lambda: None)
    console = rich_console(stderr=True)
    if console is not None and console.is_terminal:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        prog = Progress(
            TextColumn("[bold]deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        task = prog.add_task("deals", total=total)
        prog.start()
        return (lambda: prog.advance(task)), prog.stop
    if not sys.stderr.isatty():
        return (lambda: None), (lambda: None)
    state = {"done": 0, "next": 0.1}

    def advance() -> None:
        state["done"] += 1
        if state["done"] >= state["next"] * total:
            print(f"  {state['done']}/{total} deals", file=sys.stderr)
            state["next"] += 0.1

    return advance, (lambda: None)


def interval_method() -> str:
    """How SeatStats.ci95 is computed here: Student's t needs SciPy."""
    import importlib.util

    if importlib.util.find_spec("scipy") is not None:
        return "Student's t"
    # (the extra that brings SciPy, as every missing-extra hint names it)
    return "normal approximation; pip install 'ofc-fast[cli]' for Student's t"


def row_text(cards: Sequence[int]) -> str:
    return cards_str(sorted(cards, reverse=True)) or "-"


def print_deal(index: int, game: Any, result: Any, names: Sequence[str]) -> None:
    rules = game.rules
    title = f"Deal {index}: {rules.name}, button seat {game.button}" + (
        "".join(
            f", seat {s} in Fantasyland ({n} cards)"
            for s, n in enumerate(game.fantasyland)
            if n
        )
    )
    rows = []
    for s, b in enumerate(result.boards):
        roy = result.royalties[s]
        notes = []
        if result.fouls[s]:
            notes.append("FOUL")
        if s in result.surrendered:
            notes.append("surrender")
        if s in result.declared:
            notes.append(result.declared[s])
        if result.fantasyland[s]:
            notes.append(f"FL {result.fantasyland[s]}")
        shown = s not in result.surrendered
        rows.append(
            [
                s,
                names[s],
                *(row_text(r) if shown else "?" for r in b.rows),
                sum(roy) if any(roy) else "-",
                " ".join(notes),
                f"{result.net[s]:+d}",
            ]
        )
    table(
        title,
        ["seat", "bot", "front", "middle", "back", "roy", "", "net"],
        rows,
        justify=["right", "left", "left", "left", "left", "right", "left", "right"],
    )


def cli_solve(cards: CardsLike, rules: RulesLike) -> str:
    """Text for ``ofc-fast solve "<13-17 cards>" --rules NAME``: the best setting,
    its royalties, the stay / no-stay alternatives (rules with Fantasyland) and the
    time of a warm solve: the solve is made twice and the second one timed, so the
    one-time setup of the first (tables built on first use) is not counted.  13 cards
    under rules without Fantasyland: :func:`best_setting` with the "ev" objective (and
    "royalties" when the rules pay any), plus naturals.

    >>> print(cli_solve("Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s", "pineapple"))
    ... # doctest: +ELLIPSIS
    rules: PINEAPPLE, 14 cards (Fantasyland; stay value by next cards: 13: ...)
    best:    3s 3d 3c / Ad Ts Th Tc 9s / Ah Qh Jh 7h 6h  royalties 17 [11, 2, 4], stays (14 cards), discard 5d, value 31.5
    stay:    3s 3d 3c / Ad Ts Th Tc 9s / Ah Qh Jh 7h 6h  royalties 17 [11, 2, 4], stays (14 cards), discard 5d, value 31.5
    no stay: Ah Ad 9s / Qh Jh Th 7h 6h / Ts Tc 3s 3d 3c  royalties 23 [9, 8, 6], discard 5d, value 23
    time: ... ms (warm: one-time setup not counted)
    """  # noqa: E501 - the command's output, verbatim
    rules = as_rules(rules, "cli_solve")
    ids = parse_cards(cards)
    _solve_lines(ids, rules)  # (builds what the first solve builds: not timed)
    t0 = time.perf_counter()
    lines = _solve_lines(ids, rules)
    elapsed_ms = (time.perf_counter() - t0) * 1e3
    lines.append(f"time: {elapsed_ms:.2f} ms (warm: one-time setup not counted)")
    return "\n".join(lines)


def _solve_lines(ids: list[int], rules: RuleSet) -> list[str]:
    """:func:`cli_solve`'s lines, all but the time."""
    lines: list[str] = []
    if classic_setting(rules, ids):
        lines.append(f"rules: {rules.name}, 13 cards (classic setting)")
        ev = best_setting(ids, rules, "ev")
        lines.append(
            f"best (ev):        {ev.board}  expected points {ev.value:+.3f}, "
            f"royalties {ev.royalties}"
        )
        if pays_royalties(rules):
            roy = best_setting(ids, rules, "royalties")
            lines.append(f"best (royalties): {roy.board}  royalties {roy.royalties}")
        if ev.naturals:
            names = ", ".join(f"{n.name} ({n.units})" for n in ev.naturals)
            lines.append(f"naturals: {names} -- declare instead of setting")
    else:
        kind = "no Fantasyland"  # (so no stay, and no stay value to show)
        if rules.fantasyland is not None:
            sv = stay_values(rules)
            shown = ", ".join(f"{k}: {v:g}" for k, v in zip(range(13, 18), sv))
            kind = f"Fantasyland; stay value by next cards: {shown}"
        lines.append(f"rules: {rules.name}, {len(ids)} cards ({kind})")
        s = solve_fantasyland(ids, rules, alternatives=True)
        lines.append(f"best:    {s}")
        if rules.fantasyland is not None and not s.fouled:
            lines.append(
                "stay:    "
                + (str(s.best_stay) if s.best_stay else "no setting keeps Fantasyland")
            )
            lines.append(
                "no stay: "
                + (str(s.best_no_stay) if s.best_no_stay else "every legal setting stays")
            )
    return lines


def classic_setting(rules: RuleSet, ids: list[int]) -> bool:
    """``ofc-fast solve`` sets 13 cards by expected points under rules without
    Fantasyland; otherwise it solves a Fantasyland hand."""
    return rules.fantasyland is None and len(ids) == 13


def solve_json(cards: CardsLike, rules: RuleSet) -> dict[str, Any]:
    """JSON-able result of ``ofc-fast solve --json``: the same solves as
    :func:`cli_solve`, as data."""
    ids = parse_cards(cards)
    doc: dict[str, Any] = {"rules": rules.name, "cards": cards_str(ids)}
    if classic_setting(rules, ids):
        ev = best_setting(ids, rules, "ev")
        doc["best_ev"] = {**solution_dict(ev), "expected_points": ev.value}
        doc["best"] = doc["best_ev"]  # (the setting solve picks: every mode's "best")
        if pays_royalties(rules):
            doc["best_royalties"] = solution_dict(best_setting(ids, rules, "royalties"))
        doc["naturals"] = [{"name": n.name, "units": n.units} for n in ev.naturals]
        return doc
    s = solve_fantasyland(ids, rules, alternatives=True)
    doc["best"] = solution_dict(s)
    for key, alt in (("stay", s.best_stay), ("no_stay", s.best_no_stay)):
        doc[key] = solution_dict(alt) if alt is not None else None
    return doc


def pays_royalties(rules: RuleSet) -> bool:
    r = rules.royalties
    return any(r.front_pair + r.front_trips + r.middle + r.back)


EXACT_MODES: dict[str, str | bool] = {"auto": "auto", "yes": True, "no": False}
"""``ofc-fast advise --exact``'s choices, as :func:`ofc_fast.search.advise` takes them."""

_STOPPED_ADVICE = search.exact_stopped_advice(  # advise's advice, in the options' words
    f"give a larger --time, or leave it out to search to the end (up to "
    f"{search.EXACT_NODES_MAX:,} nodes), or ",
    "yes",
    "auto",
)


def cli_advise(args: Any) -> tuple[list[Any], str]:
    """``ofc-fast advise``: the advice on a position given as boards and cards (see
    :func:`ofc_fast.search.make_observation`), every legal move best first, and its
    text."""
    rules = load_rules(args.rules)
    try:  # each board and card list: errors name its option; the position (checked
        # here and by the search): the options that typed its part at fault
        obs = search.make_observation(
            rules,
            named("--board", Board.parse, args.board),
            named("--dealt", parse_cards, args.dealt),
            [named("--opponent", Board.parse, b) for b in args.opponent or []],
            named("--dead", parse_cards, args.dead or ""),
        )
        model = resolve_model(args.model, rules, obs["players"])
        t0 = time.perf_counter()
        advice = search.advise(
            obs,
            rules=rules,
            samples=args.samples,
            time_budget=args.time_budget,
            seed=args.seed,
            exact=EXACT_MODES[args.exact],
            model=model,
        )
    except ModelError as exc:  # the --model file's: unread, of other rules, or with
        # no net for a board the search values by it (raised by search.advise)
        raise type(exc)(f"--model: {exc}") from None
    except OfcError as exc:  # (a stopped --exact yes: what the options can do)
        said = str(exc).replace(search.exact_stopped_advice(), _STOPPED_ADVICE)
        raise type(exc)(position_option(said)) from None
    seconds = time.perf_counter() - t0
    lines = [
        f"{rules.name}: {len(advice)} legal moves, {seconds * 1000:.1f} ms"
        + (f", value model {advice[0].model}" if advice and advice[0].model else ""),
        f"{'#':>3}  {'move':<34} {'ev':>8} {'+-':>6}  {'exact':<5} {'samples':>7} "
        f"{'foul%':>5} {'FL%':>5} {'roy':>5}",
    ]
    for i, a in enumerate(advice[: args.top] if args.top else advice):
        lines.append(
            f"{i + 1:>3}  {a.move!s:<34} {a.ev:>+8.3f} {_figure(a.stderr, 6, 3)}  "
            f"{'yes' if a.exact else 'no':<5} {a.samples:>7} "
            f"{_figure(a.foul, 5, 1, 100)} {_figure(a.fantasyland, 5, 1, 100)} "
            f"{_figure(a.royalties, 5, 2)}"
        )
    if any(a.source == "model" for a in advice):
        lines.append(MODEL_NOTE)
    lines.append(EV_NOTE)
    return advice, "\n".join(lines)


POSITION_OPTIONS = {
    "rules": "--rules",
    "dealt": "--dealt",
    "dead": "--dead",
    "board": "--board",  # seat 0's board: yours
    "opponents": "--opponent",  # seat N's board (N > 0): the Nth --opponent
    "observation": "--board, --dealt, --opponent",  # the position as a whole
}
"""The argument of :func:`ofc_fast.search.make_observation` that gives the part of a
position an error names (the ``argument`` of the part
:func:`ofc_fast.search.position_part` reads; the observation as a whole), and the
options of ``ofc-fast advise`` that typed it."""


MODEL_NOTE = (  # under the table when a move was valued by the model alone
    "0 samples: ev is the value model's own estimate (the move was screened out, "
    "not sampled); no +-, foul%, FL% nor roy measured (-)"
)


def _figure(x: float | None, width: int, places: int, scale: float = 1.0) -> str:
    """``x * scale`` in a column of ``width`` with ``places`` decimals; ``-`` where
    nothing was measured (None: a move valued by the model alone).

    >>> _figure(0.25, 5, 1, 100), _figure(None, 5, 1)
    (' 25.0', '    -')
    """
    return f"{'-':>{width}}" if x is None else f"{scale * x:>{width}.{places}f}"


def position_option(message: str) -> str:
    """``message``, an error of :func:`ofc_fast.search.make_observation`, with the
    option of ``ofc-fast advise`` that typed the part at fault (:data:`POSITION_OPTIONS`)
    instead of the API's name for it; any other message as it is.

    >>> position_option("observation: board 1 row 0 holds Qh, a card shown twice")
    '--opponent (seat 1): front row holds Qh, a card shown twice'
    >>> position_option("make_observation: dealt holds no card")
    '--dealt: holds no card'
    """
    part = search.position_part(message)
    if part is None:
        return message
    argument = part.argument
    if argument is None:
        return part.said(POSITION_OPTIONS["observation"])
    option = POSITION_OPTIONS[argument.split("[", 1)[0]]
    seat = part.index[0] if part.key == "boards" else 0
    return part.said(f"{option} (seat {seat})" if seat else option)


EV_NOTE = (  # under ofc-fast advise's table: what ev is
    "ev: points against the modelled opponent play, plus the Fantasyland worth; "
    "it ranks\nthese moves, it is not a fair estimate of the deal (both seats "
    "can be positive)."
)
