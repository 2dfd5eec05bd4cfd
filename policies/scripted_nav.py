"""Path finding for the scripted bots: walking distances on a 1-unit grid round the obstacles.

Grid nodes sit at the centres of the 20 x 10 unit cells. A node is free when a body (radius
0.45, a little under the real 0.5 so that narrow gates keep a node) fits there; neighbours
are joined orthogonally when both are free and diagonally when the two orthogonal nodes
between them are free too (no cutting corners). This depends only on the obstacle table of a
team's frame, which is static for a whole game, so a bot's Memory keeps it and `refresh_links`
rebuilds it only when the table changes (a new map). `distance_field` then spreads walking
distances out from a goal (a fixed number of relaxation sweeps, jittable), and `walking_distance`
reads it at any point, so a bot picks the move whose landing point is nearest by foot.
"""

import functools

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
SWEEPS = 8  # relaxation sweeps from scratch: routes with up to ~8 turns are found
WARM_SWEEPS = 2  # sweeps a tick when the last tick's field is reused
INF = 1000.0  # "no route known"; every real route is far shorter
BIG = 2048.0  # > INF + the grid width: separates runs in _line_min


def _shift(grid: jax.Array, drow: int, dcol: int, fill) -> jax.Array:
    """out[r, c] = grid[r + drow, c + dcol], `fill` outside the grid; grid (10, 20, ...)."""
    pad = ((1, 1), (1, 1)) + ((0, 0),) * (grid.ndim - 2)  # trailing axes: a batch, unpadded
    padded = jnp.pad(grid, pad, constant_values=fill)
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


@jax.custom_batching.custom_vmap
def refresh_links(links, stamps, obstacles, new_stamps):
    """The walking grids of obstacle tables, rebuilt only where the table changed.

    links (..., 8, 10, 20) bool: grids kept from the last tick, made for tables whose
    `stamp` was stamps (...,) float32; obstacles (..., 32, 8): this tick's tables, new_stamps
    (...,) their stamps. Returns (..., 8, 10, 20) bool, equal to `grid_links` of every table.

    Why a custom batching rule: under `vmap` a `lax.cond` on a batched predicate becomes a
    select that runs both branches, so the grid would be rebuilt every tick. The rule instead
    folds each vmapped axis into the leading axes, so one real `cond` over the whole batch
    rebuilds the grids (of every table, keeping the unchanged ones) only on a tick where some
    table changed; the obstacles stay put for a whole game.
    """
    changed = stamps != new_stamps

    def rebuild():
        fresh = jax.vmap(grid_links)(obstacles.reshape((-1, *obstacles.shape[-2:])))
        fresh = fresh.reshape(links.shape)
        return jnp.where(changed[..., None, None, None], fresh, links)

    return jax.lax.cond(jnp.any(changed), rebuild, lambda: links)


def _all_batched(axis_size: int, in_batched, args) -> list:
    """custom_vmap's arguments with every one batched: it puts each batched axis first, and an
    unbatched argument is broadcast to that axis (`jax.custom_batching.custom_vmap`)."""
    return [
        a if b else jnp.broadcast_to(a, (axis_size, *a.shape))
        for a, b in zip(args, in_batched, strict=True)
    ]


@refresh_links.def_vmap
def _refresh_links_batched(axis_size, in_batched, *args):
    return refresh_links(*_all_batched(axis_size, in_batched, args)), True


