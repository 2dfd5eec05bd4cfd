"""Cooldowns across death, respawn waves, the spawn shield and the Red Zone (RULES 1.6, 4.2, 7)."""

import numpy as np
import pytest

from engine import constants as C
from engine.types import ROW
from tests.engine.kit import STAY, TOL, E, W, ally, edit, enemy, game, observe, pos, run, step

approx = pytest.approx


def test_cooldown_keeps_running_while_dead():
    # RULES 7.10. X = Hunter(A0) at (8,5); Rogue(B5) at (10,5); Mage(B6) at (8,7.5).
    # Tick 1: X traps the Rogue (state 2: cooldown 30). Tick 2: X (10 HP) is killed by the
    # Mage (14.95). Dead in states 3-4; wave on tick 4; state 5: back on pad 0 (1.5,1.5) with
    # full health, shield 3, no statuses, cooldown 30 - 3 = 27; state 31: 1; state 32: 0.
    s = game("H/RM", pos={0: (8, 5), 5: (10, 5), 6: (8, 7.5)})
    states, _ = run(s, [{}, {0: (STAY, enemy(0), 1)}])
    assert int(states[2].cooldown[0]) == 30
    s = edit(states[2], health={0: 10.0})
    states, events = run(s, [{6: (STAY, enemy(0), 0)}, {}, {}])
    assert events[0].died[0]
    assert [int(x.cooldown[0]) for x in states] == [30, 29, 28, 27]
    back = states[3]
    assert bool(back.alive[0]) and int(back.shield[0]) == 3 and int(back.tick) == 5
    np.testing.assert_array_equal(pos(back, 0), [1.5, 1.5])
    assert float(back.health[0]) == 100.0 and int(back.ooc[0]) == 0
    assert not np.asarray(back.status[0]).any()
    states, events = run(back, [{}] * 27)
    assert int(states[26].cooldown[0]) == 1 and int(states[27].cooldown[0]) == 0
    assert int(states[27].tick) == 32 and events[26].cooldown_ready[0]


@pytest.mark.parametrize(
    "death_tick, back_state",
    # Waves fire on the ticks starting at 4, 9, 14 (clock 0 in states 4, 9, 14). An agent
    # dead at the start of a wave tick comes back in the next state; one dying on the wave
    # tick itself waits a full period.
    [(0, 5), (2, 5), (3, 5), (4, 10), (8, 10), (9, 15)],
)
def test_respawn_wave_phase(death_tick, back_state):
    # Victim H(A0) at (8,5), killer M(B5) at (10,5); H's health is set to 5 before the fatal
    # tick (one 14.95 Basic kills it).
    s = game("H/M", pos={0: (8, 5), 5: (10, 5)})
    states, _ = run(s, [{}] * death_tick)
    s = edit(states[-1], health={0: 5.0})
    states, events = run(s, [{5: (STAY, enemy(0), 0)}] + [{}] * (back_state - death_tick - 1))
    assert events[0].died[0]
    alive = [bool(x.alive[0]) for x in states[1:]]
    assert alive == [False] * (len(alive) - 1) + [True]
    assert events[-1].respawned[0] and int(states[-1].shield[0]) == 3


def test_wave_clocks_and_wave_events():
    # Clocks read 4,3,2,1,0 in states 0-4, then 4 again; waves on ticks 4, 9, 14 for both
    # teams even when nobody is dead.
    states, events = run(game("M/M"), [{}] * 15)
    assert [int(x.wave_clock[0]) for x in states[:11]] == [4, 3, 2, 1, 0, 4, 3, 2, 1, 0, 4]
    assert [t for t, ev in enumerate(events) if ev.wave.any()] == [4, 9, 14]
    assert all(events[t].wave.all() for t in (4, 9, 14))


