"""The learned model's data steps without the training library: positions played by
the behaviour policy, labels through the later nets, and the held-out evaluation.
Each is checked against what it promises, from the game's own referee."""

from __future__ import annotations

import os

import numpy as np
import pytest

from ofc_fast import rules
from ofc_fast.game import actions_for
from ofc_fast.learned import _data, shipped_model
from ofc_fast.learned.model import MODEL_DIR

PINEAPPLE = rules.PINEAPPLE.to_json()


def _positions(
    seed: int = 5, deals: int = 2, epsilon: float = 0.3
) -> dict[str, np.ndarray]:
    return _data.gen_chunk(_data.GenTask(PINEAPPLE, 2, seed, 0, deals, epsilon))


def test_positions_are_every_normal_decision_and_reproducible() -> None:
    a, b = _positions(), _positions()
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    # Pineapple heads-up: an opening and four rounds per seat, two seats, two deals
    # (a Fantasyland set is no normal decision, and none is dealt in a first deal).
    assert len(a["played"]) == 2 * 2 * 5
    assert set(a["deal"].tolist()) == {0, 1}
    assert sorted(set(a["n"].tolist())) == [3, 5]
    assert set(a["k"].tolist()) == {0, 1}


def test_positions_of_a_model_behaviour_are_the_value_bots_moves() -> None:
    """With ``behaviour`` (a model file) every non-random move is the ValueBot's."""
    from ofc_fast.bots import ValueBot
    from ofc_fast.game import Game

    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    task = _data.GenTask(PINEAPPLE, 2, 4, 0, 2, 0.0, data)
    d = _data.gen_chunk(task)
    assert len(d["played"]) == 2 * 2 * 5
    heuristic = _positions(seed=4, deals=2, epsilon=0.0)
    assert not np.array_equal(d["played"], heuristic["played"])
    # replay deal 0 with the same seeds: the recorded moves are the bot's argmax
    rng = np.random.default_rng([4, 0])
    g = Game(rules.PINEAPPLE, 2, seed=int(rng.integers(2**62)))
    bots = [
        ValueBot(rules.PINEAPPLE, int(rng.integers(2**62)), model=_data._model(data))
        for _ in range(2)
    ]
    j = 0
    while g.to_act is not None:
        s = g.to_act
        obs = g.observation(s)
        board = bytes(_data.board_bytes(obs["boards"][s]))
        assert board == bytes(d["board"][j])
        g.play(bots[s].act(obs))
        j += 1
    assert j == int((d["deal"] == 0).sum())


def test_row_counts_are_the_rows_of_the_clean_finished_boards() -> None:
    """``rows`` (the opponent rows of a model trained with ``--opponent play``):
    replayed deal by deal with the same seeds, every seat's finished board, its rows
    ranked by the rankers and left out when they break the row order."""
    from ofc_fast.bots import HeuristicBot
    from ofc_fast.game import Game
    from ofc_fast.ranking import rank3, rank5

    d = _positions(seed=6, deals=4, epsilon=0.0)
    want = np.zeros(3 * 7918, np.uint64)
    for i in range(4):
        rng = np.random.default_rng([6, i])
        g = Game(rules.PINEAPPLE, 2, seed=int(rng.integers(2**62)))
        bots = [HeuristicBot(rules.PINEAPPLE, int(rng.integers(2**62))) for _ in range(2)]
        while g.to_act is not None:
            g.play(bots[g.to_act].act(g.observation(g.to_act)))
        for seat in range(2):
            front, middle, back = g.observation(seat)["boards"][seat]
            f, m, b = rank3(front), rank5(middle), rank5(back)
            if f <= m <= b:
                for row, strength in enumerate((f, m, b)):
                    want[row * 7918 + strength] += 1
    assert 0 < want.sum() <= 3 * 8
    assert np.array_equal(d["rows"], want)


