"""Policies as bots (ofc_fast.bots.policy) and the bot specs ``policy:PATH`` and
``module:attribute`` that make_bot, ``play --bots`` and ``arena --bot`` accept."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ofc_fast.arena._host import parse_bot_spec
from ofc_fast.bots import RandomBot, make_bot, make_bots
from ofc_fast.bots.policy import MlpPolicy, PolicyBot, load_policy
from ofc_fast.bots.registry import is_bot_spec
from ofc_fast.encoding import action_mask, features
from ofc_fast.errors import BotError, GameError, UnknownBotError
from ofc_fast.game import Game, Match, action_for_move


def small_mlp(seed: int = 0) -> MlpPolicy:
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(size=(16, 696)).astype(np.float32),
        rng.normal(size=16).astype(np.float32),
        rng.normal(size=(243, 16)).astype(np.float32),
        rng.normal(size=243).astype(np.float32),
    ]
    return MlpPolicy(params, ["relu", "linear"], {"obs_type": "features"})


def test_mlp_policy_is_the_network(tmp_path: Path) -> None:
    """Logits against a loop written here; save and load keep them; the chosen action
    is the best legal one; sampling never picks an illegal one."""
    p = small_mlp()
    x = np.random.default_rng(1).random(696).astype(np.float32)
    w1, b1, w2, b2 = p.weights[0], p.biases[0], p.weights[1], p.biases[1]
    hidden = [
        max(0.0, float(sum(w1[i, j] * x[j] for j in range(696)) + b1[i])) for i in range(16)
    ]
    want = [sum(w2[k, i] * hidden[i] for i in range(16)) + b2[k] for k in range(243)]
    assert np.allclose(p.logits(x), want, rtol=1e-4, atol=1e-4)
    mask = np.zeros(243, bool)
    mask[[3, 50, 200]] = True
    assert p(x, mask) == max((3, 50, 200), key=lambda k: want[k])
    q = MlpPolicy.load(p.save(tmp_path / "p"))
    assert np.array_equal(q.logits(x), p.logits(x)) and q.obs_type == "features"
    masks = np.tile(mask, (500, 1))
    drawn = p.act_batch(np.tile(x, (500, 1)), masks, np.random.default_rng(0))
    assert set(drawn.tolist()) <= {3, 50, 200}


def test_policy_bot_plays_normal_decisions_and_hands_full_sets_on() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(x: np.ndarray, mask: np.ndarray) -> int:
        seen.append((x, mask))
        return int(np.flatnonzero(mask)[-1])

    class Fallback:
        calls = 0

        def act(self, obs: Any) -> Any:
            Fallback.calls += 1
            return RandomBot(seed=1).act(obs)

    g = Game("pineapple", players=2, seed=4, fantasyland=(14, 0))
    bot = PolicyBot(policy, fallback=Fallback())
    while not g.is_over:
        obs = g.observation(g.to_act)
        if g.to_act == 0:
            g.play(bot.act(obs))
        else:
            before = len(seen)
            move = bot.act(obs)
            x, mask = seen[-1]
            assert len(seen) == before + 1
            assert np.array_equal(x, features(obs)) and np.array_equal(
                mask, action_mask(obs)
            )
            assert action_for_move(move, obs["dealt"], obs["to_discard"]) == max(
                obs["legal_actions"]
            )
            g.play(move)
    assert Fallback.calls == 1  # seat 0's 14-card Fantasyland set


def test_policy_bot_refuses_illegal_actions_and_bad_policies() -> None:
    g = Game("pineapple", players=2, seed=1)
    obs = g.observation(g.to_act)
    for answer in (243, -1, "x", None):
        bot = PolicyBot(lambda x, m, a=answer: a)
        with pytest.raises(BotError):
            bot.act(obs)
    with pytest.raises(BotError):
        PolicyBot(42)  # type: ignore[arg-type]
    with pytest.raises(BotError):
        PolicyBot(small_mlp(), obs_type="pixels")


def test_policy_spec_plays_a_match(tmp_path: Path) -> None:
    path = small_mlp().save(tmp_path / "policy.npz")
    bot = make_bot(f"policy:{path}", "pineapple", seed=1)
    assert bot.name == "policy" and bot.settings() == {"path": path}
    match = Match("pineapple", 2, seed=3)
    for _ in range(5):
        match.play_hand([bot, RandomBot(seed=2)])
    assert match.hands_played == 5
    bots = make_bots([f"policy:{path}", "random"], 2, "pineapple", seed=1)
    assert [b.name for b in bots] == ["policy", "random"]


def test_a_policy_path_that_is_no_file_says_what_it_is(tmp_path: Path) -> None:
    """A policy path that is a folder (an SB3 run's save folder, ``.``) was "no
    policy file 'runs/ppo'", as if nothing were there: it says it is no regular
    file, as a value model's path does; a missing one is still "no policy file"."""
    folder = tmp_path / "ppo.zip"
    folder.mkdir()
    for path in (folder, tmp_path):
        for load in (load_policy, lambda p: make_bot(f"policy:{p}")):
            with pytest.raises(BotError) as caught:
                load(path)
            assert str(caught.value) == (
                f"policy {str(path)!r}: not a regular file (a policy is an .npz "
                "file, export_policy's, or an SB3 .zip)"
            )
    with pytest.raises(BotError, match=r"^no policy file "):
        load_policy(tmp_path / "missing.npz")


def test_bad_policy_files(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="no policy file"):
        make_bot(f"policy:{tmp_path / 'missing.npz'}")
    (tmp_path / "x.txt").write_text("x")
    with pytest.raises(BotError, match="npz"):
        load_policy(tmp_path / "x.txt")
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(BotError, match="cannot read"):
        load_policy(tmp_path / "bad.npz")
    np.savez(tmp_path / "odd.npz", p0=np.zeros((3, 3)), meta_activations=np.array("relu"))
    with pytest.raises(BotError, match="weight and a bias"):
        load_policy(tmp_path / "odd.npz")
    np.savez(
        tmp_path / "act.npz",
        p0=np.zeros((3, 3)),
        p1=np.zeros(3),
        meta_activations=np.array("gelu"),
    )
    with pytest.raises(BotError, match="unknown activations"):
        load_policy(tmp_path / "act.npz")


def make_first_legal(rules: Any = None, seed: Any = None) -> PolicyBot:
    """A bot factory importable as ``test_policy_bot:make_first_legal``."""
    return PolicyBot(lambda x, m: int(np.argmax(m)), rules, seed)


READY = RandomBot(seed=7)
NOT_A_BOT = 42


def test_module_attribute_specs() -> None:
    assert make_bot("ofc_fast.bots:RandomBot", seed=1).name == "random"
    assert make_bot("test_policy_bot:make_first_legal").name == "policy"
    ready = importlib.import_module("test_policy_bot").READY  # pytest may differ
    assert make_bot("test_policy_bot:READY") is ready
    for spec, match in (
        ("no_such_module_xyz:Bot", "cannot import"),
        ("ofc_fast.bots:NoSuchBot", "no attribute"),
        ("test_policy_bot:NOT_A_BOT", "neither a bot"),
        ("ofc_fast.bots:make_bot", "bad settings|no act"),
    ):
        with pytest.raises(BotError, match=match):
            make_bot(spec)
    with pytest.raises(UnknownBotError):
        make_bot("nosuchbot")


def test_a_module_of_the_current_folder_is_a_spec_for_the_ofc_fast_command(
    tmp_path: Path,
) -> None:
    """``ofc-fast play --bots mybot:MyBot`` with ``mybot.py`` in the current folder
    said "cannot import 'mybot': No module named 'mybot'" (the command's import path
    starts at its script's folder), where ``python -m ofc_fast`` found it: a module of
    the current folder is found as ``python -m`` finds it, whatever the path holds."""
    from scripts import run_as_script

    (tmp_path / "mybot_here.py").write_text(
        "from ofc_fast.bots import RandomBot\n\n\n"
        "class MyBot(RandomBot):\n"
        "    def __init__(self, rules=None, seed=0):\n"
        "        super().__init__(seed=seed)\n",
        encoding="utf-8",
    )
    line = "play --rules pineapple --players 2 --hands 2 --seed 1 --json out.json"
    argv = [*line.split(), "--bots", "mybot_here:MyBot,random"]
    code = (  # as the ofc-fast script runs (from bin/): no current folder on the path
        "import os, sys\n"
        "here = os.path.realpath(os.getcwd())\n"
        "sys.path[:] = [p for p in sys.path if p and os.path.realpath(p) != here]\n"
        "from ofc_fast.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    (tmp_path / "bin").mkdir()
    done = run_as_script(tmp_path, "bin/ofc_fast_command.py", code)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert report["bots"] == ["mybot_here:MyBot", "random"] and report["hands"] == 2


def test_is_bot_spec() -> None:
    yes = ["policy:a/b.npz", "policy:C:/x.zip", "pkg.mod:Bot", "m:factory.attr"]
    no = ["heuristic", "cmd:python bot.py", "tcp:9000", "policy:", ":x", "a b:c", 3]
    assert all(is_bot_spec(s) for s in yes)
    assert not any(is_bot_spec(s) for s in no)


def test_arena_bot_specs() -> None:
    assert parse_bot_spec("policy:run/p.npz").target == "policy:run/p.npz"
    assert parse_bot_spec("me@pkg.mod:MyBot").kind == "builtin"
    assert parse_bot_spec("me@pkg.mod:MyBot").name == "me"
    assert parse_bot_spec("builtin:heuristic").target == "heuristic"
    assert parse_bot_spec("cmd:python bot.py").kind == "cmd"


def test_arena_plays_a_policy_spec(tmp_path: Path) -> None:
    from ofc_fast.arena import Arena

    path = small_mlp().save(tmp_path / "p.npz")
    specs = [parse_bot_spec(f"policy:{path}"), parse_bot_spec("ofc_fast.bots:RandomBot")]
    report = Arena("pineapple", specs, 3, seed=1).run()
    assert report["hands"] == 3
    assert all(not b.get("fault_kinds") for b in report["bots"])


def test_play_bots_spec_keeps_its_case(tmp_path: Path, capsys: Any) -> None:
    """Regression: ``play --bots`` lower-cased every name, so ``module:Class`` specs
    (and paths) could not be found."""
    from ofc_fast.cli import main

    path = small_mlp().save(tmp_path / "Policy.npz")
    out = tmp_path / "r.json"
    spec = f"policy:{path},ofc_fast.bots:RandomBot"
    line = f"play --rules pineapple --players 2 --hands 3 --seed 1 --quiet --bots {spec}"
    rc = main([*line.split(), "--json", str(out)])
    assert rc == 0
    assert json.loads(out.read_text())


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("cut.npz", b"PK\x03\x04garbage"),  # a zip's magic, then nothing of one
        ("text.npz", b"not a zip at all\n"),
        pytest.param("text.zip", b"not a zip at all\n", id="sb3"),
        pytest.param("cut.zip", b"PK\x03\x04garbage", id="sb3-cut"),
    ],
)
def test_a_damaged_policy_file_is_a_bot_error(
    tmp_path: Path, name: str, data: bytes
) -> None:
    """``--bots policy:cut.npz`` ended in zipfile.BadZipFile, ``policy:text.zip`` in
    SB3's ValueError (tracebacks on the command line); both are BotError naming the
    file."""
    if name.endswith(".zip"):
        pytest.importorskip("sb3_contrib", reason="pip install .[rl-train]")
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(BotError, match=f"cannot read the policy .*{name}"):
        load_policy(path)


