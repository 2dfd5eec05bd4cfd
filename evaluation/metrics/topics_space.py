"""Topics about space and sight: movement, positioning, exposure, red_zone, vision, teamwork."""

import numpy as np

from engine import constants as C
from evaluation.metrics.arrays import EYE, TEAM, masked_mean, ratio
from evaluation.metrics.catalog import ALONE_RADIUS, CLOSE_RADIUS
from evaluation.metrics.registry import provides

STILL = 1e-6  # map units; a displacement below this is standing still


# --- movement ------------------------------------------------------------------------------------
@provides("movement.distance", "movement.walked", "movement.mean_speed", "movement.team_distance")
def _distance(g):
    walked = np.linalg.norm(g.ev("move").astype(np.float64), axis=-1).sum(0)
    charged = np.linalg.norm(g.ev("charge_move").astype(np.float64), axis=-1).sum(0)
    distance = walked + charged
    return distance, walked, ratio(walked, g.alive.sum(0)), g.team_sum(distance)


@provides("movement.still_ticks", "movement.stay_orders")
def _still(g):
    moved = np.linalg.norm(g.ev("move"), axis=-1) + np.linalg.norm(g.ev("charge_move"), axis=-1)
    still = g.alive & ~g.stunned & (moved < STILL)
    return still.sum(0), (g.alive & (g.ev("accepted")[:, :, 0] == 0)).sum(0)


# --- positioning ---------------------------------------------------------------------------------
def _nearest(g, relation: np.ndarray):
    """(T, 10) distance to the nearest living unit in relation, inf where none."""
    usable = g.both_alive & relation
    return np.where(usable, g.dist, np.inf).min(2, initial=np.inf)


def alone(g) -> np.ndarray:
    """(T, 10) bool: alive with no living teammate within ALONE_RADIUS."""
    if "_alone" not in g.__dict__:
        g.__dict__["_alone"] = g.alive & ~(_nearest(g, g.mate) <= ALONE_RADIUS)
    return g.__dict__["_alone"]


@provides("positioning.nearest_ally", "positioning.nearest_enemy")
def _nearest_both(g):
    ally, enemy = _nearest(g, g.mate), _nearest(g, g.enemy)
    return (
        masked_mean(ally, g.alive & np.isfinite(ally)),
        masked_mean(enemy, g.alive & np.isfinite(enemy)),
    )


@provides("positioning.alone_ticks", "positioning.team_alone_ticks")
def _alone(g):
    ticks = alone(g).sum(0)
    return ticks, g.team_sum(ticks)


@provides("positioning.pair_distance", "positioning.pair_close")
def _pairs(g):
    close = g.both_alive & (g.dist <= CLOSE_RADIUS)
    return masked_mean(g.dist, g.both_alive), close.sum(0)


@provides("positioning.depth", "positioning.enemy_half_ticks")
def _depth(g):
    end = g.team_end[TEAM]  # (10,) 0 west, 1 east
    x = g.pos[:, :, 0]
    depth = np.where(end == 0, x, C.MAP_WIDTH - x)
    forward = g.alive & (depth > C.MAP_WIDTH / 2)
    return masked_mean(depth, g.alive), forward.sum(0)


@provides("positioning.team_spread")
def _spread(g):
    out = np.full(2, np.nan)
    for k in range(C.NUM_TEAMS):
        w = g.alive[:, TEAM == k].astype(np.float64)  # (T, 5)
        pos = g.pos[:, TEAM == k]
        count = w.sum(1)
        centre = (pos * w[..., None]).sum(1) / np.maximum(count, 1)[:, None]
        spread = (np.linalg.norm(pos - centre[:, None], axis=-1) * w).sum(1) / np.maximum(count, 1)
        out[k] = masked_mean(spread, count >= 2)
    return out


# --- exposure ------------------------------------------------------------------------------------
def watchers(g) -> np.ndarray:
    """(T, 10) number of enemies that see each slot directly at tick start."""
    return (g.visible[:-1] & g.enemy).sum(1)


