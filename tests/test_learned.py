"""The learned value model (ofc_fast.learned, csrc/include/ofc_model.h, csrc/include/ofc_value.h):
the C forward pass against an independent NumPy forward pass over a file parsed here
in pure Python; every shipped model's checksum recomputed here; damaged files refused
with ModelError; ValueBot's move the argmax of the values; the model-free SearchBot
reproducing the decisions recorded before the model existed; the training command
end to end (tiny, with resume)."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from model_format import sealed
from reference_fnv import fnv1a64
from scripts import refuse_writes_in

from ofc_fast import rules
from ofc_fast._native import ffi, lib
from ofc_fast.bots import RandomBot, SearchBot, ValueBot, make_bot
from ofc_fast.errors import BotError, BotModelError, ModelError, RulesError
from ofc_fast.game import Game, actions_for, move_for_action, play_out
from ofc_fast.learned import (
    MODEL_DIR,
    ValueModel,
    load_model,
    model_bytes,
    resolve_model,
    rules_hash,
    shipped_model,
    write_model,
)
from ofc_fast.rules.compiled import game_struct
from ofc_fast.search import advise

DATA = Path(__file__).resolve().parent / "data"
SHIPPED = sorted(MODEL_DIR.glob("*.ofcvm"))


# ------------------------------------------------------------ an independent reader


def play_hash(table: rules.RuleSet) -> int:
    """The rules hash of docs/learned.md: FNV-1a 32 of the canonical JSON of the rule
    set less its name and description."""
    return data_hash(table.to_dict())


def data_hash(data: dict[str, Any]) -> int:
    """:func:`play_hash` of a rule set's data as a version kept it (``to_dict``)."""
    play = {k: v for k, v in data.items() if k not in ("name", "description")}
    h = 0x811C9DC5
    for b in json.dumps(play, sort_keys=True, separators=(",", ":")).encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def read_nets(data: bytes) -> dict[int, list[tuple[np.ndarray, np.ndarray]]]:
    """The nets of a model file, by the format in docs/learned.md (not the C parser)."""
    assert data[:8] == b"OFCVALUE"
    version, header, payload, _, fset, inputs, _, n_nets = struct.unpack_from(
        "<8I", data, 8
    )
    assert version in (1, 2, 3) and (header, fset) == (64, 1) and len(data) == 64 + payload
    (opponent,) = struct.unpack_from("<I", data, 48)  # format 2: rows after the nets
    assert opponent in ((0,) if version == 1 else (0, 1))
    (checksum,) = struct.unpack_from("<Q", data, 40)
    assert checksum == fnv1a64(data[64:])
    at, nets = 64, {}
    for _ in range(n_nets):
        cards, layers = struct.unpack_from("<II", data, at)
        widths = struct.unpack_from(f"<{layers + 1}I", data, at + 8)
        at += 8 + 4 * (layers + 1)
        out = []
        for i in range(layers):
            n_in, n_out = widths[i], widths[i + 1]
            w = np.frombuffer(data, "<f4", n_out * n_in, at).reshape(n_out, n_in)
            at += 4 * n_out * n_in
            b = np.frombuffer(data, "<f4", n_out, at)
            at += 4 * n_out
            out.append((w, b))
        nets[cards] = out
        assert widths[0] == inputs
    assert at + opponent * 4 * 3 * 7918 == len(data)
    return nets