def _npz(path: Path, members: dict[str, bytes]) -> Path:
    """An .npz written member by member (its .npy bytes as given)."""
    import zipfile

    with zipfile.ZipFile(path, "w") as z:
        for key, raw in members.items():
            z.writestr(f"{key}.npy", raw)
    return path


def _npy(array: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def test_fuzz_policy_declaring_a_huge_array_is_a_bot_error(tmp_path: Path) -> None:
    """Found by tests/fuzz/fuzz_model.py: an .npz whose array header declares 2**40
    floats but holds four made load_policy allocate 4 TiB (MemoryError); it is a
    BotError naming the file, and nothing of the declared size is allocated."""
    raw = _npy(np.zeros((2, 2), np.float32)).replace(b"(2, 2)", b"(1099511627776,)")
    path = _npz(
        tmp_path / "huge.npz",
        {"p0": raw, "p1": _npy(np.zeros(2, np.float32)), "meta_activations": b""},
    )
    with pytest.raises(BotError, match=r"cannot read the policy .*huge\.npz"):
        load_policy(path)


@pytest.mark.parametrize("damage", ["deflate", "method"])
def test_fuzz_policy_with_damaged_compressed_data_is_a_bot_error(
    tmp_path: Path, damage: str
) -> None:
    """Found by tests/fuzz/fuzz_model.py: an .npz (np.savez_compressed) whose
    compressed bytes are damaged ended in zlib.error, one naming a compression method
    that does not exist in NotImplementedError; each is a BotError naming the file."""
    import zipfile

    path = tmp_path / "damaged.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("p0.npy", _npy(np.arange(200, dtype=np.float32)))
    data = bytearray(path.read_bytes())
    if damage == "deflate":
        start = 30 + len("p0.npy")  # the local header, the name: the deflate stream
        data[start : start + 8] = b"\xff" * 8  # (an invalid deflate block type)
    else:  # the method, 8 (deflate), in the local and the central header: 77
        central = data.rindex(b"PK\x01\x02")
        data[8] = data[central + 10] = 77
    path.write_bytes(bytes(data))
    with pytest.raises(BotError, match=r"cannot read the policy .*damaged\.npz"):
        load_policy(path)


@pytest.mark.parametrize("dtype", ["U3", "S2", "complex64", "datetime64[s]"])
def test_fuzz_policy_of_arrays_that_are_no_numbers_is_a_bot_error(
    tmp_path: Path, dtype: str
) -> None:
    """Found by tests/fuzz/fuzz_model.py: an .npz whose weights are text ended in
    NumPy's ValueError (complex ones lost their imaginary part with a warning); a
    policy's arrays are real numbers: BotError naming the array."""
    np.savez(
        tmp_path / "odd.npz",
        p0=np.zeros((2, 3), dtype),
        p1=np.zeros(2, np.float32),
        meta_activations=np.array("linear"),
    )
    with pytest.raises(BotError, match="p0"):
        load_policy(tmp_path / "odd.npz")


def test_fuzz_policy_meta_past_unicode_is_a_bot_error(tmp_path: Path) -> None:
    """Found by tests/fuzz/fuzz_model.py in CI: a ``meta_`` text array holding a code
    point past Unicode's (0x110000) made NumPy's ``str`` raise SystemError; it is
    the BotError naming the array."""
    past = np.frombuffer(np.array([0x110000], "<u4").tobytes(), "<U1").reshape(())
    np.savez(
        tmp_path / "odd.npz",
        p0=np.zeros((2, 3), np.float32),
        p1=np.zeros(2, np.float32),
        meta_activations=past,
    )
    with pytest.raises(BotError, match="meta_activations"):
        load_policy(tmp_path / "odd.npz")


def test_fuzz_policy_marked_encrypted_is_a_bot_error(tmp_path: Path) -> None:
    """Found by tests/fuzz/fuzz_model.py: an .npz whose member is marked encrypted
    made zipfile raise RuntimeError (a password required); it is the BotError."""
    path = tmp_path / "odd.npz"
    np.savez(path, p0=np.zeros((2, 3), np.float32), p1=np.zeros(2, np.float32))
    data = bytearray(path.read_bytes())
    for sig in (b"PK\x03\x04", b"PK\x01\x02"):  # local and central headers
        at = data.find(sig)
        while at >= 0:
            flag = at + (6 if sig == b"PK\x03\x04" else 8)
            data[flag] |= 0x1
            at = data.find(sig, at + 4)
    path.write_bytes(bytes(data))
    with pytest.raises(BotError, match="encrypted"):
        load_policy(path)


def test_policy_bot_names_a_malformed_observation() -> None:
    """A PolicyBot, like the registered bots, answers a malformed observation with an
    GameError naming the field (was an AttributeError or a KeyError)."""
    bot = make_first_legal(seed=1)
    game = Game("pineapple", 2, seed=5)
    good = game.observation(game.to_act)
    for observation, word in [
        (None, "observation dict"),
        ({"x": 1}, "rules"),
        ({k: v for k, v in good.items() if k != "dealt"}, "dealt"),
        ({**good, "dealt": None}, "observation"),
    ]:
        with pytest.raises(GameError, match=word):
            bot.act(observation)  # type: ignore[arg-type]


def test_policy_bot_rebuilds_from_its_name_and_settings(tmp_path: Path) -> None:
    """The registry's convention, ``make_bot(bot.name, rules, seed, **bot.settings())``
    makes an equal bot, failed for a policy bot ("unknown bot 'policy'"; with its spec,
    a TypeError "multiple values for argument 'path'"), and so did a parallel run
    given one: both rebuild it, and a path other than the spec's is a BotError."""
    from ofc_fast.parallel import RunSpec

    path = small_mlp().save(tmp_path / "policy.npz")
    bot = make_bot(f"policy:{path}", "pineapple", seed=1)
    game = Game("pineapple", 2, seed=4)
    obs = game.observation(game.to_act)
    for name in (bot.name, f"policy:{path}"):
        again = make_bot(name, "pineapple", 1, **bot.settings())
        assert isinstance(again, PolicyBot) and again.settings() == bot.settings()
        assert again.act(obs) == bot.act(obs)
    with pytest.raises(BotError, match="not its path"):
        make_bot(f"policy:{path}", "pineapple", 1, path=str(tmp_path / "other.npz"))
    spec = RunSpec.make("pineapple", 2, 1, 4, [bot, RandomBot(seed=2)])
    assert spec.bots[0][0] == "policy"


def test_policy_bot_checks_its_rules_seed_fallback_and_path() -> None:
    """PolicyBot checks its rules and seed as every bot does (RulesError, BotError
    naming the policy bot), with a fallback given too, and refuses a fallback with
    no act() and a path that is no text.  With a fallback they went unchecked (a
    seed 'x', rules 'pinapple' accepted), a fallback 5 failed at the first full set
    with AttributeError, and a bad seed named the 'heuristic bot'."""
    from ofc_fast.errors import RulesError

    def first(x: object, mask: object) -> int:
        return 0

    for fallback in (None, RandomBot(1)):
        with pytest.raises(BotError, match="policy bot: seed: must be"):
            PolicyBot(first, seed="x", fallback=fallback)  # type: ignore[arg-type]
        with pytest.raises(RulesError, match="unknown rule set 'pinapple'"):
            PolicyBot(first, rules="pinapple", fallback=fallback)
        with pytest.raises(RulesError, match="policy bot: rules must be"):
            PolicyBot(first, rules=5, fallback=fallback)  # type: ignore[arg-type]
    with pytest.raises(BotError, match=r"policy bot: fallback must be a bot"):
        PolicyBot(first, fallback=5)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="policy bot: path must be text"):
        PolicyBot(first, path=5)  # type: ignore[arg-type]
    assert PolicyBot(first, "ofc", 3, path="p.npz").settings() == {"path": "p.npz"}


