"""Random but rule-consistent games in NumPy, for metric invariants (no engine, no JAX).

Each tick follows the bookkeeping of RULES 4: random abilities (no range checks), auras from
random cover, Burst and anti-heal from the status counters, the single clamp with overkill and
overheal split pro rata, regeneration, the status lifecycle, respawn waves with shields, Red Zone
deaths and the score. Positions wander; sight is by distance (6 units), enemies never see a
shielded unit, and relays come from a teammate's sighting on the previous tick.
"""

import numpy as np

from engine import constants as C
from evaluation.replay_schema import EVENT_FIELDS, STATE_FIELDS

TEAM = C.TEAM_OF_SLOT
ZONES = np.array([[0, 0, 4, 10], [16, 0, 20, 10]], np.float32)


def _initial(rng, roster: np.ndarray) -> dict:
    s = {k: np.zeros(shape, dtype) for k, (shape, dtype) in STATE_FIELDS.items()}
    s["class_id"][:] = roster
    s["active"][:] = roster > 0
    s["red_zones"][:] = ZONES
    s["alive"][:] = s["active"]
    s["health"][:] = C.MAX_HEALTH[roster] * rng.uniform(0.3, 1.0, 10)
    s["pos"][:] = rng.uniform([0.5, 0.5], [19.5, 9.5], (10, 2)) * s["active"][:, None]
    s["wave_clock"][:] = C.WAVE_PERIOD - 1
    return s


def _choose(rng, s: dict) -> tuple[np.ndarray, np.ndarray]:
    lane, recipient = np.zeros(10, np.int32), np.full(10, -1, np.int32)
    stunned = ((s["status"] > 0) & C.IS_STUN).any(1)
    targetable = s["alive"] & (s["shield"] == 0)
    for i in np.flatnonzero(s["alive"] & (s["shield"] == 0) & ~stunned):
        cls = s["class_id"][i]
        ult = s["cooldown"][i] == 0 and rng.random() < 0.3
        if ult and cls == C.MAGE:
            lane[i] = 2
            continue
        relation = C.ULT_RELATION[cls] if ult else C.BASIC_RELATION[cls]
        friendly = relation in (C.REL_ALLY, C.REL_SELF)
        options = np.flatnonzero(targetable & ((TEAM == TEAM[i]) == friendly))
        if len(options) and rng.random() < 0.8:
            lane[i], recipient[i] = (2 if ult else 1), rng.choice(options)
    return lane, recipient


def _auras(rng, s: dict, e: dict) -> None:
    ok = s["alive"] & (s["shield"] == 0)
    near = rng.random((10, 10)) < 0.4
    near = near | near.T | np.eye(10, dtype=bool)
    linked = ok[:, None] & ok[None, :] & near & (TEAM[:, None] == TEAM[None, :])
    e["mage_cover"] = linked & (s["class_id"] == C.MAGE)[:, None]
    e["warrior_cover"] = linked & (s["class_id"] == C.WARRIOR)[:, None]
    mages, warriors = e["mage_cover"].sum(0), e["warrior_cover"].sum(0)
    e["aura_out"] = np.minimum(C.MAGE_AURA_FACTOR**mages, C.MAGE_AURA_CEILING).astype(np.float32)
    e["aura_in"] = np.maximum(C.WARRIOR_AURA_FACTOR**warriors, C.WARRIOR_AURA_FLOOR)
    e["aura_in"] = e["aura_in"].astype(np.float32)


