"""Auras (RULES 2.4, 7.1, 7.2) and status channels: ageing, refresh, slows, Freedom (2.3, 2.6)."""

import numpy as np
import pytest

from engine import constants as C
from engine import movement
from tests.engine.kit import STAY, TOL, E, W, enemy, game, step

approx = pytest.approx


# --- Mage aura ---------------------------------------------------------------------------------


def test_two_mages_cover_each_other():
    # M0(A0) at (8,5), M1(A1) at (8,6.5): 1.5 apart. H(B5) at (10,5.5): 2.06 and 2.24 away.
    # Each Basic: 13 x 1.15 x 1.15 = 13 x 1.3225 = 17.1925; both: 34.385 -> 65.615.
    s = game("MM/H", pos={0: (8, 5), 1: (8, 6.5), 5: (10, 5.5)})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0), 1: (STAY, enemy(0), 0)})
    assert ev.aura_out[:2] == approx([1.3225, 1.3225], abs=1e-6)
    assert ev.mage_cover[:2, :2].all() and not ev.mage_cover[:, 5].any()
    assert ev.damage_source[:2, 5] == approx([17.1925, 17.1925], abs=TOL)
    assert float(s1.health[5]) == approx(100 - 34.385, abs=TOL)


def test_three_mages_clamp_at_1_3225():
    # Pairwise distances 1.0, 1.118, 1.118: 1.15^3 = 1.520875 -> clamped to 1.3225; 17.1925.
    s = game("MMM/H", pos={0: (8, 5), 1: (8, 6), 2: (9, 5.5), 5: (11, 5)})
    _, _, _, ev = step(s, {2: (STAY, enemy(0), 0)})
    assert ev.aura_out[:3] == approx([1.3225] * 3, abs=1e-6)
    assert ev.damage_source[2, 5] == approx(17.1925, abs=TOL)


@pytest.mark.parametrize("gap, factor", [(2.0, 1.15), (2.01, 1.0)])
def test_mage_aura_radius_is_inclusive_and_boosts_other_classes(gap, factor):
    # H(A1) at (10,5) shoots R(B5) at (12,5); the Mage M(A0) at (10 - gap, 5) does nothing.
    # Covered at exactly 2.0: 6 x 1.15 = 6.9; at 2.01: 6.
    s = game("MH/R", pos={0: (10 - gap, 5), 1: (10, 5), 5: (12, 5)})
    _, _, _, ev = step(s, {1: (STAY, enemy(0), 0)})
    assert ev.damage_source[1, 5] == approx(6 * factor, abs=TOL)


def test_enemy_shielded_or_dead_mages_give_no_aura():
    # H(A0) at (10,5) shoots R(B5) at (12,5). Around H: an enemy Mage (B6) at (10,6), a
    # shielded ally Mage (A1) at (9,5) and a dead ally Mage (A2) at (10,4). Damage stays 6.
    s = game(
        "HMM/RM",
        pos={0: (10, 5), 1: (9, 5), 2: (10, 4), 5: (12, 5), 6: (10, 6)},
        shield={1: 2},
        alive={2: False},
        health={2: 0.0},
    )
    _, _, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.aura_out[0] == 1.0 and ev.damage_source[0, 5] == 6.0
    assert not ev.mage_cover[:, 0].any()


def test_mage_dying_this_tick_still_boosts():
    # M(A0) 5 HP at (8,5), H(A1) at (8,6.5) (1.5 away). R(B5) Rogue at (6.8,5): 1.2 from M,
    # 1.92 from H. R kills M (12 >= 5) while H shoots R: 6 x 1.15 = 6.9 (tick-start auras).
    s = game("MH/R", pos={0: (8, 5), 1: (8, 6.5), 5: (6.8, 5)}, health={0: 5.0})
    _, s1, _, ev = step(s, {5: (STAY, enemy(0), 0), 1: (STAY, enemy(0), 0)})
    assert ev.died[0] and not bool(s1.alive[0])
    assert ev.damage_source[1, 5] == approx(6.9, abs=TOL)


# --- Warrior aura ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "warriors, factor, taken",
    [
        # RULES 7.2: 13 x 1.15 x 0.85 = 12.7075 -> 87.2925; two Warriors 0.7225 -> 10.801375;
        # three: 0.85^3 = 0.614125 clamped to 0.7225.
        (((10, 6.8),), 0.85, 12.7075),
        (((10, 6.8), (11.5, 5)), 0.7225, 10.801375),
        (((10, 6.8), (11.5, 5), (10, 3.5)), 0.7225, 10.801375),
    ],
)
def test_warrior_aura_stacks_and_clamps(warriors, factor, taken):
    # Lone Mage M(A0) at (8,5) hits Hunter H(B5) at (10,5); B Warriors at 1.8 / 1.5 / 1.5.
    roster = "M/H" + "W" * len(warriors)
    placed = {0: (8, 5), 5: (10, 5)} | {6 + k: p for k, p in enumerate(warriors)}
    _, s1, _, ev = step(game(roster, pos=placed), {0: (STAY, enemy(0), 0)})
    assert ev.aura_in[5] == approx(factor, abs=1e-6)
    assert ev.damage_recipient[0, 5] == approx(taken, abs=TOL)
    assert float(s1.health[5]) == approx(100 - taken, abs=TOL)


