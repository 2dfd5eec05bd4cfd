"""The first phases of a tick: acceptance, auras, combat, regeneration, cooldowns (RULES 4, 1-7).

Every effect is routed through a 10 x 10 [source, recipient] matrix and summed over sources,
so the outcome never depends on slot order.
"""

import jax.numpy as jnp

from engine import constants as C
from engine import geometry, legality
from engine.types import Actions, Masks, State

TARGET_SLOT = jnp.asarray(C.TARGET_SLOT)
TEAM_OF_SLOT = jnp.asarray(C.TEAM_OF_SLOT)
MIRROR_MOVE = jnp.asarray(C.MIRROR_MOVE)
LANE_NONE, LANE_BASIC, LANE_ULT = 0, 1, 2


def east_slots(spawn_end: jnp.ndarray) -> jnp.ndarray:
    """Which slots play from the east end (and so in a mirrored frame): (10,) bool (RULES 5.8)."""
    team_end = jnp.where(TEAM_OF_SLOT == 0, spawn_end, 1 - spawn_end)
    return team_end == 1


def accept(actions: Actions, mask: Masks):
    """Canonicalise submitted team-frame actions (RULES 3.6).

    Returns (accepted (10, 3) int32 team frame, rejected (10, 3) bool: out of domain, move
    rejected, combat pair rejected). Out-of-domain heads turn the whole tuple into the no-op.
    """
    move, target, ult = actions.move, actions.target, actions.ult
    in_domain = ((move >= 0) & (move < C.NUM_MOVES) & (target >= 0) & (target < C.NUM_TARGETS)) & (
        (ult == 0) | (ult == 1)
    )
    move, target, ult = (jnp.where(in_domain, h, 0) for h in (move, target, ult))
    slots = jnp.arange(C.NUM_SLOTS)
    move_ok = mask.move[slots, move]
    pair_ok = mask.pair[slots, target, ult]
    accepted = jnp.stack(
        [jnp.where(move_ok, move, 0), jnp.where(pair_ok, target, 0), jnp.where(pair_ok, ult, 0)], 1
    )
    rejected = jnp.stack([~in_domain, in_domain & ~move_ok, in_domain & ~pair_ok], 1)
    return accepted.astype(jnp.int32), rejected


def route(accepted: jnp.ndarray):
    """Lane (10,) int32 (0 none, 1 Basic, 2 Ultimate) and recipient slot (10,) int32 (-1 none)."""
    target, ult = accepted[:, 1], accepted[:, 2]
    lane = jnp.where(ult == 1, LANE_ULT, jnp.where(target > 0, LANE_BASIC, LANE_NONE))
    recipient = TARGET_SLOT[jnp.arange(C.NUM_SLOTS), target]
    return lane.astype(jnp.int32), recipient


def auras(state: State):
    """Aura cover and multipliers from tick-start positions (RULES 2.4).

    Returns mage_cover, warrior_cover (10, 10) bool [emitter, beneficiary], aura_out (10,)
    outgoing-damage multiplier in [1, 1.3225], aura_in (10,) incoming multiplier in [0.7225, 1].
    """
    ok = legality.acting(state) & (state.shield == 0)
    near = geometry.distances(state.pos) <= C.AURA_RADIUS
    same_team = TEAM_OF_SLOT[:, None] == TEAM_OF_SLOT[None, :]
    linked = ok[:, None] & ok[None, :] & near & same_team
    mage_cover = linked & (state.class_id == C.MAGE)[:, None]
    warrior_cover = linked & (state.class_id == C.WARRIOR)[:, None]
    mages = jnp.sum(mage_cover, axis=0)
    warriors = jnp.sum(warrior_cover, axis=0)
    aura_out = jnp.minimum(C.MAGE_AURA_FACTOR**mages, C.MAGE_AURA_CEILING)
    aura_in = jnp.maximum(C.WARRIOR_AURA_FACTOR**warriors, C.WARRIOR_AURA_FLOOR)
    return mage_cover, warrior_cover, aura_out.astype(jnp.float32), aura_in.astype(jnp.float32)


def _pro_rata(matrix, total, realised):
    """Each recipient's realised total shared among its sources in proportion to `matrix`
    (RULES 6.1): matrix (10, 10) [source, recipient], total and realised (10,) float32 hit
    points -> (10, 10); a recipient with total 0 gets zeros.
    """
    # The select sits under the divide, so the divide is the share's root: XLA:CPU does not
    # fuse a divide into a broadcasting consumer and keeps the share one (10,) buffer. With
    # the select at the root, it and the column sum `total` under it are fused into every
    # element of the (10, 10) product, the sum running once per element (combat with its
    # events 2.4x faster at 1,024 games this way; docs/PERFORMANCE.md, "Combat"). Same bits:
    # where total > 0 both read realised / total, elsewhere +0.0 / 1.0 = +0.0 (realised is
    # finite).
    positive = total > 0
    share = jnp.where(positive, realised, 0.0) / jnp.where(positive, total, 1.0)
    return matrix * share[None, :]


