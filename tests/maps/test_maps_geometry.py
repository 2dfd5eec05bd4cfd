"""Host-side map geometry: overlap predicates (RULES 1.3), mirroring, grids, ASCII preview."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import maps as M


def pillar_row(x, y, r):
    return np.array([1, x, y, r, 0, 0, 0, 1], np.float32)


def wall_row(x, y, w, h, theta):
    return np.array([2, x, y, 0, w, h, theta, 1], np.float32)


def overlaps(row, x, y, r=0.5):
    return bool(M.disc_overlaps(row, x, y, r)[0])


def test_pillar_tangency_is_legal():
    row = pillar_row(5, 5, 1)
    assert not overlaps(row, 6.5, 5)  # distance 1.5 = 0.5 + 1.0
    assert overlaps(row, 6.49, 5)
    assert overlaps(row, 5, 5, 0.0) and not overlaps(row, 6.0, 5, 0.0)  # point cover, strict


def test_rotated_wall():
    # 4 x 1 wall turned 90 degrees: it covers x 4.5-5.5, y 3-7.
    row = wall_row(5, 5, 4, 1, math.pi / 2)
    assert not overlaps(row, 6.0, 5)  # 0.5 from the east face: tangent
    assert overlaps(row, 5.9, 5)
    assert overlaps(row, 5, 7.4) and not overlaps(row, 5, 7.6)
    # Corner (5.5, 7): a disc centred 0.45 away diagonally overlaps, 0.55 away does not.
    d = 0.45 / math.sqrt(2)
    assert overlaps(row, 5.5 + d, 7 + d)
    d = 0.55 / math.sqrt(2)
    assert not overlaps(row, 5.5 + d, 7 + d)
    assert overlaps(row, 5, 5, 0.0)  # a point inside


def test_overlaps_vectorised_shape():
    rows = np.stack([pillar_row(5, 5, 1), wall_row(10, 5, 2, 2, 0)])
    xs = np.array([5.0, 10.0, 15.0])
    got = M.disc_overlaps(rows, xs, np.full(3, 5.0), 0.5)
    assert got.shape == (2, 3)
    np.testing.assert_array_equal(got, [[True, False, False], [False, True, False]])


def test_mirror_rows_and_corners():
    row = wall_row(6, 3, 2, 1, 0.3)
    np.testing.assert_allclose(M.mirror_rows(row)[0], [2, 14, 3, 0, 2, 1, -0.3, 1], rtol=1e-6)
    corners = M.wall_corners(wall_row(5, 5, 2, 1, 0))
    np.testing.assert_allclose(corners, [[4, 4.5], [6, 4.5], [6, 5.5], [4, 5.5]])
    turned = M.wall_corners(wall_row(0, 0, 2, 1, math.pi / 2))
    np.testing.assert_allclose(turned, [[0.5, -1], [0.5, 1], [-0.5, 1], [-0.5, -1]], atol=1e-6)


def test_blocked_grid_of_an_empty_map_is_the_bounds_strip():
    blocked = M.blocked_grid(np.zeros((0, 8), np.float32), 0.5, 0.5)
    assert blocked.shape == (21, 41)  # y 0..10, x 0..20 every 0.5
    free = ~blocked
    assert free.sum() == 39 * 19  # x 0.5..19.5 and y 0.5..9.5
    assert blocked[0].all() and blocked[:, 0].all() and not blocked[1, 1]


def test_blocked_grid_with_a_pillar():
    blocked = M.blocked_grid(pillar_row(10, 5, 1)[None], 0.5, 0.5)
    xs, ys = M.grid_axes(0.5)
    assert blocked[10, 20] and blocked[10, 18]  # (9.0, 5): 1.0 away < 1.5
    assert not blocked[10, 17]  # (8.5, 5): exactly 1.5 away, tangent
    assert xs[17] == 8.5 and ys[10] == 5.0


def test_ascii_preview_of_a_small_map():
    spec = M.map_from_dict(
        {
            "format": 1,
            "id": 70,
            "name": "Ascii",
            "split": "custom",
            "team_size": None,
            "description": "",
            "mirror": True,
            "obstacles": [
                {"type": "pillar", "x": 10, "y": 5, "radius": 0.5},
                {"type": "wall", "x": 6, "y": 9.75, "width": 1, "height": 0.5, "angle_deg": 0},
            ],
            "pads": [[1.5, y] for y in (1.5, 3.25, 5.0, 6.75, 8.5)],
            "red_zone": [0, 0, 4, 10],
        }
    )
    lines = M.render_ascii(spec)
    assert lines[0] == "+" + "-" * 80 + "+" and lines[-1] == lines[0]
    # Row 1 is y 9.5-10: the wall covers x 5.5-6.5, i.e. columns 22-25 (and 54-57 mirrored).
    assert lines[1][1 + 22 : 1 + 26] == "####" and lines[1][1 + 54 : 1 + 58] == "####"
    assert lines[1][1 + 21] == " " and lines[1][1 + 15] == "." and lines[1][1 + 16] == " "
    # The pillar (x 9.5-10.5, y 4.5-5.5) covers columns 38-41 of rows 10 and 11.
    assert lines[11][1 + 38 : 1 + 42] == "OOOO" and lines[11][1 + 37] == " "
    # Pad k sits at column 6 (x 1.5) and its mirror at column 73, row 17 - 2k ... see y.
    assert lines[1 + 17][1 + 6] == "0" and lines[1 + 17][1 + 73] == "0"
    assert lines[1 + 3][1 + 6] == "4"


finite = st.floats(0.0, 20.0, allow_nan=False)


@st.composite
def rows(draw):
    x, y = draw(finite), draw(st.floats(0.0, 10.0))
    if draw(st.booleans()):
        return pillar_row(x, y, draw(st.floats(0.1, 2.0)))
    theta = draw(st.floats(-math.pi, math.pi))
    return wall_row(x, y, draw(st.floats(0.1, 4.0)), draw(st.floats(0.1, 4.0)), theta)


@settings(max_examples=200, deadline=None)
@given(rows(), finite, st.floats(0.0, 10.0), st.floats(0.0, 1.0))
def test_mirroring_preserves_overlap(row, x, y, radius):
    """A disc overlaps an obstacle iff its mirror overlaps the mirrored obstacle, up to
    float32 rounding at the very boundary (checked by bracketing the radius by 1e-4)."""
    image = M.mirror_rows(row)
    got = M.disc_overlaps(image, 20.0 - x, y, radius)[0]
    if M.disc_overlaps(row, x, y, max(radius - 1e-4, 0.0))[0] and radius > 1e-4:
        assert got
    if not M.disc_overlaps(row, x, y, radius + 1e-4)[0]:
        assert not got
    np.testing.assert_allclose(M.mirror_rows(image), row[None], atol=1e-5)


@settings(max_examples=100, deadline=None)
@given(rows(), st.integers(0, 3))
def test_wall_equals_itself_turned_half_a_turn(row, quarter_turns):
    turned = row.copy()
    turned[6] += np.float32(math.pi)
    assert M.same_shape(row, turned)
    if row[0] == 2 and quarter_turns % 2:
        swapped = row.copy()
        swapped[4], swapped[5], swapped[6] = row[5], row[4], row[6] + np.float32(math.pi / 2)
        assert M.same_shape(row, swapped)
