"""Fuzz rule-set input: RuleSet.from_json on any text, RuleSet.from_dict on arbitrary
objects and on presets with one field replaced by an arbitrary value; rule files as
bytes (a preset's JSON, edited, in UTF-8 with or without a byte-order mark, UTF-16,
Latin-1, cut short, or any bytes) to RuleSet.from_json and to ``--rules FILE``
(load_rules).

Contract: only OfcError (RulesError); an accepted rule set round-trips through JSON,
compiles for C and scores a fixed pair (so nothing it lets through breaks C).
"""

from __future__ import annotations

import json
import os
import tempfile

import atheris
from _common import any_object, main, mutate, ours

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.cli.options import load_rules
from ofc_fast.rules import RuleSet

PRESETS = list(rules.PRESETS.values())
A = "Qh Qd 2c / 9s 9h 9d 5c 5d / As Ks Qs Js Ts"
B = "2h 3d 4c / 6s 6h 7d 7c 8d / Ah Ad Kh Kd 8c"
FILE = os.path.join(tempfile.mkdtemp(prefix="fuzz_rules-"), "rules.json")


def check(r: RuleSet) -> None:
    assert RuleSet.from_json(r.to_json()) == r
    s = ofc.score_pair(A, B, r)
    assert ofc.score_pair(B, A, r).net == -s.net
    ofc.Board.parse(A).evaluate(r)


def file_bytes(fdp: atheris.FuzzedDataProvider) -> bytes:
    """A rules file's bytes: a preset's JSON (now and then edited) in some encoding,
    with or without a byte-order mark, now and then cut short or a byte changed; or
    any bytes."""
    if fdp.ConsumeIntInRange(0, 4) == 0:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 300))
    text = fdp.PickValueInList(PRESETS).to_json()
    if fdp.ConsumeBool():
        at = fdp.ConsumeIntInRange(0, len(text))
        text = text[:at] + fdp.ConsumeUnicodeNoSurrogates(4) + text[at + 1 :]
    coding = fdp.PickValueInList(["utf-8", "utf-8-sig", "utf-16", "utf-32", "latin-1"])
    data = bytearray(text.encode(coding, errors="replace"))
    if fdp.ConsumeIntInRange(0, 3) == 0:
        data[fdp.ConsumeIntInRange(0, len(data) - 1)] = fdp.ConsumeIntInRange(0, 255)
    if fdp.ConsumeIntInRange(0, 3) == 0:
        del data[fdp.ConsumeIntInRange(0, len(data)) :]
    return bytes(data)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 5)
    if mode == 0:
        ok, r = ours(RuleSet.from_json, fdp.ConsumeUnicodeNoSurrogates(200))
    elif mode == 1:
        ok, r = ours(RuleSet.from_dict, any_object(fdp))
    elif mode == 2:
        d = fdp.PickValueInList(PRESETS).to_dict()
        for _ in range(fdp.ConsumeIntInRange(1, 3)):
            mutate(d, fdp)
        ok, r = ours(RuleSet.from_dict, d)
    elif mode == 3:
        d = fdp.PickValueInList(PRESETS).to_dict()
        mutate(d, fdp)
        try:
            text = json.dumps(d)
        except (TypeError, ValueError, RecursionError):  # not JSON-able: not a rule file
            return
        ok, r = ours(RuleSet.from_json, text)
    else:
        data = file_bytes(fdp)
        if mode == 4:
            ok, r = ours(RuleSet.from_json, data)
        else:
            with open(FILE, "wb") as f:
                f.write(data)
            ok, r = ours(load_rules, FILE)
    if ok:
        check(r)


if __name__ == "__main__":
    main(test_one_input)
