"""benchmarks/bench_value.py's bots with a model file (``value@PATH``,
``search@PATH``) play that model: the shipped file given by path plays exactly as
the shipped default, another model does not; ``--compare`` plays a second bot in A's
place on the same deals, against the same opponent boards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from scripts import checkout_script, usage_error
from test_learned import random_nets

from ofc_fast import rules
from ofc_fast.bots import SearchBot, ValueBot
from ofc_fast.errors import BotError
from ofc_fast.learned import MODEL_DIR, model_bytes


def _bench() -> ModuleType:
    return checkout_script("benchmarks/bench_value.py")


def test_model_file_bots() -> None:
    bench = _bench()
    path = str(MODEL_DIR / "pineapple-2p.ofcvm")
    value, search = (
        bench.make(f"value@{path}", 1, 0.04),
        bench.make(f"search@{path}", 1, 0.04),
    )
    assert isinstance(value, ValueBot) and value.model == path
    assert isinstance(search, SearchBot) and search.settings()["model"] == path


def test_a_model_file_against_itself_is_even_and_another_model_is_not(
    tmp_path: Path,
) -> None:
    bench = _bench()
    path = str(MODEL_DIR / "pineapple-2p.ofcvm")
    job = (f"value@{path}", "value", 3, 0, 0.04, "pineapple", 2, 0)
    net = bench.pair(job)["net"]  # A's net in each seat, the same deal
    assert len(net) == 2 and net[0] + net[1] == 0  # the same model: a pair sums to 0
    other = tmp_path / "other.ofcvm"
    other.write_bytes(model_bytes(random_nets(4), rules.PINEAPPLE, 2))
    pairs = [
        sum(bench.pair((f"value@{other}", "value", 3, i, 0.04, "pineapple", 2, 0))["net"])
        for i in range(4)
    ]
    assert any(p != 0 for p in pairs)


def test_compare_the_same_bot_is_exactly_even(tmp_path: Path) -> None:
    bench = _bench()
    out = tmp_path / "c.json"
    argv = ["--pairs", "4", "--match", "value:random", "--compare", "value"]
    assert bench.main([*argv, "--carry", "2", "--json", str(out)]) == 0
    c = json.loads(out.read_text())["compare"]
    assert c["a_minus_c"] == 0 and c["normal_deals"]["a_minus_c"] == 0
    assert c["c_minus_b"] == json.loads(out.read_text())["a_minus_b"]


def test_compare_meets_the_same_random_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """RandomBot plays the same moves whichever bot sits across: the comparison is
    deal by deal against the same opponent boards."""
    bench = _bench()
    make = bench.make
    moves: dict[str, list[Any]] = {}
    first = ""

    class Recorded:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def act(self, obs: Any) -> Any:
            move = self.bot.act(obs)
            moves.setdefault(first, []).append(move)
            return move

    def recorded(name: str, seed: int, budget: float) -> Any:
        bot = make(name, seed, budget)
        return Recorded(bot) if name == "random" else bot

    monkeypatch.setattr(bench, "make", recorded)
    for first in ("value", "heuristic"):
        nets = [
            bench.pair((first, "random", 5, i, 0.04, "pineapple", 2, 0))["net"]
            for i in range(3)
        ]
        assert len(nets) == 3
    assert moves["value"] == moves["heuristic"] and len(moves["value"]) > 20


def test_search_oracle_sees_the_opponents_real_final_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bench = _bench()
    seen: list[Any] = []
    act = bench._Oracle.act

    def recorded(self: Any, obs: Any) -> Any:
        seen.append(self.final)
        return act(self, obs)

    monkeypatch.setattr(bench._Oracle, "act", recorded)
    out = bench.pair(("search-oracle", "random", 3, 0, 0.002, "pineapple", 2, 1))
    assert len(out["net"]) == 2 and seen  # play() checks each final board it was told
    assert all(sum(len(r) for r in board) == 13 for board in seen)
    # an opponent in Fantasyland sets its board face down: the oracle shows it anyway
    seen.clear()
    bench.pair(("search-oracle", "random", 31, 293, 0.002, "pineapple", 2, 8))
    assert len(seen) > 5


def test_search_oracle_refuses_a_wrong_board_and_other_opponents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bench = _bench()
    with pytest.raises(BotError, match="against random only"):
        bench.pair(("search-oracle", "heuristic", 3, 0, 0.002, "pineapple", 2, 0))
    real = bench._final_board

    def reordered(deal: Any, bot: Any, seat: int) -> Any:
        front, middle, back = real(deal, bot, seat)
        return [front, middle, [*back[1:], back[0]]]  # the same cards, another order

    monkeypatch.setattr(bench, "_final_board", reordered)
    with pytest.raises(RuntimeError, match="differs from its oracle"):
        bench.pair(("search-oracle", "random", 3, 0, 0.002, "pineapple", 2, 0))


def test_one_deal_pair_prints_without_an_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = _bench()
    argv = [
        "--pairs",
        "1",
        "--carry",
        "1",
        "--match",
        "value:random",
        "--compare",
        "heuristic",
    ]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert (
        "+- nan points/deal (normal deals alone" in out and "the normal deals alone" in out
    )


BAD_MATCHES = [
    (["--match", "value"], "--match: expected A:B, two bot names, got 'value'"),
    (["--match", "value:"], "--match: expected A:B, two bot names, got 'value:'"),
    (["--match", "foo:heuristic"], "--match: unknown bot 'foo'"),
    (["--compare", "nope"], "--compare: unknown bot 'nope'"),
    (["--match", "value@/no/such.ofcvm:random"], "--match: value bot: value model"),
    (["--match", "search-oracle:heuristic"], "--match: search-oracle plays heads-up"),
    (
        ["--rules", "pineapple-27", "--match", "heuristic:value"],
        "--match: value bot: no value model ships for PINEAPPLE_27; play another bot",
    ),
    (["--carry", "-1"], "argument --carry: must be at least 0, got -1"),
    (["--budget", "-1"], "argument --budget: must be seconds above 0, got -1"),
    (["--budget", "nan"], "argument --budget: must be seconds above 0, got nan"),
]


@pytest.mark.parametrize(("argv", "why"), BAD_MATCHES)
def test_a_bad_bot_or_setting_is_refused_before_the_run(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--match value`` (no ':') ended with "unknown bot ''" and exit status 1, an
    unknown bot name (in a worker too) with exit status 1 naming no option, a model
    file that is not there, a value bot under rules no model ships for and ``--budget
    -1`` (a search bot) in a traceback after the first deals, ``--carry -1`` in an
    IndexError one."""
    out, err = usage_error(capsys, _bench().main, ["--pairs", "1", *argv])
    assert out == "" and "Traceback" not in err
    assert f"error: {why}" in err and len(err.strip().splitlines()[-1]) < 400


