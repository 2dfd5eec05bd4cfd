"""What a scripted bot reads from one observer's observation, and how it turns a goal into a move.

Everything here works on ONE observer (no leading slot axis) and is vmapped over the ten slots by
`policies.scripted`. Positions are in the observer's team frame (RULES A7): the own back edge is
x = 0, so the own Red Zone is x <= RED_ZONE_DEPTH on canonical maps (RULES 1.6; a map that moves
its Red Zone is not visible in the observation, so the bots assume the canonical strip).
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp

from engine import constants as C
from engine import geometry
from engine.types import CONTEXT, ROW
from policies import scripted_nav as nav

TEAM = C.TEAM_SIZE
MOVE_VECTORS = jnp.asarray(C.MOVE_VECTORS)
CLASS_COLS = slice(ROW["class_mage"], ROW["class_priest"] + 1)
STUN_COLS = slice(ROW["status_charge_stun"], ROW["status_poison_stun"] + 1)
BASIC_DAMAGE = jnp.asarray(C.BASIC_DAMAGE)
ULT_DAMAGE = jnp.asarray(C.ULT_DAMAGE)
MAP_SIZE = jnp.array([C.MAP_WIDTH, C.MAP_HEIGHT])
LANDING_SUBSTEPS = 2
HOME_EDGE = C.RED_ZONE_DEPTH  # x of the own Red Zone's inner edge, team frame


class View(NamedTuple):
    """One observer's reading of its rows (row r = target category r + 1, RULES 3.3)."""

    me: jax.Array  # (2,) own position, map units
    cls: jax.Array  # () own class id
    frac: jax.Array  # () own health fraction
    speed: jax.Array  # () own speed this tick, map units per tick
    burst: jax.Array  # () bool own Burst active
    aura_out: jax.Array  # () own outgoing damage multiplier
    pos: jax.Array  # (10, 2) row positions
    dist: jax.Array  # (10,) distance from me
    ally: jax.Array  # (10,) bool known, alive teammate (self included)
    enemy: jax.Array  # (10,) bool known, alive enemy
    is_self: jax.Array  # (10,) bool
    row_cls: jax.Array  # (10,) class id of each row (0 unknown)
    hp: jax.Array  # (10,) hit points
    row_frac: jax.Array  # (10,) health fraction
    aura_in: jax.Array  # (10,) incoming damage multiplier of each row
    in_red: jax.Array  # (10,) bool row stands in its own team's Red Zone
    fighting: jax.Array  # (10,) bool row is in combat (out-of-combat countdown > 0)
    stunned: jax.Array  # (10,) bool
    advantage: jax.Array  # () own agents alive minus enemy agents alive (public, RULES 5.6)
    obstacles: jax.Array  # (32, 8) obstacle table, team frame
    move_mask: jax.Array  # (9,) bool
    pair_mask: jax.Array  # (11, 2) bool


def read_view(units, visible, relayed, context, obstacles, self_index, move_mask, pair_mask):
    """Build a View from one observer's arrays: units (10, ROW_DIM), visible/relayed (10,) bool,
    context (CONTEXT_DIM,), obstacles (32, 8), self_index () int32, move_mask (9,),
    pair_mask (11, 2)."""
    rows = jnp.arange(2 * TEAM)
    known = (visible | relayed) & (units[:, ROW["alive"]] > 0.5)
    me_row = units[self_index]
    pos = units[:, ROW["x"] : ROW["y"] + 1]
    me = me_row[ROW["x"] : ROW["y"] + 1]
    hot = units[:, CLASS_COLS]
    row_cls = jnp.where(jnp.any(hot > 0.5, axis=1), jnp.argmax(hot, axis=1) + 1, 0)
    return View(
        me=me,
        cls=row_cls[self_index],
        frac=me_row[ROW["health_frac"]],
        speed=me_row[ROW["speed"]],
        burst=me_row[ROW["status_burst"]] > 0,
        aura_out=jnp.maximum(me_row[ROW["aura_out"]], 1.0),
        pos=pos,
        dist=jnp.sqrt(jnp.sum((pos - me) ** 2, axis=1)),
        ally=known & (rows < TEAM),
        enemy=known & (rows >= TEAM),
        is_self=rows == self_index,
        row_cls=row_cls,
        hp=units[:, ROW["health"]],
        row_frac=units[:, ROW["health_frac"]],
        aura_in=jnp.where(known, units[:, ROW["aura_in"]], 1.0),
        in_red=units[:, ROW["in_red_zone"]] > 0.5,
        fighting=units[:, ROW["ooc"]] > 0,
        stunned=jnp.any(units[:, STUN_COLS] > 0, axis=1),
        advantage=context[CONTEXT["own_alive"]] - context[CONTEXT["opp_alive"]],
        obstacles=obstacles,
        move_mask=move_mask,
        pair_mask=pair_mask,
    )


def damage_to(v: View, table: jax.Array) -> jax.Array:
    """Hit points my Basic (table=BASIC_DAMAGE) or Ultimate would remove from each row: (10,).
    Mage aura, Burst and the recipient's Warrior aura included (RULES 4, step 4)."""
    burst = jnp.where(v.burst, C.BURST_FACTOR, 1.0)
    return table[v.cls] * burst * v.aura_out * v.aura_in


def centroid(v: View, who: jax.Array, fallback: jax.Array) -> jax.Array:
    """Mean position of the rows in `who` (10,) bool, or `fallback` (2,) when there are none."""
    n = jnp.sum(who)
    mean = jnp.sum(jnp.where(who[:, None], v.pos, 0.0), axis=0) / jnp.maximum(n, 1)
    return jnp.where(n > 0, mean, fallback)


