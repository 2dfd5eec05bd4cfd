"""Every class's Basic and Ultimate, with hand-computed numbers (RULES 2.5, 4.1, 7.1, 7.8).

Unless a sketch says otherwise Team A spawns west, nobody stands in a Red Zone and no other
agent is within 2.0 of the agents named, so only the auras mentioned apply.
"""

import numpy as np
import pytest

from engine import constants as C
from engine.types import ROW
from tests.engine.kit import (
    NOOP,
    STAY,
    TOL,
    E,
    N,
    S,
    W,
    ally,
    edit,
    enemy,
    game,
    observe,
    pillar,
    pos,
    step,
)

approx = pytest.approx


def speed_row(obs, observer: int, row: int) -> float:
    return float(obs.units[observer, row, ROW["speed"]])


# --- Mage --------------------------------------------------------------------------------------


def test_mage_basic_lone_mage_covers_itself():
    # M(A0) at (8,5) -- 2.0 -- H(B5) at (10,5); Basic range 3.0.
    # Damage = 13 x 1.15 (own aura) = 14.95; Hunter 100 - 14.95 = 85.05.
    s = game("M/H", pos={0: (8, 5), 5: (10, 5)})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.lane[0] == 1 and ev.recipient[0] == 5
    assert ev.damage_raw[0, 5] == 13.0
    assert ev.damage_source[0, 5] == approx(14.95, abs=TOL)
    assert ev.damage_recipient[0, 5] == approx(14.95, abs=TOL)
    assert ev.damage_realised[0, 5] == approx(14.95, abs=TOL)
    assert float(s1.health[5]) == approx(85.05, abs=TOL)
    assert float(s1.health[0]) == 80.0
    assert np.asarray(s1.ooc)[[0, 5]].tolist() == [5, 5]  # both are combat participants


@pytest.mark.parametrize("x, legal", [(7.0, True), (6.99, False)])
def test_mage_basic_range_is_inclusive(x, legal):
    # M(A0) at (x,5), H(B5) at (10,5): 3.0 exactly is in range, 3.01 is not (RULES 0).
    s = game("M/H", pos={0: (x, 5), 5: (10, 5)})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert bool(ev.rejected[0, 2]) is not legal
    assert float(s1.health[5]) == approx(85.05 if legal else 100.0, abs=TOL)


def test_mage_burst_timeline():
    # M(A0) at (8,5), W(B5) at (10,5). Tick 0: Burst (flat index 1): no damage, not combat.
    # Ticks 1-5: Basic = 13 x 1.5 x 1.15 = 22.425 after source modifiers, x 0.85 (the Warrior
    # covers itself) = 19.06125 taken. Tick 6: burst gone, 13 x 1.15 = 14.95.
    # Cooldown: state 1 shows 30, state 30 shows 1, state 31 shows 0 (usable on tick 31).
    s = game("M/W", pos={0: (8, 5), 5: (10, 5)})
    _, s, _, ev = step(s, {0: (STAY, 0, 1)})
    assert ev.lane[0] == 2 and ev.recipient[0] == -1
    assert not ev.damage_raw.any() and not ev.damage_source.any()
    assert ev.cooldown_started[0] and ev.status_applied[0, C.BURST]
    assert not ev.ooc_reset[0] and int(s.ooc[0]) == 0  # Burst deals no damage: not combat
    assert int(s.status[0, C.BURST]) == 5 and int(s.cooldown[0]) == 30
    for tick, left in zip(range(1, 6), (5, 4, 3, 2, 1), strict=True):
        assert int(s.status[0, C.BURST]) == left
        obs, s, _, ev = step(s, {0: (STAY, enemy(0), 0)})
        assert ev.damage_source[0, 5] == approx(22.425, abs=TOL), tick
        assert ev.damage_recipient[0, 5] == approx(19.06125, abs=TOL), tick
    assert ev.status_expired[0, C.BURST] and int(s.status[0, C.BURST]) == 0
    _, s, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.damage_source[0, 5] == approx(14.95, abs=TOL)
    # state 7: cooldown 30 - 6 = 24; play no-ops up to state 30.
    assert int(s.cooldown[0]) == 24
    for _ in range(23):
        obs, s, _, _ = step(s)
    assert int(s.tick) == 30 and int(s.cooldown[0]) == 1
    assert not obs.mask.pair[0, 0, 1]
    obs, s, _, ev = step(s)
    assert int(s.cooldown[0]) == 0 and ev.cooldown_ready[0]
    assert obs.mask.pair[0, 0, 1]