def stored(x: jnp.ndarray) -> jnp.ndarray:
    """`x` rounded to float32 before its next use, whatever XLA fuses.

    XLA:CPU compiles a fused multiply followed by an add or subtract into one fused
    multiply-add, which skips the product's rounding; a select between them stops that (and
    optimization_barrier does not: XLA:CPU drops barriers before fusion). Values here are
    finite, so the select returns `x` bit for bit.
    """
    return jnp.where(jnp.isfinite(x), x, 0.0)


def recipient_damage(damage_source: jnp.ndarray, aura_in: jnp.ndarray) -> jnp.ndarray:
    """D_j = (sum over sources of source-modified damage on j) x W_j, in that order (RULES 4,
    step 4; RULES_BRIEF Part B 4): damage_source (10, 10) [source, recipient], aura_in (10,)
    -> (10,) float32 hit points. The sum runs in slot order and D_j is rounded to float32
    (`stored`) before health uses it.

    Applying W_j per source and then summing can end 1-4 float32 ulps away, and a death tests
    health == 0 exactly, so the order is part of the rules.
    """
    return stored(geometry.small_sum(damage_source, 0) * aura_in)


def combat(state: State, lane, recipient, aura_out, aura_in):
    """Damage and healing at every stage, and health after the single clamp (RULES 4, 4-5).

    Returns a dict of (10, 10) [source, recipient] float32 hit-point matrices (damage_raw,
    damage_source, damage_recipient, damage_realised, heal_raw, heal_recipient, heal_realised)
    and `health` (10,) after combat, before regeneration.
    """
    cls = state.class_id
    basic, ult = lane == LANE_BASIC, lane == LANE_ULT
    raw_damage = jnp.where(basic, jnp.asarray(C.BASIC_DAMAGE)[cls], 0.0)
    raw_damage += jnp.where(ult, jnp.asarray(C.ULT_DAMAGE)[cls], 0.0)
    raw_heal = jnp.where(basic, jnp.asarray(C.BASIC_HEAL)[cls], 0.0)
    raw_heal += jnp.where(ult, jnp.asarray(C.ULT_HEAL)[cls], 0.0)
    route_matrix = (recipient[:, None] == jnp.arange(C.NUM_SLOTS)[None, :]).astype(jnp.float32)
    burst = jnp.where(state.status[:, C.BURST] > 0, C.BURST_FACTOR, 1.0)
    damage_raw = route_matrix * raw_damage[:, None]
    damage_source = stored(damage_raw * (burst * aura_out)[:, None])  # rounded before summing
    damage_recipient = damage_source * aura_in[None, :]
    anti_heal = jnp.where(state.status[:, C.ANTI_HEAL] > 0, C.ANTI_HEAL_FACTOR, 1.0)
    heal_raw = route_matrix * raw_heal[:, None]
    heal_recipient = heal_raw * anti_heal[None, :]

    total_damage = recipient_damage(damage_source, aura_in)
    total_heal = geometry.small_sum(heal_recipient, 0)
    max_health = jnp.asarray(C.MAX_HEALTH)[cls]
    # One net change, then one clamp: h + (H - D), the original's rounding order.
    unclamped = state.health + (total_heal - total_damage)
    health = jnp.clip(unclamped, 0.0, max_health)
    overkill = jnp.maximum(-unclamped, 0.0)
    overheal = jnp.maximum(unclamped - max_health, 0.0)
    return {
        "damage_raw": damage_raw,
        "damage_source": damage_source,
        "damage_recipient": damage_recipient,
        "damage_realised": _pro_rata(damage_recipient, total_damage, total_damage - overkill),
        "heal_raw": heal_raw,
        "heal_recipient": heal_recipient,
        "heal_realised": _pro_rata(heal_recipient, total_heal, total_heal - overheal),
        "health": health,
    }


def participants(state: State, damage_raw, heal_raw) -> jnp.ndarray:
    """Combat participants of the tick (RULES 2.7): (10,) bool."""
    in_combat = state.ooc > 0
    hurt = damage_raw > 0
    healed_in_combat = (heal_raw > 0) & in_combat[None, :]
    return hurt.any(1) | hurt.any(0) | healed_in_combat.any(1) | healed_in_combat.any(0)


def regenerate(state: State, health, participant):
    """Out-of-combat regeneration after combat (RULES 2.7): (health (10,), regen (10,))."""
    cls = state.class_id
    max_health = jnp.asarray(C.MAX_HEALTH)[cls]
    rate = jnp.asarray(C.REGEN_FRACTION)[cls] * max_health
    rate = stored(jnp.where(state.status[:, C.ANTI_HEAL] > 0, rate * C.ANTI_HEAL_FACTOR, rate))
    eligible = legality.acting(state) & (state.ooc == 0) & ~participant
    healed = jnp.where(eligible, jnp.minimum(health + rate, max_health), health)
    return healed, healed - health


def cooldowns(state: State, lane):
    """Ultimate cooldowns after the tick (RULES 4, 7): (cooldown, started, ready)."""
    started = lane == LANE_ULT
    ticked = jnp.maximum(state.cooldown - 1, 0)
    cooldown = jnp.where(started, jnp.asarray(C.ULT_COOLDOWNS)[state.class_id], ticked)
    return cooldown.astype(jnp.int32), started, (state.cooldown > 0) & (cooldown == 0)
