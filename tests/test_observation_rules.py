"""The rule set an observation is played under travels as plain data: ``"rules"`` is the
rule set's name (a plain ``str``); a game whose rules are not exactly a preset adds
``"rule_set"``, the dict a rules file holds, which survives a JSON round trip and which
bots (``rules_of``), the search and the HTTP API read."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ofc_fast as ofc
from ofc_fast import rules
from ofc_fast.bots import HeuristicBot, RandomBot
from ofc_fast.bots.base import rules_of
from ofc_fast.env import VectorEnv
from ofc_fast.errors import RulesError
from ofc_fast.rules import RuleSet
from ofc_fast.search import advise, make_observation

TABLE = rules.PINEAPPLE.replace(sweep_bonus=5, royalties=rules.ROYALTIES_ALT_3)


def _json(obs: Any) -> Any:
    return json.loads(json.dumps(obs))


@pytest.mark.parametrize("preset", [rules.PINEAPPLE, rules.OFC, rules.CLASSIC_1_6])
def test_a_preset_game_adds_nothing(preset: RuleSet) -> None:
    obs = ofc.Game(preset, seed=1).observation(0)
    assert "rule_set" not in obs
    assert type(obs["rules"]) is str and obs["rules"] == preset.name
    assert rules_of(_json(obs)) is preset


class _Scribbler:
    """A bot that writes into the observations it is handed (its own business), then
    plays at random."""

    def __init__(self) -> None:
        self.inner = RandomBot(seed=3)

    def act(self, observation: Any) -> Any:
        observation["rule_set"]["sweep_bonus"] = 99
        observation["rule_set"]["royalties"]["back"][4] = 1000
        return self.inner.act(observation)


def test_one_seat_writing_into_its_observation_changes_no_other_view() -> None:
    """The carried rule set was one dict shared by every observation of the game (and
    of its copies): a bot that wrote into its own observation changed the rules every
    other seat's bot then read (here sweep_bonus 99 and a back straight worth 1000)."""
    g = ofc.Game(TABLE, seed=2)
    first = g.observation(0)
    first["rule_set"]["sweep_bonus"] = 99
    assert g.observation(1)["rule_set"] == TABLE.to_dict()
    assert g.copy().observation(0)["rule_set"] == TABLE.to_dict()
    seen: list[RuleSet] = []

    class Reader(RandomBot):
        def act(self, observation: Any) -> Any:
            seen.append(rules_of(observation))
            return super().act(observation)

    ofc.game.play_out(ofc.Game(TABLE, seed=4), [_Scribbler(), Reader(seed=1)])
    assert seen and all(r == TABLE for r in seen)
    venv = VectorEnv(TABLE, 1, seed=3)
    venv.reset()
    venv.observation(0, 0)["rule_set"]["sweep_bonus"] = 99
    assert venv.observation(0, 1)["rule_set"] == TABLE.to_dict()


