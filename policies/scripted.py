"""Three scripted bots, weakest to strongest: `brawler`, `kiter`, `tactician`.

Each sees only what an actor sees (its observation rows, context and legal-action mask), is
deterministic (the key is unused) and is pure JAX, so it jits, vmaps over games and runs inside
`lax.scan` with the engine. A bot decides for its slots at once (vmapped over observers); only
legal actions come out: every choice is an argmax over masked scores, and the no-op is always
legal (RULES 3.5). All three walk round cover: the move whose landing point is nearest to the
goal on foot (scripted_nav); the System's carry keeps each slot's walking-distance field so
the next tick only refines it, and the walking grid of the map, rebuilt only when the map changes.

- brawler: every agent, Priest included, runs at the nearest enemy it knows of (the enemy's
  spawn when it knows none) and hits the nearest legal target; Ultimates go out the moment
  they are legal; no retreat.
- kiter: ranged classes (Mage, Hunter) hold their Basic range from the weakest enemy and back
  off melee; melee classes dive the weakest enemy; everyone hits the lowest health in reach;
  Ultimates are kept for kills and weak targets; the Priest trails its team and heals the most
  hurt ally, Holy Word below 40%.
- tactician: the whole team focuses one shared target (cheap kills, healers and Mages first,
  enemies standing in their own Red Zone for the 2 points), melee peels for the Priest and Mage
  and does not chase beyond its team (leash), Ultimates are saved for kills, gap-closing on
  the focus, peeling and rescues (Holy Word below 35% health in combat), badly hurt agents fall
  back to the Priest, nobody steps into its own Red Zone with enemies about, everyone stands
  off while outnumbered (waiting for the respawn wave), and the team advances together.

Strength (bench/bench_matches.py round-robin): random < brawler < kiter < tactician.
"""

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp

from engine import constants as C
from engine import geometry
from engine.types import Actions, Masks, Obs
from policies import scripted_nav as nav
from policies import scripted_view as sv
from policies.system import System, as_system

M, W, H, R, P = C.MAGE, C.WARRIOR, C.HUNTER, C.ROGUE, C.PRIEST
ENEMY_SPAWN = jnp.array([C.MAP_WIDTH - 1.5, C.MAP_HEIGHT / 2])
ALL_SLOTS = tuple(range(C.NUM_SLOTS))


class Style(NamedTuple):
    """Weights of one bot: numbers only, so a Style of arrays can also be traced (one compiled
    function then plays any style); class tables are indexed by class id."""

    w_near: float  # per map unit of distance to the target
    w_low: float  # per 100 hit points the target has
    w_focus: float  # bonus for the team's shared focus target
    w_kill: float  # bonus when the hit would kill
    w_peel: float  # bonus for an enemy next to our Priest or Mage
    w_red: float  # bonus for an enemy inside its own Red Zone (a 2-point kill)
    prio: tuple  # (NUM_CLASSES,) bonus by the target's class
    ult_always: float  # 1: fire Ultimates as soon as they are legal
    rescue: float  # Holy Word an ally below this health fraction
    keep: tuple  # (NUM_CLASSES,) distance to hold from the engaged enemy, by own class
    shy: tuple  # (NUM_CLASSES,) radius to keep from every enemy, by own class (0 = none)
    retreat: float  # fall back to the Priest below this health fraction (0 = never)
    home: float  # cost of stepping into the own Red Zone while enemies are known
    engage: int  # whom movement goes after: NEAREST, WEAKEST or FOCUS
    advance: float  # how far ahead of the team centroid to walk when no enemy is known
    navigate: float  # 1: walk round cover (walking-distance grid); 0: straight at the goal
    hold: float  # when outnumbered, stay this much further than usual from the nearest enemy
    leash: float  # melee engages only enemies this close to the rest of its team


NEAREST, WEAKEST, FOCUS = range(3)


def _by_class(values: dict, default: float = 0.0) -> tuple:
    """A Style's class table, keyed by class name (engine/constants.py class_table)."""
    return tuple(C.class_table(values, default).tolist())


