"""Map selections, pool packing and curriculum stages."""

import json

import numpy as np
import pytest

from engine import constants as C
from engine import maps as M
from engine.curriculum import (
    CURRICULUM,
    Stage,
    load_curriculum,
    make_stage,
    stage_pool,
    stage_rosters,
)
from engine.pool import default_pads


@pytest.mark.parametrize(
    ("spec", "ids"),
    [
        (47, [47]),
        (np.int64(3), [3]),
        ("validation", [42, 43, 44, 45, 46]),
        ("test", [47, 48, 49, 50, 51]),
        ("47", [47]),
        (" 3, 5,12-14 ", [3, 5, 12, 13, 14]),
        ([1, "2-3", "test"], [1, 2, 3, 47, 48, 49, 50, 51]),
        (range(2), [0, 1]),
    ],
)
def test_resolve_maps(spec, ids):
    assert M.resolve_maps(spec) == ids


def test_resolve_maps_named_splits():
    assert M.resolve_maps("train") == list(range(12, 42))
    assert M.resolve_maps("curriculum") == list(range(12))
    assert M.resolve_maps("all") == list(range(52))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("trian", "'trian' is not an id, a range or a split"),
        ("5-3", "range '5-3' runs backwards"),
        ([], "expected at least one id"),
        (-1, "all >= 0"),
        (True, "expected ids or a split name"),
        (2.5, "expected ids or a split name"),
    ],
)
def test_resolve_maps_rejects(spec, message):
    with pytest.raises(ValueError, match=message):
        M.resolve_maps(spec)


def test_split_ids_and_split_of():
    with pytest.raises(ValueError, match="unknown split 'dev'"):
        M.split_ids("dev")
    assert [M.split_of(i) for i in (0, 11, 12, 41, 42, 46, 47, 51, 52)] == [
        "curriculum", "curriculum", "train", "train", "validation", "validation",
        "test", "test", "custom",
    ]  # fmt: skip


def test_load_map_caches_and_rejects_bad_ids():
    assert M.load_map(5) is M.load_map(5)
    for bad in (-1, "5", True):
        with pytest.raises(ValueError, match="map id must be an integer"):
            M.load_map(bad)
    with pytest.raises(M.MapError, match="no file for map 99"):
        M.load_map(99)


def test_make_pool_packs_the_selected_maps():
    pool = M.make_pool("test", ["MWHRP/MWHRP", "MW/HR"], p_east=0.25)
    assert int(pool.num_maps) == 5 and int(pool.num_rosters) == 2
    assert pool.obstacles.shape == (64, 32, 8) and pool.pads.shape == (64, 2, 5, 2)
    np.testing.assert_array_equal(np.asarray(pool.map_ids[:6]), [47, 48, 49, 50, 51, 0])
    for row, map_id in enumerate(range(47, 52)):
        spec = M.load_map(map_id)
        table = np.asarray(pool.obstacles[row])
        np.testing.assert_array_equal(table[: spec.num_obstacles], spec.obstacles)
        assert not table[spec.num_obstacles :].any()  # empty slots are all zeros
        np.testing.assert_array_equal(np.asarray(pool.pads[row]), default_pads())
        np.testing.assert_array_equal(np.asarray(pool.red_zones[row]), spec.red_zones)
    assert not np.asarray(pool.obstacles[5:]).any()
    np.testing.assert_array_equal(np.asarray(pool.rosters[1]), [1, 2, 0, 0, 0, 3, 4, 0, 0, 0])
    assert float(pool.p_east) == 0.25


def test_make_pool_takes_loaded_specs_and_keeps_shapes():
    a = M.make_pool([M.load_map(0)], ["M"])
    b = M.make_pool("all", ["MWHRP"])
    assert int(a.num_maps) == 1 and int(b.num_maps) == 52
    for leaf_a, leaf_b in zip(
        [a.obstacles, a.pads, a.red_zones, a.map_ids, a.rosters],
        [b.obstacles, b.pads, b.red_zones, b.map_ids, b.rosters],
        strict=True,
    ):
        assert leaf_a.shape == leaf_b.shape and leaf_a.dtype == leaf_b.dtype


def test_builtin_curriculum():
    assert [s.name for s in CURRICULUM] == ["1v1", "2v2", "3v3", "4v4", "5v5"]
    assert [s.team_sizes for s in CURRICULUM] == [(1,), (2,), (3,), (4,), (5,)]
    assert CURRICULUM[2].map_ids == (4, 5, 6)


def test_stage_rosters_and_pool():
    two = CURRICULUM[1]
    assert stage_rosters(two) == ["MW/MW", "WH/WH", "HR/HR", "RP/RP", "PM/PM"]
    assert stage_rosters(CURRICULUM[0]) == ["M/M", "W/W", "H/H", "R/R", "P/P"]
    assert len(stage_rosters(make_stage("mix", "0-1", [1, 5], 9))) == 10
    pool = stage_pool(two)
    assert int(pool.num_maps) == 2 and int(pool.num_rosters) == 5
    np.testing.assert_array_equal(np.asarray(pool.map_ids[:2]), [2, 3])
    np.testing.assert_array_equal(
        np.asarray(pool.rosters[4]), [C.PRIEST, C.MAGE, 0, 0, 0, C.PRIEST, C.MAGE, 0, 0, 0]
    )


def test_make_stage_and_its_checks():
    stage = make_stage("lanes", "15,16,20-21", 3, 12)
    assert stage == Stage("lanes", (15, 16, 20, 21), (3,), 12)
    with pytest.raises(ValueError, match="team_sizes must be 1-5"):
        make_stage("x", "train", [6], 10)
    with pytest.raises(ValueError, match="score_threshold must be >= 1"):
        make_stage("x", "train", 2, 0)
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        make_stage("", "train", 2, 5)
    with pytest.raises(ValueError, match="map_ids needs 1-64 ids"):
        Stage("x", tuple(range(65)), (1,), 5)


def test_load_curriculum_json_and_toml(tmp_path):
    stages = [
        {"name": "duel", "maps": [0, 1], "team_sizes": [1], "score_threshold": 5},
        {"name": "open", "maps": "train", "team_sizes": [3, 5], "score_threshold": 20},
    ]
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"stages": stages}))
    loaded = load_curriculum(path)
    assert loaded[0] == Stage("duel", (0, 1), (1,), 5)
    assert loaded[1].map_ids == tuple(range(12, 42)) and loaded[1].team_sizes == (3, 5)
    toml = tmp_path / "plan.toml"
    toml.write_text(
        '[[stages]]\nname = "duel"\nmaps = "0-1"\nteam_sizes = [1]\nscore_threshold = 5\n'
    )
    assert load_curriculum(toml) == (loaded[0],)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"stages": []}, "field 'stages': expected a non-empty list"),
        ({"stages": [{"name": "a"}]}, "field 'stages\\[0\\]': needs exactly the keys"),
        (
            {"stages": [{"name": "a", "maps": "nope", "team_sizes": 1, "score_threshold": 5}]},
            "field 'stages\\[0\\]': maps 'nope'",
        ),
    ],
)
def test_load_curriculum_errors(tmp_path, doc, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=message) as caught:
        load_curriculum(path)
    assert str(path) in str(caught.value)