def test_revived_agent_walks_out_of_red_zone_at_shield_speed():
    # RULES 7.10: X killed on tick 2 respawns in state 5 at (1.5,1.5) and walks E at 2.0:
    # 3.5, 5.5, 7.5 in states 6, 7, 8; shield 3, 2, 1, 0 in states 5-8.
    s = game("H/M", pos={0: (8, 5), 5: (10, 5)})
    states, _ = run(s, [{}, {}])
    states, _ = run(edit(states[-1], health={0: 5.0}), [{5: (STAY, enemy(0), 0)}, {}, {}])
    back = states[-1]
    states, events = run(back, [{0: (E, 0, 0)}] * 3)
    assert [round(float(x.pos[0, 0]), 4) for x in states] == [1.5, 3.5, 5.5, 7.5]
    assert [int(x.shield[0]) for x in states] == [3, 2, 1, 0]
    assert events[2].shield_expired[0] and not events[1].shield_expired[0]


# --- Spawn shield ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shield_q, expected_p, expected_q",
    [
        # RULES 7.9: P(A0) at (5,5) walks E at 1.0, Q(A1) at (6.5,5) walks W. Without shield
        # they meet and end touching at 5.25 and 6.25. With shield 3, Q walks 2.0 through P:
        # P 6.0, Q 4.5.
        (0, 5.25, 6.25),
        (3, 6.0, 4.5),
    ],
)
def test_bodies_push_or_shielded_pass_through(shield_q, expected_p, expected_q):
    s = game("HH/M", pos={0: (5, 5), 1: (6.5, 5), 5: (18, 9)}, shield={1: shield_q})
    _, s1, _, _ = step(s, {0: (E, 0, 0), 1: (W, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [expected_p, 5], atol=TOL)
    np.testing.assert_allclose(pos(s1, 1), [expected_q, 5], atol=TOL)


@pytest.mark.parametrize(
    "shield_q, expected_p, expected_q",
    [
        # P(A0) stands at (5,5); Q(A1) at (7.5,5) walks W at 2.0: sub-steps 7.0, 6.5, 6.0, 5.5.
        # Shield 1 (its last shielded tick): it collides in sub-step 4, overlap 0.5 split:
        # P 4.75, Q 5.75. Shield 2: it still passes, ending inside P's body at 5.5.
        (1, 4.75, 5.75),
        (2, 5.0, 5.5),
    ],
)
def test_expiring_shield_rejoins_collisions_in_the_last_sub_step(shield_q, expected_p, expected_q):
    s = game("HH/M", pos={0: (5, 5), 1: (7.5, 5), 5: (18, 9)}, shield={1: shield_q})
    _, s1, _, _ = step(s, {1: (W, 0, 0)})
    np.testing.assert_allclose(pos(s1, 0), [expected_p, 5], atol=TOL)
    np.testing.assert_allclose(pos(s1, 1), [expected_q, 5], atol=TOL)


def shield_scene():
    # Q = Mage(A1) with shield 2 at (8,5); ally Priest P(A0) at (8,7); enemy Hunter E(B5) at
    # (10,5) and enemy Mage M(B6) at (10,7), both in range of Q with clear sight.
    return game("PM/HM", pos={0: (8, 7), 1: (8, 5), 5: (10, 5), 6: (10, 7)}, shield={1: 2})


def test_shielded_agent_is_invisible_to_enemies_and_untargetable_by_anyone():
    s = shield_scene()
    seen = np.asarray(s.seen)
    assert seen[0, 1] and not seen[5, 1] and not seen[6, 1]
    obs = observe(s)
    # Enemy observers: Q's row (enemy1 = row 6) is empty, but `public` shows its shield.
    assert not obs.visible[5, 6] and not obs.units[5, 6].any()
    assert obs.public[5, 6].tolist() == [1.0, 1.0, 2.0]
    assert obs.visible[0, 1]  # the ally sees it
    assert not obs.mask.pair[0, ally(1)].any()  # the Priest may not heal it
    assert not obs.mask.pair[5, enemy(1)].any()
    _, s1, _, ev = step(s, {0: (STAY, ally(1), 0), 5: (STAY, enemy(1), 0)})
    assert ev.rejected[[0, 5], 2].all() and not ev.damage_raw.any() and not ev.heal_raw.any()


def test_shielded_agent_moves_at_2_but_has_only_the_noop_combat_pair():
    s = edit(shield_scene(), status={(1, C.POISON_SLOW): 3})
    obs = observe(s)
    assert obs.mask.move[1].all()
    assert obs.mask.pair[1].sum() == 1 and obs.mask.pair[1, 0, 0]
    assert float(obs.units[1, 1, ROW["speed"]]) == 2.0  # the slow does not apply
    _, s1, _, ev = step(s, {1: (STAY, enemy(0), 0)})
    assert ev.rejected[1, 2] and not ev.damage_raw.any()
    _, s1, _, ev = step(s, {1: (2, 0, 0)})  # S at 2.0
    np.testing.assert_allclose(ev.move[1], [0, -2.0], atol=TOL)


def test_shielded_warrior_gives_no_aura():
    # W(A1) shielded at (10,6) stands 1.0 from H(A0) at (10,5), which M(B5) at (12,5) hits:
    # 13 x 1.15 = 14.95, no Warrior aura.
    s = game("HW/M", pos={0: (10, 5), 1: (10, 6), 5: (12, 5)}, shield={1: 2})
    _, _, _, ev = step(s, {5: (STAY, enemy(0), 0)})
    assert ev.aura_in[0] == 1.0 and ev.damage_recipient[5, 0] == approx(14.95, abs=TOL)


# --- Red Zone ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "priest_x, rogue_x, priest_move, points",
    [
        # RULES 7.7. B's Red Zone is x >= 16. Rogue(A0) 1.3 west of Priest(B5) at 10 HP.
        (16.5, 15.2, STAY, 2),
        (16.5, 15.2, E, 2),  # B's own E = world west, to 15.5: the start position counts
        (16.0, 14.7, STAY, 2),  # the boundary is inside
        (15.9, 14.6, W, 1),  # walks into the zone during the fatal tick: 1 point
    ],
)
def test_red_zone_death_scores_two(priest_x, rogue_x, priest_move, points):
    s = game("R/P", pos={0: (rogue_x, 5), 5: (priest_x, 5)}, health={5: 10.0})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0), 5: (priest_move, 0, 0)})
    assert ev.died[5] and bool(ev.red_zone_death[5]) is (points == 2)
    assert ev.score_delta.tolist() == [points, 0] and np.asarray(s1.score).tolist() == [points, 0]