def test_random_play_rows_are_fewer_and_weaker_than_heuristic_rows() -> None:
    """``rows`` of random play (``--opponent random``, epsilon 1): most random boards
    foul, and the clean ones hold weaker rows than HeuristicBot's, row by row."""
    from ofc_fast.ranking import rank3, rank5

    def mean_strengths(rows: np.ndarray) -> list[float]:
        per = rows.reshape(3, 7918).astype(float)
        return [float((per[r] * np.arange(7918)).sum() / per[r].sum()) for r in range(3)]

    rand = _positions(seed=8, deals=40, epsilon=1.0)["rows"]
    heur = _positions(seed=8, deals=40, epsilon=0.0)["rows"]
    assert 0 < rand[:7918].sum() < heur[:7918].sum() // 2  # of 80 boards each
    # each row is weaker at random (strength: larger beats smaller)
    for r, (a, b) in enumerate(zip(mean_strengths(rand), mean_strengths(heur))):
        assert a < b, r
    # the rankers agree on the scale: a pair of aces beats any high card up front
    assert rank3("Ah Ad 2c") > rank3("Ah Kd Jc") > 0
    assert rank5("2h 2d 3c 4s 5h") > rank5("Ah Kd Qc Js 9h") > 0


def test_positions_know_only_dead_cards_the_seat_saw() -> None:
    d = _positions(seed=9)
    for board, dealt, n, dead in zip(d["board"], d["dealt"], d["n"], d["dead"]):
        own = {int(c) for c in board if c != 0xFF} | {int(c) for c in dealt[:n]}
        dead_cards = {c for c in range(52) if int(dead) >> c & 1}
        assert not own & dead_cards  # its own cards are not "gone"
        assert len(own) + len(dead_cards) <= 52


def test_played_actions_are_legal_for_their_position() -> None:
    d = _positions(seed=11, deals=1, epsilon=1.0)  # every move at random
    for board, dealt, n, k, played in zip(
        d["board"], d["dealt"], d["n"], d["k"], d["played"]
    ):
        rows = [
            [int(c) for c in board[s:e] if c != 0xFF] for s, e in ((0, 3), (3, 8), (8, 13))
        ]
        legal = actions_for(int(n), rows, int(k))
        assert int(played) in list(legal)
        assert [int(c) for c in dealt[n:]] == [0xFF] * (5 - int(n))


def test_labels_are_reproducible_and_finite() -> None:
    d = _positions(seed=3, deals=1)
    last = d["n"] == 3  # after-states one street from the end have complete next boards
    boards, dead = d["board"][last][-2:], d["dead"][last][-2:]
    task = _data.LabelTask(PINEAPPLE, 2, None, boards, dead, 7, 0, 4)
    a, b = _data.label_chunk(task), _data.label_chunk(task)
    assert a.shape == (len(boards),) and np.array_equal(a, b)
    assert np.isfinite(a).all()
    other = _data.label_chunk(_data.LabelTask(PINEAPPLE, 2, None, boards, dead, 8, 0, 4))
    assert other.shape == a.shape  # another stream of draws: same shape, its own values


def test_features_have_the_model_width() -> None:
    d = _positions(seed=4, deals=1)
    f = _data.features(rules.PINEAPPLE, 2, d["board"], d["dead"])
    assert f.shape == (len(d["board"]), _data.FEATURES) and f.dtype == np.float32
    assert np.isfinite(f).all()


@pytest.mark.skipif(
    not (MODEL_DIR / "pineapple-2p.ofcvm").exists(),
    reason="needs the shipped model (git clone, or install the wheel)",
)
def test_evaluation_gives_a_regret_and_an_agreement() -> None:
    """The evaluation step with the shipped model as its own teacher (labels through
    it, from sampled draws): per decision a regret that is never negative and an
    agreement of 0 or 1."""
    data = (MODEL_DIR / "pineapple-2p.ofcvm").read_bytes()
    d = _positions(seed=6, deals=1)
    first = np.flatnonzero(d["n"] == 5)[:1]
    task = _data.EvalTask(
        PINEAPPLE, 2, data, data, d["board"][first], d["dealt"][first], d["n"][first],
        d["k"][first], d["dead"][first], 1, 0, 2,
    )  # fmt: skip
    out = _data.eval_chunk(task)
    assert out.shape == (1, 2) and np.isfinite(out).all()
    assert out[0, 0] >= -1e-9  # a regret is never negative
    assert out[0, 1] in (0.0, 1.0)


