"""Collision tests near each body (`geometry.ObstacleIndex`, derived each tick from the obstacle
table) agree with the tests over every obstacle, on any table, however crowded (RULES 1.3)."""

import re

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import combat, geometry, legality, maps
from engine import constants as C
from engine import env as env_module
from engine.pool import pack_pool
from engine.sampling import random_legal_actions
from tests.engine.kit import game, pillar, step, table, wall

SHIPPED = maps.load_maps(range(maps.NUM_MAPS))
TABLES = [table(m.obstacles) for m in SHIPPED]
# Same pushes from the same obstacles, added in the same slot order; the two programs may fuse
# a multiply and an add into one rounding at different places (XLA:CPU), so allow a few ulps.
PUSH_TOL = 2e-6


def _near_and_all(rows, pos, radius):
    index = geometry.obstacle_index(rows)
    return (
        geometry.project_all(pos, rows, radius),
        geometry.project_near(pos, index, radius),
        geometry.any_overlap(pos, rows, radius),
        geometry.overlap_near(pos, index, radius),
        geometry.near_bits(index, pos),
    )


_BOTH = jax.jit(_near_and_all)


def _brute_force_hits(rows, pos, radius) -> np.ndarray:
    """(n, 32) bool: does each disc overlap each slot, testing each slot in a table of its own."""
    alone = np.zeros((C.MAX_OBSTACLES,) + rows.shape, np.float32)
    alone[np.arange(C.MAX_OBSTACLES), np.arange(C.MAX_OBSTACLES)] = rows
    radii = jnp.full(len(pos), radius, jnp.float32)
    per_slot = jax.jit(jax.vmap(lambda t: geometry.any_overlap(jnp.asarray(pos), t, radii)))
    return np.asarray(per_slot(jnp.asarray(alone))).T


def _compare(rows, points, radius):
    radii = jnp.full(points.shape[0], radius, jnp.float32)
    out = _BOTH(jnp.asarray(rows), jnp.asarray(points, jnp.float32), radii)
    return [np.asarray(a) for a in out]


def _bits_to_slots(bits) -> np.ndarray:
    return (np.asarray(bits, np.uint64)[:, None] >> np.arange(32, dtype=np.uint64)) & 1 == 1


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
    dense, near, dense_hit, near_hit, _ = _compare(TABLES[map_index], points, radius)
    np.testing.assert_array_equal(near_hit, dense_hit)
    np.testing.assert_allclose(near, dense, rtol=0, atol=PUSH_TOL)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_reach_boxes_hold_every_obstacle_a_body_touches(seed):
    # Random pillars and rotated walls, packed close, against bodies anywhere near them: the
    # candidate bits are a superset of the brute-force hits (all 32 slots tested alone).
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(12):
        x, y = rng.uniform(8.0, 12.0), rng.uniform(3.0, 7.0)
        if rng.random() < 0.5:
            rows.append(pillar(x, y, rng.uniform(0.1, 1.0)))
        else:
            size = rng.uniform(0.05, 3.0, 2)
            rows.append(wall(x, y, *size, theta=rng.uniform(-np.pi, np.pi)))
    rows = table(rows)
    points = rng.uniform([7.0, 2.0], [13.0, 8.0], size=(24, 2)).astype(np.float32)
    dense, near, dense_hit, near_hit, bits = _compare(rows, points, 0.5)
    touched = _brute_force_hits(rows, points, 0.5)
    candidates = _bits_to_slots(bits)
    assert not (touched & ~candidates).any()
    np.testing.assert_array_equal(touched.any(axis=1), dense_hit)
    np.testing.assert_array_equal(near_hit, dense_hit)
    np.testing.assert_allclose(near, dense, rtol=0, atol=PUSH_TOL)


def _ring(centre, count, skip=()):
    # Pillars of radius 0.2 on a circle of radius 0.5 round `centre`: a body of radius 0.5 at
    # the centre overlaps each one by 0.2 and is pushed 0.2 straight away from it.
    cx, cy = centre
    angles = [2 * np.pi * k / count for k in range(count) if k not in skip]
    return [pillar(cx + 0.5 * np.cos(a), cy + 0.5 * np.sin(a), 0.2) for a in angles]