def test_a_policy_of_other_rules_is_refused_when_the_bot_is_made(
    tmp_path: Path, capsys: Any
) -> None:
    """A ``policy:PATH`` trained for OFC (its file records ``meta_rules``) played
    PINEAPPLE without a word: a policy bot for rules that play or score otherwise
    is a BotError naming the file when it is made; its own rules (by any name, or
    renamed), no rules recorded or no rules given still make the bot."""
    from ofc_fast import rules
    from ofc_fast.cli import main

    mlp = small_mlp()
    mlp.meta["rules"] = "ofc"
    path = mlp.save(tmp_path / "ofc.npz")
    for make in (
        lambda: make_bot(f"policy:{path}", "pineapple", seed=1),
        lambda: make_bots(f"random,policy:{path}", 2, rules.PINEAPPLE, seed=1),
        lambda: PolicyBot(mlp, rules.OFC.replace(sweep_bonus=6)),
    ):
        with pytest.raises(BotError, match=r"trained for OFC, not (PINEAPPLE|custom)"):
            make()
    with pytest.raises(BotError) as named:
        make_bot(f"policy:{path}", "pineapple")
    assert repr(str(path)) in str(named.value)  # the file
    for own in ("ofc", "OFC", rules.OFC.replace(name="home"), None):
        assert make_bot(f"policy:{path}", own, seed=1).name == "policy"
    assert PolicyBot(small_mlp(), rules.PINEAPPLE).name == "policy"  # records none
    argv = ["play", "--rules", "pineapple", "--players", "2", "--bots", f"policy:{path}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ofc-fast: error: --bots: policy bot: the policy ") and (
        "was trained for OFC, not PINEAPPLE" in err
    )


