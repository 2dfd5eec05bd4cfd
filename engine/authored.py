"""Authored states: build a concrete, checked `State` from plain values, and back (RULES 4.4).

`authored_state` is the one public way to start a game from a mid-game position (a scenario, a
recorded golden-trace state, a test scene): it takes the authored fields as NumPy arrays, lists
or numbers, completes every derived field (`active` from the roster,
who sees whom in `seen`, `has_prev`) and validates the result with
`engine.validation`'s checks (every problem found, raised together as one
`validation.StateProblems`), so the first tick is judged on the right view.
`state_fields` is its inverse: plain Python values that JSON writes and reads back to the same
float32 bits, so a start state round-trips through a file exactly.

Host-side only: this module never runs under `jit`.
"""

import functools

import numpy as np

from engine import constants as C
from engine import validation
from engine.types import Config, State

# Authored per-slot and per-team fields: (shape, NumPy dtype). Scalars broadcast where noted.
_SHAPES = {
    "obstacles": ((C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32),
    "pads": ((C.NUM_SLOTS, 2), np.float32),
    "red_zones": ((C.NUM_TEAMS, 4), np.float32),
    "class_id": ((C.NUM_SLOTS,), np.int32),
    "spawn_end": ((), np.int32),
    "pos": ((C.NUM_SLOTS, 2), np.float32),
    "health": ((C.NUM_SLOTS,), np.float32),
    "alive": ((C.NUM_SLOTS,), np.bool_),
    "cooldown": ((C.NUM_SLOTS,), np.int32),
    "status": ((C.NUM_SLOTS, C.NUM_STATUS), np.int32),
    "shield": ((C.NUM_SLOTS,), np.int32),
    "ooc": ((C.NUM_SLOTS,), np.int32),
    "wave_clock": ((C.NUM_TEAMS,), np.int32),
    "score": ((C.NUM_TEAMS,), np.int32),
    "tick": ((), np.int32),
    "prev_action": ((C.NUM_SLOTS, 3), np.int32),
    "map_id": ((), np.int32),
}
AUTHORED_FIELDS = tuple(_SHAPES)
_BROADCAST = ("cooldown", "status", "shield", "ooc")  # a scalar means "every slot"
_ACTION_SIZES = (C.NUM_MOVES, C.NUM_TARGETS, C.NUM_ULT)


def _array(field: str, value) -> np.ndarray:
    """`value` as the field's dtype and shape; ValueError naming the field on a bad value."""
    shape, dtype = _SHAPES[field]
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{field} = {value!r}: not an array of numbers ({err})") from None
    if field in _BROADCAST and raw.ndim == 0:
        raw = np.broadcast_to(raw, shape)
    if raw.shape != shape:
        raise ValueError(f"{field}: shape {raw.shape}, expected {shape}")
    if raw.dtype.kind not in "biuf":
        raise ValueError(f"{field}: dtype {raw.dtype} is not numeric")
    if raw.dtype.kind == "f" and not np.isfinite(raw).all():
        where = np.argwhere(~np.isfinite(raw))[0].tolist()
        raise ValueError(f"{field}{where} = {raw[tuple(where)]!r}: not a finite number")
    if dtype is not np.float32 and raw.dtype.kind == "f" and (raw != np.round(raw)).any():
        where = np.argwhere(raw != np.round(raw))[0].tolist()
        raise ValueError(f"{field}{where} = {raw[tuple(where)]!r}: must be a whole number")
    return raw.astype(dtype)


def _prev_action_problems(prev: np.ndarray) -> list[str]:
    """Each slot whose last action has a head outside its range (RULES 3)."""
    return [
        f"prev_action[{slot}] = {prev[slot].tolist()}: head {head} must be 0-{size - 1}"
        for slot in range(C.NUM_SLOTS)
        for head, size in enumerate(_ACTION_SIZES)
        if not 0 <= prev[slot, head] < size
    ]


def _counter_problems(config: Config, f: dict) -> list[str]:
    """Counters the rules bound but `check_state` does not: wave clocks, ooc, dead and padded
    slots (the engine zeroes statuses, shields and ooc at death, RULES 4 steps 11-15)."""
    out = [
        f"wave_clock[{team}] = {clock}: must be 0-{config.wave_period - 1} (RULES 15)"
        for team, clock in enumerate(f["wave_clock"].tolist())
        if not 0 <= clock < config.wave_period
    ]
    delay = C.OOC_DELAY[f["class_id"]]
    for slot in range(C.NUM_SLOTS):
        if not 0 <= f["ooc"][slot] <= delay[slot]:
            out.append(f"ooc[{slot}] = {int(f['ooc'][slot])}: must be 0-{int(delay[slot])}")
        if f["alive"][slot]:
            continue
        for field in ("status", "shield", "ooc"):
            if np.any(f[field][slot] != 0):
                value = f[field][slot].tolist()
                out.append(f"{field}[{slot}] = {value}: a dead or empty slot holds 0")
    for slot in np.flatnonzero(f["class_id"] == C.NEUTRAL).tolist():
        for field in ("pos", "cooldown", "prev_action"):
            if np.any(f[field][slot] != 0):
                value = f[field][slot].tolist()
                out.append(f"{field}[{slot}] = {value}: an empty slot holds 0")
    return out


@functools.cache
def _visibility():
    import jax

    from engine import legality

    return jax.jit(legality.visibility)


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
    overlap_tolerance: float = C.STUCK_TOLERANCE,
) -> State:
    """A concrete, validated mid-game `State` from authored values (RULES 4.4).

    Shapes as in `engine.types.State`: obstacles (32, 8) float32 (RULES 1.2 columns), pads
    (10, 2) each slot's own pad, red_zones (2, 4) by team, class_id (10,) (0 = empty slot),
    spawn_end 0 (Team A west) or 1, pos (10, 2) map units, health (10,) hit points (default:
    each class's max health where alive, 0 elsewhere), alive (10,) (default: every active
    slot), cooldown / shield / ooc (10,) ticks or one number for every active slot, status
    (10, 9) ticks or one number for every active slot's channels, wave_clock (2,) ticks
    (default: the reset value, wave_period - 1, RULES 15), score (2,), tick, prev_action
    (10, 3) last accepted (move in the world frame, target, ult) or None for no history, map_id.
    Lists, NumPy arrays and JAX arrays all work.

    Derived and filled in: `active`, `seen` (`legality.visibility`),
    `has_prev`, `outcome` (ongoing). Checked: every field's shape, dtype and range
    (`validation.layout_problems`, `validation.content_problems`), no living body out of bounds or
    overlapping an obstacle by more than `overlap_tolerance` map units, dead and empty slots
    holding no statuses, shields or ooc, empty slots at (0, 0) with no cooldown or history.
    Raises `validation.StateProblems` (a ValueError) listing every problem found, each naming
    the field, the slot and the value (a wrong shape or dtype, or an unknown class, stops the
    checks there: nothing after it can be read).
    """
    given = dict(
        obstacles=obstacles, pads=pads, red_zones=red_zones, class_id=class_id,
        spawn_end=spawn_end, pos=pos, cooldown=cooldown, status=status, shield=shield, ooc=ooc,
        score=score, tick=tick, map_id=map_id,
    )  # fmt: skip
    f, active = _given_arrays(given)
    problems = validation.layout_problems(
        f["obstacles"], f["pads"], f["red_zones"], f["class_id"], f["spawn_end"]
    )
    if not validation.known_classes(f["class_id"]):  # per-class tables below index by class
        validation.raise_any(problems)
    _fill_defaults(config, f, active, alive, health, wave_clock, prev_action)
    problems += _prev_action_problems(f["prev_action"]) + _counter_problems(config, f)
    state = _unsighted_state(f, active, has_prev=prev_action is not None)
    problems += validation.content_problems(config, state, overlap_tolerance=overlap_tolerance)
    validation.raise_any(problems)
    return state.replace(seen=_visibility()(state))


