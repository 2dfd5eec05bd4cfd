"""Every number of the rules, in one place (RULES.md is the prose source of truth).

Class tables are NumPy arrays indexed by class id (0 Neutral padding, 1 Mage, 2 Warrior,
3 Hunter, 4 Rogue, 5 Priest); the engine turns them into `jnp` constants once. Section numbers
such as "RULES 3.2" point at RULES.md.
"""

import numpy as np

# --- Rules version -----------------------------------------------------------------------------
# Bumped whenever any outcome of any game can change; replays carry it, and `mbg replay verify`
# re-simulates only replays of this version (RULES.md 8 lists what each version changed).
#   1: recorded as "marl-battlegrounds 0.1.0" (the package version) before versions existed.
#   2: the Warrior factor applied once to each recipient's summed damage, health as
#      h + (H - D), the original's order (RULES 4 steps 4-5); the order-free movement of RULES 8.
RULES_VERSION = "2"

# --- Slots, teams, classes (RULES 2.1) ---------------------------------------------------------
NUM_SLOTS = 10
TEAM_SIZE = 5
NUM_TEAMS = 2
TEAM_OF_SLOT = np.repeat(np.arange(NUM_TEAMS, dtype=np.int32), TEAM_SIZE)  # 0 = A, 1 = B
CLASS_NAMES = ("Neutral", "Mage", "Warrior", "Hunter", "Rogue", "Priest")
NUM_CLASSES = len(CLASS_NAMES)
NEUTRAL, MAGE, WARRIOR, HUNTER, ROGUE, PRIEST = range(NUM_CLASSES)
TEAM_NAMES = ("A", "B")

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
# Collision tests look only at the obstacles near a body's 1 x 1 cell (RULES 1.3): for each of
# the 20 x 10 cells, the obstacle slots a body anywhere in it could touch; maps are checked
# to need at most CELL_OBSTACLES of them (the shipped maps need 4).
GRID_COLS, GRID_ROWS = 20, 10  # 1 x 1 map-unit cells, row-major from the south-west corner
NUM_CELLS = GRID_COLS * GRID_ROWS
CELL_OBSTACLES = 8
CELL_CENTRES = np.stack(
    np.meshgrid(np.arange(GRID_COLS) + 0.5, np.arange(GRID_ROWS) + 0.5, indexing="xy"), -1
).reshape(NUM_CELLS, 2)
# A body of radius <= BODY_RADIUS anywhere in a cell is within half the cell's diagonal of its
# centre, and the gap to an obstacle changes no faster than the body moves, so an obstacle the
# body can touch overlaps a disc of this radius at the centre (1e-3 spare for rounding).
CELL_REACH = BODY_RADIUS + float(np.sqrt(0.5)) + 1e-3
MAX_POOL = 64  # maps and rosters auto-reset draws from; fixed so a new pool never recompiles
MAX_SCORE_OVERSHOOT = 9  # a tick can add at most 2 x 5 points; the score stays < K + 10

# --- Class catalog (RULES 2.2) ------------------------------------------------------------------
# Relations for the target of an ability.
REL_NONE, REL_ENEMY, REL_ALLY, REL_SELF = 0, 1, 2, 3
#                            Neut  Mage  Warr  Hunt  Rogue Priest
MAX_HEALTH = np.array([0.0, 80.0, 200.0, 100.0, 100.0, 100.0], np.float32)
BASE_SPEED = np.array([0.0, 1.0, 1.0, 1.0, 1.3, 1.0], np.float32)
SIGHT_RADIUS = np.array([0.0, 6.0, 6.0, 6.5, 6.0, 6.0], np.float32)
BASIC_RELATION = np.array(
    [REL_NONE, REL_ENEMY, REL_ENEMY, REL_ENEMY, REL_ENEMY, REL_ALLY], np.int32
)
BASIC_RANGE = np.array([0.0, 3.0, 1.5, 3.5, 1.5, 3.0], np.float32)
BASIC_DAMAGE = np.array([0.0, 13.0, 8.0, 6.0, 12.0, 0.0], np.float32)
BASIC_HEAL = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 8.0], np.float32)
ULT_NAMES = ("-", "Burst", "Charge", "Trap", "Poison", "Holy Word")
ULT_RELATION = np.array([REL_NONE, REL_SELF, REL_ENEMY, REL_ENEMY, REL_ENEMY, REL_ALLY], np.int32)
ULT_RANGE = np.array([0.0, 0.0, 5.75, 3.0, 1.5, 5.75], np.float32)
ULT_DAMAGE = np.array([0.0, 0.0, 20.0, 10.0, 36.0, 0.0], np.float32)
ULT_HEAL = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 200.0], np.float32)  # = largest max health
ULT_COOLDOWNS = np.array(
    [0, ULT_COOLDOWN, ULT_COOLDOWN, ULT_COOLDOWN, ULT_COOLDOWN, ULT_COOLDOWN], np.int32
)
OOC_DELAY = np.array([0, 5, 5, 5, 3, 5], np.int32)  # ticks without combat before regeneration
REGEN_FRACTION = np.array([0.0, 0.04, 0.04, 0.04, 0.04, 0.04], np.float32)  # of max health a tick

# --- Status channels (RULES 2.3) ---------------------------------------------------------------
STATUS_NAMES = (
    "charge_slow",
    "hunter_slow",
    "poison_slow",
    "charge_stun",
    "trap_stun",
    "poison_stun",
    "anti_heal",
    "burst",
    "freedom",
)
NUM_STATUS = len(STATUS_NAMES)
(CHARGE_SLOW, HUNTER_SLOW, POISON_SLOW, CHARGE_STUN, TRAP_STUN, POISON_STUN, ANTI_HEAL, BURST,
 FREEDOM) = range(NUM_STATUS)  # fmt: skip
STATUS_DURATION = np.array([5, 1, 5, 1, 4, 1, 4, 5, 1], np.int32)
SLOW_FACTOR = np.array([0.5, 0.85, 0.5, 1, 1, 1, 1, 1, 1], np.float32)  # 1 = not a slow
IS_STUN = np.array([0, 0, 0, 1, 1, 1, 0, 0, 0], bool)
BREAKS_ON_DAMAGE = np.array([0, 0, 0, 0, 1, 0, 0, 0, 0], bool)  # only the Hunter's Trap
SLOW_FLOOR = 0.20
FREEDOM_FLOOR = 0.85
ANTI_HEAL_FACTOR = 0.5  # healing and regeneration received
BURST_FACTOR = 1.5  # the Mage's own outgoing damage

# Channels an accepted ability applies to its recipient, by (class, lane): lane 0 Basic, 1 Ultimate.
# Mage Burst applies BURST to the Mage itself (its Ultimate has no recipient).
STATUS_ON_HIT = np.zeros((NUM_CLASSES, 2, NUM_STATUS), bool)
STATUS_ON_HIT[HUNTER, 0, HUNTER_SLOW] = True
STATUS_ON_HIT[PRIEST, 0, FREEDOM] = True
STATUS_ON_HIT[WARRIOR, 1, [CHARGE_SLOW, CHARGE_STUN]] = True
STATUS_ON_HIT[HUNTER, 1, TRAP_STUN] = True
STATUS_ON_HIT[ROGUE, 1, [POISON_SLOW, POISON_STUN, ANTI_HEAL]] = True
STATUS_ON_SELF = np.zeros((NUM_CLASSES, NUM_STATUS), bool)  # applied by the Ultimate to its user
STATUS_ON_SELF[MAGE, BURST] = True

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
    ("none",) + tuple(f"ally{k}" for k in range(5)) + tuple(f"enemy{k}" for k in range(5))
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