# --- Warrior -----------------------------------------------------------------------------------


def charge_scene(**changes):
    # RULES 7.8. W(A0) at (4,2); R(B5) Rogue at (7,6); pillar r 0.3 at (5,4.2).
    #   y6 .  .  .  R
    #   y4 .  o        (the segment W->R passes 0.52 from o: LOS clear, a body would hit it)
    #   y2 W
    return game("W/R", obstacles=[pillar(5.0, 4.2, 0.3)], pos={0: (4, 2), 5: (7, 6)}, **changes)


def test_warrior_charge_landing_damage_stun_slow_and_jump_over_pillar():
    # Distance 5.0 <= 5.75; unit (0.6, 0.8); landing = (7,6) - 1.0 x (0.6,0.8) = (6.4, 5.2).
    # R takes 20 (no auras near) -> 80; charge_stun 1, charge_slow 5; W cooldown 30.
    # R moves at its start speed 1.3 on the same tick: its own W (mirrored) = world +x
    # -> (8.3, 6.0).
    s = charge_scene()
    assert observe(s).mask.pair[0, enemy(0), 1]
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 1), 5: (W, 0, 0)})
    assert not ev.rejected.any()
    np.testing.assert_allclose(pos(s1, 0), [6.4, 5.2], atol=TOL)
    np.testing.assert_allclose(ev.charge_move[0], [2.4, 3.2], atol=TOL)
    np.testing.assert_allclose(pos(s1, 5), [8.3, 6.0], atol=TOL)
    assert float(s1.health[5]) == approx(80.0, abs=TOL)
    assert ev.damage_recipient[0, 5] == approx(20.0, abs=TOL)
    assert int(s1.status[5, C.CHARGE_STUN]) == 1 and int(s1.status[5, C.CHARGE_SLOW]) == 5
    assert int(s1.cooldown[0]) == 30


def test_charge_victim_timeline_stunned_then_slowed():
    # After the Charge (tick 0): state 1 stunned (only Stay / no combat, speed 0); states 2-5
    # slowed 1.3 x 0.5 = 0.65 (slow counters 4,3,2,1); state 6 back to 1.3.
    s = charge_scene()
    obs, s, _, _ = step(s, {0: (STAY, enemy(0), 1)})
    assert obs.mask.move[5].tolist() == [True] + [False] * 8
    assert obs.mask.pair[5].sum() == 1 and obs.mask.pair[5, 0, 0]
    assert speed_row(obs, 5, 0) == 0.0  # B observer 5: own row 0
    obs, s, _, ev = step(s, {5: (W, enemy(0), 0)})  # stunned: both heads rejected
    assert ev.rejected[5].tolist() == [False, True, True]
    np.testing.assert_allclose(ev.move[5], [0.0, 0.0], atol=TOL)
    # R's own W is world +x, away from the Warrior it touches.
    for left in (4, 3, 2, 1):
        assert int(s.status[5, C.CHARGE_SLOW]) == left
        assert speed_row(obs, 5, 0) == approx(0.65, abs=TOL)
        obs, s, _, ev = step(s, {5: (W, 0, 0)})
        np.testing.assert_allclose(ev.move[5], [0.65, 0.0], atol=TOL)
    assert speed_row(obs, 5, 0) == approx(1.3, abs=TOL)
    _, s, _, ev = step(s, {5: (W, 0, 0)})
    np.testing.assert_allclose(ev.move[5], [1.3, 0.0], atol=TOL)


