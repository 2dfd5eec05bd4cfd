"""Authored mid-game states: build a concrete, checked `State` from plain numbers, and back.

`authored_state` is the one entry for a game that does not start at tick 0 (scenarios, tests,
a position saved from a replay): every derived field is completed here (`active` from the
classes, `cell_obstacles`, `seen` by `legality.visibility`, `has_prev`) and everything is
checked on the host first (`validation.check_layout`, `validation.check_state`, and geometry:
no living body overlaps an obstacle, padded slots are empty). `state_fields` is its inverse, so
a start state round-trips through a file bit for bit (floats as their exact float32 values).
"""

import numpy as np

from engine import constants as C
from engine import map_geometry, validation
from engine.types import Config, State

# The fields an author gives (and `state_fields` returns); the rest are derived.
AUTHORED_FIELDS = (
    "map_id", "obstacles", "pads", "red_zones", "spawn_end", "class_id", "pos", "health",
    "alive", "cooldown", "status", "shield", "ooc", "wave_clock", "score", "tick", "prev_action",
)  # fmt: skip


def _array(field: str, value, shape: tuple, dtype) -> np.ndarray:
    """`value` broadcast to `shape` as `dtype`; ValueError naming the field when it cannot be."""
    try:
        array = np.asarray(value, dtype=np.float64 if dtype == np.float32 else None)
        if array.dtype == object or not np.all(np.isfinite(array.astype(np.float64))):
            raise ValueError
        if np.issubdtype(dtype, np.integer) and not np.array_equal(array, np.round(array)):
            raise ValueError
        return np.broadcast_to(array, shape).astype(dtype)
    except (TypeError, ValueError):
        raise ValueError(
            f"{field} = {np.asarray(value, dtype=object).tolist()!r}: needs finite "
            f"{np.dtype(dtype).name} values of shape {shape} (or one value for every slot)"
        ) from None


def _check_geometry(obstacles, class_id, pos, alive) -> None:
    rows = obstacles[obstacles[:, C.OBS_ACTIVE] > 0]
    for slot in range(C.NUM_SLOTS):
        if class_id[slot] == 0:
            if alive[slot]:
                raise ValueError(f"alive[{slot}] = True: an empty slot cannot be alive")
            if pos[slot].any():
                raise ValueError(f"pos[{slot}] = {pos[slot].tolist()}: an empty slot stays at 0")
            continue
        if alive[slot] and len(rows):
            hits = map_geometry.disc_overlaps(rows, pos[slot, 0], pos[slot, 1], C.BODY_RADIUS)
            if hits.any():
                raise ValueError(
                    f"pos[{slot}] = {pos[slot].tolist()}: the body overlaps obstacle "
                    f"{int(np.argmax(hits))} (RULES 1.3)"
                )


