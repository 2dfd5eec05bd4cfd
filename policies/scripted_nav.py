"""Path finding for the scripted bots: walking distances on a 1-unit grid round the obstacles.

Grid nodes sit at the centres of the 20 x 10 unit cells. A node is free when a body (radius
0.45, a little under the real 0.5 so that narrow gates keep a node) fits there; neighbours
are joined orthogonally when both are free and diagonally when the two orthogonal nodes
between them are free too (no cutting corners). This depends only on the obstacle table of a
team's frame, so `grid_links` runs once per team a tick. `distance_field` then spreads walking
distances out from a goal (a fixed number of relaxation sweeps, jittable), and `walking_distance`
reads it at any point, so a bot picks the move whose landing point is nearest by foot.
"""

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine import geometry

COLS, ROWS = int(C.MAP_WIDTH), int(C.MAP_HEIGHT)
_C, _R = np.meshgrid(np.arange(COLS), np.arange(ROWS))
NODES = jnp.asarray(np.stack([_C + 0.5, _R + 0.5], -1).reshape(-1, 2), jnp.float32)  # (200, 2)
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))  # (drow, dcol)
LENGTHS = jnp.asarray([np.hypot(*s) for s in STEPS], jnp.float32)
NODE_RADIUS = 0.45
SEED_RADIUS = 1.5  # a point this close to the goal, in sight of it, walks straight
SWEEPS = 36  # relaxation sweeps: routes up to ~36 grid steps are found
INF = jnp.float32(1e6)


def _shift(grid: jax.Array, drow: int, dcol: int, fill) -> jax.Array:
    """out[r, c] = grid[r + drow, c + dcol], `fill` outside the grid."""
    padded = jnp.pad(grid, 1, constant_values=fill)
    return padded[1 + drow : 1 + drow + ROWS, 1 + dcol : 1 + dcol + COLS]


def grid_links(obstacles: jax.Array) -> jax.Array:
    """Walkable links of every node in the 8 STEPS directions: (8, 10, 20) bool, for one
    frame's obstacle table (32, 8)."""
    radius = jnp.full((ROWS * COLS,), NODE_RADIUS)
    free = ~geometry.any_overlap(NODES, obstacles, radius).reshape(ROWS, COLS)
    links = []
    for drow, dcol in STEPS:
        ok = free & _shift(free, drow, dcol, False)
        if drow and dcol:
            ok &= _shift(free, drow, 0, False) & _shift(free, 0, dcol, False)
        links.append(ok)
    return jnp.stack(links)


def _block(point: jax.Array, size: int) -> tuple[jax.Array, jax.Array]:
    """Row and column indices (size * size,) of the nodes round a point (2,), clipped."""
    base = jnp.floor(point - 0.5).astype(jnp.int32) - (size // 2 - 1)
    offsets = jnp.arange(size)
    cols = jnp.clip(base[0] + offsets, 0, COLS - 1)
    rows = jnp.clip(base[1] + offsets, 0, ROWS - 1)
    return jnp.repeat(rows, size), jnp.tile(cols, size)


def clear(points: jax.Array, goal: jax.Array, shapes) -> jax.Array:
    """Line of sight from each point (K, 2) to the goal (2,): (K,) bool (RULES 1.4)."""
    return ~geometry.segments_blocked(points, jnp.broadcast_to(goal, points.shape), shapes)


def distance_field(goal: jax.Array, links: jax.Array, shapes) -> jax.Array:
    """Walking distance from every node to `goal` (2,): (10, 20) float32, INF where unknown.

    The 4 x 4 nodes round the goal that see it start with their straight-line distance;
    shapes: geometry.shapes of the frame's obstacle table (for those sight lines).
    """
    free = jnp.any(links, axis=0)
    rows, cols = _block(goal, 4)
    nodes = jnp.stack([cols + 0.5, rows + 0.5], -1).astype(jnp.float32)
    straight = jnp.sqrt(jnp.sum((nodes - goal) ** 2, axis=1))
    start = jnp.where(free[rows, cols] & clear(nodes, goal, shapes), straight, INF)
    seed = jnp.full((ROWS, COLS), INF).at[rows, cols].min(start)

    def sweep(_, field):
        for k, (drow, dcol) in enumerate(STEPS):
            through = jnp.where(links[k], _shift(field, drow, dcol, INF) + LENGTHS[k], INF)
            field = jnp.minimum(field, through)
        return field

    return jax.lax.fori_loop(0, SWEEPS, sweep, seed)


def walking_distance(points: jax.Array, goal: jax.Array, field: jax.Array, shapes) -> jax.Array:
    """Distance on foot from points (K, 2) to the goal: through the best of the 4 nodes round
    each point; the straight line when the goal is near and in sight, or when the field knows
    no route at all. (K,)."""
    base = jnp.floor(points - 0.5).astype(jnp.int32)
    best = jnp.full(points.shape[:1], INF)
    for dc in (0, 1):
        for dr in (0, 1):
            col = jnp.clip(base[:, 0] + dc, 0, COLS - 1)
            row = jnp.clip(base[:, 1] + dr, 0, ROWS - 1)
            node = jnp.stack([col + 0.5, row + 0.5], -1)
            leg = jnp.sqrt(jnp.sum((points - node) ** 2, axis=1))
            best = jnp.minimum(best, field[row, col] + leg)
    straight = jnp.sqrt(jnp.sum((points - goal) ** 2, axis=1))
    unknown = jnp.all(best >= INF)  # no route from any candidate: walk straight
    near = (straight <= SEED_RADIUS) & clear(points, goal, shapes)
    return jnp.where(near | unknown, jnp.minimum(straight, best), best)