def test_charge_then_ordinary_move_from_landing_point():
    # Same Charge, R stays, W walks S 1.0 after landing: (6.4, 5.2) -> (6.4, 4.2)
    # (1.4 from the pillar's centre > 0.8, and moving away from R).
    _, s1, _, ev = step(charge_scene(), {0: (S, enemy(0), 1)})
    np.testing.assert_allclose(pos(s1, 0), [6.4, 4.2], atol=TOL)
    np.testing.assert_allclose(ev.move[0], [0.0, -1.0], atol=TOL)


def test_charge_longest_jump_ignores_slows_and_bodies():
    # W(A0) at (4,5) slowed by poison_slow; B Hunter (B6) body at (6.5,5) in the path;
    # R(B5) at (9.75,5): distance 5.75 (inclusive). Landing (8.75,5): jump 4.75, not shortened
    # by the slow, over the Hunter's body (1.5 from R... and 2.25 from the landing: no push).
    s = game("W/RH", pos={0: (4, 5), 5: (9.75, 5), 6: (6.5, 5)}, status={(0, C.POISON_SLOW): 3})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 1)})
    assert not ev.rejected.any()
    np.testing.assert_allclose(ev.charge_move[0], [4.75, 0.0], atol=TOL)
    np.testing.assert_allclose(pos(s1, 0), [8.75, 5.0], atol=TOL)


def test_charge_landing_pushed_out_of_pillar():
    # W(A0) at (4,5), R(B5) at (9,5), pillar r 0.3 at (8,5.6): the segment y = 5 passes 0.6
    # from it (clear), but the landing point (8,5) is 0.6 < 0.8 from its centre: pushed
    # straight away from the centre to (8, 5.6 - 0.8) = (8, 4.8), then 1.0198 from R: no push.
    s = game("W/R", obstacles=[pillar(8, 5.6, 0.3)], pos={0: (4, 5), 5: (9, 5)})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 1)})
    assert not ev.rejected.any()
    np.testing.assert_allclose(pos(s1, 0), [8.0, 4.8], atol=TOL)


def test_charge_on_warrior_is_reduced_by_its_own_aura():
    # RULES 7.2: a Warrior hit by a Charge with no Mage near the charger takes 20 x 0.85 = 17.
    s = game("W/W", pos={0: (6, 5), 5: (10, 5)})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 1)})
    assert ev.damage_recipient[0, 5] == approx(17.0, abs=TOL)
    assert float(s1.health[5]) == approx(183.0, abs=TOL)


# --- Hunter ------------------------------------------------------------------------------------


def test_hunter_basic_slow_rider_lasts_one_move():
    # H(A0) at (8,5), R(B5) Rogue at (11.5,5): 3.5 = Basic range (inclusive). 6 damage -> 94,
    # hunter_slow 1. R walks N: tick 0 at 1.3 (start statuses), tick 1 at 1.3 x 0.85 = 1.105,
    # tick 2 at 1.3 again.
    s = game("H/R", pos={0: (8, 5), 5: (11.5, 5)})
    _, s, _, ev = step(s, {0: (STAY, enemy(0), 0), 5: (N, 0, 0)})
    assert float(s.health[5]) == approx(94.0, abs=TOL)
    assert int(s.status[5, C.HUNTER_SLOW]) == 1 and ev.status_applied[5, C.HUNTER_SLOW]
    np.testing.assert_allclose(ev.move[5], [0, 1.3], atol=TOL)
    _, s, _, ev = step(s, {5: (N, 0, 0)})
    np.testing.assert_allclose(ev.move[5], [0, 1.105], atol=TOL)
    assert ev.status_expired[5, C.HUNTER_SLOW]
    _, s, _, ev = step(s, {5: (N, 0, 0)})
    np.testing.assert_allclose(ev.move[5], [0, 1.3], atol=TOL)


