r"""Train a value model for a rule set: ``python -m ofc_fast.learned.train``.

Steps (each saved in ``--out``, so running the same command again resumes):

0. *opponent rows* (``--opponent play`` or ``random``): the rows of the clean boards
   finished in ``--opponent-deals`` deals of their own, which the labels price a
   finished board against (carried in the model file);
1. *positions*: deals played by the behaviour policy (HeuristicBot; a random legal
   move with probability ``--epsilon``), every normal decision of every seat;
   held-out deals from another seed range for the report;
2. *labels and fits, backward*: for each board size from the last partial street
   down to the opening, the after-states of the recorded decisions (the move played
   and ``--others`` random legal ones) are labelled with the mean, over
   ``--samples`` draws of the next street, of the best next after-state's value
   (exact on the last street, a Fantasyland entry worth ``--fl-value``; through
   the nets already fitted before it), and a net is fitted to them;
3. *model and report*: the model file ``<rules>-<players>p.ofcvm`` and
   ``report.json`` / ``report.md`` (held-out regret and top-1 agreement per street
   against the teacher, the cost of each step) and ``report.png`` (matplotlib, when
   installed).

Positions, labels and the evaluation run in chunks on the executors of
:mod:`ofc_fast.parallel` (``--workers N``, ``--ray ADDRESS``): the same seed gives
the same model whatever the workers.  Fitting needs the ``learn`` extra (torch).

Example (a tiny run)::

    python -m ofc_fast.learned.train --rules pineapple --seed 1 --deals 40 \\
        --eval-deals 4 --opponent-deals 40 --samples 4 --epochs 2 --out /tmp/model
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # python -m: loaded again under its name, Ctrl-C held
    from ..__main__ import launch

    sys.exit(launch("ofc_fast.learned.train", None, "python -m ofc_fast.learned.train"))

import numpy as np
import numpy.typing as npt

from ..arena import sigterm_as_sigint
from ..cli.options import Parser, check_folder, load_rules, name_option, one_of, split_list
from ..errors import ModelError, OfcError, RulesError, choice, flag, quote
from ..files import atomic_write
from ..parallel import (
    Executor,
    Progress,
    exclusive,
    executor_or_local,
    in_order,
    make_executor,
)
from ..parallel.cli import check_parallel_options
from ..rules import RuleSet, RulesLike, as_rules, unique_keys
from ..solver import StayValue, stay_values
from ..timing import ScriptHelp
from ._data import (
    EvalTask,
    GenTask,
    LabelTask,
    Stay,
    after_state,
    eval_chunk,
    features,
    fl_values,
    gen_chunk,
    label_chunk,
)
from ._fit import c_check, require_torch
from ._report import markdown, read_report, report_files
from ._run import Run, check_outputs, save_run_json
from ._settings import POSITION_BYTES, check_settings, sizes
from .model import ValueModel, model_bytes

__all__ = ["OPPONENTS", "main", "train"]

OPPONENTS = ("play", "random", "typical")
"""What a model's labels value a finished board against: ``"play"``, the rows of the
clean boards the behaviour policy finishes in ``opponent_deals`` deals of its own
(HeuristicBot, no random moves; carried in the model file); ``"random"``, those of
``opponent_deals`` deals of uniformly random legal moves (RandomBot's play; carried
too); ``"typical"``, the library's typical opponent (``ofc_ev_tables_init``)."""
_ROW_EPSILON = {"play": 0.0, "random": 1.0}  # random moves behind each opponent's rows
_OPPONENT_DEALS = 20_000  # train()'s opponent_deals, --opponent-deals when not given
_CHUNK_DEALS = 25
_REPORT_SETTINGS: dict[str, tuple[str, ...]] = {  # changed: these files made again
    "eval_deals": ("heldout.npz", "report.json"),
    **dict.fromkeys(("eval_samples", "eval_limit"), ("report.json",)),
}
_CHUNK_LABELS = 400


