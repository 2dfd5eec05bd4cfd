"""One topic per class: Mage, Warrior, Hunter, Rogue and Priest passives and Ultimates.

Slot metrics here are computed for every slot and kept only for slots of the topic's class.
"""

import numpy as np

from engine import constants as C
from evaluation.metrics.arrays import TEAM, masked_mean, ratio, window_sum
from evaluation.metrics.catalog import POISON_WINDOW
from evaluation.metrics.registry import provides

LANE_BASIC, LANE_ULT = 1, 2


def _split(cover: np.ndarray, amount: np.ndarray) -> np.ndarray:
    """Shares an amount per (tick, beneficiary) evenly over its emitters: (T, emitter, b)."""
    emitters = cover.sum(1)
    per = np.divide(amount, emitters, out=np.zeros(amount.shape), where=emitters > 0)
    return cover * per[:, None, :]


def _on_lane(g, values: np.ndarray, lane: int) -> np.ndarray:
    """(T, 10) per-tick values summed over the ticks each slot used the lane."""
    return np.where(g.lane == lane, values, 0).sum(0)


# --- mage ----------------------------------------------------------------------------------------
@provides("mage.aura_cover", "mage.aura_bonus", "mage.aura_bonus_total", "mage.aura_allies")
def _mage_aura(g):
    cover = g.ev("mage_cover").astype(bool)
    out = g.damage["source"].sum(2)  # (T, beneficiary) source-stage damage dealt
    multiplier = g.ev("aura_out").astype(np.float64)
    bonus = np.where(multiplier > 1, out * (1 - 1 / np.maximum(multiplier, 1)), 0.0)
    shares = _split(cover, bonus).sum(0)
    allies = (cover & ~np.eye(10, dtype=bool)).sum(2)
    return cover.sum(0), shares, shares.sum(1), masked_mean(allies, g.alive)


@provides("mage.bursts", "mage.burst_damage", "mage.burst_bonus", "mage.burst_kills")
def _burst(g):
    burst = g.alive & (g.status[:, :, C.BURST] > 0)
    damage = (g.damage["source"].sum(2) * burst).sum(0)
    kills = (g.lethal & burst[:, :, None]).sum((0, 2))
    return (g.lane == LANE_ULT).sum(0), damage, damage * (1 - 1 / C.BURST_FACTOR), kills


# --- warrior -------------------------------------------------------------------------------------
@provides("warrior.aura_cover", "warrior.aura_saved", "warrior.aura_saved_total")
def _warrior_aura(g):
    cover = g.ev("warrior_cover").astype(bool)
    saved = (g.damage["source"] - g.damage["recipient"]).sum(1)  # (T, beneficiary)
    shares = _split(cover, saved).sum(0)
    return cover.sum(0), shares, shares.sum(1)


@provides("warrior.charges", "warrior.charge_distance", "warrior.charge_damage")
def _charge(g):
    distance = np.linalg.norm(g.ev("charge_move").astype(np.float64), axis=-1).sum(0)
    damage = _on_lane(g, g.damage["realised"].sum(2), LANE_ULT)
    return (g.lane == LANE_ULT).sum(0), distance, damage


@provides("warrior.charge_kills", "warrior.taken_share")
def _charge_kills(g):
    kills = (g.lethal & (g.lane == LANE_ULT)[:, :, None]).sum((0, 2))
    taken = g.damage["realised"].sum((0, 1))
    return kills, ratio(taken, g.team_sum(taken)[TEAM])


# --- hunter --------------------------------------------------------------------------------------
@provides("hunter.slows", "hunter.traps", "hunter.trap_damage")
def _hunter(g):
    damage = _on_lane(g, g.damage["realised"].sum(2), LANE_ULT)
    return (g.lane == LANE_BASIC).sum(0), (g.lane == LANE_ULT).sum(0), damage