def _label_11(front: str, stay: tuple[float, ...]) -> float:
    """The label of one 11-card after-state (the next decision completes the board:
    3 cards, one discarded), over 16 draws of the same stream whatever ``stay``."""
    from ofc_fast.cards import parse_cards

    rows = (parse_cards(front), parse_cards("4h 4s 9c 9h Jd"), parse_cards("Ah Kh 8h 5h"))
    board = bytearray([0xFF] * 13)
    for start, cards in zip((0, 3, 8), rows):
        board[start : start + len(cards)] = bytes(cards)
    boards = np.frombuffer(bytes(board), np.uint8).reshape(1, 13)
    task = _data.LabelTask(
        PINEAPPLE, 2, None, boards, np.zeros(1, np.uint64), 11, 0, 16, None, stay
    )
    return float(_data.label_chunk(task)[0])


def test_labels_price_fantasyland_at_the_given_value() -> None:
    """``stay`` is what a Fantasyland entry is worth in a label.  A front of 2c 3d
    can never earn Fantasyland (at best a pair of threes), so its label is the same
    at any value; a front holding QQ earns it on every clean completion, and a
    completion's Fantasyland term is the only thing a value moves, so raising all
    five values by 10 raises the label by more than 0 and at most 10 (the same
    draws; 10 times the share of them with a clean completion), and pricing
    Fantasyland at 0 lowers it."""
    default = tuple(float(v) for v in (9.5, 14.5, 20.5, 26.5, 33.5))  # the rules'
    higher = tuple(v + 10 for v in default)
    zero = (0.0,) * 5
    assert _label_11("2c 3d", ()) == _label_11("2c 3d", zero) == _label_11("2c 3d", higher)
    base = _label_11("Qc Qd", ())
    assert _label_11("Qc Qd", default) == base  # () is the rules' default
    assert 0 < _label_11("Qc Qd", higher) - base <= 10 + 1e-9
    assert _label_11("Qc Qd", zero) < base - 5


def test_fl_value_setting_reads_as_the_solver_reads_stay_values() -> None:
    """``--fl-value`` / ``train(fl_value=...)``: the rules' default (given or not) is
    ``()``, so runs from before the setting resume; anything else is its five values;
    a count outside 13..17 or text that is neither a number nor a JSON object is a
    ModelError naming the setting."""
    from ofc_fast.errors import ModelError
    from ofc_fast.learned.train import _stay, _stay_arg

    pin = rules.PINEAPPLE
    default = {13: 9.5, 14: 14.5, 15: 20.5, 16: 26.5, 17: 33.5}
    assert _stay(pin, None) == () and _stay(pin, default) == ()
    assert _stay(pin, 0) == (0.0,) * 5
    assert _stay(pin, {14: 10}) == (0.0, 10.0, 0.0, 0.0, 0.0)
    with pytest.raises(ModelError, match=r"fl_value: card counts must be 13\.\.17"):
        _stay(pin, {12: 1.0})
    assert _stay_arg("3") == 3.0
    assert _stay_arg('{"14": 10.5}') == {"14": 10.5}  # (read as fl_value= is)
    assert _stay(pin, _stay_arg('{"14": 10.5}')) == (0.0, 10.5, 0.0, 0.0, 0.0)
    for bad in ("lots", "[1, 2]"):
        with pytest.raises(ModelError, match="--fl-value: a number or a JSON object"):
            _stay_arg(bad)
    with pytest.raises(
        ModelError, match=r"fl_value: card counts must be 13\.\.17, got 'fourteen'"
    ):
        _stay(pin, _stay_arg('{"fourteen": 1}'))


def test_fl_value_refuses_two_keys_for_one_card_count():
    """--fl-value '{"14": 1, "014": 2}' trained with {14: 2} without a word (int() of
    each key, the last kept), and so did '{"14": 1, "14": 2}' (json.loads keeps the
    last); train(fl_value={14: 1, "14": 2}) and the bots' fl_value named no key.  Each
    is now a ModelError (BotError) naming the keys, as fl_value= is read everywhere."""
    from ofc_fast.bots import ValueBot
    from ofc_fast.errors import BotError, ModelError
    from ofc_fast.learned.train import _stay, _stay_arg

    pin = rules.PINEAPPLE
    with pytest.raises(ModelError, match=r"^--fl-value: key '14' is given twice"):
        _stay_arg('{"14": 1, "14": 2}')
    with pytest.raises(ModelError, match=r"card counts must be 13\.\.17, got '014'$"):
        _stay(pin, _stay_arg('{"14": 1, "014": 2}'))
    both = r"^fl_value: card counts must be 13\.\.17, each given once; keys 14 and '14'"
    with pytest.raises(ModelError, match=both):
        _stay(pin, {14: 1.0, "14": 2.0})
    with pytest.raises(BotError, match="keys '15' and 15 both name 15"):
        ValueBot(pin, fl_value={"15": 1.0, 15: 2.0})