def _combat(s: dict, e: dict) -> np.ndarray:
    cls, lane = s["class_id"], e["lane"]
    routed = (e["recipient"][:, None] == np.arange(10)) & (lane > 0)[:, None]
    raw_d = np.where(lane == 1, C.BASIC_DAMAGE[cls], np.where(lane == 2, C.ULT_DAMAGE[cls], 0))
    raw_h = np.where(lane == 1, C.BASIC_HEAL[cls], np.where(lane == 2, C.ULT_HEAL[cls], 0))
    burst = np.where(s["status"][:, C.BURST] > 0, C.BURST_FACTOR, 1.0)
    anti = np.where(s["status"][:, C.ANTI_HEAL] > 0, C.ANTI_HEAL_FACTOR, 1.0)
    e["damage_raw"] = routed * raw_d[:, None]
    e["damage_source"] = e["damage_raw"] * (burst * e["aura_out"])[:, None]
    e["damage_recipient"] = e["damage_source"] * e["aura_in"][None, :]
    e["heal_raw"] = routed * raw_h[:, None]
    e["heal_recipient"] = e["heal_raw"] * anti[None, :]
    D, H, h = e["damage_recipient"].sum(0), e["heal_recipient"].sum(0), s["health"]
    m = C.MAX_HEALTH[cls]
    overkill, overheal = np.maximum(D - H - h, 0), np.maximum(h + H - D - m, 0)
    e["damage_realised"] = e["damage_recipient"] * np.divide(
        D - overkill, D, where=D > 0, out=np.zeros(10)
    )
    e["heal_realised"] = e["heal_recipient"] * np.divide(
        H - overheal, H, where=H > 0, out=np.zeros(10)
    )
    return np.clip(h + H - D, 0, m)


def _regen(s: dict, e: dict, health: np.ndarray) -> np.ndarray:
    in_combat = s["ooc"] > 0
    hurt = e["damage_raw"] > 0
    helped = (e["heal_raw"] > 0) & in_combat[None, :]
    e["ooc_reset"] = hurt.any(1) | hurt.any(0) | helped.any(1) | helped.any(0)
    m = C.MAX_HEALTH[s["class_id"]]
    rate = C.REGEN_FRACTION[s["class_id"]] * m
    rate = np.where(s["status"][:, C.ANTI_HEAL] > 0, rate * C.ANTI_HEAL_FACTOR, rate)
    eligible = s["alive"] & (s["ooc"] == 0) & ~e["ooc_reset"]
    healed = np.where(eligible, np.minimum(health + rate, m), health)
    e["regen"] = (healed - health).astype(np.float32)
    return healed


def _statuses(s: dict, e: dict, died: np.ndarray) -> np.ndarray:
    cls, lane = s["class_id"], e["lane"]
    on_hit = C.STATUS_ON_HIT[cls, np.clip(lane - 1, 0, 1)] & (lane > 0)[:, None]
    routed = e["recipient"][:, None] == np.arange(10)
    fresh = (routed[:, :, None] & on_hit[:, None, :]).any(0)
    fresh |= C.STATUS_ON_SELF[cls] & (lane == 2)[:, None]
    aged = np.maximum(s["status"] - 1, 0)
    e["status_expired"] = (s["status"] > 0) & (aged == 0)
    breakable = C.BREAKS_ON_DAMAGE[None, :] & (e["damage_raw"] > 0).any(0)[:, None]
    e["status_broken"] = breakable & (aged > 0)
    aged = np.where(breakable, 0, aged)
    e["status_applied"], e["status_refreshed"] = fresh & (aged == 0), fresh & (aged > 0)
    status = np.where(fresh, np.maximum(C.STATUS_DURATION[None, :], aged), aged)
    e["status_cleared"] = died[:, None] & (status > 0)
    return np.where(died[:, None], 0, status)


def _sight(s: dict) -> np.ndarray:
    dist = np.linalg.norm(s["pos"][:, None] - s["pos"][None, :], axis=-1)
    enemy = TEAM[:, None] != TEAM[None, :]
    hidden = enemy & (s["shield"][None, :] > 0)
    return s["alive"][:, None] & s["alive"][None, :] & (dist <= 6.0) & ~hidden


def _relay(prev_seen, prev_alive, seen, alive) -> np.ndarray:
    mates = (TEAM[:, None] == TEAM[None, :]) & ~np.eye(10, dtype=bool) & prev_alive[None, :]
    told = (mates.astype(int) @ prev_seen.astype(int)) > 0
    return told & ~seen & alive[:, None] & prev_alive.any()


