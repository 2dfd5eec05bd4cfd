"""Combat topics: damage, healing, health, kills, deaths, focus."""

import numpy as np

from engine import constants as C
from evaluation.metrics.arrays import (
    DAMAGE_STAGES,
    HEAL_STAGES,
    TEAM,
    first_tick,
    masked_mean,
    ratio,
)
from evaluation.metrics.catalog import LOW_HEALTH
from evaluation.metrics.registry import add, provides

OPP = np.array([1, 0])


# --- damage --------------------------------------------------------------------------------------
def _stage(kind: str, stage: str, axes, team: bool = False):
    def fn(g):
        matrix = g.damage[stage] if kind == "damage" else g.heal[stage]
        values = matrix.sum(axes)
        return g.team_sum(values) if team else values

    return fn


for _s in DAMAGE_STAGES:
    add(f"damage.dealt_{_s}", _stage("damage", _s, (0, 2)))
    add(f"damage.taken_{_s}", _stage("damage", _s, (0, 1)))
    add(f"damage.team_dealt_{_s}", _stage("damage", _s, (0, 2), team=True))
    add(f"damage.team_taken_{_s}", _stage("damage", _s, (0, 1), team=True))
    add(f"damage.pair_{_s}", _stage("damage", _s, 0))


@provides("damage.overkill_dealt", "damage.overkill_taken")
def _overkill(g):
    excess = g.damage["recipient"] - g.damage["realised"]
    return excess.sum((0, 2)), excess.sum((0, 1))


@provides("damage.hits_dealt", "damage.hits_taken", "damage.max_hit")
def _hits(g):
    return g.hit.sum((0, 2)), g.hit.sum((0, 1)), g.damage["recipient"].max((0, 2), initial=0)


# --- healing -------------------------------------------------------------------------------------
for _s in HEAL_STAGES:
    add(f"healing.given_{_s}", _stage("heal", _s, (0, 2)))
    add(f"healing.received_{_s}", _stage("heal", _s, (0, 1)))
    add(f"healing.pair_{_s}", _stage("heal", _s, 0))
add("healing.team_raw", _stage("heal", "raw", (0, 2), team=True))
add("healing.team_realised", _stage("heal", "realised", (0, 2), team=True))


@provides("healing.overheal_given", "healing.overheal_received")
def _overheal(g):
    excess = g.heal["recipient"] - g.heal["realised"]
    return excess.sum((0, 2)), excess.sum((0, 1))


@provides("healing.heals_given", "healing.heals_received")
def _heals(g):
    healed = g.heal["raw"] > 0
    return healed.sum((0, 2)), healed.sum((0, 1))


@provides("healing.under_fire")
def _under_fire(g):
    hurt = g.damage["recipient"].sum(1) > 0  # (T, recipient)
    return (g.heal["realised"] * hurt[:, None, :]).sum((0, 2))


# --- health --------------------------------------------------------------------------------------
@provides("health.final")
def _health_final(g):
    return g.st("health")[-1]


@provides("health.mean_fraction", "health.min_fraction", "health.low_ticks")
def _health_fractions(g):
    frac = ratio(g.health, g.maxhp)
    lowest = np.where(g.alive, frac, np.inf).min(0, initial=np.inf)
    lowest = np.where(np.isfinite(lowest), lowest, np.nan)
    low = g.alive & (g.health < LOW_HEALTH * g.maxhp)
    return masked_mean(frac, g.alive), lowest, low.sum(0)


@provides("health.net_change")
def _net_change(g):
    gained = g.heal["realised"].sum((0, 1)) + g.ev("regen").sum(0)
    return gained - g.damage["realised"].sum((0, 1))


@provides("health.team_mean_fraction")
def _team_health(g):
    living = g.by_team(np.where(g.alive, g.health, 0))
    return ratio(living.mean(0), g.team_sum(g.maxhp)) if g.T else np.full(2, np.nan)


# --- kills ---------------------------------------------------------------------------------------
@provides("kills.contributions", "kills.lethal_damage")
def _contributions(g):
    return g.lethal.sum(0), (g.damage["realised"] * g.lethal).sum(0)


@provides("kills.contributed", "kills.single", "kills.shared")
def _contributed(g):
    single = (g.contributors == 1)[:, None, :]
    return g.lethal.sum((0, 2)), (g.lethal & single).sum((0, 2)), (g.lethal & ~single).sum((0, 2))


@provides("kills.team", "kills.team_single", "kills.team_shared", "kills.multi_ticks")
def _team_kills(g):
    deaths = g.by_team(g.died)[:, OPP]  # (T, 2) kills of each team
    single = g.team_sum(g.died & (g.contributors == 1))[OPP]
    shared = g.team_sum(g.died & (g.contributors >= 2))[OPP]
    return deaths.sum(0), single, shared, (deaths >= 2).sum(0)


@provides("kills.lethal_share")
def _lethal_share(g):
    team_kills = g.team_sum(g.died)[OPP]
    return ratio(g.lethal.sum((0, 2)), team_kills[TEAM])


# --- deaths --------------------------------------------------------------------------------------
@provides("deaths.count", "deaths.red_zone", "deaths.team", "deaths.team_red_zone")
def _deaths(g):
    red = g.died & g.ev("red_zone_death")
    return g.died.sum(0), red.sum(0), g.team_sum(g.died), g.team_sum(red)


@provides("deaths.first_tick", "deaths.alive_ticks", "deaths.mean_life")
def _lives(g):
    alive_ticks = g.alive.sum(0)
    lives = g.ev("respawned").sum(0) + 1
    return first_tick(g.died), alive_ticks, alive_ticks / lives


@provides("deaths.contributors_mean")
def _contributors_mean(g):
    return masked_mean(g.contributors, g.died)


# --- focus ---------------------------------------------------------------------------------------
@provides("focus.ganged_ticks", "focus.attackers_max", "focus.team_focus_ticks")
def _ganged(g):
    attackers = g.hit.sum(1)  # (T, recipient)
    ganged = attackers >= 2  # attackers of a unit are all its enemies
    focus_by = g.by_team(ganged)[:, OPP] > 0  # (T, 2) the team ganged up on someone
    return ganged.sum(0), attackers.max(0, initial=0), focus_by.sum(0)


@provides("focus.concentration")
def _concentration(g):
    raw = g.damage["raw"]
    team_on = np.stack([raw[:, TEAM == k].sum(1) for k in (0, 1)], 1)  # (T, 2, recipient)
    total = team_on.sum(2)
    share = ratio(team_on.max(2), total)
    return masked_mean(np.nan_to_num(share), total > 0)


@provides("focus.together")
def _together(g):
    hit = g.hit.astype(np.int64)
    return np.einsum("tsj,tuj->su", hit, hit)


@provides("focus.target_switches")
def _switches(g):
    out = np.zeros(10, np.int64)
    hitting = g.hit.any(2)
    target = g.hit.argmax(2)
    for s in range(C.NUM_SLOTS):  # a loop over slots; each slot's sequence is vectorised
        seq = target[hitting[:, s], s]
        out[s] = np.count_nonzero(seq[1:] != seq[:-1])
    return out
