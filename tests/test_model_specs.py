"""A trained model file played from every place that makes bots by name:
``value@PATH`` / ``search@PATH`` (the registry's specs: ValueBot / SearchBot with
``model=PATH``) in ``make_bot``, ``make_bots``, ``play --bots``, the arena's
``--bot``, ``ofc-fast bot`` and the environments' opponents; never over HTTP.
Before, none of them took a model file (only the Python call ``ValueBot(model=PATH)``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from ofc_fast import advise, cli, rules
from ofc_fast.arena import Arena, parse_bot_spec
from ofc_fast.arena.client import play_bot
from ofc_fast.bots import SearchBot, ValueBot, make_bot, make_bots, register
from ofc_fast.bots.registry import is_bot_spec
from ofc_fast.errors import ArenaError, BotError, BotModelError, ModelError, OfcError
from ofc_fast.game import Game, play_out
from ofc_fast.learned import MODEL_DIR
from ofc_fast.learned.model import FEATURES, write_model

SHIPPED = MODEL_DIR / "pineapple-2p.ofcvm"


@pytest.fixture()
def model(tmp_path: Path) -> Path:
    """A copy of the shipped 2-seat Pineapple model under a name with a colon and
    capitals (kept as given: a path is no registry name)."""
    path = tmp_path / "Home:v2.ofcvm"
    shutil.copy(SHIPPED, path)
    return path


def _moves(bots: list[object], seed: int = 5) -> list[str]:
    game = Game(rules.PINEAPPLE, 2, seed=seed)
    seen: list[str] = []
    while game.to_act is not None:
        seat = game.to_act
        move = bots[seat].act(game.observation(seat))  # type: ignore[attr-defined]
        seen.append(str(move))
        game.play(move)
    return seen


@pytest.mark.parametrize(("kind", "cls"), [("value", ValueBot), ("search", SearchBot)])
def test_a_model_spec_makes_the_bot_with_that_model_file(
    model: Path, kind: str, cls: type
) -> None:
    """``make_bot("value@PATH")`` is ``ValueBot(model=PATH)`` (the same moves), its
    name the registry's, its settings naming the file: made again from
    ``(bot.name, bot.settings())`` it is the same bot."""
    kw = {"samples": 4, "time_budget": None} if kind == "search" else {}
    bot = make_bot(f"{kind}@{model}", "pineapple", 7, **kw)
    reference = cls(rules.PINEAPPLE, 7, model=str(model), **kw)
    assert isinstance(bot, cls) and bot.name == kind
    assert bot.settings()["model"] == str(model)
    again = make_bot(bot.name, "pineapple", 7, **bot.settings())
    assert again.settings() == bot.settings()
    other = make_bot("random", seed=1)
    assert _moves([bot, other]) == _moves([reference, make_bot("random", seed=1)])
    assert _moves([again, make_bot("random", seed=1)]) == _moves(
        [cls(rules.PINEAPPLE, 7, model=str(model), **kw), make_bot("random", seed=1)]
    )


def test_model_specs_in_make_bots_and_their_errors(model: Path, tmp_path: Path) -> None:
    """``make_bots`` takes the spec among comma-separated names (a colon in the path
    is the path's); a missing or damaged file, or a model of other seats, is a
    BotModelError naming the file when the bot is made; a ``model=`` setting beside
    the spec's own is refused; no bot can be registered under such a name."""
    bots = make_bots(f"value@{model},heuristic", 2, "pineapple", seed=1)
    assert [b.name for b in bots] == ["value", "heuristic"]
    assert len(play_out(Game(rules.PINEAPPLE, 2, seed=2), bots).net) == 2
    damaged = tmp_path / "damaged.ofcvm"
    damaged.write_bytes(b"not a model")
    for path, why in (
        (tmp_path / "nope.ofcvm", "cannot read"),
        (damaged, "truncated"),
    ):
        with pytest.raises(BotModelError, match=rf"value bot: .*{path.stem}\.ofcvm.*{why}"):
            make_bot(f"value@{path}", "pineapple", seed=1)
    with pytest.raises(BotModelError, match=r"Home:v2\.ofcvm.*for 2 players, not 3"):
        make_bots(f"search@{model}", 3, "pineapple", seed=1)
    with pytest.raises(BotError, match="give no model= setting"):
        make_bot(f"value@{model}", model="auto")
    with pytest.raises(BotError, match=r"bad settings \['samples'\]"):
        make_bot(f"value@{model}", samples=3)
    assert is_bot_spec(f"value@{model}") and is_bot_spec("Search@C:\\m.ofcvm")
    assert not is_bot_spec("value@") and not is_bot_spec("heuristic@x")
    with pytest.raises(BotError, match="value@PATH"):
        register("value@mine", lambda rules=None, seed=None: make_bot("random"))


def test_play_bots_takes_a_model_spec_keeping_its_case(
    model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --bots value@PATH`` lowercased the path (``home:v2.ofcvm``: no such
    file) and knew no such bot; now the model plays, named as given; a missing
    file is a usage error naming it."""
    plain = model.parent / "Home.ofcvm"  # (no colon in it: no spec to the old check)
    shutil.copy(model, plain)
    argv = ["play", "--rules", "pineapple", "--players", "2", "--hands", "1"]
    for path in (plain, model):
        code = cli.main([*argv, "--bots", f"value@{path},heuristic", "--show", "0"])
        out = capsys.readouterr().out
        assert code == 0 and f"value@{path}" in out
    code = cli.main([*argv, "--bots", f"value@{model.parent / 'Nope.ofcvm'}"])
    err = capsys.readouterr().err
    assert code == 2 and "--bots: value bot: " in err and "Nope.ofcvm" in err


def test_the_arena_and_the_bot_command_take_a_model_spec(model: Path) -> None:
    """The arena's ``--bot value@PATH`` was read as a seat named ``value`` playing
    the bot ``PATH``; now it is the spec (``NAME@value@PATH`` names such a seat,
    ``value@cmd:...`` still names a command's seat); ``ofc-fast bot search@PATH``
    makes the bot (then finds no arena on port 1)."""
    spec = parse_bot_spec(f"value@{model}")
    assert (spec.kind, spec.target, spec.name) == ("builtin", f"value@{model}", None)
    named = parse_bot_spec(f"me@value@{model}")
    assert (named.kind, named.target, named.name) == ("builtin", f"value@{model}", "me")
    cmd = parse_bot_spec("value@cmd:python bot.py")
    assert (cmd.kind, cmd.target, cmd.name) == ("cmd", "python bot.py", "value")
    report = Arena("ofc-pineapple", [spec, parse_bot_spec("random")], 1, seed=1).run()
    assert report["hands"] == 1
    with pytest.raises(ArenaError, match=r"--bot: value bot: .*nope\.ofcvm"):
        Arena("ofc-pineapple", [parse_bot_spec("value@nope.ofcvm")] * 2, 1).run()
    with pytest.raises(ArenaError, match="cannot connect"):
        play_bot(f"search@{model}", connect=1, time_budget=0.01)
    with pytest.raises(BotModelError, match=r"nope\.ofcvm"):
        play_bot("search@nope.ofcvm", connect=1)


def test_an_environment_opponent_can_be_a_model_spec(model: Path) -> None:
    """``VectorEnv(opponents="value@PATH")`` plays that model (its missing file:
    the BotModelError when the env is made)."""
    from ofc_fast.env import VectorEnv

    env = VectorEnv("pineapple", players=2, num_envs=1, opponents=f"value@{model}", seed=1)
    env.reset()
    with pytest.raises(BotModelError, match=r"nope\.ofcvm"):
        VectorEnv("pineapple", players=2, num_envs=1, opponents="value@nope.ofcvm")


def test_a_search_bots_model_without_a_net_names_its_file(tmp_path: Path) -> None:
    """``SearchBot(model=PATH)`` with a model that has no net for a board size said
    ``value model NAME@HASH has no net ...`` without the file, where ValueBot's
    error named it: both name the file now."""
    path = tmp_path / "only5.ofcvm"
    write_model(path, [(5, [(np.zeros((1, FEATURES)), np.zeros(1))])], rules.PINEAPPLE, 2)
    for bot in (
        SearchBot(rules.PINEAPPLE, 0, model=str(path), samples=4),
        ValueBot(rules.PINEAPPLE, 0, model=str(path)),
    ):
        with pytest.raises(OfcError, match=r"no net for boards of 7 cards") as info:
            play_out(Game(rules.PINEAPPLE, 2, seed=3), [bot, make_bot("random")])
        assert f"(file {str(path)!r})" in str(info.value)
    with pytest.raises(ModelError, match=r"no net for boards of 7 cards") as info:
        advise(Game(rules.PINEAPPLE, 2, seed=3), samples=4, model=str(path))
    assert f"(file {str(path)!r})" in str(info.value)


def test_an_unknown_bot_names_the_specs_too(capsys: pytest.CaptureFixture[str]) -> None:
    """``play --bots nope`` listed the registered names alone, so the model spec
    could not be found from the command line; the error and ``--help`` name it."""
    with pytest.raises(BotError, match=r"known bots: .*value@PATH, search@PATH"):
        make_bot("nope")
    assert cli.main(["play", "--bots", "nope", "--hands", "1"]) == 2
    assert "value@PATH" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    assert "search@PATH" in capsys.readouterr().out


def test_no_shipped_model_points_to_the_model_spec() -> None:
    """``play --rules home.json --bots value`` (no model ships for those rules) said
    to give a file to ``ValueBot(model=PATH)``, a Python call; it names the bot
    spec ``value@PATH`` the command line takes."""
    with pytest.raises(BotError, match=r"no value model ships for .*value@PATH"):
        make_bot("value", rules.PINEAPPLE_27)


@pytest.mark.parametrize(
    "nets",
    [None, "nets", {5: []}, [None], [(5, None)], [(5, [None])], [(5, "ab")], [(5, [(1,)])]],
)
def test_model_bytes_names_nets_that_are_no_list_of_pairs(nets: object) -> None:
    """Regression: ``model_bytes(None, rules)`` raised ``TypeError: 'NoneType' object is
    not iterable`` and ``model_bytes("nets", rules)`` ``ValueError: not enough values
    to unpack``; nets, or a net's layers, that are no list of pairs are now a
    ModelError naming them."""
    from ofc_fast.learned import model_bytes

    with pytest.raises(ModelError, match=r"(nets|layers): expected a list of pairs, got"):
        model_bytes(nets, rules.PINEAPPLE, 2)  # type: ignore[arg-type]
    good = iter([(5, [(np.zeros((1, FEATURES)), np.zeros(1))])])  # (any iterable)
    assert model_bytes(good, rules.PINEAPPLE, 2)[:8] == b"OFCVALUE"  # type: ignore[arg-type]
