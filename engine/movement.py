"""Movement: speed, the Warrior's Charge placement and ordinary movement (RULES 2.6, 4 steps 8-10).

Each ordinary move is split into 4 sub-steps of at most 0.5 map units (the body radius), so no
agent can pass through an obstacle: a disc that starts clear and moves at most its radius keeps its
centre outside every obstacle, and projection then pushes it back to the side it came from. Each
sub-step runs one collision pass (agent separation, bounds, obstacles, bounds); a disc still
overlapping an obstacle at the end (wedged between obstacles) returns to where it started the
phase, so static geometry always wins. Separation and obstacle projection are simultaneous over
all pairs and obstacles, so slot order never matters.
"""

import jax
import jax.numpy as jnp

from engine import constants as C
from engine import geometry

MOVE_VECTORS = jnp.asarray(C.MOVE_VECTORS)
SLOW_FACTOR = jnp.asarray(C.SLOW_FACTOR)
IS_STUN = jnp.asarray(C.IS_STUN)
BASE_SPEED = jnp.asarray(C.BASE_SPEED)


def speed(status, shield, class_id, acting, shield_speed: float, move_scale: float):
    """Effective speed in map units a tick (10,) float32 from statuses (10, 9) (RULES 2.6)."""
    active_status = status > 0
    slow = jnp.prod(jnp.where(active_status, SLOW_FACTOR, 1.0), axis=-1)
    floor = jnp.where(active_status[:, C.FREEDOM], C.FREEDOM_FLOOR, 0.0)
    multiplier = jnp.maximum(jnp.maximum(slow, floor), C.SLOW_FLOOR)
    stunned = jnp.any(active_status & IS_STUN, axis=-1)
    walking = jnp.where(stunned, 0.0, BASE_SPEED[class_id] * multiplier * move_scale)
    return jnp.where(acting, jnp.where(shield > 0, shield_speed, walking), 0.0)


def separate(pos: jnp.ndarray, collide: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Push every overlapping pair of participating discs apart by half the overlap each.

    All pairs are resolved at once from the same positions, so slot order never matters;
    coincident centres split along x (the lower slot goes +x).
    """
    diff = pos[:, None, :] - pos[None, :, :]  # [a, b] = a - b
    dist = jnp.sqrt(geometry.small_sum(diff * diff, -1))
    reach = radius[:, None] + radius[None, :]
    pair = collide[:, None] & collide[None, :] & ~jnp.eye(pos.shape[0], dtype=bool)
    overlap = jnp.where(pair & (dist < reach), reach - dist, 0.0)
    slots = jnp.arange(pos.shape[0])
    tie = jnp.where(slots[:, None] < slots[None, :], 1.0, -1.0)
    fallback = jnp.stack([tie, jnp.zeros_like(tie)], axis=-1)
    direction = jnp.where(
        (dist > C.OVERLAP_EPS)[..., None], diff / jnp.maximum(dist, 1e-12)[..., None], fallback
    )
    return pos + geometry.small_sum(0.5 * overlap[..., None] * direction, 1)


def settle(pos, movers, collide, near: geometry.ObstacleIndex, radius):
    """One collision pass over tentative positions `pos` (10, 2) (RULES 4, step 10).

    Agents separate, then bounds and obstacles push them out; agents that are not `movers`
    must be passed in unchanged and stay so (they neither separate nor get projected).
    """
    start = pos
    pos = separate(pos, collide, radius)
    pos = geometry.clip_to_bounds(pos, radius)
    pos = geometry.clip_to_bounds(geometry.project_near(pos, near, radius), radius)
    return jnp.where(movers[:, None], pos, start)


def unstick(start, pos, near: geometry.ObstacleIndex, radius):
    """Send any disc still overlapping an obstacle back to `start`: static geometry wins.

    A disc projected exactly onto an obstacle's edge can round to a hair inside it, so only an
    overlap deeper than C.STUCK_TOLERANCE counts as stuck.
    """
    stuck = geometry.overlap_near(pos, near, radius - C.STUCK_TOLERANCE)
    return jnp.where(stuck[:, None], start, pos)


def charge_endpoints(pos, charging, recipient, radius):
    """Where each charging Warrior lands: the tangent point on its target's near side (RULES 2.5).

    pos (10, 2), charging (10,) bool, recipient (10,) int32 slot -> (10, 2) positions.
    """
    target = pos[jnp.clip(recipient, 0)]
    offset = target - pos
    dist = jnp.sqrt(geometry.small_sum(offset * offset, -1))
    unit = offset / jnp.maximum(dist, 1e-12)[:, None]
    reach = radius + radius[jnp.clip(recipient, 0)]
    landing = target - reach[:, None] * unit
    return jnp.where(charging[:, None], landing, pos)


def charge_phase(pos, charging, recipient, movers, collide, near: geometry.ObstacleIndex, radius):
    """Place charging Warriors, then settle everyone once (nobody moves when nobody charges).

    Computed unconditionally and selected: over a batch of games a `lax.cond` runs both
    branches anyway, and measured about 18 us a game-tick slower than this select.
    """
    landed = charge_endpoints(pos, charging, recipient, radius)
    charged = unstick(pos, settle(landed, movers, collide, near, radius), near, radius)
    return jnp.where(jnp.any(charging), charged, pos)


def ordinary_move(pos, direction, spd, movers, shield, near: geometry.ObstacleIndex, radius):
    """Move agents by speed x direction in 4 sub-steps (RULES 4 step 10).

    direction (10, 2) unit vectors (world frame), spd (10,) map units a tick, movers (10,) bool
    = acting at tick start, shield (10,) ticks at tick start. Returns positions (10, 2).
    """
    start = pos
    delta = direction * spd[:, None] / C.MOVE_SUBSTEPS

    def substep(k, pos):
        # An expiring shield (1 tick left) rejoins collisions on the final sub-step.
        collide = movers & jnp.where(k == C.MOVE_SUBSTEPS - 1, shield <= 1, shield == 0)
        tentative = jnp.where(movers[:, None], pos + delta, pos)
        return settle(tentative, movers, collide, near, radius)

    pos = jax.lax.fori_loop(0, C.MOVE_SUBSTEPS, substep, pos)
    return unstick(start, pos, near, radius)
