"""A known-good recipe: train a Pineapple (or OFC) policy with MaskablePPO in minutes.

    pip install 'ofc-fast[rl-train]'        # CPU torch: see docs/environments.md
    python examples/train_ppo.py --rules pineapple --minutes 10 --out runs/ppo

1. Warm start by behaviour cloning: ``HeuristicBot`` self-play (what ``ofc-fast
   selfplay`` writes) is turned into feature rows (:mod:`ofc_fast.env.imitation`) and
   the policy and value networks are fitted to its moves and points.
2. MaskablePPO on :class:`ofc_fast.env.sb3.VecEnv` (hundreds of C tables in one
   process, ``obs_type="features"``), with a curriculum of opponents: random seats
   first, then a frozen copy of the learner (refreshed as it improves).
3. Every ``eval_every_s`` seconds of training (CONFIG), the learning curve: points per
   deal against ``RandomBot`` and ``HeuristicBot`` and the foul rate (the clock stops
   while it evaluates).  At the end: ``curve.csv``, ``curve.png``, ``model.zip`` and
   ``policy.npz`` in ``--out``; the last line printed is the path of ``policy.npz``,
   which plays as ``policy:PATH`` (``ofc-fast play --players 2 --bots
   policy:PATH,random``).

The budget (``--minutes``, or ``--steps`` PPO steps) covers data, cloning and PPO.
Everything runs on one thread (``torch.set_num_threads(1)``).
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# ---------------------------------------------------------------- tuned settings
CONFIG: dict[str, Any] = {
    "num_envs": 256,  # C tables stepped together
    "net": [256, 256],  # policy and value MLPs (ReLU)
    "bc_share": 0.6,  # of the budget: self-play data and cloning (0: no cloning)
    "bc_data_share": 0.5,  # of that: writing the self-play data
    "bc_max_deals": 60000,  # heuristic self-play deals at most (600,000 decisions)
    "bc_epochs": 40,  # at most (the time share ends it first)
    "bc_lr": 2e-3,
    "bc_batch": 512,
    "ppo": {  # MaskablePPO settings (a gentle fine-tune of the cloned policy)
        "n_steps": 16,
        "batch_size": 1024,
        "n_epochs": 4,
        "learning_rate": 1e-4,
        "gamma": 1.0,  # a deal is 5 decisions; its points are the return
        "gae_lambda": 0.95,
        "clip_range": 0.1,
        "ent_coef": 0.003,
        "vf_coef": 0.5,
    },
    "reward_scale": 0.1,  # points x 0.1 (a deal is worth about -30..+30 points)
    "shaping": 0.0,  # potential-based royalty shaping (VectorEnv); 0 = off
    "curriculum": [(0.0, "random"), (0.75, "self")],  # (share of PPO time, opponent)
    "refresh_opponent_s": 60,  # self-play: a new frozen copy this often
    "eval_every_s": 120,
    "eval_deals": {"random": 300, "heuristic": 60},  # per curve point
    "final_deals": {"random": 2000, "heuristic": 300},
}


PLAYERS = 2
"""The seats of the recipe's tables: the self-play it clones, PPO, the evaluations."""

MAX_LAYERS = 8
MAX_WIDTH = 2048
"""The largest ``net``: 8 layers of 2,048 units (about 60 million weights for the
policy and value MLPs together, some 1 GB with Adam's state), far above the tuned
[256, 256]."""


Check = Callable[[Any], "str | None"]
"""A setting's check: why its value is refused (``must be ..., got ...``), or None."""


def _must(text: str, ok: Callable[[Any], bool]) -> Check:
    return lambda v: None if ok(v) else f"must be {text}, got {str(v)[:60]}"


def _int_from(low: int) -> Check:
    """A count of at least ``low``, refused in the words of every ofc-fast count."""

    def problem(v: Any) -> str | None:
        from ofc_fast.errors import count_problem

        if type(v) is not int:
            return f"must be a whole number, got {str(v)[:60]}"
        return count_problem(v, low)

    return problem


