"""The engine's data: `State`, `Actions`, `Obs`, `Masks`, `Events`, `Pool` and `Config`.

Every per-agent array has a leading axis of 10 slots (Team A = slots 0-4, Team B = 5-9).
World coordinates are map units with the origin at the south-west corner, x east, y north.
Observations, masks and the move head are in the acting team's frame (RULES 5.8): the team that
spawns east sees x mirrored (x -> 20 - x) and East/West swapped.
"""

from dataclasses import dataclass

import jax.numpy as jnp
from flax import struct

from engine import constants as C

# --- Observation unit row (RULES 5.3) ----------------------------------------------------------
# One row per unit the observer knows about, in the observer's team frame. A row the observer
# neither sees nor has relayed is all zeros.
ROW_FEATURES = (
    ("x", "y", "dx", "dy", "distance")  # position, offset from the observer, map units
    + ("is_self", "is_ally", "alive", "relayed")
    + tuple(f"class_{n.lower()}" for n in C.CLASS_NAMES[1:])  # one-hot class
    + ("health", "max_health", "health_frac", "cooldown", "speed")  # hit points, ticks, units/tick
    + tuple(f"status_{n}" for n in C.STATUS_NAMES)  # remaining ticks of each channel
    + ("shield", "ooc", "aura_out", "aura_in", "in_red_zone")
)
ROW = {name: i for i, name in enumerate(ROW_FEATURES)}
ROW_DIM = len(ROW_FEATURES)

CONTEXT_FEATURES = (
    "tick",
    "ticks_left",
    "own_score",
    "opp_score",
    "score_threshold",
    "own_team_size",
    "opp_team_size",
    "own_alive",
    "opp_alive",
    "own_wave_clock",
    "opp_wave_clock",
    "shared_obs",
)
CONTEXT = {name: i for i, name in enumerate(CONTEXT_FEATURES)}
CONTEXT_DIM = len(CONTEXT_FEATURES)

# Public lifecycle of all ten units (RULES 5.6), observer-relative order: active, alive, shield.
PUBLIC_FEATURES = ("active", "alive", "shield")
PUBLIC_DIM = len(PUBLIC_FEATURES)

OBS_VERSION = 1


@struct.dataclass
class Actions:
    """Three int32 heads of shape (10,): move 0-8, target 0-10, ult 0-1 (RULES 3.1)."""

    move: jnp.ndarray
    target: jnp.ndarray
    ult: jnp.ndarray


@struct.dataclass
class State:
    """One game. Layout fields are drawn at reset and fixed for the game (RULES 4.4)."""

    # layout
    map_id: jnp.ndarray  # () int32, index into the pool
    obstacles: jnp.ndarray  # (32, 8) float32, RULES 1.2 columns
    pads: jnp.ndarray  # (10, 2) float32, each slot's own spawn pad
    red_zones: jnp.ndarray  # (2, 4) float32, each team's Red Zone [x0, y0, x1, y1]
    spawn_end: jnp.ndarray  # () int32, 0 = Team A spawns west, 1 = east
    class_id: jnp.ndarray  # (10,) int32, 0 = empty slot
    active: jnp.ndarray  # (10,) bool
    # dynamics
    pos: jnp.ndarray  # (10, 2) float32 map units
    health: jnp.ndarray  # (10,) float32 hit points
    alive: jnp.ndarray  # (10,) bool
    cooldown: jnp.ndarray  # (10,) int32 ticks until the Ultimate is ready
    status: jnp.ndarray  # (10, 9) int32 ticks left per status channel
    shield: jnp.ndarray  # (10,) int32 spawn-shield ticks left
    ooc: jnp.ndarray  # (10,) int32 ticks until out of combat
    wave_clock: jnp.ndarray  # (2,) int32 ticks until each team's next respawn wave
    score: jnp.ndarray  # (2,) int32
    tick: jnp.ndarray  # () int32
    outcome: jnp.ndarray  # () int32, C.ONGOING / A_WINS / B_WINS / DRAW
    prev_action: jnp.ndarray  # (10, 3) int32 last accepted (move world frame, target, ult)
    has_prev: jnp.ndarray  # () bool
    seen: jnp.ndarray  # (10, 10) bool [observer, seen slot] direct sight in this state (RULES 5.2)


@struct.dataclass
class Obs:
    """Actor observations, team frame, leading axis = observer slot (RULES 5)."""

    units: jnp.ndarray  # (10, 10, ROW_DIM) float32, rows in C.RELATIVE_ORDER (own team first)
    visible: jnp.ndarray  # (10, 10) bool, row seen directly this tick
    relayed: jnp.ndarray  # (10, 10) bool, row filled from a teammate's last-tick sighting
    public: jnp.ndarray  # (10, 10, 3) float32 active, alive, shield of every unit
    obstacles: jnp.ndarray  # (10, 32, 8) float32 obstacle table in the observer's frame
    context: jnp.ndarray  # (10, CONTEXT_DIM) float32
    prev_action: jnp.ndarray  # (10, 10, 3) int32 each shown unit's last accepted (move, target,
    #   ult) in the observer's frame (target as the observer's category); -1 hidden / no history
    class_id: jnp.ndarray  # (10,) int32 the observer's own class
    self_index: jnp.ndarray  # (10,) int32 row of the observer itself in `units`
    mask: "Masks"  # legal actions for this observation


@struct.dataclass
class Masks:
    """Legal-action masks in the actor's team frame (RULES 3.5). Every row allows the no-op."""

    move: jnp.ndarray  # (10, 9) bool
    pair: jnp.ndarray  # (10, 11, 2) bool, joint (target, ult): the authoritative mask
    target: jnp.ndarray  # (10, 11) bool, any over ult
    ult: jnp.ndarray  # (10, 2) bool, any over target
    flat: jnp.ndarray  # (10, 198) bool, (move * 11 + target) * 2 + ult