def nearest(v: View, who: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Row index and distance of the nearest row in `who`; distance inf when there is none."""
    d = jnp.where(who, v.dist, jnp.inf)
    return jnp.argmin(d), jnp.min(d)


def at_range(v: View, target: jax.Array, keep: jax.Array) -> jax.Array:
    """The point `keep` map units from `target` (2,) on the line towards me (kiting spot)."""
    away = v.me - target
    norm = jnp.sqrt(jnp.sum(away**2))
    unit = jnp.where(norm > 1e-6, away / jnp.maximum(norm, 1e-6), jnp.array([-1.0, 0.0]))
    return target + keep * unit


def landing(v: View) -> jax.Array:
    """Where each of the 9 moves would leave me, ignoring other bodies: (9, 2) map units.

    Like the engine (RULES 4, step 10) the step is cut into sub-steps, each projected out of
    the obstacles, so a step into a wall slides along it instead of tunnelling through; two
    half steps are enough for a bot's estimate (walls are thicker than half a step).
    """
    step = jnp.maximum(v.speed, 0.0) * MOVE_VECTORS / LANDING_SUBSTEPS
    radius = jnp.full((C.NUM_MOVES,), C.BODY_RADIUS)
    cand = jnp.broadcast_to(v.me, (C.NUM_MOVES, 2))
    # Only the obstacles near each landing point, as the engine's movement tests them.
    index = materialised(geometry.obstacle_index(v.obstacles))  # see `materialised`
    for _ in range(LANDING_SUBSTEPS):
        cand = geometry.clip_to_bounds(cand + step, radius)
        cand = geometry.project_near(cand, index, radius)
    return geometry.clip_to_bounds(cand, radius)


def materialised(tree):
    """The arrays of `tree` unchanged, bit for bit, but made in a computation of their own.

    Why: on XLA:CPU `jax.lax.optimization_barrier` only blocks CSE (it is expanded before
    fusion, pass cse_barrier_expander), so the reach boxes of `geometry.obstacle_index`, whose
    trigonometry reads one (32,) table a game, were fused into `near_bits` and recomputed for
    every slot, move and obstacle ((5, 9, 32) a game, a sixth of a tactician's decision).
    Fusion does not cross a conditional, so the values pass through a `lax.cond` whose
    predicate is always true but not known to the compiler.
    """
    leaves, treedef = jax.tree.flatten(tree)
    return jax.tree.unflatten(treedef, _through_cond(*leaves))


@jax.custom_batching.custom_vmap
def _through_cond(*leaves):
    nan = jnp.any(jnp.isnan(leaves[0]))
    return jax.lax.cond(nan | ~nan, list, lambda t: [jnp.zeros_like(x) for x in t], leaves)


@_through_cond.def_vmap
def _through_cond_batched(axis_size, in_batched, *leaves):
    """One cond for the whole batch: vmapped, a cond on a batched predicate would become a
    select, which fusion crosses."""
    leaves = [
        x if batched else jnp.broadcast_to(x, (axis_size, *x.shape))
        for x, batched in zip(leaves, in_batched, strict=True)
    ]
    return _through_cond(*leaves), [True] * len(leaves)


def choose_move(v: View, goal, avoid, home_penalty, field=None, land=None, seen=None) -> jax.Array:
    """The legal move that brings me closest to `goal` (2,), minus penalties: () int32.

    avoid (10,): per-row radius to keep from that row (0 = none), each map unit of intrusion
    costs 3; only the enemy rows (5-9) are read. home_penalty: cost of ending in the own Red
    Zone; field: a walking-distance field to the goal (scripted_nav.distance_field), else
    distances are straight lines. land: `landing(v)` (9, 2) and seen: the landing points'
    sight lines to the goal (9,) bool, when the caller has them (else made here). Ties go to
    the lowest move id.
    """
    land = landing(v) if land is None else land
    if field is None:
        score = -jnp.sqrt(jnp.sum((land - goal) ** 2, axis=1))
    else:
        score = -nav.walking_distance(land, goal, field, geometry.shapes(v.obstacles), seen)
    # The bots keep away from enemies only: the ally rows' terms are all zero, and the sum of
    # the enemy rows' alone is the same bit for bit (XLA:CPU's reduction), at half the cost.
    enemies = v.pos[TEAM:]
    gap = jnp.sqrt(jnp.sum((land[:, None, :] - enemies[None, :, :]) ** 2, axis=-1))  # (9, 5)
    score -= 3.0 * jnp.sum(jnp.maximum(avoid[None, TEAM:] - gap, 0.0), axis=1)
    score -= home_penalty * (land[:, 0] < HOME_EDGE + C.BODY_RADIUS)
    score = jnp.where(v.move_mask, score, -jnp.inf)
    return jnp.argmax(score).astype(jnp.int32)


def choose_combat(v: View, scores: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Best legal (target, ult) pair from scores (11, 2); the no-op (0, 0) scores 0 and wins
    when nothing else is legal. Returns (target, ult) int32 scalars."""
    scores = scores.at[0, 0].set(0.0)
    scores = jnp.where(v.pair_mask, scores, -jnp.inf)
    flat = jnp.argmax(scores.reshape(-1))
    legal = jnp.any(v.pair_mask)
    flat = jnp.where(legal, flat, 0)
    return (flat // C.NUM_ULT).astype(jnp.int32), (flat % C.NUM_ULT).astype(jnp.int32)
