"""Deaths, scores, termination, reward, and the realised damage / heal split (RULES 4.3, 6.1, 7)."""

import numpy as np
import pytest

from engine import constants as C
from tests.engine.kit import STAY, TOL, ally, enemy, game, step

approx = pytest.approx
PLACES = {"mid": (9.4, 10.6), "a_zone": (2.6, 3.8), "b_zone": (16.2, 17.4)}


def duels(score, tick, spec):
    """Three Rogue duels (A slot k vs B slot 5+k) on rows y = 2, 5, 8, 1.2 apart.

    spec: per duel (place, who dies: "a", "b", "both" or None). The victim has 1 HP and its
    opponent's Basic (12) kills it.
    """
    roster = "RRR/RRR"
    placed, health, plan = {}, {}, {}
    for k, (place, dies) in enumerate(spec):
        xa, xb = PLACES[place]
        y = 2.0 + 3.0 * k
        placed |= {k: (xa, y), 5 + k: (xb, y)}
        if dies in ("a", "both"):
            health[k] = 1.0
            plan[5 + k] = (STAY, enemy(k), 0)
        if dies in ("b", "both"):
            health[5 + k] = 1.0
            plan[k] = (STAY, enemy(k), 0)
    s = game(roster, pos=placed, health=health, score=np.asarray(score), tick=tick)
    return step(s, plan)


QUIET = [("mid", None)] * 3


@pytest.mark.parametrize(
    "score, tick, spec, after, code, terminated, truncated",
    [
        # RULES 7.11, row by row.
        ((18, 15), 50, [("b_zone", "b"), ("mid", "b"), ("mid", None)], (21, 15), C.A_WINS, 1, 0),
        ((19, 19), 50, [("mid", "both"), ("mid", None), ("mid", None)], (20, 20), C.DRAW, 1, 0),
        ((19, 18), 50, [("a_zone", "a"), ("mid", "b"), ("mid", None)], (20, 20), C.DRAW, 1, 0),
        ((19, 19), 50, [("mid", "a"), ("mid", "a"), ("mid", "b")], (20, 21), C.B_WINS, 1, 0),
        ((12, 7), 299, QUIET, (12, 7), C.DRAW, 0, 1),
        ((19, 7), 299, [("mid", "b"), ("mid", None), ("mid", None)], (20, 7), C.A_WINS, 1, 1),
        # Not yet: 18 + 1 = 19 < 20.
        ((18, 15), 50, [("mid", "b"), ("mid", None), ("mid", None)], (19, 15), C.ONGOING, 0, 0),
        # Scores pass the threshold: 19 + 3 x 2 = 25.
        ((19, 0), 50, [("b_zone", "b")] * 3, (25, 0), C.A_WINS, 1, 0),
    ],
)
def test_termination_table(score, tick, spec, after, code, terminated, truncated):
    _, s1, reward, ev = duels(score, tick, spec)
    assert np.asarray(s1.score).tolist() == list(after)
    assert ev.score_delta.tolist() == [after[0] - score[0], after[1] - score[1]]
    assert int(ev.outcome) == code and int(s1.outcome) == code
    assert bool(ev.terminated) is bool(terminated) and bool(ev.truncated) is bool(truncated)
    # Reward: +1 / -1 to every active slot of the winner / loser (alive or dead), else 0.
    sign = {C.A_WINS: 1.0, C.B_WINS: -1.0}.get(code, 0.0)
    expected = np.array([sign] * 3 + [0, 0] + [-sign] * 3 + [0, 0], np.float32)
    np.testing.assert_array_equal(reward, expected)


def test_mutual_kill():
    # RULES 7.4: Mage M(A0) 10 HP at (8,5), Rogue R(B5) 14 HP at (9.4,5), 1.4 apart.
    # R takes 14.95 (overkill 0.95, realised 14); M takes 12 (overkill 2, realised 10).
    s = game("M/R", pos={0: (8, 5), 5: (9.4, 5)}, health={0: 10.0, 5: 14.0})
    _, s1, _, ev = step(s, {0: (STAY, enemy(0), 0), 5: (STAY, enemy(0), 0)})
    assert ev.died[[0, 5]].all() and not np.asarray(s1.alive)[[0, 5]].any()
    assert ev.damage_realised[0, 5] == approx(14.0, abs=TOL)
    assert ev.damage_realised[5, 0] == approx(10.0, abs=TOL)
    assert ev.lethal[0, 5] and ev.lethal[5, 0]
    assert np.asarray(s1.score).tolist() == [1, 1]
    assert np.asarray(s1.health)[[0, 5]].tolist() == [0.0, 0.0]
    assert int(s1.ooc[0]) == 0 and int(s1.ooc[5]) == 0  # dead at the end of the tick


