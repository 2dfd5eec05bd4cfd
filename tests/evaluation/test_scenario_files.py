"""Scenario files: bad fields named, starts round-trip bit for bit, arenas kept out of pools."""

import copy
import json

import jax
import numpy as np
import pytest

import engine
from engine import maps
from evaluation import scenarios as S

GOOD = {
    "format": 1, "id": 99, "title": "Test", "skill": "planning", "brief": "A test position.",
    "arena": 905, "focal_team": "A", "horizon": 5, "score_to_win": 20,
    "controller": "scripted:tactician",
    "start": {
        "tick": 295, "score": [18, 19], "spawn_end": 0, "wave_clock": [2, 3],
        "agents": {
            "A0": {"class": "Rogue", "pos": [12.25, 5.1], "health": 40, "cooldown": 3,
                   "status": {"poison_slow": 2}, "ooc": 2},
            "A1": {"class": "Hunter", "alive": False},
            "B0": {"class": "Mage", "pos": [15, 5], "health": 26.5, "status": {"burst": 4}},
            "B1": {"class": "Priest", "pos": [17, 6], "shield": 1},
        },
    },
    "lines": [{"name": "hit", "ticks": [{"A0": "E B0 basic"}, {"A0": "Stay - none"}]}],
}  # fmt: skip


def test_good_document_builds_the_exact_state():
    s = S.scenario_from_dict(GOOD, "test.json")
    st = s.start
    assert s.focal_slots == (0, 1) and s.controller_slots == (5, 6)
    assert s.config.horizon == 300 and s.config.score_threshold == 20
    assert np.asarray(st.pos)[0].tolist() == [np.float32(12.25), np.float32(5.1)]
    assert np.asarray(st.health).tolist()[:2] == [40.0, 0.0]
    assert float(st.health[6]) == 100.0  # a living agent without health: its class maximum
    assert not bool(st.alive[1]) and np.asarray(st.pos)[1].tolist() == [1.5, 3.25]  # its pad
    assert int(st.status[0, 2]) == 2 and int(st.status[5, 7]) == 4
    assert int(st.shield[6]) == 1 and int(st.cooldown[0]) == 3 and int(st.ooc[0]) == 2
    assert np.asarray(st.wave_clock).tolist() == [2, 3] and int(st.tick) == 295
    assert not bool(st.has_prev)
    # The line is in Team A's frame: E is move 3; B0 is enemy 0 = category 6 (RULES 3.3).
    name, table = s.lines[0]
    assert name == "hit" and table.shape == (2, 10, 3) and table[0, 0].tolist() == [3, 6, 0]
    # seen is derived: the Rogue sees the Mage 2.75 away; the shielded Priest is hidden.
    assert bool(st.seen[0, 5]) and not bool(st.seen[0, 6]) and bool(st.seen[5, 6])


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("horizon",), 0, "horizon"),
        (("focal_team",), "C", "focal_team"),
        (("arena",), 47, "arena"),  # a test map is no scenario arena
        (("controller",), "scripted:nobody", "controller"),
        (("start", "agents", "A0", "class"), "Bard", "start.agents.A0.class"),
        (("start", "agents", "A0", "pos"), [3], "start.agents.A0.pos"),
        (("start", "agents", "A0", "status"), {"sleepy": 2}, "start.agents.A0.status.sleepy"),
        (("start", "agents", "A0", "health"), 300, "start.agents.A0.health"),
        (("start", "agents", "B0", "pos"), [19.75, 5.0], "start.agents.B0.pos"),
        (("start", "score"), [20, 3], "score"),
        (("start", "wave_clock"), [5, 0], "wave_clock[0]"),
        (("start", "agents", "A0", "cooldown"), 31, "start.agents.A0.cooldown"),
        (("lines",), [{"name": "x", "ticks": [{"B0": "E A0 basic"}]}], "lines[0].ticks[0].B0"),
        (("lines",), [{"name": "x", "ticks": [{"A0": "Jump A0 basic"}]}], "lines[0].ticks[0].A0"),
    ],
)
def test_each_bad_field_is_named(path, value, field):
    doc = copy.deepcopy(GOOD)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(S.ScenarioError) as caught:
        S.scenario_from_dict(doc, "bad.json")
    text = str(caught.value)
    assert text.startswith("bad.json: ") and field in text, text
    # The value at fault: the bad key, element or word where the field holds more.
    shown = {"wave_clock[0]": 5, "start.agents.A0.status.sleepy": "sleepy"}.get(field, value)
    shown = {"lines[0].ticks[0].B0": "B0", "lines[0].ticks[0].A0": "Jump"}.get(field, shown)
    assert any(form in text for form in (repr(shown), str(shown), json.dumps(shown))), text


