"""Observations: team frame, context, hidden information and the shared_obs relay (RULES 5)."""

import jax
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import constants as C
from engine.types import CONTEXT, ROW, ROW_DIM, Config
from tests.engine.kit import (
    CONFIG,
    NW,
    OBSERVE,
    STAY,
    TOL,
    E,
    N,
    W,
    edit,
    enemy,
    game,
    observe,
    pillar,
    run,
    step,
    wall,
)

approx = pytest.approx


def row_of(observer: int, slot: int) -> int:
    """Row of `slot` in `observer`'s units (own team first, RULES 5.1)."""
    return int(np.where(C.RELATIVE_ORDER[observer] == slot)[0][0])


# --- Team frame --------------------------------------------------------------------------------


def test_team_frame_worked_example():
    # RULES 5.8: Team A spawns west, so B plays mirrored. B's Hunter at world (15,4) sees itself
    # at (5,4) and A's Mage at world (12,6) at (8,6): dx 3, dy 2, distance sqrt(13) = 3.606.
    # A's Mage sees the world as it is: the Hunter at (15,4), dx 3, dy -2.
    s = game("M/H", pos={0: (12, 6), 5: (15, 4)})
    obs = observe(s)
    me = obs.units[5, 0]
    assert (me[ROW["x"]], me[ROW["y"]], me[ROW["is_self"]]) == (5.0, 4.0, 1.0)
    foe = obs.units[5, row_of(5, 0)]
    assert foe[[ROW["x"], ROW["y"], ROW["dx"], ROW["dy"]]] == approx([8, 6, 3, 2], abs=TOL)
    assert foe[ROW["distance"]] == approx(13**0.5, abs=TOL)
    assert foe[ROW["is_ally"]] == 0.0 and foe[ROW["class_mage"]] == 1.0
    seen_by_a = obs.units[0, row_of(0, 5)]
    assert seen_by_a[[ROW["x"], ROW["y"], ROW["dx"], ROW["dy"]]] == approx([15, 4, 3, -2])
    # B's move 3 (E) walks to world x = 14.
    _, s1, _, _ = step(s, {5: (E, 0, 0)})
    assert np.asarray(s1.pos[5]) == approx([14, 4], abs=TOL)


def test_obstacles_are_mirrored_for_the_east_team():
    rows = [pillar(12, 2, 0.5), wall(5, 8, 2, 0.4, 0.3)]
    obs = observe(game("M/M", obstacles=rows))
    np.testing.assert_array_equal(obs.obstacles[0, :2], np.asarray(rows, np.float32))
    east = obs.obstacles[5]
    assert east[0, C.OBS_X] == 8.0 and east[1, C.OBS_X] == 15.0
    assert east[1, C.OBS_THETA] == approx(-0.3) and east[0, C.OBS_Y] == 2.0
    assert not east[2:].any()  # empty rows stay all zero


def test_world_frame_option_turns_mirroring_off():
    # Config(world_frame=True), for debugging: B's Hunter at world (15,4) sees itself at x 15
    # and the obstacle table as it is.
    s = game("M/H", obstacles=[pillar(12, 2, 0.5)], pos={0: (12, 6), 5: (15, 4)})
    obs = jax.device_get(OBSERVE(Config(world_frame=True), s, None))
    assert obs.units[5, 0, ROW["x"]] == 15.0
    assert obs.units[5, row_of(5, 0), ROW["dx"]] == approx(-3.0, abs=TOL)
    assert obs.obstacles[5, 0, C.OBS_X] == 12.0


def test_previous_actions_in_each_observers_frame_and_categories():
    # A's Hunter (A0) at (12,6) walks N and shoots B's Hunter (B5) at (14,5) (2.24 apart):
    # category enemy0. B5 walks its own E (world W) and shoots A0.
    # Observer B5 sees A0's target as its own ally0 (category 1) and A0's move N as N;
    # observer A0 sees B5's move as world W (4) and its target (A0) as ally0 (category 1).
    s = game("H/H", pos={0: (12, 6), 5: (14, 5)})
    obs, _, _, _ = step(s, {0: (N, enemy(0), 0), 5: (E, enemy(0), 0)})
    assert obs.prev_action[5, row_of(5, 0)].tolist() == [N, 1, 0]
    assert obs.prev_action[5, 0].tolist() == [E, enemy(0), 0]
    assert obs.prev_action[0, row_of(0, 5)].tolist() == [W, 1, 0]
    assert obs.prev_action[0, 0].tolist() == [N, enemy(0), 0]
    # Before any tick there is no history.
    assert (observe(s).prev_action == -1).all()


# --- Context, public rows, dead observers ------------------------------------------------------