@provides("hunter.traps_broken", "hunter.traps_expired", "hunter.traps_lethal")
def _trap_fates(g):
    """Each Trap ends at the victim's first later break or expiry, or a death from its own tick
    on (a break or expiry on the Trap's own tick belongs to an older Trap)."""
    fates = np.zeros((3, 10), np.int64)
    rec = g.ev("recipient")
    for s in np.flatnonzero(g.cls == C.HUNTER):  # loops over Traps, a handful a game
        for t in np.flatnonzero(g.lane[:, s] == LANE_ULT):
            fate = _trap_fate(g, int(rec[t, s]), t)
            if fate >= 0:
                fates[fate, s] += 1
    return fates[0], fates[1], fates[2]


def _trap_fate(g, v: int, t: int) -> int:
    """0 broken, 1 expired, 2 victim died, -1 still running at the end."""
    firsts = []
    for k, after in (("broken", t + 1), ("expired", t + 1), ("cleared", t)):
        ticks = np.flatnonzero(g.ev(f"status_{k}")[after:, v, C.TRAP_STUN]) + after
        firsts.append(ticks[0] if len(ticks) else np.iinfo(np.int64).max)
    if min(firsts) == np.iinfo(np.int64).max:
        return -1
    return int(np.argmin(firsts))


@provides("hunter.breaks")
def _breaks(g):
    broken = g.ev("status_broken")[:, :, C.TRAP_STUN].astype(bool)
    return (g.hit & broken[:, None, :]).sum(0)


# --- rogue ---------------------------------------------------------------------------------------
@provides("rogue.poisons", "rogue.poison_damage", "rogue.poison_kills")
def _poison(g):
    poisoned = (g.routed & (g.lane == LANE_ULT)[:, :, None]).astype(np.int64)
    recent = window_sum(poisoned, POISON_WINDOW, 0) > 0  # poisoned within [t - 4, t]
    kills = (recent & g.died[:, None, :]).sum((0, 2))
    damage = _on_lane(g, g.damage["realised"].sum(2), LANE_ULT)
    return (g.lane == LANE_ULT).sum(0), damage, kills


@provides("rogue.priority_share")
def _priority_share(g):
    soft = np.isin(g.cls, (C.MAGE, C.PRIEST))
    realised = g.damage["realised"].sum(0)
    return ratio(realised[:, soft].sum(1), realised.sum(1))


@provides("rogue.heal_denied", "rogue.team_heal_denied")
def _heal_denied(g):
    withheld = (g.heal["raw"] - g.heal["recipient"]).sum((0, 1))
    poisoned = g.status[:, :, C.ANTI_HEAL] > 0
    withheld = withheld + np.where(poisoned, g.ev("regen"), 0).sum(0)
    return withheld, g.team_sum(withheld)


# --- priest --------------------------------------------------------------------------------------
@provides("priest.efficiency", "priest.overheal", "priest.self_heal")
def _priest_heal(g):
    given = g.heal["realised"].sum((0, 2))
    overheal = (g.heal["recipient"] - g.heal["realised"]).sum((0, 2))
    self_heal = np.einsum("tss->s", g.heal["realised"])
    return ratio(given, g.heal["raw"].sum((0, 2))), overheal, self_heal


@provides("priest.holy_words", "priest.holy_word_healing", "priest.freedoms")
def _priest_abilities(g):
    healing = _on_lane(g, g.heal["realised"].sum(2), LANE_ULT)
    return (g.lane == LANE_ULT).sum(0), healing, (g.lane == LANE_BASIC).sum(0)


@provides("priest.rescues", "priest.rescues_total")
def _rescues(g):
    lethal_dose = g.alive & (g.damage["recipient"].sum(1) >= g.health) & ~g.died
    rescues = ((g.heal["raw"] > 0) & lethal_dose[:, None, :]).sum(0)
    return rescues, rescues.sum(1)


@provides("priest.freedom_bound")
def _freedom_bound(g):
    counters = g.status
    slow = np.where(counters > 0, C.SLOW_FACTOR, 1.0).prod(-1)
    binds = g.acting & ~g.stunned & (slow < C.FREEDOM_FLOOR) & (counters[:, :, C.FREEDOM] > 0)
    binds_next = np.concatenate([binds[1:], np.zeros((min(g.T, 1), 10), bool)])  # at t + 1
    freed = g.routed & (g.lane == LANE_BASIC)[:, :, None] & binds_next[:, None, :]
    return freed.sum((0, 2))