def test_every_problem_of_a_file_is_reported_at_once():
    doc = copy.deepcopy(GOOD)
    doc["horizon"], doc["focal_team"], doc["colour"] = -1, "Z", "red"
    doc["start"]["agents"]["A0"]["class"] = "Bard"
    with pytest.raises(S.ScenarioError) as caught:
        S.scenario_from_dict(doc, "bad.json")
    fields = [p.split(" ")[0].rstrip(":") for p in caught.value.problems]
    assert {"horizon", "focal_team", "colour", "start.agents.A0.class"} <= set(fields)


@pytest.mark.parametrize(
    "field, value, wanted",
    [
        ("horizon", "five", "must be a whole number"),
        ("focal_team", 7, "must be a string"),
        ("arena", [905], "must be a whole number or a string"),
        ("start", [], "must be an object"),
        ("lines", {}, "must be a list"),
        ("id", True, "must be a whole number"),  # JSON true is no id
    ],
)
def test_a_wrong_type_names_the_type_wanted(field, value, wanted):
    doc = dict(copy.deepcopy(GOOD), **{field: value})
    with pytest.raises(S.ScenarioError) as caught:
        S.scenario_from_dict(doc, "bad.json")
    assert f"{field} = {value!r}: wrong type, {wanted}" in caught.value.problems


def test_a_body_on_an_obstacle_is_refused():
    doc = copy.deepcopy(GOOD)
    doc["arena"] = 907  # columns at x = 10, y = 2, 5, 8 (radius 0.5)
    doc["start"]["agents"]["B0"]["pos"] = [10.4, 5]
    with pytest.raises(
        S.ScenarioError,
        match=r"^bad.json: start.agents.B0.pos = \[10.4, 5.0\]: the body overlaps obstacle row 1",
    ):
        S.scenario_from_dict(doc, "bad.json")


def test_a_start_round_trips_through_its_file_bit_for_bit(tmp_path):
    first = S.scenario_from_dict(GOOD, "test.json")
    doc = S.document_for_state(
        first.start, arena=905, title="again", skill="x", brief="y", focal_team="A", horizon=5
    )
    path = S.write_document(tmp_path / "again.json", doc)
    again = S.load_scenario_file(path)
    for a, b in zip(jax.tree.leaves(first.start), jax.tree.leaves(again.start), strict=True):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    assert again.start_hash == first.start_hash
    with pytest.raises(FileExistsError):
        S.write_document(path, doc)  # never over an existing file


def test_the_hash_changes_with_any_start_field():
    base = S.scenario_from_dict(GOOD, "test.json").start_hash
    doc = copy.deepcopy(GOOD)
    doc["start"]["agents"]["B0"]["health"] = 26.500002
    assert S.scenario_from_dict(doc, "test.json").start_hash != base
    doc = copy.deepcopy(GOOD)
    doc["horizon"] = 6
    doc["start"]["tick"] = 294
    assert S.scenario_from_dict(doc, "test.json").start_hash != base


def test_state_fields_inverts_authored_state():
    state = S.scenario_from_dict(GOOD, "test.json").start
    fields = engine.state_fields(state)
    again = engine.authored_state(S.scenario_config(20, 295, 5), **fields)
    for a, b in zip(jax.tree.leaves(state), jax.tree.leaves(again), strict=True):
        assert np.array_equal(np.asarray(a), np.asarray(b))


def test_scenario_arenas_are_refused_by_every_pool():
    from engine import curriculum
    from training.common import check_training_maps

    arena = maps.load_arena(901)
    assert arena.split == "scenario" and maps.split_of(901) == "scenario"
    with pytest.raises(ValueError, match="map 901 is a scenario arena"):
        maps.make_pool([arena])
    with pytest.raises(ValueError, match="scenario arena"):
        engine.make(maps=[arena])
    with pytest.raises(ValueError, match="scenario arena"):
        curriculum.make_stage("s", [903, 12], [1], 5)
    with pytest.raises(ValueError, match="scenario arena"):
        check_training_maps("12,905")
    for split in ("train", "validation", "test", "curriculum", "all"):
        assert not set(maps.resolve_maps(split)) & set(maps.SCENARIO_IDS)


