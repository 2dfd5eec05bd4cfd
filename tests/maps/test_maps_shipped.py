"""The 52 shipped maps: they load, validate, sit in the right split and match their previews."""

import subprocess
import sys

import numpy as np
import pytest

from engine import maps as M
from engine.curriculum import CURRICULUM
from engine.pool import default_pads, default_red_zones

ALL = list(range(52))


@pytest.fixture(scope="module")
def specs():
    return {i: M.load_map(i) for i in ALL}


def test_splits_are_disjoint_and_complete():
    parts = [M.split_ids(s) for s in ("curriculum", "train", "validation", "test")]
    assert [len(p) for p in parts] == [12, 30, 5, 5]
    assert sorted(sum(parts, [])) == ALL == M.split_ids("all")
    assert parts[2] == [42, 43, 44, 45, 46] and parts[3] == [47, 48, 49, 50, 51]


def test_one_file_per_id_and_nothing_else():
    files = sorted(p.name for p in M.MAPS_DIR.glob("*.json"))
    assert len(files) == 52
    assert [int(name[:3]) for name in files] == ALL
    assert all(name[3] == "_" and name.endswith(".json") for name in files)


@pytest.mark.parametrize("map_id", ALL)
def test_shipped_map_loads_and_validates(specs, map_id):
    spec = specs[map_id]
    assert spec.id == map_id and spec.split == M.split_of(map_id)
    assert spec.source == M.map_path(map_id)
    assert 0 <= spec.num_obstacles <= 32
    assert spec.obstacles.shape == (spec.num_obstacles, 8)
    assert spec.obstacles.dtype == np.float32 and not spec.obstacles.flags.writeable
    assert set(spec.obstacles[:, 0]) <= {1.0, 2.0} and np.all(spec.obstacles[:, 7] == 1.0)
    # Every shipped map keeps the canonical pads (A5) and Red Zones (A4).
    np.testing.assert_array_equal(spec.pads, default_pads())
    np.testing.assert_array_equal(spec.red_zones, default_red_zones())
    assert spec.name.strip() and spec.description.strip()


@pytest.mark.parametrize("map_id", ALL)
def test_shipped_map_is_mirror_symmetric(specs, map_id):
    rows = specs[map_id].obstacles
    for row in M.mirror_rows(rows):
        assert any(_same_cover(row, other) for other in rows), f"map {map_id}: {row}"


def _same_cover(a, b):
    if a[0] != b[0] or not np.allclose(a[1:3], b[1:3], atol=1e-4):
        return False
    if a[0] == 1:
        return np.isclose(a[3], b[3])
    ca, cb = M.wall_corners(a), M.wall_corners(b)
    return all(np.abs(cb - p).max(axis=1).min() < 1e-4 for p in ca)


def test_previews_are_current(specs):
    import json

    for spec in specs.values():
        doc = json.loads(spec.source.read_text())
        assert doc["preview"] == M.render_ascii(spec), spec.source.name
        lines = doc["preview"]
        assert len(lines) == 22 and {len(line) for line in lines} == {82}
        assert all(line == line[::-1] for line in lines)  # mirror-symmetric picture


def test_generator_reproduces_every_file():
    script = M.MAPS_DIR / "generate.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "52 of 52 map files up to date" in done.stdout


def test_curriculum_grows_team_sizes_and_obstacles(specs):
    sizes = [specs[i].team_size for i in range(12)]
    counts = [specs[i].num_obstacles for i in range(12)]
    assert sizes[0] == 1 and sizes[-1] == 5 and sizes == sorted(sizes)
    assert set(sizes) == {1, 2, 3, 4, 5}
    assert counts[0] == 0 and counts == sorted(counts) and counts[-1] >= 20
    assert all(specs[i].team_size is None for i in range(12, 52))


def test_builtin_stages_match_the_map_files(specs):
    assert [i for stage in CURRICULUM for i in stage.map_ids] == list(range(12))
    for stage in CURRICULUM:
        assert {specs[i].team_size for i in stage.map_ids} == set(stage.team_sizes)
    assert [s.score_threshold for s in CURRICULUM] == sorted(s.score_threshold for s in CURRICULUM)
    assert CURRICULUM[-1].score_threshold == 20


def _iou(a, b):
    union = (a | b).sum()
    return (a & b).sum() / union if union else 1.0


def test_held_out_maps_are_not_near_copies(specs):
    """Obstacle-cover IoU (0.1-unit grid) of every validation/test map against every map a
    policy trains on (curriculum + train) stays under 0.33; train maps among themselves
    reach about 0.26. Validation and test maps are also kept apart from each other."""
    cover = {i: M.occupancy(specs[i]) for i in ALL}
    trained = M.split_ids("curriculum") + M.split_ids("train")
    held_out = M.split_ids("validation") + M.split_ids("test")
    for i in held_out:
        assert cover[i].any()
        for j in trained:
            assert _iou(cover[i], cover[j]) < 0.33, (i, j)
    for i in M.split_ids("validation"):
        for j in M.split_ids("test"):
            assert _iou(cover[i], cover[j]) < 0.33, (i, j)


def test_iou_detects_a_copy(specs):
    # The bound can fail: a map against itself scores 1, a slightly moved copy far above 0.33.
    spec = specs[47]
    moved = spec.obstacles.copy()
    moved[:, 1] += 0.05
    shifted = M.blocked_grid(moved, 0.0, 0.1)
    assert _iou(M.occupancy(spec), M.occupancy(spec)) == 1.0
    assert _iou(M.occupancy(spec), shifted) > 0.6