def _map(
    ex: Executor,
    fn: Callable[[Any], Any],
    tasks: list[Any],
    what: str,
    progress: bool,
    sizes: Sequence[int],
) -> list[Any]:
    bar = Progress(int(sum(sizes)), enabled=progress, unit=what)
    out = []
    for i, res in enumerate(in_order(ex.map_unordered(fn, tasks))):
        out.append(res)
        bar.advance(int(sizes[i]))
    bar.close()
    return out


def _positions(
    ex: Executor,
    rules: RuleSet,
    players: int,
    seed: int,
    start: int,
    deals: int,
    epsilon: float,
    progress: bool,
    behaviour: bytes | None = None,
    stay: Stay = (),
) -> dict[str, npt.NDArray[Any]]:
    text = rules.to_json()
    tasks = [
        GenTask(
            text,
            players,
            seed,
            a,
            min(a + _CHUNK_DEALS, start + deals),
            epsilon,
            behaviour,
            stay,
        )
        for a in range(start, start + deals, _CHUNK_DEALS)
    ]
    parts = _map(ex, gen_chunk, tasks, "deals", progress, [t.stop - t.start for t in tasks])
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "rows"}
    out["rows"] = np.sum([p["rows"] for p in parts], axis=0)
    return out


def _after_states(
    pos: dict[str, npt.NDArray[Any]], cards: int, others: int, seed: int
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """After-states with ``cards`` cards: the move played and up to ``others`` random
    legal ones per decision."""
    from ..game import actions_for

    rng = np.random.default_rng([seed, cards])
    boards, dead = [], []
    placed = (pos["board"] != 0xFF).sum(1)
    keep = placed + pos["n"] - pos["k"] == cards
    for j in np.flatnonzero(keep):
        n, k = int(pos["n"][j]), int(pos["k"][j])
        board, dealt = bytes(pos["board"][j]), bytes(pos["dealt"][j][:n])
        rows = [[c for c in board[s:e] if c != 0xFF] for s, e in ((0, 3), (3, 8), (8, 13))]
        legal = [a for a in actions_for(n, rows, k) if a != int(pos["played"][j])]
        pick = [int(pos["played"][j])]
        pick += [int(a) for a in rng.permutation(legal)[:others]]
        for a in pick:
            b, d = after_state(board, dealt, k, a, int(pos["dead"][j]))
            boards.append(np.frombuffer(b, np.uint8))
            dead.append(d)
    return np.array(boards, np.uint8).reshape(-1, 13), np.array(dead, np.uint64)


def _labels(
    ex: Executor,
    rules: RuleSet,
    players: int,
    model: bytes | None,
    boards: npt.NDArray[Any],
    dead: npt.NDArray[Any],
    seed: int,
    samples: int,
    progress: bool,
    opponent: bytes | None,
    stay: Stay,
) -> npt.NDArray[Any]:
    text = rules.to_json()
    tasks = [
        LabelTask(
            text,
            players,
            model,
            boards[a : a + _CHUNK_LABELS],
            dead[a : a + _CHUNK_LABELS],
            seed,
            a,
            samples,
            opponent if model is None else None,
            stay,
        )
        for a in range(0, len(boards), _CHUNK_LABELS)
    ]
    parts = _map(ex, label_chunk, tasks, "labels", progress, [len(t.boards) for t in tasks])
    return np.concatenate(parts) if parts else np.zeros(0)


def _evaluate(
    ex: Executor,
    rules: RuleSet,
    players: int,
    model: bytes,
    held: dict[str, npt.NDArray[Any]],
    cards: int,
    seed: int,
    samples: int,
    limit: int,
    progress: bool,
    stay: Stay,
) -> dict[str, float | None]:
    placed = (held["board"] != 0xFF).sum(1)
    idx = np.flatnonzero(placed + held["n"] - held["k"] == cards)[:limit]
    text = rules.to_json()
    tasks = [
        EvalTask(
            text,
            players,
            model,
            model,
            held["board"][c],
            held["dealt"][c],
            held["n"][c],
            held["k"][c],
            held["dead"][c],
            seed,
            int(a),
            samples,
            stay,
        )
        for a in range(0, len(idx), 50)
        for c in [idx[a : a + 50]]
    ]
    parts = _map(
        ex, eval_chunk, tasks, "decisions", progress, [len(t.board) for t in tasks]
    )
    res = np.concatenate(parts) if parts else np.zeros((0, 2))
    n = len(res)
    regret, agree = res[:, 0], res[:, 1]

    def ci(v: npt.NDArray[Any]) -> float | None:  # (below two decisions there is none)
        return float(1.96 * v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else None

    return {
        "decisions": n,
        "regret": float(regret.mean()) if n else 0.0,
        "regret_ci95": ci(regret),
        "top1": float(agree.mean()) if n else 0.0,
        "top1_ci95": ci(agree),
    }


def _nets_of(
    saved: dict[int, dict[str, npt.NDArray[Any]]],
) -> list[tuple[int, list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]]]:
    return [(cards, _layers(saved[cards])) for cards in sorted(saved)]


def _layers(
    net: dict[str, npt.NDArray[Any]],
) -> list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]:
    """A net step's layers, (weights, biases) each."""
    return [(net[f"w{i}"], net[f"b{i}"]) for i in range(int(net["layers"]))]