@pytest.mark.parametrize(
    ("match", "sides"),
    [
        ("value:heuristic", ("value", "heuristic")),
        ("value@C:\\m.ofcvm:random", ("value@C:\\m.ofcvm", "random")),
        ("random:search@D:\\x\\n.ofcvm", ("random", "search@D:\\x\\n.ofcvm")),
        (
            "search@C:\\a.ofcvm:value@D:\\b.ofcvm",
            ("search@C:\\a.ofcvm", "value@D:\\b.ofcvm"),
        ),
        ("value@/m/new.ofcvm:search", ("value@/m/new.ofcvm", "search")),
        ("foo:heuristic", ("foo", "heuristic")),  # (make() then names the unknown bot)
    ],
)
def test_match_splits_between_two_bots_not_at_a_drive_letter(
    match: str, sides: tuple[str, str]
) -> None:
    r"""``--match value@C:\m.ofcvm:random`` (a Windows model path) split at the
    drive letter's colon: bot ``value@C`` against ``\m.ofcvm:random``."""
    assert _bench().split_match(match) == sides


def test_a_drive_letter_model_path_is_named_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The model path of ``--match`` is read as given, drive letter and all."""
    argv = ["--pairs", "1", "--match", "value@C:\\no\\such.ofcvm:random"]
    _, err = usage_error(capsys, _bench().main, argv)
    assert "error: --match: value bot: value model" in err
    assert repr("C:\\no\\such.ofcvm")[1:-1] in err  # (the path, as the error quotes it)


@pytest.mark.parametrize(("preset", "decisions"), [("classic-1-6", 1), ("pineapple", 5)])
def test_every_decision_of_a_normal_deal_is_timed(
    preset: str, decisions: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rules classic-1-6`` (a classic hand is one decision setting all 13 cards)
    timed no decision at all, and the run ended, after every deal, in ``TypeError:
    unsupported format string passed to NoneType.__format__`` printing the median.
    A seat decides once a classic deal, five times a Pineapple one (5, then 4 x 3)."""
    bench = _bench()
    out = bench.pair(("heuristic", "random", 3, 0, 0.04, preset, 2, 1))
    assert len(out["ms_a"]) == len(out["ms_b"]) == 2 * decisions  # A in either seat
    argv = ["--pairs", "1", "--match", "heuristic:random", "--rules", preset]
    assert bench.main([*argv, "--carry", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[-2:]] == ["heuristic", "random"]
    assert all(re.search(r" median \d+\.\d\d ms  p90 \d+\.\d\d ms$", x) for x in lines[-2:])
