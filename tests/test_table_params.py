"""One validator of table parameters (ofc_fast.table): Match, Game, VectorEnv, settle
and the command line refuse the same bad seat counts, buttons, seats, seeds, stacks
and Fantasyland counts with the same exception class, TableError, at construction."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import Game, Match, TableError, rules, settle, table
from ofc_fast.cli import build_parser
from ofc_fast.env import VectorEnv

X = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
Y = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"


def cli(*argv: str) -> Callable[[], Any]:
    """The command's function run on parsed arguments (the TableError itself, not
    the printed line that ``main`` makes of it)."""

    def call() -> Any:
        args = build_parser().parse_args(list(argv))
        return args.func(args)

    return call


# (what, {layer: a call with that bad parameter}); every layer that takes the
# parameter is listed.
BAD: list[tuple[str, dict[str, Callable[[], Any]]]] = [
    (
        "one seat",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 1),
            "Game": lambda: Game(rules.PINEAPPLE, 1),
            "VectorEnv": lambda: VectorEnv(rules.PINEAPPLE, 1, players=1),
            "settle": lambda: settle([X], rules.PINEAPPLE),
            "cli": cli("play", "--players", "1", "--hands", "1"),
        },
    ),
    (
        "more seats than the rules allow",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 4),
            "Game": lambda: Game(rules.PINEAPPLE, 4),
            "VectorEnv": lambda: VectorEnv(rules.PINEAPPLE, 1, players=4),
            "settle": lambda: settle([X, Y, None, None], rules.PINEAPPLE),
            "cli": cli("play", "--players", "4", "--hands", "1"),
        },
    ),
    (
        "a bool for a seat",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 2, button=True),
            "Game": lambda: Game(rules.PINEAPPLE, 2, button=True),
            "VectorEnv": lambda: VectorEnv(rules.PINEAPPLE, 1, learner=True),  # type: ignore[arg-type]
            "settle": lambda: settle([X, Y], button=True),
            "Game.observation": lambda: Game(rules.PINEAPPLE, 2, seed=1).observation(True),
        },
    ),
    (
        "a seat number past the table",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 2, button=2),
            "Game": lambda: Game(rules.PINEAPPLE, 2, button=2),
            "VectorEnv": lambda: VectorEnv(rules.PINEAPPLE, 1, learner=2),
            "settle": lambda: settle([X, Y], button=2),
            "settle seat": lambda: settle(
                [X, Y], rules.OFC.replace(surrender_cost=1), surrendered=[2]
            ),
            "cli": cli("play", "--button", "3", "--hands", "1"),
            "cli score": cli("score", X, Y, "--button", "2"),
        },
    ),
    (
        "a stack over OFC_STACK_MAX",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 2, stacks=[10**10, 5]),
            "Game": lambda: Game(rules.PINEAPPLE, 2, stacks=[10**10, 5]),
            "settle": lambda: settle([X, Y], stacks=[10**10, 5]),
            "cli": cli("play", "--players", "2", "--stacks", "10000000000,5"),
            "cli score": cli("score", X, Y, "--stacks", "10000000000,5"),
        },
    ),
    (
        "a negative stack",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 2, stacks=[-1, 5]),
            "Game": lambda: Game(rules.PINEAPPLE, 2, stacks=[-1, 5]),
            "settle": lambda: settle([X, Y], stacks=[-1, 5]),
            "cli": cli("play", "--players", "2", "--stacks=-1,5"),
        },
    ),
    (
        "a stack per seat missing",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 3, stacks=[5, 5]),
            "Game": lambda: Game(rules.PINEAPPLE, 3, stacks=[5, 5]),
            "settle": lambda: settle([X, Y], stacks=[5]),
        },
    ),
    (
        "a seed outside 0..2**64-1",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 2, seed=2**64),
            "Game": lambda: Game(rules.PINEAPPLE, 2, seed=-1),
            "VectorEnv": lambda: VectorEnv(rules.PINEAPPLE, 1, seed=2**64),
            "cli": cli("play", "--seed", "-1", "--hands", "1"),
        },
    ),
    (
        # a dict gave its keys, the seat numbers, as the chips (stacks (0, 1)); a
        # set gave its values in hash order, to whichever seat
        "stacks or Fantasyland counts with no seat order (a dict, a set)",
        {
            "Match": lambda: Match(rules.PINEAPPLE, 2, stacks={0: 100, 1: 50}),
            "Game": lambda: Game(rules.PINEAPPLE, 2, stacks={0: 100, 1: 50}),
            "settle": lambda: settle([X, Y], stacks={0: 100, 1: 50}),
            "Game (set)": lambda: Game(rules.PINEAPPLE, 2, stacks={100, 50}),
            "Game fantasyland": lambda: Game(rules.PINEAPPLE, 2, fantasyland={14, 0}),
            "Match fantasyland": lambda: Match(
                rules.PINEAPPLE, 2, fantasyland=frozenset({14, 0})
            ),
        },
    ),
    (
        "a Fantasyland count outside 0 and 13..17",
        {
            "Game": lambda: Game(rules.PINEAPPLE, 2, fantasyland=(12, 0)),
            "Game (bool)": lambda: Game(rules.PINEAPPLE, 2, fantasyland=(True, 0)),
            # equal to 0 and hashed as 0, yet no int: not taken by the plain-int path
            "Game (False)": lambda: Game(rules.PINEAPPLE, 2, fantasyland=(False, 0)),
            "Game (0.0)": lambda: Game(rules.PINEAPPLE, 2, fantasyland=[0, 0.0]),
            "Match (np.False_)": lambda: Match(rules.OFC, 2, fantasyland=(0, np.False_)),
        },
    ),
]


@pytest.mark.parametrize("what, calls", BAD, ids=[w for w, _ in BAD])
def test_every_layer_refuses_the_same_table_parameters_alike(
    what: str, calls: dict[str, Callable[[], Any]]
) -> None:
    for layer, call in calls.items():
        with pytest.raises(TableError) as info:
            call()
        assert type(info.value) is TableError, (what, layer, info.value)
        # code that caught either older class still does
        assert isinstance(info.value, ofc.GameError) and isinstance(
            info.value, ofc.BoardError
        )


def test_match_refuses_at_construction_what_game_refuses_at_the_deal() -> None:
    """Match used to accept these and fail at its first deal."""
    for kwargs in ({"stacks": [10**10, 5]}, {"button": True}, {"button": 1.0}):
        with pytest.raises(TableError):
            Match(rules.PINEAPPLE, 2, seed=1, **kwargs)  # type: ignore[arg-type]


def test_settle_bad_seat_is_a_table_error() -> None:
    with pytest.raises(TableError, match="button 5 is not a seat of 2 players"):
        settle([X, Y], button=5)
    with pytest.raises(TableError, match="declaring seat 3"):
        settle([X, Y], declared={3: True})


def test_table_limits_come_from_c() -> None:
    from ofc_fast._native import lib
    from ofc_fast.table import FANTASYLAND_CARDS, MAX_SEATS, STACK_MAX

    assert STACK_MAX == lib.OFC_STACK_MAX == 10**9
    assert MAX_SEATS == lib.OFC_GAME_MAX_SEATS == 4
    assert FANTASYLAND_CARDS == (13, 17)
    Game(rules.PINEAPPLE, 2, seed=1, stacks=[STACK_MAX, 0])  # the limit itself is fine
    Match(rules.PINEAPPLE, 2, seed=1, stacks=STACK_MAX // 2)  # a match: the limit in all


def test_numpy_integers_are_the_python_ints() -> None:
    """Game(seed=np.int64(3)) was a TableError ("must be 0..2**64-1, got
    np.int64(3)") though the bots and VectorEnv take NumPy ints: every table check
    takes a NumPy integer as the Python int (and returns a Python int), and still
    refuses NumPy bools and floats."""
    import numpy as np

    from ofc_fast.table import check_players, check_seat, check_seed, check_table

    assert (
        Game(rules.PINEAPPLE, np.int64(2), seed=np.uint64(3)).history()
        == Game(rules.PINEAPPLE, 2, seed=3).history()
    )
    got = check_table(
        rules.OFC, np.int8(3), np.int16(2), np.int32(100), (np.uint8(14), 0, 0)
    )
    assert got == (3, 2, (100, 100, 100), (14, 0, 0))
    assert all(type(x) is int for x in (got[0], got[1], *got[2], *got[3]))  # type: ignore[misc]
    assert type(check_seed(np.uint64(2**64 - 1))) is int
    assert check_seat(np.int64(1), 2) == 1 and check_players(np.int64(4), None) == 4
    for bad in (np.bool_(True), np.float64(2.0)):
        with pytest.raises(TableError):
            check_players(bad, None)
        with pytest.raises(TableError):
            check_seed(bad)


def test_a_0_d_integer_array_is_the_int_it_holds() -> None:
    """settle([a, b], stacks=np.array(100)) and check_seat(np.array(1), 2) were
    TableErrors, while NumPy reads a 0-d integer array as an int (operator.index)
    and parse_card reads one as a card: each table check takes it as the Python int
    it holds (EX: X beats Y by 50 units, capped at 3 chips by stacks (3, 100)); a
    0-d bool or float array stays a TableError."""
    import operator

    from ofc_fast.table import check_players, check_seat, check_seed

    assert operator.index(np.array(1)) == 1  # NumPy's own reading
    assert settle([X, Y], stacks=np.array(100)).net == settle([X, Y], stacks=100).net
    assert settle([X, Y], stacks=[np.array(3), 100]).net == [3, -3]
    for got, want in (
        (check_seat(np.array(1), 2), 1),
        (check_seat(np.array(1, np.uint8), 2), 1),
        (check_players(np.array(3, np.int64), None), 3),
        (check_seed(np.array(2**64 - 1, np.uint64)), 2**64 - 1),
    ):
        assert type(got) is int and got == want
    for bad in (np.array(True), np.array(1.0), np.array([1])):
        with pytest.raises(TableError):
            check_seat(bad, 2)


@pytest.mark.parametrize("text", ["14", "00", "50", b"ab", b"\x0e\x00", bytearray(b"22")])
def test_text_is_no_list_of_stacks_or_fantasyland_counts(text: Any) -> None:
    """Stacks or Fantasyland counts given as text were read character by character:
    ``fantasyland="14"`` was "seat 0: Fantasyland cards must be 0 or 13..17, got '1'",
    and bytes were taken as their byte values (``stacks=b"ab"``: stacks (97, 98)).
    Text is refused as a dict or a set is, naming the value given."""
    for call in (
        lambda: Game(rules.PINEAPPLE, 2, seed=1, stacks=text),
        lambda: Match(rules.PINEAPPLE, 2, seed=1, stacks=text),
        lambda: settle([X, Y], stacks=text),
        lambda: Game(rules.PINEAPPLE, 2, seed=1, fantasyland=text),
    ):
        with pytest.raises(TableError, match=r"in seat order \(a list\), got "):
            call()


def test_every_layer_refuses_a_table_whose_deal_needs_more_than_a_deck() -> None:
    """Pineapple rules of ``max_players=4`` deal 5 + 4 * 3 = 17 cards a seat, 68 at
    4 seats: ``Game`` and ``RunSpec.make`` failed only at the deal with the engine's
    bare "the deal needs more cards than the deck holds" (a GameError naming no
    parameter), and VectorEnv blamed Fantasyland. Every layer that sets up deals
    for N seats refuses it at construction with the one check's TableError naming
    ``players`` and the cards (the Gymnasium and PettingZoo envs are VectorEnvs)."""
    from ofc_fast.parallel import RunSpec

    p4 = rules.PINEAPPLE.replace(name="P4", max_players=4)
    message = "players: 4 seats of P4 need 68 cards; one deck has 52"
    layers: dict[str, Callable[[], Any]] = {
        "Game": lambda: Game(p4, 4, seed=1),
        "Match": lambda: Match(p4, 4, seed=1),
        "RunSpec.make": lambda: RunSpec.make(p4, 4, 1, 2, [("random", {})]),
        "RunSpec.make (no chains)": lambda: RunSpec.make(
            p4, 4, 1, 2, [("random", {})], fantasyland=False
        ),
        "VectorEnv": lambda: VectorEnv(p4, 2, players=4),
    }
    for layer, call in layers.items():
        with pytest.raises(TableError) as info:
            call()
        assert str(info.value) == message, layer
    Game(p4, 3, seed=1).history()  # 51 cards fit


def test_a_match_whose_fantasyland_deals_need_more_than_a_deck_names_players() -> None:
    """OFC rules with a 14-card Fantasyland at 4 seats deal 52 cards a normal deal
    but 4 * 14 = 56 with every seat in Fantasyland: a Match said "4 seats of O14 can
    need 56 cards (every seat in Fantasyland)", without the ``players:`` that the
    table's one deck check gives; every layer that plays Fantasyland deals on says
    the one check's message, naming ``players``."""
    from ofc_fast.parallel import RunSpec

    fl = rules.OFC.fantasyland
    assert fl is not None
    o14 = rules.OFC.replace(
        name="O14", fantasyland=fl.replace(entry=(("QQ", 14),), stay_cards=14)
    )
    message = (
        "players: 4 seats of O14 with Fantasyland (14, 14, 14, 14) need 56 cards; "
        "one deck has 52"
    )
    layers: dict[str, Callable[[], Any]] = {
        "Match": lambda: Match(o14, 4, seed=1),
        "RunSpec.make": lambda: RunSpec.make(o14, 4, 1, 2, [("random", {})]),
        "VectorEnv": lambda: VectorEnv(o14, 2, players=4),
    }
    for layer, call in layers.items():
        with pytest.raises(TableError) as info:
            call()
        assert str(info.value) == message, layer
    Game(o14, 4, seed=1).history()  # one deal of normal hands: 52 cards fit
    RunSpec.make(o14, 4, 1, 2, [("random", {})], fantasyland=False)


def test_a_position_of_a_table_one_deck_cannot_deal_names_the_cards() -> None:
    """A position (``make_observation``, a bot's or the analysis' observation) at a
    table one deck cannot deal said only "the seats, button or Fantasyland counts do
    not fit the rules"; it now says the one deck check's words: the seats, the
    Fantasyland hands and the cards they need (5 + 4 * 3 = 17 a Pineapple seat; an
    OFC seat 13, or its Fantasyland hand)."""
    from ofc_fast.errors import SearchError
    from ofc_fast.search import make_observation

    empty = ["- / - / -"] * 3
    p4 = rules.PINEAPPLE.replace(name="P4", max_players=4)
    fourteen = "2c 5d Ts 7h 8h 9h 9c Jd Qd Kd Ad 2h 3h 4h"
    cases = [
        (lambda: make_observation(p4, "- / - / -", "2c 5d Ts 7h 8h", empty), 4 * 17, ""),
        (
            lambda: make_observation(
                rules.OFC, "- / - / -", fourteen, empty, fantasyland=14
            ),
            14 + 3 * 13,
            " with Fantasyland (14, 0, 0, 0)",
        ),
    ]
    for call, cards, fl in cases:
        with pytest.raises(
            SearchError,
            match=rf"seats of \w+{re.escape(fl)} need {cards} cards; one deck has 52$",
        ):
            call()
    make_observation(rules.OFC, "- / - / -", fourteen, empty[:2], fantasyland=14)  # 40


def test_a_0_d_masked_array_is_no_int() -> None:
    """A 0-d masked array (``np.ma.array(1, mask=True)``) reached ``int()`` through
    the 0-d array reading and raised NumPy's ``MaskError``: it is refused as no int,
    with the error of the parameter."""
    from ofc_fast import RulesError
    from ofc_fast.table import check_seat

    masked = np.ma.array(1, mask=True)
    with pytest.raises(TableError):
        check_seat(masked, 2)
    with pytest.raises(RulesError):
        rules.PINEAPPLE.replace(sweep_bonus=np.ma.array(3, mask=True))


def test_a_parallel_run_of_more_hands_than_64_bit_deal_indices_is_refused() -> None:
    """Regression: ``RunSpec.make("pineapple", 2, 1, 2**70, bots)`` was taken, and
    ``play_parallel`` of it never started (it listed 2**70 / 50 chunks); a count past
    the 2**64 deals a run can index is now GameError naming it."""
    from ofc_fast.parallel import RunSpec

    bots = [("random", {})]
    for hands in (2**70, 2**64 + 1):
        with pytest.raises(
            ofc.GameError, match=r"hands: must be at most 18446744073709551616, got"
        ):
            RunSpec.make("pineapple", 2, 1, hands, bots)
    assert RunSpec.make("pineapple", 2, 1, 2**64, bots).hands == 2**64  # the last: 2**64-1
    assert RunSpec.make("pineapple", 2, 1, np.uint64(2**63), bots).hands == 2**63


def test_a_deal_without_fantasyland_reads_no_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: making a ``Game`` (once a deal: the reinforcement-learning loop,
    ``Match``) took an eighth more instructions than before the table checks were
    one (48,750 against 40,550 a 3-seat Pineapple game), most of it checking the
    Fantasyland counts of a deal nobody gave any for (the type and range of each
    zero).  With ``fantasyland=None`` nothing is read but the deck's size; the
    counts given are checked as before."""
    import ofc_fast.table as table

    class Unread(frozenset[int]):
        def issuperset(self, _counts: object) -> bool:
            raise AssertionError("the Fantasyland counts were read")

    monkeypatch.setattr(table, "per_seat", Unread().issuperset)
    monkeypatch.setattr(table, "_FANTASYLAND_COUNTS", Unread())
    assert table.check_fantasyland(None, 3, rules.PINEAPPLE) == (0, 0, 0)
    assert Game(rules.PINEAPPLE, 3, seed=1).fantasyland == (0, 0, 0)
    with pytest.raises(TableError, match=r"^players: 4 seats of PINEAPPLE need 68 cards"):
        table.check_fantasyland(None, 4, rules.PINEAPPLE)
    monkeypatch.undo()
    with pytest.raises(TableError, match=r"seat 1: Fantasyland cards must be 0 or"):
        table.check_fantasyland((0, 12), 2, rules.OFC)


@pytest.mark.parametrize("players", [-1, 0, 1, 2**70, "2", None], ids=repr)
def test_a_deal_without_fantasyland_still_checks_its_seats(players: Any) -> None:
    """Regression: once a deal given no Fantasyland counts stopped reading them,
    ``check_fantasyland(None, -1, rules.OFC)`` returned ``()`` (it raised TableError
    before), and ``2**70`` seats raised OverflowError; the seats are checked as
    :func:`~ofc_fast.table.check_players` checks them."""
    from ofc_fast.table import check_fantasyland

    with pytest.raises(TableError, match=r"players"):
        check_fantasyland(None, players, rules.OFC)
    assert check_fantasyland(None, 3, rules.OFC) == (0, 0, 0)


@pytest.mark.parametrize(
    "chips",
    [float("nan"), float("inf"), True, np.float64(1.0), 5, [float("nan")], [True]],
    ids=repr,
)
def test_check_match_stacks_names_chips_that_are_not_counts(chips: Any) -> None:
    """Regression: ``table.check_match_stacks(nan)`` (inf, a bool, a NumPy float) raised
    a bare TypeError ('float' object is not iterable), and a list of them passed; a
    TableError now names the stacks."""
    from ofc_fast.table import check_match_stacks

    with pytest.raises(TableError, match=r"^--stacks: "):
        check_match_stacks(chips, "--stacks")
    check_match_stacks([np.int64(3), 4])  # NumPy's ints are counts


_NO_SEAT_COUNTS = [None, "2", 2.0, True, -1, 257, 10**12, 2**70, np.zeros(2), [2], object()]


@pytest.mark.parametrize("players", _NO_SEAT_COUNTS, ids=repr)
def test_a_table_check_given_no_seat_count_names_players(players: Any) -> None:
    """Regression: ofc_fast.table's checks read their ``players`` argument unchecked:
    ``check_stacks(5, 10**12)`` raised MemoryError (a tuple of 10**12 stacks; 2**70
    an OverflowError), ``check_seat(0, "2")`` a TypeError, an array players NumPy's
    ValueError, and ``check_stacks([5, 5], True)`` or ``check_seat(0, 2.0)`` passed.
    Each refuses anything but a seat count (an int 0..256) with a TableError naming
    players; a check of a good count still answers."""
    calls = {
        "check_seat": lambda: table.check_seat(0, players),
        "check_stacks": lambda: table.check_stacks(5, players),
        "check_stacks list": lambda: table.check_stacks([5, 5], players),
        "check_fantasyland": lambda: table.check_fantasyland([0, 0], players, "OFC"),
        "check_bots": lambda: table.check_bots([], players),
    }
    for name, call in calls.items():
        with pytest.raises(TableError, match=r"^players: a seat count") as info:
            call()
        assert len(str(info.value)) < 200, name
    assert table.check_seat(np.int64(1), np.int8(2)) == 1
    assert table.check_stacks(5, np.int64(3)) == (5, 5, 5)
    assert table.check_stacks([5, 6, 7], 2, at_least=np.True_) == (5, 6, 7)


@pytest.mark.parametrize("at_least", [np.zeros(2), "yes", 1, None])
def test_check_stacks_at_least_must_be_a_flag(at_least: Any) -> None:
    """Regression: ``check_stacks(stacks, 2, at_least=np.zeros(2))`` raised NumPy's
    ValueError (an array's truth value) and ``at_least="yes"`` read as True: a flag
    that is not True or False is a TableError naming at_least."""
    with pytest.raises(TableError, match="at_least must be True or False"):
        table.check_stacks([5, 5], 2, at_least=at_least)
