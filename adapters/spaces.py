"""Gymnasium spaces of one agent's observation and action, and the flat observation vector.

The bounds come from the rules, so a space contains every observation the engine can produce
(RULES 5.3-5.6): map units for positions, hit points for health, ticks for timers. The obstacle
table is bounded by the maps of the pool the environment draws from (in both team frames).

The flat observation (`flatten_obs`) is one float32 vector per agent, the fields of
`engine.Obs` in this order (`FLAT_LAYOUT`, 680 numbers):

| Field | Shape | Offset |
| --- | --- | ---: |
| units | (10, 33) | 0 |
| visible, relayed | (10,), (10,) | 330, 340 |
| public | (10, 3) | 350 |
| obstacles | (32, 8) | 380 |
| context | (12,) | 636 |
| prev_action | (10, 3) | 648 |
| class_id, self_index | (1,), (1,) | 678, 679 |

Actions are the flat index 0-197 (`Discrete(198)`, RULES 3.7) or the three heads
(`MultiDiscrete([9, 11, 2])`, RULES 3.1), with masks of 198 or 9 + 11 + 2 = 22 booleans.
"""

import gymnasium
import numpy as np

from engine import constants as C
from engine.types import CONTEXT_FEATURES, PUBLIC_FEATURES, ROW_FEATURES, Config, Pool

ACTION_TYPES = ("flat", "heads")
HEAD_SIZES = (C.NUM_MOVES, C.NUM_TARGETS, C.NUM_ULT)
MASK_SIZE = {"flat": C.NUM_FLAT, "heads": sum(HEAD_SIZES)}

FLAT_LAYOUT = (
    ("units", (C.NUM_SLOTS, len(ROW_FEATURES))),
    ("visible", (C.NUM_SLOTS,)),
    ("relayed", (C.NUM_SLOTS,)),
    ("public", (C.NUM_SLOTS, len(PUBLIC_FEATURES))),
    ("obstacles", (C.MAX_OBSTACLES, 8)),
    ("context", (len(CONTEXT_FEATURES),)),
    ("prev_action", (C.NUM_SLOTS, 3)),
    ("class_id", (1,)),
    ("self_index", (1,)),
)
FLAT_DIM = sum(int(np.prod(shape)) for _, shape in FLAT_LAYOUT)
DIAGONAL = float(np.hypot(C.MAP_WIDTH, C.MAP_HEIGHT))


def check_action_type(action_type: str) -> str:
    """Return `action_type` or raise ValueError naming the accepted values."""
    if action_type not in ACTION_TYPES:
        raise ValueError(f"action_type {action_type!r}: expected one of {', '.join(ACTION_TYPES)}")
    return action_type


def _row_bounds(config: Config) -> tuple[np.ndarray, np.ndarray]:
    """(33,) low and high of a unit row (RULES 5.3); hidden rows are zeros, so low <= 0."""
    speed = max(config.shield_speed, float(C.BASE_SPEED.max()) * config.move_scale)
    high = {"x": C.MAP_WIDTH, "y": C.MAP_HEIGHT, "dx": C.MAP_WIDTH, "dy": C.MAP_HEIGHT}
    high |= {"distance": DIAGONAL, "health": C.MAX_HEALTH.max(), "max_health": C.MAX_HEALTH.max()}
    high |= {"cooldown": C.ULT_COOLDOWNS.max(), "speed": speed, "shield": config.shield_ticks}
    high |= {f"status_{n}": d for n, d in zip(C.STATUS_NAMES, C.STATUS_DURATION, strict=True)}
    high |= {"ooc": C.OOC_DELAY.max(), "aura_out": C.MAGE_AURA_CEILING}
    low = {"dx": -C.MAP_WIDTH, "dy": -C.MAP_HEIGHT}
    return (
        np.array([low.get(n, 0.0) for n in ROW_FEATURES], np.float32),
        np.array([high.get(n, 1.0) for n in ROW_FEATURES], np.float32),
    )


def _context_high(config: Config) -> np.ndarray:
    """(12,) upper bounds of the context (RULES 5.4); every column is at least 0."""
    score = config.score_threshold + C.MAX_SCORE_OVERSHOOT
    clock = config.wave_period - 1
    high = {"tick": config.horizon, "ticks_left": config.horizon, "own_score": score}
    high |= {"opp_score": score, "score_threshold": config.score_threshold}
    high |= {f"{w}_{n}": C.TEAM_SIZE for w in ("own", "opp") for n in ("team_size", "alive")}
    high |= {"own_wave_clock": clock, "opp_wave_clock": clock, "shared_obs": 1}
    return np.array([high[n] for n in CONTEXT_FEATURES], np.float32)


