"""Test-only replays: a small NumPy game with the engine's State/Events shapes (no JAX).

`synthetic_replay(ticks, seed)` plays a crude but self-consistent Team Deathmatch: units walk
toward the enemy, hit the nearest visible enemy in range (Priests heal), use Ultimates now and
then, die, score (2 points in their own Red Zone), respawn in 5-tick waves with a 3-tick shield;
`visible`/`relayed` follow RULES 5.2 and A8 with line of sight. It is not the engine: numbers
such as auras and regeneration are left out; only shapes, dtypes and bookkeeping match.
"""

import numpy as np

from evaluation.replay import Replay
from evaluation.replay_schema import EVENT_FIELDS, STATE_FIELDS
from ui.geometry import los_clear
from ui.rules import C

TEAM = np.repeat([0, 1], 5)


def _obstacles() -> np.ndarray:
    table = np.zeros((32, 8), np.float32)
    table[0] = [C.OBSTACLE_PILLAR, 7.0, 5.0, 0.8, 0, 0, 0, 1]
    table[1] = [C.OBSTACLE_PILLAR, 13.0, 5.0, 0.8, 0, 0, 0, 1]
    table[2] = [C.OBSTACLE_WALL, 10.0, 2.0, 0, 0.6, 2.0, 0, 1]
    table[3] = [C.OBSTACLE_WALL, 10.0, 8.0, 0, 0.6, 2.0, 0, 1]
    return table


def _pads(spawn_end: int) -> np.ndarray:
    ys = np.array([1.5, 3.25, 5.0, 6.75, 8.5], np.float32)
    west, east = np.stack([np.full(5, 1.5), ys], 1), np.stack([np.full(5, 18.5), ys], 1)
    return np.concatenate([west, east] if spawn_end == 0 else [east, west]).astype(np.float32)


def _sight(s: dict) -> np.ndarray:
    """RULES 5.2: (10, 10) [observer, seen] in range, clear LOS, both alive, enemy unshielded."""
    seen = np.zeros((10, 10), bool)
    for i in range(10):
        for j in range(10):
            if not (s["alive"][i] and s["alive"][j]):
                continue
            if i == j:
                seen[i, j] = True
                continue
            if TEAM[i] != TEAM[j] and s["shield"][j] > 0:
                continue
            near = np.linalg.norm(s["pos"][i] - s["pos"][j]) <= C.SIGHT_RADIUS[s["class_id"][i]]
            seen[i, j] = near and los_clear(s["pos"][i], s["pos"][j], s["obstacles"])
    return seen


def _relay(seen_before: np.ndarray, seen_now: np.ndarray, alive_before: np.ndarray) -> np.ndarray:
    """RULES A8: a living teammate saw the unit last tick and the observer does not see it now."""
    relayed = np.zeros((10, 10), bool)
    for i in range(10):
        mates = (TEAM == TEAM[i]) & alive_before & (np.arange(10) != i)
        relayed[i] = seen_before[mates].any(axis=0) & ~seen_now[i]
    return relayed


def _initial(roster: np.ndarray, spawn_end: int) -> dict:
    active = roster > 0
    s = {k: np.zeros(shape, dtype) for k, (shape, dtype) in STATE_FIELDS.items()}
    s.update(obstacles=_obstacles(), pads=_pads(spawn_end), class_id=roster.astype(np.int32))
    s["red_zones"] = np.array([[0, 0, 4, 10], [16, 0, 20, 10]], np.float32)
    if spawn_end:
        s["red_zones"] = s["red_zones"][::-1].copy()
    s.update(active=active, alive=active.copy(), spawn_end=np.int32(spawn_end))
    s["pos"] = np.where(active[:, None], s["pads"], 0).astype(np.float32)
    s["health"] = C.MAX_HEALTH[roster].astype(np.float32)
    s["wave_clock"] = np.full(2, C.WAVE_PERIOD - 1, np.int32)
    s["seen"] = _sight(s)
    return s


def _choose(s: dict, rng) -> tuple[np.ndarray, np.ndarray]:
    """Each living unit picks a recipient slot (-1 none) and a lane (0 none, 1 Basic, 2 Ult)."""
    recipient, lane = np.full(10, -1, np.int32), np.zeros(10, np.int32)
    for i in np.flatnonzero(s["alive"] & (s["shield"] == 0) & (s["status"][:, 3:6].max(1) == 0)):
        cls = s["class_id"][i]
        friendly = cls == C.PRIEST
        cands = [
            j
            for j in np.flatnonzero(s["seen"][i] & (s["shield"] == 0))
            if (TEAM[j] == TEAM[i]) == friendly
        ]
        if friendly:
            cands.sort(key=lambda j: s["health"][j] / C.MAX_HEALTH[s["class_id"][j]])
        else:
            cands.sort(key=lambda j: np.linalg.norm(s["pos"][j] - s["pos"][i]))
        use_ult = s["cooldown"][i] == 0 and rng.random() < 0.2
        if use_ult and cls == C.MAGE:
            lane[i] = 2
            continue
        for j in cands[:1]:
            dist = np.linalg.norm(s["pos"][j] - s["pos"][i])
            if use_ult and dist <= C.ULT_RANGE[cls]:
                recipient[i], lane[i] = j, 2
            elif dist <= C.BASIC_RANGE[cls]:
                recipient[i], lane[i] = j, 1
    return recipient, lane


