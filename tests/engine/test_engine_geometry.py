"""Line of sight, collisions with obstacles, the map edge and bodies (RULES 1.3, 1.4, 4 step 10)."""

import math

import numpy as np
import pytest

from tests.engine.kit import (
    SW,
    TOL,
    E,
    N,
    W,
    enemy,
    game,
    observe,
    overlapping,
    pillar,
    pos,
    run,
    step,
    wall,
)

approx = pytest.approx


# --- Line of sight -----------------------------------------------------------------------------


@pytest.mark.parametrize("y, clear", [(6.0, False), (6.1, True)])
def test_los_grazing_a_pillar_blocks(y, clear):
    # RULES 1.4: pillar r 1.0 at (10,5). Mages at (7,y) and (13,y), 6.0 apart (= sight, which
    # is inclusive). y = 6: the segment passes exactly 1.0 from the centre: blocked.
    # y = 6.1: 1.1 away: clear.
    s = game("M/M", obstacles=[pillar(10, 5, 1.0)], pos={0: (7, y), 5: (13, y)})
    seen = np.asarray(s.seen)
    assert bool(seen[0, 5]) is clear and bool(seen[5, 0]) is clear


@pytest.mark.parametrize("dy, clear", [(0.0, False), (0.1, True)])
def test_los_touching_a_wall_corner_blocks(dy, clear):
    # Wall 2 x 2 centred at (10,5): corners (9,4)...(11,6). The segment (9,8) -> (13,4) lies on
    # y = 17 - x and touches only the corner (11,6): blocked. Shifted up by 0.1: clear.
    # Length sqrt(32) = 5.657 < 6.
    s = game("M/M", obstacles=[wall(10, 5, 2, 2)], pos={0: (9, 8 + dy), 5: (13, 4 + dy)})
    assert bool(s.seen[0, 5]) is clear


@pytest.mark.parametrize("theta, clear", [(0.0, False), (math.pi / 2, True)])
def test_los_rotated_wall(theta, clear):
    # Wall 4 x 0.2 at (10,5). Unrotated it spans x 8..12 at y = 5 and cuts the vertical
    # segment (8.5,3.5) -> (8.5,6.5); rotated 90 degrees it spans x 9.9..10.1 and does not.
    s = game("M/M", obstacles=[wall(10, 5, 4, 0.2, theta)], pos={0: (8.5, 3.5), 5: (8.5, 6.5)})
    assert bool(s.seen[0, 5]) is clear


def test_agents_never_block_sight():
    # A Mage (A0) at (5,5) sees the B Mage at (10,5) through a B Warrior standing at (7.5,5).
    s = game("M/MW", pos={0: (5, 5), 5: (10, 5), 6: (7.5, 5)})
    assert bool(s.seen[0, 5])


def test_sight_radius_is_the_observers():
    # Hunter (6.5) at (5,5) and Mage (6.0) at (11.3,5): 6.3 apart; the Hunter sees the Mage,
    # not the other way round.
    s = game("H/M", pos={0: (5, 5), 5: (11.3, 5)})
    assert bool(s.seen[0, 5]) and not bool(s.seen[5, 0])


def test_blocked_sight_blocks_targeting():
    # Mage (A0) at (7,5), enemy at (10,5): 3.0 = range, but a pillar r 0.3 at (8.5,5) blocks.
    s = game("M/H", obstacles=[pillar(8.5, 5, 0.3)], pos={0: (7, 5), 5: (10, 5)})
    assert not observe(s).mask.pair[0, enemy(0)].any()
    _, _, _, ev = step(s, {0: (0, enemy(0), 0)})
    assert ev.rejected[0, 2] and not ev.damage_raw.any()


# --- Collisions --------------------------------------------------------------------------------


def test_walking_into_a_pillar_stops_at_tangency():
    # H(A0) at (7,5) walks E 1.0 towards a pillar r 1.0 at (9,5): sub-steps 7.25, 7.5
    # (touching: allowed), 7.75 -> pushed back to 7.5, 8.0 -> 7.5.
    s = game("H/M", obstacles=[pillar(9, 5, 1.0)], pos={0: (7, 5), 5: (18, 9)})
    _, s1, _, _ = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [7.5, 5], atol=TOL)


def test_no_tunnelling_through_a_thin_wall_at_shield_speed():
    # A shielded agent at (8,5) walks E at 2.0 into a wall 0.1 wide at x = 9 (8.95..9.05):
    # sub-step 1 -> 8.5 (0.45 from the face: pushed to 8.45); sub-steps 2-4 -> 8.95, centre on
    # the face, leaves through the nearest (left) face to 8.45. It never reaches x > 9.
    s = game("H/M", obstacles=[wall(9, 5, 0.1, 4)], pos={0: (8, 5), 5: (18, 9)}, shield={0: 3})
    _, s1, _, _ = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [8.45, 5], atol=TOL)