_NONE = _by_class({})
_ONE_STEP = _by_class({}, 1.0)
_KEEP = _by_class({"Mage": 2.9, "Warrior": 1.0, "Hunter": 3.4, "Rogue": 1.0, "Priest": 4.5}, 1.0)
_SHY = _by_class({"Mage": 2.6, "Hunter": 2.6, "Priest": 3.5})
STYLES = {
    "brawler": Style(
        w_near=10.0, w_low=0.0, w_focus=0.0, w_kill=0.0, w_peel=0.0, w_red=0.0, prio=_NONE,
        ult_always=1.0, rescue=0.5, keep=_ONE_STEP, shy=_NONE,
        retreat=0.0, home=0.0, engage=NEAREST, advance=99.0, navigate=1.0,
        hold=0.0, leash=99.0,
    ),
    "kiter": Style(
        w_near=2.0, w_low=40.0, w_focus=0.0, w_kill=20.0, w_peel=0.0, w_red=0.0, prio=_NONE,
        ult_always=0.0, rescue=0.4, keep=_KEEP,
        shy=_SHY, retreat=0.0, home=0.0, engage=WEAKEST,
        advance=3.0, navigate=1.0, hold=0.0, leash=99.0,
    ),
    "tactician": Style(
        w_near=2.0, w_low=30.0, w_focus=40.0, w_kill=60.0, w_peel=30.0, w_red=15.0,
        prio=_by_class({"Mage": 12.0, "Hunter": 6.0, "Rogue": 4.0, "Priest": 18.0}),
        ult_always=0.0, rescue=0.35, keep=_KEEP, shy=_SHY, retreat=0.3,
        home=4.0, engage=FOCUS, advance=1.5, navigate=1.0, hold=2.5, leash=3.5,
    ),
}  # fmt: skip
BOTS = tuple(STYLES)  # names, weakest first

# When a saved Ultimate is worth firing (kiter, tactician), by own class over the conditions
# [kills, target below half health, peel, gap-close on the focus, target is a Priest].
# Mage Burst and Priest Holy Word have their own rules; a class not named never saves one.
ULT_WORTH = jnp.asarray(
    C.class_table(
        {"Warrior": [1, 0, 1, 1, 0], "Hunter": [1, 1, 1, 0, 1], "Rogue": [1, 1, 0, 0, 1]},
        default=[0, 0, 0, 0, 0],
    )
)


def _focus(v: sv.View, style: Style) -> jax.Array:
    """One-hot (10,) of the team's shared focus: every teammate ranks the same known enemies
    the same way (distance from the team centroid, not from itself), so they agree."""
    team = sv.centroid(v, v.ally, v.me)
    gap = jnp.sqrt(jnp.sum((v.pos - team) ** 2, axis=1))
    score = -v.hp / v.aura_in - 8.0 * gap + jnp.asarray(style.prio)[v.row_cls] + 10.0 * v.in_red
    score = jnp.where(v.enemy, score, -jnp.inf)
    return (jnp.arange(C.NUM_SLOTS) == jnp.argmax(score)) & v.enemy


def _threat(v: sv.View) -> jax.Array:
    """(10,) bool: known enemies within 2.5 of one of our known Priests or Mages.

    Only the enemy rows (5-9) against the ally rows (0-4) are measured: the other pairs
    cannot count, and each distance is the same two-term sum either way.
    """
    team = C.TEAM_SIZE
    soft = v.ally[:team] & ((v.row_cls[:team] == P) | (v.row_cls[:team] == M))
    gap = jnp.sqrt(jnp.sum((v.pos[team:, None] - v.pos[None, :team]) ** 2, axis=-1))
    near = jnp.any((gap < 2.5) & soft[None, :], axis=1)  # per enemy row
    return v.enemy & jnp.concatenate([jnp.zeros(team, bool), near])