def test_rejected_hunter_basic_applies_no_slow():
    # R at 3.6 > 3.5: the Basic is rejected, no damage, no slow.
    s = game("H/R", pos={0: (8, 5), 5: (11.6, 5)})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.rejected[0, 2] and not ev.damage_raw.any()
    assert int(s1.status[5, C.HUNTER_SLOW]) == 0


def trap_scene(**changes):
    # H(A0) at (8,5) -- 3.0 -- W(B5) at (11,5); Mage M(A1) at (11,7.5): 2.5 from W, 3.9 from H
    # (no Mage aura on the Hunter); Priest P(B6) at (12,7): 2.24 from W.
    return game("HM/WP", pos={0: (8, 5), 5: (11, 5), 1: (11, 7.5), 6: (12, 7)}, **changes)


def test_trap_untouched_stuns_four_decisions():
    # Trap: 10 x 0.85 (W covers itself) = 8.5 -> 191.5. States 1-4 trap_stun 4,3,2,1, free at 5.
    obs, s, _, ev = step(trap_scene(), {0: (STAY, enemy(0), 1)})
    assert ev.damage_recipient[0, 5] == approx(8.5, abs=TOL)
    assert float(s.health[5]) == approx(191.5, abs=TOL)
    for left in (4, 3, 2, 1):
        assert int(s.status[5, C.TRAP_STUN]) == left
        assert not obs.mask.move[5, 1:].any()
        obs, s, _, _ = step(s)
    assert int(s.status[5, C.TRAP_STUN]) == 0 and obs.mask.move[5].all()


def test_trap_survives_same_tick_damage_and_breaks_on_later_damage():
    # Tick 0: Trap and the Mage's Basic land together: 8.5 + 13 x 1.15 x 0.85 = 8.5 + 12.7075
    # = 21.2075; the fresh Trap survives (state 1: 4). Tick 1: the Mage hits again: trap ages
    # 4 -> 3, positive raw damage -> 0 (status_broken); state 2: W may move again.
    plan = {0: (STAY, enemy(0), 1), 1: (STAY, enemy(0), 0)}
    _, s, _, ev = step(trap_scene(), plan)
    assert float(s.health[5]) == approx(200 - 21.2075, abs=TOL)
    assert int(s.status[5, C.TRAP_STUN]) == 4 and not ev.status_broken.any()
    obs, s, _, ev = step(s, {1: (STAY, enemy(0), 0)})
    assert ev.status_broken[5, C.TRAP_STUN] and int(s.status[5, C.TRAP_STUN]) == 0
    assert obs.mask.move[5].all()


def test_trap_broken_even_when_healing_cancels_the_damage_but_not_by_healing_alone():
    # Tick 1: the B Priest heals W while a Hunter Basic (6 raw) hits it: the test is on raw
    # damage, so the Trap breaks. Healing alone (other branch) leaves it running (4 -> 3).
    _, s, _, _ = step(trap_scene(), {0: (STAY, enemy(0), 1)})
    _, healed_only, _, ev = step(s, {6: (STAY, ally(0), 0)})
    assert int(healed_only.status[5, C.TRAP_STUN]) == 3 and not ev.status_broken.any()
    _, both, _, ev = step(s, {6: (STAY, ally(0), 0), 0: (STAY, enemy(0), 0)})
    # health 191.5 + 8 - 6 x 0.85 = 194.4
    assert float(both.health[5]) == approx(194.4, abs=TOL)
    assert ev.status_broken[5, C.TRAP_STUN] and int(both.status[5, C.TRAP_STUN]) == 0


def test_broken_trap_reapplied_same_tick_is_broken_and_applied():
    # H0(A0) at (8,5) traps W(B5) at (11,5) on tick 0; H1(A1) at (9,3), sqrt(4 + 4) = 2.83
    # <= 3.0 from W, traps on tick 1: ageing 4 -> 3, damage breaks it (-> 0), the fresh Trap
    # puts 4 back.
    s = game("HH/W", pos={0: (8, 5), 1: (9, 3), 5: (11, 5)})
    _, s, _, _ = step(s, {0: (STAY, enemy(0), 1)})
    _, s, _, ev = step(s, {1: (STAY, enemy(0), 1)})
    assert ev.status_broken[5, C.TRAP_STUN] and ev.status_applied[5, C.TRAP_STUN]
    assert not ev.status_refreshed[5, C.TRAP_STUN]
    assert int(s.status[5, C.TRAP_STUN]) == 4