def test_a_policy_bot_made_without_rules_checks_the_tables_rules(tmp_path: Path) -> None:
    """A policy bot made without rules (``rules=None``) never compared the policy's
    recorded ``meta_rules`` with the table's: a policy trained for OFC played
    PINEAPPLE without a word.  At its first decision under a rule set it is judged
    against it, with the error of a bot made with those rules; its own rules (by any
    name) still play."""
    from ofc_fast import rules
    from ofc_fast.game import play_out

    mlp = small_mlp()
    mlp.meta["rules"] = "ofc"
    path = mlp.save(tmp_path / "ofc.npz")
    for table in (rules.PINEAPPLE, rules.OFC.replace(sweep_bonus=6)):
        bot = make_bot(f"policy:{path}", None, seed=1)
        with pytest.raises(BotError) as err:
            play_out(Game(table, 2, seed=3), [bot, RandomBot(seed=1)])
        said = str(err.value)
        assert f"policy bot: the policy {str(path)!r} was trained for OFC, not " in said
    bot = make_bot(f"policy:{path}", None, seed=1)
    for table in (rules.OFC, rules.OFC.replace(name="home")):
        g = Game(table, 2, seed=3)
        play_out(g, [bot, RandomBot(seed=1)])
        assert g.is_over


def test_policy_bot_reset_reseeds_its_fallback() -> None:
    """A policy bot had no ``reset(seed)``: a parallel arena refused it ("has no
    reset(seed)") and re-seeding it between matches left its fallback's stream where
    the last match had left it.  Under classic rules every decision is a full set
    (the fallback's): the same match, both bots re-seeded alike, plays the same."""
    from ofc_fast.game.history import history_of

    def first(x: object, mask: object) -> int:
        return 0

    bot = PolicyBot(first, "CLASSIC_1_6", 1, fallback=RandomBot(5))
    other = RandomBot(2)

    def histories() -> list[dict[str, Any]]:
        bot.reset(7)
        other.reset(8)
        out: list[dict[str, Any]] = []
        Match("CLASSIC_1_6", 2, seed=3).play(
            [bot, other], 4, on_deal=lambda g, r: out.append(history_of(g))
        )
        return out

    first_run = histories()
    assert histories() == first_run
    # the fallback's own stream from that seed: the same move
    game = Game("CLASSIC_1_6", 2, seed=11)
    obs = game.observation(game.to_act)
    bot.reset(7)
    assert bot.act(obs) == RandomBot(7).act(obs)
    with pytest.raises(BotError, match="policy bot: seed: must be"):
        bot.reset(-1)