def test_every_consistency_problem_of_the_start_is_named_at_once():
    # Sound fields, four inconsistent starts: a body inside a column, a dead agent holding a
    # shield, a wave clock past its period and an ooc count past the Rogue's delay. Each is
    # named with the agent (or field) and the value, the engine's order: counters, then bodies.
    doc = copy.deepcopy(GOOD)
    doc["arena"] = 907  # columns at x = 10, y = 2, 5, 8 (radius 0.5)
    doc["start"]["agents"]["B0"]["pos"] = [10.4, 5]
    doc["start"]["agents"]["A1"]["shield"] = 1
    doc["start"]["wave_clock"] = [2, 7]
    doc["start"]["agents"]["A0"]["ooc"] = 9
    with pytest.raises(S.ScenarioError) as caught:
        S.scenario_from_dict(doc, "bad.json")
    problems = caught.value.problems
    assert [p.split(" = ")[0] for p in problems] == [
        "start: wave_clock[1]",
        "start.agents.A0.ooc",
        "start.agents.A1.shield",
        "start.agents.B0.pos",
    ], problems
    assert problems[0].endswith("wave_clock[1] = 7: must be 0-4 (RULES 15)")
    assert problems[1] == "start.agents.A0.ooc = 9: must be 0-3"
    assert problems[2] == "start.agents.A1.shield = 1: a dead or empty slot holds 0"
    assert "overlaps obstacle row 1" in problems[3]
    assert str(caught.value).count("bad.json: ") == 4
    S.scenario_from_dict(GOOD, "good.json")  # the sound file: no problem at all


def test_validate_prints_every_problem_and_fails(tmp_path, capsys):
    from cli.main import main

    doc = copy.deepcopy(GOOD)
    doc["horizon"] = 0  # a field problem: the start is not checked until the fields are sound
    (tmp_path / "fields.json").write_text(json.dumps(doc))
    doc = copy.deepcopy(GOOD)
    doc["start"]["agents"]["A1"]["shield"] = 1
    doc["start"]["wave_clock"] = [2, 7]
    doc["start"]["agents"]["A0"]["ooc"] = 9
    bad = tmp_path / "start.json"
    bad.write_text(json.dumps(doc))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GOOD))
    assert main(["scenarios", "validate", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"FAIL {bad}: start: wave_clock[1] = 7: must be 0-4 (RULES 15)",
        f"{bad}: start.agents.A0.ooc = 9: must be 0-3",
        f"{bad}: start.agents.A1.shield = 1: a dead or empty slot holds 0",
    ]
    assert main(["scenarios", "validate", str(good)]) == 0
    assert capsys.readouterr().out.startswith(f"ok   {good}: scenario 99 (")
    assert main(["scenarios", "validate", str(tmp_path / "fields.json"), str(good)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"FAIL {tmp_path / 'fields.json'}: horizon = 0") and len(out) == 2


def test_the_controller_is_named_with_the_fields_and_the_lines_with_the_start():
    # The controller needs no start state and a line only the roster, so neither waits for
    # the file's other problems to be mended first.
    doc = copy.deepcopy(GOOD)
    doc["horizon"], doc["controller"] = 0, "scripted:nobody"
    with pytest.raises(S.ScenarioError) as caught:
        S.scenario_from_dict(doc, "bad.json")
    assert [p.split(" = ")[0] for p in caught.value.problems] == ["horizon", "controller"]
    doc = copy.deepcopy(GOOD)
    doc["start"]["agents"]["A0"]["ooc"] = 9
    doc["lines"][0]["ticks"][0] = {"A0": "Fly B0 basic", "B0": "Stay - none"}
    with pytest.raises(S.ScenarioError) as caught:
        S.scenario_from_dict(doc, "bad.json")
    problems = caught.value.problems
    assert problems[0] == "start.agents.A0.ooc = 9: must be 0-3"
    assert [p.split(":")[0] for p in problems[1:]] == [
        "lines[0].ticks[0].A0",
        "lines[0].ticks[0].B0",
    ], problems
    assert problems[2].endswith("B0 is not an agent of the focal team")