def _attack_scores(v: sv.View, style: Style, focus, threat) -> jax.Array:
    """(11, 2) scores of Basic and Ultimate on every row, for damage dealers."""
    basic_dmg, ult_dmg = sv.damage_to(v, sv.BASIC_DAMAGE), sv.damage_to(v, sv.ULT_DAMAGE)
    base = (
        100.0
        - style.w_near * v.dist
        - style.w_low * v.hp / 100.0
        + style.w_focus * focus
        + style.w_peel * threat
        + style.w_red * v.in_red
        + jnp.asarray(style.prio)[v.row_cls]
    )
    basic = base + style.w_kill * (basic_dmg >= v.hp)
    conditions = jnp.stack(
        [ult_dmg >= v.hp, v.row_frac < 0.5, threat, focus & (v.dist > 2.5), v.row_cls == P], 1
    )
    worth = (conditions.astype(jnp.float32) @ ULT_WORTH[v.cls]) > 0
    fire = (style.ult_always > 0) | worth
    ult = jnp.where(fire, base + style.w_kill * (ult_dmg >= v.hp) + 50.0, -1e3)
    scores = jnp.stack([basic, ult], 1)
    scores = jnp.where(v.enemy[:, None], scores, -1e3)
    burst_wanted = jnp.any(v.pair_mask[C.TEAM_SIZE + 1 :, 0]) & (v.frac > 0.3)
    burst = jnp.where(burst_wanted, 150.0, -1e3)
    return jnp.concatenate([jnp.array([[0.0, burst]]), scores], 0)


def _heal_scores(v: sv.View, style: Style) -> jax.Array:
    """(11, 2) scores of the Priest's heal and Holy Word on every ally row."""
    need = 1.0 - v.row_frac
    basic = jnp.where(v.row_frac < 0.99, 100.0 + 100.0 * need + 20.0 * v.fighting, -1e3)
    rescue = (v.row_frac < style.rescue) & (
        (style.ult_always > 0) | v.fighting | (v.row_frac < 0.2)
    )
    ult = jnp.where(rescue, 250.0 + 100.0 * need, -1e3)
    scores = jnp.where(v.ally[:, None], jnp.stack([basic, ult], 1), -1e3)
    return jnp.concatenate([jnp.array([[0.0, -1e3]]), scores], 0)


def _goal(v: sv.View, style: Style, focus) -> tuple[jax.Array, jax.Array]:
    """Where to walk (2,) and the per-row keep-away radii (10,), team frame."""
    # With no enemy in sight, head for the enemy's spawn; an agent more than `advance` ahead
    # of its team (in x, team frame) waits for it at the team's centroid.
    team = sv.centroid(v, v.ally, v.me)
    idle = jnp.where(v.me[0] > team[0] + style.advance, team, ENEMY_SPAWN)
    near, _ = sv.nearest(v, v.enemy)
    weak = jnp.argmin(jnp.where(v.enemy, v.hp, jnp.inf))
    chosen = jnp.stack([near, weak, jnp.argmax(focus)])[jnp.asarray(style.engage, jnp.int32)]
    keep = jnp.asarray(style.keep)[v.cls]
    # Outnumbered (a wave is coming), everyone stands further off than usual.
    keep = keep + style.hold * (v.advantage < 0)
    goal = sv.at_range(v, v.pos[chosen], keep)
    # Melee does not chase a target far from the rest of its team: it waits a step ahead.
    mates_at = sv.centroid(v, v.ally & ~v.is_self, v.me)
    far = jnp.sqrt(jnp.sum((v.pos[chosen] - mates_at) ** 2)) > style.leash
    step = v.pos[chosen] - mates_at
    ahead = mates_at + step / jnp.maximum(jnp.sqrt(jnp.sum(step**2)), 1e-6)
    melee_me = (v.cls == W) | (v.cls == R)
    goal = jnp.where(melee_me & far & jnp.any(v.ally & ~v.is_self), ahead, goal)
    goal = jnp.where(jnp.any(v.enemy), goal, idle)
    # The Priest (when its style keeps it back) trails the most hurt teammate.
    mates = v.ally & ~v.is_self
    hurt = jnp.argmin(jnp.where(mates, v.row_frac, jnp.inf))
    anyone_hurt = jnp.any(mates & (v.row_frac < 0.95))
    behind = jnp.where(anyone_hurt, v.pos[hurt], sv.centroid(v, mates, v.me)) - jnp.array([1.5, 0])
    trail = (v.cls == P) & jnp.any(mates) & (keep > 2.0)
    goal = jnp.where(trail, behind, goal)
    # Badly hurt agents fall back to a Priest they can see.
    priest = v.ally & ~v.is_self & (v.row_cls == P)
    fall_back = (v.frac < style.retreat) & jnp.any(priest) & (v.cls != P)
    goal = jnp.where(fall_back, v.pos[jnp.argmax(priest)], goal)
    shy = jnp.asarray(style.shy)[v.cls]
    melee = (v.row_cls == W) | (v.row_cls == R)
    avoid = jnp.where(v.enemy & (melee | (v.cls == P)), shy, 0.0)
    return goal, avoid