def authored_state(
    config: Config,
    *,
    obstacles,
    pads,
    red_zones,
    class_id,
    spawn_end,
    pos,
    health=None,
    alive=None,
    cooldown=0,
    status=0,
    shield=0,
    ooc=0,
    wave_clock=None,
    score=(0, 0),
    tick=0,
    prev_action=None,
    map_id=0,
) -> State:
    """A concrete, checked State from authored values (host-side; NumPy or lists in).

    Shapes as in `engine.types.State`: obstacles (32, 8) (RULES 1.2), pads (10, 2) each slot's
    own pad, red_zones (2, 4), class_id (10,), pos (10, 2) map units, health (10,) hit points
    (default: each class's max where alive), alive (10,) (default: every active slot), cooldown,
    shield, ooc (10,) ticks or one value, status (10, 9) ticks or one value, wave_clock (2,)
    ticks (default `config.wave_period - 1`), score (2,), tick, prev_action (10, 3) accepted
    (move in world directions, target, ult) or None for no history. Derived: active, cell
    obstacles, seen (RULES 5.2), has_prev, outcome ONGOING.

    Raises ValueError naming the field, the slot and the value (validation.check_state and
    check_layout, a living body on an obstacle, an empty slot that is alive or placed).
    """
    import jax.numpy as jnp

    from engine import legality

    n, s = C.NUM_SLOTS, C.NUM_STATUS
    obstacles = _array("obstacles", obstacles, (C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    class_id = _array("class_id", class_id, (n,), np.int32)
    pads, zones = _array("pads", pads, (n, 2), np.float32), red_zones
    zones = _array("red_zones", zones, (C.NUM_TEAMS, 4), np.float32)
    validation.check_layout(obstacles, pads, zones, class_id, int(spawn_end))
    active = class_id > 0
    alive = active if alive is None else _array("alive", alive, (n,), bool)
    pos = _array("pos", pos, (n, 2), np.float32)
    max_health = C.MAX_HEALTH[class_id]
    health = np.where(alive, max_health, 0) if health is None else health
    health = _array("health", health, (n,), np.float32)
    _check_geometry(obstacles, class_id, pos, alive)
    has_prev = prev_action is not None
    wave = config.wave_period - 1 if wave_clock is None else wave_clock
    fields = {
        "map_id": _array("map_id", map_id, (), np.int32),
        "obstacles": obstacles,
        "cell_obstacles": validation.cell_obstacles(obstacles),
        "pads": pads,
        "red_zones": zones,
        "spawn_end": _array("spawn_end", spawn_end, (), np.int32),
        "class_id": class_id,
        "active": active,
        "pos": pos,
        "health": health,
        "alive": alive,
        "cooldown": _array("cooldown", cooldown, (n,), np.int32),
        "status": _array("status", status, (n, s), np.int32),
        "shield": _array("shield", shield, (n,), np.int32),
        "ooc": _array("ooc", ooc, (n,), np.int32),
        "wave_clock": _array("wave_clock", wave, (C.NUM_TEAMS,), np.int32),
        "score": _array("score", score, (C.NUM_TEAMS,), np.int32),
        "tick": _array("tick", tick, (), np.int32),
        "outcome": np.int32(C.ONGOING),
        "prev_action": _array("prev_action", prev_action if has_prev else 0, (n, 3), np.int32),
        "has_prev": np.bool_(has_prev),
        "seen": np.zeros((n, n), bool),
    }
    _check_counters(config, fields)
    state = State(**{k: jnp.asarray(v) for k, v in fields.items()})
    validation.check_state(config, state)
    return state.replace(seen=legality.visibility(state))


def _check_counters(config: Config, f: dict) -> None:
    """What check_state does not cover: the dead carry no statuses, shield or countdown, the
    wave clocks run below the period, a history stays within the action heads."""
    for slot in np.flatnonzero(~f["alive"]):
        for name in ("status", "shield", "ooc"):
            if np.any(f[name][slot]):
                raise ValueError(
                    f"{name}[{slot}] = {f[name][slot].tolist()}: a dead agent has none"
                )
    for team, clock in enumerate(f["wave_clock"].tolist()):
        if not 0 <= clock < config.wave_period:
            raise ValueError(f"wave_clock[{team}] = {clock}: must be 0-{config.wave_period - 1}")
    highs = (C.NUM_MOVES - 1, C.NUM_TARGETS - 1, C.NUM_ULT - 1)
    for slot, row in enumerate(f["prev_action"].tolist()):
        for head, (value, high) in enumerate(zip(row, highs, strict=True)):
            if not 0 <= value <= high:
                raise ValueError(f"prev_action[{slot}][{head}] = {value}: must be 0-{high}")


def state_fields(state: State) -> dict:
    """The authored fields of a concrete State as plain Python lists, ints, floats and bools
    (`AUTHORED_FIELDS`; prev_action None when the state has no history). Floats are the exact
    float32 values as Python floats, so `authored_state(config, **state_fields(s))` gives s
    back bit for bit."""
    out = {}
    for name in AUTHORED_FIELDS:
        value = np.asarray(getattr(state, name))
        out[name] = value.tolist()
    if not bool(np.asarray(state.has_prev)):
        out["prev_action"] = None
    return out