def test_a_body_among_more_obstacles_than_one_round_tests():
    # Five of a ring of six pillars: more than C.NEAR_OBSTACLES at once, so the extra round
    # runs. The five pushes -0.2 u_k sum to +0.2 u_5, u_5 = (cos 300, sin 300) = (0.5, -0.866).
    centre = (10.5, 5.5)
    rows = table([pillar(3.0, 3.0, 0.5)] + _ring(centre, 6, skip={5}) + [wall(15.0, 5.0, 1.0, 1.0)])
    points = np.array([centre, (3.0, 3.6), (1.0, 1.0)], np.float32)
    dense, near, dense_hit, near_hit, bits = _compare(rows, points, 0.5)
    assert bin(int(bits[0])).count("1") == 5 > C.NEAR_OBSTACLES
    assert near_hit.tolist() == dense_hit.tolist() == [True, True, False]
    expected = np.array([10.5 + 0.1, 5.5 - 0.2 * np.sin(np.pi / 3)], np.float32)
    np.testing.assert_allclose(near[0], expected, rtol=0, atol=1e-5)
    np.testing.assert_allclose(near, dense, rtol=0, atol=PUSH_TOL)
    assert near[2].tobytes() == points[2].tobytes()  # touching nothing: unchanged, bit for bit


def test_a_full_ring_of_32_pillars_is_tested_whole():
    # Every slot round one body: eight rounds of four; the 32 pushes cancel (a symmetric ring).
    centre = (10.0, 5.0)
    rows = table(_ring(centre, 32))
    dense, near, dense_hit, near_hit, bits = _compare(rows, np.array([centre], np.float32), 0.5)
    assert int(bits[0]) == 2**32 - 1 and bool(near_hit[0]) and bool(dense_hit[0])
    np.testing.assert_allclose(near[0], centre, rtol=0, atol=1e-5)
    np.testing.assert_allclose(near, dense, rtol=0, atol=PUSH_TOL)


def test_take_slots_lists_the_lowest_bits_in_order_then_the_empty_row():
    bits = jnp.asarray([0b1011_0100, 0, 2**31, 2**32 - 1], jnp.uint32)
    slots, rest = geometry.take_slots(bits, 4)
    assert np.asarray(slots).tolist() == [
        [2, 4, 5, 7],
        [32, 32, 32, 32],
        [31, 32, 32, 32],
        [0, 1, 2, 3],
    ]
    assert np.asarray(rest).tolist() == [0, 0, 0, 2**32 - 16]


def test_reach_boxes_of_a_pillar_a_rotated_wall_and_an_empty_slot():
    rows = table([pillar(3.5, 3.5, 0.5), wall(15.0, 5.0, 2.0, 1.0, np.pi / 2)])
    reach = np.asarray(geometry.obstacle_index(jnp.asarray(rows)).reach)
    grow = C.NEAR_REACH
    # The pillar's disc grown by 0.501; the wall turned a quarter: 1 wide in x, 2 tall in y.
    np.testing.assert_allclose(reach[:, 0], [3.0 - grow, 4.0 + grow, 3.0 - grow, 4.0 + grow])
    np.testing.assert_allclose(
        reach[:, 1], [14.5 - grow, 15.5 + grow, 4.0 - grow, 6.0 + grow], atol=1e-6
    )
    assert np.isposinf(reach[0, 2:]).all() and np.isneginf(reach[1, 2:]).all()


def _near_only(rows, pos, radius):
    index = geometry.obstacle_index(rows)
    return geometry.project_near(pos, index, radius), geometry.overlap_near(pos, index, radius)