def _number(text: str, ok: Callable[[float], bool]) -> Check:
    return _must(text, lambda v: type(v) in (int, float) and math.isfinite(v) and ok(v))


_POSITIVE = _number("a number above 0", lambda v: v > 0)
_NOT_NEGATIVE = _number("a number 0 or more", lambda v: v >= 0)
_SHARE = _number("a number within 0..1", lambda v: 0 <= v <= 1)
_DEALS = _must(
    "a dict of opponent (a bot name): deals (a whole number, at least 1)",
    lambda v: (
        isinstance(v, dict)
        and all(_is_bot(k) and type(n) is int and n >= 1 for k, n in v.items())
    ),
)


def _is_bot(name: Any) -> bool:
    """Whether ``name`` is a bot of the registry (an opponent the recipe plays)."""
    from ofc_fast.bots import bot_names

    return name in bot_names()


def _is_curriculum(value: Any) -> bool:
    if not (isinstance(value, list) and value):
        return False
    pairs = [x if isinstance(x, tuple) and len(x) == 2 else (None, None) for x in value]
    shares = [at if _SHARE(at) is None else -1 for at, _ in pairs]
    return (
        shares[0] == 0
        and shares == sorted(shares)
        and all(opp == "self" or _is_bot(opp) for _, opp in pairs)
    )