def test_a_policy_of_the_wrong_shape_is_a_bot_error(tmp_path: Path) -> None:
    """An MLP whose layers do not chain, that reads another width than the
    observation's encoding (a features policy saved as obs_type "bytes"), or that
    gives another number of actions than the table has, failed with NumPy's
    ValueError ("matmul: Input operand 1 has a mismatch ...", "operands could not be
    broadcast ...") at its first decision; each is a BotError naming the sizes."""
    g = Game("pineapple", players=2, seed=1)
    obs = g.observation(g.to_act)
    rng = np.random.default_rng(0)
    w1, b1 = rng.normal(size=(16, 696)), rng.normal(size=16)
    with pytest.raises(BotError, match=r"layer 2 does not fit: weight \(243, 8\)"):
        MlpPolicy([w1, b1, rng.normal(size=(243, 8)), np.zeros(243)], ["relu", "linear"])
    with pytest.raises(BotError, match=r"layer 1 does not fit"):
        MlpPolicy([w1, np.zeros(3)], ["linear"])
    p = small_mlp()
    p.meta["obs_type"] = "bytes"
    bot = make_bot(f"policy:{p.save(tmp_path / 'bytes.npz')}", "pineapple", 1)
    with pytest.raises(BotError, match="reads 696 inputs per observation, got 828"):
        bot.act(obs)
    narrow = MlpPolicy(
        [w1, b1, rng.normal(size=(10, 16)), np.zeros(10)], ["relu", "linear"]
    )
    with pytest.raises(BotError, match="gives 10 actions, the table has 243"):
        PolicyBot(narrow).act(obs)
    with pytest.raises(BotError, match="gives 10 actions"):
        narrow.act_batch(np.zeros((2, 696)), np.ones((2, 243), bool))