def test_context_features_per_team():
    s = game(
        "MWH/RP",
        pos={0: (5, 5), 1: (5, 7), 2: (5, 3), 5: (15, 5), 6: (15, 7)},
        alive={1: False},
        health={1: 0.0},
        tick=37,
        score=np.array([5, 9]),
        wave_clock=np.array([2, 0]),
    )
    ctx = observe(s).context
    names = ["tick", "ticks_left", "own_score", "opp_score", "score_threshold"]
    names += ["own_team_size", "opp_team_size", "own_alive", "opp_alive"]
    names += ["own_wave_clock", "opp_wave_clock", "shared_obs"]
    cols = [CONTEXT[n] for n in names]
    assert ctx[0, cols].tolist() == [37, 263, 5, 9, 20, 3, 2, 2, 2, 2, 0, 1]
    assert ctx[5, cols].tolist() == [37, 263, 9, 5, 20, 2, 3, 2, 2, 0, 2, 1]
    np.testing.assert_array_equal(ctx[1], ctx[0])  # a dead agent keeps its context
    assert not ctx[3].any() and not ctx[9].any()  # unused slots: nothing
    assert observe(s, shared_obs=False).context[0, CONTEXT["shared_obs"]] == 0.0


def test_dead_observer_sees_nothing_directly_but_public_rows_remain():
    s = game("MW/H", pos={0: (5, 5), 1: (5, 6), 5: (8, 5)}, alive={1: False}, health={1: 0.0})
    obs = observe(s)
    assert not obs.units[1].any() and not obs.visible[1].any()
    assert obs.public[1, :2, 1].tolist() == [1.0, 0.0]  # alive flags of ally0, itself
    assert obs.public[1, 5].tolist() == [1.0, 1.0, 0.0]
    assert not obs.mask.pair[1, 1:].any()


def test_world_state_hides_nothing():
    # The hidden enemy (14 units away) is in every critic row, with `relayed` 0.
    s = game("M/H", pos={0: (3, 5), 5: (17, 5)}, health={5: 42.0})
    assert not bool(s.seen[0, 5])
    ws = np.asarray(jax.jit(engine.world_state, static_argnums=0)(CONFIG, s))
    assert ws.shape == (10, 10 * ROW_DIM + len(CONTEXT))
    enemy_row = ws[0, row_of(0, 5) * ROW_DIM : (row_of(0, 5) + 1) * ROW_DIM]
    assert enemy_row[ROW["health"]] == 42.0 and enemy_row[ROW["relayed"]] == 0.0


# --- Hidden information ------------------------------------------------------------------------


def team_a_view(obs):
    return jax.tree_util.tree_map(lambda x: np.asarray(x)[:5], obs)


@settings(max_examples=15, deadline=None)
@given(
    health=st.floats(1.0, 100.0, width=32),
    x=st.floats(16.0, 19.5, width=32),
    y=st.floats(0.5, 9.5, width=32),
    cooldown=st.integers(0, 30),
    ooc=st.integers(0, 3),
    statuses=st.tuples(*(st.integers(0, int(d)) for d in C.STATUS_DURATION)),
)
def test_changing_a_hidden_enemy_changes_no_observation(health, x, y, cooldown, ooc, statuses):
    # Team A at x <= 5, B's Rogue somewhere at x >= 16: more than 6.5 from everyone in A.
    base = game("MHP/RW", pos={0: (3, 5), 1: (5, 2), 2: (4, 8), 5: (18, 5), 6: (15, 9)})
    assert not np.asarray(base.seen)[:5, 5].any()
    status = {(5, c): n for c, n in enumerate(statuses)}
    status[(5, C.CHARGE_STUN)] = status[(5, C.TRAP_STUN)] = status[(5, C.POISON_STUN)] = 0
    hidden = edit(base, pos={5: (x, y)}, health={5: health}, cooldown={5: cooldown}, ooc={5: ooc})
    hidden = edit(hidden, status=status)
    for history in (False, True):  # with history, `previous` feeds the relay
        a, b = edit(base, has_prev=history), edit(hidden, has_prev=history)
        for view_a, view_b in [(observe(a), observe(b)), (observe(a, a), observe(b, b))]:
            jax.tree_util.tree_map(
                np.testing.assert_array_equal, team_a_view(view_a), team_a_view(view_b)
            )


# --- The shared_obs relay (RULES 5.7) ----------------------------------------------------------


def relay_scene(pos=None, **changes):
    # Hunter H(A0) at (8,5) sees B's Rogue R(B5) at (14.3,5) (6.3 <= 6.5); Mage M(A1) at (8,8)
    # does not (6.98 > 6). Mage M'(B6) at (8,2.2), 2.8 from H and 5.8 from M.
    placed = {0: (8, 5), 1: (8, 8), 5: (14.3, 5), 6: (8, 2.2)} | (pos or {})
    return game("HM/RM", pos=placed, **changes)


def test_relayed_row_arrives_one_tick_late_with_old_data():
    # Tick 0: R walks N 1.3 to (14.3,6.3), still 6.53 > 6 from M. State 1: M's row for R is
    # relayed from H's sighting in state 0: x 14.3, y 5, offsets from M's position now:
    # dx 6.3, dy -3, distance 6.978.
    s0 = relay_scene()
    assert not observe(s0).relayed.any()  # nothing on the first tick
    obs, s1, _, _ = step(s0, {5: (N, 0, 0)})
    r = row_of(1, 5)
    assert obs.relayed[1, r] and not obs.visible[1, r]
    row = obs.units[1, r]
    got = row[[ROW["x"], ROW["y"], ROW["dx"], ROW["dy"], ROW["relayed"]]]
    assert got == approx([14.3, 5.0, 6.3, -3.0, 1.0], abs=TOL)
    assert row[ROW["distance"]] == approx((6.3**2 + 9) ** 0.5, abs=TOL)
    assert obs.visible[0, r] and not obs.relayed[0, r]  # H still sees R itself
    plain = observe(s1, s0, shared_obs=False)
    assert not plain.relayed.any() and not plain.units[1, r].any()