class Memory(NamedTuple):
    """What a navigating bot keeps between ticks, per controlled slot: its last walking-distance
    field (n, 10, 20) float32, the goal it was for (n, 2) map units, the obstacle table's stamp
    (n,) float32 and the walking grid of that table (n, 8, 10, 20) bool (scripted_nav.grid_links;
    the obstacles are static for a game, so it is rebuilt only when the stamp changes)."""

    field: jax.Array
    goal: jax.Array
    stamp: jax.Array
    links: jax.Array


def fresh_memory(n: int) -> Memory:
    """Memory of n slots that knows nothing yet (the first tick computes full fields).
    Strong float32 throughout, as `decide` returns it: a weakly typed fill (jnp.full of a
    Python float) would make the second tick's carry a new type and retrace a jitted act."""
    return Memory(
        field=jnp.full((n, nav.ROWS, nav.COLS), nav.INF, jnp.float32),
        goal=jnp.zeros((n, 2), jnp.float32),
        stamp=jnp.full((n,), jnp.nan, jnp.float32),
        links=jnp.zeros((n, len(nav.STEPS), nav.ROWS, nav.COLS), bool),
    )


def decide(style: Style, v: sv.View, links=None, memory=None):
    """One observer's (move, target, ult), each () int32, all legal under v's masks, and its
    updated per-slot memory entry (field, goal, stamp) or None.

    links: the observer's frame's scripted_nav.grid_links (8, 10, 20), used when the style
    navigates (None walks straight at the goal); memory: this slot's (field, goal, stamp)
    from the last tick, which warm-starts the walking-distance field."""
    focus = _focus(v, style) & (jnp.asarray(style.w_focus) > 0)
    threat = _threat(v)
    scores = jnp.where(v.cls == P, _heal_scores(v, style), _attack_scores(v, style, focus, threat))
    target, ult = sv.choose_combat(v, scores)
    goal, avoid = _goal(v, style, focus)
    field, kept, land, seen = None, None, None, None
    if links is not None:
        # A style that does not navigate gets a field that knows no route: straight lines.
        links = links & (jnp.asarray(style.navigate) > 0)
        shapes = geometry.shapes(v.obstacles)
        land = sv.landing(v)
        # Every sight line to the goal in one pass over the obstacles (seed nodes, last
        # tick's goal, landing points): one loop, not three.
        old = () if memory is None else (memory[1][None],)
        lines = jnp.concatenate([nav.seed_nodes(goal)[2], *old, land])
        seen = nav.clear(lines, goal, shapes)
        if memory is None:
            field = nav.distance_field(goal, links, shapes, seen=(seen[:16], None))
        else:
            stamp = nav.stamp(v.obstacles)
            warm = (memory[0], memory[1], memory[2] == stamp)
            field = nav.distance_field(goal, links, shapes, warm, (seen[:16], seen[16]))
            kept = (field, goal, stamp)
        seen = seen[-C.NUM_MOVES :]
    home = style.home * (jnp.any(v.enemy) | (v.frac < 0.5))
    move = sv.choose_move(v, goal, avoid, home, field, land, seen)
    return (move, target, ult), kept