def _given_arrays(given: dict) -> tuple[dict, np.ndarray]:
    """The given fields as checked arrays (`_array`) and `active` (10,) bool; a broadcast
    number sets only the active slots, empty slots stay 0."""
    f = {name: _array(name, value) for name, value in given.items()}
    active = f["class_id"] > 0
    for name in _BROADCAST:
        if np.ndim(given[name]) == 0:
            f[name] = np.where(active.reshape((-1,) + (1,) * (f[name].ndim - 1)), f[name], 0)
    return f, active


def _fill_defaults(config: Config, f: dict, active, alive, health, wave_clock, prev_action):
    """Add alive, health, wave_clock and prev_action to `f`, given or defaulted (see
    `authored_state`); called once the classes are known, as the default health indexes by
    class."""
    f["alive"] = active.copy() if alive is None else _array("alive", alive)
    f["health"] = (
        np.where(f["alive"], C.MAX_HEALTH[f["class_id"]], 0.0).astype(np.float32)
        if health is None
        else _array("health", health)
    )
    f["wave_clock"] = _array(
        "wave_clock", (config.wave_period - 1,) * 2 if wave_clock is None else wave_clock
    )
    history = prev_action if prev_action is not None else np.zeros((10, 3))
    f["prev_action"] = _array("prev_action", history)


def _unsighted_state(f: dict, active: np.ndarray, has_prev: bool) -> State:
    """The State of the authored arrays, ongoing, with `seen` still empty."""
    import jax.numpy as jnp

    return State(
        **{name: jnp.asarray(value) for name, value in f.items()},
        active=jnp.asarray(active),
        outcome=jnp.int32(C.ONGOING),
        has_prev=jnp.bool_(has_prev),
        seen=jnp.zeros((C.NUM_SLOTS, C.NUM_SLOTS), bool),
    )


def state_fields(state: State) -> dict:
    """The authored fields of a concrete state as plain Python values (the inverse of
    `authored_state`): nested lists of floats, ints and bools; floats are the exact float32
    values (Python floats equal to them), so JSON or msgpack round-trips them bit for bit.
    `prev_action` is None when the state has no history. Keys: `AUTHORED_FIELDS`.

    `authored_state(config, **state_fields(s))` rebuilds `s` exactly (derived fields
    included) for any valid `s`.
    """
    out = {}
    for name in AUTHORED_FIELDS:
        _, dtype = _SHAPES[name]
        out[name] = np.asarray(getattr(state, name)).astype(dtype).tolist()
    if not bool(np.asarray(state.has_prev)):
        out["prev_action"] = None
    return out
