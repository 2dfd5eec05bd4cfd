"""Topics about statuses and abilities: control, status, cooldown, abilities, regen, respawn."""

import numpy as np

from engine import constants as C
from evaluation.metrics.arrays import SLOW_CHANNELS, STUN_CHANNELS, first_tick, ratio
from evaluation.metrics.registry import add, provides

LANE_BASIC, LANE_ULT = 1, 2


def landed(g) -> np.ndarray:
    """(T, source, recipient, 9) bool: the source's ability applied or refreshed the channel."""
    cache = g.__dict__
    if "_landed" not in cache:
        lane_index = np.clip(g.lane - 1, 0, 1)
        carries = C.STATUS_ON_HIT[g.cls[None, :], lane_index] & (g.lane > 0)[..., None]
        updated = g.ev("status_applied") | g.ev("status_refreshed")  # (T, recipient, 9)
        cache["_landed"] = g.routed[..., None] & carries[:, :, None, :] & updated[:, None]
    return cache["_landed"]


# --- control -------------------------------------------------------------------------------------
@provides("control.stunned_ticks", "control.slowed_ticks", "control.controlled_ticks")
def _controlled(g):
    return g.stunned.sum(0), g.slowed.sum(0), g.controlled.sum(0)


@provides("control.team_controlled_ticks")
def _team_controlled(g):
    return g.team_sum(g.controlled)


@provides("control.stuns_landed", "control.slows_landed")
def _landed(g):
    hits = landed(g)
    return hits[..., STUN_CHANNELS].any(-1).sum(0), hits[..., SLOW_CHANNELS].any(-1).sum(0)


@provides("control.pair_on_controlled", "control.damage_on_controlled")
def _on_controlled(g):
    pair = (g.damage["realised"] * g.controlled[:, None, :]).sum(0)
    return pair, pair.sum(1)


@provides("control.kills_on_controlled")
def _kills_on_controlled(g):
    return (g.lethal & g.controlled[:, None, :]).sum((0, 2))


# --- status --------------------------------------------------------------------------------------
def _channel(field: str, k: int):
    if field == "active":
        return lambda g: (g.alive & (g.status[:, :, k] > 0)).sum(0)
    return lambda g: g.ev(f"status_{field}")[:, :, k].sum(0)


for _k, _name in enumerate(C.STATUS_NAMES):
    add(f"status.applied_{_name}", _channel("applied", _k))
    add(f"status.active_{_name}", _channel("active", _k))
for _field in ("refreshed", "expired", "cleared", "broken"):
    add(f"status.{_field}", lambda g, f=_field: g.ev(f"status_{f}").sum((0, 2)))


# --- cooldown ------------------------------------------------------------------------------------
@provides("cooldown.started", "cooldown.ready_events", "cooldown.utilisation")
def _cooldowns(g):
    cooling = g.st("cooldown")[:-1] > 0
    started, ready = g.ev("cooldown_started"), g.ev("cooldown_ready")
    return started.sum(0), ready.sum(0), ratio(cooling.sum(0), g.T)


@provides("cooldown.ready_idle_ticks", "cooldown.first_use_tick")
def _ready_idle(g):
    used = g.lane == LANE_ULT
    idle = g.acting & (g.st("cooldown")[:-1] == 0) & ~used
    return idle.sum(0), first_tick(used)


@provides("cooldown.mean_delay")
def _mean_delay(g):
    out = np.full(10, np.nan)
    ready = g.ev("cooldown_ready")
    for s in range(C.NUM_SLOTS):  # per slot: ready times 0 and t + 1, uses at t
        uses = np.flatnonzero(g.lane[:, s] == LANE_ULT)
        if len(uses):
            since = np.concatenate([[0], np.flatnonzero(ready[:, s]) + 1])
            latest = since[np.searchsorted(since, uses, side="right") - 1]
            out[s] = (uses - latest).mean()
    return out


# --- abilities -----------------------------------------------------------------------------------
@provides("abilities.basics", "abilities.ultimates", "abilities.idle_ticks")
def _abilities(g):
    idle = g.acting & (g.lane == 0)
    return (g.lane == LANE_BASIC).sum(0), (g.lane == LANE_ULT).sum(0), idle.sum(0)


@provides("abilities.basic_hits", "abilities.ultimate_hits")
def _ability_hits(g):
    routed = g.routed
    basic = routed & (g.lane == LANE_BASIC)[:, :, None]
    ult = routed & (g.lane == LANE_ULT)[:, :, None]
    return basic.sum(0), ult.sum(0)


@provides("abilities.damage_per_hit", "abilities.action_rate")
def _rates(g):
    per_hit = ratio(g.damage["recipient"].sum((0, 2)), g.hit.sum((0, 2)))
    rate = ratio((g.acting & (g.lane > 0)).sum(0), g.acting.sum(0))
    return per_hit, rate


# --- regen ---------------------------------------------------------------------------------------
@provides("regen.total", "regen.ticks", "regen.team", "regen.share")
def _regen(g):
    regen = g.ev("regen").astype(np.float64)
    total = regen.sum(0)
    healed = g.heal["realised"].sum((0, 1))
    return total, (regen > 0).sum(0), g.team_sum(total), ratio(total, total + healed)


@provides("regen.combat_ticks", "regen.combat_resets")
def _combat(g):
    in_combat = g.alive & (g.st("ooc")[:-1] > 0)
    return in_combat.sum(0), g.ev("ooc_reset").sum(0)


# --- respawn -------------------------------------------------------------------------------------
@provides("respawn.count", "respawn.shield_expired", "respawn.waves")
def _respawns(g):
    return g.ev("respawned").sum(0), g.ev("shield_expired").sum(0), g.ev("wave").sum(0)


@provides("respawn.dead_ticks", "respawn.team_dead_ticks", "respawn.shield_ticks")
def _dead(g):
    dead = g.active & ~g.alive
    return dead.sum(0), g.team_sum(dead), g.shielded.sum(0)


@provides("respawn.mean_wait")
def _mean_wait(g):
    out = np.full(10, np.nan)
    respawned = g.ev("respawned")
    for s in range(
        C.NUM_SLOTS
    ):  # each respawn pairs with the last death before it, if the game saw one
        deaths = np.flatnonzero(g.died[:, s])
        back = np.flatnonzero(respawned[:, s])
        last = np.searchsorted(deaths, back) - 1
        if np.any(last >= 0):
            out[s] = (back[last >= 0] - deaths[last[last >= 0]]).mean()
    return out