def _block(point: jax.Array, size: int) -> tuple[jax.Array, jax.Array]:
    """Row and column indices (size * size,) of the nodes round a point (2,), clipped."""
    base = jnp.floor(point - 0.5).astype(jnp.int32) - (size // 2 - 1)
    offsets = jnp.arange(size)
    cols = jnp.clip(base[0] + offsets, 0, COLS - 1)
    rows = jnp.clip(base[1] + offsets, 0, ROWS - 1)
    return jnp.repeat(rows, size), jnp.tile(cols, size)


def seed_nodes(goal: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """The 4 x 4 nodes round a goal (2,) that seed its distance field: their rows and columns
    (16,) int32 and centres (16, 2) float32 map units."""
    rows, cols = _block(goal, 4)
    return rows, cols, jnp.stack([cols + 0.5, rows + 0.5], -1).astype(jnp.float32)


def clear(points: jax.Array, goal: jax.Array, shapes) -> jax.Array:
    """Line of sight from each point (K, 2) to the goal (2,): (K,) bool (RULES 1.4)."""
    return ~geometry.segments_blocked(points, jnp.broadcast_to(goal, points.shape), shapes)


# The four whole-line passes of a sweep, in order: (the STEPS entry of the link walked, the axis
# of the line (1 along a row, 0 along a column), whether the pass runs towards lower indices).
LINE_PASSES = (((0, -1), 1, False), ((0, 1), 1, True), ((-1, 0), 0, False), ((1, 0), 0, True))


def _along(values: jax.Array, axis: int, reverse: bool, combine) -> jax.Array:
    """Running `combine` (jnp.minimum, jnp.add) of a (10, 20) grid along `axis`, from its far
    end when `reverse`, written out line by line.

    Why: XLA:CPU runs `lax.cummin` and `cumsum` as reduce-windows, which cost more than these
    few fused operations (the whole distance field took 0.78x the time); a minimum rounds
    nothing and the running sums here add integers, so the results are the same bit for bit.
    """
    n = values.shape[axis]
    order = range(n - 1, -1, -1) if reverse else range(n)
    lines = []
    for i in order:
        line = jax.lax.index_in_dim(values, i, axis, keepdims=False)
        lines.append(line if not lines else combine(lines[-1], line))
    return jnp.stack(lines[::-1] if reverse else lines, axis=axis)


def _line_offsets(links: jax.Array) -> tuple:
    """What each whole-line pass adds to the field before and after its running minimum, from
    the walking grid alone (so once a field, not once a sweep): per pass, the node's position
    along its line counted in the pass's direction (10, 20) and BIG times the number of closed
    links passed so far (10, 20), both float32 and exact."""
    offsets = []
    for step, axis, reverse in LINE_PASSES:
        linked = links[STEPS.index(step)]  # the link from the previous node on the line
        n = linked.shape[axis]
        position = (
            np.arange(n, dtype=np.float32)[::-1] if reverse else np.arange(n, dtype=np.float32)
        )
        shape = [1] * linked.ndim
        shape[axis] = n
        position = jnp.asarray(position.reshape(shape))
        closed = _along((~linked).astype(jnp.int32), axis, reverse, jnp.add)
        offsets.append((jnp.broadcast_to(position, linked.shape), BIG * closed.astype(jnp.float32)))
    return tuple(offsets)


def _line_min(field: jax.Array, offsets: tuple, axis: int, reverse: bool) -> jax.Array:
    """One pass along every row (axis 1) or column (axis 0), in the pass's direction:
    field[i] = min(field[i], field[i'] + |i - i'|) over the earlier i' joined to i by a run of
    open links. A segmented running minimum: each run of linked nodes is lifted by a multiple
    of BIG (offsets, from `_line_offsets`) so that the minimum never reaches back into an
    earlier run."""
    position, lift = offsets
    lifted = field - position - lift
    best = _along(lifted, axis, reverse, jnp.minimum) + lift + position
    return jnp.minimum(field, jnp.minimum(best, INF))


def _sweep(field: jax.Array, links: jax.Array, offsets: tuple) -> jax.Array:
    """Whole-line passes in the four straight directions, then one diagonal step each way."""
    for (_, axis, reverse), offset in zip(LINE_PASSES, offsets, strict=True):
        field = _line_min(field, offset, axis, reverse)
    for k, (drow, dcol) in enumerate(STEPS):
        if drow and dcol:
            through = jnp.where(links[k], _shift(field, drow, dcol, INF) + LENGTHS[k], INF)
            field = jnp.minimum(field, through)
    return field


def stamp(obstacles: jax.Array) -> jax.Array:
    """A number that changes when the obstacle table (32, 8) does (a new map): () float32."""
    weights = jnp.arange(1, obstacles.size + 1, dtype=jnp.float32).reshape(obstacles.shape)
    return jnp.sum(obstacles * jnp.sqrt(weights))


def distance_field(goal: jax.Array, links: jax.Array, shapes, warm=None, seen=None) -> jax.Array:
    """Walking distance from every node to `goal` (2,): (10, 20) float32, INF where unknown.

    The 4 x 4 nodes round the goal that see it start with their straight-line distance;
    shapes: geometry.shapes of the frame's obstacle table (for those sight lines). Each sweep
    runs whole rows and columns, so a route needs about one sweep per turn: SWEEPS of them from
    scratch. warm: (last field, its goal, still valid) from the previous tick: when the goal
    moved in a straight clear line by d, last field + d bounds every distance from above, so
    WARM_SWEEPS refine it (the goal of a bot moves a little each tick). seen: the sight
    lines to the goal, `clear`, of `seed_nodes(goal)` (16,) bool and with warm of its goal
    () bool, when the caller tests them with its other lines in one pass; else tested here.
    """
    free = jnp.any(links, axis=0)
    rows, cols, nodes = seed_nodes(goal)
    if seen is None:
        old = () if warm is None else (warm[1][None],)
        seen = clear(jnp.concatenate([nodes, *old]), goal, shapes)
        seen = (seen[:16], None if warm is None else seen[16])
    straight = jnp.sqrt(jnp.sum((nodes - goal) ** 2, axis=1))
    start = jnp.where(free[rows, cols] & seen[0], straight, INF)
    seed = jnp.full((ROWS, COLS), INF).at[rows, cols].min(start)
    sweeps = SWEEPS
    if warm is not None:
        old, old_goal, valid = warm
        moved = jnp.sqrt(jnp.sum((goal - old_goal) ** 2))
        usable = valid & seen[1]
        seed = jnp.minimum(seed, jnp.where(usable & (old < INF), old + moved, INF))
        seed = jnp.where(jnp.any(links, axis=0), seed, INF)
        sweeps = WARM_SWEEPS
    return _relaxer(sweeps)(seed, links)


@functools.cache
def _relaxer(sweeps: int):
    """`sweeps` sweeps of seed fields (..., 10, 20) float32 over their walking grids
    (..., 8, 10, 20) bool: (..., 10, 20) float32. The leading axes need only broadcast (a
    team's one grid serves all its slots' fields).

    Why a custom batching rule: vmapped, the fields would lie batch-major, (n, 10, 20), and a
    pass along the rows would read every line with a stride of 20. The rule moves every
    vmapped axis behind the grid, the outermost last, (10, 20, ..., n), so each step of a pass
    runs contiguously over the batch. An argument not vmapped at a level gets a unit axis there
    rather than a copy, so a grid shared by a team's slots is laid out, and its closed-link
    counts made, once for the team. Only minima and additions of the same values in the same
    order run, so the fields are the same bit for bit.
    """

    @jax.custom_batching.custom_vmap
    def relax(seed, links):
        lead = jnp.broadcast_shapes(seed.shape[:-2], links.shape[:-3])
        k = len(lead)
        seed = jnp.broadcast_to(seed, (*lead, ROWS, COLS))
        links = jnp.reshape(links, (1,) * (k + 3 - links.ndim) + links.shape)
        behind = tuple(range(k - 1, -1, -1))  # the vmapped axes, outermost last
        field = jnp.transpose(seed, (k, k + 1, *behind))
        links = jnp.transpose(links, (k, k + 1, k + 2, *behind))
        offsets = _line_offsets(links)
        field = jax.lax.fori_loop(0, sweeps, lambda _, f: _sweep(f, links, offsets), field)
        return jnp.transpose(field, _back(k))

    @relax.def_vmap
    def _batched(axis_size, in_batched, seed, links):
        seed = seed if in_batched[0] else jnp.broadcast_to(seed, (axis_size, *seed.shape))
        links = links if in_batched[1] else links[None]
        return relax(seed, links), True

    return relax


def _back(k: int) -> tuple:
    """The permutation taking a (10, 20, lead reversed) field back to (lead, 10, 20)."""
    return (*range(k + 1, 1, -1), 0, 1)


def walking_distance(
    points: jax.Array, goal: jax.Array, field: jax.Array, shapes, seen=None
) -> jax.Array:
    """Distance on foot from points (K, 2) to the goal: through the best of the 4 nodes round
    each point; the straight line when the goal is near and in sight, or when the field knows
    no route at all. (K,). seen: `clear(points, goal, shapes)` (K,) bool when the caller has
    tested those lines already; else tested here."""
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
    unknown = jnp.all(best >= INF - 1.0)  # no route from any candidate: walk straight
    seen = clear(points, goal, shapes) if seen is None else seen
    near = (straight <= SEED_RADIUS) & seen
    return jnp.where(near | unknown, jnp.minimum(straight, best), best)