@provides("exposure.seen_ticks", "exposure.mean_watchers", "exposure.team_seen_ticks")
def _seen(g):
    count = watchers(g)
    seen = g.alive & (count > 0)
    return seen.sum(0), masked_mean(count, g.alive), (g.by_team(seen) > 0).sum(0)


@provides("exposure.hit_unseen")
def _hit_unseen(g):
    unseen = ~g.visible[:-1].transpose(0, 2, 1)  # [t, source, recipient]: recipient blind
    return (g.damage["realised"] * unseen).sum((0, 1))


# --- red_zone ------------------------------------------------------------------------------------
def in_zone(g) -> np.ndarray:
    """(T, 10, 2) bool: alive and inside team k's Red Zone (centre, edges included)."""
    zones = np.asarray(g.states["red_zones"], np.float64)  # (2, 4) by team
    x, y = g.pos[:, :, 0, None], g.pos[:, :, 1, None]
    enabled = (zones[:, 2] > zones[:, 0]) & (zones[:, 3] > zones[:, 1])
    inside = (x >= zones[:, 0]) & (x <= zones[:, 2]) & (y >= zones[:, 1]) & (y <= zones[:, 3])
    return g.alive[..., None] & enabled & inside


@provides("red_zone.own_ticks", "red_zone.enemy_ticks", "red_zone.team_own_ticks")
def _zone_ticks(g):
    zone = in_zone(g)
    own = np.take_along_axis(zone, TEAM[None, :, None], 2)[..., 0]
    other = np.take_along_axis(zone, 1 - TEAM[None, :, None], 2)[..., 0]
    return own.sum(0), other.sum(0), g.team_sum(own.sum(0))


@provides("red_zone.kills", "red_zone.damage_taken")
def _zone_combat(g):
    own = np.take_along_axis(in_zone(g), TEAM[None, :, None], 2)[..., 0]
    red = g.died & g.ev("red_zone_death")
    taken = g.damage["realised"].sum(1)
    return (g.lethal & red[:, None, :]).sum((0, 2)), (taken * own).sum(0)


# --- vision --------------------------------------------------------------------------------------
@provides("vision.seen", "vision.relayed", "vision.enemies_seen", "vision.relay_gain")
def _vision(g):
    seen = g.visible[:-1]
    relayed = g.relayed[:-1] & ~seen
    enemies = (seen & g.enemy).sum(2)
    gain = g.alive & (relayed & g.enemy).any(2)
    return seen.sum(0), relayed.sum(0), masked_mean(enemies, g.alive), gain.sum(0)


@provides("vision.team_coverage", "vision.first_contact")
def _coverage(g):
    seen = g.visible[:-1] & g.enemy & g.alive[:, :, None]
    coverage, first = np.full(2, np.nan), np.full(2, -1)
    for k in range(C.NUM_TEAMS):
        living = g.alive[:, TEAM != k]
        spotted = seen[:, TEAM == k][:, :, TEAM != k].any(1) & living
        share = ratio(spotted.sum(1), living.sum(1))
        coverage[k] = masked_mean(np.nan_to_num(share), living.any(1))
        contact = np.flatnonzero(spotted.any(1))
        first[k] = contact[0] if len(contact) else -1
    return coverage, first


# --- teamwork ------------------------------------------------------------------------------------
@provides("teamwork.shared_kills", "teamwork.followups")
def _shared(g):
    lethal = g.lethal.astype(np.int64)
    hit = g.hit.astype(np.int64)
    shared = np.einsum("tsv,tuv->su", lethal, lethal)
    followups = np.einsum("tsv,tuv->su", hit[1:], hit[:-1])
    return shared, followups


@provides("teamwork.covered_ticks", "teamwork.team_together_ticks")
def _covered(g):
    cover = (g.ev("mage_cover") | g.ev("warrior_cover")) & ~EYE
    covered = g.alive & cover.any(1)
    living = g.by_team(g.alive)
    lonely = g.by_team(alone(g))
    return covered.sum(0), ((living > 0) & (lonely == 0)).sum(0)
