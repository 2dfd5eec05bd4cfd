"""The combat arithmetic in the original's order (RULES 4 steps 4-5, RULES_BRIEF Part B 4):
D_j = (sum of source-modified damage, in slot order) x W_j, rounded, then h + (H - D) and one
clamp; the same bits under jit and op by op, whatever XLA fuses."""

import jax
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import combat
from engine import constants as C
from tests.engine.kit import game

F32 = np.float32
AURA_OUT = [1.0, 1.15, 1.3225]
AURA_IN = [1.0, 0.85, 0.7225]


def reference(health, max_health, raw, recipient, factor, aura_in, heal):
    """Plain NumPy float32, one rounding per operation, in Part B's order."""
    source = [F32(F32(r) * F32(f)) for r, f in zip(raw, factor, strict=True)]
    out = []
    for j in range(C.NUM_SLOTS):
        total = F32(0)
        for s in range(C.NUM_SLOTS):  # slot order
            total = F32(total + (source[s] if recipient[s] == j else F32(0)))
        damage = F32(total * F32(aura_in[j]))
        out.append(np.clip(F32(F32(health[j]) + F32(F32(heal[j]) - damage)), 0, max_health[j]))
    return np.asarray(out, F32)


def _combat(state, lane, recipient, aura_out, aura_in):
    return combat.combat(state, lane, recipient, aura_out, aura_in)["health"]


JIT = jax.jit(_combat)


@settings(max_examples=25, deadline=None)
@given(
    health=st.lists(st.floats(0.5, 80.0, width=32), min_size=10, max_size=10),
    recipient=st.lists(st.integers(-1, 9), min_size=10, max_size=10),
    burst=st.lists(st.booleans(), min_size=10, max_size=10),
    out_k=st.lists(st.integers(0, 2), min_size=10, max_size=10),
    in_k=st.lists(st.integers(0, 2), min_size=10, max_size=10),
    ult=st.lists(st.booleans(), min_size=10, max_size=10),
)
def test_health_matches_the_reference_order_bit_for_bit(health, recipient, burst, out_k, in_k, ult):
    # Every source with a recipient uses a damage lane: its Basic, or its Ultimate unless it
    # is a Mage (Burst has no recipient). Health up to 80 suits every class's maximum.
    state = game("MWHRM/WHRMW")
    cls = np.asarray(state.class_id)
    lane = np.where(np.asarray(ult) & (cls != C.MAGE), 2, 1).astype(np.int32)
    recipient = np.asarray(recipient, np.int32)
    lane = np.where(recipient >= 0, lane, 0).astype(np.int32)
    raw = np.where(lane == 1, C.BASIC_DAMAGE[cls], np.where(lane == 2, C.ULT_DAMAGE[cls], 0))
    status = np.zeros((10, 9), np.int32)
    status[:, C.BURST] = np.asarray(burst) & (cls == C.MAGE)
    state = state.replace(health=np.asarray(health, F32), status=status)  # combat reads these
    aura_out = np.asarray([AURA_OUT[k] for k in out_k], F32)
    aura_in = np.asarray([AURA_IN[k] for k in in_k], F32)
    burst_f = np.where(status[:, C.BURST] > 0, F32(C.BURST_FACTOR), F32(1))
    factor = [F32(b * a) for b, a in zip(burst_f, aura_out, strict=True)]
    expected = reference(
        health, C.MAX_HEALTH[cls], raw, recipient, factor, aura_in, np.zeros(10, F32)
    )
    args = (state, lane, recipient, aura_out, aura_in)
    jitted = np.asarray(JIT(*args))
    assert jitted.tobytes() == expected.tobytes(), (jitted - expected).tolist()
    if sum(recipient >= 0) >= 6:  # op by op as well (slow, so only for crowded draws)
        with jax.disable_jit():
            assert np.asarray(_combat(*args)).tobytes() == expected.tobytes()


def test_the_warrior_factor_is_applied_once_after_the_sum():
    # Two Mage Basics on a target under one Warrior aura (0.85), one Mage inside another
    # Mage's aura (13 x 1.15 = 14.95). Per source then summed: 11.05 + 12.7075 = 23.7575;
    # summed first (the original): 27.95 x 0.85 = 23.757502, one float32 ulp more.
    per_source = F32(F32(F32(13) * F32(0.85)) + F32(F32(14.95) * F32(0.85)))
    once = F32(F32(F32(13) + F32(14.95)) * F32(0.85))
    assert per_source == F32(23.7575) and once == F32(23.757502) and per_source != once
    damage = np.zeros((10, 10), F32)
    damage[0, 6], damage[1, 6] = 13, 14.95
    aura_in = np.full(10, 0.85, F32)
    assert F32(combat.recipient_damage(damage, aura_in)[6]) == once
    assert F32(jax.jit(combat.recipient_damage)(damage, aura_in)[6]) == once
