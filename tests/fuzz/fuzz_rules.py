"""Fuzz rule-set input: RuleSet.from_json on any text, RuleSet.from_dict on arbitrary
objects and on presets with one field replaced by an arbitrary value.

Contract: only OfcError (RulesError); an accepted rule set round-trips through JSON,
compiles for C and scores a fixed pair (so nothing it lets through breaks C).
"""

from __future__ import annotations

import json

import atheris
from _common import any_object, main, mutate, ours

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.rules import RuleSet

PRESETS = list(rules.PRESETS.values())
A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"


def check(r: RuleSet) -> None:
    assert RuleSet.from_json(r.to_json()) == r
    s = ofc.score_pair(A, B, r)
    assert ofc.score_pair(B, A, r).net == -s.net
    ofc.Board.parse(A).evaluate(r)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 3)
    if mode == 0:
        ok, r = ours(RuleSet.from_json, fdp.ConsumeUnicodeNoSurrogates(200))
    elif mode == 1:
        ok, r = ours(RuleSet.from_dict, any_object(fdp))
    elif mode == 2:
        d = fdp.PickValueInList(PRESETS).to_dict()
        for _ in range(fdp.ConsumeIntInRange(1, 3)):
            mutate(d, fdp)
        ok, r = ours(RuleSet.from_dict, d)
    else:
        d = fdp.PickValueInList(PRESETS).to_dict()
        mutate(d, fdp)
        try:
            text = json.dumps(d)
        except (TypeError, ValueError, RecursionError):  # not JSON-able: not a rule file
            return
        ok, r = ours(RuleSet.from_json, text)
    if ok:
        check(r)


if __name__ == "__main__":
    main(test_one_input)