# --- Rogue -------------------------------------------------------------------------------------


def poison_scene(**changes):
    # R(A0) at (8,5) -- 1.5 -- H(B5) at (9.5,5); Priest P(B6) at (11,6.5): 2.12 from H.
    return game("R/HP", pos={0: (8, 5), 5: (9.5, 5), 6: (11, 6.5)}, **changes)


def test_rogue_basic():
    # 12 damage within 1.5 -> 88.
    _, s1, _, _ = step(poison_scene(), {0: (STAY, enemy(0), 0)})
    assert float(s1.health[5]) == approx(88.0, abs=TOL)


def test_rogue_poison_damage_stun_slow_antiheal():
    # Poison: 36 -> 64; poison_stun 1, poison_slow 5, anti_heal 4; Rogue cooldown 30.
    # Tick 1 (stunned): the Priest's Basic heals 8 x 0.5 = 4 -> 68.
    # States 2-5 (poison_slow 4,3,2,1): the Hunter walks 1.0 x 0.5 = 0.5; state 6: 1.0.
    obs, s, _, ev = step(poison_scene(), {0: (STAY, enemy(0), 1)})
    assert float(s.health[5]) == approx(64.0, abs=TOL)
    st = np.asarray(s.status[5])
    assert (st[C.POISON_STUN], st[C.POISON_SLOW], st[C.ANTI_HEAL]) == (1, 5, 4)
    assert int(s.cooldown[0]) == 30
    assert not obs.mask.move[5, 1:].any()
    obs, s, _, ev = step(s, {6: (STAY, ally(0), 0)})
    assert ev.heal_raw[6, 5] == 8.0 and ev.heal_recipient[6, 5] == approx(4.0)
    assert float(s.health[5]) == approx(68.0, abs=TOL)
    # The heal also gave Freedom 1: state 2 walks max(0.5, 0.85) = 0.85; states 3-5 walk 0.5.
    for expected in (0.85, 0.5, 0.5, 0.5):
        assert speed_row(obs, 5, 0) == approx(expected, abs=TOL)
        obs, s, _, ev = step(s, {5: (N, 0, 0)})
        np.testing.assert_allclose(ev.move[5], [0, expected], atol=TOL)
    assert speed_row(obs, 5, 0) == approx(1.0, abs=TOL)


def test_poisoned_rogue_walks_at_0_65():
    # RULES 2.6: 1.3 x 0.5 = 0.65.
    s = game("R/R", pos={0: (8, 5), 5: (14, 5)}, status={(0, C.POISON_SLOW): 3})
    _, _, _, ev = step(s, {0: (E, 0, 0)})
    np.testing.assert_allclose(ev.move[0], [0.65, 0], atol=TOL)


# --- Priest ------------------------------------------------------------------------------------


def test_priest_basic_heals_ally_and_grants_freedom():
    # P(A0) at (8,5) -- 2.0 -- H(A1) at (10,5), 50 HP, both out of combat.
    # Heal 8 (not combat: H's ooc was 0) then H regenerates 4: 50 + 8 + 4 = 62 (RULES 7.3).
    s = game("PH/M", pos={0: (8, 5), 1: (10, 5), 5: (18, 9)}, health={1: 50})
    _, s1, _, ev = step(s, {0: (STAY, ally(1), 0)})
    assert ev.heal_raw[0, 1] == 8.0 and ev.heal_realised[0, 1] == approx(8.0)
    assert ev.regen[1] == approx(4.0)
    assert float(s1.health[1]) == approx(62.0, abs=TOL)
    assert int(s1.status[1, C.FREEDOM]) == 1
    assert int(s1.ooc[0]) == 0 and int(s1.ooc[1]) == 0


