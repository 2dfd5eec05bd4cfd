"""A scenario start compiles once for all scenarios (the first start waited ~80 s on a loaded
machine, most of it "setting up the start position": ~415 one-operation compiles of an eager
observation, then the engine step, then the bot's act for the slots it held).

battleclient.rule_programs takes the horizon and score to win as data, so every scenario's
Config shares one compiled step and observation with the values of a Config-static program;
`shared_machines` gives the machine players one System per spec whatever slots they hold."""

import jax
import numpy as np
import pytest

from battleclient import human  # noqa: F401  (registers the human kind)
from battleclient import rule_programs as R
from battleclient.game_setup import DEFAULT_SLOTS
from battleclient.scenario_session import slot_spec
from engine import constants as C
from engine import env as engine
from evaluation import rule_numbers
from evaluation import scenarios as S
from policies.slotspec import parse_slots, resolve_slots
from policies.system import as_actions, merge_actions


def _lineup(scenario, human_slots):
    roster = np.asarray(scenario.start.class_id)
    return resolve_slots(parse_slots(slot_spec(scenario, human_slots)), roster)


def test_the_machine_players_are_one_system_whatever_slots_they_hold(monkeypatch):
    monkeypatch.setattr(R, "_BUILT", {})  # no game built in this process yet
    one, five = S.load_scenario(1), S.load_scenario(5)
    plain = _lineup(one, [0])
    lineups = [R.shared_machines(_lineup(one, [0])), R.shared_machines(_lineup(one, [1]))]
    lineups.append(R.shared_machines(_lineup(five, [0])))
    bots = [next(s for s in lineup.systems if not s.host) for lineup in lineups]
    assert bots[0] is bots[1] is bots[2]  # one object: one jitted act (match.jitted_act)
    assert bots[0] is not next(s for s in plain.systems if not s.host)  # held A1-A4, B*
    assert [int(s) for s in np.flatnonzero(lineups[0].owners[1])] == [
        int(s) for s in np.flatnonzero(plain.owners[1])
    ]  # owners and specs kept: only those slots' answers are merged
    assert lineups[0].specs == plain.specs
    assert bots[0].initial_carry().field.shape == (C.NUM_SLOTS, 10, 20)  # all ten slots


def test_a_scenario_reuses_the_lobby_games_machines_when_they_cover_its_slots(monkeypatch):
    monkeypatch.setattr(R, "_BUILT", {})
    lobby = resolve_slots(DEFAULT_SLOTS)  # A0 human, A1-A4 and B* scripted:tactician
    R.remember_machines(lobby)  # as GameSession does for the lobby's warm-up game
    lobby_bot = next(s for s in lobby.systems if not s.host)
    one = S.load_scenario(1)
    as_a0 = R.shared_machines(_lineup(one, [0]))  # machines on A1 and B*: inside A1-B4
    as_a1 = R.shared_machines(_lineup(one, [1]))  # machines on A0 too: all ten slots
    assert next(s for s in as_a0.systems if not s.host) is lobby_bot
    bot = next(s for s in as_a1.systems if not s.host)
    assert bot is not lobby_bot and bot.initial_carry().field.shape[0] == C.NUM_SLOTS


@pytest.mark.slow  # two compiles of the engine step (~20-30 s each on a loaded machine)
def test_horizon_and_score_as_data_give_the_config_static_values():
    scenario = S.load_scenario(1)  # start tick 295
    state = scenario.start
    lineup = _lineup(scenario, [0])
    actions, fallback = merge_actions([as_actions(None)] * len(lineup.systems), lineup.owners)
    results = {}
    for horizon in (296, 300):  # the next tick reaches the first horizon: a draw on time
        config = S.scenario_config(20, 0, horizon)
        program = R._family_step(rule_numbers.rules_family(config))
        results[horizon] = program(*rule_numbers.numbers(config), state, actions, fallback)
        assert program._cache_size() == 1  # the second horizon ran the first one's compile
    short = S.scenario_config(20, 0, 296)
    static = jax.jit(lambda s, a: engine.step_env(short, s, a))(state, actions)
    obs, stepped, events = jax.device_get(results[296])
    expected_obs, expected_state, _, expected_events = jax.device_get(static)
    for got, want in ((obs, expected_obs), (stepped, expected_state)):
        for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
            np.testing.assert_array_equal(a, b)
    assert int(stepped.outcome) == C.DRAW and bool(events.truncated)
    assert int(jax.device_get(results[300][1]).outcome) == C.ONGOING
    np.testing.assert_array_equal(events.fallback, np.asarray(fallback))
    first = R.rules_observe(short, state)  # the start's observation: ticks left 296 - 295
    static_first = jax.jit(lambda s: engine.observation.observe(short, s))(state)
    for a, b in zip(jax.tree.leaves(first), jax.tree.leaves(static_first), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_only_per_agent_bots_are_swapped(monkeypatch):
    monkeypatch.setattr(R, "_BUILT", {})
    one = S.load_scenario(1)
    roster = np.asarray(one.start.class_id)
    plain = resolve_slots(parse_slots(slot_spec(one, [0], others="random")), roster)
    shared = R.shared_machines(plain)
    kinds = [spec.split(":")[0] for spec in plain.specs if spec]
    assert "random" in kinds and "scripted" in kinds
    for before, after, owned in zip(plain.systems, shared.systems, plain.owners, strict=True):
        spec = plain.specs[int(np.flatnonzero(owned)[0])]
        assert (after is before) == (not spec.startswith("scripted:")), spec
