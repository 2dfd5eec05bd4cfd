"""Legality masks and action acceptance (RULES 3.3-3.7)."""

import numpy as np
import pytest

from engine import constants as C
from tests.engine.kit import STAY, TOL, N, ally, enemy, game, observe, step

ONLY_NOOP = np.zeros((C.NUM_TARGETS, 2), bool)
ONLY_NOOP[0, 0] = True


def pairs(*legal) -> np.ndarray:
    """(11, 2) mask with the no-op and the given (category, ult) pairs."""
    out = ONLY_NOOP.copy()
    for category, ult in legal:
        out[category, ult] = True
    return out


def scene(pos=None, **changes):
    # Mage M(A0) at (8,5); Priest P(A1) at (8,8) (3.0 from M); Hunter H(B5) at (10.5,5) (2.5
    # from M, 3.9 from P); Rogue R(B6) at (12,5) (4.0 from M); Warrior W(B7) at (8,1.5) (3.5
    # from M, 6.5 from P: out of its sight 6.0).
    #   y8  P
    #   y5  M     H   R
    #   y1.5 W
    placed = {0: (8, 5), 1: (8, 8), 5: (10.5, 5), 6: (12, 5), 7: (8, 1.5)} | (pos or {})
    return game("MP/HRW", pos=placed, **changes)


def test_masks_are_exact():
    m = observe(scene()).mask
    expected = {
        0: pairs((0, 1), (enemy(0), 0)),  # Burst; Basic on H (2.5 <= 3); R at 4.0 too far
        1: pairs((ally(0), 0), (ally(0), 1), (ally(1), 0), (ally(1), 1)),  # heals M (3.0), self
        5: pairs((enemy(0), 0), (enemy(0), 1)),  # Basic 3.5 and Trap 3.0 on M at 2.5
        6: ONLY_NOOP,  # nobody within 1.5
        7: pairs((enemy(0), 1)),  # Charge on M at 3.5 (<= 5.75), Basic 1.5 too short
    }
    for slot in range(C.NUM_SLOTS):
        np.testing.assert_array_equal(m.pair[slot], expected.get(slot, ONLY_NOOP), str(slot))
        acting = slot in expected
        assert m.move[slot].tolist() == [True] + [acting] * 8
    np.testing.assert_array_equal(m.target, m.pair.any(-1))
    np.testing.assert_array_equal(m.ult, m.pair.any(-2))
    flat = m.move[:, :, None, None] & m.pair[:, None, :, :]  # (move * 11 + target) * 2 + ult
    np.testing.assert_array_equal(m.flat, flat.reshape(C.NUM_SLOTS, C.NUM_FLAT))
    # RULES 3.7 examples: 0 = no-op, 1 = Burst standing, 23 = Burst walking N,
    # 82 = walk E + Basic on enemy 2, 197 = the last index.
    assert m.flat[0, 0] and m.flat[0, 1] and m.flat[0, 23]
    assert m.flat[0, (3 * 11 + enemy(0)) * 2] and not m.flat[0, 82]


@pytest.mark.parametrize(
    "changes",
    [
        {"alive": {0: False}, "health": {0: 0.0}},
        {"status": {(0, C.CHARGE_STUN): 1}},
        {"status": {(0, C.TRAP_STUN): 4}},
        {"status": {(0, C.POISON_STUN): 1}},
    ],
    ids=["dead", "charge_stun", "trap_stun", "poison_stun"],
)
def test_dead_and_stunned_have_only_stay_and_the_noop(changes):
    m = observe(scene(**changes)).mask
    np.testing.assert_array_equal(m.pair[0], ONLY_NOOP)
    assert m.move[0].tolist() == [True] + [False] * 8
    assert m.flat[0].sum() == 1 and m.flat[0, 0]


def test_shielded_may_move_but_has_only_the_noop_pair():
    m = observe(scene(shield={0: 2})).mask
    np.testing.assert_array_equal(m.pair[0], ONLY_NOOP)
    assert m.move[0].all() and m.flat[0].sum() == 9