def _step(rng, s: dict, threshold: int, horizon: int) -> tuple[dict, dict]:
    e = {k: np.zeros(shape, dtype) for k, (shape, dtype) in EVENT_FIELDS.items()}
    e["lane"], e["recipient"] = _choose(rng, s)
    e["accepted"][:, 0] = np.where(s["alive"], rng.integers(0, 9, 10), 0)
    e["accepted"][:, 2] = e["lane"] == 2
    e["rejected"] = rng.random((10, 3)) < 0.02
    e["fallback"] = rng.random(10) < 0.02
    _auras(rng, s, e)
    health = _regen(s, e, _combat(s, e))
    n = dict(s)
    died = s["alive"] & (health == 0)
    e["died"] = died
    zone = ZONES[TEAM]
    x, y = s["pos"][:, 0], s["pos"][:, 1]
    in_zone = (x >= zone[:, 0]) & (x <= zone[:, 2]) & (y >= zone[:, 1]) & (y <= zone[:, 3])
    e["red_zone_death"] = died & in_zone
    e["lethal"] = died[None, :] & (e["damage_recipient"] > 0)
    used = e["lane"] == 2
    n["cooldown"] = np.where(used, C.ULT_COOLDOWN, np.maximum(s["cooldown"] - 1, 0))
    e["cooldown_started"], e["cooldown_ready"] = used, (s["cooldown"] > 0) & (n["cooldown"] == 0)
    moving = s["alive"] & ~((s["status"] > 0) & C.IS_STUN).any(1)
    e["move"] = (rng.normal(0, 0.7, (10, 2)) * moving[:, None]).astype(np.float32)
    n["pos"] = np.clip(s["pos"] + e["move"], 0.5, [19.5, 9.5]).astype(np.float32)
    e["move"] = np.where(moving[:, None], n["pos"] - s["pos"], 0).astype(np.float32)
    n["status"] = _statuses(s, e, died)
    alive = s["alive"] & ~died
    n["shield"] = np.where(alive, np.maximum(s["shield"] - 1, 0), 0)
    e["shield_expired"] = (s["shield"] > 0) & (n["shield"] == 0) & alive
    n["ooc"] = np.where(
        alive, np.where(e["ooc_reset"], C.OOC_DELAY[s["class_id"]], np.maximum(s["ooc"] - 1, 0)), 0
    )
    due = s["wave_clock"] == 0
    revive = s["active"] & ~s["alive"] & due[TEAM]
    e["respawned"], e["wave"] = revive, due
    n["alive"] = alive | revive
    n["health"] = np.where(revive, C.MAX_HEALTH[s["class_id"]], np.where(died, 0, health))
    n["shield"] = np.where(revive, C.SHIELD_TICKS, n["shield"])
    n["ooc"] = np.where(revive, 0, n["ooc"])
    n["wave_clock"] = np.where(due, C.WAVE_PERIOD - 1, s["wave_clock"] - 1)
    points = np.where(e["red_zone_death"], C.RED_ZONE_POINTS, 1) * died
    e["score_delta"] = np.array([points[TEAM == 1].sum(), points[TEAM == 0].sum()])
    n["score"] = s["score"] + e["score_delta"]
    n["tick"] = s["tick"] + 1
    a, b = n["score"]
    e["terminated"] = max(a, b) >= threshold
    e["truncated"] = n["tick"] >= horizon
    code = C.A_WINS if a >= threshold and a > b else C.B_WINS if b >= threshold and b > a else 0
    if code == 0 and (e["terminated"] or e["truncated"]):
        code = C.DRAW
    e["outcome"] = n["outcome"] = code
    return {k: np.asarray(v, STATE_FIELDS[k][1]) for k, v in n.items()}, e


def random_game(seed: int, roster, ticks: int = 60, threshold: int = 6) -> dict:
    """Replay parts of one game: stops when a team reaches `threshold` or after `ticks`."""
    rng = np.random.default_rng(seed)
    s = _initial(rng, np.asarray(roster, np.int32))
    states, events = [s], []
    while not (events and (events[-1]["terminated"] or events[-1]["truncated"])):
        s, e = _step(rng, s, threshold, ticks)
        states.append(s)
        events.append(e)
    stack = {k: np.stack([x[k] for x in states]) for k in STATE_FIELDS}
    ev = {k: np.stack([np.asarray(x[k], EVENT_FIELDS[k][1]) for x in events]) for k in EVENT_FIELDS}
    seen = np.stack([_sight(x) for x in states])
    relayed = np.zeros_like(seen)
    for t in range(1, len(states)):
        alive_now, alive_before = states[t]["alive"], states[t - 1]["alive"]
        relayed[t] = _relay(seen[t - 1], alive_before, seen[t], alive_now)
    return {"states": stack, "events": ev, "visible": seen, "relayed": relayed,
            "header": {"game_id": f"random-{seed}"}}  # fmt: skip