def _obstacle_bounds(pool: Pool) -> tuple[np.ndarray, np.ndarray]:
    """(8,) low and high over the pool's obstacle rows in both frames, empty rows included."""
    rows = np.asarray(pool.obstacles[: int(pool.num_maps)], np.float32).reshape(-1, 8)
    mirrored = rows.copy()
    active = mirrored[:, C.OBS_ACTIVE] == 1.0
    mirrored[active, C.OBS_X] = C.MAP_WIDTH - mirrored[active, C.OBS_X]
    mirrored[active, C.OBS_THETA] = -mirrored[active, C.OBS_THETA]
    both = np.concatenate([rows, mirrored, np.zeros((1, 8), np.float32)])
    return both.min(axis=0), both.max(axis=0)


def field_bounds(config: Config, pool: Pool) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each `Obs` field of one agent -> (low, high) arrays of its shape (float32)."""
    row_low, row_high = _row_bounds(config)
    obstacle_low, obstacle_high = _obstacle_bounds(pool)
    public_high = np.array([1.0, 1.0, config.shield_ticks], np.float32)
    prev_high = np.array(HEAD_SIZES, np.float32) - 1
    scalar = {
        "visible": (0, 1),
        "relayed": (0, 1),
        "class_id": (0, C.NUM_CLASSES - 1),
        "self_index": (0, C.TEAM_SIZE - 1),
    }
    pairs = {
        "units": (row_low, row_high),
        "public": (np.zeros(3, np.float32), public_high),
        "obstacles": (obstacle_low, obstacle_high),
        "context": (np.zeros(len(CONTEXT_FEATURES), np.float32), _context_high(config)),
        "prev_action": (np.full(3, -1.0, np.float32), prev_high),
    }
    out = {}
    for name, shape in FLAT_LAYOUT:
        low, high = pairs.get(name, scalar.get(name))
        out[name] = (
            np.broadcast_to(np.float32(low), shape).astype(np.float32),
            np.broadcast_to(np.float32(high), shape).astype(np.float32),
        )
    return out


def flat_observation_space(config: Config, pool: Pool) -> gymnasium.spaces.Box:
    """Box (680,) float32 holding every `flatten_obs` vector of one agent."""
    bounds = field_bounds(config, pool)
    low = np.concatenate([bounds[n][0].ravel() for n, _ in FLAT_LAYOUT])
    high = np.concatenate([bounds[n][1].ravel() for n, _ in FLAT_LAYOUT])
    return gymnasium.spaces.Box(low, high, dtype=np.float32)


def obs_space(config: Config, pool: Pool) -> gymnasium.spaces.Dict:
    """One agent's `engine.Obs` as a Dict space with the engine's shapes and dtypes
    (float32 tables, bool sight flags, int32 previous actions and ids), masks left out."""
    bounds = field_bounds(config, pool)
    dtypes = {"visible": np.bool_, "relayed": np.bool_, "prev_action": np.int32}
    dtypes |= {"class_id": np.int32, "self_index": np.int32}
    spaces = {}
    for name, shape in FLAT_LAYOUT:
        low, high = bounds[name]
        dtype = dtypes.get(name, np.float32)
        if name in ("class_id", "self_index"):
            low, high, shape = low[0], high[0], ()
        spaces[name] = gymnasium.spaces.Box(
            low.astype(dtype), high.astype(dtype), shape=shape, dtype=dtype
        )
    return gymnasium.spaces.Dict(spaces)


def action_space(action_type: str) -> gymnasium.spaces.Space:
    """Discrete(198) for "flat", MultiDiscrete([9, 11, 2]) int32 for "heads"."""
    if check_action_type(action_type) == "flat":
        return gymnasium.spaces.Discrete(C.NUM_FLAT)
    return gymnasium.spaces.MultiDiscrete(np.array(HEAD_SIZES), dtype=np.int32)


def mask_space(action_type: str) -> gymnasium.spaces.Box:
    """The legal-action mask of one agent as PettingZoo writes it: int8 0/1, 198 or 22 long."""
    return gymnasium.spaces.Box(0, 1, (MASK_SIZE[check_action_type(action_type)],), np.int8)
