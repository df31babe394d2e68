r"""The optimism of the shipped value model, measured on ValueBot's own play.

    python benchmarks/value_bias.py --pairs 150

ValueBot plays PINEAPPLE heads-up against HeuristicBot on duplicate deal pairs
(the same cards, seats swapped).  After each of its placements, the model's value of
the board it chose is compared with the exact value (the model's own target: the
expected points of a complete board against a typical opponent plus its Fantasyland
value) of the board it finished with.  Without bias the mean difference is 0; a
positive one is the optimism of a value whose labels take a maximum over noisy
estimates.  Prints the mean difference per street with a 95% normal interval.
"""

from __future__ import annotations

import statistics
import sys

from ofc_fast import rules
from ofc_fast.bots import HeuristicBot, ValueBot
from ofc_fast.game import Game, deal_seed
from ofc_fast.learned import shipped_model
from ofc_fast.table import SEED_MAX
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least

PRESET = rules.PINEAPPLE


def main(argv: list[str] | None = None) -> int:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=at_least(1), default=150, help="duplicate deal pairs")
    ap.add_argument(
        "--seed", type=at_least(0, SEED_MAX), default=99, help="seed of the deals"
    )
    args = ap.parse_args(argv)
    model = shipped_model(PRESET, 2)
    if model is None:
        raise SystemExit("no shipped PINEAPPLE heads-up model")
    bot = ValueBot(PRESET, 0)
    gaps: dict[int, list[float]] = {}
    for i in range(args.pairs):
        for me in (0, 1):
            g = Game(PRESET, 2, seed=deal_seed(args.seed, i), button=i % 2)
            seats = [bot, HeuristicBot(PRESET, i)][:: 1 if me == 0 else -1]
            chosen = []
            while g.to_act is not None:
                s = g.to_act
                g.play(seats[s].act(g.observation(s)))
                obs = g.observation(me)
                rows = obs["boards"][me]
                cards = sum(len(r) for r in rows)
                if s == me and cards < 13:
                    seen = {c for b in obs["boards"] for r in b for c in r}
                    dead = seen | set(obs["discards"])
                    dead -= {c for r in rows for c in r}
                    chosen.append((cards, model.value(rows, PRESET, 2, sorted(dead))))
            final = model.value(g.observation(me)["boards"][me], PRESET, 2)
            for cards, v in chosen:
                gaps.setdefault(cards, []).append(v - final)
    for cards, d in sorted(gaps.items()):
        hw = 1.96 * statistics.stdev(d) / len(d) ** 0.5
        print(
            f"after {cards:2d} cards: model value - final board value "
            f"{statistics.fmean(d):+.2f} +- {hw:.2f} ({len(d)} boards)"
        )
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (an error, a reader gone: one line)

    sys.exit(run_command(main, "value_bias.py"))
