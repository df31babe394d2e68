"""Whether advise's values of the two seats of one deal sum to zero at the opening.

For each deal (PINEAPPLE, heads-up, game seeds 100, 101, ...), each seat's five
opening cards are valued by ``ofc_fast.advise`` from that seat's view (both boards
empty), and the best move's ``ev`` of the two seats is summed.  A fair estimate of the
deal would sum to about zero; advise's ``ev`` is points against the modelled opponent
play plus the Fantasyland worth (docs/cli.md, "What advise's ev means").

    python tools/advise_ev_sum.py --deals 8 --samples 256
    python tools/advise_ev_sum.py --deals 8 --samples 256 --fl-value 0 --policy sequential
"""

from __future__ import annotations

import statistics
import sys
import time

import ofc_fast as ofc
from ofc_fast.errors import OfcError
from ofc_fast.search import POLICIES, advise, make_observation, search_model
from ofc_fast.timing import ScriptHelp, ScriptParser, at_least


def opening_hands(seed: int) -> dict[int, list[int]]:
    """Each seat's five opening cards of the heads-up PINEAPPLE deal ``seed``."""
    g = ofc.Game("pineapple", players=2, seed=seed)
    hands: dict[int, list[int]] = {}
    while len(hands) < 2:  # play any move to see the next seat's cards
        seat = g.to_act
        assert seat is not None
        hands[seat] = list(g.observation(seat)["dealt"])
        g.play_action(g.legal_actions()[0])
    return hands


def main() -> None:
    ap = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--deals", type=at_least(1), default=8, help="deals (game seeds 100, 101, ...)"
    )
    ap.add_argument(
        "--samples", type=at_least(1), default=256, help="advise's sampled futures per seat"
    )
    ap.add_argument(
        "--fl-value",
        type=float,
        default=None,
        help="a Fantasyland entry's worth in points (default: the model's)",
    )
    ap.add_argument(
        "--policy", choices=POLICIES, default="auto", help="advise's completion policy"
    )
    args = ap.parse_args()
    rules = ofc.rules.PINEAPPLE
    try:  # the value checked before the run, as advise checks it
        search_model(rules, args.fl_value)
    except OfcError as exc:
        ap.error(f"--fl-value: {exc}")
    kw: dict[str, object] = {"policy": args.policy}
    if args.fl_value is not None:
        kw["fl_value"] = args.fl_value
    sums = []
    t0 = time.perf_counter()
    for d in range(args.deals):
        row = []
        for dealt in opening_hands(100 + d).values():
            obs = make_observation(rules, "/ /", dealt, ["/ /"])
            best = advise(obs, rules=rules, samples=args.samples, seed=d, **kw)[0]  # type: ignore[arg-type]
            row.append((best.ev, best.stderr))
        sums.append(row[0][0] + row[1][0])
        seats = "  ".join(f"{ev:+6.2f} ±{se:.2f}" for ev, se in row)
        print(f"deal {d}: seats {seats}   sum {sums[-1]:+6.2f}", flush=True)
    # (one deal: no standard error, not 0)
    sem = statistics.stdev(sums) / len(sums) ** 0.5 if len(sums) > 1 else float("nan")
    print(
        f"mean sum {statistics.mean(sums):+.2f} (standard error {sem:.2f}) over "
        f"{len(sums)} deals, {time.perf_counter() - t0:.0f} s"
    )


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (a reader gone: no BrokenPipeError)

    sys.exit(run_command(main, "advise_ev_sum.py"))