def test_lone_warrior_covers_itself():
    # Mage Basic on a lone Warrior: 14.95 x 0.85 = 12.7075.
    s = game("M/W", pos={0: (8, 5), 5: (10, 5)})
    _, _, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.warrior_cover[5, 5] and ev.aura_in[5] == approx(0.85)
    assert ev.damage_recipient[0, 5] == approx(12.7075, abs=TOL)


def test_charging_warrior_still_protects_from_its_start_position():
    # W(B5) at (12,5) charges Rogue R(A1) at (16,5) (4.0 away) and lands at (15,5). Its
    # ally H(B6) at (12,6.5), 1.5 from W's start, is hit by Mage M(A0) at (10,6.5):
    # 13 x 1.15 x 0.85 = 12.7075.
    s = game("MR/WH", pos={0: (10, 6.5), 1: (16, 5), 5: (12, 5), 6: (12, 6.5)})
    _, s1, _, ev = step(s, {5: (STAY, enemy(1), 1), 0: (STAY, enemy(1), 0)})
    np.testing.assert_allclose(np.asarray(s1.pos[5]), [15, 5], atol=TOL)
    assert ev.damage_recipient[0, 6] == approx(12.7075, abs=TOL)


# --- Status channels ---------------------------------------------------------------------------


def test_counters_age_and_expire():
    # One quiet tick: every counter drops by 1; those at 1 expire (event), zeros stay.
    start = {(5, C.CHARGE_SLOW): 3, (5, C.HUNTER_SLOW): 1, (5, C.ANTI_HEAL): 2}
    s = game("M/H", pos={0: (4.5, 5), 5: (15, 5)}, status=start)
    _, s1, _, ev = step(s)
    st = np.asarray(s1.status[5])
    assert (st[C.CHARGE_SLOW], st[C.HUNTER_SLOW], st[C.ANTI_HEAL]) == (2, 0, 1)
    assert ev.status_expired[5].tolist() == [c == C.HUNTER_SLOW for c in range(C.NUM_STATUS)]


@pytest.mark.parametrize(
    "before, after, refreshed",
    # max(full 5, aged): 0 -> 5 (applied); 3 -> aged 2 -> 5 (refreshed);
    # 8 (longer than full, which authored_state rejects: set directly) -> aged 7 -> 7
    # (refreshed, never shortened).
    [(0, 5, False), (3, 5, True), (8, 7, True)],
)
def test_reapplication_is_max_of_full_and_aged(before, after, refreshed):
    # R(A0) at (8,5) poisons H(B5) at (9.5,5).
    s = game("R/H", pos={0: (8, 5), 5: (9.5, 5)})
    s = s.replace(status=s.status.at[5, C.POISON_SLOW].set(before))  # `seen` is unaffected
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 1)})
    assert int(s1.status[5, C.POISON_SLOW]) == after
    assert bool(ev.status_refreshed[5, C.POISON_SLOW]) is refreshed
    assert bool(ev.status_applied[5, C.POISON_SLOW]) is not refreshed


def test_two_sources_same_channel_count_once_and_expired_plus_applied():
    # H0(A0) at (8,5) and H1(A1) at (8,7) both shoot R(B5) at (10,6), which has hunter_slow 1:
    # damage 6 + 6 = 12; the counter ages 1 -> 0 (expired) and is put back to 1 (applied), not 2.
    s = game("HH/R", pos={0: (8, 5), 1: (8, 7), 5: (10, 6)}, status={(5, C.HUNTER_SLOW): 1})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0), 1: (STAY, enemy(0), 0)})
    assert float(s1.health[5]) == approx(88.0, abs=TOL)
    assert int(s1.status[5, C.HUNTER_SLOW]) == 1
    assert ev.status_expired[5, C.HUNTER_SLOW] and ev.status_applied[5, C.HUNTER_SLOW]


