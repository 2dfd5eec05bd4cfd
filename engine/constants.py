"""Every number of the rules, in one place (RULES.md is the prose source of truth).

Classes and status channels are catalogues keyed by name (`CLASSES` of `ClassSpec`,
`STATUSES` of `StatusSpec`); every per-class and per-channel table here, and the letters,
glyphs and words the apps, the log and the LLM prompt use, derive from them. Tables are NumPy
arrays indexed by class id (a position in `CLASSES`: 0 Neutral padding, 1 Mage, 2 Warrior,
3 Hunter, 4 Rogue, 5 Priest) or channel id; the engine turns them into `jnp` constants once.
Section numbers such as "RULES 3.2" point at RULES.md. NumPy only: the Replay Viewer and the
metrics import this module without JAX.
"""

from dataclasses import dataclass

import numpy as np

# --- Rules version -----------------------------------------------------------------------------
# Bumped whenever any outcome of any game can change; replays carry it, and `mbg replay verify`
# re-simulates only replays of this version (RULES.md 8 lists what each version changed).
#   1: recorded as "marl-battlegrounds 0.1.0" (the package version) before versions existed.
#   2: the Warrior factor applied once to each recipient's summed damage, health as
#      h + (H - D), the original's order (RULES 4 steps 4-5); the order-free movement of RULES 8.
RULES_VERSION = "2"
# How replays wrote a rules version before RULES_VERSION existed: written name -> version
# (RULES.md 8), so that a reader names an old replay's rules by version, not package name.
LEGACY_RULES_NAMES = {"marl-battlegrounds 0.1.0": "1"}

# --- Slots, teams, classes (RULES 2.1) ---------------------------------------------------------
NUM_SLOTS = 10
TEAM_SIZE = 5
MAX_SCENARIO_TICKS = 32  # a scenario's horizon and a stored line at most (scenarios/README.md)
NUM_TEAMS = 2
TEAM_OF_SLOT = np.repeat(np.arange(NUM_TEAMS, dtype=np.int32), TEAM_SIZE)  # 0 = A, 1 = B
TEAM_SLOTS = tuple(tuple(range(t * TEAM_SIZE, (t + 1) * TEAM_SIZE)) for t in range(NUM_TEAMS))
TEAM_NAMES = ("A", "B")


def slot_label(slot: int) -> str:
    """Global slot 0-9 -> "A0".."A4", "B0".."B4": team letter and team-local index (RULES 2.1).
    The one spelling of a slot in logs, panels, prompts, scenario files and slot specs."""
    slot = int(slot)
    return f"{TEAM_NAMES[slot // TEAM_SIZE]}{slot % TEAM_SIZE}"


SLOT_LABELS = tuple(slot_label(s) for s in range(NUM_SLOTS))  # index = global slot


# --- Canonical game constants (RULES 1, Part A decision A2) -----------------------------------
MAP_WIDTH = 20.0  # map units
MAP_HEIGHT = 10.0
BODY_RADIUS = 0.5
SCORE_THRESHOLD = 20  # points
HORIZON = 300  # ticks
WAVE_PERIOD = 5  # ticks between respawn waves; first wave on the 5th transition
SHIELD_TICKS = 3
SHIELD_SPEED = 2.0  # map units per tick
MOVE_SCALE = 1.0
ULT_COOLDOWN = 30  # ticks
RED_ZONE_DEPTH = 4.0  # map units from a team's back edge (RULES 1.6)
RED_ZONE_POINTS = 2  # points for a death that starts the tick in the victim's own Red Zone
MAX_OBSTACLES = 32
# Collision tests look only at the obstacles near a body (RULES 1.3): those whose bounding box,
# grown by NEAR_REACH, holds the body's centre. A body of radius <= BODY_RADIUS touches nothing
# outside (1e-3 spare for the rounding of a rotated wall's local frame). NEAR_OBSTACLES of them
# are tested at once, and more rounds run only when a body has more (never on shipped maps).
NEAR_REACH = BODY_RADIUS + 1e-3
NEAR_OBSTACLES = 4
MAX_POOL = 64  # maps and rosters auto-reset draws from; fixed so a new pool never recompiles
MAX_SCORE_OVERSHOOT = 9  # a tick can add at most 2 x 5 points; the score stays < K + 10

# --- Status channels (RULES 2.3) ---------------------------------------------------------------
# One entry per channel, named where it is defined: duration (ticks), effect, and the words the
# apps use (`label`: unit cards; `mark`: the word floated over a unit when it lands; `phrase`:
# the event log, "{ticks}" and "{s}" (plural s) filled in). Channel ids are the positions here.
SLOW_FLOOR = 0.20
FREEDOM_FLOOR = 0.85
ANTI_HEAL_FACTOR = 0.5  # healing and regeneration received
BURST_FACTOR = 1.5  # the Mage's own outgoing damage