def test_nothing_relayed_from_a_dead_teammate():
    # H (3 HP) is killed by M' on tick 0: in state 1 nobody alive saw R in state 0.
    s0 = relay_scene(health={0: 3.0})
    obs, s1, _, ev = step(s0, {6: (STAY, enemy(0), 0)})
    assert ev.died[0]
    assert not obs.relayed[1].any() and not obs.units[1, row_of(1, 5)].any()


def test_nothing_relayed_into_a_fresh_game():
    # After auto-reset the new state has no history (has_prev False): nothing is relayed even
    # when `previous` is the old game's last state.
    s0 = relay_scene()
    _, s1, _, _ = step(s0)
    assert not observe(relay_scene(), previous=s1).relayed.any()


def test_relayed_row_never_makes_a_target_legal():
    # M(A1) at (10,8) has R(B5) at (12,8) in Basic range, but a pillar at (11,8) blocks its
    # sight; H(A0) at (12,5.5) sees R. State 1: M's row for R is relayed, the Basic illegal.
    s0 = game("HM/R", obstacles=[pillar(11, 8, 0.3)], pos={0: (12, 5.5), 1: (10, 8), 5: (12, 8)})
    obs, _, _, _ = step(s0)
    assert obs.relayed[1, row_of(1, 5)]
    assert not obs.mask.pair[1, enemy(0)].any()


def test_dead_observer_receives_no_relayed_rows():
    # M (3 HP) is killed by M' (moved to (10,8), 2.0 away) on tick 0; H, alive, saw R in state 0.
    # RULES 5.7: only a living observer is sent teammates' sightings.
    s0 = relay_scene(health={1: 3.0}, pos={6: (10, 8)})
    obs, _, _, ev = step(s0, {6: (STAY, enemy(1), 0)})
    assert ev.died[1]
    assert not obs.relayed[1].any() and not obs.units[1].any()


def hidden_move_runs():
    # Tick 0: R walks N to (14.3,6.3), seen by H (6.43). Tick 1: R leaves everyone's sight,
    # walking its own W (world E, to (15.6,6.3), 7.7 from H) or its own NW (world NE, to
    # (15.22,7.22), 7.5 from H). State 2: M's row for R is relayed from H's sighting of
    # state 1, in both runs.
    s0 = relay_scene(pos={6: (3, 2)})
    states, _ = run(s0, [{5: (N, 0, 0)}])
    runs = []
    for move in (W, NW):
        obs, s2, _, _ = step(states[1], {5: (move, 0, 0)})
        assert not np.asarray(s2.seen)[:5, 5].any()
        runs.append(team_a_view(obs))
    return runs


def test_relayed_row_does_not_reveal_the_hidden_move_position():
    a, b = hidden_move_runs()
    assert a.relayed[1, row_of(1, 5)]
    for field in ("units", "visible", "relayed", "public", "context"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field), field)


def test_relayed_previous_action_is_as_of_the_sighting():
    a, b = hidden_move_runs()
    np.testing.assert_array_equal(a.prev_action, b.prev_action)
    assert a.prev_action[1, row_of(1, 5)].tolist() == [N, 0, 0]


def test_unit_row_columns_show_what_the_coming_tick_applies():
    # Two A Mages 1.5 apart at x <= 4 (in A's Red Zone); A1 with cooldown 7, ooc 2 and
    # poison_slow 3; B's Warrior at world (17,5) in its own zone (x >= 16), seen by nobody.
    s = game(
        "MM/W",
        pos={0: (3, 5), 1: (3, 6.5), 5: (17, 5)},
        cooldown={1: 7},
        ooc={1: 2},
        status={(1, C.POISON_SLOW): 3},
    )
    obs = observe(s)
    row = obs.units[0, 1]
    cols = ["aura_out", "aura_in", "in_red_zone", "cooldown", "ooc", "speed", "status_poison_slow"]
    assert row[[ROW[c] for c in cols]] == approx([1.3225, 1.0, 1.0, 7, 2, 0.5, 3], abs=1e-6)
    assert row[ROW["health"]] == 80.0 and row[ROW["health_frac"]] == 1.0
    me = obs.units[5, 0]
    assert me[ROW["in_red_zone"]] == 1.0 and me[ROW["aura_in"]] == approx(0.85)
    assert me[ROW["x"]] == 3.0  # mirrored: 20 - 17
    _, _, _, ev = step(s, {0: (STAY, 0, 0)})
    assert ev.aura_out[1] == approx(row[ROW["aura_out"]])
