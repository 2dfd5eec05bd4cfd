"""Line of sight, obstacle overlap and projection, bounds (RULES 1.3, 1.4).

Obstacles are rows of the (32, 8) table: [type, x, y, radius, width, height, theta, active].
Pillars are discs; walls are rectangles of `width` x `height` rotated by `theta` (radians,
counter-clockwise) about their centre. Contacts are written as broadcasting over discs x
obstacles and line of sight as one test per obstacle slot, so XLA fuses each into one
vectorised loop. Movement tests each body only against the obstacles whose reach box holds its
centre (`ObstacleIndex`, derived each tick from the table): the same result, bit for bit, as
testing all 32.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C


class Shapes(NamedTuple):
    """The obstacle table split into columns, each (32,), ready for the tests below.

    For contacts every obstacle is a rectangle with rounded corners: a pillar is a rectangle of
    size zero rounded by its radius (no rotation), a wall a rectangle rounded by nothing, so one
    formula serves both kinds.
    """

    x: jnp.ndarray
    y: jnp.ndarray
    radius: jnp.ndarray  # the pillar's radius, 0 for walls
    half_w: jnp.ndarray  # 0 for pillars
    half_h: jnp.ndarray  # 0 for pillars
    cos: jnp.ndarray  # 1 for pillars
    sin: jnp.ndarray  # 0 for pillars
    overlap_margin: jnp.ndarray  # overlap when the gap to the rectangle < body radius + this
    pillar: jnp.ndarray  # bool, active pillar
    wall: jnp.ndarray  # bool, active wall


def small_sum(x: jnp.ndarray, axis: int) -> jnp.ndarray:
    """Sum over a short static axis as a chain of adds, left to right: x (..., k, ...) -> (...).

    Why: XLA:CPU hands every float reduction to a YNNPACK call, which for a few terms costs more
    than the adds; written out, they fuse into the surrounding loop (with the line-of-sight scan
    below, 16.5k -> 27.7k env-steps/s on one core at 1024 games). The order of the adds can change
    the last bit of a sum of three or more non-zero terms, so each use (movement, distances, the
    combat totals) is held to the golden traces and the recorded replays, which re-simulate
    unchanged.
    """
    parts = [jax.lax.index_in_dim(x, i, axis, keepdims=False) for i in range(x.shape[axis])]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def shapes(obstacles: jnp.ndarray) -> Shapes:
    """Prepare a (32, 8) obstacle table for the tests below."""
    active = obstacles[:, C.OBS_ACTIVE] > 0
    kind = obstacles[:, C.OBS_TYPE]
    pillar = active & (kind == C.OBSTACLE_PILLAR)
    wall = active & (kind == C.OBSTACLE_WALL)
    theta = jnp.where(wall, obstacles[:, C.OBS_THETA], 0.0)
    radius = jnp.where(pillar, obstacles[:, C.OBS_RADIUS], 0.0)
    return Shapes(
        x=obstacles[:, C.OBS_X],
        y=obstacles[:, C.OBS_Y],
        radius=radius,
        half_w=jnp.where(wall, obstacles[:, C.OBS_WIDTH] * 0.5, 0.0),
        half_h=jnp.where(wall, obstacles[:, C.OBS_HEIGHT] * 0.5, 0.0),
        cos=jnp.cos(theta),
        sin=jnp.sin(theta),
        overlap_margin=jnp.where(pillar, radius, -C.OVERLAP_EPS),
        pillar=pillar,
        wall=wall,
    )


def _to_local(s: Shapes, x, y):
    """World point(s) (..., 1) -> wall-local coordinates (..., 32)."""
    dx, dy = x - s.x, y - s.y
    return dx * s.cos + dy * s.sin, -dx * s.sin + dy * s.cos


def segments_blocked(p: jnp.ndarray, q: jnp.ndarray, s: Shapes) -> jnp.ndarray:
    """Is each segment p -> q ((n, 2) each, map units) blocked by some obstacle? (n,) bool.

    A pillar blocks when the segment passes within radius + 1e-5 of its centre (grazing
    blocks); a wall blocks when the segment touches the closed rectangle (RULES 1.4). Both
    tests are division-free: the pillar compares squared distances, the wall uses the three
    separating axes of a segment and a box (the box's two axes and the segment's normal).

    The obstacles are visited one by one (a `lax.scan` over the slots, unrolled by 4) rather
    than broadcast and reduced: XLA then emits loops over the segments, vectorised along them,
    where a reduction over the last axis ran as scalar code (measured 2x slower on a CPU); the
    scan keeps the compiled program small (a full Python unroll added 6 s to the first compile).
    """
    px, py, qx, qy = p[:, 0], p[:, 1], q[:, 0], q[:, 1]

    def add_obstacle(blocked, one: Shapes):
        return blocked | _blocked_by(px, py, qx, qy, one), None

    columns = jax.tree_util.tree_map(lambda column: jnp.moveaxis(column, -1, 0), s)
    return jax.lax.scan(add_obstacle, jnp.zeros(px.shape, bool), columns, unroll=4)[0]


def _blocked_by(px, py, qx, qy, s: Shapes) -> jnp.ndarray:
    """Does each segment (px, py) -> (qx, qy) touch the one obstacle `s` (scalar columns)?"""
    sx, sy = qx - px, qy - py
    cx, cy = s.x - px, s.y - py
    along = cx * sx + cy * sy
    length2 = sx * sx + sy * sy
    cross = cx * sy - cy * sx
    end_x, end_y = cx - sx, cy - sy
    reach2 = (s.radius + C.LOS_EPS) ** 2
    near_start = cx * cx + cy * cy <= reach2
    near_end = end_x * end_x + end_y * end_y <= reach2
    near_middle = (along > 0) & (along < length2) & (cross * cross <= reach2 * length2)
    pillar = near_start | near_end | near_middle

    hx, hy = sx * 0.5, sy * 0.5  # segment half-vector, then its midpoint relative to the wall
    mx, my = -cx + hx, -cy + hy
    lmx, lmy = mx * s.cos + my * s.sin, -mx * s.sin + my * s.cos
    lhx, lhy = hx * s.cos + hy * s.sin, -hx * s.sin + hy * s.cos
    apart_x = jnp.abs(lmx) > s.half_w + jnp.abs(lhx)
    apart_y = jnp.abs(lmy) > s.half_h + jnp.abs(lhy)
    apart_n = jnp.abs(lmx * lhy - lmy * lhx) > s.half_w * jnp.abs(lhy) + s.half_h * jnp.abs(lhx)
    wall = ~(apart_x | apart_y | apart_n)
    return (s.pillar & pillar) | (s.wall & wall)


def _pair_tables(n: int):
    """The unordered pairs (i, j), i < j, ordered by j - i, then i: their (pairs,) int32 slots
    i and j, and the (pairs, n * n) 0/1 matrix that spreads a value per pair to [i, j] and
    [j, i]."""
    first = np.concatenate([np.arange(n - d) for d in range(1, n)]).astype(np.int32)
    second = np.concatenate([np.arange(d, n) for d in range(1, n)]).astype(np.int32)
    spread = np.zeros((first.size, n * n), np.float32)
    spread[np.arange(first.size), first * n + second] = 1.0
    spread[np.arange(first.size), second * n + first] = 1.0
    return first, second, spread


PAIR_LOW, PAIR_HIGH, PAIR_SPREAD = _pair_tables(C.NUM_SLOTS)  # (45,), (45,), (45, 100)


def line_of_sight(pos: jnp.ndarray, obstacles: jnp.ndarray) -> jnp.ndarray:
    """Clear line of sight between every pair of centres: (10, 2), (32, 8) -> (10, 10) bool.

    Each of the 45 unordered pairs is tested once, from the lower slot to the higher, so sight
    is symmetric and never depends on who looks; a centre always sees itself. The pairs' ends
    are picked by one gather of constant slots each (XLA:CPU compiled the 9 static slices per
    end as 9 kernels of their own) and spread back to the matrix by a 0/1 product, cheaper on
    a CPU than a scatter.
    """
    n = pos.shape[0]
    low, high = pos[PAIR_LOW], pos[PAIR_HIGH]  # (45, 2) each
    blocked = segments_blocked(low, high, shapes(obstacles)).astype(jnp.float32)
    spread = jnp.dot(blocked, PAIR_SPREAD, precision=jax.lax.Precision.HIGHEST)
    return spread.reshape(n, n) < 0.5


def _contacts(pos: jnp.ndarray, radius: jnp.ndarray, s: Shapes):
    """Overlap (n, m) bool and the tangent position (n, m) x and y of each disc per obstacle.

    pos (n, 2) and radius (n,) meet the `Shapes` columns: (32,) for every obstacle, or (n, 8)
    for the obstacles near each disc (`nearby`).

    One rounded-rectangle formula for both kinds (see `Shapes`), which halves the work of
    testing every slot as both a pillar and a wall. Outside the rectangle (farther than 1e-6) a
    centre is pushed along the contact normal to body radius + rounding from the nearest point:
    radially for a pillar. Inside, it leaves through the nearest face, ties in the order right,
    left, bottom, top, keeping its other local coordinate: a body on a pillar's very centre
    goes +x (RULES 1.3).
    """
    x, y, r = pos[:, 0:1], pos[:, 1:2], radius[:, None]
    lx, ly = _to_local(s, x, y)
    nx, ny = jnp.clip(lx, -s.half_w, s.half_w), jnp.clip(ly, -s.half_h, s.half_h)
    gx, gy = lx - nx, ly - ny
    gap = jnp.sqrt(gx * gx + gy * gy)
    reach = r + s.radius
    inside = ((jnp.abs(lx) <= s.half_w) & (jnp.abs(ly) <= s.half_h)) | (gap <= C.OVERLAP_EPS)
    push = reach / jnp.maximum(gap, 1e-12)
    left, right = lx + s.half_w, s.half_w - lx
    bottom, top = ly + s.half_h, s.half_h - ly
    go_x = jnp.minimum(left, right) <= jnp.minimum(bottom, top)
    exit_x = jnp.where(right <= left, s.half_w + reach, -s.half_w - reach)
    exit_y = jnp.where(bottom <= top, -s.half_h - reach, s.half_h + reach)
    new_lx = jnp.where(inside, jnp.where(go_x, exit_x, lx), nx + gx * push)
    new_ly = jnp.where(inside, jnp.where(go_x, ly, exit_y), ny + gy * push)
    hit = (s.pillar | s.wall) & (inside | (gap < r + s.overlap_margin))
    return hit, s.x + new_lx * s.cos - new_ly * s.sin, s.y + new_lx * s.sin + new_ly * s.cos


def _project(pos: jnp.ndarray, s: Shapes, radius: jnp.ndarray) -> jnp.ndarray:
    hit, tx, ty = _contacts(pos, radius, s)
    push_x = jnp.where(hit, tx - pos[:, 0:1], 0.0)
    push_y = jnp.where(hit, ty - pos[:, 1:2], 0.0)
    # Without the barrier XLA fuses the whole contact computation into each of the two sums
    # and so runs it twice (measured 2.4x slower on a CPU).
    push_x, push_y = jax.lax.optimization_barrier((push_x, push_y))
    # A disc that overlaps nothing gets + 0.0, which leaves it unchanged bit for bit.
    return pos + jnp.stack([small_sum(push_x, 1), small_sum(push_y, 1)], axis=1)


def project_all(pos: jnp.ndarray, obstacles: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Project discs (n, 2) of radii (n,) out of every obstacle of a (32, 8) table they overlap.

    Each overlapped obstacle contributes its own push from the same starting position and the
    pushes add up, so the result does not depend on obstacle order. A disc wedged between
    obstacles may still overlap afterwards; `any_overlap` finds it. Discs that overlap nothing
    are returned unchanged, bit for bit (RULES 1.3).
    """
    return _project(pos, shapes(obstacles), radius)