def test_stuns_overlap_rather_than_add():
    # charge_stun 1 and trap_stun 3: stunned now; after one tick trap 2 keeps it stunned.
    start = {(5, C.CHARGE_STUN): 1, (5, C.TRAP_STUN): 3}
    s = game("M/H", pos={0: (4.5, 5), 5: (15, 5)}, status=start)
    obs, s1, _, ev = step(s, {5: (E, 0, 0)})
    assert ev.rejected[5, 1] and obs.mask.move[5, 1:].sum() == 0
    assert np.asarray(s1.status[5])[[C.CHARGE_STUN, C.TRAP_STUN]].tolist() == [0, 2]


def test_death_clears_every_channel():
    # H(B5) at 5 HP with slows, anti_heal and trap is killed by M(A0): counters all 0.
    start = {(5, C.CHARGE_SLOW): 4, (5, C.ANTI_HEAL): 3, (5, C.TRAP_STUN): 2}
    s = game("M/H", pos={0: (8, 5), 5: (10, 5)}, health={5: 5.0}, status=start)
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.died[5] and not np.asarray(s1.status[5]).any()
    # Trap was also broken by the damage before the wipe; the two others are "cleared".
    assert ev.status_cleared[5, C.CHARGE_SLOW] and ev.status_cleared[5, C.ANTI_HEAL]


@pytest.mark.parametrize(
    "channels, expected",
    [
        # RULES 2.6: Rogue base 1.3.
        ((C.CHARGE_SLOW, C.POISON_SLOW, C.HUNTER_SLOW), 1.3 * 0.2125),  # 0.27625
        ((C.CHARGE_SLOW, C.POISON_SLOW, C.HUNTER_SLOW, C.FREEDOM), 1.3 * 0.85),  # 1.105
        ((C.POISON_SLOW,), 0.65),
        ((C.HUNTER_SLOW, C.FREEDOM), 1.3 * 0.85),  # max(0.85, 0.85)
        ((C.FREEDOM,), 1.3),  # Freedom floors, it never speeds up
        ((C.ANTI_HEAL, C.BURST), 1.3),  # not slows
    ],
)
def test_slow_product_and_freedom_floor_move_the_agent(channels, expected):
    s = game(
        "R/M",
        pos={0: (8, 5), 5: (15, 5)},
        status={(0, c): min(2, C.STATUS_DURATION[c]) for c in channels},
    )
    _, _, _, ev = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(ev.move[0], [expected, 0.0], atol=TOL)


def test_global_slow_floor_binds_for_stronger_slows(monkeypatch):
    # Today's factors never reach 0.20 (worst 0.2125). With hypothetical factors of 0.3 on the
    # three slow channels the product is 0.027 -> floored to 0.20: Rogue 1.3 x 0.2 = 0.26;
    # with Freedom max(0.027, 0.85) = 0.85 -> 1.105.
    factors = np.asarray(C.SLOW_FACTOR).copy()
    factors[[C.CHARGE_SLOW, C.HUNTER_SLOW, C.POISON_SLOW]] = 0.3
    monkeypatch.setattr(movement, "SLOW_FACTOR", np.asarray(factors))
    status = np.zeros((10, C.NUM_STATUS), np.int32)
    status[0, [C.CHARGE_SLOW, C.HUNTER_SLOW, C.POISON_SLOW]] = 2
    status[1, [C.CHARGE_SLOW, C.HUNTER_SLOW, C.POISON_SLOW, C.FREEDOM]] = 2
    cls = np.array([C.ROGUE, C.ROGUE] + [0] * 8, np.int32)
    acting = cls > 0
    spd = movement.speed(status, np.zeros(10, np.int32), cls, acting, 2.0, 1.0)
    assert np.asarray(spd)[:2] == approx([0.26, 1.105], abs=1e-6)


def test_speed_table_stun_shield_and_dead():
    # Stunned 0; shielded 2.0 whatever the class and statuses; dead 0.
    status = np.zeros((10, C.NUM_STATUS), np.int32)
    status[0, C.POISON_STUN] = 1
    status[1, C.CHARGE_SLOW] = 3
    shield = np.array([0, 2, 0] + [0] * 7, np.int32)
    cls = np.array([C.ROGUE, C.MAGE, C.WARRIOR] + [0] * 7, np.int32)
    acting = np.array([True, True, False] + [False] * 7)
    spd = movement.speed(status, shield, cls, acting, 2.0, 1.0)
    assert np.asarray(spd)[:3].tolist() == [0.0, 2.0, 0.0]


def test_slowed_agent_walks_full_speed_on_the_tick_it_is_slowed():
    # Hunter H(A0) hits R(B5) while R walks its own W (world +x): 1.3 this tick.
    s = game("H/R", pos={0: (8, 5), 5: (11, 5)})
    _, _, _, ev = step(s, {0: (STAY, enemy(0), 0), 5: (W, 0, 0)})
    np.testing.assert_allclose(ev.move[5], [1.3, 0.0], atol=TOL)