def test_an_obs_type_given_is_kept_in_the_settings(tmp_path: Path) -> None:
    """A policy file without ``obs_type`` (a bytes policy), played with
    ``obs_type="bytes"``: ``settings()`` left it out, so ``make_bot(bot.name, rules,
    seed, **bot.settings())`` (a parallel run's workers) made a features bot that
    another policy's width refused."""
    rng = np.random.default_rng(0)
    layers = [rng.normal(size=(16, 828)), rng.normal(size=16)]
    layers += [rng.normal(size=(243, 16)), rng.normal(size=243)]
    path = MlpPolicy(layers, ["relu", "linear"]).save(tmp_path / "bytes.npz")
    bot = make_bot(f"policy:{path}", "pineapple", 1, obs_type="bytes")
    assert bot.settings() == {"path": path, "obs_type": "bytes"}
    again = make_bot(bot.name, "pineapple", 1, **bot.settings())
    g = Game("pineapple", players=2, seed=1)
    obs = g.observation(g.to_act)
    assert again.act(obs) == bot.act(obs)
    assert make_bot(f"policy:{path}", "pineapple", 1).settings() == {"path": path}


def _fnv_of_play(rule_set: Any) -> str:
    """The rules fingerprint as docs/learned.md defines it, computed here: FNV-1a 32 of
    the canonical JSON of the rule set's data less ``name`` and ``description``."""
    data = {k: v for k, v in rule_set.to_dict().items() if k not in ("name", "description")}
    h = 0x811C9DC5
    for byte in json.dumps(data, sort_keys=True, separators=(",", ":")).encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def _edited_pineapple() -> Any:
    """PINEAPPLE's rules file edited (``sweep_bonus`` 9), its name kept."""
    from ofc_fast.rules import PINEAPPLE, RuleSet

    return RuleSet.from_json(
        json.dumps({**json.loads(PINEAPPLE.to_json()), "sweep_bonus": 9})
    )