@dataclass(frozen=True)
class StatusSpec:
    """One status channel (RULES 2.3). slow_factor: speed multiplier while it runs (1 = not a
    slow); stun: no actions while it runs; breaks_on_damage: ends when its bearer takes damage."""

    name: str
    duration: int  # ticks
    label: str
    mark: str
    phrase: str
    slow_factor: float = 1.0
    stun: bool = False
    breaks_on_damage: bool = False


STATUSES = (
    StatusSpec("charge_slow", 5, "Charge slow", "slowed", "slowed {ticks}", slow_factor=0.5),
    StatusSpec("hunter_slow", 1, "Hunter slow", "slowed", "slowed {ticks}", slow_factor=0.85),
    StatusSpec("poison_slow", 5, "Poison slow", "slowed", "slowed {ticks}", slow_factor=0.5),
    StatusSpec("charge_stun", 1, "Charge stun", "stunned", "stunned {ticks} tick{s}", stun=True),
    StatusSpec(
        "trap_stun", 4, "Trap stun", "trapped", "stunned {ticks} tick{s}", stun=True,
        breaks_on_damage=True,
    ),
    StatusSpec("poison_stun", 1, "Poison stun", "stunned", "stunned {ticks} tick{s}", stun=True),
    StatusSpec("anti_heal", 4, "Anti-heal", "anti-heal", "healing halved {ticks}"),
    StatusSpec("burst", 5, "Burst", "burst", f"damage x{BURST_FACTOR:g} for {{ticks}} tick{{s}}"),
    StatusSpec("freedom", 1, "Freedom", "freedom", "freedom {ticks}"),
)  # fmt: skip
STATUS_NAMES = tuple(st.name for st in STATUSES)
NUM_STATUS = len(STATUSES)
STATUS_ID = {name: k for k, name in enumerate(STATUS_NAMES)}
# Ids of the channels the engine's phases name (movement, combat, statuses).
CHARGE_SLOW, HUNTER_SLOW, POISON_SLOW = (
    STATUS_ID[n] for n in ("charge_slow", "hunter_slow", "poison_slow")
)
CHARGE_STUN, TRAP_STUN, POISON_STUN = (
    STATUS_ID[n] for n in ("charge_stun", "trap_stun", "poison_stun")
)
ANTI_HEAL, BURST, FREEDOM = (STATUS_ID[n] for n in ("anti_heal", "burst", "freedom"))  # fmt: skip
STATUS_DURATION = np.array([st.duration for st in STATUSES], np.int32)
SLOW_FACTOR = np.array([st.slow_factor for st in STATUSES], np.float32)  # 1 = not a slow
IS_STUN = np.array([st.stun for st in STATUSES], bool)
BREAKS_ON_DAMAGE = np.array([st.breaks_on_damage for st in STATUSES], bool)

# --- Class catalogue (RULES 2.2) ----------------------------------------------------------------
# One entry per class, keyed by name; every per-class table below, and the letters, glyphs and
# words of the apps, the log and the LLM prompt, are derived from it. Class ids are positions
# (0 = Neutral, the padding of an empty slot).
# Relations for the target of an ability.
REL_NONE, REL_ENEMY, REL_ALLY, REL_SELF = 0, 1, 2, 3


@dataclass(frozen=True)
class AbilitySpec:
    """One lane of a class (RULES 2.2, 3): who it targets (REL_*), reach (map units), damage and
    heal (hit points), the status channels it applies to its recipient (`on_hit`) and to its
    user (`on_self`), and the event log's verb ("hit", "cast Holy Word on")."""

    name: str
    relation: int
    reach: float = 0.0
    damage: float = 0.0
    heal: float = 0.0
    verb: str = ""
    on_hit: tuple[str, ...] = ()
    on_self: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClassSpec:
    """One class (RULES 2.2). letter: roster letter and arena glyph; health in hit points,
    speed in map units a tick, sight in map units; ult_cooldown and ooc_delay (ticks without
    combat before regeneration) in ticks; regen_fraction of max health a tick; summary: the
    Ultimate in one line of words (LLM prompt)."""

    name: str
    letter: str
    max_health: float
    base_speed: float
    sight_radius: float
    basic: AbilitySpec
    ultimate: AbilitySpec
    summary: str = ""
    ult_cooldown: int = ULT_COOLDOWN
    ooc_delay: int = 5
    regen_fraction: float = 0.04