def test_map_edge_clamps_the_centre():
    # (0.7,0.7) walking SW 1.0 ends at the corner (0.5,0.5); (19.2,9.4) walking N: y 9.5.
    s = game("HH/M", pos={0: (0.7, 0.7), 1: (19.2, 9.4), 5: (10, 5)})
    _, s1, _, _ = step(s, {0: (SW, 0, 0), 1: (N, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [0.5, 0.5], atol=1e-6)
    np.testing.assert_allclose(pos(s1, 1), [19.2, 9.5], atol=1e-6)


def test_crowd_pushed_into_a_wall_stays_out_of_it_and_on_the_map():
    # Five A agents packed near a wall 0.4 x 6 at x = 3 (2.8..3.2), all walking W for 4 ticks;
    # a second crowd of B agents walks into them from the east.
    #   wall |  A A A   <- B B
    blockers = [wall(3, 5, 0.4, 6)]
    placed = {k: (4.0 + 0.6 * (k % 2), 3.0 + 0.9 * k) for k in range(5)}
    placed |= {5 + k: (6.5 + 0.3 * k, 3.2 + 0.8 * k) for k in range(5)}
    s = game("MWHRP/MWHRP", obstacles=blockers, pos=placed)
    states, _ = run(
        s, [{k: (W, 0, 0) for k in range(5)} | {5 + k: (E, 0, 0) for k in range(5)}] * 4
    )
    for st in states[1:]:
        p = np.asarray(st.pos)
        assert not overlapping(p, st.obstacles).any()
        assert (p >= 0.5 - 1e-6).all() and (p[:, 0] <= 19.5 + 1e-6).all()
        assert (p[:, 1] <= 9.5 + 1e-6).all()
        assert (p[:, 0] > 3.2).all()  # nobody got through to the wall's far side


def test_coincident_centres_split_along_x_lower_slot_east():
    # Two A agents on the same point (10,5), standing still: the lower slot goes +x.
    s = game("HH/M", pos={0: (10, 5), 1: (10, 5), 5: (18, 9)})
    _, s1, _, _ = step(s)
    assert float(s1.pos[0, 0]) > 10 > float(s1.pos[1, 0])
    assert float(s1.pos[0, 0]) - float(s1.pos[1, 0]) == approx(1.0, abs=1e-3)


def test_dead_bodies_never_collide():
    # A live agent walks E through the spot where a dead agent's body lies.
    s = game("HH/M", pos={0: (5, 5), 1: (6, 5), 5: (18, 9)}, alive={1: False}, health={1: 0.0})
    _, s1, _, _ = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [6, 5], atol=TOL)
    np.testing.assert_allclose(pos(s1, 1), [6, 5], atol=0)


# --- Movement as written in RULES 4 step 10 ----------------------------------------------------


def test_chain_of_bodies_gets_one_pass_per_sub_step():
    # A(A0) at (4.25,5) walks E 1.0; B(A1) at (6,5) and C(A2) at (7,5) stand touching.
    # Sub-steps 1-3 bring A to 5.0 (touching B). Sub-step 4 puts A at 5.25; its one pass
    # (RULES 4 step 10) separates A-B by half the 0.25 overlap each: A 5.125, B 6.125. B-C
    # were 1.0 apart at the start of that pass, so C stays at 7.0 (B-C left 0.875 apart).
    s = game("HHH/M", pos={0: (4.25, 5), 1: (6, 5), 2: (7, 5), 5: (18, 9)})
    _, s1, _, _ = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(np.asarray(s1.pos[:3, 0]), [5.125, 6.125, 7.0], atol=TOL)


def test_wedged_agent_returns_to_its_tick_start():
    # Pillars r 0.5 at (10,5.9) and (10,4.1) leave a 0.8 gap. H(A0) at (9,5) walks E 1.0.
    # Sub-steps 1-2: 9.25, 9.5 (1.03 from each centre: clear). Sub-step 3: 9.75 overlaps both
    # (0.93 < 1.0); the two radial pushes cancel in y and barely move it in x, so it ends the
    # move wedged, and `unstick` (RULES 4 step 10) returns it to its tick start (9, 5).
    s = game("H/M", obstacles=[pillar(10, 5.9, 0.5), pillar(10, 4.1, 0.5)], pos={0: (9, 5)})
    _, s1, _, _ = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [9, 5], atol=TOL)


def test_obstacle_pushes_add_up_whatever_their_order():
    # Two identical pillars r 0.5 at (7,5) (rows 0 and 1). H(A0) at (5.25,5) walks E 1.0:
    # sub-steps 5.5, 5.75, 6.0 (touching), 6.25 -> each pillar pushes it 0.25 back from the same
    # position and the pushes add (RULES 1.3): 6.25 - 0.5 = 5.75, the same in either row order.
    s = game("H/M", obstacles=[pillar(7, 5, 0.5), pillar(7, 5, 0.5)], pos={0: (5.25, 5)})
    _, s1, _, _ = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [5.75, 5], atol=TOL)