def test_a_policy_of_a_preset_edited_under_its_name_is_refused_for_the_preset(
    tmp_path: Path,
) -> None:
    """A policy trained under PINEAPPLE edited with its name kept recorded the name
    alone (``meta_rules`` "PINEAPPLE") and ``policy_bot(path, "pineapple")`` played it
    under the real PINEAPPLE.  A policy records its rules' fingerprint with the name
    (``meta_rules_hash``, what a value model file stores) and a bot for rules of
    another fingerprint is a BotError naming both rule sets; its own rules, renamed
    too, still play."""
    from ofc_fast import rules

    edited = _edited_pineapple()
    assert edited.name == "PINEAPPLE"
    mlp = small_mlp()
    mlp = MlpPolicy(_params(mlp), mlp.activations, {"rules": edited})
    path = Path(mlp.save(tmp_path / "edited.npz"))
    with np.load(path) as saved:
        assert str(saved["meta_rules"]) == "PINEAPPLE"
        assert str(saved["meta_rules_hash"]) == _fnv_of_play(edited)
    for other in ("pineapple", rules.PINEAPPLE, rules.OFC):
        with pytest.raises(BotError) as err:
            make_bot(f"policy:{path}", other, seed=1)
        said = str(err.value)
        assert "was trained for PINEAPPLE, not " in said and repr(str(path)) in said
        assert _fnv_of_play(edited) in said or "they differ in" in said
    for own in (edited, edited.replace(name="home")):
        assert make_bot(f"policy:{path}", own, seed=1).name == "policy"


