"""Out-of-combat countdowns and regeneration (RULES 2.7, 7.3)."""

import numpy as np
import pytest

from engine import constants as C
from engine.types import ROW
from tests.engine.kit import STAY, TOL, E, ally, enemy, game, run, step

approx = pytest.approx


def worked_example(**changes):
    # RULES 7.3. P(A0) Priest at (8,5) 50 HP; H(A1) Hunter at (10,5) 50 HP; enemy Hunter
    # E(B5) at (12.5,5), 2.5 from H. Everyone out of combat (ooc 0).
    return game("PH/H", pos={0: (8, 5), 1: (10, 5), 5: (12.5, 5)}, health={0: 50, 1: 50}, **changes)


def test_priest_hunter_worked_example():
    # Tick 0: P heals H (H's ooc was 0: P is no participant), E shoots H (H and E are).
    #   H: 50 + 8 - 6 = 52, no regen, ooc 5.  P: 50 + 4 = 54, ooc 0.  E: 100, ooc 5.
    plan = {0: (STAY, ally(1), 0), 5: (STAY, enemy(1), 0)}
    obs, s, _, ev = step(worked_example(), plan)
    assert float(s.health[1]) == approx(52.0, abs=TOL)
    assert float(s.health[0]) == approx(54.0, abs=TOL)
    assert float(s.health[5]) == 100.0
    assert np.asarray(s.ooc)[[0, 1, 5]].tolist() == [0, 5, 5]
    assert ev.ooc_reset[[0, 1, 5]].tolist() == [False, True, True]
    assert ev.regen[[0, 1, 5]] == approx([4.0, 0.0, 0.0])
    # H has hunter_slow 1 and freedom 1: next move max(0.85, 0.85) x 1.0 = 0.85.
    assert int(s.status[1, C.HUNTER_SLOW]) == 1 and int(s.status[1, C.FREEDOM]) == 1
    assert float(obs.units[1, 1, ROW["speed"]]) == approx(0.85, abs=TOL)
    # Tick 1: P heals H again; H's ooc is 5 at start, so now P is a participant: P stays 54,
    # ooc 5; H: 52 + 8 = 60.
    _, s, _, ev = step(s, {0: (STAY, ally(1), 0)})
    assert float(s.health[0]) == approx(54.0, abs=TOL) and int(s.ooc[0]) == 5
    assert float(s.health[1]) == approx(60.0, abs=TOL)


def test_worked_example_without_the_enemy_shot():
    # Had E not fired: H = 50 + 8 + 4 = 62; nobody enters combat.
    _, s, _, _ = step(worked_example(), {0: (STAY, ally(1), 0)})
    assert float(s.health[1]) == approx(62.0, abs=TOL)
    assert np.asarray(s.ooc)[[0, 1]].tolist() == [0, 0]


def test_countdown_timeline_5_4_3_2_1_0():
    # M(A0) 50 HP at (8,5) hits W(B5) at (10,5) on tick 0: 13 x 1.15 x 0.85 = 12.7075.
    # States 1-6 show ooc 5,4,3,2,1,0 for both; ticks 1-5 regenerate nothing; tick 6 is the
    # first to regenerate: M + 4% of 80 = 3.2 -> 53.2; W + 4% of 200 = 8 -> 195.2925.
    s = game("M/W", pos={0: (8, 5), 5: (10, 5)}, health={0: 50})
    states, events = run(s, [{0: (STAY, enemy(0), 0)}] + [{}] * 6)
    for k, expected in zip(range(1, 7), (5, 4, 3, 2, 1, 0), strict=True):
        assert np.asarray(states[k].ooc)[[0, 5]].tolist() == [expected, expected], k
    for k in range(1, 6):
        assert not events[k].regen.any(), k
    assert float(states[6].health[5]) == approx(187.2925, abs=TOL)
    assert events[6].regen[[0, 5]] == approx([3.2, 8.0], abs=TOL)
    assert float(states[7].health[0]) == approx(53.2, abs=TOL)
    assert float(states[7].health[5]) == approx(195.2925, abs=TOL)


def test_rogue_delay_three_and_anti_healed_regeneration():
    # R(A0) 50 HP at (8,5) poisons R'(B5) at (9.5,5) on tick 0: R' 64, ooc 3, anti_heal 4.
    # States 1-3: ooc 3,2,1; state 4: ooc 0 with anti_heal 1, so tick 4 regenerates
    # 4 x 0.5 = 2 -> 66. The attacker (no anti-heal) regenerates 4 on tick 4 -> 54.
    s = game("R/R", pos={0: (8, 5), 5: (9.5, 5)}, health={0: 50})
    states, events = run(s, [{0: (STAY, enemy(0), 1)}] + [{}] * 4)
    assert [int(states[k].ooc[5]) for k in range(1, 5)] == [3, 2, 1, 0]
    assert int(states[4].status[5, C.ANTI_HEAL]) == 1
    assert all(not events[k].regen.any() for k in range(1, 4))
    assert events[4].regen[[0, 5]] == approx([4.0, 2.0], abs=TOL)
    assert float(states[5].health[5]) == approx(66.0, abs=TOL)
    assert float(states[5].health[0]) == approx(54.0, abs=TOL)


def test_overheal_on_an_agent_in_combat_still_counts_as_combat():
    # P(A0) 50 HP, ooc 0, heals H(A1) at full health whose ooc is 2: raw 8 > 0 counts.
    # P becomes a participant (ooc 5, no regen: stays 50); H's ooc restarts at 5.
    s = game("PH/M", pos={0: (8, 5), 1: (10, 5), 5: (18, 9)}, health={0: 50}, ooc={1: 2})
    _, s1, _, ev = step(s, {0: (STAY, ally(1), 0)})
    assert ev.heal_realised[0, 1] == 0.0
    assert float(s1.health[0]) == 50.0
    assert np.asarray(s1.ooc)[[0, 1]].tolist() == [5, 5]


def test_regen_capped_and_not_stopped_by_moving_or_shield():
    # H(A0) 98 HP: +2 only (cap 100). M(A1) 40 HP with spawn shield 2, walking E: +3.2.
    s = game("HM/W", pos={0: (8, 5), 1: (8, 8), 5: (18, 9)}, health={0: 98, 1: 40}, shield={1: 2})
    _, s1, _, ev = step(s, {0: (E, 0, 0), 1: (E, 0, 0)})
    assert ev.regen[:2] == approx([2.0, 3.2], abs=TOL)
    assert float(s1.health[0]) == 100.0
    assert float(s1.health[1]) == approx(43.2, abs=TOL)


def test_dead_agents_do_not_regenerate():
    s = game("H/W", pos={0: (8, 5), 5: (18, 9)}, health={0: 0.0}, alive={0: False})
    _, s1, _, ev = step(s)
    assert ev.regen[0] == 0.0 and float(s1.health[0]) == 0.0
