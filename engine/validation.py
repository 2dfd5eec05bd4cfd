"""Host-side checks of authored games and states, run before anything is traced (RULES 4.4).

Inside `jit` the engine trusts its inputs; these checks catch a bad authored state early with a
ValueError that names the field, the slot and the value.
"""

import numpy as np

from engine import constants as C
from engine.types import Config, State


def is_concrete(*values) -> bool:
    """True when no value is a JAX tracer (so it can be checked on the host)."""
    import jax

    leaves = jax.tree_util.tree_leaves(values)
    return not any(isinstance(leaf, jax.core.Tracer) for leaf in leaves)


def _fail(field: str, slot, value, why: str):
    where = f"{field}[{slot}]" if slot is not None else field
    raise ValueError(f"{where} = {value!r}: {why}")


def check_layout(obstacles, pads, red_zones, roster, spawn_end) -> None:
    """Check a game's layout: obstacle table (32, 8), pads (10, 2), Red Zones (2, 4), roster
    (10,) class ids with contiguous teams of 1-5, spawn end 0 or 1. Raises ValueError."""
    roster = np.asarray(roster)
    expected = {
        "obstacles": (obstacles, (C.MAX_OBSTACLES, C.OBSTACLE_FEATURES)),
        "pads": (pads, (C.NUM_SLOTS, 2)),
        "red_zones": (red_zones, (C.NUM_TEAMS, 4)),
        "class_id": (roster, (C.NUM_SLOTS,)),
    }
    for field, (value, shape) in expected.items():
        if np.shape(value) != shape:
            _fail(field, None, np.shape(value), f"shape must be {shape}")
    for slot, cls in enumerate(roster.tolist()):
        if not 0 <= cls < C.NUM_CLASSES:
            _fail("class_id", slot, cls, f"unknown class (0-{C.NUM_CLASSES - 1})")
    for team in range(C.NUM_TEAMS):
        block = roster[team * C.TEAM_SIZE : (team + 1) * C.TEAM_SIZE] > 0
        size = int(block.sum())
        if size == 0 or not block[:size].all():
            _fail(
                "class_id", team * C.TEAM_SIZE, roster.tolist(), "teams need 1-5 agents from slot 0"
            )
    if int(spawn_end) not in (0, 1):
        _fail("spawn_end", None, int(spawn_end), "must be 0 (Team A west) or 1 (east)")
    pads = np.asarray(pads)
    inside = (pads >= C.BODY_RADIUS) & (
        pads <= np.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - C.BODY_RADIUS
    )
    for slot in np.flatnonzero(~inside.all(axis=1) & (roster > 0)):
        _fail("pads", int(slot), pads[slot].tolist(), "pad must keep the body inside the map")


def check_bodies(obstacles, pos, alive, overlap_tolerance: float = C.STUCK_TOLERANCE) -> None:
    """No living body (radius 0.5) outside the map or overlapping an active obstacle by more
    than `overlap_tolerance` map units (RULES 1.3). obstacles (32, 8), pos (10, 2), alive (10,).

    The tolerance exists because a body pushed onto an obstacle's edge rounds to a hair inside
    it in float32 (the engine's own `movement.unstick` allows C.STUCK_TOLERANCE). Raises
    ValueError naming the slot, its position and the obstacle row.
    """
    from engine import map_geometry

    rows = np.asarray(obstacles, np.float64)
    pos = np.asarray(pos, np.float64)
    lo, hi = C.BODY_RADIUS, np.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - C.BODY_RADIUS
    used = (rows[:, C.OBS_ACTIVE] > 0) & (rows[:, C.OBS_TYPE] != C.OBSTACLE_NONE)
    for slot in np.flatnonzero(np.asarray(alive)).tolist():
        x, y = pos[slot]
        if not ((pos[slot] >= lo) & (pos[slot] <= hi)).all():
            _fail("pos", slot, [float(x), float(y)], "outside the map")
        hit = used & map_geometry.disc_overlaps(rows, x, y, C.BODY_RADIUS - overlap_tolerance)
        if hit.any():
            row = int(np.argmax(hit))
            _fail("pos", slot, [float(x), float(y)], f"the body overlaps obstacle row {row}")


def check_state(config: Config, state: State, overlap_tolerance: float = C.STUCK_TOLERANCE) -> None:
    """Check an authored mid-game state (a scenario) against the engine's invariants.

    Health in (0, max] for the living and 0 for the dead, nobody alive in an empty slot,
    living bodies inside the map and clear of obstacles (`check_bodies`), counters within
    their rule maxima, scores below the threshold and tick below the horizon. Raises
    ValueError naming the field, slot and value.
    """
    s = {name: np.asarray(getattr(state, name)) for name in State.__dataclass_fields__}
    check_layout(s["obstacles"], s["pads"], s["red_zones"], s["class_id"], s["spawn_end"])
    max_health = C.MAX_HEALTH[s["class_id"]]
    for slot in range(C.NUM_SLOTS):
        alive, health = bool(s["alive"][slot]), float(s["health"][slot])
        if alive and not s["active"][slot]:
            _fail("alive", slot, alive, "an empty slot cannot be alive")
        if alive and not 0 < health <= max_health[slot]:
            _fail("health", slot, health, f"a living agent needs 0 < health <= {max_health[slot]}")
        if not alive and health != 0:
            _fail("health", slot, health, "a dead agent has 0 health")
        if not 0 <= s["cooldown"][slot] <= C.ULT_COOLDOWN:
            _fail("cooldown", slot, int(s["cooldown"][slot]), f"must be 0-{C.ULT_COOLDOWN}")
        if not 0 <= s["shield"][slot] <= config.shield_ticks:
            _fail("shield", slot, int(s["shield"][slot]), f"must be 0-{config.shield_ticks}")
        over = (s["status"][slot] < 0) | (s["status"][slot] > C.STATUS_DURATION)
        if over.any():
            channel = C.STATUS_NAMES[int(np.argmax(over))]
            _fail("status", slot, s["status"][slot].tolist(), f"{channel} out of 0..duration")
    check_bodies(s["obstacles"], s["pos"], s["alive"] & s["active"], overlap_tolerance)
    if (s["score"] >= config.score_threshold).any() or (s["score"] < 0).any():
        _fail("score", None, s["score"].tolist(), f"must be 0..{config.score_threshold - 1}")
    if not 0 <= int(s["tick"]) < config.horizon:
        _fail("tick", None, int(s["tick"]), f"must be 0..{config.horizon - 1}")
