"""The last phases of a tick: deaths, statuses, shields, respawn, score, outcome (RULES 4)."""

import jax.numpy as jnp

from engine import constants as C
from engine.types import Config, State

TEAM_OF_SLOT = jnp.asarray(C.TEAM_OF_SLOT)
STATUS_ON_HIT = jnp.asarray(C.STATUS_ON_HIT)
STATUS_ON_SELF = jnp.asarray(C.STATUS_ON_SELF)
STATUS_DURATION = jnp.asarray(C.STATUS_DURATION)


def in_red_zone(state: State) -> jnp.ndarray:
    """Is each agent inside its own team's Red Zone at this state? (10,) bool (RULES 1.6)."""
    zone = state.red_zones[TEAM_OF_SLOT]  # (10, 4)
    x, y = state.pos[:, 0], state.pos[:, 1]
    enabled = (zone[:, 2] > zone[:, 0]) & (zone[:, 3] > zone[:, 1])
    inside = (x >= zone[:, 0]) & (x <= zone[:, 2]) & (y >= zone[:, 1]) & (y <= zone[:, 3])
    return enabled & inside


def ooc_countdown(state: State, participant, alive_after):
    """Next out-of-combat countdown (RULES 2.7): (10,) int32."""
    delay = jnp.asarray(C.OOC_DELAY)[state.class_id]
    countdown = jnp.where(participant, delay, jnp.maximum(state.ooc - 1, 0))
    return jnp.where(alive_after, countdown, 0).astype(jnp.int32)


def fresh_statuses(state: State, lane, recipient) -> jnp.ndarray:
    """Channels applied this tick by accepted abilities: (10 recipients, 9) bool (RULES 2.5)."""
    cls = state.class_id
    lane_index = jnp.clip(lane - 1, 0, 1)
    per_source = STATUS_ON_HIT[cls, lane_index] & (lane > 0)[:, None]  # (10 sources, 9)
    routed = (recipient[:, None] == jnp.arange(C.NUM_SLOTS)[None, :])[:, :, None]
    on_recipient = jnp.any(routed & per_source[:, None, :], axis=0)
    on_self = STATUS_ON_SELF[cls] & (lane == 2)[:, None]
    return on_recipient | on_self


def statuses(state: State, fresh, hurt, died):
    """Age, break, refresh and clear status counters (RULES 4, 13).

    fresh (10, 9) bool, hurt (10,) bool (received positive raw damage), died (10,) bool.
    Returns (status (10, 9) int32, events dict of (10, 9) bool arrays).
    """
    aged = jnp.maximum(state.status - 1, 0)
    expired = (state.status > 0) & (aged == 0)
    breakable = jnp.asarray(C.BREAKS_ON_DAMAGE)[None, :] & hurt[:, None]
    broken = breakable & (aged > 0)
    aged = jnp.where(breakable, 0, aged)
    applied = fresh & (aged == 0)
    refreshed = fresh & (aged > 0)
    status = jnp.where(fresh, jnp.maximum(STATUS_DURATION[None, :], aged), aged)
    cleared = died[:, None] & (status > 0)
    status = jnp.where(died[:, None], 0, status)
    events = {
        "status_applied": applied,
        "status_refreshed": refreshed,
        "status_broken": broken,
        "status_expired": expired,
        "status_cleared": cleared,
    }
    return status.astype(jnp.int32), events


def respawn(config: Config, state: State, alive_start):
    """Respawn waves (RULES 4, 15) on a state whose deaths and shields are already updated.

    Agents dead at tick start on a team whose wave is due come back on their own pad with full
    health and a fresh spawn shield. Returns (state, respawned (10,) bool, wave (2,) bool).
    """
    due = state.wave_clock == 0
    revive = state.active & ~alive_start & due[TEAM_OF_SLOT]
    max_health = jnp.asarray(C.MAX_HEALTH)[state.class_id]
    clock = jnp.where(due, config.wave_period - 1, state.wave_clock - 1)
    state = state.replace(
        alive=state.alive | revive,
        health=jnp.where(revive, max_health, state.health),
        shield=jnp.where(revive, config.shield_ticks, state.shield).astype(jnp.int32),
        pos=jnp.where(revive[:, None], state.pads, state.pos),
        ooc=jnp.where(revive, 0, state.ooc),
        wave_clock=clock.astype(jnp.int32),
    )
    return state, revive, due


def score_delta(died, red_zone_death) -> jnp.ndarray:
    """Points each team earns from this tick's deaths (RULES 4, 16 and A4): (2,) int32."""
    points = jnp.where(red_zone_death, C.RED_ZONE_POINTS, 1) * died
    lost = jnp.stack([points[: C.TEAM_SIZE].sum(), points[C.TEAM_SIZE :].sum()])
    return lost[::-1].astype(jnp.int32)  # a death scores for the other team


def outcome(config: Config, score, tick):
    """Outcome code, terminated and truncated after a tick (RULES 4.3)."""
    k = config.score_threshold
    a_wins = (score[0] >= k) & (score[0] > score[1])
    b_wins = (score[1] >= k) & (score[1] > score[0])
    terminated = (score[0] >= k) | (score[1] >= k)
    truncated = tick >= config.horizon
    draw = ~a_wins & ~b_wins & (truncated | terminated)
    code = jnp.where(a_wins, C.A_WINS, jnp.where(b_wins, C.B_WINS, jnp.where(draw, C.DRAW, 0)))
    return code.astype(jnp.int32), terminated, truncated


def reward(state: State, code) -> jnp.ndarray:
    """Sparse team reward (RULES A13): +1 / -1 for active slots of the winner / loser, (10,)."""
    team_won = jnp.stack([code == C.A_WINS, code == C.B_WINS])[TEAM_OF_SLOT]
    team_lost = jnp.stack([code == C.B_WINS, code == C.A_WINS])[TEAM_OF_SLOT]
    value = jnp.where(team_won, 1.0, jnp.where(team_lost, -1.0, 0.0))
    return jnp.where(state.active, value, 0.0).astype(jnp.float32)