def scripted_policy(name: str):
    """The bot `name` as a stateless pure function `(obs, masks) -> Actions` with (10,) int32
    heads (full path finding every call). Raises ValueError listing the bot names."""
    if name not in STYLES:
        raise ValueError(f"scripted bot {name!r} does not exist; choose one of {', '.join(BOTS)}")
    return lambda obs, masks: styled_policy(STYLES[name], obs, masks)[0]


def styled_policy(style: Style, obs: Obs, masks: Masks, memory=None, slots=ALL_SLOTS):
    """Play `style` for the given global `slots` (a static tuple; the others play the no-op).

    style: Python numbers, or arrays (then one compiled function plays any style); memory: a
    Memory for these slots, or None to find paths from scratch. Returns (Actions with (10,)
    int32 heads, the updated Memory or None).
    """
    index = jnp.asarray(slots)
    frames = sorted({s // C.TEAM_SIZE for s in slots})
    frame_tables = obs.obstacles[jnp.asarray(frames) * C.TEAM_SIZE]  # slots 0 and 5 hold them
    navigate = not isinstance(style.navigate, int | float) or style.navigate > 0
    grids = None
    if navigate:
        grids = _walking_grids(frame_tables, memory, slots, frames)
    else:
        memory = None
    of_frame = jnp.asarray([frames.index(s // C.TEAM_SIZE) for s in slots])
    # A team's slots share one obstacle table and one walking grid (the team frame): passed
    # once, not per slot, what is derived from them is made once a team.
    shared = len(frames) == 1
    tables = frame_tables[0] if shared else frame_tables[of_frame]
    links = None if grids is None else grids[0] if shared else grids[of_frame]

    def one(units, visible, relayed, context, obstacles, self_index, move, pair, links, mem):
        view = sv.read_view(units, visible, relayed, context, obstacles, self_index, move, pair)
        return decide(style, view, links, mem)

    pick = lambda x: x[index]  # noqa: E731
    each = None if shared else 0
    (move, target, ult), kept = jax.vmap(one, (0, 0, 0, 0, each, 0, 0, 0, each, 0))(
        pick(obs.units), pick(obs.visible), pick(obs.relayed), pick(obs.context), tables,
        pick(obs.self_index), pick(masks.move), pick(masks.pair), links,
        None if memory is None else tuple(memory[:3]),
    )  # fmt: skip
    zeros = jnp.zeros(C.NUM_SLOTS, jnp.int32)
    actions = Actions(*(zeros.at[index].set(h) for h in (move, target, ult)))
    return actions, None if kept is None else Memory(*kept, links=grids[of_frame])


def _walking_grids(tables: jax.Array, memory, slots: tuple, frames: list) -> jax.Array:
    """The walking grid (len(frames), 8, 10, 20) bool of each team frame in use, from its
    obstacle table (len(frames), 32, 8): built from scratch, or with a Memory taken from it and
    rebuilt only when the table's stamp changed since the tick before."""
    if memory is None:
        return jax.vmap(nav.grid_links)(tables)
    first = jnp.asarray(
        [slots.index(next(s for s in slots if s // C.TEAM_SIZE == f)) for f in frames]
    )
    stamps = jax.vmap(nav.stamp)(tables)
    return nav.refresh_links(memory.links[first], memory.stamp[first], tables, stamps)


@functools.cache
def scripted_system(name: str, slots: tuple[int, ...] = ALL_SLOTS) -> System:
    """The bot `name` as a JAX System named "scripted:NAME" for the given global slots. Its
    carry is the path-finding Memory of those slots; the key is unused. One cached object per
    (name, slots), so equal lineups share compiled matches. Raises ValueError for a bad name."""
    if name not in STYLES:
        raise ValueError(f"scripted bot {name!r} does not exist; choose one of {', '.join(BOTS)}")
    style, slots = STYLES[name], tuple(sorted(slots))

    def act(obs: Obs, masks: Masks, carry, key):
        del key
        return styled_policy(style, obs, masks, carry, slots)

    return as_system(act, initial_carry=lambda: fresh_memory(len(slots)), name=f"scripted:{name}")
