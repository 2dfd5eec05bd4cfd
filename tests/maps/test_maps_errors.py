"""Broken map files fail with a MapError naming the file, the field and the reason."""

import copy
import json

import numpy as np
import pytest

from engine import maps as M

PADS = [[1.5, y] for y in (1.5, 3.25, 5.0, 6.75, 8.5)]
BASE = {
    "format": 1,
    "id": 60,
    "name": "Test",
    "split": "custom",
    "team_size": None,
    "description": "a fixture",
    "mirror": True,
    "obstacles": [
        {"type": "pillar", "x": 10, "y": 5, "radius": 1.0},
        {"type": "wall", "x": 6, "y": 5, "width": 0.5, "height": 3, "angle_deg": 30},
    ],
    "pads": PADS,
    "red_zone": [0, 0, 4, 10],
}


def pillar(x, y, r):
    return {"type": "pillar", "x": x, "y": y, "radius": r}


def wall(x, y, w, h, a=0):
    return {"type": "wall", "x": x, "y": y, "width": w, "height": h, "angle_deg": a}


def write(tmp_path, doc, name="060_test.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc) if isinstance(doc, dict) else doc)
    return path


def fails(tmp_path, doc, field, reason):
    """Load `doc` from a file and check the message names file, field and reason."""
    path = write(tmp_path, doc)
    with pytest.raises(M.MapError) as caught:
        M.load_map_file(path)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.source == str(path) and error.field == field
    assert reason in error.reason
    where = "" if field is None else f"field '{field}': "
    assert str(error) == f"{path}: {where}{error.reason}"
    return error


def edited(**changes):
    doc = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is KeyError:
            del doc[key]
        else:
            doc[key] = value
    return doc


def test_the_base_fixture_is_valid(tmp_path):
    spec = M.load_map_file(write(tmp_path, BASE))
    assert spec.id == 60 and spec.split == "custom" and spec.num_obstacles == 3
    # Authored rows first, then the mirror copies of the rows west of the axis.
    np.testing.assert_allclose(spec.obstacles[0], [1, 10, 5, 1, 0, 0, 0, 1])
    np.testing.assert_allclose(spec.obstacles[1], [2, 6, 5, 0, 0.5, 3, np.pi / 6, 1], rtol=1e-6)
    np.testing.assert_allclose(spec.obstacles[2], [2, 14, 5, 0, 0.5, 3, -np.pi / 6, 1], rtol=1e-6)
    np.testing.assert_allclose(spec.pads[1, :, 0], 18.5)
    np.testing.assert_allclose(spec.red_zones, [[0, 0, 4, 10], [16, 0, 20, 10]])


def test_pad_inside_a_pillar(tmp_path):
    doc = edited(obstacles=BASE["obstacles"] + [pillar(1.5, 5.0, 0.4)])
    fails(tmp_path, doc, "pads[2]", "pad (1.5, 5) overlaps obstacles[2]")


def test_pad_touching_a_pillar_is_legal(tmp_path):
    # Tangency is legal (RULES 1.3): centre distance 1.0 = 0.5 + 0.5.
    doc = edited(obstacles=[pillar(3.0, 5.0, 1.0)])
    assert M.load_map_file(write(tmp_path, doc)).num_obstacles == 2


def test_33rd_obstacle(tmp_path):
    west = [pillar(3 + 0.8 * (k % 8), 2 + 6 * (k // 8), 0.2) for k in range(16)]
    fails(tmp_path, edited(obstacles=west + [pillar(10, 5, 0.3)]), "obstacles", "33 obstacles")
    assert M.load_map_file(write(tmp_path, edited(obstacles=west))).num_obstacles == 32


def test_unreachable_pad(tmp_path):
    # Pad 0 at (1.5, 1.5) boxed into the south-west corner by two walls that do not touch it.
    box = [wall(2.3, 1.3, 0.2, 2.6), wall(1.2, 2.5, 2.4, 0.2)]
    error = fails(tmp_path, edited(obstacles=box), "pads[0]", "unreachable")
    assert "radius 0.5" in error.reason


def test_a_gap_of_one_body_width_still_connects(tmp_path):
    # The same box with a 1.2-wide door in its east side: everything is reachable again.
    box = [wall(2.3, 0.5, 0.2, 1.0), wall(2.3, 2.35, 0.2, 0.3), wall(1.2, 2.5, 2.4, 0.2)]
    assert M.load_map_file(write(tmp_path, edited(obstacles=box))).num_obstacles == 6


def test_the_two_ends_cut_apart(tmp_path):
    # A wall down the whole centre line: each end is connected, but not to the other end.
    doc = edited(obstacles=[wall(10, 5, 0.4, 10)])
    fails(tmp_path, doc, "pads[0] (east mirror)", "unreachable")


def test_a_route_through_the_middle(tmp_path):
    # A wall across the map at y = 2.4 cuts pad 0 off unless the centre gap (x 9-11) is open.
    assert M.load_map_file(write(tmp_path, edited(obstacles=[wall(4.5, 2.4, 9, 0.2)])))
    fails(tmp_path, edited(obstacles=[wall(5, 2.4, 10, 0.2)]), "pads[0]", "unreachable")


def test_wall_outside_the_bounds(tmp_path):
    doc = edited(obstacles=[wall(5, 9.9, 2, 0.5)])
    fails(
        tmp_path,
        doc,
        "obstacles[0]",
        "reaches outside the 20 x 10 map (spans (4, 9.65) to (6, 10.1))",
    )


def test_rotated_wall_outside_the_bounds(tmp_path):
    # Axis-aligned it fits (y 8.5-9.5); turned 90 degrees it spans y 8-11.
    assert M.load_map_file(write(tmp_path, edited(obstacles=[wall(5, 9, 3, 1)])))
    fails(tmp_path, edited(obstacles=[wall(5, 9.5, 3, 1, 90)]), "obstacles[0]", "outside")


@pytest.mark.parametrize("field", ["format", "id", "name", "split", "team_size", "mirror",
                                   "description", "obstacles", "pads", "red_zone"])  # fmt: skip
def test_missing_field(tmp_path, field):
    fails(tmp_path, edited(**{field: KeyError}), field, "missing")


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("id", "60", 'expected an integer, got "60"'),
        ("id", 60.0, "expected an integer, got 60.0"),
        ("name", 7, "expected a string, got 7"),
        ("team_size", True, "expected an integer or null, got true"),
        ("mirror", 1, "expected true or false, got 1"),
        ("obstacles", {}, "expected a list"),
        ("pads", "default", "expected a list"),
    ],
)
def test_wrong_type(tmp_path, field, value, reason):
    fails(tmp_path, edited(**{field: value}), field, reason)


@pytest.mark.parametrize(
    ("obstacle", "field", "reason"),
    [
        (pillar(5, 5, "big"), "obstacles[0].radius", 'expected a finite number, got "big"'),
        (pillar(5, 5, 0), "obstacles[0].radius", "must be > 0"),
        (wall(5, 5, 1, -1), "obstacles[0].height", "must be > 0"),
        ({"type": "tree", "x": 5, "y": 5}, "obstacles[0].type", "expected 'pillar' or 'wall'"),
        ({"type": "pillar", "x": 5, "y": 5}, "obstacles[0].radius", "missing"),
        ({**pillar(5, 5, 1), "width": 2}, "obstacles[0].width", "unknown key for a pillar"),
        ([5, 5, 1], "obstacles[0]", "expected an object"),
        (pillar(12, 5, 1), "obstacles[0].x", "author only x <= 10"),
        (wall(10, 5, 2, 0.4, 30), "obstacles[0]", "sits on x = 10 but is not its own mirror"),
    ],
)
def test_bad_obstacle(tmp_path, obstacle, field, reason):
    fails(tmp_path, edited(obstacles=[obstacle]), field, reason)


def test_axis_walls_that_are_their_own_mirror(tmp_path):
    # theta 0 or 90 degrees, or a square at 45 degrees, equal their mirror images.
    walls = [wall(10, 2, 2, 0.4), wall(10, 5, 2, 0.4, 90), wall(10, 8, 1, 1, 45)]
    assert M.load_map_file(write(tmp_path, edited(obstacles=walls))).num_obstacles == 3


def test_asymmetric_full_map(tmp_path):
    # mirror false: the file lists every obstacle, and the loader checks the symmetry.
    good = [pillar(6, 5, 1), pillar(14, 5, 1), wall(5, 3, 2, 0.4, 30), wall(15, 3, 2, 0.4, -30)]
    assert M.load_map_file(write(tmp_path, edited(mirror=False, obstacles=good)))
    bad = good[:3] + [wall(15, 3, 2, 0.4, 30)]
    fails(tmp_path, edited(mirror=False, obstacles=bad), "obstacles[2]", "has no mirror image")


def test_pads_overlapping_each_other(tmp_path):
    pads = [[1.5, 1.5], [1.5, 2.3], [1.5, 5.0], [1.5, 6.75], [1.5, 8.5]]
    fails(tmp_path, edited(pads=pads), "pads[0]", "overlaps pads[1]")


def test_pads_overlapping_their_mirror(tmp_path):
    pads = PADS[:4] + [[9.7, 8.5]]
    fails(tmp_path, edited(pads=pads), "pads[4]", "overlaps pads[4] (east mirror)")


@pytest.mark.parametrize(
    ("pads", "field", "reason"),
    [
        (PADS[:4], "pads", "expected 5 [x, y] pads, got 4"),
        (PADS[:4] + [[1.5]], "pads[4]", "expected a list of 2 numbers"),
        (PADS[:4] + [[0.3, 8.5]], "pads[4]", "must be 0.5 inside the map"),
        (PADS[:4] + [[12, 8.5]], "pads[4]", "x must be < 10"),
    ],
)
def test_bad_pads(tmp_path, pads, field, reason):
    fails(tmp_path, edited(pads=pads), field, reason)


def test_red_zone(tmp_path):
    assert M.load_map_file(write(tmp_path, edited(red_zone=[0, 0, 0, 10])))  # width 0: none
    fails(tmp_path, edited(red_zone=[0, 0, 11, 10]), "red_zone", "x1 <= 10")
    fails(tmp_path, edited(red_zone=[0, 0, 4]), "red_zone", "expected a list of 4 numbers")


def test_identity_fields(tmp_path):
    fails(tmp_path, edited(id=47, split="train"), "split", "belongs to split 'test'")
    # A user's copy that kept a shipped id is told to change the id, not the split.
    fails(tmp_path, edited(id=12), "id", "12 is a shipped map's id; a map of your own takes an")
    fails(tmp_path, edited(id=-1), "id", "must be >= 0")
    fails(tmp_path, edited(id=3, split="curriculum"), "team_size", "needs its stage's team")
    fails(tmp_path, edited(team_size=6), "team_size", "must be 1-5 or null")
    fails(tmp_path, edited(name="  "), "name", "must not be empty")
    fails(tmp_path, edited(format=2), "format", "version 2 unknown")
    fails(tmp_path, edited(colour="red"), "colour", "unknown field")


def test_not_json_and_not_a_file(tmp_path):
    fails(
        tmp_path,
        '{"id": 3,',
        None,
        "not valid JSON: Expecting property name enclosed in double quotes (line 1, column 10)",
    )
    fails(tmp_path, "[1, 2]", "(top level)", "expected a JSON object")
    absent = tmp_path / "absent.json"
    with pytest.raises(M.MapError) as caught:
        M.load_map_file(absent)
    assert str(caught.value) == f"{absent}: cannot read the file: No such file or directory"
    assert caught.value.field is None


def test_file_name_and_id_must_agree(tmp_path, monkeypatch):
    doc = edited(id=61)
    write(tmp_path, doc, "060_wrong.json")
    monkeypatch.setattr(M, "MAPS_DIR", tmp_path)
    M.clear_map_caches()
    try:
        with pytest.raises(M.MapError, match="the file name says map 60, the field says 61"):
            M.load_map(60)
        with pytest.raises(M.MapError, match="no file for map 59"):
            M.load_map(59)
    finally:
        M.clear_map_caches()