def _combat(s: dict, e: dict, recipient: np.ndarray, lane: np.ndarray) -> None:
    for i in np.flatnonzero(lane > 0):
        cls, j, ult = s["class_id"][i], recipient[i], lane[i] == 2
        if j < 0:  # Mage Burst
            continue
        damage = C.ULT_DAMAGE[cls] if ult else C.BASIC_DAMAGE[cls]
        heal = C.ULT_HEAL[cls] if ult else C.BASIC_HEAL[cls]
        burst = 1.5 if s["status"][i, C.BURST] > 0 else 1.0
        e["damage_raw"][i, j] = damage
        e["damage_source"][i, j] = e["damage_recipient"][i, j] = damage * burst
        anti = 0.5 if s["status"][j, C.ANTI_HEAL] > 0 else 1.0
        e["heal_raw"][i, j], e["heal_recipient"][i, j] = heal, heal * anti
    taken, healed = e["damage_recipient"].sum(0), e["heal_recipient"].sum(0)
    after = np.clip(s["health"] + healed - taken, 0, C.MAX_HEALTH[s["class_id"]])
    change = after - s["health"]
    for j in range(10):  # realised amounts, pro rata (RULES 4 step 5)
        loss, gain = max(-change[j], 0.0), max(change[j], 0.0)
        if taken[j] > 0:
            e["damage_realised"][:, j] = e["damage_recipient"][:, j] * loss / taken[j]
        if healed[j] > 0:
            e["heal_realised"][:, j] = e["heal_recipient"][:, j] * gain / healed[j]
    e["died"] = s["alive"] & (after <= 0)
    e["lethal"] = e["died"][None, :] & (e["damage_recipient"] > 0)
    s["health"] = np.where(e["died"], 0.0, after).astype(np.float32)


def _statuses(s: dict, e: dict, recipient: np.ndarray, lane: np.ndarray) -> None:
    before = s["status"].copy()
    aged = np.maximum(before - 1, 0)
    e["status_expired"] = (before > 0) & (aged == 0)
    fresh = np.zeros((10, 9), bool)
    for i in np.flatnonzero(lane > 0):
        cls, j = s["class_id"][i], recipient[i]
        if j >= 0:
            fresh[j] |= C.STATUS_ON_HIT[cls, lane[i] - 1]
        elif lane[i] == 2:
            fresh[i] |= C.STATUS_ON_SELF[cls]
    merged = np.where(fresh, np.maximum(C.STATUS_DURATION[None, :], aged), aged)
    e["status_applied"] = fresh & (aged == 0)
    e["status_refreshed"] = fresh & (aged > 0)
    e["status_cleared"] = e["died"][:, None] & (merged > 0)
    s["status"] = np.where(e["died"][:, None], 0, merged).astype(np.int32)


def _move(s: dict, rng, scale: float) -> np.ndarray:
    moving = s["alive"] & (s["status"][:, 3:6].max(1) == 0)
    enemy_centre = np.stack([s["pos"][5:].mean(0), s["pos"][:5].mean(0)])[TEAM]
    heading = enemy_centre - s["pos"] + rng.normal(0, 2.0, (10, 2))
    heading /= np.maximum(np.linalg.norm(heading, axis=1, keepdims=True), 1e-6)
    speed = np.where(s["shield"] > 0, 2.0, C.BASE_SPEED[s["class_id"]] * scale)
    step = np.where(moving[:, None], heading * speed[:, None], 0).astype(np.float32)
    s["pos"] = np.clip(s["pos"] + step, 0.5, [19.5, 9.5]).astype(np.float32)
    return step


def _in_red_zone(s: dict) -> np.ndarray:
    zone = s["red_zones"][TEAM]
    x, y = s["pos"][:, 0], s["pos"][:, 1]
    return (x >= zone[:, 0]) & (x <= zone[:, 2]) & (y >= zone[:, 1]) & (y <= zone[:, 3])


def _respawn(s: dict, e: dict, dead_at_start: np.ndarray) -> None:
    due = s["wave_clock"] == 0
    e["wave"] = due
    back = due[TEAM] & dead_at_start & s["active"]
    e["respawned"] = back
    s["alive"] = (s["alive"] & ~e["died"]) | back
    s["pos"] = np.where(back[:, None], s["pads"], s["pos"]).astype(np.float32)
    s["health"] = np.where(back, C.MAX_HEALTH[s["class_id"]], s["health"]).astype(np.float32)
    s["shield"] = np.where(back, C.SHIELD_TICKS, s["shield"]).astype(np.int32)
    s["wave_clock"] = np.where(due, C.WAVE_PERIOD - 1, s["wave_clock"] - 1).astype(np.int32)