def test_sliding_around_one_pillar_never_cancels_the_move():
    # Nine agents, each walking N 1.0 from (x_k + off_k, 3.9) towards its own pillar r 0.5 at
    # (x_k, 5), off_k from 0.02 to 0.27. Each sub-step pushes the agent radially back onto the
    # circle of radius 1.0 around its pillar, so it slides round the pillar's side: a single
    # convex obstacle can never leave it overlapping. Every agent must end on that circle
    # (e.g. off 0.02 from (1.02,3.9): sub-step 1 (1.02,4.15) -> 0.85 from the centre, pushed to
    # (1.0235,4.0003); ... it ends near (1.0557,4.0016)), never back at its start, whose
    # distance from the centre was sqrt(off^2 + 1.21) > 1.1.
    centres = [(1.0 + 2.0 * k, 5.0) for k in range(9)]
    offsets = np.linspace(0.02, 0.27, 9)
    placed = {
        (k if k < 5 else k): (cx + off, 3.9)
        for k, ((cx, _), off) in enumerate(zip(centres, offsets, strict=True))
    }
    s = game("HHHHH/HHHH", obstacles=[pillar(cx, cy, 0.5) for cx, cy in centres], pos=placed)
    _, s1, _, _ = step(s, {k: (N, 0, 0) for k in range(9)})  # N is N for both teams
    p = np.asarray(s1.pos[:9], np.float64)
    gap = np.hypot(p[:, 0] - np.array(centres)[:, 0], p[:, 1] - 5.0)
    np.testing.assert_allclose(gap, 1.0, atol=1e-3)


# --- Contacts as one rounded-rectangle formula and sight tested once a pair (RULES 1.3, 1.4) ---


def _project(points, rows, radius=0.5):
    import jax.numpy as jnp

    from engine import geometry
    from tests.engine.kit import table

    points = jnp.asarray(points, jnp.float32)
    radii = jnp.full(points.shape[0], radius, jnp.float32)
    return np.asarray(geometry.project_all(points, jnp.asarray(table(rows)), radii))


@pytest.mark.parametrize(
    "start, expected",
    [
        ((10.0, 5.0), (11.5, 5.0)),  # on the pillar's centre: +x to r 1.0 + body 0.5
        ((10.0 + 4e-7, 5.0 - 8e-7), (10.0 + 4e-7, 3.5)),  # within 1e-6: the larger offset (-y)
        ((9.2, 5.6), (10.0 - 1.2, 5.0 + 0.9)),  # 1.0 away along (-0.8, 0.6): slid out to 1.5
    ],
)
def test_pushes_out_of_a_pillar(start, expected):
    out = _project([start], [pillar(10, 5, 1.0)])
    np.testing.assert_allclose(out[0], expected, atol=1e-5)


@pytest.mark.parametrize(
    "start, expected",
    [
        ((10.0, 5.0), (11.5, 5.0)),  # the centre of a 2 x 2 wall: the right face wins the tie
        ((9.5, 5.0), (8.5, 5.0)),  # nearer the left face
        ((10.0, 5.8), (10.0, 6.5)),  # nearer the top face
        ((11.3, 5.0), (11.5, 5.0)),  # outside, 0.3 from the right face: along the normal
        ((11.3, 6.4), (11.0 + 0.3, 6.0 + 0.4)),  # 0.5 from the corner (11, 6): touching, kept
    ],
)
def test_pushes_out_of_a_wall(start, expected):
    out = _project([start], [wall(10, 5, 2, 2)])
    np.testing.assert_allclose(out[0], expected, atol=1e-5)


def test_sight_is_one_test_a_pair_and_matches_the_segment_test():
    import jax.numpy as jnp

    from engine import geometry
    from tests.engine.kit import table

    rng = np.random.default_rng(3)
    rows = [pillar(10, 5, 1.0), wall(6, 3, 3, 0.5, 0.4), wall(14, 7, 0.5, 4, -0.2)]
    obstacles = jnp.asarray(table(rows))
    for _ in range(5):
        points = rng.uniform([0.5, 0.5], [19.5, 9.5], (10, 2)).astype(np.float32)
        sight = np.asarray(geometry.line_of_sight(jnp.asarray(points), obstacles))
        i, j = np.triu_indices(10, 1)
        blocked = np.asarray(
            geometry.segments_blocked(
                jnp.asarray(points[i]), jnp.asarray(points[j]), geometry.shapes(obstacles)
            )
        )
        expected = np.eye(10, dtype=bool)
        expected[i, j] = expected[j, i] = ~blocked
        np.testing.assert_array_equal(sight, expected)
        assert 0 < blocked.sum() < blocked.size  # the draw exercises both answers