@pytest.mark.skipif(
    not os.path.exists("/proc/self/status"),
    reason="run on Linux: the test reads the process's memory in /proc/self/status",
)
def test_contexts_against_many_opponents_free_their_tables() -> None:
    """The features and labels without a model build a value context per opponent
    rows, cached (8); one the cache forgets is freed with its 380 KB of tables.
    They were all kept for the life of the process (a list held them): 40 more
    opponents, as in a notebook that trains model after model, grew it by 15 MB."""
    from pathlib import Path

    def rss_mb() -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS line")  # pragma: no cover

    model = shipped_model(rules.PINEAPPLE, 2)
    assert model is not None and model.opponent_rows is not None
    rows = model.opponent_rows
    base = rows.ravel().astype(np.uint32)
    boards = np.full((1, 13), 0xFF, np.uint8)
    boards[0, :5] = [0, 1, 2, 3, 4]
    dead = np.zeros(1, np.uint64)

    def opponent(i: int) -> bytes:
        counts = base.copy()
        counts[np.flatnonzero(counts)[:3]] += i
        return counts.tobytes()

    for i in range(10):  # the cache full, the allocator warm
        _data.features(rules.PINEAPPLE, 2, boards, dead, opponent(i))
    before = rss_mb()
    for i in range(10, 50):
        _data.features(rules.PINEAPPLE, 2, boards, dead, opponent(i))
    assert rss_mb() - before < 5