_BASIC = "Basic"
CLASSES = (
    ClassSpec(
        "Neutral", "?", 0.0, 0.0, 0.0, AbilitySpec(_BASIC, REL_NONE), AbilitySpec("-", REL_NONE),
        ult_cooldown=0, ooc_delay=0, regen_fraction=0.0,
    ),
    ClassSpec(
        "Mage", "M", 80.0, 1.0, 6.0,
        AbilitySpec(_BASIC, REL_ENEMY, 3.0, damage=13.0, verb="hit"),
        AbilitySpec("Burst", REL_SELF, verb="used Burst", on_self=("burst",)),
        summary="Burst: your damage x1.5 for 5 ticks",
    ),
    ClassSpec(
        "Warrior", "W", 200.0, 1.0, 6.0,
        AbilitySpec(_BASIC, REL_ENEMY, 1.5, damage=8.0, verb="struck"),
        AbilitySpec(
            "Charge", REL_ENEMY, 5.75, damage=20.0, verb="charged",
            on_hit=("charge_slow", "charge_stun"),
        ),
        summary="Charge: jump next to the target, stun 1 tick, slow x0.5 for 5",
    ),
    ClassSpec(
        "Hunter", "H", 100.0, 1.0, 6.5,
        AbilitySpec(_BASIC, REL_ENEMY, 3.5, damage=6.0, verb="shot", on_hit=("hunter_slow",)),
        AbilitySpec("Trap", REL_ENEMY, 3.0, damage=10.0, verb="trapped", on_hit=("trap_stun",)),
        summary="Trap: stun 4 ticks (damage frees the target); Basic slows x0.85 for 1 tick",
    ),
    ClassSpec(
        "Rogue", "R", 100.0, 1.3, 6.0,
        AbilitySpec(_BASIC, REL_ENEMY, 1.5, damage=12.0, verb="stabbed"),
        AbilitySpec(
            "Poison", REL_ENEMY, 1.5, damage=36.0, verb="poisoned",
            on_hit=("poison_slow", "poison_stun", "anti_heal"),
        ),
        summary="Poison: stun 1 tick, slow x0.5 for 5, healing received x0.5 for 4",
        ooc_delay=3,
    ),
    ClassSpec(
        "Priest", "P", 100.0, 1.0, 6.0,
        AbilitySpec(_BASIC, REL_ALLY, 3.0, heal=8.0, verb="healed", on_hit=("freedom",)),
        # heal = the largest max health: a full heal of any class
        AbilitySpec("Holy Word", REL_ALLY, 5.75, heal=200.0, verb="cast Holy Word on"),
        summary="Holy Word: a full heal; Basic also lifts slows to at least x0.85",
    ),
)  # fmt: skip
CLASS_NAMES = tuple(c.name for c in CLASSES)
NUM_CLASSES = len(CLASSES)
CLASS_ID = {name: k for k, name in enumerate(CLASS_NAMES)}
NEUTRAL, MAGE, WARRIOR, HUNTER, ROGUE, PRIEST = (
    CLASS_ID[n] for n in ("Neutral", "Mage", "Warrior", "Hunter", "Rogue", "Priest")
)
CLASS_LETTERS = "".join(c.letter for c in CLASSES[1:])  # "MWHRP": roster letters, id order
CLASS_GLYPHS = tuple(c.letter for c in CLASSES)
CLASS_OF_LETTER = {c.letter: k for k, c in enumerate(CLASSES) if k}
FULL_TEAM = CLASS_LETTERS[:TEAM_SIZE]  # "MWHRP": one of each of the first classes


def class_table(values: dict, default=0.0, dtype=np.float32) -> np.ndarray:
    """(NUM_CLASSES, ...) array of `values` keyed by class name (a number or a row each),
    `default` for a class not named and zeros for Neutral (no agent): per-class data outside
    the rules (the scripted bots' styles) stays keyed by name, so a new class needs no edit
    there. Raises KeyError naming an unknown class."""
    unknown = set(values) - set(CLASS_NAMES)
    if unknown:
        raise KeyError(f"class_table: unknown class {sorted(unknown)} (known: {CLASS_NAMES})")
    rows = np.array([values.get(name, default) for name in CLASS_NAMES[1:]], dtype)
    return np.concatenate([np.zeros_like(rows[:1]), rows])


def _column(field: str, dtype) -> np.ndarray:
    lane, _, attr = field.rpartition(".")
    return np.array([getattr(getattr(c, lane) if lane else c, attr) for c in CLASSES], dtype)