def any_overlap(pos: jnp.ndarray, obstacles: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Does each disc (n, 2) of radii (n,) overlap any obstacle of a (32, 8) table? (n,) bool."""
    return jnp.any(_contacts(pos, radius, shapes(obstacles))[0], axis=1)


# --- The same tests, looking only at the obstacles near each body ---------------------------


class ObstacleIndex(NamedTuple):
    """An obstacle table ready for collision tests that look only near each body (RULES 1.3).

    Derived from the (32, 8) table once a tick (`obstacle_index`); nothing of it is stored.
    """

    rows: jnp.ndarray  # (33, 10) float32 the `Shapes` columns of each slot, then an empty row
    # x low, x high, y low, y high of each slot's reach box: four (32,) float32 (apart, not one
    # (4, 32) array: XLA:CPU computed a stacked one twice, in the layouts of two consumers)
    reach: tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray, jnp.ndarray]


def obstacle_index(obstacles: jnp.ndarray) -> ObstacleIndex:
    """Pack a (32, 8) table for `project_near` and `overlap_near`.

    The reach box of an active obstacle is its axis-aligned bounding box (a rotated wall's
    corners, a pillar's disc) grown by C.NEAR_REACH: a body of radius <= BODY_RADIUS whose
    centre is outside it cannot touch the obstacle. Slots that are not active get an empty
    box (low +inf, high -inf), which no centre is inside.
    """
    s = shapes(obstacles)
    columns = [jnp.asarray(c, jnp.float32) for c in s]
    rows = jnp.stack(columns, axis=1)
    empty = jnp.zeros((1, rows.shape[1]), jnp.float32)  # pillar = wall = 0: never hit
    abs_cos, abs_sin = jnp.abs(s.cos), jnp.abs(s.sin)
    grow = s.radius + C.NEAR_REACH
    half_x = s.half_w * abs_cos + s.half_h * abs_sin + grow
    half_y = s.half_w * abs_sin + s.half_h * abs_cos + grow
    used = s.pillar | s.wall
    low_x, low_y = (jnp.where(used, c - h, jnp.inf) for c, h in ((s.x, half_x), (s.y, half_y)))
    high_x, high_y = (jnp.where(used, c + h, -jnp.inf) for c, h in ((s.x, half_x), (s.y, half_y)))
    reach = tuple(c.astype(jnp.float32) for c in (low_x, high_x, low_y, high_y))
    # Materialised once: fused into each test, the trigonometry ran once per body and slot.
    return jax.lax.optimization_barrier(ObstacleIndex(jnp.concatenate([rows, empty]), reach))


SLOT_BITS = (np.uint32(1) << np.arange(C.MAX_OBSTACLES, dtype=np.uint32)).astype(np.uint32)


def near_bits(index: ObstacleIndex, pos: jnp.ndarray) -> jnp.ndarray:
    """The slots whose reach box holds each centre: positions (n, 2) -> (n,) uint32, bit i set
    for slot i. A superset of the obstacles a body of radius <= BODY_RADIUS there touches."""
    x, y = pos[:, 0:1], pos[:, 1:2]
    low_x, high_x, low_y, high_y = index.reach
    inside = (x >= low_x) & (x <= high_x) & (y >= low_y) & (y <= high_y)  # (n, 32)
    bits = jnp.where(inside, jnp.asarray(SLOT_BITS), jnp.uint32(0))
    # Distinct bits, so adding them is or-ing them; integer sums are exact in any order.
    return jnp.sum(bits, axis=1, dtype=jnp.uint32)


def take_slots(bits: jnp.ndarray, count: int) -> tuple[jnp.ndarray, jnp.ndarray]:
    """The `count` lowest set bits of each mask, in ascending order, padded with 32 (the empty
    row): (n,) uint32 -> (slots (n, count) int32, the mask with those bits cleared)."""
    slots = []
    for _ in range(count):
        lowest = bits & (~bits + jnp.uint32(1))  # two's complement: the lowest set bit alone
        slots.append(jax.lax.population_count(lowest - jnp.uint32(1)).astype(jnp.int32))
        bits = bits & ~lowest
    return jnp.stack(slots, axis=1), bits


def _gather(index: ObstacleIndex, slots: jnp.ndarray) -> Shapes:
    picked = index.rows[slots]  # (n, k, 10), one row gather
    fields = [picked[..., k] for k in range(len(Shapes._fields))]
    return Shapes(*fields[:-2], fields[-2] > 0.5, fields[-1] > 0.5)


def _near_pushes(pos, radius, near: Shapes, total_x, total_y):
    """Add the pushes of the obstacles `near` (columns (n, k)) to the running totals (n,) (None:
    start a new chain), one add at a time in slot order: the left-to-right chain `_project`
    adds."""
    hit, tx, ty = _contacts(pos, radius, near)
    push_x = jnp.where(hit, tx - pos[:, 0:1], 0.0)
    push_y = jnp.where(hit, ty - pos[:, 1:2], 0.0)
    if total_x is None:  # a new chain starts with the first push, as `small_sum`'s does
        return _chain_sums(push_x, push_y)
    for j in range(push_x.shape[1]):
        total_x, total_y = total_x + push_x[:, j], total_y + push_y[:, j]
    return total_x, total_y


def _chain_sums(a: jnp.ndarray, b: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """`small_sum(a, 1)` and `small_sum(b, 1)` of two (n, k) float32 arrays, as one variadic
    reduction: ((n,), (n,)).

    Why: one reduction with two outputs evaluates what `a` and `b` are computed from once for
    both; two sums (the x and the y of a push) each fused and re-evaluated all of it, and
    XLA:CPU drops an optimization barrier between them. Unlike a one-output float reduction it
    is not handed to a library call, so its adds run in index order from an initial -0.0, and
    -0.0 + p is p bit for bit: the sums are `small_sum`'s (held to the golden traces).
    """
    zero = jnp.float32(-0.0)
    return jax.lax.reduce((a, b), (zero, zero), lambda x, y: (x[0] + y[0], x[1] + y[1]), (1,))


def _more(carry) -> jnp.ndarray:
    return jnp.any(carry[0] != 0)  # some disc has candidates left


def project_near(pos: jnp.ndarray, index: ObstacleIndex, radius: jnp.ndarray) -> jnp.ndarray:
    """`project_all` for discs (n, 2) of radii (n,) <= BODY_RADIUS, testing only the obstacles
    whose reach box holds each centre (`near_bits`); their pushes are added in slot order.

    The first C.NEAR_OBSTACLES candidates of each disc are tested straight away; a loop takes
    any further ones, C.NEAR_OBSTACLES at a time, and runs no round at all unless some disc
    has more candidates (none does on the shipped maps), so any table is tested whole.

    Why the sum is `project_all`'s: `_project` adds the 32 pushes left to right in slot order,
    and the obstacles left out here all push by +0.0; a push of -0.0 needs a centre at x = 0
    or y = 0, off the clipped map, so no partial sum is -0.0, and adding +0.0 to a float that
    is not -0.0 leaves it unchanged. (Each push itself is the
    same formula; XLA:CPU may fuse a multiply and an add into one rounding in one program and
    not the other, so the two agree to a few ulps, `tests/engine/test_engine_cells.py`.)
    """
    slots, rest = take_slots(near_bits(index, pos), C.NEAR_OBSTACLES)
    first = _near_pushes(pos, radius, _gather(index, slots), None, None)

    def next_slots(carry):
        rest, total_x, total_y = carry
        slots, rest = take_slots(rest, C.NEAR_OBSTACLES)
        return rest, *_near_pushes(pos, radius, _gather(index, slots), total_x, total_y)

    _, total_x, total_y = jax.lax.while_loop(_more, next_slots, (rest, *first))
    return pos + jnp.stack([total_x, total_y], axis=1)


def overlap_near(pos: jnp.ndarray, index: ObstacleIndex, radius: jnp.ndarray) -> jnp.ndarray:
    """`any_overlap` for discs (n, 2) of radii (n,) <= BODY_RADIUS. (n,) bool.

    Only the overlap flags, without the pushes `project_near` adds up, in the same rounds.
    """

    def hits(slots):
        return jnp.any(_contacts(pos, radius, _gather(index, slots))[0], axis=1)

    slots, rest = take_slots(near_bits(index, pos), C.NEAR_OBSTACLES)

    def next_slots(carry):
        rest, hit = carry
        slots, rest = take_slots(rest, C.NEAR_OBSTACLES)
        return rest, hit | hits(slots)

    return jax.lax.while_loop(_more, next_slots, (rest, hits(slots)))[1]


def clip_to_bounds(pos: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Keep discs (10, 2) inside the 20 x 10 map: centre in [r, W - r] x [r, H - r]."""
    low = radius[:, None]
    high = jnp.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - radius[:, None]
    return jnp.clip(pos, low, high)


def distances(pos: jnp.ndarray) -> jnp.ndarray:
    """Centre-to-centre distances (10, 2) -> (10, 10) float32 map units."""
    diff = pos[:, None, :] - pos[None, :, :]
    return jnp.sqrt(small_sum(diff * diff, -1))