def test_training_refuses_deals_whose_positions_cannot_fit_in_memory(
    tmp_path, monkeypatch, capsys
):
    """--deals 1000000000000 printed "positions" and built its chunk list for minutes
    before a MemoryError; --eval-deals and --opponent-deals alike.  Counts whose
    positions (a decision's bytes as a run's arrays hold them, measured here) cannot
    fit in the machine's memory are refused before any step, naming the option."""
    from ofc_fast.errors import ModelError
    from ofc_fast.learned._settings import check_settings
    from ofc_fast.learned.train import _positions, main
    from ofc_fast.parallel import make_executor

    with make_executor(1) as ex:
        pos = _positions(ex, rules.PINEAPPLE, 3, 5, 0, 4, 0.15, False)
    per_deal = sum(v.nbytes for k, v in pos.items() if k != "rows") // 4
    assert per_deal == 3 * 5 * 38  # (3 seats, 5 streets)
    settings = dict(seed=1, epsilon=0.1, hidden=(8,), eval_deals=1, opponent_deals=1)
    for name in ("deals", "eval_deals", "opponent_deals"):  # (on any machine)
        with pytest.raises(ModelError, match=rf"^{name}: 1,000,000,000,000 is too many"):
            check_settings(rules.PINEAPPLE, 3, **{**settings, "deals": 1, name: 10**12})
    with monkeypatch.context() as m:  # 16 MB
        m.setattr(os, "sysconf", {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 4000}.get)
        fits = (4000 * 4096 // per_deal - 1) // 4  # 2 copies of 2 rounds, 1 held out
        check_settings(rules.PINEAPPLE, 3, **settings, deals=fits, rounds=2)
        with pytest.raises(ModelError, match=r"^deals: .* too many .*memory \(0 GB\)"):
            check_settings(rules.PINEAPPLE, 3, **settings, deals=fits + 1, rounds=2)
    out = tmp_path / "run"
    for option in ("--deals", "--eval-deals", "--opponent-deals"):
        assert main([option, str(10**12), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {option}: 1,000,000,000,000 is too many for this ")
    assert not out.exists()


@pytest.mark.parametrize(
    ("files", "limit", "where"),
    [  # (cgroup files under a fake root, the bytes a run may use, whose memory)
        ({}, 16_384_000, "machine"),  # no cgroup: the machine's 16.4 MB
        ({"memory.max": "max\n"}, 16_384_000, "machine"),  # v2, no limit
        ({"memory.max": "8000000\n"}, 8_000_000, "container"),  # v2: 8 MB
        ({"memory.max": "99000000\n"}, 16_384_000, "machine"),  # above the machine's
        ({"memory/memory.limit_in_bytes": "9223372036854771712\n"}, 16_384_000, "machine"),
        ({"memory/memory.limit_in_bytes": "4000000\n"}, 4_000_000, "container"),  # v1
        (  # both present (a hybrid mount): the smaller
            {"memory.max": "6000000", "memory/memory.limit_in_bytes": "5000000"},
            5_000_000,
            "container",
        ),
        ({"memory.max": "garbage"}, 16_384_000, "machine"),  # unreadable: not a limit
    ],
)
def test_training_memory_check_uses_a_containers_cgroup_limit(
    tmp_path, monkeypatch, files, limit, where
):
    """In a container (Docker, Kubernetes, a CI runner) the cgroup's memory limit, not
    the machine's memory, is what kills a run: the check read only the machine's
    memory, so deals a container cannot hold went on to be killed mid-run.  The
    smaller of the machine's memory and the cgroup limit (v2 ``memory.max``, "max":
    none; v1 ``memory/memory.limit_in_bytes``, a huge number: none) is the limit."""
    from ofc_fast.errors import ModelError
    from ofc_fast.learned import _settings

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(_settings, "CGROUP", str(tmp_path))
    monkeypatch.setattr(os, "sysconf", {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 4000}.get)
    per_deal = 2 * 5 * 38  # PINEAPPLE heads-up: 2 seats, 5 streets, 38 bytes each
    fits = (limit // per_deal - 1) // 2  # 2 copies of 1 round, 1 held out
    settings = dict(seed=1, epsilon=0.1, hidden=(8,), eval_deals=1, rounds=1)
    _settings.check_settings(rules.PINEAPPLE, 2, **settings, deals=fits)
    with pytest.raises(ModelError, match=rf"^deals: .* too many for this {where}'s memory"):
        _settings.check_settings(rules.PINEAPPLE, 2, **settings, deals=fits + 1)


@pytest.mark.parametrize(
    "own, files, limit, where",
    [  # machine: 4096 * 4000 = 16,384,000 bytes
        (  # systemd's MemoryMax on the service, none at the root
            "0::/system.slice/train.service",
            {
                "memory.max": "max",
                "system.slice/memory.max": "9000000",
                "system.slice/train.service/memory.max": "5000000",
            },
            5_000_000,
            "container",
        ),
        (  # a parent's limit smaller than the process's own
            "0::/a/b",
            {"a/memory.max": "3000000", "a/b/memory.max": "7000000"},
            3_000_000,
            "container",
        ),
        (  # v1: the memory controller's line, its hierarchy under memory/
            "5:cpu,cpuacct:/x\n4:memory:/process_api/abc\n0::/",
            {
                "memory/memory.limit_in_bytes": "9223372036854771712",
                "memory/process_api/memory.limit_in_bytes": "9223372036854771712",
                "memory/process_api/abc/memory.limit_in_bytes": "6000000",
                "memory/x/memory.limit_in_bytes": "1000",  # (cpu's path, not memory's)
            },
            6_000_000,
            "container",
        ),
        (  # the process's cgroup not mounted under CGROUP: the root's limit
            "0::/docker/deadbeef",
            {"memory.max": "8000000"},
            8_000_000,
            "container",
        ),
        ("0::/a", {"a/memory.max": "max"}, 16_384_000, "machine"),
    ],
)
def test_memory_limit_reads_the_processs_own_cgroup_up_to_the_root(
    tmp_path, monkeypatch, own, files, limit, where
):
    """A limit set on the process's own cgroup (systemd ``MemoryMax``, a sub-cgroup
    without a cgroup namespace) or on one between it and the root was missed: only
    the root's files were read.  The smallest limit on the path from the cgroup that
    /proc/self/cgroup names up to the root is the one."""
    from ofc_fast.learned import _settings

    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text + "\n")
    proc = tmp_path / "proc_self_cgroup"
    proc.write_text(own + "\n")
    monkeypatch.setattr(_settings, "CGROUP", str(root))
    monkeypatch.setattr(_settings, "PROC_CGROUP", str(proc))
    monkeypatch.setattr(os, "sysconf", {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 4000}.get)
    assert _settings.memory_limit() == (limit, where)