MAX_HEALTH = _column("max_health", np.float32)
BASE_SPEED = _column("base_speed", np.float32)
SIGHT_RADIUS = _column("sight_radius", np.float32)
BASIC_RELATION = _column("basic.relation", np.int32)
BASIC_RANGE = _column("basic.reach", np.float32)
BASIC_DAMAGE = _column("basic.damage", np.float32)
BASIC_HEAL = _column("basic.heal", np.float32)
ULT_NAMES = tuple(c.ultimate.name for c in CLASSES)
ULT_RELATION = _column("ultimate.relation", np.int32)
ULT_RANGE = _column("ultimate.reach", np.float32)
ULT_DAMAGE = _column("ultimate.damage", np.float32)
ULT_HEAL = _column("ultimate.heal", np.float32)
ULT_COOLDOWNS = _column("ult_cooldown", np.int32)
OOC_DELAY = _column("ooc_delay", np.int32)  # ticks without combat before regeneration
REGEN_FRACTION = _column("regen_fraction", np.float32)  # of max health a tick
# Event log verbs by (class, lane): lane 1 Basic, 2 Ultimate (Events.lane).
VERBS = {
    (k, lane): ability.verb
    for k, spec in enumerate(CLASSES)
    for lane, ability in ((1, spec.basic), (2, spec.ultimate))
    if k
}

# Channels an accepted ability applies to its recipient, by (class, lane): lane 0 Basic, 1 Ultimate.
# Mage Burst applies BURST to the Mage itself (its Ultimate has no recipient).
STATUS_ON_HIT = np.zeros((NUM_CLASSES, 2, NUM_STATUS), bool)
STATUS_ON_SELF = np.zeros((NUM_CLASSES, NUM_STATUS), bool)  # applied by the Ultimate to its user
for _k, _spec in enumerate(CLASSES):
    for _lane, _ability in enumerate((_spec.basic, _spec.ultimate)):
        STATUS_ON_HIT[_k, _lane, [STATUS_ID[n] for n in _ability.on_hit]] = True
    STATUS_ON_SELF[_k, [STATUS_ID[n] for n in _spec.ultimate.on_self]] = True

# --- Auras (RULES 2.4) -------------------------------------------------------------------------
AURA_RADIUS = 2.0
MAGE_AURA_FACTOR = 1.15  # outgoing damage, multiplicative over Mages
MAGE_AURA_CEILING = 1.3225
WARRIOR_AURA_FACTOR = 0.85  # incoming damage, multiplicative over Warriors
WARRIOR_AURA_FLOOR = 0.7225

# --- Actions (RULES 3) -------------------------------------------------------------------------
NUM_MOVES, NUM_TARGETS, NUM_ULT = 9, 11, 2
NUM_FLAT = NUM_MOVES * NUM_TARGETS * NUM_ULT  # 198; flat = (move * 11 + target) * 2 + ult
MOVE_NAMES = ("Stay", "N", "S", "E", "W", "NE", "NW", "SE", "SW")
_D = np.float32(0.70710677)
MOVE_VECTORS = np.array(
    [[0, 0], [0, 1], [0, -1], [1, 0], [-1, 0], [_D, _D], [-_D, _D], [_D, -_D], [-_D, -_D]],
    np.float32,
)
# The team spawning east plays in a mirrored frame (x -> 20 - x): East and West swap.
MIRROR_MOVE = np.array([0, 1, 2, 4, 3, 6, 5, 8, 7], np.int32)
TARGET_NAMES = (
    ("none",)
    + tuple(f"ally{k}" for k in range(TEAM_SIZE))
    + tuple(f"enemy{k}" for k in range(TEAM_SIZE))
)

# Actor-relative target category -> global slot (-1 = none), shape (10 slots, 11 categories).
TARGET_SLOT = np.full((NUM_SLOTS, NUM_TARGETS), -1, np.int32)
for _slot in range(NUM_SLOTS):
    _own = TEAM_OF_SLOT[_slot] * TEAM_SIZE
    _opp = (1 - TEAM_OF_SLOT[_slot]) * TEAM_SIZE
    TARGET_SLOT[_slot, 1:6] = _own + np.arange(TEAM_SIZE)
    TARGET_SLOT[_slot, 6:11] = _opp + np.arange(TEAM_SIZE)
# Observer-relative order of the ten unit rows: own team block, then the opposing block.
RELATIVE_ORDER = TARGET_SLOT[:, 1:].copy()  # (10 observers, 10 rows) -> global slot

# --- Obstacle table layout (RULES 1.2) ---------------------------------------------------------
OBSTACLE_NONE, OBSTACLE_PILLAR, OBSTACLE_WALL = 0, 1, 2
OBS_TYPE, OBS_X, OBS_Y, OBS_RADIUS, OBS_WIDTH, OBS_HEIGHT, OBS_THETA, OBS_ACTIVE = range(8)
OBSTACLE_FEATURES = 8

# --- Outcomes (RULES 4.3) ----------------------------------------------------------------------
ONGOING, A_WINS, B_WINS, DRAW = range(4)
OUTCOME_NAMES = ("ongoing", "A wins", "B wins", "draw")

# --- Geometry tolerances (RULES 1.3, 1.4) ------------------------------------------------------
LOS_EPS = 1e-5
OVERLAP_EPS = 1e-6
STUCK_TOLERANCE = 1e-3  # map units a disc may sit inside an obstacle after rounding
MOVE_SUBSTEPS = 4