def test_priest_heals_itself_and_never_targets_enemies():
    # P(A0) at 50 HP heals itself (category ally0): 50 + 8 + 4 regen = 62. Enemy M(B5) at 2.0.
    s = game("P/M", pos={0: (8, 5), 5: (10, 5)}, health={0: 50})
    obs = step(s)[0]
    assert not obs.mask.pair[0, 6:].any()
    _, s1, _, ev = step(s, {0: (STAY, ally(0), 0)})
    assert float(s1.health[0]) == approx(62.0, abs=TOL)
    _, _, _, ev = step(s, {0: (STAY, enemy(0), 0)})
    assert ev.rejected[0, 2] and not ev.heal_raw.any()


def test_holy_word_capped_and_cooldown_even_at_full_health():
    # P(A0) at (8,5); H(A1) at (13.75,5): 5.75 = Holy Word range. H at 30 HP: 30 + 200 -> 100,
    # realised heal 70. Second case: H already full: realised 0, cooldown still 30.
    s = game("PH/M", pos={0: (8, 5), 1: (13.75, 5), 5: (18, 9)}, health={1: 30})
    _, s1, _, ev = step(s, {0: (STAY, ally(1), 1)})
    assert ev.heal_raw[0, 1] == 200.0 and ev.heal_realised[0, 1] == approx(70.0)
    assert float(s1.health[1]) == 100.0 and int(s1.cooldown[0]) == 30
    _, s2, _, ev = step(edit(s, health={1: 100}), {0: (STAY, ally(1), 1)})
    assert ev.heal_realised[0, 1] == 0.0 and ev.cooldown_started[0]
    assert int(s2.cooldown[0]) == 30 and int(s2.ooc[0]) == 0


def test_holy_word_halved_by_anti_heal():
    # Warrior W(A1) (max 200) at 50 HP with anti_heal 2: 50 + 200 x 0.5 = 150 (not 200).
    # W is in combat (ooc 3) so it does not regenerate; the healer is then a participant too.
    s = game("PW/M", pos={0: (8, 5), 1: (10, 5), 5: (18, 9)}, health={1: 50}, ooc={1: 3})
    s = edit(s, status={(1, C.ANTI_HEAL): 2})
    _, s1, _, ev = step(s, {0: (STAY, ally(1), 1)})
    assert ev.heal_recipient[0, 1] == approx(100.0)
    assert float(s1.health[1]) == approx(150.0, abs=TOL)
    assert int(s1.ooc[0]) == 5 and int(s1.ooc[1]) == 5


def test_healing_is_never_amplified_by_the_mage_aura():
    # A Mage M(A1) 1.0 from the Priest: the heal stays 8.
    s = game("PMH/W", pos={0: (8, 5), 1: (8, 6), 2: (10, 5), 5: (18, 9)}, health={2: 50})
    _, _, _, ev = step(s, {0: (STAY, ally(2), 0)})
    assert ev.heal_recipient[0, 2] == 8.0


def test_move_heads_for_both_teams_are_world_directions_after_mirroring():
    # Team A (west) E = +x; Team B (east) E = -x (RULES 3.2).
    s = game("M/M", pos={0: (8, 2), 5: (12, 8)})
    _, _, _, ev = step(s, {0: (E, 0, 0), 5: (E, 0, 0)})
    np.testing.assert_allclose(ev.move[0], [1, 0], atol=TOL)
    np.testing.assert_allclose(ev.move[5], [-1, 0], atol=TOL)


def test_noop_everywhere_changes_only_clocks():
    s = game("MWHRP/MWHRP")
    _, s1, _, ev = step(s, {k: NOOP for k in range(10)})
    np.testing.assert_array_equal(np.asarray(s1.pos), np.asarray(s.pos))
    assert np.asarray(s1.wave_clock).tolist() == [3, 3] and int(s1.tick) == 1
    assert not ev.rejected.any()