def heal_race(health, heal_lane, shot=True):
    # Shooter Mage M(A0) at (8,5) (lone: 14.95) or Hunter; victim Hunter H(B5) at (10,5);
    # B's Priest P(B6) at (11,6.5), 1.80 from H.
    s = game("M/HP", pos={0: (8, 5), 5: (10, 5), 6: (11, 6.5)}, health={5: health})
    plan = {6: (STAY, ally(0), heal_lane)} if heal_lane is not None else {}
    if shot:
        plan[0] = (STAY, enemy(0), 0)
    return step(s, plan)


def test_heal_cancels_lethal_damage_on_the_same_tick():
    # RULES 7.5: 10 + 8 - 14.95 = 3.05; realised damage 14.95, realised heal 8.
    _, s1, _, ev = heal_race(10.0, 0)
    assert bool(s1.alive[5]) and not ev.died[5]
    assert float(s1.health[5]) == approx(3.05, abs=TOL)
    assert ev.damage_realised[0, 5] == approx(14.95, abs=TOL)
    assert ev.heal_realised[6, 5] == approx(8.0, abs=TOL)


def test_without_the_heal_the_victim_dies_with_realised_damage_capped():
    # max(0, 10 - 14.95) = 0: dies, realised 10 (overkill 4.95); +1 for A.
    _, s1, _, ev = heal_race(10.0, None)
    assert ev.died[5] and ev.lethal[0, 5] and ev.score_delta.tolist() == [1, 0]
    assert ev.damage_realised[0, 5] == approx(10.0, abs=TOL)
    assert ev.damage_recipient[0, 5] == approx(14.95, abs=TOL)


def test_holy_word_overheal_split():
    # Holy Word on a Hunter at 90 HP that takes 14.95 the same tick: D = 14.95, H = 200,
    # overheal = 90 + 200 - 14.95 - 100 = 175.05, realised heal 24.95, realised damage 14.95,
    # health 90 + 24.95 - 14.95 = 100.
    _, s1, _, ev = heal_race(90.0, 1)
    assert ev.heal_realised[6, 5] == approx(24.95, abs=TOL)
    assert ev.damage_realised[0, 5] == approx(14.95, abs=TOL)
    assert float(s1.health[5]) == 100.0


def test_overkill_is_shared_pro_rata():
    # RULES 7.5: lone Mage M(A0) at (8,5) (14.95) and Hunter H(A1) at (8,8.5) (6), 3.5 apart
    # (no aura), hit Rogue R(B5) at (10,6) with 10 HP: D = 20.95, realised 10, credited
    # 10 x 14.95 / 20.95 = 7.1360 and 10 x 6 / 20.95 = 2.8640; both in `lethal`.
    s = game("MH/R", pos={0: (8, 5), 1: (8, 8.5), 5: (10, 6)}, health={5: 10.0})
    _, _, _, ev = step(s, {0: (STAY, enemy(0), 0), 1: (STAY, enemy(0), 0)})
    assert ev.damage_realised[0, 5] == approx(10 * 14.95 / 20.95, abs=TOL)
    assert ev.damage_realised[1, 5] == approx(10 * 6 / 20.95, abs=TOL)
    assert ev.lethal[0, 5] and ev.lethal[1, 5] and ev.died[5]


def test_dead_agents_deal_nothing_on_later_ticks():
    # After the mutual kill both are dead: their submitted Basics are rejected.
    s = game("M/R", pos={0: (8, 5), 5: (9.4, 5)}, health={0: 10.0, 5: 14.0})
    plan = {0: (STAY, enemy(0), 0), 5: (STAY, enemy(0), 0)}
    _, s1, _, _ = step(s, plan)
    obs, _, _, ev = step(s1, plan)
    assert ev.rejected[[0, 5], 2].all() and not ev.damage_raw.any()
    assert obs.mask.pair[0].sum() == 1 and obs.mask.move[0].sum() == 1
