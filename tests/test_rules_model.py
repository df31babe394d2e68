"""The RuleSet model: plain-JSON round trips for every preset and for
random valid rule sets; unknown keys, wrong types and impossible values raise
RulesError naming the dotted key; replace() validates like construction.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ofc_fast
from ofc_fast import HandCategory, RulesError, rules, score_pair, settle
from ofc_fast.rules import (
    NATURAL_NAMES,
    Fantasyland,
    Lowball,
    Natural,
    Pool,
    RuleSet,
    Schedule,
)
from ofc_fast.rules.compiled import table_rules

PRESETS = [rules.get(n) for n in rules.names()]
PLAIN_TYPES = (dict, list, str, int, bool, type(None))


def _is_plain(value) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_is_plain(v) for v in value)
    return type(value) in PLAIN_TYPES


# ------------------------------------------------------------------- round trips


@pytest.mark.parametrize("preset", PRESETS, ids=lambda r: r.name)
def test_preset_round_trip(preset: RuleSet) -> None:
    d = preset.to_dict()
    assert _is_plain(d)  # plain JSON data: no enums, no tuples
    assert json.loads(json.dumps(d)) == d
    back = RuleSet.from_dict(d)
    assert back == preset and hash(back) == hash(preset)
    assert back.to_dict() == d
    assert RuleSet.from_json(preset.to_json()) == preset
    assert RuleSet.from_json(preset.to_json(indent=2, sort_keys=True)) == preset
    # A rebuilt rule set scores exactly like the preset.
    a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
    assert score_pair(a, b, back) == score_pair(a, b, preset)


@pytest.mark.parametrize(
    "value", [[1, 2], {"a": 1}, 2.5, "sometimes", "__array__"], ids=repr
)
def test_a_choice_field_refuses_any_other_value(value: object) -> None:
    with pytest.raises(RulesError, match=r"fantasyland\.stay_cards"):
        RuleSet.from_dict({"fantasyland": {"stay_cards": value}})


def test_a_choice_field_refuses_an_array() -> None:
    # found by tests/fuzz/fuzz_rules.py: `array in choices` compared element-wise
    np = pytest.importorskip("numpy", reason="pip install numpy (a dependency of ofc-fast)")
    for value in (np.array(["same", "entry"]), np.array([1, 2]), np.array([])):
        with pytest.raises(RulesError, match=r"fantasyland\.stay_cards"):
            RuleSet.from_dict({"fantasyland": {"stay_cards": value}})
    same = RuleSet.from_dict({"fantasyland": {"stay_cards": np.str_("same")}})
    assert same.fantasyland.stay_cards == "same"


def test_missing_keys_take_defaults() -> None:
    assert RuleSet.from_dict({}) == RuleSet()
    r = RuleSet.from_dict({"name": "t", "fantasyland": {"stay_cards": "same"}})
    assert r.fantasyland == Fantasyland(stay_cards="same")
    assert r.sweep_bonus == RuleSet().sweep_bonus


thresholds = st.sampled_from(
    [c * 2 for c in "23456789TJQKA"] + [c * 3 for c in "23456789TJQKA"] + ["1010"]
)
ints = st.integers(0, 20)  # (bonuses and royalties are never negative)


@st.composite
def rule_dicts(draw):
    """Random valid rule sets as plain dicts."""
    d: dict = {
        "name": draw(st.text(max_size=12)),
        "description": draw(st.text(max_size=30)),
        "game": draw(st.sampled_from(["classic", "ofc", "pineapple"])),
        "max_players": draw(st.integers(2, 4)),
        "face_down_final": draw(st.integers(0, 8)),
        "sweep_bonus": draw(ints),
        "majority_bonus": draw(ints),
        "majority_rule": draw(st.sampled_from(["two_rows", "more_rows"])),
        "overall_bonus": draw(ints),
        "sweep_multiplier": draw(st.integers(1, 5)),
        "sweep_all_multiplier": draw(st.integers(1, 5)),
        "sweep_all_bonus": draw(ints),
        "royalties": {
            "front_pair": draw(st.lists(ints, min_size=13, max_size=13)),
            "front_trips": draw(st.lists(ints, min_size=13, max_size=13)),
            "middle": draw(st.lists(ints, min_size=10, max_size=10)),
            "back": draw(st.lists(ints, min_size=10, max_size=10)),
        },
        "win_bonus": {
            "front_pair": draw(st.lists(st.integers(-1, 9), min_size=13, max_size=13)),
            "middle": draw(st.lists(st.integers(-1, 9), min_size=10, max_size=10)),
        },
        "order": draw(st.sampled_from(["nonstrict", "strict"])),
        "foul_pays_sweep": draw(st.booleans()),
        "surrender_cost": draw(st.one_of(st.none(), st.integers(0, 1000))),
        "aces_bet": draw(
            st.one_of(st.none(), st.lists(st.integers(0, 10), min_size=5, max_size=5))
        ),
        "naturals": [
            {"name": n, "units": draw(st.integers(0, 1000))}
            for n in draw(st.lists(st.sampled_from(NATURAL_NAMES), unique=True, max_size=6))
        ],
        "naturals_rule": draw(
            st.sampled_from(["higher_full", "higher_full_equal_cancel", "difference"])
        ),
        "stakes": draw(st.sampled_from(["win_cap", "chips"])),
        "settlement_start": draw(st.sampled_from(["left_of_button", "button"])),
    }
    mode = draw(st.sampled_from(["pairs", "house", "pool", "single"]))
    if mode == "house":
        d["house"] = True
    elif mode == "pool":
        d["pool"] = {
            "ante": draw(st.integers(1, 1000)),
            "sweep_extra": draw(st.integers(0, 1000)),
        }
    elif mode == "single":
        d["single_winner"] = draw(st.integers(1, 1000))
    if d["game"] != "classic" and draw(st.booleans()):
        d["royalties"]["middle"] = [0] * 10  # (a 2-7 middle pays lowball's own)
        d["lowball"] = {
            "limit": draw(st.integers(5, 12)),
            "royalties": draw(st.lists(ints, min_size=13, max_size=13)),
            "nuts": draw(ints),
        }
    if d["game"] != "classic" and draw(st.booleans()):
        fl: dict = {
            "entry": [  # each threshold once ("1010" is "TT")
                [t, draw(st.integers(13, 17))]
                for t in draw(
                    st.lists(
                        thresholds,
                        min_size=1,
                        max_size=4,
                        unique_by=lambda t: t.replace("10", "T"),
                    )
                )
            ],
            "lowball_entry": draw(st.sampled_from([0, 13, 14, 15, 16, 17])),
            "lowball_both": draw(st.sampled_from([0, 13, 14, 15, 16, 17])),
            "stay_front": draw(st.one_of(st.none(), thresholds)),
            "stay_middle": draw(st.one_of(st.none(), st.integers(0, 9))),
            "stay_back": draw(st.one_of(st.none(), st.integers(0, 9))),
            "stay_cards": draw(
                st.one_of(st.integers(13, 17), st.sampled_from(["entry", "same"]))
            ),
            "button_frozen": draw(st.booleans()),
        }
        d["fantasyland"] = fl
    # face down: at most the rounds the game deals after the first five cards
    d["face_down_final"] = min(
        d["face_down_final"], {"classic": 0, "ofc": 8, "pineapple": 4}[d["game"]]
    )
    # some keys left out: they take their defaults
    for key in draw(st.lists(st.sampled_from(sorted(d)), max_size=4)):
        d.pop(key, None)
    if "lowball" in d and isinstance(d.get("fantasyland"), dict):
        d["fantasyland"]["stay_middle"] = None  # (a 2-7 middle stays on no category)
    if "lowball" not in d and isinstance(d.get("fantasyland"), dict):
        d["fantasyland"]["lowball_entry"] = 0  # a 7-5-4-3-2 entry needs a 2-7 middle
        d["fantasyland"]["lowball_both"] = 0
    if isinstance(d.get("fantasyland"), dict) and not d["fantasyland"]["lowball_entry"]:
        d["fantasyland"]["lowball_both"] = 0  # "both" needs the 7-5-4-3-2 entry
    return d


@settings(max_examples=150, deadline=None)
@given(rule_dicts())
def test_random_rule_sets_round_trip(d: dict) -> None:
    r = RuleSet.from_dict(d)
    out = r.to_dict()
    assert _is_plain(out)
    assert RuleSet.from_dict(out) == r
    assert RuleSet.from_json(r.to_json()) == r
    assert json.loads(r.to_json()) == out
    # Every key given comes back with the same plain value.
    for key, value in d.items():
        if key in ("royalties", "win_bonus", "fantasyland", "pool", "lowball"):
            if value is not None:
                for k, v in value.items():
                    if k in ("stay_middle", "stay_back") and v is not None:
                        v = HandCategory(v).name  # categories are written by name
                    if k == "entry":  # as the presets write them: weakest first
                        v = sorted(
                            ([t.replace("10", "T"), n] for t, n in v),
                            key=lambda e: (len(e[0]), "23456789TJQKA".index(e[0][0])),
                        )
                    if k == "stay_front" and v is not None:
                        v = v.replace("10", "T")
                    assert out[key][k] == v, (key, k)
        else:
            assert out[key] == value, key
    # The rule set compiles and scores.
    a = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
    b = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
    s = score_pair(a, b, r)
    assert s.net == -score_pair(b, a, r).net
    # ... and settles, with and without table stakes: a rule set that validates has
    # table rules C accepts (no combination fails at settle time).
    assert table_rules(r).max_players == r.max_players
    for stacks in (None, [5, 7]):
        assert sum(settle([a, b], r, stacks=stacks).net) == 0


def test_replace_round_trip_and_identity() -> None:
    custom = rules.OFC.replace(
        name="home",
        overall_bonus=1,
        order="strict",
        fantasyland={"entry": [["KK", 15]], "stay_cards": "entry"},
    )
    assert custom.fantasyland == Fantasyland(entry=(("KK", 15),), stay_cards="entry")
    assert RuleSet.from_dict(custom.to_dict()) == custom
    assert rules.OFC.replace() == rules.OFC


# ------------------------------------------------------------------ bad rule data


def _with(path: list, value):
    d = json.loads(rules.PINEAPPLE_27.to_json())
    cur = d
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return d


BAD = [
    # unknown keys, at every level
    (["colour"], 1, r"unknown rule key\(s\): colour"),
    (["fantasyland", "stay_card"], 14, r"fantasyland\.stay_card\b"),
    (["royalties", "top"], [1], r"royalties\.top"),
    (["lowball", "limits"], 8, r"lowball\.limits"),
    (
        ["naturals"],
        [{"name": "dragon", "units": 13, "colour": 1}],
        r"naturals\[0\]\.colour",
    ),
    # wrong types
    (["sweep_bonus"], "3", r"^sweep_bonus: expected an int"),
    (["sweep_bonus"], 3.0, r"^sweep_bonus: expected an int"),
    (["sweep_bonus"], True, r"^sweep_bonus: expected an int"),
    (["foul_pays_sweep"], 1, r"^foul_pays_sweep: expected true or false"),
    (["name"], None, r"^name: expected a string"),
    (["royalties"], [1, 2], r"^royalties: expected a dict"),
    (["royalties", "back"], "0000000000", r"^royalties\.back: expected a list"),
    (["royalties", "back", 4], "2", r"^royalties\.back\[4\]: expected an int"),
    (["fantasyland", "stay_cards"], "all", r"^fantasyland\.stay_cards: expected"),
    (["fantasyland", "stay_cards"], 14.0, r"^fantasyland\.stay_cards"),
    (
        ["fantasyland", "entry", 0, 1],
        "14",
        r"^fantasyland\.entry\[0\]\[1\]: expected an int",
    ),
    (["fantasyland", "entry", 0], ["KK"], r"^fantasyland\.entry\[0\]: expected 2 values"),
    (["fantasyland", "stay_back"], "QUADZ", r"^fantasyland\.stay_back"),
    (["lowball", "nuts"], "yes", r"^lowball\.nuts: expected an int"),
    (["game"], "holdem", r"^game: 'holdem' is not one of"),
    (["order"], "weak", r"^order: 'weak' is not one of"),
    (["stakes"], "cap", r"^stakes: 'cap' is not one of"),
    (["naturals"], {"name": "dragon"}, r"^naturals: expected a list"),
    (["aces_bet"], [0, 1, 2, 6, "8"], r"^aces_bet\[4\]: expected an int"),
    # impossible values
    (["max_players"], 5, r"^max_players: 5 is outside 2\.\.4"),
    (["sweep_multiplier"], 0, r"^sweep_multiplier: 0 is outside"),
    (["royalties", "back"], [0] * 9, r"^royalties\.back: expected 10 values, got 9"),
    (
        ["royalties", "front_pair", 0],
        5000,
        r"^royalties\.front_pair\[0\]: 5000 is outside 0\.\.1000$",
    ),
    (["win_bonus", "back", 0], -2, r"^win_bonus"),
    (
        ["fantasyland", "stay_cards"],
        18,
        r"^fantasyland\.stay_cards: 18 is outside 13\.\.17",
    ),
    (
        ["fantasyland", "stay_cards"],
        12,
        r"^fantasyland\.stay_cards: 12 is outside 13\.\.17",
    ),
    (["fantasyland", "entry"], [["QQ", 18]], r"^fantasyland\.entry\[0\]: cards must be"),
    (["fantasyland", "entry"], [["QK", 14]], r"^fantasyland\.entry\[0\]: 'QK' is not a"),
    (
        ["fantasyland"],
        {"entry": [], "lowball_entry": 0},
        r"^fantasyland\.entry: no way to enter",
    ),
    (["fantasyland", "stay_front"], "Q", r"^fantasyland\.stay_front: 'Q' is not a"),
    (["fantasyland", "stay_middle"], 10, r"^fantasyland\.stay_middle"),
    (["fantasyland", "lowball_entry"], 12, r"^fantasyland\.lowball_entry"),
    (["fantasyland", "lowball_both"], 20, r"^fantasyland\.lowball_both"),
    (["lowball", "limit"], 13, r"^lowball\.limit: 13 is outside"),
    (["lowball", "royalties"], [0] * 12, r"^lowball\.royalties: expected 13 values"),
    (["aces_bet"], [0, 1, 2, 6], r"^aces_bet: expected 5 values"),
    (["surrender_cost"], -1, r"^surrender_cost"),
    (["single_winner"], -3, r"^single_winner: -3 is outside"),
    (["pool"], {"ante": 0}, r"^pool\.ante: 0 is outside"),
    (
        ["naturals"],
        [{"name": "dragon", "units": 13}, {"name": "dragon", "units": 26}],
        r"^naturals: a natural is listed twice",
    ),
    (["naturals"], [{"name": "pictures", "units": 3}], r"^naturals\[0\]\.name: unknown"),
    (["naturals"], [{"name": "dragon", "units": -13}], r"^naturals\[0\]\.units: -13"),
    (["game"], "classic", r"^lowball: a 2-7 middle is an OFC"),
]


@pytest.mark.parametrize(
    "path, value, message",
    BAD,
    ids=[".".join(map(str, p)) + "=" + repr(v)[:20] for p, v, _ in BAD],
)
def test_bad_rule_dicts_name_the_key(path: list, value, message: str) -> None:
    d = _with(path, value)
    with pytest.raises(RulesError, match=message):
        RuleSet.from_dict(d)
    with pytest.raises(RulesError, match=message):
        RuleSet.from_json(json.dumps(d))


@pytest.mark.parametrize("field, most", [("name", 64), ("description", 1000)])
@pytest.mark.parametrize("how", ["RuleSet", "replace", "from_dict", "from_json"])
def test_rule_set_name_and_description_are_bounded(field: str, most: int, how: str) -> None:
    """A 10 MB name was accepted and echoed in every message: ``name`` holds at most
    64 characters and ``description`` 1000, however the rule set is made, and the
    error names the field without echoing the text."""
    assert len(getattr(RuleSet(**{field: "y" * most}), field)) == most
    bad = {field: "x" * 10_000_000 if how != "replace" else "y" * (most + 1)}
    make = {
        "RuleSet": lambda: RuleSet(**bad),
        "replace": lambda: rules.OFC.replace(**bad),
        "from_dict": lambda: RuleSet.from_dict(bad),
        "from_json": lambda: RuleSet.from_json(json.dumps(bad)),
    }[how]
    with pytest.raises(RulesError, match=rf"^{field}: at most {most} ") as e:
        make()
    assert len(str(e.value)) < 100


@pytest.mark.parametrize(
    "make",
    [
        lambda keys: RuleSet.from_dict(dict.fromkeys(keys, 1)),
        lambda keys: RuleSet.from_dict({"pool": dict.fromkeys(keys, 1)}),
        lambda keys: rules.OFC.replace(**dict.fromkeys(keys, 1)),
    ],
    ids=["from_dict", "nested", "replace"],
)
def test_unknown_keys_are_not_echoed_whole(make: Any) -> None:
    """A 10 MB unknown key, or a million of them, was echoed whole in the message: each
    key is cut short and at most five are listed (README: a message quotes at most a
    short prefix of the input)."""
    with pytest.raises(RulesError, match=r"unknown rule (key|field)\(s\): ") as e:
        make(["x" * 10_000_000])
    assert len(str(e.value)) < 500
    with pytest.raises(RulesError, match=r"k000000, .*k000004 and 999995 more") as e:
        make([f"k{i:06}" for i in range(1_000_000)])
    assert len(str(e.value)) < 500


@pytest.mark.parametrize(
    "path, item",
    [
        (["naturals"], {"name": "dragon"}),
        (["fantasyland", "entry"], ["QQ", 14]),
        (["aces_bet"], 0),
        (["royalties", "front_pair"], 0),
        (["lowball", "royalties"], 0),
    ],
)
def test_a_huge_list_is_refused_before_its_items_are_read(path: list, item: Any) -> None:
    """A rules dict with a list of a million items (naturals, Fantasyland entries...)
    took seconds of CPU to read item by item before its length was refused: any list
    longer than 64 (the longest a rule set uses is 18 naturals) is refused at once."""
    read: list[int] = []

    class Watched(list):  # type: ignore[type-arg]
        """A list that counts the items read from it."""

        def __iter__(self) -> Any:
            for i, x in enumerate(super().__iter__()):
                read.append(i)
                yield x

        def __getitem__(self, i: Any) -> Any:
            read.append(-1)
            return super().__getitem__(i)

    d = _with(path, Watched([item] * 1_000_000))
    with pytest.raises(RulesError, match=rf"^{'.'.join(path)}: at most 64 values"):
        RuleSet.from_dict(d)
    assert len(read) <= 64, f"{len(read)} items read before the length was refused"


def test_classic_rules_refuse_fantasyland() -> None:
    """A classic rule set with Fantasyland was accepted, then ignored by every game
    while fantasyland_cards still granted 14 cards: it is a RulesError, as a 2-7
    middle on a classic table is."""
    with pytest.raises(RulesError, match=r"^fantasyland: classic Chinese Poker has no"):
        rules.CLASSIC_1_6.replace(fantasyland=Fantasyland())
    with pytest.raises(RulesError, match=r"^fantasyland: classic"):
        RuleSet.from_dict({"game": "classic", "fantasyland": {"entry": [["QQ", 14]]}})
    assert rules.CLASSIC_1_6.replace(game="ofc", fantasyland=Fantasyland()).fantasyland


def test_cross_field_conflicts() -> None:
    with pytest.raises(RulesError, match="pool"):
        RuleSet.from_dict({"pool": {"ante": 1}, "house": True})
    with pytest.raises(RulesError, match="pool"):
        RuleSet.from_dict({"pool": {"ante": 1}, "single_winner": 2})
    with pytest.raises(RulesError, match="house"):
        RuleSet.from_dict({"house": True, "single_winner": 2})


def test_not_a_dict_or_not_json() -> None:
    with pytest.raises(RulesError, match="expected a dict"):
        RuleSet.from_dict([("name", "x")])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="rules JSON"):
        RuleSet.from_json("{name: 1}")
    with pytest.raises(RulesError, match="expected a dict"):
        RuleSet.from_json("[1, 2]")


def test_rules_json_text_with_a_byte_order_mark_is_read() -> None:
    """``from_json`` read a byte-order mark in bytes (``json.loads`` drops it there)
    but refused the same file read as text ("Unexpected UTF-8 BOM")."""
    text = '{"name": "home", "sweep_bonus": 5}'
    want = RuleSet.from_dict(json.loads(text))
    assert RuleSet.from_json("\ufeff" + text) == want
    assert RuleSet.from_json(("\ufeff" + text).encode("utf-8")) == want
    with pytest.raises(RulesError, match="rules JSON"):  # one mark only, at the start
        RuleSet.from_json("\ufeff\ufeff" + text)


def test_rules_json_refuses_a_repeated_key() -> None:
    """A key given twice in a rules file was read silently as its last value (the
    first one, what the author may have meant, was dropped without a word)."""
    with pytest.raises(RulesError, match=r"sweep_bonus.*twice"):
        RuleSet.from_json('{"sweep_bonus": 3, "name": "x", "sweep_bonus": 5}')
    with pytest.raises(RulesError, match=r"ante.*twice"):
        RuleSet.from_json('{"pool": {"ante": 1, "ante": 2}}')
    assert RuleSet.from_json('{"sweep_bonus": 5}').sweep_bonus == 5


@pytest.mark.parametrize("field", ["name", "description"])
def test_a_rule_text_that_is_not_unicode_is_refused(field: str) -> None:
    r"""A rules file whose ``name`` held a lone surrogate (JSON ``"\ud800"`` text) was
    accepted, then ``ofc-fast play --rules`` crashed printing the name with a
    UnicodeEncodeError traceback: the reader refuses it, naming the field, also where
    an observation carries its rule set (the service's way in)."""
    data = rules.PINEAPPLE.to_dict()
    data[field] = "ok \ud800"
    text = '{"' + field + '": "ok \\ud800"}'
    assert isinstance(json.loads(text)[field], str)  # JSON itself reads it
    message = rf"^{field}: not valid Unicode"
    with pytest.raises(RulesError, match=message):
        RuleSet.from_json(text)
    with pytest.raises(RulesError, match=message):
        RuleSet.from_dict(data)
    with pytest.raises(RulesError, match=rf"{field}: not valid Unicode"):
        rules.observation_rules({"rules": "custom", "rule_set": data})
    with pytest.raises(RulesError, match=r"^fantasyland\.stay_front: not valid Unicode"):
        RuleSet.from_json('{"fantasyland": {"stay_front": "\\udc00"}}')


_PICKLE_AND_HASH = """
import pickle, sys
from ofc_fast import rules
table = rules.OFC.replace(name="home", sweep_bonus=4)
if sys.argv[1] == "dump":
    hash(table), hash(rules.OFC)  # the hashes cached before pickling
    sys.stdout.buffer.write(pickle.dumps((table, rules.OFC)))
else:
    got, ofc = pickle.loads(sys.stdin.buffer.read())
    print(got == table, hash(got) == hash(table), hash(ofc) == hash(rules.OFC),
          len({got, table}), ofc in {rules.OFC: 1})
"""


def test_a_pickled_rule_set_hashes_as_an_equal_one_in_another_process() -> None:
    """A rule set caches its hash (hash_once); pickled, the cache travelled along, so in
    a process with another string-hash seed (a spawn / forkserver worker) the copy was
    equal to a fresh rule set but hashed differently: two "equal" keys in a set, a
    preset missing from a dict keyed by it."""
    root = Path(ofc_fast.__file__).resolve().parents[1]  # the package under test
    env = {**os.environ, "PYTHONPATH": str(root)}
    dump = subprocess.run(
        [sys.executable, "-c", _PICKLE_AND_HASH, "dump"],
        env={**env, "PYTHONHASHSEED": "1"},
        capture_output=True,
        check=True,
        timeout=120,
    )
    load = subprocess.run(
        [sys.executable, "-c", _PICKLE_AND_HASH, "load"],
        env={**env, "PYTHONHASHSEED": "2"},
        input=dump.stdout,
        capture_output=True,
        check=True,
        timeout=120,
    )
    assert load.stdout.split() == [b"True", b"True", b"True", b"1", b"True"]


def test_schedule_by_category_bad_input_is_a_rules_error() -> None:
    """Schedule.by_category({99: 1}) was a bare ValueError from HandCategory, a text
    argument an AttributeError; a category name reads as in a rules file."""
    for bad in ({99: 1}, {"FLUSHES": 2}, {None: 2}, "x", [(5, 2)]):
        with pytest.raises(RulesError, match="by_category"):
            Schedule.by_category(bad)  # type: ignore[arg-type]
    assert Schedule.by_category({"flush": 4, HandCategory.STRAIGHT: 2})[4:6] == (2, 4)


def test_an_unknown_key_that_does_not_print_is_shown_escaped() -> None:
    """An unknown key holding a newline or a terminal escape was echoed as it is:
    ``ofc-fast arena --rules bad.json`` printed an error of two lines, the second in
    the colour the key's escape chose."""
    for data, shown in (
        ({"evil\n\x1b[31mRED": 1}, r"'evil\n\x1b[31mRED'"),
        ({"royalties": {"x\ny": 1}}, r"royalties.'x\ny'"),
        ({"\ud800": 1}, r"'\ud800'"),
    ):
        with pytest.raises(RulesError) as info:
            RuleSet.from_dict(data)
        assert str(info.value) == f"unknown rule key(s): {shown}"
        assert str(info.value).isprintable()


def test_a_fantasyland_threshold_listed_twice_is_refused() -> None:
    """``"entry": [["QQ", 14], ["QQ", 15]]`` (or ``"qq"``) was taken: two card counts
    for one front, and the deal silently gave the larger whatever the order."""
    for entry, i, j, text in (
        ([["QQ", 14], ["QQ", 15]], 1, 0, "QQ"),
        ([["QQ", 15], ["qq", 14]], 1, 0, "qq"),
        ([["KK", 14], ["222", 17], ["QQ", 15], [" kk ", 16]], 3, 0, " kk "),
    ):
        with pytest.raises(RulesError) as info:
            RuleSet.from_dict({"fantasyland": {"entry": entry}})
        assert str(info.value) == (
            f"fantasyland.entry[{i}]: {text!r} repeats the threshold of entry[{j}]: "
            "one card count per threshold"
        )
    ok = RuleSet.from_dict({"fantasyland": {"entry": [["QQ", 14], ["KK", 15]]}})
    assert ok.fantasyland is not None and len(ok.fantasyland.entry) == 2


def test_a_fantasyland_threshold_is_kept_in_one_spelling() -> None:
    """A rules file that spelled a threshold otherwise (``"qq"``, ``" 222"``,
    ``"1010"``), or listed the entries in another order, played the same Fantasyland
    but made a rule set equal to no other: the PINEAPPLE rules with ``"qq"`` were
    "PINEAPPLE with fantasyland changed", hashed apart from the preset, and ``arena
    --rules`` refused them ("are not a preset").  The entries are kept as the
    presets write them: each threshold in one spelling, the weakest first."""
    from ofc_fast.arena import game_id_of

    data = rules.PINEAPPLE.to_dict()
    data["fantasyland"]["entry"] = [["qq", 14]]
    data["fantasyland"]["stay_front"] = " 222 "
    table = RuleSet.from_json(json.dumps(data))
    assert table == rules.PINEAPPLE and hash(table) == hash(rules.PINEAPPLE)
    assert repr(table) == "rules.PINEAPPLE" and game_id_of(table) == "ofc-pineapple"
    fl = Fantasyland(entry=(("aaa", 17), ("1010", 14), ("kk", 15)), stay_front="101010")
    assert fl.entry == (("TT", 14), ("KK", 15), ("AAA", 17)) and fl.stay_front == "TTT"
    assert fl.to_dict()["entry"] == [["TT", 14], ["KK", 15], ["AAA", 17]]
    data = rules.PROGRESSIVE_PINEAPPLE.to_dict()  # the best threshold met counts,
    data["fantasyland"]["entry"].reverse()  # whatever the order: one rule set
    table = RuleSet.from_dict(data)
    assert table == rules.PROGRESSIVE_PINEAPPLE and game_id_of(table) == "ofc-progressive"


@pytest.mark.parametrize("game, most", [("ofc", 8), ("pineapple", 4), ("classic", 0)])
def test_face_down_final_is_at_most_the_rounds_of_the_game(game: str, most: int) -> None:
    """``face_down_final`` took 0..8 in every game: Pineapple deals 4 rounds of three
    after the first five cards (R-FLOW-PIN-2), so 5..8 each hid the same 4 rounds as
    4 (unequal rule sets of one game), and a classic hand (13 cards at once, face
    down, R-FLOW-CP-2) ignored any value.  More rounds than the game deals is refused
    when the rules are made, naming the field."""
    base = RuleSet(game=game)
    assert base.replace(face_down_final=most).face_down_final == most
    for n in range(most + 1, 9):
        for data in ({"face_down_final": n}, {"game": game, "face_down_final": n}):
            with pytest.raises(RulesError) as info:
                if "game" in data:
                    RuleSet.from_dict(data)
                else:
                    base.replace(**data)
            assert str(info.value).startswith("face_down_final: ")
            assert str(info.value).endswith(f"got {n}")


def test_a_natural_listed_twice_is_named() -> None:
    """``"naturals": [...]`` with one natural twice said only "naturals: a natural is
    listed twice", leaving the user to find which among as many as twelve (Malayan):
    the message names the natural and both places."""
    listed = [{"name": n, "units": 3} for n in ("six_pairs", "dragon", "one_suit")]
    with pytest.raises(RulesError) as info:
        RuleSet.from_dict({"game": "classic", "naturals": [*listed, listed[1]]})
    assert str(info.value) == (
        "naturals: a natural is listed twice: naturals[3] 'dragon' repeats naturals[1]"
    )


@pytest.mark.parametrize(
    "field", ["sweep_bonus", "majority_bonus", "overall_bonus", "sweep_all_bonus"]
)
def test_a_negative_bonus_is_refused(field: str) -> None:
    """``sweep_bonus: -5`` was taken, and a fouled board then won 2 units from a clean
    one (3 rows + a sweep of -5 against it): R-FOUL-3, a foul loses everything.  A
    bonus below 0 is refused when the rules are made, naming the field."""
    with pytest.raises(RulesError) as info:
        RuleSet.from_dict({field: -5})
    assert str(info.value) == f"{field}: -5 is outside 0..1000"
    assert getattr(rules.CLASSIC_1_6.replace(**{field: 0}), field) == 0


@pytest.mark.parametrize("row, i", [("front_pair", 12), ("middle", 4), ("back", 9)])
def test_a_negative_royalty_is_refused(row: str, i: int) -> None:
    """A negative royalty was taken: a clean board with that hand paid it to a fouled
    board, which earns none (OFC with a back straight of -10: the fouled board won 4).
    A royalty below 0 is refused (a won-row value of -1 stays: that row pays 0)."""
    values = list(getattr(rules.ROYALTIES_OFC, row))
    values[i] = -1
    with pytest.raises(RulesError) as info:
        rules.OFC.replace(royalties=rules.ROYALTIES_OFC.replace(**{row: values}))
    assert str(info.value) == f"royalties.{row}[{i}]: -1 is outside 0..1000"
    for key in ("nuts", "royalties"):
        data = {"nuts": -1} if key == "nuts" else {"royalties": [-1] * 13}
        named = "nuts" if key == "nuts" else "royalties[0]"
        with pytest.raises(
            RulesError, match=rf"^lowball\.{re.escape(named)}: -1 is outside 0\.\."
        ):
            RuleSet.from_dict({"game": "pineapple", "lowball": data})
    assert rules.CLASSIC_1_6.replace(win_bonus=Schedule(back=(-1,) * 10)).win_bonus


def test_a_2_7_middle_refuses_the_middle_rules_it_never_plays() -> None:
    """Under a 2-7 middle (R-27-5) the engine pays ``lowball.royalties`` and keeps
    Fantasyland on no middle category, but ``PINEAPPLE_27.replace(royalties=
    ROYALTIES_OFC)`` (middle straight 4, flush 8, ...) and a ``stay_middle`` were
    taken and silently never paid nor met: such rules are refused, naming the field."""
    with pytest.raises(RulesError) as info:
        rules.PINEAPPLE_27.replace(royalties=rules.ROYALTIES_OFC)
    assert str(info.value) == (
        "royalties.middle: a 2-7 middle (lowball) pays lowball.royalties and "
        "lowball.nuts; these must be 0, got [0, 0, 0, 2, 4, 8, 12, 20, 30, 50]"
    )
    data = rules.PINEAPPLE_27.to_dict()
    data["fantasyland"]["stay_middle"] = "full_house"
    with pytest.raises(RulesError) as info:
        RuleSet.from_dict(data)
    assert str(info.value).startswith("fantasyland.stay_middle: a 2-7 middle ")
    assert str(info.value).endswith("got FULL_HOUSE")
    front_back = rules.ROYALTIES_OFC.replace(middle=(0,) * 10)  # what is paid
    assert rules.PINEAPPLE_27.replace(royalties=front_back) == rules.PINEAPPLE_27


@pytest.mark.parametrize("name", ["OFC", "PINEAPPLE"])
def test_replace_gives_a_high_middle_a_2_7_one(name: str) -> None:
    """``PINEAPPLE.replace(lowball=Lowball())``, the way to derive a 2-7 variant,
    was refused once a 2-7 middle refused middle royalties and a ``stay_middle``:
    it kept the preset's (straight 2 ... royal 50; full house).  Giving a high
    middle a 2-7 one clears them, as the rules file of that game says; given in the
    same call, they are still refused."""
    base = rules.get(name)
    low = base.replace(lowball={"nuts": 9})
    data = base.to_dict()  # the same game written out
    data["lowball"] = {"nuts": 9}
    data["royalties"]["middle"] = [0] * 10
    data["fantasyland"]["stay_middle"] = None
    expected = RuleSet.from_dict(data)
    assert low.to_dict() == {
        **expected.to_dict(),
        "name": "custom",
        "description": (f"{name} with royalties, lowball, fantasyland changed"),
    }
    assert base.fantasyland is not None and base.fantasyland.stay_middle is not None
    assert any(base.royalties.middle)
    with pytest.raises(RulesError, match=r"^royalties\.middle: a 2-7 middle"):
        base.replace(lowball={}, royalties=base.royalties)
    with pytest.raises(RulesError, match=r"^fantasyland\.stay_middle: a 2-7 middle"):
        base.replace(lowball={}, fantasyland=base.fantasyland)
    assert low.replace(lowball={"nuts": 8}).lowball.nuts == 8  # (already 2-7)


def test_replace_gives_a_2_7_middle_a_high_one() -> None:
    """``PINEAPPLE_27.replace(lowball=None)``, Pineapple 2-7 with a high middle, was
    refused (``fantasyland.lowball_entry: a 7-5-4-3-2 entry needs a 2-7 middle``),
    while the other way, ``PINEAPPLE.replace(lowball=Lowball())``, clears what the
    new middle refuses.  Taking the 2-7 middle away clears the 7-5-4-3-2 entries too,
    as the rules file of that game says; given in the same call, they are still
    refused."""
    base = rules.PINEAPPLE_27
    high = base.replace(lowball=None)
    data = base.to_dict()  # the same game written out, as a rules file would say it
    data["lowball"] = None
    data["fantasyland"]["lowball_entry"] = 0
    data["fantasyland"]["lowball_both"] = 0
    expected = RuleSet.from_dict(data)
    assert high.to_dict() == {
        **expected.to_dict(),
        "name": "custom",
        "description": "PINEAPPLE_27 with lowball, fantasyland changed",
    }
    assert high.lowball is None and high.fantasyland is not None
    assert high.fantasyland.entry == (("KK", 14),)  # the front's entry stays
    with pytest.raises(RulesError, match=r"^fantasyland\.lowball_entry: a 7-5-4-3-2"):
        base.replace(lowball=None, fantasyland=base.fantasyland)
    # a 2-7 rule set that enters on its 7-5-4-3-2 middle alone has no entry left
    only_low = base.replace(fantasyland=base.fantasyland.replace(entry=(), lowball_both=0))
    with pytest.raises(RulesError, match=r"^fantasyland\.entry: no way to enter"):
        only_low.replace(lowball=None)
    assert high.replace(lowball=None) == high  # (already high)


def test_replace_validates() -> None:
    with pytest.raises(RulesError, match=r"unknown rule field\(s\): sweep"):
        rules.OFC.replace(sweep=3)
    with pytest.raises(RulesError, match=r"^max_players: 7 is outside"):
        rules.OFC.replace(max_players=7)
    with pytest.raises(RulesError, match=r"^fantasyland\.stay_cards: 19"):
        rules.OFC.replace(fantasyland={"stay_cards": 19})
    with pytest.raises(RulesError, match=r"unknown rule key\(s\): fantasyland\.bogus"):
        rules.OFC.replace(fantasyland={"bogus": 1})
    with pytest.raises(RulesError, match=r"^royalties\.middle: expected 10 values"):
        rules.OFC.replace(royalties={"middle": [1, 2, 3]})
    with pytest.raises(RulesError, match="house"):
        rules.CLASSIC_1_6.replace(pool=Pool(), house=True)
    with pytest.raises(RulesError, match="lowball"):
        rules.PINEAPPLE_27.replace(game="classic")
    with pytest.raises(RulesError, match=r"stay_cards: 99 is outside"):
        rules.OFC.fantasyland.replace(stay_cards=99)
    with pytest.raises(RulesError, match="win_bonus"):
        rules.CLASSIC_1_6.replace(win_bonus=Schedule(back=(-2,) + (0,) * 9))
    # valid replacements convert plain values
    r = rules.OFC.replace(order="strict", stakes="chips", aces_bet=[0, 1, 2, 6, 8])
    assert r.aces_bet == (0, 1, 2, 6, 8)
    assert r.order.value == "strict" and r.stakes.value == "chips"


def test_nested_classes_validate_on_construction() -> None:
    with pytest.raises(RulesError, match="name: unknown natural"):
        Natural("dragons", 13)
    with pytest.raises(RulesError, match="limit"):
        Lowball(limit=4)
    with pytest.raises(RulesError, match="front_trips: expected 13 values"):
        Schedule(front_trips=(1, 2))
    with pytest.raises(RulesError, match="ante"):
        Pool(ante=-1)


@pytest.mark.parametrize(
    ("cls", "key"),
    [
        (RuleSet, "sweep_bonsu"),
        (Fantasyland, "stay_card"),
        (Schedule, "fronts"),
        (Natural, "unit"),
        (Lowball, "limt"),
        (Pool, "antes"),
    ],
)
def test_a_constructor_refuses_an_unknown_field_as_replace_does(cls: Any, key: str) -> None:
    """``RuleSet(sweep_bonsu=1)``, ``Fantasyland(stay_card=14)`` raised a TypeError,
    no OfcError, where ``replace`` and a rules file (``{"fantasyland": {"stay_card":
    14}}``) raise a RulesError naming the key; so does too long a list of values."""
    with pytest.raises(RulesError, match=rf"^unknown rule field\(s\): {key}; known: "):
        cls(**{key: 1})
    with pytest.raises(RulesError, match=r"^Pool: at most 2 values, got 3"):
        Pool(1, 0, 5)
    assert Pool(2, 3) == Pool(ante=2, sweep_extra=3)  # (values in field order still do)


# ------------------------------------------------------------ options without effect


def test_mixed_order_was_removed() -> None:
    """R-ORDER-1's third reading, "mixed" ([001]: front < middle <= back), fouls
    exactly the boards "nonstrict" fouls: on the docs/design.md scale a 3-card front never
    equals a 5-card middle (Q-2); the independent reference shows it on random boards.
    So the option was removed (a dead option), and a rule set naming it
    fails with a RulesError that says why."""
    import random

    from reference_scoring import is_foul

    from ofc_fast.rules import OrderRule, RuleSet

    rng = random.Random(1)
    for _ in range(3000):
        board = rng.sample(range(52), 13)
        assert is_foul(board, "mixed") == is_foul(board, "nonstrict")
    assert [o.value for o in OrderRule] == ["nonstrict", "strict"]
    data = {**rules.OFC.to_dict(), "order": "mixed"}
    for attempt in (
        lambda: RuleSet.from_dict(data),
        lambda: rules.OFC.replace(order="mixed"),
        lambda: OrderRule("mixed"),
    ):
        with pytest.raises(RulesError, match=r"'mixed' was removed.*use 'nonstrict'"):
            attempt()
    with pytest.raises(RulesError, match=r"^order: 'mixed' was removed"):
        RuleSet.from_dict(data)


# ---------------------------------------------- values the model lets through (report)


def test_aces_bet_values_are_range_checked() -> None:
    with pytest.raises(RulesError, match="aces_bet"):
        RuleSet.from_dict({"aces_bet": [0, 1, 2, 6, -8]})


def test_lowball_fantasyland_entry_needs_a_lowball_middle() -> None:
    with pytest.raises(RulesError, match="lowball"):
        rules.PINEAPPLE.replace(fantasyland=Fantasyland(entry=(), lowball_entry=14))


def test_lowball_both_needs_the_lowball_entry() -> None:
    """lowball_both (cards for a qualifying front and a 7-5-4-3-2 middle together) was
    accepted with lowball_entry 0 and never applied: under the rule (R-27-6) a board
    K-K-2 / 7-5-4-3-2 / trips is worth 15 cards, and fantasyland_cards gave 14."""
    with pytest.raises(RulesError, match=r"^fantasyland\.lowball_both: .*lowball_entry"):
        RuleSet.from_dict(
            {**rules.PINEAPPLE_27.to_dict(), "fantasyland": {"lowball_both": 15}}
        )
    with pytest.raises(RulesError, match="lowball_entry"):
        Fantasyland(entry=(("KK", 14),), lowball_both=15)
    assert Fantasyland(entry=(("KK", 14),), lowball_entry=14, lowball_both=15)


@pytest.mark.parametrize(
    "path",
    [
        ("surrender_cost",),
        ("fantasyland", "stay_cards"),
        ("fantasyland", "lowball_entry"),
        ("fantasyland", "lowball_both"),
    ],
)
def test_a_huge_int_is_a_rules_error_not_a_crash(path: tuple[str, ...]) -> None:
    """An int too long to print (over Python's 4,300-digit limit) in a field checked
    against a range is named, not formatted: RulesError, never ValueError (found by
    the rules fuzzer)."""
    from ofc_fast.errors import RulesError
    from ofc_fast.rules import PINEAPPLE, RuleSet

    data = PINEAPPLE.to_dict()
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = -(10**5000)
    with pytest.raises(RulesError, match=rf"{path[-1]}: <an int of \d+ bits> is outside"):
        RuleSet.from_dict(data)


def test_to_dict_builds_its_data_once_and_hands_out_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``RuleSet.to_dict`` walked every field again on each call (about 50 us): every
    deal of ``ofc-fast play --history`` (each history holds the rules) and of a game
    of custom rules paid it.  It is made once per rule set now, each call a copy
    that its caller may change, and pickles and copies leave it out."""
    import copy
    import pickle
    from unittest import mock

    from ofc_fast.rules import _fields

    table = rules.OFC.replace(sweep_bonus=7, name="made-once")
    equal = rules.OFC.replace(sweep_bonus=7, name="made-once")  # (its own data)
    want = json.loads(equal.to_json())
    walked = mock.Mock(wraps=_fields._plain)  # each field's value, read into data
    monkeypatch.setattr(_fields, "_plain", walked)
    first = table.to_dict()
    once = walked.call_count
    first["royalties"]["back"][4] = 1000
    first["sweep_bonus"] = 99
    for _ in range(5):
        again = table.to_dict()
        assert again == want and again is not first
        assert again["royalties"] is not first["royalties"]
    assert once > 0 and walked.call_count == once
    for twin in (pickle.loads(pickle.dumps(table)), copy.copy(table), copy.deepcopy(table)):
        assert twin == table and "_plain" not in twin.__dict__
        assert twin.to_dict() == want


def test_play_key_is_made_once_per_rule_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: every ValueBot decision (its model's context, found by the rule
    set's play key) read the rule set's 26 fields into a new tuple, about 3.5 us; the
    key is made once per rule set and kept, and neither pickles nor copies carry it."""
    import copy
    import pickle

    from ofc_fast.rules import _diff, play_key

    table = rules.PINEAPPLE.replace(name="keyed-once")
    calls: list[object] = []
    real = _diff.dataclasses.fields

    def counting(obj: Any) -> Any:
        calls.append(obj)
        return real(obj)

    monkeypatch.setattr(_diff.dataclasses, "fields", counting)
    first = play_key(table)
    assert play_key(table) is first and calls == [table]
    monkeypatch.undo()
    assert first == play_key(rules.PINEAPPLE) != play_key(table.replace(sweep_bonus=9))
    for twin in (pickle.loads(pickle.dumps(table)), copy.copy(table), copy.deepcopy(table)):
        assert "_play_key" not in twin.__dict__ and play_key(twin) == first
