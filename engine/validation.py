"""Host-side checks of authored games and states, run before anything is traced (RULES 4.4).

Inside `jit` the engine trusts its inputs; these checks catch a bad authored state early with a
ValueError that names the field, the slot and the value. Each check has a `*_problems`
form that returns every problem it finds (`mbg scenarios validate` names them all at once)
and a `check_*` form that raises them together as one `StateProblems`.
"""

import numpy as np

from engine import constants as C
from engine.types import Config, State


def is_concrete(*values) -> bool:
    """True when no value is a JAX tracer (so it can be checked on the host)."""
    import jax

    leaves = jax.tree_util.tree_leaves(values)
    return not any(isinstance(leaf, jax.core.Tracer) for leaf in leaves)


class StateProblems(ValueError):
    """Every problem found in an authored game or state: `problems` is a list of strings, each
    `field[slot] = value: why`; the message is those lines, one each."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def raise_any(problems: list[str]) -> None:
    """Raise StateProblems listing problems, if there are any."""
    if problems:
        raise StateProblems(problems)


def _problem(field: str, slot, value, why: str) -> str:
    where = f"{field}[{slot}]" if slot is not None else field
    return f"{where} = {value!r}: {why}"


def _coords(values) -> list[float]:
    """A position for a message: each value's shortest decimal that reads back to the same value
    in its own dtype, so a float32 8.2 from a file shows as 8.2, not 8.199999809265137."""
    return [float(str(v)) for v in np.asarray(values).ravel()]


def layout_problems(obstacles, pads, red_zones, roster, spawn_end) -> list[str]:
    """Every problem of a game's layout: obstacle table (32, 8), pads (10, 2), Red Zones (2, 4),
    roster (10,) class ids with contiguous teams of 1-5, spawn end 0 or 1. A wrong shape is
    the only problem named (nothing else can be read then)."""
    roster = np.asarray(roster)
    expected = {
        "obstacles": (obstacles, (C.MAX_OBSTACLES, C.OBSTACLE_FEATURES)),
        "pads": (pads, (C.NUM_SLOTS, 2)),
        "red_zones": (red_zones, (C.NUM_TEAMS, 4)),
        "class_id": (roster, (C.NUM_SLOTS,)),
    }
    shapes = [
        _problem(field, None, np.shape(value), f"shape must be {shape}")
        for field, (value, shape) in expected.items()
        if np.shape(value) != shape
    ]
    if shapes:
        return shapes
    out = [
        _problem("class_id", slot, cls, f"unknown class (0-{C.NUM_CLASSES - 1})")
        for slot, cls in enumerate(roster.tolist())
        if not 0 <= cls < C.NUM_CLASSES
    ]
    for team in range(C.NUM_TEAMS):
        block = roster[team * C.TEAM_SIZE : (team + 1) * C.TEAM_SIZE] > 0
        size = int(block.sum())
        if size == 0 or not block[:size].all():
            why = "teams need 1-5 agents from slot 0"
            out.append(_problem("class_id", team * C.TEAM_SIZE, roster.tolist(), why))
    if int(spawn_end) not in (0, 1):
        out.append(
            _problem("spawn_end", None, int(spawn_end), "must be 0 (Team A west) or 1 (east)")
        )
    pads = np.asarray(pads)
    inside = (pads >= C.BODY_RADIUS) & (
        pads <= np.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - C.BODY_RADIUS
    )
    for slot in np.flatnonzero(~inside.all(axis=1) & (roster > 0)).tolist():
        out.append(
            _problem("pads", slot, _coords(pads[slot]), "pad must keep the body inside the map")
        )
    return out


def check_layout(obstacles, pads, red_zones, roster, spawn_end) -> None:
    """`layout_problems`, raised: StateProblems (a ValueError) listing every one."""
    raise_any(layout_problems(obstacles, pads, red_zones, roster, spawn_end))


def body_problems(obstacles, pos, alive, overlap_tolerance: float = C.STUCK_TOLERANCE) -> list[str]:
    """Every living body (radius 0.5) outside the map or overlapping an active obstacle by more
    than `overlap_tolerance` map units (RULES 1.3). obstacles (32, 8), pos (10, 2), alive (10,).

    The tolerance exists because a body pushed onto an obstacle's edge rounds to a hair inside
    it in float32 (the engine's own `movement.unstick` allows C.STUCK_TOLERANCE). Each problem
    names the slot, its position and (for an overlap) the first obstacle row it overlaps.
    """
    from engine import map_geometry

    rows = np.asarray(obstacles, np.float64)
    given, pos = np.asarray(pos), np.asarray(pos, np.float64)
    lo, hi = C.BODY_RADIUS, np.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - C.BODY_RADIUS
    used = (rows[:, C.OBS_ACTIVE] > 0) & (rows[:, C.OBS_TYPE] != C.OBSTACLE_NONE)
    out = []
    for slot in np.flatnonzero(np.asarray(alive)).tolist():
        x, y = pos[slot]
        if not ((pos[slot] >= lo) & (pos[slot] <= hi)).all():
            out.append(_problem("pos", slot, _coords(given[slot]), "outside the map"))
            continue
        hit = used & map_geometry.disc_overlaps(rows, x, y, C.BODY_RADIUS - overlap_tolerance)
        if hit.any():
            why = f"the body overlaps obstacle row {int(np.argmax(hit))}"
            out.append(_problem("pos", slot, _coords(given[slot]), why))
    return out


def check_bodies(obstacles, pos, alive, overlap_tolerance: float = C.STUCK_TOLERANCE) -> None:
    """`body_problems`, raised: StateProblems (a ValueError) listing every one."""
    raise_any(body_problems(obstacles, pos, alive, overlap_tolerance))


def _slot_problems(config: Config, s: dict, slot: int) -> list[str]:
    """One slot's health, liveness and counter problems (see `state_problems`)."""
    out = []
    alive, health = bool(s["alive"][slot]), float(s["health"][slot])
    top = C.MAX_HEALTH[s["class_id"][slot]]
    if alive and not s["active"][slot]:
        out.append(_problem("alive", slot, alive, "an empty slot cannot be alive"))
    if alive and not 0 < health <= top:
        out.append(_problem("health", slot, health, f"a living agent needs 0 < health <= {top}"))
    if not alive and health != 0:
        out.append(_problem("health", slot, health, "a dead agent has 0 health"))
    if not 0 <= s["cooldown"][slot] <= C.ULT_COOLDOWN:
        why = f"must be 0-{C.ULT_COOLDOWN}"
        out.append(_problem("cooldown", slot, int(s["cooldown"][slot]), why))
    if not 0 <= s["shield"][slot] <= config.shield_ticks:
        why = f"must be 0-{config.shield_ticks}"
        out.append(_problem("shield", slot, int(s["shield"][slot]), why))
    over = (s["status"][slot] < 0) | (s["status"][slot] > C.STATUS_DURATION)
    if over.any():
        channel = C.STATUS_NAMES[int(np.argmax(over))]
        why = f"{channel} out of 0..duration"
        out.append(_problem("status", slot, s["status"][slot].tolist(), why))
    return out


def state_problems(
    config: Config, state: State, overlap_tolerance: float = C.STUCK_TOLERANCE
) -> list[str]:
    """Every problem of an authored mid-game state (a scenario) against the engine's
    invariants: its layout (`layout_problems`), then `content_problems`. A layout with an
    unknown class is the only problem named (per-class maxima cannot be read then)."""
    s = {name: np.asarray(getattr(state, name)) for name in ("obstacles", "pads", "red_zones")}
    roster, end = np.asarray(state.class_id), np.asarray(state.spawn_end)
    out = layout_problems(s["obstacles"], s["pads"], s["red_zones"], roster, end)
    if not known_classes(roster):
        return out
    return out + content_problems(config, state, overlap_tolerance)


def content_problems(
    config: Config, state: State, overlap_tolerance: float = C.STUCK_TOLERANCE
) -> list[str]:
    """Every problem of a state whose layout is sound, in order: slot by slot health in (0, max]
    for the living and 0 for the dead, nobody alive in an empty slot, counters within their
    rule maxima; then living bodies inside the map and clear of obstacles (`body_problems`),
    scores below the threshold and tick below the horizon."""
    s = {name: np.asarray(getattr(state, name)) for name in State.__dataclass_fields__}
    out = []
    for slot in range(C.NUM_SLOTS):
        out += _slot_problems(config, s, slot)
    out += body_problems(s["obstacles"], s["pos"], s["alive"] & s["active"], overlap_tolerance)
    if (s["score"] >= config.score_threshold).any() or (s["score"] < 0).any():
        why = f"must be 0..{config.score_threshold - 1}"
        out.append(_problem("score", None, s["score"].tolist(), why))
    if not 0 <= int(s["tick"]) < config.horizon:
        out.append(_problem("tick", None, int(s["tick"]), f"must be 0..{config.horizon - 1}"))
    return out


def known_classes(roster) -> bool:
    """True when every class id in roster is 0-NUM_CLASSES-1 (so per-class tables index it)."""
    roster = np.asarray(roster)
    return np.shape(roster) == (C.NUM_SLOTS,) and bool(
        ((roster >= 0) & (roster < C.NUM_CLASSES)).all()
    )


def check_state(config: Config, state: State, overlap_tolerance: float = C.STUCK_TOLERANCE) -> None:
    """`state_problems`, raised: StateProblems (a ValueError) listing every one, each naming
    the field, slot and value."""
    raise_any(state_problems(config, state, overlap_tolerance))
