"""Sight lines near a goal test only the nearby obstacles and agree with the whole table."""

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine import geometry
from engine.maps import load_map
from policies import scripted_nav as nav

NUM_MAPS = 52  # the shipped ids 0-51


def _table(rows) -> jnp.ndarray:
    """A (32, 8) obstacle table from up to 32 rows, the rest empty (inactive)."""
    rows = np.asarray(rows, np.float32).reshape(-1, 8)
    return jnp.asarray(np.concatenate([rows, np.zeros((32 - len(rows), 8), np.float32)]))


def _points(goal, rng) -> np.ndarray:
    """The 16 seed nodes of a goal and 16 random points within SEED_RADIUS of it: (32, 2)."""
    _, _, nodes = nav._seed_nodes(jnp.asarray(goal))
    angle, reach = rng.uniform(0, 2 * np.pi, 16), nav.SEED_RADIUS * np.sqrt(rng.uniform(0, 1, 16))
    near = goal + np.stack([np.cos(angle), np.sin(angle)], -1) * reach[:, None]
    return np.concatenate([np.asarray(nodes), near]).astype(np.float32)


@jax.jit
@jax.vmap
def _both(points, goal, table):
    """clear and clear_near for points (32, 2), goal (2,), table (32, 8): two (32,) bool."""
    full = nav.clear(points, goal, geometry.shapes(table))
    return full, nav.clear_near(points, goal, nav.sight(goal, table))


def test_culled_sight_lines_agree_with_the_whole_table_on_every_map():
    rng = np.random.default_rng(0)
    points, goals, tables = [], [], []
    for map_id in range(NUM_MAPS):
        obstacles = load_map(map_id).obstacles
        table = _table(obstacles)
        # Goals beside the obstacles, where lines graze them, and anywhere, off the map too.
        beside = np.zeros((0, 2))
        if len(obstacles):
            centres = obstacles[rng.integers(0, len(obstacles), 24), 1:3]
            beside = centres + rng.uniform(-2.5, 2.5, (24, 2))
        anywhere = rng.uniform([-3.0, -3.0], [C.MAP_WIDTH + 3, C.MAP_HEIGHT + 3], (8, 2))
        for goal in np.concatenate([beside, anywhere]).astype(np.float32):
            points.append(_points(goal, rng))
            goals.append(goal)
            tables.append(table)
    full, near = map(np.asarray, _both(*map(jnp.asarray, (points, goals, tables))))
    np.testing.assert_array_equal(near, full)
    assert 0.05 < full.mean() < 0.95  # many lines blocked and many clear: the test has teeth


def test_more_candidates_than_one_round_are_all_tested():
    # 12 thin pillars on a ring of radius 1 round the goal: all 12 are candidates, more than
    # SIGHT_OBSTACLES, so the later ones come from the loop; rays between them stay clear.
    goal = np.array([10.0, 5.0], np.float32)
    angles = np.arange(12) * 2 * np.pi / 12
    ring = [[C.OBSTACLE_PILLAR, 10 + np.cos(a), 5 + np.sin(a), 0.1, 0, 0, 0, 1] for a in angles]
    table = _table(ring)
    seen = nav.sight(jnp.asarray(goal), table)
    assert int(jax.lax.population_count(seen.near)) == 12 > nav.SIGHT_OBSTACLES
    rays = np.arange(24) * 2 * np.pi / 24  # every other ray meets a pillar
    points = (goal + 1.4 * np.stack([np.cos(rays), np.sin(rays)], -1)).astype(np.float32)
    full, near = _both(jnp.asarray(points)[None], jnp.asarray(goal)[None], table[None])
    np.testing.assert_array_equal(np.asarray(near[0]), np.arange(24) % 2 == 1)
    np.testing.assert_array_equal(np.asarray(full[0]), np.arange(24) % 2 == 1)


def test_obstacles_far_from_the_goal_are_left_out():
    pillar = [C.OBSTACLE_PILLAR, 15.0, 5.0, 0.5, 0, 0, 0, 1]
    wall = [C.OBSTACLE_WALL, 5.0, 5.0, 0, 0.5, 4.0, 0.3, 1]
    table = _table([pillar, wall])
    assert int(nav.sight(jnp.array([10.0, 5.0]), table).near) == 0  # both > 3 units off
    assert int(nav.sight(jnp.array([13.5, 5.0]), table).near) == 0b01  # the pillar only
    assert int(nav.sight(jnp.array([6.0, 7.5]), table).near) == 0b10  # the wall only