def test_jit_and_op_by_op_agree_and_a_batch_matches_single_games():
    centre = (10.5, 5.5)
    rows = jnp.asarray(table(_ring(centre, 6, skip={5}) + [wall(12.0, 5.0, 0.4, 3.0, 0.3)]))
    rng = np.random.default_rng(3)
    points = jnp.asarray(rng.uniform([9.0, 4.0], [13.0, 7.0], (16, 2)), jnp.float32)
    points = points.at[0].set(jnp.asarray(centre, jnp.float32))  # five pillars: two rounds
    radius = jnp.full(16, 0.5, jnp.float32)
    jitted = jax.jit(_near_only)(rows, points, radius)
    with jax.disable_jit():
        op_by_op = _near_only(rows, points, radius)
    np.testing.assert_array_equal(jitted[1], op_by_op[1])
    np.testing.assert_allclose(jitted[0], op_by_op[0], rtol=0, atol=PUSH_TOL)
    # Four games (the scene shifted about the map) vmapped, and each game as its own call.
    shifts = jnp.asarray([[0.0, 0.0], [-1.0, 0.5], [1.5, -0.5], [-3.0, 1.0]], jnp.float32)
    tables = jnp.stack([rows.at[:, 1:3].add(s) for s in shifts])
    games = points[None] + shifts[:, None]
    batched = jax.jit(jax.vmap(_near_only, in_axes=(0, 0, None)))(tables, games, radius)
    for g in range(4):
        single = jax.jit(_near_only)(tables[g], games[g], radius)
        for a, b in zip(batched, single, strict=True):
            assert np.asarray(a[g]).tobytes() == np.asarray(b).tobytes()


def test_a_crowded_map_is_played_and_nobody_ends_inside_an_obstacle():
    # Once refused (more than 8 obstacles within reach of one cell), now an ordinary map: the
    # Mage walks east into five pillars round (10.5, 5.5) and is stopped clear of them all.
    crowd = _ring((10.5, 5.5), 6, skip={3}) + [pillar(10.5, 5.5, 0.1)]
    crowd += [pillar(10.5 + dx, 5.5 + dy, 0.1) for dx in (-0.9, 0.9) for dy in (-0.9, 0.9)]
    pack_pool([np.asarray(crowd, np.float32)], ["M/M"], map_ids=[7])
    state = game("M/M", obstacles=crowd, pos={0: (8.8, 5.5)})
    east = C.MOVE_NAMES.index("E")
    for _ in range(10):
        state = step(state, {0: (east, 0, 0)})[1]
    x, y = np.asarray(state.pos[0], np.float64)
    assert 9.0 < x < 10.5 and abs(y - 5.5) < 1e-4
    assert not bool(geometry.any_overlap(state.pos[:1], state.obstacles, jnp.asarray([0.499]))[0])


def test_a_crowded_map_file_loads():
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
    spec = maps.map_from_dict(doc, "crowd.json")
    assert len(spec.obstacles) == 18  # nine authored, nine mirrored about x = 10


def _fusion_dims(hlo: str, op: str) -> list[list[int]]:
    """The result dims of each fusion whose fused computation evaluates `op` (optimised HLO)."""
    bodies = dict(re.findall(r"^%(\S+) [^\n]*\{\n(.*?)^\}", hlo, flags=re.M | re.S))
    with_op = {name for name, body in bodies.items() if f" {op}(" in body}
    calls = re.findall(r"= \w+\[([\d,]*)\]\S* fusion\(.*?calls=%([\w.\-]+)", hlo)
    return [[int(d) for d in dims.split(",")] for dims, called in calls if called in with_op]


def test_the_obstacle_trigonometry_runs_once_per_slot_not_per_body_and_slot():
    # Fused into each candidate test, XLA:CPU evaluated the walls' cos and sin for every body
    # and slot, three times a tick outside the sub-step loop (issue #26): fusions of shape
    # (games, 10) evaluating a cosine. Movement over 4 games, as `Env.step` runs it.
    env = engine.make(maps="train", rosters=["MWHRP/MWHRP"])
    keys = jax.random.split(jax.random.PRNGKey(0), 4)
    obs, state = jax.vmap(env.reset)(keys)
    acts = jax.vmap(random_legal_actions)(keys, obs.mask)

    def move(state, actions):
        accepted, _ = combat.accept(actions, legality.masks(state))
        lane, recipient = combat.route(accepted)
        return env_module._move(env.config, state, accepted, lane, recipient)

    hlo = jax.jit(jax.vmap(move)).lower(state, acts).compile().as_text()
    dims = _fusion_dims(hlo, "cosine")
    assert dims and all(C.NUM_SLOTS not in d for d in dims), dims