@struct.dataclass
class Events:
    """What happened in one tick, fixed shape (RULES 4); pairs are [source, recipient]."""

    submitted: jnp.ndarray  # (10, 3) int32 actions as submitted (team frame)
    accepted: jnp.ndarray  # (10, 3) int32 actions after acceptance (team frame)
    rejected: jnp.ndarray  # (10, 3) bool: out of domain, move rejected, combat pair rejected
    fallback: jnp.ndarray  # (10,) bool the System gave no answer (set by the caller)
    lane: jnp.ndarray  # (10,) int32 0 none, 1 Basic, 2 Ultimate (accepted)
    recipient: jnp.ndarray  # (10,) int32 global slot of the ability's recipient, -1 none
    aura_out: jnp.ndarray  # (10,) float32 Mage-aura multiplier on each source's damage
    aura_in: jnp.ndarray  # (10,) float32 Warrior-aura multiplier on each recipient's damage
    mage_cover: jnp.ndarray  # (10, 10) bool Mage emitter -> beneficiary
    warrior_cover: jnp.ndarray  # (10, 10) bool Warrior emitter -> beneficiary
    damage_raw: jnp.ndarray  # (10, 10) float32 hit points
    damage_source: jnp.ndarray  # (10, 10) after Burst and Mage aura
    damage_recipient: jnp.ndarray  # (10, 10) after Warrior aura
    damage_realised: jnp.ndarray  # (10, 10) health actually removed (clamped, pro rata)
    heal_raw: jnp.ndarray  # (10, 10)
    heal_recipient: jnp.ndarray  # (10, 10) after anti-heal
    heal_realised: jnp.ndarray  # (10, 10) health actually restored (clamped, pro rata)
    regen: jnp.ndarray  # (10,) float32 hit points regenerated
    ooc_reset: jnp.ndarray  # (10,) bool combat participant this tick
    cooldown_started: jnp.ndarray  # (10,) bool
    cooldown_ready: jnp.ndarray  # (10,) bool cooldown reached 0 this tick
    charge_move: jnp.ndarray  # (10, 2) float32 displacement of the Charge phase
    move: jnp.ndarray  # (10, 2) float32 displacement of ordinary movement
    died: jnp.ndarray  # (10,) bool
    red_zone_death: jnp.ndarray  # (10,) bool victim started the tick in its own Red Zone
    lethal: jnp.ndarray  # (10, 10) bool [source, victim] damage contributors to a death
    status_applied: jnp.ndarray  # (10, 9) bool new application (counter was 0 after ageing)
    status_refreshed: jnp.ndarray  # (10, 9) bool re-application onto a running counter
    status_broken: jnp.ndarray  # (10, 9) bool broken by damage (Trap)
    status_expired: jnp.ndarray  # (10, 9) bool aged to zero
    status_cleared: jnp.ndarray  # (10, 9) bool cleared by death
    shield_expired: jnp.ndarray  # (10,) bool
    respawned: jnp.ndarray  # (10,) bool
    wave: jnp.ndarray  # (2,) bool each team's wave fired
    score_delta: jnp.ndarray  # (2,) int32
    outcome: jnp.ndarray  # () int32
    terminated: jnp.ndarray  # () bool a team reached the threshold
    truncated: jnp.ndarray  # () bool horizon reached


MAX_POOL = C.MAX_POOL


@struct.dataclass
class Pool:
    """What auto-reset draws from (A10). Padded to MAX_POOL rows; counts say how many are real."""

    obstacles: jnp.ndarray  # (64, 32, 8) float32
    pads: jnp.ndarray  # (64, 2, 5, 2) float32 pads by end (0 west, 1 east), pad, xy
    red_zones: jnp.ndarray  # (64, 2, 4) float32 Red Zone by end (0 west, 1 east)
    map_ids: jnp.ndarray  # (64,) int32 the map file id of each row
    num_maps: jnp.ndarray  # () int32
    rosters: jnp.ndarray  # (64, 10) int32 class per slot, 0 = empty
    num_rosters: jnp.ndarray  # () int32
    p_east: jnp.ndarray  # () float32 probability that Team A spawns east


@dataclass(frozen=True)
class Config:
    """Static rules of a game (hashable; RULES A2); changing it recompiles, a new Pool does not."""

    score_threshold: int = C.SCORE_THRESHOLD
    horizon: int = C.HORIZON
    wave_period: int = C.WAVE_PERIOD
    shield_ticks: int = C.SHIELD_TICKS
    shield_speed: float = C.SHIELD_SPEED
    move_scale: float = C.MOVE_SCALE
    shared_obs: bool = True
    world_frame: bool = False  # debugging: observations in world coordinates

    def __post_init__(self):
        # field -> (value, within range, the range in words for the error)
        checks = {
            "score_threshold": (
                self.score_threshold,
                1 <= self.score_threshold <= 2**24,
                f"1 to {2**24:,}",
            ),
            "horizon": (self.horizon, 1 <= self.horizon <= 2**24, f"1 to {2**24:,}"),
            "wave_period": (self.wave_period, self.wave_period >= 1, "1 or more"),
            "shield_ticks": (self.shield_ticks, self.shield_ticks >= 0, "0 or more"),
            # Above 2.0 a quarter-tick sub-step would exceed the body radius (tunnelling).
            "shield_speed": (self.shield_speed, 0 < self.shield_speed <= 2.0, "above 0, up to 2"),
            "move_scale": (self.move_scale, 0 < self.move_scale <= 1, "above 0, up to 1"),
        }
        for field, (value, ok, allowed) in checks.items():
            if not ok:
                raise ValueError(f"Config.{field}: {value!r} is out of range (allowed: {allowed})")