def _net(net: dict[str, npt.NDArray[Any]]) -> object:
    """A net step's arrays as the run reads them (Run.step's ``read``)."""
    return _layers(net), json.loads(str(net["summary"])), net["check_x"], net["check_y"]


def _named(*names: str) -> Callable[[dict[str, npt.NDArray[Any]]], object]:
    """Run.step's ``read`` of a step of arrays ``names``."""
    return lambda arrays: [arrays[k] for k in names]


_POSITIONS = _named("board", "dealt", "n", "k", "dead", "played", "deal", "rows")


def _backward(
    run: Run,
    ex: Executor,
    rules: RuleSet,
    players: int,
    pos: dict[str, npt.NDArray[Any]],
    tag: str,
    seed: int,
    samples: int,
    others: int,
    hidden: tuple[int, ...],
    epochs: int,
    say: Callable[[str], None],
    progress: bool,
    opponent: npt.NDArray[Any] | None,
    stay: Stay,
) -> tuple[dict[int, dict[str, npt.NDArray[Any]]], dict[str, Any]]:
    """Labels and nets of one round, from the last partial street back to the
    opening (steps ``labels-<cards><tag>``, ``net-<cards><tag>``)."""
    from ._fit import fit

    saved: dict[int, dict[str, npt.NDArray[Any]]] = {}
    fits: dict[str, Any] = {}
    opp = None if opponent is None else opponent.tobytes()
    for cards in reversed(sizes(rules)):
        partial = model_bytes(_nets_of(saved), rules, players, opponent) if saved else None
        say(f"labels: {cards}-card after-states")

        def labelled(
            cards: int = cards, partial: bytes | None = partial
        ) -> dict[str, npt.NDArray[Any]]:
            boards, dead = _after_states(
                pos, cards, others if cards > 5 else 2 * others + 1, seed
            )
            y = _labels(
                ex,
                rules,
                players,
                partial,
                boards,
                dead,
                seed + cards,
                samples,
                progress,
                opp,
                stay,
            )
            return {"boards": boards, "dead": dead, "y": y}

        lab = run.step(f"labels-{cards}{tag}", labelled, _named("boards", "dead", "y"))

        def fitted(
            cards: int = cards, lab: dict[str, npt.NDArray[Any]] = lab
        ) -> dict[str, npt.NDArray[Any]]:
            x = features(rules, players, lab["boards"], lab["dead"], opp)
            layers, summary, check_y = fit(
                x, lab["y"], seed=seed + cards, hidden=hidden, epochs=epochs, check=x[:2000]
            )
            arrays: dict[str, npt.NDArray[Any]] = {"layers": np.array(len(layers))}
            for i, (w, b) in enumerate(layers):
                arrays[f"w{i}"], arrays[f"b{i}"] = w, b
            arrays["summary"] = np.array(json.dumps(summary))
            arrays["check_x"], arrays["check_y"] = x[:2000], check_y
            return arrays

        say(f"fit: {cards}-card net")
        saved[cards] = run.step(f"net-{cards}{tag}", fitted, _net)
        fits[str(cards)] = json.loads(str(saved[cards]["summary"]))
    return saved, fits


