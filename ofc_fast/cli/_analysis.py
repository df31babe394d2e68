"""``ofc-fast eval``, ``score``, ``solve``, ``advise``, ``rules`` and ``bench``: the
commands that look at hands, boards and positions (registered by
:func:`add_commands`)."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from .. import rules as rules_mod
from ..board import Board, Row, hand_cards
from ..cards import cards_str, parse_cards
from ..errors import GameError, ModelError, OfcError, RulesError, SearchError
from ..fantasyland import fantasyland_cards
from ..ranking import category, describe, kev_rank, rank
from ..rules import GameKind
from ..scoring.settlement import settle
from ..search import check_settings
from ..table import check_seat
from ._render import EXACT_MODES, WIDTH, cli_advise, cli_solve, solve_json, table
from .options import (
    add_json_option,
    add_rules_option,
    add_stacks_option,
    check_count,
    emit_json,
    is_rules_file,
    json_only,
    load_rules,
    named,
    one_of,
    parse_stacks,
    typed_text,
)

__all__ = ["add_commands", "run_bench"]


def run_eval(args: argparse.Namespace) -> int:
    preset = load_rules(args.rules)  # a hand's rank needs none, a bad --rules is still one
    if "/" in args.cards or "|" in args.cards:
        return eval_board(args, preset)
    ids = named("CARDS", parse_cards, args.cards)
    s = named("CARDS", rank, ids)
    info: dict[str, Any] = {
        "cards": cards_str(ids),
        "strength": s,
        "category": category(s).name,
        "description": describe(s),
    }
    if len(ids) == 5:
        info["kev_rank"] = kev_rank(s)
    if args.json:  # (one shape: every key, kev_rank None for 3 cards; the rules named)
        emit_json(args, {**info, "kev_rank": info.get("kev_rank"), "rules": preset.name})
    if not json_only(args):
        table("Hand", ["field", "value"], list(info.items()))
    return 0


def eval_board(args: argparse.Namespace, preset: rules_mod.RuleSet) -> int:
    board = named("CARDS", Board.parse, args.cards)
    e = named("CARDS", board.evaluate, preset)
    fl = fantasyland_cards(board, preset) if preset.fantasyland is not None else 0
    if args.json:
        emit_json(
            args,
            {
                "board": str(board),
                "rules": preset.name,
                "strengths": list(e.strengths),
                "royalties": list(e.royalties),
                "foul": e.foul,
                "fantasyland": fl,
                "rows": [describe(s) for s in e.strengths],
                # a hand's names for its rows too: eval's one shape (docs/cli.md)
                "cards": cards_str(hand_cards(board)),
                "categories": [category(s).name for s in e.strengths],
                "descriptions": [describe(s) for s in e.strengths],
            },
        )
    if json_only(args):
        return 0
    rows = [
        [
            row.name.lower(),
            cards_str(board.rows[row]),
            describe(e.strengths[row]),
            e.royalties[row],
        ]
        for row in Row
    ]
    table(f"Board ({preset.name})", ["row", "cards", "hand", "royalty"], rows)
    print(
        f"foul: {'yes' if e.foul else 'no'}   royalties: {e.total_royalties}   "
        f"Fantasyland next deal: {fl or 'no'}"
    )
    return 0


def run_score(args: argparse.Namespace) -> int:
    preset = load_rules(args.rules)
    boards = [
        named(f"BOARDS (board {i})", Board.parse, b) for i, b in enumerate(args.boards)
    ]
    stacks = parse_stacks(args.stacks, len(boards))
    named("--button", check_seat, args.button, len(boards), "", "boards")
    result = named("BOARDS", settle, boards, preset, button=args.button, stacks=stacks)
    fl = [
        fantasyland_cards(b, preset) if preset.fantasyland is not None else 0
        for b in boards
    ]
    if args.json:
        emit_json(
            args,
            {
                "rules": preset.name,
                "boards": [str(b) for b in boards],
                "fouls": [b.is_foul(preset) for b in boards],
                "royalties": [list(b.royalties(preset)) for b in boards],
                "fantasyland": fl,
                "net": result.net,
                "stacks": result.stacks,
                "pairs": [
                    {"seats": list(p), "net": s.net, "rows": list(s.rows)}
                    for p, s in result.pairs
                ],
                "items": [i.to_dict() for i in result.items],
            },
        )
    if json_only(args):
        return 0
    rows = []
    for seat, b in enumerate(boards):
        e = b.evaluate(preset)
        for row in Row:
            rows.append(
                [
                    seat if row == Row.FRONT else "",
                    row.name.lower(),
                    cards_str(b.rows[row]),
                    describe(e.strengths[row]),
                    e.royalties[row],
                    "FOUL" if e.foul and row == Row.FRONT else "",
                ]
            )
    table(f"Boards ({preset.name})", ["seat", "row", "cards", "hand", "royalty", ""], rows)
    pairs = [
        [
            f"{i} v {j}",
            " ".join(f"{r:+d}" for r in s.rows),
            s.row_points,
            s.bonus,
            s.net - s.row_points - s.bonus,
            s.net,
        ]
        for (i, j), s in result.pairs
    ]
    table(
        "Pairs (points to the first seat)",
        ["pair", "rows", "row pts", "bonus", "royalties", "net"],
        pairs,
    )
    cols = ["seat", "points", "Fantasyland"]
    net = [[i, f"{n:+d}", fl[i] or "-"] for i, n in enumerate(result.net)]
    if result.stacks is not None:
        cols.append("stack")
        for i, r in enumerate(net):
            r.append(result.stacks[i])
    table("Net", cols, net)
    return 0


def run_rules(args: argparse.Namespace) -> int:
    if args.name is None and args.json not in (None, "-"):
        _check_json_not_a_name(args.json)
    if args.name is not None:  # ("": a NAME, none of the presets, not the list)
        preset = load_rules(args.name, "NAME")  # (a rules file: as it is read)
        if args.json:
            emit_json(args, preset.to_dict())
        if not json_only(args):
            print(preset.to_json(indent=2))
        return 0
    if args.json:
        emit_json(
            args,
            [
                {
                    "name": r.name,
                    "game": r.game.value,
                    "max_players": r.max_players,
                    "description": r.description,
                }
                for r in rules_mod.PRESETS.values()
            ],
        )
    if json_only(args):
        return 0
    table(
        "Rule presets",
        ["name", "game", "seats", "description"],
        [
            [r.name, r.game.value, f"2-{r.max_players}", r.description]
            for r in rules_mod.PRESETS.values()
        ],
    )
    return 0


def run_solve(args: argparse.Namespace) -> int:
    preset = load_rules(args.rules)
    ids = named("CARDS", hand_cards, args.cards, 13, 17)
    if preset.game is GameKind.CLASSIC and len(ids) != 13:
        raise RulesError(
            f"--rules: {preset.name} is classic Chinese Poker, where a hand "
            f"is 13 cards; got {len(ids)} (for a Fantasyland hand of 14-17 "
            f"cards use an OFC or Pineapple preset)"
        )
    if args.json:
        emit_json(args, solve_json(ids, preset))
    if not json_only(args):
        for line in cli_solve(ids, preset).splitlines():
            print(textwrap.fill(line, WIDTH, subsequent_indent=" " * 9))
    return 0


def run_advise(args: argparse.Namespace) -> int:
    check_count("--top", args.top, 0)  # (a negative slice would drop the last moves)
    exact = EXACT_MODES[args.exact]
    if args.model == "":  # (the Python API's words would offer None, a ValueModel)
        raise ModelError(
            '--model: "auto" (the shipped model) or a model file, got an empty name'
        )
    for option, setting in (  # each with --exact: yes takes no sampling setting
        ("--samples", {"samples": args.samples}),
        ("--time", {"time_budget": args.time_budget}),
        ("--seed", {"seed": args.seed}),  # (None: not given, which --exact yes needs)
        ("--model", {"model": args.model}),
    ):
        named(option, check_settings, **setting)  # the value itself
        try:  # then with --exact (the search's rule), worded in the options typed
            check_settings(exact=exact, **setting)
        except SearchError:
            raise SearchError(
                f"{option}: an exact search (--exact yes) samples no future, with no "
                f"value model (a time budget bounds its tree): leave {option} out, "
                "or use --exact auto"
            ) from None
    given = len(args.opponent or [])
    players = args.players if args.players is not None else max(2, 1 + given)
    preset = load_rules(args.rules)
    most = preset.max_players
    if not 2 <= players <= most:
        if args.players is None:  # (the seats the --opponent boards make: no --players)
            raise GameError(
                f"--opponent: {given} opponent boards make {players} seats, and "
                f"{preset.name} seats 2 to {most} players"
            )
        raise GameError(
            f"--players: {preset.name} seats 2 to {most} players, got {players}"
        )
    if given > players - 1:
        raise GameError(
            f"--players {players}: at most {players - 1} --opponent boards, got {given}"
        )
    # the seats not given have placed nothing yet: empty boards (the opening)
    args.opponent = [*(args.opponent or []), *["/ /"] * (players - 1 - given)]
    advice, text = cli_advise(args)  # (--json checked before: ofc-fast's)
    if args.json:
        emit_json(args, [a.as_dict() for a in advice])
    if not json_only(args):
        print(text)
    return 0


def add_advise(sub: Any) -> None:
    a = sub.add_parser(
        "advise",
        help="value every legal move of a position (search)",
        description="Every legal move of seat 0 with its expected points "
        "(sampled futures with best completions; exact on the "
        "last streets when affordable), best first.",
    )
    add_rules_option(a, "PINEAPPLE")
    a.add_argument(
        "--board",
        type=typed_text,
        default="/ /",
        help='own board "front / middle / back": rows split by "/", an empty row '
        'left blank or "-", e.g. "Qh / - / As Ks" (default "/ /": empty)',
    )
    a.add_argument(
        "--dealt",
        type=typed_text,
        required=True,
        help='the cards to place now, e.g. "2c 5d Ts"',
    )
    a.add_argument(
        "--opponent",
        type=typed_text,
        action="append",
        metavar="BOARD",
        help="an opponent's visible board, as --board (repeat per opponent; seats "
        "not given get an empty board, as at the opening)",
    )
    a.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table (default: 2, or one more than the --opponent boards)",
    )
    a.add_argument(
        "--dead", type=typed_text, default="", help="other cards known to be out (discards)"
    )
    a.add_argument(
        "--samples",
        type=int,
        default=None,
        help="sampled futures (default 256, or the time budget)",
    )
    a.add_argument(  # (dest: the search's keyword, which errors name)
        "--time",
        dest="time_budget",
        metavar="SECONDS",
        type=float,
        default=None,
        help="time budget in seconds",
    )
    a.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the samples (default 0; none with --exact yes, which samples nothing)",
    )
    a.add_argument(
        "--exact",
        **one_of("auto", "yes", "no"),
        default="auto",
        help="exact expectimax: when affordable (auto), always (yes: no --samples, "
        "--seed nor --model), never (no) (default auto)",
    )
    a.add_argument(
        "--model",
        default=None,
        help='learned value model in the rollouts: "auto" (the shipped one) or a '
        "model file (default: none, rollouts only)",
    )
    a.add_argument(
        "--top",
        type=int,
        default=0,
        help="print only the best N moves (default 0: every move)",
    )
    add_json_option(
        a,
        "every legal move as JSON: written to PATH, or alone on "
        "standard output without PATH",
    )
    a.set_defaults(func=run_advise, reads=("rules", "model"))  # (not --json)


def run_bench(args: argparse.Namespace) -> int:
    from .. import timing

    return timing.main(args.bench_args)


def _check_json_not_a_name(path: str) -> None:
    """Refuse ``ofc-fast rules --json NAME``, a rule set's name taken as --json's PATH
    (the presets list would be written into a file so named, where the rule set's
    JSON was meant); a path (``./ofc``, ``ofc.json``) is a file, as ``--rules``'s."""
    if is_rules_file(path):
        return
    try:
        rules_mod.get(path)
    except RulesError:
        return
    raise OfcError(
        f"--json: {path!r} is a rule set name, which --json took for its PATH: write "
        f"'ofc-fast rules {path} --json' for its JSON, or --json ./{path} for a file so "
        "named"
    )