SETTINGS: dict[str, Check] = {
    "num_envs": _int_from(1),
    "net": _must(  # bounded: a million units a layer was a torch out-of-memory traceback
        f"a list of 1 to {MAX_LAYERS} layer widths (ints 1..{MAX_WIDTH})",
        lambda v: (
            isinstance(v, list)
            and 1 <= len(v) <= MAX_LAYERS
            and all(type(w) is int and 1 <= w <= MAX_WIDTH for w in v)
        ),
    ),
    "bc_share": _number(
        "a number within 0..1 (below 1: PPO needs time)", lambda v: 0 <= v < 1
    ),
    "bc_data_share": _SHARE,
    "bc_max_deals": _int_from(1),
    "bc_epochs": _int_from(0),
    "bc_lr": _POSITIVE,
    "bc_batch": _int_from(1),
    "ppo": _must("a dict of the ppo.* settings", lambda v: isinstance(v, dict)),
    "ppo.n_steps": _int_from(1),
    "ppo.batch_size": _int_from(1),
    "ppo.n_epochs": _int_from(1),
    "ppo.learning_rate": _POSITIVE,
    "ppo.gamma": _SHARE,
    "ppo.gae_lambda": _SHARE,
    "ppo.clip_range": _POSITIVE,
    "ppo.ent_coef": _NOT_NEGATIVE,
    "ppo.vf_coef": _NOT_NEGATIVE,
    "reward_scale": _POSITIVE,
    "shaping": _NOT_NEGATIVE,
    "curriculum": _must(
        "a list of (share of PPO time within 0..1, opponent: 'self' or a bot name), "
        "the shares in order, the first 0",
        _is_curriculum,
    ),
    "refresh_opponent_s": _POSITIVE,
    "eval_every_s": _POSITIVE,
    "eval_deals": _DEALS,
    "final_deals": _DEALS,
}
"""Each setting of CONFIG (``ppo.gamma``: CONFIG["ppo"]["gamma"]): its check (why
a value is refused, or None), which :func:`parse` applies after the ``--set`` overrides."""


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line (and the --set overrides, applied to CONFIG)."""
    from ofc_fast.table import SEED_MAX
    from ofc_fast.timing import ScriptHelp, ScriptParser, at_least

    p = ScriptParser(formatter_class=ScriptHelp, description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--rules",
        default="pineapple",
        help="the rule set trained for: a preset name or game id the environments play "
        "(OFC, Pineapple, Progressive, Ultimate, 2-7 Pineapple)",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=10.0,
        help="the whole budget in minutes: self-play data, cloning and PPO",
    )
    p.add_argument(
        "--steps",
        type=at_least(1),
        default=None,
        help="stop PPO once it played this many steps (in whole rollouts of "
        "num_envs x ppo.n_steps steps: 4096 as tuned)",
    )
    p.add_argument("--out", default=None, help="output directory (default: a temp dir)")
    p.add_argument(
        "--seed",
        type=at_least(0, SEED_MAX),
        default=0,
        help="seed of the self-play, the tables and the fits",
    )
    p.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what --minutes counts: wall time, or this process's CPU time (a shared machine)",
    )
    p.add_argument("--bc-data", default=None, help="an `ofc-fast selfplay` output to clone")
    p.add_argument(
        "--final-deals",
        type=at_least(1),
        default=None,
        help="deals vs RandomBot at the end (default: CONFIG's final_deals, "
        f"{CONFIG['final_deals']['random']})",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a setting of CONFIG (a Python literal), e.g. ppo.learning_rate=3e-4",
    )
    args = p.parse_args(argv)
    if not 0 < args.minutes < float("inf"):  # NaN fails too
        p.error(f"--minutes: must be a positive number, got {args.minutes}")
    for item in args.set:
        _override(p, item)
    _check_settings(p)
    _check_inputs(p, args)
    return args


def _check_inputs(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """--rules (a preset the environments play), --bc-data and --out (the folder made),
    or a usage error before torch is loaded and anything is played."""
    from ofc_fast import rules
    from ofc_fast.env import VectorEnv
    from ofc_fast.errors import OfcError

    try:
        VectorEnv(args.rules, 1)
    except OfcError as exc:
        p.error(f"--rules: {exc}")
    if args.bc_data and not Path(args.bc_data, "manifest.json").is_file():
        p.error(
            f"--bc-data: {args.bc_data!r} is not an `ofc-fast selfplay` output "
            "(no manifest.json in it)"
        )
    if args.bc_data:  # (its moves are cloned: moves of the rules and seats trained)
        played, players = _run_of(Path(args.bc_data, "manifest.json"))
        if played is None:
            p.error(f"--bc-data: {args.bc_data!r}: its manifest.json names no rule set")
        if played != rules.get(args.rules).name:
            p.error(
                f"--bc-data: {args.bc_data!r} is self-play of {played}, not of "
                f"--rules {args.rules}"
            )
        if players != PLAYERS:
            p.error(
                f"--bc-data: {args.bc_data!r} is self-play of {players} players, not "
                f"{PLAYERS} (the recipe's tables)"
            )
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        p.error(f"--out: {args.out!r} is a file, not a folder")
    try:  # (made here: a folder that cannot be made stops the run before torch)
        if args.out:
            Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        p.error(f"--out: cannot create {args.out!r}: {exc.strerror or exc}")
    made = args.out and Path(args.out, "selfplay", "manifest.json").exists()
    if made and not args.bc_data and CONFIG["bc_share"] > 0:  # another run's data
        try:  # (checks the run its manifest names, writes no shard)
            write_selfplay(args, Path(args.out), max_shards=0)
        except OfcError as exc:
            p.error(f"--out: {exc}")


def _run_of(manifest: Path) -> tuple[str | None, Any]:
    """The name of the rule set an ``ofc-fast selfplay`` run played and its players
    (its manifest's), None where the manifest does not say."""
    try:
        run = json.loads(manifest.read_text(encoding="utf-8"))["run"]
        return str(run["rules"]["name"]), run.get("players")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, None


def _override(p: argparse.ArgumentParser, item: str) -> None:
    """Apply one ``--set KEY=VALUE`` to CONFIG, or stop with a usage error."""
    key, _, value = item.partition("=")
    where, last = _find(key)
    if where is None or last not in where:
        p.error(f"--set: no setting {key!r}")
    try:
        where[last] = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        p.error(f"--set: not a Python literal: {value[:40]!r}")


def _find(key: str) -> tuple[dict[str, Any] | None, str]:
    """The dict of CONFIG that holds setting ``key`` (``ppo.gamma``: CONFIG["ppo"]),
    None where no dict is at its path, and the setting's own name."""
    *path, last = key.split(".")
    where: Any = CONFIG
    for k in path:
        where = where.get(k) if isinstance(where, dict) else None
    return (where if isinstance(where, dict) else None), last


def _check_settings(p: argparse.ArgumentParser) -> None:
    """Every setting of CONFIG within its range (:data:`SETTINGS`), and no PPO
    minibatch of one decision, or a usage error naming the first one out of it (a
    --set value: before torch is loaded)."""
    for key, check in SETTINGS.items():
        where, last = _find(key)
        if where is None or last not in where:
            p.error(f"--set: {key}: missing (set it alone: --set {key}=VALUE)")
        problem = check(where[last])
        if problem:
            p.error(f"--set: {key} {problem}")
    extra = sorted(set(CONFIG["ppo"]) - {k[4:] for k in SETTINGS if k.startswith("ppo.")})
    if extra:
        p.error(f"--set: no setting 'ppo.{extra[0]}'")
    rollout = CONFIG["num_envs"] * CONFIG["ppo"]["n_steps"]
    batch = CONFIG["ppo"]["batch_size"]
    # SB3's minibatches of a rollout: whole ones, then the rest
    if 1 in (min(batch, rollout), rollout % batch):
        p.error(
            f"--set: a rollout of num_envs x ppo.n_steps = {rollout} decisions in "
            f"minibatches of ppo.batch_size {batch} leaves a minibatch of 1 decision, "
            "whose advantage MaskablePPO normalizes to NaN"
        )


class Clock:
    """Training time (wall, or this process's CPU time): paused while evaluating."""

    def __init__(self, budget_s: float, cpu: bool = False) -> None:
        self.now = time.process_time if cpu else time.monotonic
        self.budget, self.used, self.start = budget_s, 0.0, self.now()
        self.paused = False

    def pause(self) -> None:
        """Stop counting."""
        self.used, self.paused = self.elapsed, True

    def resume(self) -> None:
        """Count again."""
        self.start, self.paused = self.now(), False

    @property
    def elapsed(self) -> float:
        """Seconds of training so far."""
        return self.used + (0.0 if self.paused else self.now() - self.start)


def selfplay_data(
    args: argparse.Namespace, out: Path, clock: Clock, until_s: float
) -> Path:
    """HeuristicBot self-play shards (as `ofc-fast selfplay` writes them), written until
    the time share is spent (one at least)."""
    if args.bc_data:
        return Path(args.bc_data)
    while True:  # one shard at least, though the share was spent before it
        if write_selfplay(args, out, max_shards=1)["complete"] or clock.elapsed >= until_s:
            return out / "selfplay"


def write_selfplay(args: argparse.Namespace, out: Path, max_shards: int) -> dict[str, Any]:
    """Up to ``max_shards`` more shards of the HeuristicBot self-play the recipe clones,
    written into ``out/selfplay`` (an error where it holds another run); its manifest."""
    from ofc_fast.parallel import RunSpec
    from ofc_fast.parallel.selfplay import selfplay

    spec = RunSpec.make(  # self-play shards hold independent deals
        args.rules,
        PLAYERS,
        args.seed,
        CONFIG["bc_max_deals"],
        [("heuristic", {})],
        fantasyland=False,
    )
    return selfplay(
        spec, out / "selfplay", shard_size=50, progress=False, max_shards=max_shards
    )


def clone(
    model: Any, data: dict[str, Any], clock: Clock, until_s: float, seed: int
) -> None:
    """Fit the policy to the moves and the value to the points (cross-entropy over
    the legal ids, plus squared error), the batches drawn in an order ``seed`` fixes."""
    import numpy as np
    import torch

    pol = model.policy
    opt = torch.optim.Adam(pol.parameters(), lr=CONFIG["bc_lr"])
    obs = torch.as_tensor(data["obs"])
    mask = torch.as_tensor(data["mask"])
    act = torch.as_tensor(data["action"])
    ret = torch.as_tensor(data["reward"] * CONFIG["reward_scale"])
    rng = np.random.default_rng(seed)
    for epoch in range(CONFIG["bc_epochs"]):
        order = torch.as_tensor(rng.permutation(len(act)))
        total = 0.0
        for k in range(0, len(act), CONFIG["bc_batch"]):
            b = order[k : k + CONFIG["bc_batch"]]
            latent_pi, latent_vf = pol.mlp_extractor(pol.extract_features(obs[b]))
            logits = pol.action_net(latent_pi).masked_fill(~mask[b], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, act[b])
            value = pol.value_net(latent_vf).squeeze(-1)
            loss = loss + 0.5 * torch.nn.functional.mse_loss(value, ret[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(b)
        print(f"  clone epoch {epoch + 1}: loss {total / len(act):.3f}", flush=True)
        if clock.elapsed >= until_s:
            break


def evaluate(policy_path: str, rules: str, opponent: str, deals: int, seed: int) -> dict:
    """The saved policy (seat 0) against ``opponent`` for ``deals`` deals."""
    from ofc_fast.bots import make_bot
    from ofc_fast.game import Match

    match = Match(rules, PLAYERS, seed=seed)
    bots = [
        make_bot(f"policy:{policy_path}", rules, seed=1),
        make_bot(opponent, rules, seed=2),
    ]
    for _ in range(deals):
        match.play_hand(bots)
    s = match.stats[0]
    return {"points": s.mean, "ci95": s.ci95, "fouls": s.fouls / max(1, deals)}


def main(argv: list[str] | None = None) -> int:
    """Clone, train, evaluate, save; print the curve and, last, the policy's path."""
    from ofc_fast.timing import require_extra, seed_offset

    args = parse(argv)
    require_extra("rl-train", "torch", "gymnasium", "stable_baselines3", "sb3_contrib")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch
    from sb3_contrib import MaskablePPO

    from ofc_fast.env.imitation import selfplay_dataset
    from ofc_fast.env.sb3 import VecEnv, export_policy, frozen_policy
    from ofc_fast.errors import OfcError

    torch.set_num_threads(1)
    out = Path(args.out or tempfile.mkdtemp(prefix="ofc-ppo-"))
    out.mkdir(parents=True, exist_ok=True)
    clock = Clock(args.minutes * 60, cpu=args.clock == "cpu")
    bc_until = clock.budget * CONFIG["bc_share"]

    envs_made = [0]

    def make_env(opponent: Any) -> VecEnv:
        envs_made[0] += 1
        return VecEnv(
            args.rules,
            CONFIG["num_envs"],
            PLAYERS,
            seed=seed_offset(args.seed * 1000, envs_made[0]),
            opponent=opponent,
            shaping=CONFIG["shaping"],
            reward_scale=CONFIG["reward_scale"],
        )

    env = make_env("random")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        seed=args.seed,
        device="cpu",
        verbose=0,
        policy_kwargs={
            "net_arch": {"pi": CONFIG["net"], "vf": CONFIG["net"]},
            "activation_fn": torch.nn.ReLU,
        },
        **CONFIG["ppo"],
    )
    policy_path = str(out / "policy.npz")
    curve: list[dict[str, Any]] = []
    steps = 0

    def point(stage: str, deals: dict[str, int]) -> None:
        clock.pause()
        export_policy(model, policy_path, rules=args.rules, obs_type="features")
        row: dict[str, Any] = {
            "stage": stage,
            "minutes": clock.elapsed / 60,
            "steps": steps,
        }
        for opp, n in deals.items():
            r = evaluate(policy_path, args.rules, opp, n, seed=12345)
            row[f"vs_{opp}"], row[f"ci_{opp}"] = r["points"], r["ci95"]
            row[f"fouls_{opp}"] = r["fouls"]
        curve.append(row)
        print(
            f"[{row['minutes']:6.2f} min {steps:>9} steps {stage:>6}] "
            + "  ".join(
                f"vs {o}: {row[f'vs_{o}']:+.2f} +/- {row[f'ci_{o}']:.2f} "
                f"fouls {100 * row[f'fouls_{o}']:.0f}%"
                for o in deals
            ),
            flush=True,
        )
        clock.resume()

    point("init", CONFIG["eval_deals"])  # the untrained network
    if CONFIG["bc_share"] > 0:
        print(f"behaviour cloning ({args.rules}), budget {args.minutes:g} min", flush=True)
        data_dir = selfplay_data(args, out, clock, bc_until * CONFIG["bc_data_share"])
        try:
            data = selfplay_dataset(data_dir, seed=args.seed)
        except OfcError as exc:  # (--bc-data's manifest was checked, not its shards)
            what = "--bc-data" if args.bc_data else "the self-play data"
            print(f"{Path(sys.argv[0]).name}: error: {what}: {exc}", file=sys.stderr)
            return 1
        print(f"  {len(data['action'])} decisions from {data_dir}", flush=True)
        clone(model, data, clock, bc_until, args.seed)
    point("start", CONFIG["eval_deals"])

    ppo_start = clock.elapsed
    ppo_time = max(1.0, clock.budget - ppo_start)
    chunk = CONFIG["num_envs"] * CONFIG["ppo"]["n_steps"]
    stage, last_eval, last_refresh = "random", clock.elapsed, clock.elapsed
    while clock.elapsed < clock.budget and (args.steps is None or steps < args.steps):
        share = (clock.elapsed - ppo_start) / ppo_time
        want = [opp for at, opp in CONFIG["curriculum"] if share >= at][-1]
        if want != stage or (
            stage == "self" and clock.elapsed - last_refresh > CONFIG["refresh_opponent_s"]
        ):
            if want != stage:
                env = make_env(frozen_policy(model) if want == "self" else want)
                model.set_env(env)
            else:
                env.set_opponent(frozen_policy(model))
            stage, last_refresh = want, clock.elapsed
        model.learn(chunk, reset_num_timesteps=False)
        steps += chunk
        if clock.elapsed - last_eval >= CONFIG["eval_every_s"]:
            point(stage, CONFIG["eval_deals"])
            last_eval = clock.elapsed
    final = dict(CONFIG["final_deals"])
    if args.final_deals is not None:
        final["random"] = args.final_deals
    point("final", final)
    for path in (out / "model.zip", policy_path):  # each records the rules
        export_policy(model, str(path), rules=args.rules, obs_type="features")
    with open(out / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=sorted({k for r in curve for k in r}))
        w.writeheader()
        w.writerows(curve)
    plot(curve, out / "curve.png")
    print(f"training time {clock.elapsed / 60:.2f} min, {steps} PPO steps", flush=True)
    print(policy_path)
    return 0


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    """Points per deal and foul rate over training time."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plot", file=sys.stderr)
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    t = [r["minutes"] for r in curve]
    for opp in ("random", "heuristic"):
        if all(f"vs_{opp}" in r for r in curve):
            a.errorbar(
                t,
                [r[f"vs_{opp}"] for r in curve],
                [r[f"ci_{opp}"] for r in curve],
                label=f"vs {opp}",
                marker="o",
            )
            b.plot(
                t, [100 * r[f"fouls_{opp}"] for r in curve], marker="o", label=f"vs {opp}"
            )
    a.axhline(0, color="grey", lw=0.5)
    a.set(xlabel="training minutes", ylabel="points / deal", title="learning curve")
    b.set(xlabel="training minutes", ylabel="fouls %", title="foul rate")
    a.legend()
    b.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