def train(
    rules: RulesLike,
    out: str | Path,
    *,
    players: int = 2,
    seed: int = 1,
    deals: int = 4000,
    eval_deals: int = 200,
    samples: int = 16,
    others: int = 2,
    epsilon: float = 0.15,
    epochs: int = 40,
    hidden: tuple[int, ...] = (64, 64),
    eval_samples: int = 16,
    eval_limit: int = 300,
    rounds: int = 1,
    opponent: str = "play",
    opponent_deals: int = _OPPONENT_DEALS,
    fl_value: StayValue = None,
    executor: Executor | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run (or resume) every step; returns the report (see the module doc).  A run
    with more ``rounds`` extends a finished one with fewer (the config leaves them
    out).  ``fl_value``: what a Fantasyland entry is worth in the labels, as
    :func:`ofc_fast.solver.stay_values` reads it (None: the rules' default)."""
    rules = as_rules(rules, "train")
    check_settings(
        rules,
        players,
        seed=seed,
        deals=deals,
        eval_deals=eval_deals,
        samples=samples,
        others=others,
        epsilon=epsilon,
        epochs=epochs,
        hidden=hidden,
        eval_samples=eval_samples,
        eval_limit=eval_limit,
        rounds=rounds,
        opponent_deals=opponent_deals,
    )
    progress = flag(progress, "progress", ModelError)  # ("no" was a true flag)
    # Python numbers: NumPy ones (a sweep's np.arange) fail in config.json, seed sums
    players, seed, rounds, others = int(players), int(seed), int(rounds), int(others)
    deals, eval_deals, samples = int(deals), int(eval_deals), int(samples)
    epochs, eval_samples, eval_limit = int(epochs), int(eval_samples), int(eval_limit)
    epsilon, hidden = float(epsilon), tuple(int(h) for h in hidden)
    opponent_deals = int(opponent_deals)
    opponent = choice(opponent, OPPONENTS, "opponent", error=ModelError)  # any case
    stay = _stay(rules, fl_value)
    if not isinstance(out, (str, Path)):  # (None, 3: a folder of that text was made)
        raise ModelError(f"out: a folder's path is text, got {quote(out)}")
    out = str(out)
    if not out.strip():  # (an unset shell variable: not the current folder)
        raise ModelError("out: a folder is needed, got an empty name")
    executor_or_local(executor)  # (before the folder is made, with or without torch)
    require_torch()  # the fits': before any step, not after the first labels
    config = {
        "rules": rules.to_dict(),
        "players": players,
        "seed": seed,
        "deals": deals,
        "eval_deals": eval_deals,
        "samples": samples,
        "others": others,
        "epsilon": epsilon,
        "epochs": epochs,
        "hidden": list(hidden),
        "eval_samples": eval_samples,
        "eval_limit": eval_limit,
        "opponent": opponent,
        "opponent_deals": opponent_deals if opponent in _ROW_EPSILON else 0,
        "format": 2,
    }
    if stay:  # only when set: runs from before the setting still resume
        config["fl_value"] = list(stay)
    steps = ["positions", "heldout", *(["opponent"] if opponent in _ROW_EPSILON else [])]
    for tag in ["", *(f"-r{r}" for r in range(2, rounds + 1))]:
        steps += [f"{k}-{c}{tag}" for c in sizes(rules) for k in ("labels", "net")]
        steps += [f"positions{tag}"] if tag else []
    files = ["config.json", "cost.json", _file_name(rules, players), "report.json"]
    check_outputs(
        Path(out), [*files, "report.md", "report.png", *(f"{s}.npz" for s in steps)]
    )
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # (a file of that name, a folder that takes none)
        raise ModelError(f"out: cannot make the folder {out!r}: {exc.strerror}") from None
    with exclusive(Path(out), run="training", error=ModelError):
        run = Run(Path(out), config, _REPORT_SETTINGS)
        run.check_rounds(rounds)
        ex = executor_or_local(executor)

        def say(message: str) -> None:
            if progress:
                print(message, file=sys.stderr, flush=True)

        rows = None  # step 0: a run that finds none stops before its positions
        if opponent in _ROW_EPSILON:
            say("opponent rows")
            rows = run.step(
                "opponent",
                lambda: {
                    "rows": _positions(
                        ex,
                        rules,
                        players,
                        seed + 2_000_003,
                        0,
                        opponent_deals,
                        _ROW_EPSILON[opponent],
                        progress,
                    )["rows"]
                },
                _named("rows"),
            )["rows"].astype(np.uint32)
            if not rows.any():
                raise ModelError(
                    f"the {opponent_deals} '{opponent}' opponent deals finished no clean "
                    "board to take rows from: raise --opponent-deals, with another --out "
                    f"({run.out} holds this run's settings)"
                )
        say("positions")
        pos = run.step(
            "positions",
            lambda: _positions(ex, rules, players, seed, 0, deals, epsilon, progress),
            _POSITIONS,
        )
        held = run.step(
            "heldout",
            lambda: _positions(
                ex, rules, players, seed + 1_000_003, 0, eval_deals, epsilon, progress
            ),
            _POSITIONS,
        )
        saved: dict[int, dict[str, npt.NDArray[Any]]] = {}  # the last round's nets
        rounds_pos = [pos]
        for r in range(1, rounds + 1):
            tag = "" if r == 1 else f"-r{r}"
            if r > 1:
                behaviour = model_bytes(_nets_of(saved), rules, players, rows)
                say(f"round {r}: positions played by the round {r - 1} model")

                def played(r: int = r, b: bytes = behaviour) -> dict[str, npt.NDArray[Any]]:
                    start = (r - 1) * deals
                    return _positions(
                        ex, rules, players, seed, start, deals, epsilon, progress, b, stay
                    )

                rounds_pos.append(run.step(f"positions{tag}", played, _POSITIONS))
            every = {
                k: np.concatenate([p[k] for p in rounds_pos]) for k in pos if k != "rows"
            }
            saved, fits = _backward(
                run,
                ex,
                rules,
                players,
                every,
                tag,
                seed,
                samples,
                others,
                hidden,
                epochs,
                say,
                progress,
                rows,
                stay,
            )
        data = model_bytes(_nets_of(saved), rules, players, rows)
        name = _file_name(rules, players)
        atomic_write(run.out / name, data)
        model = ValueModel.from_bytes(data, name.rsplit(".", 1)[0])
        report_path = run.out / "report.json"
        done = read_report(report_path) if report_path.exists() else {}
        if done.get("model") == model.name:  # written last: this model's report is done
            report_files(done, run.out, say, missing=True)
            return done
        say("held-out evaluation")
        t0 = time.perf_counter()
        streets = {
            str(c): _evaluate(
                ex,
                rules,
                players,
                data,
                held,
                c,
                seed + 7,
                eval_samples,
                eval_limit if c > 5 else max(1, eval_limit // 10),
                progress,
                stay,
            )
            for c in sizes(rules)
        }
        run.cost["evaluation"] = round(time.perf_counter() - t0, 2)
        report = {
            "model": model.name,
            "file": name,
            "rounds": rounds,
            "rules": rules.name,
            "players": players,
            "fl_value": fl_values(rules, stay)[13:],
            "streets": streets,
            "fits": fits,
            "cost_seconds": run.cost,
            "total_seconds": round(sum(run.cost.values()), 1),
            "c_vs_fit_max_abs_diff": c_check(model, saved),
        }
        report_files(report, run.out, say)
        save_run_json(report_path, report)
        return report


_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]|^\.')


_NAME_BYTES = 255  # the most bytes file systems allow a file's name


def _file_name(rules: RuleSet, players: int) -> str:
    r"""``<rules name>-<players>p.ofcvm`` in ``--out``, lower case, ``_`` for each
    character a file name cannot hold, that leads elsewhere (``/``, ``\``, a leading
    ``.``) or is not printable (the stem names the model): a rules name is any text.
    A name past the 255 bytes a file name may hold in UTF-8 (64 characters of four
    bytes) keeps the whole characters that fit before its ending."""
    name = _UNSAFE.sub("_", "".join(c if c.isprintable() else "_" for c in rules.name))
    end = f"-{players}p.ofcvm"
    room = _NAME_BYTES - len(end.encode())
    stem = name.lower().encode()[:room].decode("utf-8", "ignore")  # (no half character)
    return stem + end


def _stay(rules: RuleSet, fl_value: StayValue) -> Stay:
    """The five Fantasyland values of ``fl_value``; () for the rules' default.  Rules
    without Fantasyland refuse any ``fl_value``: no label would count it."""
    if fl_value is not None and rules.fantasyland is None:
        raise ModelError(
            f"fl_value: {rules.name} has no Fantasyland, so no label counts its worth; "
            f"leave fl_value out, got {quote(fl_value)}"
        )
    try:
        five = tuple(stay_values(rules, fl_value))
    except OfcError as exc:
        raise ModelError(str(exc).replace("stay_value", "fl_value")) from None
    return () if fl_value is None or five == tuple(stay_values(rules)) else five


def _hidden_arg(text: str) -> tuple[int, ...]:
    """``--hidden``: comma-separated layer widths (their range: checked later)."""
    widths = split_list("--hidden", text, "layer width", ModelError)
    try:
        return tuple(int(h) for h in widths)
    except ValueError:
        raise ModelError(
            f"--hidden: comma-separated layer widths, got {text[:40]!r}"
        ) from None


def _stay_arg(text: str) -> StayValue:
    """``--fl-value``: a number, or a JSON object ``{"14": 10.5, ...}``, its keys as
    written: :func:`ofc_fast.solver.stay_values` reads them as it reads
    ``fl_value=`` everywhere (int() made '{"14": 1, "014": 2}' one count, the last
    value kept without a word, as json.loads keeps a key given twice)."""
    with suppress(ValueError):
        return float(text)
    try:
        raw = json.loads(text, object_pairs_hook=unique_keys)
        if not isinstance(raw, dict):
            raise ValueError
        return dict(raw)
    except RulesError as exc:  # (a key given twice: unique_keys)
        raise ModelError(f"--fl-value: {exc}") from None
    except ValueError:
        raise ModelError(
            f'--fl-value: a number or a JSON object {{"14": 10.5, ...}}, got {text!r}'
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module doc)."""
    p = Parser(  # (its options by train()'s keywords: errors name the option)
        prog="python -m ofc_fast.learned.train",
        description="Train a value model for a rule set.",
        formatter_class=ScriptHelp,  # (each option's default said)
    )
    p.add_argument("--rules", default="pineapple", help="a preset or a rules JSON file")
    p.add_argument("--players", type=int, default=2, help="seats at each table")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and fits")
    p.add_argument("--out", required=True, help="output directory (resumed when it exists)")
    p.add_argument(
        "--deals",
        type=int,
        default=4000,
        help="training deals played (their positions, as those of --eval-deals and "
        f"--opponent-deals, are held in memory at once, {POSITION_BYTES} bytes a "
        "decision: counts this machine's memory, or its container's cgroup limit, "
        "cannot hold are refused)",
    )
    p.add_argument("--eval-deals", type=int, default=200, help="held-out deals")
    p.add_argument("--samples", type=int, default=16, help="draws per label")
    p.add_argument(
        "--others", type=int, default=2, help="random moves labelled per decision"
    )
    p.add_argument("--epsilon", type=float, default=0.15, help="behaviour's random moves")
    p.add_argument("--epochs", type=int, default=40, help="passes over the labels per fit")
    p.add_argument("--hidden", default="64,64", help="hidden layer widths")
    p.add_argument(
        "--eval-samples", type=int, default=16, help="draws per teacher label, held out"
    )
    p.add_argument(
        "--eval-limit",
        type=int,
        default=300,
        help="held-out decisions evaluated per street (the opening: a tenth of them, "
        "at least 1)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds (1..100); each after the first adds --deals played by the last model",
    )
    p.add_argument(
        "--opponent",
        **one_of(*OPPONENTS),
        default="play",
        help="value finished boards against the rows of HeuristicBot's own play "
        "('play'), of random play ('random') or the library's typical opponent "
        "('typical')",
    )
    p.add_argument(
        "--opponent-deals",
        type=int,
        default=None,
        help=f"deals behind 'play' and 'random' rows (default {_OPPONENT_DEALS:,})",
    )
    p.add_argument(
        "--fl-value",
        default=None,
        help="a Fantasyland entry's worth in the labels: a number, or a JSON object "
        "by next Fantasyland cards, '{\"14\": 10.5}' (default: the rules' stay values)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes (default 1; with --ray local: the local cluster's CPUs, "
        "default all)",
    )
    p.add_argument("--ray", default=None, help="a Ray address ('auto', 'local')")
    p.set_defaults(chunk_size=None)  # (no --chunk-size: the steps' chunks are fixed)
    p.add_argument(
        "--quiet", action="store_true", help="no progress lines, the report only"
    )
    a = p.parse_args(argv)
    try:
        rules = load_rules(a.rules)
        check_folder("--out", a.out, ModelError)  # (as selfplay's: no folder named -)
        hidden = _hidden_arg(a.hidden)
        if not 2 <= a.players <= rules.max_players:  # (before the workers start)
            raise ModelError(f"--players: must be 2..{rules.max_players}, got {a.players}")
        check_parallel_options(a, planned=False)  # (as every --workers and --ray)
        deals = a.opponent_deals
        if deals is not None and a.opponent == "typical":  # (it was ignored)
            raise ModelError("--opponent-deals: only with --opponent play or random")
        with sigterm_as_sigint(), make_executor(a.workers, a.ray) as ex:  # kill: Ctrl-C
            report = train(
                rules,
                a.out,
                players=a.players,
                seed=a.seed,
                deals=a.deals,
                eval_deals=a.eval_deals,
                samples=a.samples,
                others=a.others,
                epsilon=a.epsilon,
                epochs=a.epochs,
                hidden=hidden,
                eval_samples=a.eval_samples,
                eval_limit=a.eval_limit,
                rounds=a.rounds,
                opponent=a.opponent,
                opponent_deals=_OPPONENT_DEALS if deals is None else deals,
                fl_value=None if a.fl_value is None else _stay_arg(a.fl_value),
                executor=ex,
                progress=not a.quiet,
            )
    except (OfcError, ValueError, OSError) as exc:
        print(f"error: {name_option(str(exc), p.options)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # (before train() made --out: torch loading, say)
        saved = os.path.isfile(os.path.join(a.out, "config.json"))  # (no OSError)
        print(
            f"interrupted: the finished steps are saved in {a.out}; run the same "
            "command again to resume"
            if saved
            else f"interrupted before the first step: nothing was saved in {a.out}",
            file=sys.stderr,
        )
        return 130
    print(markdown(report))
    return 0