def _step(s: dict, rng, t: int, horizon: int, threshold: int) -> tuple[dict, dict]:
    s = {k: np.array(v, copy=True) for k, v in s.items()}
    e = {k: np.zeros(shape, dtype) for k, (shape, dtype) in EVENT_FIELDS.items()}
    start_red, dead_at_start = _in_red_zone(s), ~s["alive"] & s["active"]
    recipient, lane = _choose(s, rng)
    e.update(recipient=recipient, lane=lane, aura_out=np.ones(10, np.float32))
    e["aura_in"] = np.ones(10, np.float32)
    target = np.where(
        recipient >= 0,
        np.where(TEAM[np.maximum(recipient, 0)] == TEAM, recipient % 5 + 1, recipient % 5 + 6),
        0,
    )
    e["submitted"] = np.stack([rng.integers(0, 9, 10), target, (lane == 2)], 1).astype(np.int32)
    e["accepted"] = e["submitted"].copy()
    _combat(s, e, recipient, lane)
    ult = lane == 2
    e["cooldown_started"] = ult
    e["cooldown_ready"] = (s["cooldown"] == 1) & ~ult
    s["cooldown"] = np.where(ult, C.ULT_COOLDOWN, np.maximum(s["cooldown"] - 1, 0))
    e["move"] = _move(s, rng, 1.0)
    _statuses(s, e, recipient, lane)
    e["shield_expired"] = s["shield"] == 1
    s["shield"] = np.maximum(s["shield"] - 1, 0).astype(np.int32)
    e["red_zone_death"] = e["died"] & start_red
    _respawn(s, e, dead_at_start)
    points = np.where(e["red_zone_death"], C.RED_ZONE_POINTS, 1) * e["died"]
    e["score_delta"] = np.array([points[5:].sum(), points[:5].sum()], np.int32)
    s["score"] = (s["score"] + e["score_delta"]).astype(np.int32)
    s["tick"], s["has_prev"] = np.int32(t + 1), np.bool_(True)
    s["prev_action"] = e["accepted"].copy()
    e["terminated"] = np.bool_((s["score"] >= threshold).any())
    e["truncated"] = np.bool_(t + 1 >= horizon)
    a, b = s["score"]
    outcome = C.A_WINS if a >= threshold and a > b else C.B_WINS if b >= threshold and b > a else 0
    if outcome == 0 and (e["truncated"] or e["terminated"]):
        outcome = C.DRAW
    e["outcome"] = s["outcome"] = np.int32(outcome)
    s["seen"] = _sight(s)
    return s, e


def _header(roster, spawn_end, seed, threshold, horizon, states, ticks) -> dict:
    final = states["outcome"][-1]
    return {
        "format_version": 1,
        "rules_version": "test",
        "created": "2026-01-01T00:00:00+00:00",
        "map": {
            "id": 99,
            "name": "synthetic",
            "split": "test",
            "obstacles": _obstacles().tolist(),
            "red_zones": states["red_zones"][0].tolist(),
        },
        "roster": roster.tolist(),
        "team_sizes": [int((roster[:5] > 0).sum()), int((roster[5:] > 0).sum())],
        "systems": ["scripted:synthetic" if c else "" for c in roster],
        "info_regime": "shared_obs",
        "seeds": {"game": int(seed)},
        "spawn_end": int(spawn_end),
        "score_threshold": int(threshold),
        "horizon": int(horizon),
        "result": {
            "outcome": int(final),
            "outcome_name": C.OUTCOME_NAMES[int(final)],
            "score": states["score"][-1].tolist(),
            "ticks": int(ticks),
        },
        "metrics_level": "none",
    }


def synthetic_replay(
    ticks: int = 40,
    seed: int = 0,
    roster=(1, 2, 3, 4, 5, 1, 2, 3, 4, 5),
    *,
    spawn_end: int = 0,
    threshold: int = 1000,
    fallback_ticks=(),
) -> Replay:
    """A `Replay` of up to `ticks` transitions (fewer if a team reaches `threshold`).

    `fallback_ticks` marks ticks where every slot's System gave no answer (events.fallback).
    """
    rng = np.random.default_rng(seed)
    roster = np.asarray(roster, np.int32)
    states, events = [_initial(roster, spawn_end)], []
    vis, rel = [states[0]["seen"]], [np.zeros((10, 10), bool)]
    for t in range(ticks):
        s, e = _step(states[-1], rng, t, ticks, threshold)
        e["fallback"] = np.full(10, t in fallback_ticks) & s["active"]
        rel.append(_relay(states[-1]["seen"], s["seen"], states[-1]["alive"]))
        states.append(s)
        events.append(e)
        vis.append(s["seen"])
        if s["outcome"] != 0:
            break
    stack = {k: np.stack([s[k] for s in states]) for k in STATE_FIELDS}
    ev = {
        k: np.array([e[k] for e in events], dtype).reshape(len(events), *shape)
        for k, (shape, dtype) in EVENT_FIELDS.items()
    }
    header = _header(roster, spawn_end, seed, threshold, ticks, stack, len(events))
    return Replay(header, stack, ev, np.stack(vis), np.stack(rel), None)
