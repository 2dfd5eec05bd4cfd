"""Collision tests near each body (the obstacle grid) agree with tests over every obstacle, and
the crowding bound they rely on is checked on every way a table enters (RULES 1.3)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Config, geometry, maps, validation
from engine import constants as C
from engine.pool import pack_pool
from tests.engine.kit import game, pillar, table, wall

SHIPPED = maps.load_maps(range(maps.NUM_MAPS))
TABLES = [table(m.obstacles) for m in SHIPPED]


@jax.jit
def _both(rows, cells, pos, radius):
    grid = geometry.obstacle_grid(rows, cells)
    return (
        geometry.project_all(pos, rows, radius),
        geometry.project_near(pos, grid, radius),
        geometry.any_overlap(pos, rows, radius),
        geometry.overlap_near(pos, grid, radius),
    )


def _compare(rows, points, radius):
    rows = jnp.asarray(rows)
    cells = jnp.asarray(validation.cell_obstacles(rows))
    radii = jnp.full(points.shape[0], radius, jnp.float32)
    return [np.asarray(a) for a in _both(rows, cells, jnp.asarray(points, jnp.float32), radii)]


@settings(max_examples=40, deadline=None)
@given(
    map_index=st.integers(0, len(SHIPPED) - 1),
    seed=st.integers(0, 2**31 - 1),
    radius=st.sampled_from([0.5, 0.5 - C.STUCK_TOLERANCE, 0.3]),
)
def test_near_tests_equal_the_tests_over_all_obstacles(map_index, seed, radius):
    rng = np.random.default_rng(seed)
    low, high = radius, np.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - radius
    points = rng.uniform(low, high, size=(64, 2)).astype(np.float32)
    dense, near, dense_hit, near_hit = _compare(TABLES[map_index], points, radius)
    np.testing.assert_array_equal(near_hit, dense_hit)
    # Same pushes summed over 8 listed slots instead of 32: equal up to summation order.
    np.testing.assert_allclose(near, dense, rtol=0, atol=2e-6)


def test_bodies_on_cell_edges_and_map_corners_see_their_obstacles():
    rows = [pillar(3.0, 3.0, 1.0), wall(10.0, 5.0, 0.4, 4.0), pillar(19.4, 9.4, 0.4)]
    points = np.array(
        [[2.0, 3.0], [4.0, 4.0], [9.5, 3.0], [10.3, 7.0], [19.5, 9.5], [0.5, 0.5], [20.0, 10.0]],
        np.float32,
    )
    dense, near, dense_hit, near_hit = _compare(table(rows), points, 0.5)
    assert dense_hit.tolist() == [True, True, True, True, True, False, True]
    np.testing.assert_array_equal(near_hit, dense_hit)
    np.testing.assert_allclose(near, dense, rtol=0, atol=2e-6)


def test_cells_list_their_slots_in_order_then_the_empty_slot():
    # Pillar r 0.5 at (3.5, 3.5): reach 0.5 + 0.5 + 0.708 from a cell centre covers the cell
    # and its 8 neighbours (centres 1.0 or 1.41 away), nothing 2 cells away.
    cells, counts = (
        np.asarray(a)
        for a in geometry.cell_obstacles(
            jnp.asarray(table([wall(15.0, 5.0, 1.0, 1.0), pillar(3.5, 3.5, 0.5)]))
        )
    )
    near_pillar = {y * C.GRID_COLS + x for x in (2, 3, 4) for y in (2, 3, 4)}
    listed = {int(c) for c in np.flatnonzero((cells == 1).any(axis=1))}
    assert listed == near_pillar
    assert cells[3 * C.GRID_COLS + 3].tolist() == [1] + [C.MAX_OBSTACLES] * 7
    assert cells[5 * C.GRID_COLS + 15].tolist() == [0] + [C.MAX_OBSTACLES] * 7
    # The 1 x 1 wall at (15, 5) reaches cell centres up to 1.208 away: a 4 x 4 block of cells
    # round it less its corners (centres sqrt(2) away).
    assert counts.max() == 1 and counts.sum() == 9 + 12


def test_shipped_maps_fit_the_cell_bound():
    worst = max(int(np.asarray(geometry.cell_obstacles(jnp.asarray(t))[1]).max()) for t in TABLES)
    assert worst <= C.CELL_OBSTACLES
    assert worst == 4  # what the shipped maps need today (headroom for authored maps)


def _crowded():
    # Nine small pillars round the cell [10, 11] x [5, 6], all within a body's reach of it.
    return [pillar(10.5 + dx, 5.5 + dy, 0.1) for dx in (-0.9, 0, 0.9) for dy in (-0.9, 0, 0.9)]


def test_a_crowded_table_is_refused_naming_the_cell():
    with pytest.raises(ValueError, match=r"obstacles: 9 obstacles .* cell \[10, 11\] x \[5, 6\]"):
        game("M/M", obstacles=_crowded())


def test_a_crowded_pool_map_is_refused_naming_the_map():
    with pytest.raises(ValueError, match=r"pool: map 7: 9 obstacles"):
        pack_pool([np.asarray(_crowded(), np.float32)], ["M/M"], map_ids=[7])


def test_a_crowded_map_file_is_refused_naming_the_field():
    crowd = [
        {"type": "pillar", "x": 6.5 + dx, "y": 5.5 + dy, "radius": 0.1}
        for dx in (-0.9, 0, 0.9)
        for dy in (-0.9, 0, 0.9)
    ]
    doc = {
        "format": 1,
        "id": 70,
        "name": "Crowd",
        "split": "custom",
        "team_size": None,
        "description": "",
        "mirror": True,
        "obstacles": crowd,
        "pads": [[1.5, y] for y in (1.5, 3.25, 5.0, 6.75, 8.5)],
        "red_zone": [0, 0, 4, 10],
    }
    with pytest.raises(
        maps.MapError, match=r"crowd.json: field 'obstacles': 9 obstacles .*\[6, 7\]"
    ):
        maps.map_from_dict(doc, "crowd.json")


def test_an_authored_state_with_a_stale_cell_table_is_refused():
    state = game("M/M", obstacles=[pillar(10.0, 5.0, 1.0)])
    stale = state.replace(cell_obstacles=jnp.full_like(state.cell_obstacles, C.MAX_OBSTACLES))
    validation.check_state(Config(), state)
    with pytest.raises(ValueError, match="cell_obstacles"):
        validation.check_state(Config(), stale)