def numpy_forward(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    a = x.astype(np.float64)
    for i, (w, b) in enumerate(layers):
        a = a @ w.astype(np.float64).T + b.astype(np.float64)
        if i + 1 < len(layers):
            a = np.maximum(a, 0)
    return a[:, 0]


def random_nets(seed: int, cards=(5, 7, 9, 11), hidden=(32, 16)):
    rng = np.random.default_rng(seed)
    nets = []
    for c in cards:
        sizes = [64, *hidden, 1]
        nets.append(
            (
                c,
                [
                    (
                        rng.normal(0, 0.3, (sizes[i + 1], sizes[i])).astype("f4"),
                        rng.normal(0, 0.1, sizes[i + 1]).astype("f4"),
                    )
                    for i in range(len(sizes) - 1)
                ],
            )
        )
    return nets


# ------------------------------------------------------------ tests


def test_shipped_pineapple_model_exists_and_matches_its_rules():
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    assert model.cards == (5, 7, 9, 11) and model.players == 2
    assert model.rules_hash == rules_hash(rules.PINEAPPLE)
    assert shipped_model(rules.PINEAPPLE.replace(sweep_bonus=9), 2) is None
    assert shipped_model(rules.OFC.replace(max_players=4), 4) is None


def test_renamed_preset_keeps_its_shipped_model():
    """A preset renamed or described anew (a rules file copying it under another
    name) plays the preset's game: "auto" finds the shipped model and the model file
    is accepted (the rules hash once covered the name and description, so such a
    table lost the model); a rule changed still refuses, naming the preset and the
    field."""
    path = MODEL_DIR / "pineapple-2p.ofcvm"
    want = fnv1a64(path.read_bytes()[64:])
    p = rules.PINEAPPLE
    copy = rules.RuleSet.from_json(json.dumps({**p.to_dict(), "name": "home"}))
    for table in (p.replace(description="my table"), p.replace(name="my table"), copy):
        model = shipped_model(table, 2)
        assert model is not None and model.checksum == want
        assert resolve_model(path, table, 2) is not None
        game = Game(table, 2, seed=1)
        advice = advise(game.observation(game.to_act), samples=2, seed=1, model="auto")
        assert advice[0].model == model.name
    changed = p.replace(name="my table", sweep_bonus=9)
    assert shipped_model(changed, 2) is None
    with pytest.raises(
        ModelError,
        match=r"other rules than my table \(the PINEAPPLE preset's; they differ in "
        r"sweep_bonus\)$",
    ):
        resolve_model(path, changed, 2)
    stay = p.replace(fantasyland=p.fantasyland.replace(stay_front="QQQ"))
    with pytest.raises(ModelError, match=r"differ in fantasyland\.stay_front\)$"):
        resolve_model(path, stay, 2)
    own = ValueModel.from_bytes(model_bytes(random_nets(1, hidden=(8,)), changed, 2))
    own.check_rules(changed.replace(name="other name"), 2)
    with pytest.raises(ModelError, match=r"than PINEAPPLE \(a rule set that is no preset"):
        own.check_rules(p, 2)


@pytest.mark.parametrize(
    ("entry", "stay_front"),
    [
        ([["KK", 15], ["QQ", 14]], "222"),
        ([["qq", 14], ["KK", 15]], "qqq"),
        ([["1010", 14]], "222"),
    ],
)
def test_a_model_of_fantasyland_entries_written_another_way_fits_the_same_rules(
    entry: list[list[Any]], stay_front: str
):
    """A rule set now keeps its Fantasyland thresholds weakest first, spelled one way
    ("qq" is "QQ"), and its fingerprint follows; before, it kept them as written.  A
    model file trained then for rules with ``("KK", 15), ("QQ", 14)`` holds the
    fingerprint of that text and was refused as "trained for other rules" under the
    very same rules, written either way.  It fits them again, and only them."""
    fl = rules.PINEAPPLE.fantasyland.replace(stay_front=stay_front)
    home = rules.PINEAPPLE.replace(name="home", fantasyland=fl.replace(entry=entry))
    data = home.to_dict()  # as the earlier version kept it: as written
    data["fantasyland"].update(entry=entry, stay_front=stay_front)
    old = data_hash(data)
    blob = bytearray(model_bytes(random_nets(1, hidden=(8,)), home, 2))
    struct.pack_into("<I", blob, 20, old)  # the header's rules hash (docs/learned.md)
    model = ValueModel.from_bytes(sealed(bytes(blob)), "home")  # its header checksum
    assert model.rules_hash == old != rules_hash(home) == play_hash(home)
    model.check_rules(home, 2)
    reordered = fl.replace(entry=sorted(entry, key=lambda e: e[1]))  # weakest first
    assert resolve_model(model, rules.PINEAPPLE.replace(fantasyland=reordered), 2)
    stronger = fl.replace(entry=[[t, n + 1] for t, n in entry])
    for other in (home.replace(sweep_bonus=9), home.replace(fantasyland=stronger)):
        with pytest.raises(ModelError, match="trained for other rules"):
            model.check_rules(other, 2)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_value_bot_plays_every_shipped_table(path: Path):
    """Each shipped model is the one "auto" picks for its table, and ValueBot plays
    whole deals there (no error, legal moves, zero-sum nets)."""
    name, players = path.stem.rsplit("-", 1)
    table, n = rules.get(name), int(players.rstrip("p"))
    model = shipped_model(table, n)
    assert model is not None and model.checksum == load_model(path).checksum
    for seed in range(3):
        bots = [ValueBot(table, seed=s) for s in range(n - 1)] + [RandomBot(seed=seed)]
        res = play_out(Game(table, n, seed=seed), bots)
        assert sum(res.net) == 0


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_model_checksum_and_rules(path: Path):
    data = path.read_bytes()
    (checksum,) = struct.unpack_from("<Q", data, 40)
    assert checksum == fnv1a64(data[64:])
    model = load_model(path)
    assert model.checksum == checksum
    name, players = path.stem.rsplit("-", 1)
    assert model.rules_hash == rules_hash(rules.get(name)) == play_hash(rules.get(name))
    assert model.players == int(players.rstrip("p"))


def test_c_inference_equals_numpy_on_10000_inputs():
    """10,000 inputs: features of after-states dealt at random plus random vectors,
    through every net of the shipped model and of a random model."""
    typical = ffi.buffer(lib.ofc_ev_opponent_counts(ffi.NULL), 4 * 3 * 7918)
    models = [(p.read_bytes()) for p in SHIPPED] + [
        model_bytes(random_nets(3), rules.PINEAPPLE, 2),
        model_bytes(random_nets(4), rules.PINEAPPLE, 2, np.frombuffer(typical, np.uint32)),
    ]
    rng = np.random.default_rng(11)
    out = ffi.new("double *")
    checked = 0
    for data in models:
        nets = read_nets(data)
        model = ValueModel.from_bytes(data)
        per = 10_000 // len(nets)
        for cards, layers in nets.items():
            x = rng.normal(0, 1, (per, 64)).astype(np.float32)
            x[: per // 2] = _features(cards, per // 2, rng)
            want = numpy_forward(layers, x)
            for row, v in zip(x, want):
                assert (
                    lib.ofc_vm_eval(model.c, cards, ffi.from_buffer("float[]", row), out)
                    == 0
                )
                assert abs(out[0] - v) <= 1e-5 * max(1.0, abs(v))
                checked += 1
    assert checked >= 10_000


def test_c_inference_equals_torch_on_10000_inputs(tmp_path: Path):
    """The training library's own output: a net of the shipped shape per street,
    fitted by torch on features of random boards, written to a file and read back;
    on 10,000 inputs (2,500 a street, none of them seen in the fit) the C forward
    pass gives what the fitted torch net gives, to 1e-5."""
    _require_torch()
    from ofc_fast.learned._fit import fit

    rng = np.random.default_rng(23)
    nets, checks = [], {}
    for cards in (5, 7, 9, 11):
        x = _features(cards, 3_000, rng)
        y = x[:, :18].sum(1) * x[:, 40:].max(1) + rng.normal(0, 1, len(x))
        held = x[500:]
        layers, _, want = fit(x[:500], y[:500], seed=cards, epochs=10, check=held)
        nets.append((cards, layers))
        checks[cards] = (held, want)
    model = write_model(tmp_path / "torch.ofcvm", nets, rules.PINEAPPLE, 2)
    out = ffi.new("double *")
    checked = 0
    for cards, (held, want) in checks.items():
        assert np.ptp(want) > 1.0  # the nets are not constant on these inputs
        for row, v in zip(held, want):
            row_c = ffi.from_buffer("float[]", np.ascontiguousarray(row))
            assert lib.ofc_vm_eval(model.c, cards, row_c, out) == 0
            assert abs(out[0] - v) <= 1e-5 * max(1.0, abs(v))
            checked += 1
    assert checked == 10_000


def _features(cards: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Features (C) of n random boards with ``cards`` cards and some dead cards."""
    from ofc_fast.learned.model import board_bytes

    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    ctx = model.context(rules.PINEAPPLE, 2, [0.0] * 18)
    buf = ffi.new("float[64]")
    out = np.empty((n, 64), np.float32)
    for i in range(n):
        deck = rng.permutation(52)
        sizes = [0, 0, 0]
        for _ in range(cards):
            r = rng.choice([j for j in range(3) if sizes[j] < (3, 5, 5)[j]])
            sizes[r] += 1
        rows, at = [], 0
        for s in sizes:
            rows.append([int(c) for c in deck[at : at + s]])
            at += s
        dead = 0
        for c in deck[at : at + int(rng.integers(0, 12))]:
            dead |= 1 << int(c)
        assert lib.ofc_value_features(ctx, board_bytes(rows), dead, buf) == 0
        out[i] = np.frombuffer(ffi.buffer(buf), np.float32)
    return out


def test_damaged_files_raise_model_error(tmp_path: Path):
    data = model_bytes(random_nets(1), rules.PINEAPPLE, 2)
    with pytest.raises(ModelError, match="cannot read"):
        load_model(tmp_path / "missing.ofcvm")
    for bad, what in [
        (data[:40], "truncated"),
        (data[:-3], "truncated"),
        (data + b"\0", "truncated"),
        (b"NOTVALUE" + data[8:], "magic"),
        (data[:100] + bytes([data[100] ^ 4]) + data[101:], "checksum"),
        (data[:8] + struct.pack("<I", 4) + data[12:], "version"),
        (data[:8] + struct.pack("<I", 0) + data[12:], "version"),
    ]:
        (tmp_path / "bad.ofcvm").write_bytes(bad)
        with pytest.raises(ModelError, match=what):
            load_model(tmp_path / "bad.ofcvm")
    with pytest.raises(ModelError, match="bytes"):
        ValueModel.from_bytes("text")  # type: ignore[arg-type]


def _with_first_weight(data: bytes, value: float) -> bytes:
    """``data`` (a version 3 file of :func:`random_nets`) with the first weight of its
    first net set to ``value`` and the checksums made again (this file's own reader)."""
    at = 64 + 4 + 4 + 4 * 4  # header, cards, layers, widths[4] of (64, 32, 16, 1)
    payload = bytearray(data[64:])
    payload[at - 64 : at - 60] = struct.pack("<f", value)
    header = bytearray(data[:64])
    header[40:48] = struct.pack("<Q", fnv1a64(bytes(payload)))
    return sealed(bytes(header) + bytes(payload))


def test_model_weights_over_the_bound_are_refused(tmp_path: Path):
    """A weight or bias over 1e6 in magnitude (OFC_VM_MAX_WEIGHT) is refused at load,
    a ModelError naming it (before: a file of 3e38 weights loaded, and the value
    functions returned means near 1e162 with a variance of inf - inf reported as 0);
    the writer refuses to write one; the shipped models stay far inside."""
    data = model_bytes(random_nets(1), rules.PINEAPPLE, 2)
    assert ValueModel.from_bytes(_with_first_weight(data, 9.9e5)) is not None
    for value in (3e38, -3e38, 1.5e6):
        with pytest.raises(ModelError, match=r"over 1\.0e6 in magnitude"):
            ValueModel.from_bytes(_with_first_weight(data, value))
    huge = [(c, [(w * 0 + 3e38, b) for w, b in layers]) for c, layers in random_nets(1)]
    with pytest.raises(ModelError, match=r"over 1\.0e6"):
        model_bytes(huge, rules.PINEAPPLE, 2)
    assert lib.OFC_VM_MAX_WEIGHT == 1e6
    for path in SHIPPED:
        for layers in read_nets(path.read_bytes()).values():
            for w, b in layers:
                assert max(np.abs(w).max(), np.abs(b).max()) < 1e4


def test_model_file_errors_name_the_file(tmp_path: Path):
    """A model file's ModelError names its path: a damaged one's named only the
    file's stem ("value model bad: ... truncated"), and a path with a NUL character
    raised the OS layer's ValueError (a bot's model= setting, write_model too); a
    symlink loop, a folder and a path that is no text are ModelErrors as well."""
    data = model_bytes(random_nets(1, hidden=(8,)), rules.PINEAPPLE, 2)
    path = tmp_path / "bad.ofcvm"
    path.write_bytes(data[:-3])
    named = re.escape(repr(str(path)))
    nul = str(tmp_path / "a\0b.ofcvm")
    for read in (load_model, lambda p: resolve_model(p, rules.PINEAPPLE, 2)):
        with pytest.raises(ModelError, match=f"value model {named}: .*truncated"):
            read(path)
        with pytest.raises(
            ModelError, match=r"cannot read it \(.*embedded null (byte|character)"
        ):
            read(nul)
    with pytest.raises(BotError, match=r"embedded null (byte|character)"):
        SearchBot(model=nul)
    loop = tmp_path / "loop.ofcvm"
    loop.symlink_to(loop)
    with pytest.raises(ModelError, match=r"loop\.ofcvm': cannot read it"):
        load_model(loop)
    with pytest.raises(ModelError, match="not a regular file"):
        load_model(tmp_path)
    with pytest.raises(ModelError, match="path is text, got 3"):
        load_model(3)  # type: ignore[arg-type]
    nets = random_nets(1, hidden=(8,))
    with pytest.raises(
        ModelError, match=r"cannot write it \(.*embedded null (byte|character)"
    ):
        write_model(nul, nets, rules.PINEAPPLE, 2)
    with pytest.raises(ModelError, match="path is text, got 3"):
        write_model(3, nets, rules.PINEAPPLE, 2)  # type: ignore[arg-type]


def test_model_of_other_rules_refused(tmp_path: Path):
    path = tmp_path / "ofc.ofcvm"
    path.write_bytes(model_bytes(random_nets(2), rules.OFC, 2))
    with pytest.raises(ModelError, match="other rules"):
        resolve_model(str(path), rules.PINEAPPLE, 2)
    with pytest.raises(ModelError, match="players"):
        resolve_model(str(path), rules.OFC, 3)
    with pytest.raises(ModelError, match="model must be"):
        resolve_model(3, rules.OFC, 2)


def test_value_bot_plays_the_argmax_of_model_values():
    """Every decision of six deals: the bot's move has the largest value of the
    after-states built here move by move (one ValueModel.value call each)."""
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    bot = ValueBot(seed=1)
    for seed in range(6):
        g = Game(rules.PINEAPPLE, 2, seed=seed)
        while g.to_act is not None:
            s = g.to_act
            obs = g.observation(s)
            move = bot.act(obs)
            rows, k, dealt = obs["boards"][s], obs["to_discard"], obs["dealt"]
            seen = {c for b in obs["boards"] for r in b for c in r}
            seen |= set(obs["discards"]) | set(dealt)
            values = {}
            for a in actions_for(len(dealt), rows, k):
                m = move_for_action(a, dealt, rows, k)
                new = [list(r) for r in rows]
                for card, row in m.placements:
                    new[int(row)].append(card)
                dead = seen - {c for r in new for c in r}
                values[str(m)] = model.value(new, rules.PINEAPPLE, 2, sorted(dead))
            assert values[str(move)] == pytest.approx(max(values.values()), abs=1e-9)
            g.play(move)


def test_value_bot_registry_settings_and_errors():
    bot = make_bot("value", seed=3)
    assert isinstance(bot, ValueBot) and bot.settings() == {
        "model": "auto",
        "fl_value": None,
    }
    g = Game(rules.OFC.replace(max_players=4), 4, seed=1)
    with pytest.raises(BotError, match="no value model ships"):
        ValueBot(seed=1).act(g.observation(g.to_act))
    with pytest.raises(BotError, match="model must be"):
        ValueBot(model=3)
    res = play_out(Game(rules.PINEAPPLE, 2, seed=4), [ValueBot(seed=0), RandomBot(seed=1)])
    assert sum(res.net) == 0


def test_search_without_model_reproduces_recorded_decisions():
    """SearchBot(model=None) makes the decisions recorded before the learned model
    (tests/data/search_rollout_decisions.json: 24 samples, fixed seeds)."""
    records = json.loads((DATA / "search_rollout_decisions.json").read_text())
    for rec in records:
        g = Game(rules.get(rec["rules"]), players=rec["players"], seed=rec["seed"])
        bots = [
            SearchBot(seed=7 + s, samples=24, time_budget=None, model=None)
            for s in range(rec["players"])
        ]
        for want in rec["moves"]:
            s = g.to_act
            move = bots[s].act(g.observation(s))
            assert str(move) == want
            g.play(move)


def test_search_with_model_differs_and_says_which_model():
    g = Game(rules.PINEAPPLE, 2, seed=5)
    g.play(
        SearchBot(seed=1, samples=8, time_budget=None, model=None).act(
            g.observation(g.to_act)
        )
    )
    g.play(
        SearchBot(seed=1, samples=8, time_budget=None, model=None).act(
            g.observation(g.to_act)
        )
    )
    learned = advise(g, samples=32, seed=2, model="auto", exact=False)
    plain = advise(g, samples=32, seed=2, exact=False)
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    assert {a.model for a in learned} == {model.name}
    assert {a.model for a in plain} == {None}
    assert [a.ev for a in learned] != [a.ev for a in plain]
    assert learned[0].as_dict()["model"] == model.name
    assert SearchBot(seed=1).settings()["model"] == "auto"  # the model by default
    assert SearchBot(seed=1, model=None).settings()["model"] is None


def _deal_moves(table: rules.RuleSet, seed: int, **settings: object) -> list[str]:
    """Every move of a heads-up deal played by two ``search`` bots (12 samples)."""
    g = Game(table, 2, seed=seed)
    bots = [
        make_bot("search", seed=s, samples=12, time_budget=None, **settings)
        for s in range(2)
    ]
    moves = []
    while g.to_act is not None:
        move = bots[g.to_act].act(g.observation(g.to_act))
        moves.append(str(move))
        g.play(move)
    return moves


def test_search_uses_the_shipped_model_by_default() -> None:
    """The registry's ``search`` plays the learned search where a model ships (its
    moves are model="auto"'s, not the rollout-only search's on this deal) and the
    rollout-only search on rules no model ships for."""
    default = _deal_moves(rules.PINEAPPLE, 5)
    assert default == _deal_moves(rules.PINEAPPLE, 5, model="auto")
    assert default != _deal_moves(rules.PINEAPPLE, 5, model=None)
    custom = rules.PINEAPPLE.replace(sweep_bonus=9)
    assert shipped_model(custom, 2) is None
    assert _deal_moves(custom, 5) == _deal_moves(custom, 5, model=None)


def test_learned_opening_is_screened_by_the_model():
    """An opening (232 moves) searched with the model and pruning: the rollouts
    sample exactly the 30 moves of largest model value (after-states valued here one
    by one); every other move has 0 samples and its model value as ev, after them.
    Without a model every move is sampled (the fast screening)."""
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    g = Game(rules.PINEAPPLE, 2, seed=5)
    s = g.to_act
    obs = g.observation(s)
    adv = advise(obs, samples=48, seed=3, model="auto", prune=True)
    assert len(adv) == 232
    rows, dealt = obs["boards"][s], obs["dealt"]
    seen = {c for b in obs["boards"] for r in b for c in r} | set(dealt)
    values = {}
    for a in adv:
        new = [list(r) for r in rows]
        for card, row in a.move.placements:
            new[int(row)].append(card)
        dead = seen - {c for r in new for c in r}
        values[a.action] = model.value(new, rules.PINEAPPLE, 2, sorted(dead))
    top = sorted(values, key=lambda a: (-values[a], a))[:30]
    sampled = [a for a in adv if a.samples > 0]
    assert {a.action for a in sampled} == set(top)
    assert adv[: len(sampled)] == sampled
    for a in adv[len(sampled) :]:
        assert a.samples == 0 and a.ev == pytest.approx(values[a.action], abs=1e-9)
    assert adv == advise(obs, samples=48, seed=3, model="auto", prune=True)
    plain = advise(obs, samples=48, seed=3, prune=True)
    assert min(a.samples for a in plain) > 0


def _require_torch() -> None:
    """Skip without torch (the learn extra), except in CI, where it fails."""
    try:
        pytest.importorskip("torch", reason='pip install ".[learn]" (docs/learned.md)')
    except pytest.skip.Exception:
        if os.environ.get("OFC_REQUIRE_LEARN") == "1":  # CI: a missing torch fails
            pytest.fail('OFC_REQUIRE_LEARN=1 but torch is missing: pip install ".[learn]"')
        raise


def test_training_command_end_to_end_and_resume(tmp_path: Path, capsys):
    _require_torch()
    from ofc_fast.learned.train import main

    def argv(seed: int, rows: tuple[str, ...] = ("--opponent-deals", "3")) -> list[str]:
        return [
            *[
                "--rules",
                "pineapple",
                "--deals",
                "12",
                "--eval-deals",
                "2",
                "--samples",
                "2",
                "--epochs",
                "2",
            ],
            *["--hidden", "8", "--eval-samples", "2", "--eval-limit", "4", "--quiet"],
            *rows,
            *("--seed", str(seed), "--out", str(tmp_path)),
        ]

    args = argv(2)
    assert main(args) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    assert set(report["streets"]) == {"5", "7", "9", "11"}
    assert report["c_vs_fit_max_abs_diff"] < 1e-5  # C against torch's own output
    for name in ("report.md", "cost.json", "config.json"):
        assert (tmp_path / name).stat().st_size > 0
    try:
        import matplotlib  # noqa: F401  (the learn extra's plot)
    except ImportError:
        pass
    else:
        assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    model = load_model(tmp_path / "pineapple-2p.ofcvm")
    assert model.name == report["model"]
    # its opponent: the rows of HeuristicBot's clean boards in 3 deals of its own
    rows = model.opponent_rows
    assert rows is not None and 0 < rows[0].sum() <= 6
    assert rows[0].sum() == rows[1].sum() == rows[2].sum()
    with np.load(tmp_path / "opponent.npz") as opp:
        assert np.array_equal(opp["rows"], rows.ravel())
    first = (tmp_path / "pineapple-2p.ofcvm").read_bytes()
    assert main(args) == 0  # resumed: every step is saved, the same model
    assert (tmp_path / "pineapple-2p.ofcvm").read_bytes() == first
    # a second round extends the run: new deals played by the first model, every
    # street relabelled and refitted; the first round's steps are kept as they were
    steps = {p.name: p.read_bytes() for p in tmp_path.glob("*.npz")}
    assert main([*args, "--rounds", "2"]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["rounds"] == 2 and report["model"] != model.name
    for name, data in steps.items():
        assert (tmp_path / name).read_bytes() == data, name
    with np.load(tmp_path / "positions-r2.npz") as second:
        assert sorted(set(second["deal"].tolist())) == list(range(12, 24))
    for cards in (5, 7, 9, 11):
        with (
            np.load(tmp_path / f"labels-{cards}-r2.npz") as lab,
            np.load(tmp_path / f"labels-{cards}.npz") as old,
        ):
            assert len(lab["y"]) > len(old["y"])  # both rounds' positions
    assert main([*args, "--rounds", "0"]) == 2
    assert "error: --rounds: must be at least 1" in capsys.readouterr().err
    typical = [*argv(2, ())[:-1], str(tmp_path / "typical"), "--opponent", "typical"]
    assert main(typical) == 0  # the library's typical opponent: no rows, format 1
    assert load_model(tmp_path / "typical" / "pineapple-2p.ofcvm").opponent_rows is None
    assert not (tmp_path / "typical" / "opponent.npz").exists()
    at_random = [*argv(2)[:-1], str(tmp_path / "random"), "--opponent", "random"]
    assert main(at_random) == 0  # the rows of 3 deals of random play, carried too
    random_rows = load_model(tmp_path / "random" / "pineapple-2p.ofcvm").opponent_rows
    assert random_rows is not None and 0 < random_rows[0].sum() <= 6
    assert not np.array_equal(random_rows, rows)
    with np.load(tmp_path / "random" / "opponent.npz") as opp:
        assert np.array_equal(opp["rows"], random_rows.ravel())
    no_clean = [*argv(2)[:-1], str(tmp_path / "no-clean"), "--opponent", "random"]
    # seed 2: the one random deal fouls both boards, so there are no rows to price
    assert main([*no_clean, "--opponent-deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "finished no clean board" in err and "with another --out" in err
    assert main([*no_clean, "--opponent-deals", "2"]) == 2  # as it says: this --out
    assert "other settings" in capsys.readouterr().err  # holds the first settings
    # --fl-value: the worth of a Fantasyland entry in the labels, kept in the config
    no_fl = [*argv(2)[:-1], str(tmp_path / "no-fl"), "--fl-value", "0"]
    assert main(no_fl) == 0
    assert (
        json.loads((tmp_path / "no-fl" / "report.json").read_text())["fl_value"]
        == [0.0] * 5
    )
    assert (
        json.loads((tmp_path / "no-fl" / "config.json").read_text())["fl_value"]
        == [0.0] * 5
    )
    with (
        np.load(tmp_path / "no-fl" / "labels-11.npz") as lab,
        np.load(tmp_path / "labels-11.npz") as old,
    ):  # the same after-states and draws; a front that earns Fantasyland is worth less
        assert np.array_equal(lab["boards"], old["boards"])
        assert (lab["y"] <= old["y"] + 1e-9).all() and (lab["y"] < old["y"]).any()
    default = '{"13": 9.5, "14": 14.5, "15": 20.5, "16": 26.5, "17": 33.5}'
    second = (tmp_path / "pineapple-2p.ofcvm").read_bytes()  # (rounds 2)
    assert main([*args, "--rounds", "2", "--fl-value", default]) == 0  # the same run
    assert (tmp_path / "pineapple-2p.ofcvm").read_bytes() == second != first
    assert main([*args, "--fl-value", "5"]) == 2  # another value: another run
    assert "other settings" in capsys.readouterr().err
    assert main([*no_fl[:-1], "lots"]) == 2
    assert "--fl-value: a number or a JSON object" in capsys.readouterr().err
    assert main([*no_fl[:-1], '{"12": 1}']) == 2
    assert "error: --fl-value: card counts must be 13..17" in capsys.readouterr().err
    assert main(argv(3)) == 2
    assert "other settings" in capsys.readouterr().err


def test_cli_advise_names_the_model(capsys):
    from ofc_fast import cli

    argv = [
        "advise",
        "--board",
        "Qh / 9s 9h / As Ks",
        "--dealt",
        "2c 5d Ts",
        "--opponent",
        "Kd / 7c 7d / 2s 3s",
        "--samples",
        "16",
        "--exact",
        "no",
    ]
    assert cli.main([*argv, "--model", "auto", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None and {r["model"] for r in rows} == {model.name}
    assert cli.main([*argv, "--model", "/no/such/model.ofcvm"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_model_values_refuse_other_rules_players_and_fl_values():
    """ValueModel.value and action_values check the table as resolve_model does: a
    model of other rules or another seat count is refused, not silently evaluated;
    players outside 2..4 and an fl_value that is not 18 numbers are refused too."""
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    board = "As Ks / Qd Qc 2c / 9h 9s"
    assert isinstance(model.value(board, rules.PINEAPPLE, 2), float)
    with pytest.raises(ModelError, match="other rules"):
        model.value(board, rules.OFC, 2)
    with pytest.raises(ModelError, match="other rules"):
        model.value(board, rules.PINEAPPLE.replace(sweep_bonus=9), 2)
    with pytest.raises(ModelError, match="trained for 2 players, not 3"):
        model.value(board, rules.PINEAPPLE, 3)
    g = Game(rules.OFC, 2, seed=1)
    obs = g.observation(g.to_act)
    with pytest.raises(ModelError, match="other rules"):
        model.action_values(
            rules.OFC,
            2,
            [0.0] * 18,
            obs["boards"][g.to_act],
            obs["dealt"],
            0,
            range(52),
            obs["legal_actions"],
        )
    for bad in ([1.0], [1.0] * 20):
        with pytest.raises(ModelError, match="18"):
            model.value(board, rules.PINEAPPLE, 2, fl_value=bad)
    anyone = ValueModel.from_bytes(model_bytes(random_nets(5), rules.PINEAPPLE, 0))
    assert isinstance(anyone.value(board, rules.PINEAPPLE, np.int64(4)), float)
    for players in (1, 5, True, 2.5):
        with pytest.raises(ModelError, match="players"):
            anyone.value(board, rules.PINEAPPLE, players)  # type: ignore[arg-type]


def test_model_values_take_rules_by_name_and_refuse_other_rules_by_name():
    """Rules by preset name or game id, as everywhere (DESIGN: one resolver): a name
    of the model's own rules is its rules, a name of other rules is a ModelError
    (not an AttributeError), and a value that is no rules a RulesError."""
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    board = "As Ks / Qd Qc 2c / 9h 9s"
    want = model.value(board, rules.PINEAPPLE, 2)
    for name in ("pineapple", "ofc-pineapple"):
        assert model.value(board, name, 2) == want
    for other in ("ofc", "ofc-27", "classic_1_6"):
        with pytest.raises(ModelError, match="other rules than"):
            model.value(board, other, 2)
        with pytest.raises(ModelError, match="other rules than"):
            model.check_rules(other)
    with pytest.raises(RulesError, match="value model"):
        model.value(board, 3, 2)  # type: ignore[arg-type]


def test_search_refuses_a_model_without_the_nets_its_rollouts_need():
    """PINEAPPLE's second decision (5 cards on the board, 2 placed now): the
    sequential rollouts place the next two rounds by the model, on boards of 9 and
    11 cards.  A model with those nets serves; one without the 11-card net is
    refused with a ModelError naming it (its rollouts valued every option as a foul,
    silently), in advise and in SearchBot alike."""
    g = Game(rules.PINEAPPLE, 2, seed=5)
    for _ in range(2):
        g.play(RandomBot(seed=1).act(g.observation(g.to_act)))
    obs = g.observation(g.to_act)
    assert sum(len(r) for r in obs["boards"][g.to_act]) == 5
    enough = ValueModel.from_bytes(model_bytes(random_nets(6, (9, 11)), rules.PINEAPPLE, 2))
    assert advise(obs, samples=8, seed=1, exact=False, policy="sequential", model=enough)
    short = ValueModel.from_bytes(
        model_bytes(random_nets(6, (5, 7, 9)), rules.PINEAPPLE, 2)
    )
    with pytest.raises(ModelError, match="11 cards"):
        advise(obs, samples=8, seed=1, exact=False, policy="sequential", model=short)
    bot = SearchBot(seed=1, samples=8, time_budget=None, policy="sequential", model=short)
    with pytest.raises(ModelError, match="11 cards"):
        bot.act(obs)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--deals", "0"], "--deals: must be at least 1"),
        (["--deals", "-5"], "--deals: must be at least 1"),
        (["--eval-deals", "0"], "--eval-deals: must be at least 1"),
        (["--samples", "0"], "--samples: must be at least 1"),
        (["--eval-samples", "0"], "--eval-samples: must be at least 1"),
        (["--eval-limit", "0"], "--eval-limit: must be at least 1"),
        (["--epochs", "0"], "--epochs: must be at least 1"),
        (["--others", "-1"], "--others: must be at least 0"),
        (["--seed", "-1"], "--seed: must be 0..2**64-1, got -1"),
        (
            ["--seed", str(2**64)],
            "--seed: must be 0..2**64-1, got 18446744073709551616",
        ),
        (["--epsilon", "1.5"], "--epsilon: must be a probability"),
        (["--epsilon", "nan"], "--epsilon: must be a probability"),
        (["--hidden", "300"], "--hidden: 1..3 layer widths, each 1..256"),
        (["--hidden", "0"], "--hidden: 1..3 layer widths"),
        (["--hidden", "8,8,8,8"], "--hidden: 1..3 layer widths"),
        (["--rules", "classic_1_6"], "--rules: value models are for OFC and Pineapple"),
        (["--hidden", "x"], "--hidden: comma-separated layer widths, got 'x'"),
        (["--hidden", ","], "--hidden: an empty layer width in ','"),
        (["--hidden", "8,,8"], "--hidden: an empty layer width in '8,,8'"),
        (["--players", "4"], "--players: must be 2..3, got 4"),
        (["--players", "1"], "--players: must be 2..3, got 1"),
        (["--out", "FILE"], "--out: 'FILE' is a file, not a folder"),
        (["--out", ""], "--out: a folder is needed, got an empty name"),
        (["--out", "-"], "--out: '-' (standard output) is not written here: name a"),
        (["--opponent-deals", "5"], "--opponent-deals: only with --opponent play or"),
    ],
)
def test_training_refuses_bad_settings_before_any_step(
    tmp_path: Path, capsys, monkeypatch, extra: list[str], message: str
):
    """Each of these once failed with a traceback deep in a step (IndexError,
    AssertionError, 'wrong number of cards'), was taken silently (--others -1 labels
    every legal move but one, --epsilon 1.5) or failed only after every label and
    fit (--hidden 300, --eval-samples 0); now the command stops at once, exit 2,
    naming the setting, and runs no step.  The setting named is the option typed:
    the errors said train()'s keywords (``deals must be ...``, ``eval_deals``) and an
    --out that is a file ``[Errno 17] File exists``.  ``--out -`` made a folder named
    ``-`` (``selfplay --out -`` refuses it) and ``--hidden 8,,8`` trained ``(8, 8)``
    (``--hidden ,`` said "1..3 layer widths"): an empty item is refused as in every
    comma-separated option."""
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    monkeypatch.chdir(tmp_path)  # (--out '' trained into the current folder)
    (tmp_path / "FILE").write_text("not a folder")
    extra = [str(tmp_path / "FILE") if e == "FILE" else e for e in extra]
    message = message.replace("FILE", str(tmp_path / "FILE"))
    args = ["--rules", "pineapple", "--deals", "4", "--eval-deals", "1", "--quiet"]
    args += ["--samples", "1", "--eval-samples", "1", "--eval-limit", "1", "--epochs", "1"]
    args += ["--hidden", "4", "--opponent", "typical", "--out", str(out)]
    assert main([*args, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {message}"), err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["FILE"]


def test_train_reads_its_opponent_in_any_case_as_its_command_line_does() -> None:
    """``train(..., opponent="Random")`` said "opponent must be one of ('play',
    'random', 'typical')" though ``--opponent Random`` is read as ``random``: the
    function reads the word as every text choice is read (the opponent passes, and
    the next setting, an ``out`` that is no path, is the one refused)."""
    from ofc_fast.errors import ModelError
    from ofc_fast.learned.train import train

    for word in ("Random", " TYPICAL ", "play"):
        with pytest.raises(ModelError, match=r"^out: a folder's path is text, got 3$"):
            train("pineapple", 3, opponent=word, progress=False)  # type: ignore[arg-type]
    with pytest.raises(
        ModelError, match=r"^opponent must be one of play, random, typical, got 'nobody'$"
    ):
        train("pineapple", 3, opponent="nobody", progress=False)  # type: ignore[arg-type]


def test_training_refuses_players_whose_deal_needs_more_than_a_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--players 4`` under Pineapple rules of ``max_players=4`` (17 cards a seat,
    68 in all) made --out and failed at the first position with "the engine refused
    the deal: the deal needs more cards than the deck holds": it is refused before
    any step, naming --players and the cards."""
    from ofc_fast.learned.train import main

    path = tmp_path / "p4.json"
    path.write_text(rules.PINEAPPLE.replace(name="P4", max_players=4).to_json())
    out = tmp_path / "run"
    assert (
        main([*_TINY_RUN, "--rules", str(path), "--players", "4", "--out", str(out)]) == 2
    )
    err = capsys.readouterr().err
    assert err == "error: --players: 4 seats of P4 need 68 cards; one deck has 52\n"
    assert not out.exists()


def test_training_refuses_fl_value_with_rules_without_fantasyland(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--fl-value 3`` with rules that have no Fantasyland was taken and kept in
    config.json while every label and the report held 0 for it, and a resume with
    another value was refused as "other settings" although nothing differed: it is
    refused before any step, naming --fl-value and the rules."""
    from ofc_fast.learned.train import main, train

    table = rules.PINEAPPLE.replace(name="no-fl", fantasyland=None)
    path = tmp_path / "no-fl.json"
    path.write_text(table.to_json())
    out = tmp_path / "run"
    args = [*_TINY_RUN, "--rules", str(path), "--out", str(out)]
    for value in ("3", "0", '{"14": 10.5}'):
        assert main([*args, "--fl-value", value]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --fl-value: no-fl has no Fantasyland"), err
    with pytest.raises(ModelError, match=r"^fl_value: no-fl has no Fantasyland"):
        train(table, out, fl_value=3.0)
    assert not out.exists()


@pytest.mark.parametrize("option", ["--samples", "--eval-samples"])
def test_training_refuses_more_draws_than_a_label_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    """A label (and a held-out teacher value) is the mean of at most 1,000,000 draws
    (C ``ofc_value_expect``, csrc/include/ofc_value.h): ``--samples 1000001`` played
    every position and then failed at the first label, ``--eval-samples 1000001``
    after every label and fit, each as "error: label: wrong number of cards", which
    named no option; both are now refused before any step, naming the option."""
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    assert main([*_TINY_RUN, option, "1000001", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {option}: must be at most 1,000,000 (draws), got 1000001\n"
    assert not out.exists()


def test_training_refuses_more_rounds_than_it_can_name_the_files_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run names every file its steps write before the first step (a folder in the
    way is refused then): ``--rounds 3000000`` spent 40 s and 4.7 GB on those names
    before anything was played.  Rounds are at most 100 (each a whole pass of play,
    labels and fits), refused before any step, naming the option; 100 is taken."""
    from ofc_fast.learned._settings import check_settings
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    assert main([*_TINY_RUN, "--rounds", "3000000", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: --rounds: must be at most 100 (each a whole pass of play, labels and "
        "fits), got 3000000\n"
    )
    assert not out.exists()
    check_settings(rules.PINEAPPLE, 2, seed=1, epsilon=0.1, hidden=(8,), rounds=100)


@pytest.mark.parametrize(
    ("table", "hidden", "params"),
    [("pineapple", "256,256", "330,756"), ("ofc", "128,128,128", "331,784")],
)
def test_training_refuses_nets_no_model_file_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, hidden: str, params: str
) -> None:
    """A model file holds at most 262,144 weights and biases over all its nets
    (OFC_VM_MAX_PARAMS, csrc/include/ofc_model.h).  ``--hidden 256,256`` (each width
    in 1..256, as the settings check asked) trained PINEAPPLE's four nets, 4 x
    (64*256 + 256 + 256*256 + 256 + 256 + 1) = 330,756 of them, then failed at the
    model file, after every label and fit, with "the value model's layers, sizes or
    opponent rows are out of range"; it is now refused before any step, naming
    --hidden and the count."""
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--rules", table, "--hidden", hidden]  # (the last one counts)
    assert main([*args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --hidden: {params} weights and biases in the ")
    assert "a model file holds at most 262,144" in err and err.count("\n") == 1
    assert not out.exists()


def test_training_caps_workers_as_every_command_does(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """``python -m ofc_fast.learned.train --workers 9999`` started a pool of 9999
    processes, where ``ofc-fast play`` and ``selfplay`` refuse more than 4 per CPU."""
    from ofc_fast.learned import train as train_mod
    from ofc_fast.parallel import _counts as parallel_counts

    def no_pool(*args: Any) -> None:
        raise AssertionError("a pool was started")

    monkeypatch.setattr(train_mod, "make_executor", no_pool)
    monkeypatch.setattr(parallel_counts, "cpu_count", lambda: 2)
    out = tmp_path / "run"
    assert train_mod.main(["--out", str(out), "--workers", "9999", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == "error: --workers: must be at most 8, got 9999 (4 per CPU, 2 CPUs here)\n"
    assert not out.exists()


def test_training_takes_workers_and_ray_as_every_command_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/parallel.md: ``--ray`` alone starts a local cluster on this machine's CPUs
    (``--workers`` caps it), and ``--workers`` with a cluster's address is refused,
    naming both.  The training command's ``--workers`` defaulted to 1, so ``--ray
    local`` started a cluster of one CPU (every chunk in turn), and ``--ray auto
    --workers 4`` ran on the cluster's CPUs, ``--workers`` ignored silently."""
    from ofc_fast.learned import train as train_mod

    made: list[tuple[Any, Any]] = []

    def record(workers: Any, ray: Any) -> None:
        made.append((workers, ray))
        raise ModelError("no executor in this test")

    monkeypatch.setattr(train_mod, "make_executor", record)
    out = str(tmp_path / "run")
    for ray, workers, want in (
        ("local", [], (None, "local")),  # the local cluster's CPUs, all of them
        ("local", ["--workers", "2"], (2, "local")),
        (None, [], (None, None)),  # one process
    ):
        args = [*workers, "--out", out] + ([] if ray is None else ["--ray", ray])
        assert train_mod.main(args) == 2
        assert made.pop() == want
    capsys.readouterr()
    assert train_mod.main(["--workers", "4", "--ray", "auto", "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --workers: caps only the local cluster") and made == []
    assert "--ray auto runs on its cluster's CPUs" in err


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"deals": 1e3}, "deals: must be a whole number, got 1000.0"),
        ({"samples": 1.5}, "samples: must be a whole number, got 1.5"),
        ({"eval_limit": True}, "eval_limit: must be a whole number, got True"),
        ({"rounds": 2.0}, "rounds: must be a whole number, got 2.0"),
        ({"opponent_deals": 0}, "opponent_deals: must be at least 1, got 0"),
        ({"seed": 1.5}, "seed: must be 0..2**64-1, got 1.5"),
        ({"seed": 2**64}, "seed: must be 0..2**64-1, got 18446744073709551616"),
        ({"players": 2.5}, "players must be 2..3, got 2.5"),
        ({"hidden": (8.5,)}, "hidden: 1..3 layer widths, each 1..256"),
        ({"hidden": 64}, "hidden: 1..3 layer widths, each 1..256 (a model file's nets "),
        ({"hidden": "64,64"}, "hidden: 1..3 layer widths, each 1..256"),
        ({"hidden": np.array([[4]])}, "hidden: 1..3 layer widths, each 1..256"),
    ],
)
def test_train_refuses_counts_that_are_no_ints(
    tmp_path: Path, setting: dict[str, Any], message: str
):
    """train() takes its counts as ints: deals=1e3 failed with a TypeError at the
    positions, samples=1.5 with 'an integer is required' after them, rounds=2.0
    after the first round and hidden=(8.5,) at the first fit (after labels), each
    after config.json was written; now a ModelError naming the setting comes first.
    hidden=64 (no widths) was a TypeError "object of type 'int' has no len()"."""
    from ofc_fast.learned.train import train

    settings: dict[str, Any] = dict(deals=4, eval_deals=1, samples=1, eval_samples=1)
    settings.update(eval_limit=1, epochs=1, hidden=(4,), opponent="typical")
    out = tmp_path / "run"
    with pytest.raises(ModelError) as err:
        train("pineapple", out, **{**settings, **setting}, progress=False)
    assert message in str(err.value)
    assert not out.exists()


def test_train_refuses_a_progress_that_is_no_flag(tmp_path: Path) -> None:
    """train(progress=...) is a flag, read as the library reads its flags
    (``ofc_fast.errors.flag``): progress="no" counted as true (any non-empty text)
    and drew the progress bars; a ModelError naming it comes before any step."""
    from ofc_fast.learned.train import train

    out = tmp_path / "run"
    for bad in ("no", None, 0):
        with pytest.raises(ModelError, match=r"^progress must be True or False, got "):
            train("pineapple", out, deals=4, progress=bad)  # type: ignore[arg-type]
    assert not out.exists()


def test_train_takes_numpy_numbers_and_refuses_text(tmp_path: Path) -> None:
    """train() takes NumPy ints as its counts and seed (as_int, the library's one test
    of an int, passes them) and a NumPy float as epsilon, as a sweep over
    ``np.arange`` gives them: config.json could not hold them ('Object of type int64
    is not JSON serializable', a TypeError after the folder was made).  The run
    resumes under the same settings as Python numbers.  Widths in a NumPy array train
    (a ValueError: "the truth value of an array ... is ambiguous").  An epsilon that
    is text was a TypeError from the comparison: a ModelError naming it."""
    _require_torch()
    from ofc_fast.learned.train import train

    out = tmp_path / "run"
    settings: dict[str, Any] = dict(eval_deals=1, samples=1, eval_samples=1, epochs=1)
    settings.update(eval_limit=1, opponent="typical", progress=False)
    report = train(
        "pineapple",
        out,
        deals=np.int64(4),
        seed=np.uint64(3),
        epsilon=np.float32(0.25),
        hidden=(np.int64(4),),
        **settings,
    )
    config = json.loads((out / "config.json").read_text())
    assert (config["deals"], config["seed"], config["epsilon"]) == (4, 3, 0.25)
    assert config["hidden"] == [4]
    again = train("pineapple", out, deals=4, seed=3, epsilon=0.25, hidden=(4,), **settings)
    assert again == report
    widths = np.array([4, 4])  # a sweep's widths (a ValueError of its truth value)
    train("pineapple", tmp_path / "widths", deals=4, hidden=widths, **settings)  # type: ignore[arg-type]
    config = json.loads((tmp_path / "widths" / "config.json").read_text())
    assert config["hidden"] == [4, 4]
    with pytest.raises(
        ModelError, match=r"epsilon must be a probability, 0\.\.1, got '0\.1'"
    ):
        train("pineapple", tmp_path / "text", epsilon="0.1", **settings)  # type: ignore[arg-type]
    assert not (tmp_path / "text").exists()


def test_training_resume_refuses_damaged_step_files(tmp_path: Path, capsys):
    """A damaged saved step (a truncated .npz) or config.json stops the resumed run
    with exit 2 and a message naming the file (it was a zipfile.BadZipFile
    traceback), and the damaged file is left for the user to delete."""
    _require_torch()  # (the command checks for torch before it reads a step)
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = ["--rules", "pineapple", "--deals", "4", "--eval-deals", "1", "--quiet"]
    args += ["--samples", "1", "--epochs", "1", "--opponent", "typical", "--out", str(out)]
    out.mkdir()
    (out / "cost.json").write_text("[]")  # JSON, but no object: a TypeError traceback
    assert main(args) == 2  # (after writing config.json: a run's steps need theirs)
    assert "cost.json: a damaged run file (not a JSON object)" in capsys.readouterr().err
    (out / "cost.json").unlink()
    (out / "positions.npz").write_bytes(b"PK\x03\x04 not a whole archive")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "positions.npz: a damaged step file" in err and "delete it" in err
    assert (out / "positions.npz").read_bytes().startswith(b"PK")
    (out / "config.json").write_text("{")
    assert main(args) == 2
    assert "config.json: a damaged run file" in capsys.readouterr().err
    (out / "config.json").unlink()  # the steps' settings gone: refused, not trusted
    assert main(args) == 2
    assert "holds saved steps (positions.npz) but no config.json" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("damage", ["huge", "deflate"])
def test_fuzz_a_step_file_declaring_more_than_it_holds_is_damaged(
    tmp_path: Path, damage: str
) -> None:
    """Found with tests/fuzz/fuzz_model.py's .npz inputs: a saved step whose array
    header declares 2**40 floats made a resumed run allocate 4 TiB (MemoryError), one
    whose compressed data is damaged raised zlib.error; each is a damaged step file
    (ModelError naming it), as a truncated one is."""
    import io
    import zipfile

    from ofc_fast.learned._run import Run

    buf = io.BytesIO()
    np.save(buf, np.zeros((2, 2), np.float32))
    raw = buf.getvalue()
    run = Run(tmp_path, {})  # (it writes config.json: a later step file is its own)
    path = tmp_path / "positions.npz"
    if damage == "huge":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("x.npy", raw.replace(b"(2, 2)", b"(1099511627776,)"))
    else:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("x.npy", raw)
        data = bytearray(path.read_bytes())
        data[36:44] = b"\xff" * 8  # the deflate stream, after the 30 + 6 header bytes
        path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match=r"positions\.npz: a damaged step file"):
        run.step("positions", dict, lambda arrays: arrays["x"])


_TINY_RUN = [
    *["--rules", "pineapple", "--deals", "4", "--eval-deals", "1", "--quiet"],
    *["--samples", "1", "--eval-samples", "1", "--eval-limit", "1"],
    *["--epochs", "1", "--hidden", "4", "--opponent", "typical"],
]
"""The training command's smallest run (about two seconds), without --out."""


def test_training_report_gives_no_interval_below_two_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one held-out decision a street (--eval-limit 1) report.md printed
    "0.000 ± 0.000" as its 95% interval: below two decisions there is none, null in
    report.json and said so in report.md.  The plot's top-1 axis went below 0 when
    every agreement was 0 (matplotlib's autoscaled -0.055..0.055)."""
    from ofc_fast.learned import _report

    one = {"decisions": 1, "regret": 0.25, "regret_ci95": None, "top1": 0.0}
    two = {"decisions": 2, "regret": 0.5, "regret_ci95": 0.125, "top1": 0.0}
    report = {
        "model": "m",
        "rules": "pineapple",
        "players": 2,
        "streets": {"5": {**one, "top1_ci95": None}, "7": {**two, "top1_ci95": 0.0}},
        "cost_seconds": {"positions": 1.0},
        "total_seconds": 1.0,
    }
    text = _report.markdown(report)
    assert "| 5 | 1 | 0.250 (no interval: n < 2) | 0.0% (no interval: n < 2) |" in text
    assert "| 7 | 2 | 0.500 ± 0.125 | 0.0% ± 0.0 |" in text
    pytest.importorskip("matplotlib", reason='pip install ".[learn]"')
    from matplotlib.figure import Figure

    limits: list[tuple[float, float]] = []
    saved = Figure.savefig

    def savefig(fig: Any, *args: Any, **kwargs: Any) -> None:
        limits.extend(a.get_ylim() for a in fig.axes)
        saved(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    assert _report.plot(report, tmp_path / "report.png")
    (regret_low, _), (top1_low, top1_high) = limits
    assert regret_low == 0.0 and (top1_low, top1_high) == (0.0, 100.0)


def test_training_run_with_one_held_out_decision_has_no_interval(tmp_path: Path) -> None:
    """The run's side of the test above: --eval-limit 1 keeps null intervals."""
    _require_torch()
    from ofc_fast.learned.train import main

    assert main([*_TINY_RUN, "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    for street in report["streets"].values():
        assert street["decisions"] <= 1 and street["regret_ci95"] is None
        assert street["top1_ci95"] is None
    text = (tmp_path / "report.md").read_text()
    assert "±" not in text and "(no interval: n < 2)" in text


def test_training_refuses_an_out_with_a_folder_where_a_file_goes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder in --out named as a file the run writes (RUN/pineapple-2p.ofcvm,
    RUN/report.md, a step's .npz) ended the run, after its steps, with
    "error: [Errno 21] Is a directory: ..." naming neither --out nor what to do; each
    file a finished run made is now checked before any step: exit 2 naming --out and
    the file, nothing written."""
    _require_torch()
    from ofc_fast.learned.train import main

    args = [*_TINY_RUN, "--opponent", "random", "--opponent-deals", "4", "--rounds", "2"]
    assert main([*args, "--out", str(tmp_path / "done")]) == 0
    made = sorted(p.name for p in (tmp_path / "done").iterdir() if p.name[0] != ".")
    assert {"pineapple-2p.ofcvm", "report.md", "positions-r2.npz", "opponent.npz"} <= {
        *made
    }
    capsys.readouterr()
    for k, name in enumerate(made):
        out = tmp_path / f"run{k}"
        (out / name).mkdir(parents=True)
        assert main([*args, "--out", str(out)]) == 2, name
        err = capsys.readouterr().err
        assert err.startswith(f"error: --out: {str(out / name)!r} is in the way"), err
        assert "another --out" in err
        assert [p.name for p in out.iterdir()] == [name]  # (no config, no lock)


def test_training_resume_refuses_foreign_step_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A saved step that is a whole .npz without the arrays of its step (a file of
    another run or program, copied in) stopped the resumed run with a KeyError
    traceback ('board', 'summary'), and a cost.json whose seconds are text with a
    TypeError; each is now a damaged run file, exit 2, one line naming the file and
    what it lacks."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    for step, lacks in (("heldout", "dealt"), ("net-7", "layers"), ("labels-9", "boards")):
        path = out / f"{step}.npz"
        saved = path.read_bytes()
        np.savez(path, board=np.zeros(3))  # a whole archive, not this step's
        assert main(args) == 2, step
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}: a damaged step file (no array '{lacks}')")
        assert "delete it" in err and err.count("\n") == 1, err
        path.write_bytes(saved)
    (out / "cost.json").write_text('{"positions": "x"}')
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: {out / 'cost.json'}: a damaged run file (not seconds by step); delete "
        "it to resume (the report then lacks the earlier steps' seconds)\n"
    )


def test_training_resume_refuses_a_report_it_cannot_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finished run's report.json that names the run's model but lacks a field
    (``rules``) or holds text for a number stopped the resumed run with a KeyError
    or ValueError traceback (the command prints the report it keeps); it is a
    damaged run file, exit 2, one line naming it, and left for the user to delete."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    path = out / "report.json"
    good = json.loads(path.read_text())
    streets = {c: {**s, "regret": "x"} for c, s in good["streets"].items()}
    for bad, why in (
        ({k: v for k, v in good.items() if k != "rules"}, "no field 'rules'"),
        ({**good, "streets": streets}, "regret"),
        ({**good, "streets": []}, "streets"),
    ):
        path.write_text(json.dumps(bad))
        assert main(args) == 2, why
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}: a damaged run file ("), err
        assert "delete it" in err and err.count("\n") == 1, err
        assert json.loads(path.read_text()) == bad  # left as it was
    path.unlink()  # deleted: the report is made again
    assert main(args) == 0
    assert json.loads(path.read_text())["model"] == good["model"]


@pytest.mark.parametrize("name", ["config.json", "cost.json"])
def test_a_run_file_nested_too_deep_is_a_damaged_run_file(
    tmp_path: Path, name: str
) -> None:
    """Regression: a training run's config.json or cost.json nested deeply (a damaged
    or hostile --out) made the resumed run end in a RecursionError traceback; it is a
    damaged run file (ModelError naming it), as one that is no JSON is."""
    from ofc_fast.learned._run import Run

    Run(tmp_path, {})  # (writes config.json)
    (tmp_path / name).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ModelError, match=rf"{name}: a damaged run file \(nested too deep"):
        Run(tmp_path, {})


@pytest.mark.parametrize(
    ("name", "remedy"),
    [
        ("config.json", "use another --out"),
        ("cost.json", "delete it to resume"),
        ("report.json", "delete it to make the report again"),
    ],
)
def test_a_damaged_run_file_says_what_to_do(tmp_path: Path, name: str, remedy: str) -> None:
    """Regression: a resumed training run whose config.json, cost.json or report.json
    was cut short (not JSON) stopped with only 'a damaged run file (Expecting value
    ...)': the user was not told what to do, where a damaged step file says
    'delete it' (and report.json did, for a field missing alone).  Each now ends
    with its remedy, whatever the damage."""
    from ofc_fast.learned._report import read_report
    from ofc_fast.learned._run import Run

    Run(tmp_path, {})  # (writes config.json)
    for damage in ("{", "[]", '{"positions": "x"}' if name == "cost.json" else "{"):
        (tmp_path / name).write_text(damage)
        with pytest.raises(ModelError) as info:
            read_report(tmp_path / name) if name == "report.json" else Run(tmp_path, {})
        message = str(info.value)
        assert message.startswith(f"{tmp_path / name}: a damaged run file ("), message
        assert f"); {remedy}" in message, message
    if name == "cost.json":  # the remedy works: the run resumes without it
        (tmp_path / name).unlink()
        assert Run(tmp_path, {}).cost == {}


def test_an_unreadable_run_file_is_not_called_damaged(tmp_path: Path) -> None:
    """Regression (review): a run file that could not be read (an OSError: a folder in
    its place, no permission) was called damaged, with the remedy of a damaged one
    ('delete it to resume'); it is named unreadable, with the OS's reason."""
    from ofc_fast.learned._run import read_json

    (tmp_path / "cost.json").mkdir()
    with pytest.raises(ModelError) as info:
        read_json(tmp_path / "cost.json")
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'cost.json'}: cannot read the run file ("), (
        message
    )
    assert "delete it" not in message and "damaged" not in message, message
    (tmp_path / "report.json").write_bytes(b'{"a": "\xff"}')  # (no UTF-8: damaged)
    with pytest.raises(ModelError) as info:
        read_json(tmp_path / "report.json")
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'report.json'}: a damaged run file ("), message
    assert message.endswith("delete it to make the report again"), message


def test_training_resume_names_a_setting_only_one_run_has(tmp_path: Path, capsys):
    """A run with --fl-value resumed without it (or the other way round) is refused
    naming fl_value: the config keeps the setting only when it is set, and the
    message listed only the keys of the new config ('differs in: []').  A
    config.json that is JSON but no object is a damaged run file (it was an
    AttributeError traceback)."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main([*args, "--fl-value", "0"]) == 0
    capsys.readouterr()
    assert main(args) == 2
    assert "differs in: ['fl_value']" in capsys.readouterr().err
    assert main([*args, "--fl-value", "0", "--deals", "5", "--seed", "9"]) == 2
    assert "differs in: ['deals', 'seed']" in capsys.readouterr().err
    (out / "config.json").write_text("[]")
    assert main(args) == 2
    assert "config.json: a damaged run file" in capsys.readouterr().err


def test_training_refuses_fewer_rounds_than_its_out_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rounds 1`` on an --out holding a finished 2-round run replaced its round-2
    model and report with round 1's, silently: it is refused, naming --rounds and
    the round the folder holds, and the files are left as they were."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main([*args, "--rounds", "2"]) == 0
    capsys.readouterr()
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main(args) == 2
    assert capsys.readouterr().err == (
        f"error: --rounds: {out} holds steps of round 2 of this run; with 1 its model "
        "and report would go back to round 1's: give 2 (or more), or use another --out\n"
    )
    assert {p.name: p.read_bytes() for p in out.iterdir()} == files
    assert json.loads((out / "report.json").read_text())["rounds"] == 2
    assert main([*args, "--rounds", "2"]) == 0  # the same run: resumed as it was


def test_training_redoes_only_the_report_for_new_report_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another --eval-samples, --eval-limit or --eval-deals on a finished run was
    refused as "other settings" although the training steps do not depend on them:
    the steps are kept and only the held-out deals (--eval-deals) and the report
    are made again, with the config holding the new values."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main(args) == 0
    kept = {p.name: p.read_bytes() for p in out.glob("*.npz") if p.name != "heldout.npz"}
    model = (out / "pineapple-2p.ofcvm").read_bytes()
    held = (out / "heldout.npz").read_bytes()
    assert main([*args, "--eval-limit", "30", "--eval-samples", "2"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["streets"]["11"]["decisions"] > 1  # evaluated again, 30 at most
    assert (out / "heldout.npz").read_bytes() == held
    config = json.loads((out / "config.json").read_text())
    assert (config["eval_limit"], config["eval_samples"]) == (30, 2)
    assert (
        main([*args, "--eval-limit", "30", "--eval-samples", "2", "--eval-deals", "3"]) == 0
    )
    again = json.loads((out / "report.json").read_text())
    assert again["streets"]["11"]["decisions"] > report["streets"]["11"]["decisions"]
    with np.load(out / "heldout.npz") as f:
        assert sorted(set(f["deal"].tolist())) == [0, 1, 2]  # three held-out deals now
    assert {p.name: p.read_bytes() for p in out.glob("*.npz") if p.name in kept} == kept
    assert (out / "pineapple-2p.ofcvm").read_bytes() == model
    assert main([*args, "--deals", "5"]) == 2  # a step's setting: refused, as was
    assert "differs in: ['deals', 'eval_deals', 'eval_limit', 'eval_samples']" in (
        capsys.readouterr().err
    )


def test_training_refuses_steps_without_their_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With config.json deleted by hand from an --out holding saved steps, the run
    wrote a config of its new settings and trusted the steps made under the old
    ones: it is refused, naming the folder and the missing config.json."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    (out / "config.json").unlink()
    assert main([*args, "--seed", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out} holds saved steps (heldout.npz, labels-11.npz")
    assert "but no config.json" in err and err.count("\n") == 1
    assert not (out / "config.json").exists()


def test_training_command_reports_an_unusable_out_and_ctrl_c(
    tmp_path: Path, capsys, monkeypatch
):
    """An --out that is a file (or lies under one) is a one-line error, exit 2 (it
    was a FileExistsError / NotADirectoryError traceback); Ctrl-C during a step
    says the finished steps are saved and exits 130 (a KeyboardInterrupt
    traceback), and the same command then resumes from them."""
    _require_torch()
    from ofc_fast.learned import train as train_module

    args = _TINY_RUN
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out in (afile, afile / "run"):
        assert train_module.main([*args, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and str(afile) in err
        assert "Traceback" not in err and err.count("\n") == 1

    def ctrl_c(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    out = tmp_path / "run"
    monkeypatch.setattr(train_module, "_labels", ctrl_c)
    assert train_module.main([*args, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "run the same command again" in err
    assert (out / "positions.npz").exists() and not (out / "labels-11.npz").exists()
    monkeypatch.undo()
    assert train_module.main([*args, "--out", str(out)]) == 0
    assert (out / "pineapple-2p.ofcvm").exists()


def test_training_interrupted_before_its_first_step_says_nothing_is_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the first seconds of a run (torch loading, before --out is made)
    said "the finished steps are saved in RUN; run the same command again to
    resume", of a folder that did not exist: it now says that nothing was saved."""
    from ofc_fast.learned import train as train_module

    def ctrl_c() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(train_module, "require_torch", ctrl_c)
    out = tmp_path / "run"
    assert train_module.main([*_TINY_RUN, "--out", str(out)]) == 130
    assert capsys.readouterr().err == (
        f"interrupted before the first step: nothing was saved in {out}\n"
    )
    assert not out.exists()


_TERMINATED_TRAINING = """
import os, signal, sys
from ofc_fast.learned import train
real = train.in_order
def first_then_kill(results):
    for res in real(results):
        os.kill(os.getpid(), signal.SIGTERM)  # `kill` once the first chunk is back
        yield res
train.in_order = first_then_kill
sys.exit(train.main([*sys.argv[2:], "--workers", "2", "--out", sys.argv[1]]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGTERM)")
def test_sigterm_stops_training_as_ctrl_c_does(tmp_path: Path) -> None:
    """SIGTERM (``kill``) to ``python -m ofc_fast.learned.train --workers 2`` ended it
    at once (exit by signal 15, multiprocessing's "leaked semaphore" warning); as
    ``selfplay``, it now stops as by Ctrl-C: the workers stopped, the finished steps
    kept, exit status 130."""
    _require_torch()
    from scripts import package_env

    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-c", _TERMINATED_TRAINING, str(out), *_TINY_RUN],
        capture_output=True,
        text=True,
        timeout=120,
        env=package_env(),
    )
    assert (done.returncode, done.stderr) == (
        130,
        f"interrupted: the finished steps are saved in {out}; run the same command "
        "again to resume\n",
    )
    assert (out / "config.json").exists() and not (out / "positions.npz").exists()


def _ctrl_c_at_import(module: str, script: str, *args: str) -> tuple[int, str, str]:
    """Exit status, output and errors of ``script`` run in a process that gets a
    Ctrl-C as an import first reaches ``module`` (``CtrlC.came``: it came)."""
    from interrupts import CTRL_C_AT_IMPORT
    from scripts import package_env

    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_AT_IMPORT + script, module, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=package_env(),
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT to itself)")
def test_ctrl_c_while_training_loads_torch_leaves_torch_whole(tmp_path: Path) -> None:
    """Ctrl-C in the first seconds of a run, while ``train()`` imports torch, cut the
    import half-way: a session's next ``train()`` failed with "partially initialized
    module 'torch' has no attribute ..." until it was restarted, and the command
    sometimes aborted (a pybind11 ``terminate``, exit 134, no "interrupted" line).
    The import now ends whole and the Ctrl-C stops the run after it."""
    _require_torch()
    script = """
from ofc_fast.learned.train import train
try:
    train("pineapple", sys.argv[2], deals=4)
except KeyboardInterrupt:
    print("interrupted", CtrlC.came)
import torch  # a session goes on: the next train() fits with it
print(torch.nn.Linear(2, 1).weight.shape == (1, 2))
"""
    code, out, err = _ctrl_c_at_import("torch.nn", script, str(tmp_path / "run"))
    assert (code, out) == (0, "interrupted True\nTrue\n"), err
    assert not (tmp_path / "run").exists()  # stopped before any step


def test_training_names_out_when_its_folder_takes_no_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An --out folder that exists but takes no files (read-only, another user's) was
    refused as "error: [Errno 13] Permission denied: '.../.training.lock'", naming
    neither the option nor the problem in words; the error now names --out, as for a
    folder that cannot be made.  The refusal comes from the run's lock file, the
    first file written: made to fail here, as root may write anywhere."""
    _require_torch()  # (the command checks for torch before it makes --out)
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    out.mkdir()
    refuse_writes_in(monkeypatch, out)
    assert main([*_TINY_RUN, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert (
        err == f"error: --out: cannot write in the folder {str(out)!r}: Permission denied\n"
    )
    assert list(out.iterdir()) == []


def test_training_takes_the_opponent_rows_before_the_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/learned.md numbers the opponent rows step 0: a run whose opponent deals
    finish no clean board stops there, and asks for another --out.  The rows were
    taken after the positions and the held-out deals, so that run had played every
    training deal (the longest step) into a folder it then had to leave."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [a for a in _TINY_RUN if a not in ("--opponent", "typical")]
    # seed 2: the one random deal fouls both boards, so there are no rows to price
    rows = ["--opponent", "random", "--opponent-deals", "1", "--seed", "2"]
    assert main([*args, *rows, "--out", str(out)]) == 2
    assert "finished no clean board" in capsys.readouterr().err
    assert not (out / "positions.npz").exists() and not (out / "heldout.npz").exists()
    assert json.loads((out / "cost.json").read_text()).keys() == {"opponent"}


def test_training_run_files_are_whole_after_a_kill(tmp_path: Path, capsys, monkeypatch):
    """Every file of a run is written to a temporary file and renamed into place, so
    a kill leaves the old file or the new one, never a part that the resumed run
    then refuses or trusts (config.json, cost.json, the model and the report were
    written in place), and report.json, which a resumed run takes as the sign that
    the report is done, is written after report.md (it was written first).  A
    damaged report.json is a ModelError naming it (it was a bare JSON message)."""
    _require_torch()
    import os

    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    rename = os.replace

    def killed_at(name: str, nth: int) -> None:
        """A kill just before the nth rename onto ``name``."""
        seen = []

        def replace(src: object, dst: object) -> None:
            if Path(str(dst)).name == name:
                seen.append(dst)
                if len(seen) == nth:
                    raise KeyboardInterrupt
            rename(src, dst)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "replace", replace)

    killed_at("cost.json", 2)  # after the positions step, at the held-out one's
    assert main(args) == 130
    assert json.loads((out / "cost.json").read_text()).keys() == {"positions"}
    killed_at("report.md", 1)
    assert main(args) == 130
    assert not (out / "report.json").exists()
    monkeypatch.setattr(os, "replace", rename)
    assert main(args) == 0
    assert (out / "report.md").exists() and (out / "report.json").exists()
    assert load_model(out / "pineapple-2p.ofcvm").cards == (5, 7, 9, 11)
    assert not list(out.glob("*.tmp"))
    (out / "report.json").write_text("{")
    capsys.readouterr()
    assert main(args) == 2
    assert "report.json: a damaged run file" in capsys.readouterr().err


def test_training_writes_the_model_inside_out_whatever_the_rules_name(tmp_path: Path):
    """The model file is named after the rules, and a custom rule set's name is any
    text: one named '../escape/x' wrote its model outside --out (or, without that
    folder, failed with a FileNotFoundError after every step).  Such characters are
    now '_' in the file name, which the report names."""
    _require_torch()
    from ofc_fast.learned.train import main

    table = tmp_path / "rules.json"
    table.write_text(rules.PINEAPPLE.replace(name="../escape/X").to_json())
    (tmp_path / "escape").mkdir()
    out = tmp_path / "run"
    assert main([*_TINY_RUN, "--rules", str(table), "--out", str(out)]) == 0
    assert not list((tmp_path / "escape").iterdir())
    report = json.loads((out / "report.json").read_text())
    assert report["file"] == "_._escape_x-2p.ofcvm"
    model = load_model(out / "_._escape_x-2p.ofcvm")
    assert model.name == report["model"] and model.rules_hash == rules_hash(
        rules.PINEAPPLE.replace(name="../escape/X")
    )


def test_a_trained_model_is_named_after_any_rules_name():
    """A trained model is parsed under its file's stem, a name 1 to 100 printable
    characters: a rule set's name (any text of at most 64 characters) with characters
    that are not printable (a zero-width space, a C1 control) has them as '_' in the
    file name, so the model's name after training is one from_bytes takes."""
    from ofc_fast.learned.train import _file_name

    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    for name in ("a\u200bb\x85c\u2028d", "x" * 64, "../escape/X"):
        file = _file_name(rules.PINEAPPLE.replace(name=name), 4)
        assert file.endswith("-4p.ofcvm") and file.isprintable(), file
        stem = file.rsplit(".", 1)[0]
        assert ValueModel.from_bytes(data, stem).name.startswith(stem + "@")
    assert _file_name(rules.PINEAPPLE.replace(name="a\u200bb\x85c"), 2) == "a_b_c-2p.ofcvm"


def test_a_trained_model_file_name_fits_the_file_system(tmp_path: Path):
    """A rule set's name may hold 64 characters of four UTF-8 bytes each (a playing
    card emoji): its model file's name stays within the 255 bytes a file system allows
    a name (it failed with 'File name too long' after every step of the training),
    keeps the whole characters it can and the '-<players>p.ofcvm' ending, and the
    file can be made under it."""
    from ofc_fast.learned.train import _file_name

    for name in ("\U0001f0a1" * 64, "x" + "\U0001f0a1" * 63, "\u00e9" * 64):
        file = _file_name(rules.PINEAPPLE.replace(name=name), 3)
        assert len(file.encode("utf-8")) <= 255, file
        assert file.endswith("-3p.ofcvm") and name.startswith(file[: -len("-3p.ofcvm")])
        (tmp_path / file).write_bytes(b"")  # the file system takes the name
    short = "\u00e9" * 64  # 128 bytes: kept whole
    assert _file_name(rules.PINEAPPLE.replace(name=short), 2) == short + "-2p.ofcvm"


def test_training_report_without_matplotlib_says_so(tmp_path: Path, capsys, monkeypatch):
    """Without matplotlib (the learn extra's plot library) the report is written and
    the command says that report.png is not drawn and what to install (it said
    nothing), and removes an earlier run's plot, which showed other numbers than
    the new report beside it."""
    _require_torch()
    import sys

    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    out.mkdir()
    (out / "report.png").write_bytes(b"an earlier run's plot")
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails
    args = [a for a in _TINY_RUN if a != "--quiet"]
    assert main([*args, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "report.png: not drawn without matplotlib" in err and "[learn]" in err
    assert not (out / "report.png").exists()
    assert json.loads((out / "report.json").read_text())["streets"]


def test_training_takes_the_largest_seed(tmp_path: Path):
    """A seed is an int 0..2**64-1 here as everywhere in the library: the largest
    trains (each net's fit seed, the run's seed plus its card count, passed
    torch's range: 'Overflow when unpacking long long' after the positions and the
    first labels); 2**64 is refused before any step (the floor-only check let any
    larger seed through)."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    assert main([*_TINY_RUN, "--seed", str(2**64 - 1), "--out", str(out)]) == 0
    assert load_model(out / "pineapple-2p.ofcvm").cards == (5, 7, 9, 11)


def test_training_without_torch_stops_before_any_step(tmp_path: Path, capsys, monkeypatch):
    """Without torch (the learn extra) the command stops at once, exit 2, saying what
    to install; it played the positions and labelled the first street, then failed
    with a ModuleNotFoundError traceback at the first fit."""
    import sys

    from ofc_fast.learned.train import main

    monkeypatch.setitem(sys.modules, "torch", None)  # import fails
    out = tmp_path / "run"
    assert main([*_TINY_RUN, "--out", str(out)]) == 2
    assert "needs torch: pip install 'ofc-fast[learn]'" in capsys.readouterr().err
    assert not out.exists()


def test_training_plot_leaves_the_callers_matplotlib_as_it_was(tmp_path: Path):
    """The report's plot (train() in a notebook, say) switched the process's
    matplotlib backend to Agg (matplotlib.use), so the notebook's own figures no
    longer showed; it now draws on a bare Figure: the backend and the caller's open
    figures stay as they were, and the PNG is written."""
    matplotlib = pytest.importorskip("matplotlib", reason='pip install ".[learn]"')
    import matplotlib.pyplot as plt

    from ofc_fast.learned._report import plot

    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        others = plt.get_fignums()  # (figures an earlier test in this process left open)
        mine = plt.figure()
        street = {
            "decisions": 9,
            "regret": 0.5,
            "regret_ci95": 0.1,
            "top1": 0.25,
            "top1_ci95": 0.05,
        }
        assert plot({"streets": {"5": street, "7": street}}, tmp_path / "report.png")
        assert matplotlib.get_backend() == "svg"
        assert plt.get_fignums() == [*others, mine.number]
        plt.close(mine)
    finally:
        matplotlib.use(before)
    assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(sys.platform == "win32", reason="run on POSIX (SIGINT to itself)")
def test_ctrl_c_while_the_report_loads_matplotlib_leaves_it_whole(tmp_path: Path) -> None:
    """Ctrl-C while the report's plot imported matplotlib (train() in a notebook, at
    the end of a run) cut the import half-way: the resumed train() stopped with
    "module 'matplotlib' has no attribute 'get_data_path'" until the session was
    restarted.  The import now ends whole and the Ctrl-C stops the run after it."""
    pytest.importorskip("matplotlib", reason='pip install ".[learn]"')
    script = """
from pathlib import Path
from ofc_fast.learned._report import plot
street = {"decisions": 9, "regret": 0.5, "regret_ci95": 0.1, "top1": 0.25, "top1_ci95": 0.05}
report, png = {"streets": {"5": street}}, Path(sys.argv[2])
try:
    plot(report, png)
except KeyboardInterrupt:
    print("interrupted", CtrlC.came)
print(plot(report, png), png.read_bytes()[:4] == b"\\x89PNG")  # the run resumed
"""
    png = str(tmp_path / "report.png")
    code, out, err = _ctrl_c_at_import("matplotlib.colors", script, png)
    assert (code, out) == (0, "interrupted True\nTrue True\n"), err


def test_fitting_leaves_the_callers_torch_as_it_was():
    """A fit runs on one thread from its own seed, and the caller's torch is as it
    was afterwards: train() in a notebook left torch on one thread for the rest of
    the session, and its generator reseeded."""
    _require_torch()
    import torch

    from ofc_fast.learned._fit import fit

    threads = torch.get_num_threads()
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(20, 64)).astype(np.float32), rng.normal(size=20)
    try:
        torch.set_num_threads(2)
        torch.manual_seed(123)
        state = torch.get_rng_state()
        first = fit(x, y, seed=5, hidden=(4,), epochs=1)[0]
        assert torch.get_num_threads() == 2
        assert torch.equal(torch.get_rng_state(), state)
    finally:
        torch.set_num_threads(threads)
    again = fit(x, y, seed=5, hidden=(4,), epochs=1)[0]  # the same seed, the same net
    for (w, b), (w2, b2) in zip(first, again):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)


def test_fits_from_two_threads_are_each_the_fit_of_its_seed(monkeypatch):
    """Two threads fitting at once (train() from a thread pool) shared torch's one
    generator and thread count: the first thread's net was drawn from the second's
    seed, and the thread count was left at one.  Each fit is now its seed's, the same
    as when it runs alone, and the caller's thread count is as it was."""
    _require_torch()
    import threading

    import torch

    from ofc_fast.learned import _fit as fitting

    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(20, 64)).astype(np.float32), rng.normal(size=20)
    alone = [fitting.fit(x, y, seed=s, hidden=(4,), epochs=1)[0] for s in (5, 6)]
    inside = threading.Barrier(2, timeout=1.0)  # both fits set up before either runs
    real = fitting._fit

    def meet(*args):
        try:
            inside.wait()
        except threading.BrokenBarrierError:
            pass  # the other fit waits its turn: this one goes on alone
        return real(*args)

    monkeypatch.setattr(fitting, "_fit", meet)
    threads = torch.get_num_threads()
    together: list = [None, None]

    def run(i):
        together[i] = fitting.fit(x, y, seed=5 + i, hidden=(4,), epochs=1)[0]

    try:
        torch.set_num_threads(2)
        workers = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(60)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)
    for mine, ref in zip(together, alone):
        for (w, b), (w2, b2) in zip(mine, ref):
            assert np.array_equal(w, w2) and np.array_equal(b, b2)


def test_training_commands_tiny_example_plays_few_deals():
    """The module's 'tiny run' example played 20,000 opponent deals (the default
    --opponent-deals), minutes of play before the first label; every deal count of
    the example, given or by default, is now at most 100."""
    import inspect
    import re
    import shlex

    from ofc_fast.learned import train as train_module

    doc = train_module.__doc__ or ""
    example = doc.split("Example (a tiny run)::", 1)[1]
    words = shlex.split(re.sub(r"\\+\n\s*", " ", example).strip().splitlines()[0])
    given = dict(zip(words[3::2], words[4::2]))
    defaults = inspect.signature(train_module.train).parameters
    for flag in ("--deals", "--eval-deals", "--opponent-deals"):
        setting = flag[2:].replace("-", "_")
        assert int(given.get(flag, defaults[setting].default)) <= 100, flag


def test_model_path_is_read_again_when_the_file_changes(tmp_path: Path, monkeypatch):
    """A model= path names the file there now: rewritten (a retrained model in the
    same process) or, relative, under another working directory, it is read again
    (the cache once returned the first file read under that path string)."""
    first = model_bytes(random_nets(1, hidden=(8,)), rules.PINEAPPLE, 2)
    second = model_bytes(random_nets(2, hidden=(16,)), rules.PINEAPPLE, 2)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "m.ofcvm").write_bytes(first)
    (tmp_path / "b" / "m.ofcvm").write_bytes(second)
    want = {data: fnv1a64(data[64:]) for data in (first, second)}
    monkeypatch.chdir(tmp_path / "a")
    model = resolve_model("m.ofcvm", rules.PINEAPPLE, 2)
    assert model is not None and model.checksum == want[first]
    assert resolve_model("m.ofcvm", rules.PINEAPPLE, 2) is model  # unchanged: cached
    monkeypatch.chdir(tmp_path / "b")
    model = resolve_model("m.ofcvm", rules.PINEAPPLE, 2)
    assert model is not None and model.checksum == want[second]
    path = tmp_path / "a" / "m.ofcvm"
    path.write_bytes(second)
    model = resolve_model(path, rules.PINEAPPLE, 2)
    assert model is not None and model.checksum == want[second]
    path.unlink()
    with pytest.raises(ModelError, match="cannot read"):
        resolve_model(path, rules.PINEAPPLE, 2)


def test_a_model_file_rewritten_keeps_one_version_read(tmp_path: Path):
    """A training loop that rewrites one model file and resolves it each epoch keeps
    only the version there now: the one read before is let go (the cache, keyed by
    path and modification time, kept up to 15 stale versions alive)."""
    import gc
    import weakref

    path = tmp_path / "m.ofcvm"
    read = []
    for epoch in range(6):
        path.write_bytes(model_bytes(random_nets(epoch, hidden=(8,)), rules.PINEAPPLE, 2))
        os.utime(path, ns=(10**9 * (epoch + 1), 10**9 * (epoch + 1)))
        model = resolve_model(path, rules.PINEAPPLE, 2)
        assert model is not None and resolve_model(path, rules.PINEAPPLE, 2) is model
        read.append(weakref.ref(model))
    del model
    gc.collect()
    assert [r() is not None for r in read] == [False] * 5 + [True]


def test_shipped_model_reads_only_the_models_directory():
    """model="auto" looks a rule set's name up among the shipped files: a custom
    rule set named like a path ('../../elsewhere/x' or '/elsewhere/x') does not
    reach a file outside ofc_fast/learned/models/ (it did, and a damaged file there
    made the default SearchBot raise instead of playing the rollout-only search):
    the renamed preset gets the preset's shipped model.
    The folder is a short one under /tmp: a rule set's name holds 64 characters."""
    want = fnv1a64((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()[64:])
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        (Path(folder) / "x-2p.ofcvm").write_bytes(b"not a model")
        for name in (os.path.relpath(Path(folder) / "x", MODEL_DIR), f"{folder}/x"):
            assert (MODEL_DIR / f"{name}-2p.ofcvm").is_file()
            table = rules.PINEAPPLE.replace(name=name)
            for model in (shipped_model(table, 2), resolve_model("auto", table, 2)):
                assert model is not None and model.checksum == want
            assert shipped_model(table.replace(sweep_bonus=9), 2) is None
            g = Game(table, 2, seed=1)
            bot = SearchBot(seed=1, samples=4, time_budget=None)
            assert bot.act(g.observation(g.to_act)) is not None


def test_model_bytes_refuses_malformed_layers():
    """model_bytes (and write_model) check each layer's shapes against the widths
    they write: a layer whose weights and bias miscount but add up (a (1, 7) weight
    and 2 biases after an 8-wide layer) was written and read back as a valid model
    with its numbers in the wrong places; a 1-D weight, a net without layers and a
    negative card or seat count raised IndexError or struct.error."""
    w1, b1 = np.zeros((8, 64), "f4"), np.zeros(8, "f4")
    good = [(5, [(w1, b1), (np.zeros((1, 8)), np.zeros(1))])]
    assert ValueModel.from_bytes(model_bytes(good, rules.PINEAPPLE, 2)).cards == (5,)
    for nets in (
        [(5, [(w1, b1), (np.zeros((1, 7)), np.zeros(2))])],
        [(5, [(w1, np.zeros(9)), (np.zeros((1, 8)), np.zeros(1))])],
        [(5, [(np.zeros(64), np.zeros(1))])],
        [(5, [])],
    ):
        with pytest.raises(ModelError, match="layer"):
            model_bytes(nets, rules.PINEAPPLE, 2)
    with pytest.raises(ModelError):
        model_bytes([(-1, good[0][1])], rules.PINEAPPLE, 2)
    with pytest.raises(ModelError):
        model_bytes(good, rules.PINEAPPLE, -1)


def test_model_bytes_refuses_values_that_are_no_ints():
    """model_bytes names a seat count, a net's card count or opponent rows that are no
    ints (or out of range), and weights that are no numbers, with a ModelError; it
    raised struct.error (players=1.5), ValueError ("x" cards, text weights) or a
    NumPy UFuncTypeError (text rows), or wrote 5.7 cards as 5 and 1.5 counts as 1."""
    w1, b1 = np.zeros((8, 64), "f4"), np.zeros(8, "f4")
    layers = [(w1, b1), (np.zeros((1, 8)), np.zeros(1))]
    good = [(5, layers)]
    for players in (1.5, True, 9, 1, "2"):
        with pytest.raises(ModelError, match=r"players must be 0 \(any\) or 2\.\.4"):
            model_bytes(good, rules.PINEAPPLE, players)  # type: ignore[arg-type]
    for cards in ("x", 5.7, None):
        with pytest.raises(ModelError, match="a net's cards"):
            model_bytes([(cards, layers)], rules.PINEAPPLE, 2)  # type: ignore[list-item]
    with pytest.raises(ModelError, match="layer 0: weights and biases are numbers"):
        model_bytes([(5, [(np.full((1, 64), "a"), np.zeros(1))])], rules.PINEAPPLE, 2)
    counts = np.ones(3 * 7918)
    for bad in (counts * 1.5, counts.astype(str), -counts.astype(np.int64)):
        with pytest.raises(ModelError, match="opponent rows"):
            model_bytes(good, rules.PINEAPPLE, 2, bad)
    with pytest.raises(ModelError, match="opponent rows are 23754 counts, got 3"):
        model_bytes(good, rules.PINEAPPLE, 2, np.ones(3, np.uint32))


def test_model_bytes_names_a_net_the_format_holds_not():
    """model_bytes (and write_model) refused a net for 4 or 13 cards, two nets of one
    card count, a net of other inputs than the features, of two outputs, of a width
    over 256 or of five layers only when C read the bytes back, as 'the value
    model's layers, sizes or opponent rows are out of range'; each is named."""

    def net(*shape: int) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(np.zeros((o, i)), np.zeros(o)) for i, o in zip(shape, shape[1:])]

    good = net(64, 8, 1)
    cases = [
        ([(4, good)], r"a net's cards are 5\.\.12, got 4"),
        ([(13, good)], r"a net's cards are 5\.\.12, got 13"),
        ([(5, good), (7, good), (5, good)], "two nets for boards of the same card count"),
        ([(5, net(10, 8, 1))], r"widths \[10, 8, 1\].*takes the 64 inputs"),
        ([(5, net(64, 8, 2))], r"widths \[64, 8, 2\].*gives 1 output"),
        ([(5, net(64, 300, 1))], r"widths \[64, 300, 1\].*each width is 1\.\.256"),
        ([(5, net(64, 4, 4, 4, 4, 1))], r"a net has 1\.\.4 layers"),
        ([(5, [])], r"widths \[\]; a net has 1\.\.4 layers"),
    ]
    for nets, message in cases:
        with pytest.raises(ModelError, match=message) as err:
            model_bytes(nets, rules.PINEAPPLE, 2)
        assert "out of range" not in str(err.value)
    assert ValueModel.from_bytes(model_bytes([(12, good)], rules.OFC, 2)).cards == (12,)
    four = net(64, 4, 4, 4, 1)
    assert ValueModel.from_bytes(model_bytes([(5, four)], rules.OFC, 2)).cards == (5,)


def test_training_gives_the_same_model_whatever_the_workers(tmp_path: Path):
    """docs/learned.md: each chunk's randomness derives from the seed and its index,
    so the same seed gives the same model whatever the workers.  The smallest run
    that splits work across chunks (26 deals: two chunks of positions and of
    opponent rows), on one process and on two: the same file, byte for byte."""
    _require_torch()
    from ofc_fast.learned.train import main

    args = ["--rules", "pineapple", "--deals", "26", "--eval-deals", "1", "--quiet"]
    args += ["--samples", "1", "--eval-samples", "1", "--eval-limit", "1"]
    args += ["--epochs", "1", "--hidden", "4", "--opponent-deals", "26", "--seed", "3"]
    files = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        assert main([*args, "--workers", str(workers), "--out", str(out)]) == 0
        files.append((out / "pineapple-2p.ofcvm").read_bytes())
    assert files[0] == files[1]


@pytest.mark.skipif(
    not os.path.exists("/dev/zero"),
    reason="run on a POSIX system: the test reads /dev/zero",
)
def test_load_model_reads_no_more_than_a_model_file(tmp_path: Path):
    """load_model reads a regular file of at most the largest model file's size: a
    device (/dev/zero: endless) is refused at once, not read until memory runs out,
    and a file larger than any model is refused without being read whole."""
    with pytest.raises(ModelError, match="not a regular file"):
        load_model("/dev/zero")
    big = tmp_path / "big.ofcvm"
    with big.open("wb") as f:
        f.truncate(1 << 30)  # sparse: a gigabyte of zeros on no disk
    with pytest.raises(ModelError, match="larger than any model file"):
        load_model(big)
    with pytest.raises(ModelError, match="not a regular file"):
        resolve_model("/dev/zero", rules.PINEAPPLE, 2)


def test_bots_with_a_model_object_rebuild_from_their_settings(tmp_path: Path):
    """A bot given a ValueModel read from a file: settings() names the file, so
    make_bot(name, rules, seed, **settings) (how a bot travels to a worker) makes a
    bot of the same model, and SearchBot.warm_up (which rebuilds it from its
    settings) plays with it.  settings() gave the model's name, 'pineapple-2p@...',
    which no file has: warm_up raised ModelError 'cannot read it'."""
    path = tmp_path / "copy.ofcvm"
    path.write_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    model = load_model(path)
    search = SearchBot(seed=0, samples=4, time_budget=None, model=model)
    search.warm_up(rules.PINEAPPLE)
    obs = Game(rules.PINEAPPLE, 2, seed=4).observation(1)
    for bot in (search, ValueBot(seed=0, model=model)):
        settings = json.loads(json.dumps(bot.settings()))
        checksum = f"{fnv1a64(path.read_bytes()[64:]):016x}"
        assert settings["model"] == {"path": str(path), "checksum": checksum}
        copy = make_bot(bot.name, None, 0, **settings)
        assert str(copy.act(obs)) == str(bot.act(obs))


def test_search_bot_warm_up_rehearses_at_its_model_seat_count():
    """A SearchBot given the 3-seat Pineapple model (to play a 3-seat arena with
    ``ofc-fast bot``) raised BotModelError 'trained for 3 players, not 2' from
    warm_up, which the client calls on hello: warm_up rehearses at the seat count
    its model was trained for (or the one given), and the bot still refuses a
    table of another."""
    three = str(MODEL_DIR / "pineapple-3p.ofcvm")
    bot = SearchBot(rules.PINEAPPLE, seed=0, samples=4, model=three)
    bot.warm_up(rules.PINEAPPLE)
    assert set(bot.overruns()) == {3, 5}  # the rehearsal's decision sizes, measured
    with pytest.raises(BotModelError, match="trained for 3 players, not 2"):
        bot.warm_up(rules.PINEAPPLE, players=2)
    g = Game(rules.PINEAPPLE, 3, seed=1)
    assert len(play_out(g, [bot, RandomBot(seed=1), RandomBot(seed=2)]).net) == 3


def test_model_of_another_feature_set_refused_when_read():
    """docs/learned.md: a foreign file raises ModelError naming the problem.  A file
    whose header says feature set 2 (or other than 64 inputs) parses, but this
    library computes feature set 1: it is refused when read, naming the feature set
    (it was read, then refused at its first use as 'layers, sizes or opponent rows
    out of range')."""
    data = bytearray(model_bytes(random_nets(1), rules.PINEAPPLE, 2))
    data[24:28] = struct.pack("<I", 2)  # then the header checksum made again
    with pytest.raises(ModelError, match="feature set 2"):
        ValueModel.from_bytes(sealed(bytes(data)))


def test_bots_with_a_model_from_bytes_rebuild_from_their_settings():
    """A bot given a ValueModel parsed from bytes (no file holds it): settings()
    carries the model's bytes as JSON-safe data, so Bot(**settings) is a bot of the
    same model and a parallel run with two worker processes plays it.  settings()
    gave the model's name, 'mine@...', which no file has: rebuilding raised
    BotError 'cannot read it'."""
    import base64

    from ofc_fast.parallel import LocalExecutor, ProcessExecutor, RunSpec, play_parallel

    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    model = ValueModel.from_bytes(data, "mine")
    obs = Game(rules.PINEAPPLE, 2, seed=4).observation(1)
    search = SearchBot(seed=0, samples=4, time_budget=None, model=model)
    for bot in (search, ValueBot(seed=0, model=model)):
        settings = json.loads(json.dumps(bot.settings()))
        assert settings["model"]["name"] == "mine"
        assert base64.b64decode(settings["model"]["base64"]) == data
        copy = type(bot)(seed=0, **settings)
        assert copy.settings() == settings and copy.model.name == model.name
        assert str(copy.act(obs)) == str(bot.act(obs))
    spec = RunSpec.make("pineapple", 2, 5, 4, [ValueBot(seed=0, model=model), RandomBot()])
    local = play_parallel(spec, LocalExecutor(), chunk_size=4)
    with ProcessExecutor(2) as ex:
        proc = play_parallel(spec, ex, chunk_size=2)
    assert proc.outcomes == local.outcomes
    assert sorted({o["deal"] for o in local.outcomes}) == [0, 1, 2, 3]
    by_file = RunSpec.make("pineapple", 2, 5, 4, [ValueBot(seed=0), RandomBot()])
    assert play_parallel(by_file, LocalExecutor(), chunk_size=4).outcomes == local.outcomes


def test_a_model_given_as_data_is_checked():
    """The data form of a model setting is refused with ModelError (BotError in a
    bot) naming the problem: other keys, text that is not base64, bytes that are no
    model, more text than any model file."""
    with pytest.raises(BotError, match="'name': text, 'base64'"):
        ValueBot(model={"bytes": "AAAA"})
    with pytest.raises(BotError, match="not base64"):
        SearchBot(model={"name": "x", "base64": "not base64!"})
    with pytest.raises(ModelError, match="truncated"):
        resolve_model({"base64": "T0ZDVkFMVUU="}, rules.PINEAPPLE, 2)
    with pytest.raises(ModelError, match="larger than any model file"):
        resolve_model({"base64": "A" * (1 << 22)}, rules.PINEAPPLE, 2)


def test_a_model_name_is_bounded():
    """A model's name given with its bytes (``from_bytes``, or the ``name`` of a
    model given as data) is 1 to 100 printable characters, else ModelError naming
    ``name``: it went whole into ``ValueModel.name``, a bot's settings and messages
    (a 100,000-character name, escape codes, newlines).  A file's model keeps its stem,
    and pickles with it."""
    import base64
    import pickle

    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    text = base64.b64encode(data).decode("ascii")
    ok = "m" * 100
    assert ValueModel.from_bytes(data, ok).name.startswith(ok + "@")
    assert resolve_model({"name": ok, "base64": text}, rules.PINEAPPLE, 2).name.startswith(
        ok
    )
    for bad in ("x" * 101, "x" * 100_000, "", "two\nlines", "\x1b[31mred"):
        with pytest.raises(ModelError, match=r"^value model name: ") as info:
            ValueModel.from_bytes(data, bad)
        assert len(str(info.value)) < 200
        with pytest.raises(ModelError, match=r"^value model name: "):
            resolve_model({"name": bad, "base64": text}, rules.PINEAPPLE, 2)
        with pytest.raises(BotError, match="name"):
            ValueBot(model={"name": bad, "base64": text})
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / ("long " * 30 + ".ofcvm")
        path.write_bytes(data)
        model = load_model(path)
        assert pickle.loads(pickle.dumps(model)).name == model.name


def test_threads_first_using_a_model_get_contexts_whose_tables_it_keeps():
    """Four threads at once on a fresh model (the shipped models are shared, as by
    the bots of a threaded server): every context they get points to the expected-
    points tables the model keeps.  Each thread built its own tables and context and
    stored them over the others', so a context handed out could point to tables
    already freed (62 of 400 contexts in 100 trials), which C then read."""
    import threading

    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    fl = [0.0] * 18

    def at_once(model: ValueModel, n: int = 4) -> list[object]:
        start, got = threading.Barrier(n), []

        def first_use() -> None:
            start.wait()
            got.append(model.context(rules.PINEAPPLE, 2, fl))

        threads = [threading.Thread(target=first_use) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return got

    for _ in range(30):
        model = ValueModel.from_bytes(data, "shared")
        got = at_once(model)
        kept = model.ev_tables(rules.PINEAPPLE)
        assert len(got) == 4
        assert all(c.ev == kept for c in got)  # type: ignore[attr-defined]
        assert all(c == model.context(rules.PINEAPPLE, 2, fl) for c in got)


def test_a_models_tables_asked_for_at_every_step_are_kept():
    """``ValueModel.ev_tables`` keeps the 64 tables last asked for: one asked for at
    every step, between 100 other rule sets, stays the same tables, while one asked
    for once is forgotten after 64 others.  A hit did not count as asked for (first
    in, first out): the table of every step was dropped and built again (380 KB)
    after 64 other rule sets."""
    model = ValueModel.from_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes(), "m")
    assert model.opponent_rows is not None  # (tables of its own, cached by the model)
    hot, once = rules.PINEAPPLE, rules.PINEAPPLE.replace(sweep_bonus=9)
    kept, cold = model.ev_tables(hot), model.ev_tables(once)
    for i in range(100):
        model.ev_tables(rules.PINEAPPLE.replace(sweep_bonus=10 + i))
        assert model.ev_tables(hot) is kept, f"rebuilt after {i + 1} other rule sets"
    assert model.ev_tables(once) is not cold


def test_a_model_and_a_bot_holding_it_pickle(tmp_path: Path):
    """A ValueModel pickles (as its file's bytes, name and path) and so does a bot
    holding one: the copy has the same name, checksum, values and settings.  Both
    raised TypeError "cannot pickle '_cffi_backend.__CDataOwn' object"."""
    import copy
    import pickle

    path = tmp_path / "copy.ofcvm"
    path.write_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    board = "As Ks / Qd Qc 7s / 9h 9s"  # 7 cards: a net of the model
    for model in (load_model(path), ValueModel.from_bytes(path.read_bytes(), "mine")):
        again = pickle.loads(pickle.dumps(model))
        assert (again.name, again.checksum, again.cards) == (
            model.name,
            model.checksum,
            model.cards,
        )
        assert again.value(board, rules.PINEAPPLE) == model.value(board, rules.PINEAPPLE)
        bot = ValueBot(seed=0, model=model)
        assert pickle.loads(pickle.dumps(bot)).settings() == bot.settings()
        assert copy.deepcopy(bot).settings() == bot.settings()


def test_value_names_an_fl_value_out_of_range():
    """An fl_value of 18 numbers that C refuses (NaN, infinite, over 1e6 in magnitude)
    was a ModelError saying only 'a value argument out of range (or a NULL
    pointer)', or for an int past any float an OverflowError traceback; it names
    fl_value and its range, from value and context alike, and 1e6 is still taken."""
    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    P = rules.PINEAPPLE
    board = "As Ks / Qd Qc 7s / 9h 9s"
    for bad in (float("nan"), float("inf"), -1.5e6, 1e300, 10**400):
        fl = [0.0] * 17 + [bad]
        with pytest.raises(ModelError, match=r"fl_value .*within \+-1e6") as err:
            model.value(board, P, 2, fl_value=fl)
        assert "NULL pointer" not in str(err.value)
        with pytest.raises(ModelError, match="fl_value"):
            model.context(P, 2, fl)
    assert isinstance(model.value(board, P, 2, fl_value=[1e6] * 18), float)


def test_a_model_keeps_one_table_for_renamed_rules_and_forgets_old_ones():
    """A model with opponent rows kept a 380 KB table per rule set it valued boards
    under, for ever: 300 renamed PINEAPPLE rule sets (a server's or a sweep's
    variants) held 127 MB more.  Rule sets that play alike (renamed, described anew)
    share one table, and the tables of other rule sets asked for long ago are let go
    (as the model's contexts are), the values unchanged."""
    import gc
    import weakref

    model = load_model(MODEL_DIR / "pineapple-2p.ofcvm")
    assert model.opponent_rows is not None
    P, board = rules.PINEAPPLE, "As Ks / Qd Qc 7s / 9h 9s"
    table, value = model.ev_tables(P), model.value(board, P)
    for i in range(100):
        renamed = P.replace(name=f"home{i}", description=f"table {i}")
        assert model.ev_tables(renamed) is table
        assert model.value(board, renamed) == value
    first = weakref.ref(model.ev_tables(P.replace(sweep_bonus=0)))
    for bonus in range(1, 100):  # other rule sets: no value (their rules are not its own)
        model.ev_tables(P.replace(sweep_bonus=bonus))
    gc.collect()
    assert first() is None  # let go: not one table per rule set ever asked for
    assert model.value(board, P) == value


def test_a_model_keeps_one_context_for_renamed_rules():
    """A model kept a context per rule set it was asked for (the last 64), each
    holding that rule set's compiled rules (95 KB, and its 380 KB expected-points
    tables for a model without opponent rows) after the compile cache had let them
    go: a server naming each table's rules kept up to 30 MB per model.  Rule sets
    that play alike (renamed, described anew) share one context, the values
    unchanged."""
    import gc
    import weakref

    model = ValueModel.from_bytes(
        (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes(), "renamed-contexts"
    )
    P, board, fl = rules.PINEAPPLE, "As Ks / Qd Qc 7s / 9h 9s", [0.0] * 18
    value = model.value(board, P.replace(name="home-a"), 2, fl_value=fl)
    renamed = P.replace(name="home-b", description="another table")
    probe = weakref.ref(game_struct(renamed))
    assert model.value(board, renamed, 2, fl_value=fl) == value
    for bonus in range(140):  # more rule sets than the compile cache keeps
        game_struct(rules.OFC.replace(sweep_bonus=600 + bonus))
    gc.collect()
    assert probe() is None  # only the compile cache held it


def test_a_model_s_contexts_of_colliding_rule_sets_are_their_own():
    """ValueModel.context keyed its contexts by the 32-bit rules fingerprint, so of
    two rule sets that differ but collide (royal flush royalties 258/389 and
    416/604, both fitting a model of that fingerprint), the one asked for second got
    the first one's context: a board's value depended on the order of the calls.
    Each gets its own, valued under its own royalties."""

    def royalty_9(back: int, middle: int) -> rules.RuleSet:
        data = rules.PINEAPPLE.to_dict()
        data["royalties"]["back"][9], data["royalties"]["middle"][9] = back, middle
        return rules.RuleSet.from_dict(data)

    a, b = royalty_9(258, 389), royalty_9(416, 604)
    assert a != b and rules_hash(a) == rules_hash(b)  # the premise: a collision
    board = "2c 3d 4h / 5s 6s 7s 8s 9s / Ah Kh Qh Jh Th"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "collide.ofcvm"
        write_model(path, random_nets(1), a, 2)
        fresh = load_model(path).value(board, b)
        model = load_model(path)
        model.value(board, a)
        assert model.value(board, b) == fresh


def test_value_and_action_values_name_inputs_that_are_no_cards_or_ints():
    """ValueModel.value / action_values refuse a board, fl_value, dealt or unseen
    cards, to_discard or action ids that are not what they take with the OfcError
    subclass naming them; they raised TypeError (board None, fl_value 5), a bare
    ValueError ('bytes must be in range(0, 256)' for action 300 or dealt card 256,
    'negative shift count' for unseen card -1), OverflowError (to_discard -1), or
    ignored an unseen card 99."""
    from ofc_fast.bots import unseen_cards
    from ofc_fast.errors import CardError

    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None
    P = rules.PINEAPPLE
    for board in (None, 5):
        with pytest.raises(ModelError, match="a board is"):
            model.value(board, P)  # type: ignore[arg-type]
    for fl in (5, ["a"] * 18, [0.0] * 17):
        with pytest.raises(ModelError, match="fl_value holds 18 numbers"):
            model.value("As Ks / Qd Qc 7s / 9h 9s", P, 2, fl_value=fl)  # type: ignore[arg-type]
    obs = Game(P, 2, seed=1).observation(1)
    args = [P, 2, [0.0] * 18, obs["boards"][1], obs["dealt"], 0, unseen_cards(obs)]
    acts = obs["legal_actions"]
    assert len(model.action_values(*args, acts)) == len(acts)  # type: ignore[arg-type]
    for bad_actions in ([300], [-1], [1.5], [True]):
        with pytest.raises(ModelError, match="action_values: actions"):
            model.action_values(*args, bad_actions)  # type: ignore[arg-type]
    for at, bad in ((4, [256, 1, 2, 3, 4]), (6, [-1]), (6, [99])):
        with pytest.raises(CardError, match="bad card id"):
            model.action_values(*args[:at], bad, *args[at + 1 :], acts)  # type: ignore[arg-type]
    for k in (-1, 1.5, None):
        with pytest.raises(ModelError, match="to_discard"):
            model.action_values(*args[:5], k, args[6], acts)  # type: ignore[arg-type]


def test_shipped_model_and_check_rules_refuse_players_that_are_no_seat_count():
    """shipped_model / resolve_model / check_rules take the seat count as an int
    2..4 (ModelError naming it, as ValueModel.context): shipped_model(P, 2.0) and
    (P, "2") returned the 2-seat model, then check_rules(P, "2") said it 'was
    trained for 2 players, not 2'; check_rules("ofc") raised AttributeError."""
    P = rules.PINEAPPLE
    model = shipped_model(P, 2)
    assert model is not None and shipped_model(P, 4) is None
    for players in (2.0, "2", True, 5, 1, [2]):
        with pytest.raises(ModelError, match=r"players must be an integer 2\.\.4"):
            shipped_model(P, players)  # type: ignore[arg-type]
        with pytest.raises(ModelError, match=r"players must be an integer 2\.\.4"):
            resolve_model("auto", P, players)  # type: ignore[arg-type]
        with pytest.raises(ModelError, match=r"players must be an integer 2\.\.4"):
            model.check_rules(P, players)  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="other rules than OFC"):
        model.check_rules("ofc", 2)  # type: ignore[arg-type]


def test_a_model_of_other_rules_is_refused_as_docs_learned_says(tmp_path: Path):
    """docs/learned.md: SearchBot, advise and ValueModel.value raise ModelError for a
    model of other rules, ValueBot a BotError naming the same problem (the page said
    ValueBot raised ModelError, which it never did); both bots a BotModelError, both."""
    path = tmp_path / "ofc.ofcvm"
    path.write_bytes(model_bytes(random_nets(7), rules.OFC, 2))
    obs = Game(rules.PINEAPPLE, 2, seed=1).observation(1)
    with pytest.raises(BotError, match="other rules than PINEAPPLE"):
        ValueBot(seed=0, model=str(path)).act(obs)
    with pytest.raises(ModelError, match="other rules than PINEAPPLE"):
        SearchBot(seed=0, samples=4, time_budget=None, model=str(path)).act(obs)
    with pytest.raises(ModelError, match="other rules than PINEAPPLE"):
        advise(obs, samples=4, model=str(path))
    with pytest.raises(ModelError, match="other rules than PINEAPPLE"):
        load_model(path).value("As Ks / Qd Qc 7s / 9h 9s", rules.PINEAPPLE)
    doc = Path(__file__).resolve().parents[1] / "docs" / "learned.md"
    if doc.exists():  # a source checkout
        assert "(`SearchBot` and `ValueBot` alike a\n`BotModelError`" in doc.read_text()


def test_write_model_names_a_path_it_cannot_write(tmp_path: Path):
    """write_model to a missing folder or onto a folder is a ModelError naming the
    path, as load_model's (it raised FileNotFoundError / IsADirectoryError)."""
    nets = random_nets(1)
    for path in (tmp_path / "missing" / "m.ofcvm", tmp_path):
        with pytest.raises(ModelError, match="cannot write it"):
            write_model(path, nets, rules.PINEAPPLE, 2)
    assert write_model(tmp_path / "m.ofcvm", nets, rules.PINEAPPLE, 2).players == 2


def test_an_empty_model_path_is_refused_as_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``load_model("")`` said ``value model '.': not a regular file`` and
    ``write_model("", ...)`` ``value model '.': cannot write it``, naming a folder
    the caller never gave (an unset variable's empty text): the path is empty."""
    monkeypatch.chdir(tmp_path)
    nets = random_nets(1, hidden=(8,))
    with pytest.raises(ModelError, match=r"^a model file's path is empty: name a file$"):
        load_model("")
    with pytest.raises(ModelError, match=r"^a model file's path is empty: name a file$"):
        write_model("", nets, rules.PINEAPPLE, 2)
    assert os.listdir(tmp_path) == []


def test_value_bot_decisions_do_not_rebuild_the_rules_json(monkeypatch):
    """rules_hash is computed once per rule set: a ValueBot's decisions (which check
    the model's rules each time) and advise with a model build no JSON of the rule
    set again.  Each decision serialised the rule set (about 120 us of a 260 us
    decision), and its value, the FNV-1a of that JSON, is unchanged."""
    from ofc_fast.learned import _fingerprint as learned_model  # computes the hash

    expected = play_hash(rules.PINEAPPLE)
    bot = ValueBot(seed=0)
    obs = Game(rules.PINEAPPLE, 2, seed=4).observation(1)
    bot.act(obs)
    advise(obs, samples=4, seed=1)
    calls = []
    real = learned_model.json.dumps
    monkeypatch.setattr(
        learned_model.json, "dumps", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    for _ in range(3):
        bot.act(obs)
        advise(obs, samples=4, seed=1)
    assert rules_hash(rules.PINEAPPLE) == rules_hash("pineapple") == expected
    assert calls == []


def test_a_bots_settings_refuse_a_model_file_rewritten_or_deleted_since(tmp_path: Path):
    """settings() of a bot holding a model read from a file carry the file's
    checksum: Bot(**settings) after the file was rewritten raises BotError naming
    the path (after it was deleted: 'cannot read it'), and a plain path (settings
    taken before the checksum was carried) still loads.  The settings carried the
    path only: the rebuilt bot silently played the other model."""
    path = tmp_path / "mine.ofcvm"
    path.write_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    obs = Game(rules.PINEAPPLE, 2, seed=4).observation(1)
    for cls in (ValueBot, SearchBot):
        bot = cls(seed=0, model=load_model(path))
        settings = json.loads(json.dumps(bot.settings()))
        copy = cls(seed=0, **settings)
        assert copy.settings() == settings and copy.model.checksum == bot.model.checksum
        assert cls(seed=0, model=str(path)).settings()["model"] == str(path)
        write_model(path, random_nets(3), rules.PINEAPPLE, 2)  # rewritten in place
        with pytest.raises(BotError, match=f"{path}.*checksum.*rewritten"):
            cls(seed=0, **settings)
        cls(seed=0, model=str(path)).act(obs)  # a plain path reads the file now
        path.unlink()
        with pytest.raises(BotError, match=f"{path}.*cannot read it"):
            cls(seed=0, **settings)
        path.write_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    for bad in ({"path": str(path)}, {"path": str(path), "checksum": 5}):
        with pytest.raises(BotError, match="'checksum': 16"):
            ValueBot(model=bad)


def test_a_relative_model_path_is_made_absolute_when_the_bot_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A bot given a relative model path keeps it absolute (in the working directory
    it was built in): it and a bot rebuilt from its settings read that file after
    the working directory changed.  The path travelled as given: both read
    'mine.ofcvm' of the new directory (here none: BotError 'cannot read it')."""
    (tmp_path / "mine.ofcvm").write_bytes((MODEL_DIR / "pineapple-2p.ofcvm").read_bytes())
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    obs = Game(rules.PINEAPPLE, 2, seed=4).observation(1)
    bots = [
        ValueBot(seed=0, model="mine.ofcvm"),
        SearchBot(seed=0, samples=4, model="mine.ofcvm"),
    ]
    monkeypatch.chdir(tmp_path / "elsewhere")
    for bot in bots:
        assert bot.settings()["model"] == str(tmp_path / "mine.ofcvm")
        copy = make_bot(bot.name, None, 0, **json.loads(json.dumps(bot.settings())))
        assert str(copy.act(obs)) == str(bot.act(obs))


def test_a_models_contexts_are_bounded_and_outlive_being_forgotten():
    """A model keeps at most 64 contexts (the least recently used forgotten), from
    one thread or four at once, and a context handed out stays valid after the model
    forgot it and was itself dropped: it values a board as a fresh context does.
    The cache grew by one context per distinct fl_value without limit."""
    import gc
    import threading

    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    board = board_bytes_of("As Ks / Qd Qc 7s / 9h 9s")

    def board_value(ctx: object) -> float:
        out = ffi.new("double *")
        assert lib.ofc_value_board(ctx, board, 0, out) == 0
        return float(out[0])

    model = ValueModel.from_bytes(data, "bounded")
    first = model.context(rules.PINEAPPLE, 2, [1.0] * 18)
    held = [model.context(rules.PINEAPPLE, 2, [float(i)] * 18) for i in range(300)]
    assert len(model._contexts) == 64
    errors: list[BaseException] = []

    def many(shared: ValueModel, start: int) -> None:
        try:
            for i in range(start, start + 200):
                ctx = shared.context(rules.PINEAPPLE, 2, [i / 7 + 0.5] * 18)
                assert board_value(ctx) == board_value(ctx)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=many, args=(model, k * 1000)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(model._contexts) == 64
    del model
    gc.collect()
    fresh = ValueModel.from_bytes(data, "fresh")
    assert board_value(first) == fresh.value(
        "As Ks / Qd Qc 7s / 9h 9s", rules.PINEAPPLE, 2, fl_value=[1.0] * 18
    )
    for i in (0, 150, 299):
        expected = fresh.value(
            "As Ks / Qd Qc 7s / 9h 9s", rules.PINEAPPLE, 2, fl_value=[float(i)] * 18
        )
        assert board_value(held[i]) == expected


def board_bytes_of(text: str) -> bytes:
    """13 slots of a 'front / middle / back' board (each row's cards, then 0xFF)."""
    from ofc_fast.cards import parse_cards

    out = bytearray([0xFF] * 13)
    for row, start in zip(text.split("/"), (0, 3, 8)):
        cards = parse_cards(row) if row.strip() else []
        out[start : start + len(cards)] = bytes(cards)
    return bytes(out)


def test_bots_with_fl_value_by_count_rebuild_from_their_settings_as_json():
    """settings() are JSON-able data that rebuild the bot: fl_value {14: 5.0} comes
    back from JSON as {"14": 5.0}, which ValueBot and SearchBot (and stay_value,
    ofc_fast.solver.stay_values) read as the same values.  Rebuilding raised
    BotError 'fl_value: card counts must be 13..17, got '14''."""
    from ofc_fast.solver import stay_values

    obs = Game(rules.PINEAPPLE, 2, seed=3).observation(1)
    assert stay_values(rules.PINEAPPLE, {"14": 5.0, 15: 6}) == (0.0, 5.0, 6.0, 0.0, 0.0)
    for bad in ({"014": 1.0}, {14.0: 1.0}, {"14": 1.0, 14: 2.0}):
        with pytest.raises(BotError, match=r"card counts must be 13\.\.17"):
            ValueBot(rules.PINEAPPLE, fl_value=bad)
    for bot in (
        ValueBot(seed=0, fl_value={14: 5.0, 15: 6.0}),
        SearchBot(seed=0, samples=4, time_budget=None, fl_value={14: 5.0, 15: 6.0}),
    ):
        settings = json.loads(json.dumps(bot.settings()))
        copy = make_bot(bot.name, None, 0, **settings)
        assert str(copy.act(obs)) == str(bot.act(obs))


def test_training_refuses_an_out_another_run_is_writing(tmp_path: Path, capsys):
    """Two training commands on one --out both computed every step and raced on
    the same files; the second is now refused at once (exit 2, a line naming the
    lock), as a second self-play run is.  The other writer here is a plain
    ``flock`` on the lock file, as another process's run takes it."""
    _require_torch()
    fcntl = pytest.importorskip(
        "fcntl", reason="flock is a POSIX call: run on Linux or macOS"
    )
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    out.mkdir()
    with open(out / ".training.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main([*_TINY_RUN, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert "being written by another training run" in err, err
        assert err.count("\n") == 1, err
        assert sorted(p.name for p in out.iterdir()) == [".training.lock"]
    assert main([*_TINY_RUN, "--out", str(out)]) == 0  # released: it runs


def test_eval_limit_help_says_the_opening_uses_a_tenth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--eval-limit`` said "held-out decisions per street" while the opening is
    evaluated on a tenth of them (README's table: 200 deals, 30 openings)."""
    from ofc_fast.learned import train as train_module

    with pytest.raises(SystemExit):
        train_module.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--eval-limit EVAL_LIMIT held-out decisions evaluated per street (the " in text
    assert "opening: a tenth of them, at least 1)" in text


def test_a_bot_given_its_rules_refuses_a_model_file_of_other_rules_when_made(
    tmp_path: Path,
) -> None:
    """docs/learned.md: a bot reads a model file named by a path when it is made.  A
    bot given its rules and a model of other rules (an OFC model at a PINEAPPLE
    table; a ValueModel or its bytes alike) is a BotModelError then, naming the file;
    it was made and failed at its first decision, naming the model's stem only.  A
    bot without rules (they come with each observation) keeps the check for then."""
    path = tmp_path / "ofc.ofcvm"
    path.write_bytes(model_bytes(random_nets(7), rules.OFC, 2))
    named = re.escape(repr(str(path)))
    model = load_model(path)
    for cls, kw in ((ValueBot, {}), (SearchBot, {"samples": 4})):
        pinned = {"path": str(path), "checksum": f"{model.checksum:016x}"}
        for spec in (str(path), path, model, pinned):
            with pytest.raises(BotModelError, match="other rules than PINEAPPLE") as info:
                cls(rules.PINEAPPLE, seed=0, model=spec, **kw)  # type: ignore[arg-type]
            assert re.search(named, str(info.value)), info.value
        data = ValueModel.from_bytes(path.read_bytes(), "mine")
        with pytest.raises(BotModelError, match=r"mine@.* other rules than PINEAPPLE"):
            cls(rules.PINEAPPLE, seed=0, model=data, **kw)  # type: ignore[arg-type]
        cls(rules.OFC, seed=0, model=str(path), **kw)  # its own rules (any seats)
        bot = cls(seed=0, model=str(path), **kw)  # the rules of each observation
        with pytest.raises(BotModelError, match=f"{named}.* other rules than PINEAPPLE"):
            bot.act(Game(rules.PINEAPPLE, 2, seed=1).observation(1))
        with pytest.raises(
            BotModelError, match=f"{named}\\) was trained for 2 players, not 3"
        ):
            bot.act(Game(rules.OFC, 3, seed=1).observation(1))


def test_a_folder_given_as_a_model_file_is_named_once(tmp_path: Path) -> None:
    """load_model of a folder (and a bot's model= of one) says the path is not a
    regular file, once: the message was wrapped in itself, "value model 'x': cannot
    read it (value model 'x': not a regular file)"."""
    named = re.escape(repr(str(tmp_path)))
    with pytest.raises(ModelError, match=f"^value model {named}: not a regular file$"):
        load_model(tmp_path)
    with pytest.raises(BotModelError, match=f"^value bot: value model {named}: not a"):
        ValueBot(seed=0, model=tmp_path)


def test_training_progress_into_a_log_file_has_no_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The training command's progress on a standard error that is no terminal (a log
    file, a pipe) is plain lines, as README.md says of the bar without tqdm: with
    tqdm installed it wrote the bar's carriage returns and redraws into the log."""
    _require_torch()
    from ofc_fast.learned.train import main

    args = ["--rules", "pineapple", "--deals", "3", "--eval-deals", "1"]
    args += ["--samples", "1", "--eval-samples", "1", "--eval-limit", "1"]
    args += ["--epochs", "1", "--hidden", "4", "--opponent", "typical"]
    assert main([*args, "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "positions" in err and "3/3 deals" in err, err
    bad = sorted({c for c in err if c != "\n" and not c.isprintable()})
    assert not bad, f"control characters {bad} in {err[:300]!r}"


@pytest.mark.parametrize("out", [None, 3, b"run"])
def test_train_refuses_an_out_that_is_no_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: object
) -> None:
    """train()'s ``out`` is a folder's path: None (an unset setting) or a number was
    taken as its text, and the run trained into a folder named 'None' or '3' in the
    working directory; a ModelError naming ``out`` before any step."""
    from ofc_fast.learned.train import train

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ModelError, match=r"^out: a folder's path is text, got "):
        train("pineapple", out, deals=4, opponent="typical", progress=False)  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


def test_training_run_again_draws_the_plot_once_matplotlib_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run without matplotlib says report.png is not drawn and what to install; the
    same command run again with it installed draws report.png (the finished report
    was returned as it was, so no plot came until another --out) and keeps the
    report.  A report.md deleted since is written again alike."""
    _require_torch()
    pytest.importorskip("matplotlib", reason='pip install ".[learn]"')
    import sys

    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    with monkeypatch.context() as m:
        for name in ("matplotlib", "matplotlib.figure", "matplotlib.pyplot"):
            m.setitem(sys.modules, name, None)  # import fails
        assert main([*_TINY_RUN, "--out", str(out)]) == 0
    assert not (out / "report.png").exists()
    report = (out / "report.json").read_bytes()
    (out / "report.md").unlink()
    assert main([*_TINY_RUN, "--out", str(out)]) == 0
    assert (out / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "report.json").read_bytes() == report
    assert (out / "report.md").read_text().startswith("# Value model ")


def test_write_model_killed_mid_write_leaves_the_old_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """write_model writes a temporary file and renames it over the path, as the
    training command writes its model: a kill in the middle of the write (or a full
    disk) leaves the model that was there, whole, for the bots that read the path at
    each decision.  It wrote in place: a kill left a truncated file, a ModelError."""
    import builtins
    import io

    path = tmp_path / "mine.ofcvm"
    old = write_model(path, random_nets(1), rules.PINEAPPLE, 2)
    real_open = io.open

    class Killed:
        """A file whose write stops after 100 bytes with a Ctrl-C."""

        def __init__(self, f: Any) -> None:
            self.f = f

        def __enter__(self) -> Killed:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

        def write(self, data: bytes) -> int:
            self.f.write(bytes(data)[:100])
            self.f.flush()
            raise KeyboardInterrupt

        def __getattr__(self, name: str) -> Any:
            return getattr(self.f, name)

    def killing_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        f = real_open(file, mode, *args, **kwargs)
        return Killed(f) if "w" in mode and ".ofcvm" in str(file) else f

    with monkeypatch.context() as m:
        m.setattr(io, "open", killing_open)
        m.setattr(builtins, "open", killing_open)
        with pytest.raises(KeyboardInterrupt):
            write_model(path, random_nets(2), rules.PINEAPPLE, 2)
    assert load_model(path).checksum == old.checksum
    assert [f.name for f in tmp_path.iterdir()] == ["mine.ofcvm"]  # (no part left)
    new = write_model(path, random_nets(2), rules.PINEAPPLE, 2)
    assert load_model(path).checksum == new.checksum != old.checksum


def test_value_bot_names_the_card_count_its_model_has_no_net_for(tmp_path: Path) -> None:
    """A model without a net for a board size the bot meets (Pineapple's third round:
    5 cards, then 2 more kept a round, 9) said only "the value model has no net for
    this many cards": the error names the card count, the model's file and its nets,
    at a decision and from ValueModel.value alike."""
    path = tmp_path / "mine.ofcvm"
    model = write_model(path, random_nets(1, cards=(5, 7, 11)), rules.PINEAPPLE, 2)
    bot = ValueBot(rules.PINEAPPLE, seed=0, model=str(path))
    with pytest.raises(BotModelError) as err:
        play_out(Game(rules.PINEAPPLE, 2, seed=3), [bot, RandomBot(seed=1)])
    said = str(err.value)
    assert "no net for boards of 9 cards" in said, said
    assert str(path) in said and "mine@" in said and "[5, 7, 11]" in said, said
    with pytest.raises(
        ModelError, match=r"mine@\w+ \(file .*\) has no net for boards of 3 "
    ):
        load_model(path).value("As Kd / / 2c", rules.PINEAPPLE)
    assert model.cards == (5, 7, 11)


def test_write_model_leaves_a_file_named_like_its_temporary_one(tmp_path: Path) -> None:
    """write_model wrote its bytes to ``<path>.tmp`` and renamed that over the path: a
    file of the user's by that name (``mine.ofcvm.tmp``) was overwritten and then
    gone.  Its temporary file now has a name of its own; the user's file is kept."""
    path = tmp_path / "mine.ofcvm"
    (tmp_path / "mine.ofcvm.tmp").write_bytes(b"the user's")
    nets = random_nets(1)
    write_model(path, nets, rules.PINEAPPLE, 2)
    assert (tmp_path / "mine.ofcvm.tmp").read_bytes() == b"the user's"
    assert path.read_bytes() == model_bytes(nets, rules.PINEAPPLE, 2)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["mine.ofcvm", "mine.ofcvm.tmp"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: run on Linux or macOS")
def test_write_model_writes_a_fifo_in_place(tmp_path: Path) -> None:
    """write_model to a FIFO (or ``/dev/stdout``, a device) renamed a regular file over
    it (as root, over ``/dev/null`` itself); a reader of the FIFO got nothing.  It
    is written to as it is, as the arena's outputs are."""
    import stat

    fifo = tmp_path / "pipe.ofcvm"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # (so the writer's open returns)
    try:
        nets = random_nets(1, cards=(5,), hidden=(2,))
        write_model(fifo, nets, rules.PINEAPPLE, 2)
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)
        assert os.read(reader, 1 << 16) == model_bytes(nets, rules.PINEAPPLE, 2)
    finally:
        os.close(reader)
    assert [f.name for f in tmp_path.iterdir()] == ["pipe.ofcvm"]


def test_training_removes_what_a_killed_run_left(tmp_path: Path) -> None:
    """A run killed while writing a step or model left its hidden temporary file
    (``.<name>.<pid>.<hex>.tmp``, as large as the file), a new one each time; the
    run that resumes removes them, and no file of the user's."""
    _require_torch()
    from ofc_fast.learned.train import main

    out = tmp_path / "run"
    args = [*_TINY_RUN, "--out", str(out)]
    assert main(args) == 0
    left = [".positions.npz.4242.0123abcd.tmp", ".pineapple-2p.ofcvm.7.deadbeef.tmp"]
    mine = [".notes.tmp", "positions.npz.tmp", ".a.b.tmp"]
    for name in left + mine:
        (out / name).write_bytes(b"x" * 100)
    assert main(args) == 0
    names = set(os.listdir(out))
    assert not names & set(left)
    assert set(mine) <= names


def test_a_workers_count_past_one_cpu_s_most_says_one_cpu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--workers 9`` on one CPU said "(4 per CPU, 1 CPUs here)"."""
    from ofc_fast.learned import train as train_mod
    from ofc_fast.parallel import _counts as parallel_counts

    monkeypatch.setattr(parallel_counts, "cpu_count", lambda: 1)
    assert (
        train_mod.main(["--out", str(tmp_path / "run"), "--workers", "9", "--quiet"]) == 2
    )
    assert capsys.readouterr().err == (
        "error: --workers: must be at most 4, got 9 (4 per CPU, 1 CPU here)\n"
    )


def test_a_ctrl_c_as_a_fit_sets_torch_to_one_thread_sets_it_back(monkeypatch):
    """Regression: ``fit`` set torch's thread count to one and only then entered the
    ``try`` that sets it back: a Ctrl-C landing in between left torch on one thread
    for the rest of the process (a notebook's torch ran its work on one core).  Here
    (a stand-in for torch) KeyboardInterrupt is raised as the count is set to one."""
    from ofc_fast.learned import _fit as fitting

    counts = [8]  # torch's thread count, each set after the first

    class Torch:
        @staticmethod
        def get_num_threads():
            return counts[-1]

        @staticmethod
        def set_num_threads(n):
            counts.append(n)
            if n == 1:
                raise KeyboardInterrupt

    monkeypatch.setattr(fitting, "require_torch", Torch)
    x, y = np.zeros((4, 2), np.float32), np.zeros(4)
    with pytest.raises(KeyboardInterrupt):
        fitting.fit(x, y, seed=1)
    assert counts[-1] == 8, counts


def test_a_value_model_compares_by_identity_as_documented() -> None:
    """Regression: ``ValueModel`` compares by identity, undocumented: an unpickled
    model being ``!=`` its original looked like a bug.  The docstring now says so
    (no cache keys on a model; each owns its C struct and caches; a name or path is no
    part of the nets) and that ``checksum`` and ``rules_hash`` say the nets match."""
    import pickle

    model = load_model(MODEL_DIR / "pineapple-2p.ofcvm")
    again = pickle.loads(pickle.dumps(model))
    assert again != model and again.c != model.c  # a struct of its own
    assert (again.checksum, again.rules_hash) == (model.checksum, model.rules_hash)
    assert "Equality is identity" in (ValueModel.__doc__ or "")