def test_standing_in_the_enemy_zone_means_nothing():
    # A's Rogue (8 HP) at (17,5) inside B's zone is killed by B's Rogue at (18,5): 1 point.
    s = game("R/R", pos={0: (17, 5), 5: (18, 5)}, health={0: 8.0})
    _, s1, _, ev = step(s, {5: (STAY, enemy(0), 0)})
    assert ev.died[0] and not ev.red_zone_death[0] and ev.score_delta.tolist() == [0, 1]


def test_red_zone_follows_the_spawn_end_and_can_be_disabled():
    # Team A spawning east owns x >= 16: A's Rogue (8 HP) at (17,5) killed by B's Rogue: +2 B.
    s = game("R/R", spawn_end=1, pos={0: (17, 5), 5: (18, 5)}, health={0: 8.0})
    _, _, _, ev = step(s, {5: (STAY, enemy(0), 0)})
    assert ev.red_zone_death[0] and ev.score_delta.tolist() == [0, 2]
    flat = np.asarray(s.red_zones).copy()
    flat[0, 2] = flat[0, 0]  # zero width: disabled
    _, _, _, ev = step(edit(s, red_zones=flat), {5: (STAY, enemy(0), 0)})
    assert not ev.red_zone_death[0] and ev.score_delta.tolist() == [0, 1]