def add_commands(sub: Any) -> None:
    """Register ``eval``, ``score``, ``solve``, ``advise``, ``rules`` and ``bench`` on a
    subparsers object."""
    e = sub.add_parser(
        "eval",
        help="rank a 3- or 5-card hand, or evaluate a board",
        description="Strength, category and description of a hand (a high hand "
        "under every --rules: only a 2-7 board's middle ranks low); with a "
        "board 'front / middle / back': each row, royalties, "
        "foul and Fantasyland under --rules.",
    )
    e.add_argument(
        "cards",
        type=typed_text,
        help='cards, e.g. "As Ks Qs Js Ts", "Qh Qd 5c", or a board',
    )
    add_rules_option(e, "OFC")
    add_json_option(e)
    e.set_defaults(func=run_eval)
    s = sub.add_parser(
        "score",
        help="score 2-4 complete boards",
        description="Row by row results, royalties, fouls, Fantasyland and "
        "net points per seat.",
    )
    s.add_argument(
        "boards", type=typed_text, nargs="+", help='boards as "front / middle / back"'
    )
    add_rules_option(s, "OFC")
    s.add_argument("--button", type=int, default=0, help="seat of the button (default 0)")
    add_stacks_option(s)
    add_json_option(s)
    s.set_defaults(func=run_score)
    so = sub.add_parser(
        "solve",
        help="best setting of 13-17 cards (Fantasyland, classic)",
        description="The exact solver: the best setting of a Fantasyland "
        "hand of 13 to 17 cards (with the stay and no-stay "
        "alternatives), or of a classic 13-card hand by "
        "expected points.",
    )
    so.add_argument(
        "cards",
        type=typed_text,
        help='13 to 17 cards, e.g. "Ad Ah Th Jh 6h Ts 5d 3c Tc 3s 7h Qh 3d 9s"',
    )
    add_rules_option(so, "PINEAPPLE")
    add_json_option(so)
    so.set_defaults(func=run_solve)
    add_advise(sub)
    r = sub.add_parser(
        "rules",
        help="list the rule presets or show one",
        description="Without NAME: the presets; with NAME: its JSON. NAME is a "
        "preset or a game id, or a rules JSON file (as --rules takes it), printed as "
        "it is read: every key, the ones left out at their defaults.",
    )
    r.add_argument(
        "name",
        nargs="?",
        help="a preset, game id or rules file (-: standard input) to print as JSON",
    )
    add_json_option(r)
    r.set_defaults(func=run_rules, reads=("name",))  # (not --json)
    b = sub.add_parser(
        "bench",
        help="time ofc-fast's own calls",
        description="Timing of ofc-fast's own calls (ofc_fast/timing.py).",
        add_help=False,
    )
    b.add_argument("bench_args", nargs=argparse.REMAINDER)
    b.set_defaults(func=run_bench)
