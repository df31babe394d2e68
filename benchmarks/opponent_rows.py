r"""How strong the library's typical opponent is against the boards players finish.

    python benchmarks/opponent_rows.py --rules ofc --bot heuristic --deals 3000

Plays ``--deals`` heads-up deals of a bot against itself (``heuristic`` or ``value``,
the shipped model; deal ``i`` from ``deal_seed(seed, i)``, button ``i % 2``) and
prints the share of fouled boards and the mean expected row units of the clean ones
against the typical opponent (``ofc_ev_tables_init``: rows of thirteen cards set with
all of them seen): the sum over the three rows of ``units[row][strength]``, what a
clean board wins in rows against that opponent, before sweeps and royalties.  Against
the rows of the clean boards themselves that mean is 0 by construction, so a negative
figure is how much stronger the typical opponent is than these players: the
gap by which the typical opponent under-prices a foul against them (docs/learned.md,
"Which opponent").
"""

from __future__ import annotations

import statistics
import sys

from ofc_fast import rules
from ofc_fast.board import Board
from ofc_fast.bots import HeuristicBot, ValueBot
from ofc_fast.errors import OfcError
from ofc_fast.game import Game, deal_seed
from ofc_fast.solver import ev_tables
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least, preset_name


def main(argv: list[str] | None = None) -> int:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", type=preset_name, default="pineapple", help="a preset name")
    ap.add_argument(
        "--bot",
        choices=("heuristic", "value"),
        default="heuristic",
        help="the bot playing against itself",
    )
    ap.add_argument("--deals", type=at_least(1), default=3000, help="heads-up deals")
    ap.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=4242, help="seed of the deals"
    )
    args = ap.parse_args(argv)
    preset = rules.get(args.rules)
    kind = HeuristicBot if args.bot == "heuristic" else ValueBot
    first = Game(preset, 2, seed=deal_seed(args.seed, 0))
    try:  # a bot that cannot play, before the run (a third one: the same figures)
        bots = [kind(preset, 0), kind(preset, 1)]
        kind(preset, 0).act(first.observation(first.to_act))
    except OfcError as exc:
        ap.error(f"--bot {args.bot}: {exc}")
    typical = ev_tables(preset)
    fouls, units = 0, []
    for i in range(args.deals):
        g = Game(preset, 2, seed=deal_seed(args.seed, i), button=i % 2)
        while g.to_act is not None:
            g.play(bots[g.to_act].act(g.observation(g.to_act)))
        for seat in range(2):
            rows = g.observation(seat)["boards"][seat]
            e = Board.from_ids(*(tuple(r) for r in rows)).evaluate(preset)
            if e.foul:
                fouls += 1
                continue
            units.append(sum(float(typical.units[r][s]) for r, s in enumerate(e.strengths)))
    boards = 2 * args.deals
    mean = f"{statistics.mean(units):+.2f}" if units else "nan"  # every board fouled
    hw = f"{1.96 * statistics.stdev(units) / len(units) ** 0.5:.2f}" if units[1:] else "nan"
    print(
        f"{args.rules}, {args.bot} against itself, {args.deals} deals: fouls "
        f"{100 * fouls / boards:.1f}%; clean boards' row units against the typical "
        f"opponent {mean} +- {hw} (0 against their own rows)"
    )
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "opponent_rows.py"))