def _params(mlp: MlpPolicy) -> list[np.ndarray]:
    return [a for pair in zip(mlp.weights, mlp.biases) for a in pair]


def test_a_policy_file_of_the_name_alone_is_judged_by_that_preset(tmp_path: Path) -> None:
    """A policy file written before policies recorded a rules fingerprint (its
    ``meta_rules`` a preset's name alone) still plays under that preset (renamed too)
    and is refused under other rules, edited ones under the preset's name among
    them; a ``meta_rules_hash`` that is no fingerprint is a BotError naming it."""
    from ofc_fast import rules

    mlp = small_mlp()
    arrays = {f"p{i}": a for i, a in enumerate(_params(mlp))}
    old = tmp_path / "old.npz"
    np.savez(
        old, **arrays, meta_activations=np.array("relu,linear"), meta_rules="PINEAPPLE"
    )
    for own in ("pineapple", rules.PINEAPPLE, rules.PINEAPPLE.replace(name="home")):
        assert make_bot(f"policy:{old}", own, seed=1).name == "policy"
    for other in ("ofc", _edited_pineapple()):
        with pytest.raises(
            BotError, match=r"was trained for PINEAPPLE, not (OFC|PINEAPPLE)"
        ):
            make_bot(f"policy:{old}", other, seed=1)
    bad = tmp_path / "bad.npz"
    np.savez(bad, **arrays, meta_activations="relu,linear", meta_rules_hash="zz")
    with pytest.raises(BotError, match="rules_hash 'zz'"):
        make_bot(f"policy:{bad}", "pineapple", seed=1)


def test_policy_bot_quotes_a_bad_answer_short() -> None:
    """Regression: a policy that returned its logits (an array of 243 floats, not an
    action id) was refused with the whole array printed, thousands of characters,
    and one that returned an int too long for str() with Python's ValueError of
    writing the message; a bad ``obs_type`` was printed whole.  Each is a BotError
    of a short message."""
    g = Game("pineapple", players=2, seed=1)
    obs = g.observation(g.to_act)
    for answer in (np.linspace(0.0, 1.0, 243), 10**5000):
        bot = PolicyBot(lambda x, m, a=answer: a)
        with pytest.raises(BotError) as err:
            bot.act(obs)
        assert len(str(err.value)) < 300
    with pytest.raises(BotError) as err:
        PolicyBot(small_mlp(), obs_type="x" * 10**6)
    assert len(str(err.value)) < 300


def test_a_policy_save_cut_short_leaves_the_saved_policy_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: MlpPolicy.save (and export_policy's ``.npz``) wrote over the file in
    place, so a Ctrl-C or a full disk while writing left half an ``.npz`` where the
    policy saved before was (the next load: 'cannot read the policy'); the file is
    now written beside it and renamed over it once whole."""
    import os

    import ofc_fast.bots.policy as policy_mod

    path = small_mlp(1).save(tmp_path / "policy.npz")
    before = Path(path).read_bytes()
    savez = np.savez

    def cut_short(file: Any, **arrays: Any) -> None:
        if isinstance(file, str):  # (written in place)
            Path(file).write_bytes(before[:100])
        else:
            file.write(before[:100])  # a part of a file
        raise KeyboardInterrupt

    monkeypatch.setattr(policy_mod.np, "savez", cut_short)
    with pytest.raises(KeyboardInterrupt):
        small_mlp(2).save(path)
    monkeypatch.setattr(policy_mod.np, "savez", savez)
    assert Path(path).read_bytes() == before and os.listdir(tmp_path) == ["policy.npz"]
    assert np.array_equal(MlpPolicy.load(path).weights[1], small_mlp(1).weights[1])