def test_cooldown_removes_only_the_ultimate():
    m = observe(scene(cooldown={0: 3, 5: 1})).mask
    np.testing.assert_array_equal(m.pair[0], pairs((enemy(0), 0)))
    np.testing.assert_array_equal(m.pair[5], pairs((enemy(0), 0)))


def test_recipient_state_never_matters():
    # M is stunned, poisoned and at 1 HP: H may still shoot or trap it.
    changes = {"health": {0: 1.0}, "status": {(0, C.TRAP_STUN): 2, (0, C.ANTI_HEAL): 2}}
    m = observe(scene(**changes)).mask
    np.testing.assert_array_equal(m.pair[5], pairs((enemy(0), 0), (enemy(0), 1)))


@pytest.mark.parametrize(
    "submitted",
    [(9, enemy(0), 0), (-1, enemy(0), 0), (N, 11, 0), (N, -1, 0), (N, enemy(0), 2), (N, 0, -1)],
)
def test_out_of_domain_action_becomes_the_full_noop(submitted):
    # Even the in-domain heads are dropped: no move, no combat; flagged "out of range".
    _, s1, _, ev = step(scene(), {0: submitted})
    assert ev.submitted[0].tolist() == list(submitted)
    assert ev.accepted[0].tolist() == [0, 0, 0]
    assert ev.rejected[0].tolist() == [True, False, False]
    assert not ev.damage_raw.any() and not ev.move[0].any()


def test_illegal_ultimate_never_falls_back_to_a_basic_and_keeps_the_move():
    # W(B7) with cooldown 5 tries to Charge M at 3.5; H(B5) moved to (10.8,3.6), 3.13 from M:
    # beyond Trap range 3.0 but within Basic 3.5, tries to Trap. Both pairs are rejected (no
    # damage at all), and W's legal move N is kept.
    s = scene(cooldown={7: 5}, pos={5: (10.8, 3.6)})
    _, s1, _, ev = step(s, {7: (N, enemy(0), 1), 5: (STAY, enemy(0), 1)})
    assert ev.accepted[7].tolist() == [N, 0, 0] and ev.accepted[5].tolist() == [STAY, 0, 0]
    assert ev.rejected[7].tolist() == [False, False, True]
    assert ev.rejected[5].tolist() == [False, False, True]
    assert not ev.damage_raw.any() and ev.lane[[5, 7]].tolist() == [0, 0]
    np.testing.assert_allclose(ev.move[7], [0, 1], atol=TOL)
    assert float(s1.health[0]) == 80.0


def test_stunned_agent_has_move_and_pair_rejected():
    s = scene(status={(5, C.POISON_STUN): 1})
    _, _, _, ev = step(s, {5: (N, enemy(0), 0)})
    assert ev.rejected[5].tolist() == [False, True, True]
    assert ev.accepted[5].tolist() == [0, 0, 0] and not ev.move[5].any()


def test_unused_slots_can_only_play_the_noop():
    _, _, _, ev = step(scene(), {3: (N, enemy(0), 0), 9: (N, 0, 0)})
    assert ev.rejected[3].tolist() == [False, True, True]
    assert ev.rejected[9].tolist() == [False, True, False]
    assert ev.accepted[[3, 9]].tolist() == [[0, 0, 0], [0, 0, 0]]


def test_team_b_categories_point_at_team_a_slots():
    # B's Hunter (slot 5) aims at enemy0 = slot 0: recipient 0; P(A1) heals ally0 = slot 0.
    _, _, _, ev = step(scene(), {5: (STAY, enemy(0), 0), 1: (STAY, ally(0), 0)})
    assert ev.recipient[[5, 1]].tolist() == [0, 0]
    assert ev.lane[[5, 1]].tolist() == [1, 1]


def test_to_relative_puts_target_category_k_plus_1_in_column_k():
    # the static-slice reorder must equal the target table it replaces (RULES 3.5)
    import jax.numpy as jnp

    from engine.legality import to_relative

    slots = jnp.broadcast_to(jnp.arange(C.NUM_SLOTS)[None, :], (C.NUM_SLOTS, C.NUM_SLOTS))
    np.testing.assert_array_equal(np.asarray(to_relative(slots)), C.TARGET_SLOT[:, 1:])