def test_games_of_custom_rules_build_their_carried_rule_set_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every game of rules that are not exactly a preset built the rule set its
    observations carry anew (``RuleSet.to_dict``, about 80 us: more than the ten
    decisions of a RandomBot deal); it is built once per table now, and what one
    game's bot writes into its observation still changes no other game's view."""
    table = rules.PINEAPPLE.replace(sweep_bonus=6, name="built-once")
    want = json.loads(table.to_json())  # the reference: the rules file's dict
    built: list[RuleSet] = []
    to_dict = RuleSet.to_dict

    def counting(self: RuleSet) -> dict[str, Any]:
        built.append(self)
        return to_dict(self)

    monkeypatch.setattr(RuleSet, "to_dict", counting)
    scribbled = ofc.Game(table, seed=1)
    ofc.game.play_out(scribbled, [_Scribbler(), _Scribbler()])
    for seed in range(2, 7):
        g = ofc.Game(table, seed=seed)
        assert g.observation(0)["rule_set"] == want
        ofc.game.play_out(g, [RandomBot(seed), RandomBot(seed + 1)])
    assert len(built) <= 1
    assert ofc.Game(table, seed=9).observation(1)["rule_set"] == want


def test_a_custom_game_carries_its_rule_set() -> None:
    assert TABLE.name == "custom"
    g = ofc.Game(TABLE, seed=2)
    for seat in (0, 1):
        for cards in ("ids", "text"):
            obs = g.observation(seat, cards)
            assert type(obs["rules"]) is str and obs["rules"] == "custom"
            assert obs["rule_set"] == TABLE.to_dict()
            assert RuleSet.from_dict(_json(obs)["rule_set"]) == TABLE
    assert g.copy().observation(1)["rule_set"] == TABLE.to_dict()
    # a rule set renamed but otherwise a preset is not the preset either
    named = rules.OFC.replace(name="OFC", sweep_bonus=4)
    assert ofc.Game(named, seed=1).observation(0)["rule_set"]["sweep_bonus"] == 4


def test_a_bot_plays_a_custom_game_from_json_observations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bots made without rules play a custom game they see only as JSON text, by its
    exact rules; each distinct carried rule set is parsed once per bot."""
    parsed: list[object] = []
    from_dict = RuleSet.from_dict.__func__  # type: ignore[attr-defined]

    def counting(cls: type[RuleSet], data: dict[str, Any]) -> RuleSet:
        parsed.append(data)
        return from_dict(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(RuleSet, "from_dict", classmethod(counting))
    g = ofc.Game(TABLE, players=2, seed=5)
    bots = [HeuristicBot(seed=1, samples=2, arrangements=2), RandomBot(seed=2)]
    seen: list[RuleSet] = []
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        obs = _json(g.observation(seat))  # a new, equal dict every decision
        seen.append(rules_of(obs))
        g.play(bots[seat].act(obs))
    assert all(r == TABLE for r in seen)
    assert sum(g.result().net) == 0
    assert len(parsed) == len(seen) + 1  # rules_of above each time; the bot once


def test_a_bad_carried_rule_set_is_refused() -> None:
    obs = _json(ofc.Game(TABLE, seed=1).observation(0))
    obs["rule_set"]["sweep_bonus"] = "lots"
    with pytest.raises(RulesError, match="sweep_bonus"):
        rules_of(obs)


def test_every_builder_of_observations_agrees() -> None:
    """The game, the vector environment and make_observation carry the same
    ``rule_set``; the search reads it from a JSON observation."""
    g = ofc.Game(TABLE, seed=3)
    venv = VectorEnv(TABLE, 1, seed=3)
    venv.reset()
    assert venv.observation(0, 0)["rule_set"] == TABLE.to_dict()
    preset = VectorEnv(rules.PINEAPPLE, 1, seed=3)
    preset.reset()
    assert "rule_set" not in preset.observation(0, 0)
    obs = make_observation(TABLE, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"])
    assert obs["rule_set"] == TABLE.to_dict()
    assert "rule_set" not in make_observation(
        rules.PINEAPPLE, "Qh / 9s 9h / As Ks", "2c 5d Ts", ["7c / 8d 8h / 4s 4d"]
    )
    seat = g.to_act
    assert seat is not None
    from_game = advise(g, samples=8, seed=1)
    from_json = advise(_json(g.observation(seat)), samples=8, seed=1)
    assert [(a.action, a.ev) for a in from_game] == [(a.action, a.ev) for a in from_json]


def test_a_memo_never_returns_the_rules_of_a_dict_changed_since() -> None:
    """A caller that edits the carried dict in place (the same object the memo saw)
    gets the edited rule set, not the memo's earlier parse."""
    table = rules.PINEAPPLE.replace(sweep_bonus=5)
    obs = ofc.Game(table, players=2, seed=1).observation(0)
    memo: list[Any] = []
    assert rules_of(obs, None, memo).sweep_bonus == 5
    obs["rule_set"]["sweep_bonus"] = 2
    assert rules_of(obs, None, memo).sweep_bonus == 2


def test_own_rules_named_as_a_preset_never_replace_a_preset_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rules file written by ``ofc-fast rules pineapple`` and edited (sweep_bonus 9)
    keeps the name PINEAPPLE: a bot made with it, at a table of the real preset (whose
    observations carry no rule_set), played by its own edited rules, taken for the
    preset by their name alone."""
    edited = RuleSet.from_json(
        rules.PINEAPPLE.to_json().replace('"sweep_bonus": 3', '"sweep_bonus": 9')
    )
    assert edited.name == "PINEAPPLE" and edited.sweep_bonus == 9
    g = ofc.Game(rules.PINEAPPLE, seed=1)
    assert g.to_act is not None
    obs = _json(g.observation(g.to_act))
    assert "rule_set" not in obs
    assert rules_of(obs, edited) == rules.PINEAPPLE
    assert rules_of(obs, edited).sweep_bonus == 3
    # the preset itself, and rules equal to it, are still taken as they are
    assert rules_of(obs, rules.PINEAPPLE) is rules.PINEAPPLE
    assert rules_of(obs, RuleSet.from_json(rules.PINEAPPLE.to_json())) == rules.PINEAPPLE
    # the edited table's own game carries its rule set: played by it
    mine = _json(ofc.Game(edited, seed=1).observation(0))
    assert rules_of(mine, rules.PINEAPPLE).sweep_bonus == 9
    # a bot made with the edited rules plays the preset's game by the preset's rules
    bot = HeuristicBot(edited, seed=1, samples=2, arrangements=2)
    seen: list[RuleSet] = []
    import ofc_fast.bots.heuristic as heuristic

    def spy(*args: Any) -> RuleSet:
        seen.append(rules_of(*args))
        return seen[-1]

    monkeypatch.setattr(heuristic, "rules_of", spy)
    bot.act(obs)
    assert seen and all(r.sweep_bonus == 3 for r in seen)


def test_a_memo_replaced_by_another_thread_mid_lookup_gives_the_observed_rules():
    """A bot shared by threads whose tables carry different rule sets: the memo was
    read twice (its dict compared, then its rule set taken), so a thread replacing it
    in between gave this observation the other table's rules.  The memo is now read
    once."""
    import copy

    from ofc_fast.rules import observation_rules

    mine, other = rules.OFC.replace(sweep_bonus=4), rules.OFC.replace(sweep_bonus=9)
    memo: list = []

    class ReplacedMeanwhile(dict):
        """The memo's dict: while it is compared, another thread's parse lands."""

        __hash__ = None  # type: ignore[assignment]

        def __eq__(self, data: object) -> bool:
            memo[:] = (copy.deepcopy(other.to_dict()), other)
            return dict.__eq__(self, data)

    memo[:] = (ReplacedMeanwhile(mine.to_dict()), mine)
    got = observation_rules({"rules": "custom", "rule_set": mine.to_dict()}, None, memo)
    assert got == RuleSet.from_dict(mine.to_dict()) and got.sweep_bonus == 4
