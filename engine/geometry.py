"""Line of sight, obstacle overlap and projection, bounds (RULES 1.3, 1.4).

Obstacles are rows of the (32, 8) table: [type, x, y, radius, width, height, theta, active].
Pillars are discs; walls are rectangles of `width` x `height` rotated by `theta` (radians,
counter-clockwise) about their centre. Everything is written as broadcasting over
(discs or segments) x obstacles, so XLA fuses each test into one loop without gathers.
"""

from typing import NamedTuple

import jax.numpy as jnp

from engine import constants as C


class Shapes(NamedTuple):
    """The obstacle table split into columns, with each wall's rotation precomputed; each (32,)."""

    x: jnp.ndarray
    y: jnp.ndarray
    radius: jnp.ndarray
    half_w: jnp.ndarray
    half_h: jnp.ndarray
    cos: jnp.ndarray
    sin: jnp.ndarray
    pillar: jnp.ndarray  # bool, active pillar
    wall: jnp.ndarray  # bool, active wall


def shapes(obstacles: jnp.ndarray) -> Shapes:
    """Prepare a (32, 8) obstacle table for the tests below."""
    active = obstacles[:, C.OBS_ACTIVE] > 0
    kind = obstacles[:, C.OBS_TYPE]
    theta = obstacles[:, C.OBS_THETA]
    return Shapes(
        x=obstacles[:, C.OBS_X],
        y=obstacles[:, C.OBS_Y],
        radius=obstacles[:, C.OBS_RADIUS],
        half_w=obstacles[:, C.OBS_WIDTH] * 0.5,
        half_h=obstacles[:, C.OBS_HEIGHT] * 0.5,
        cos=jnp.cos(theta),
        sin=jnp.sin(theta),
        pillar=active & (kind == C.OBSTACLE_PILLAR),
        wall=active & (kind == C.OBSTACLE_WALL),
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
    """
    return _blocked(p[:, 0:1], p[:, 1:2], q[:, 0:1], q[:, 1:2], s)


def _blocked(px, py, qx, qy, s: Shapes) -> jnp.ndarray:
    """`segments_blocked` on broadcastable coordinate arrays whose last axis meets the 32."""
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
    return jnp.any((s.pillar & pillar) | (s.wall & wall), axis=-1)


def line_of_sight(pos: jnp.ndarray, obstacles: jnp.ndarray) -> jnp.ndarray:
    """Clear line of sight between every pair of centres: (10, 2), (32, 8) -> (10, 10) bool.

    All 100 ordered pairs are tested by broadcasting (cheaper than gathering the 45 unordered
    ones on a CPU); the result is made symmetric so sight never depends on who looks.
    """
    x, y = pos[:, 0, None, None], pos[:, 1, None, None]  # (10, 1, 1)
    clear = ~_blocked(x, y, x.transpose(1, 0, 2), y.transpose(1, 0, 2), shapes(obstacles))
    return clear & clear.T


def _contacts(pos: jnp.ndarray, radius: jnp.ndarray, s: Shapes):
    """Overlap (10, 32) bool and the tangent position (10, 32) x and y of each disc per obstacle.

    Pillar: push radially to tangency (+x when the centres coincide). Wall: a centre outside is
    pushed along the contact normal; a centre inside leaves through the nearest face (ties in
    the order left, right, bottom, top), keeping its other local coordinate (RULES 1.3).
    """
    x, y, r = pos[:, 0:1], pos[:, 1:2], radius[:, None]
    ox, oy = x - s.x, y - s.y
    dist = jnp.sqrt(ox * ox + oy * oy)
    reach = r + s.radius
    far = dist > C.OVERLAP_EPS
    scale = reach / jnp.maximum(dist, 1e-12)
    pillar_x = jnp.where(far, s.x + ox * scale, s.x + reach)
    pillar_y = jnp.where(far, s.y + oy * scale, s.y)
    pillar_hit = dist < reach

    lx, ly = _to_local(s, x, y)
    nx, ny = jnp.clip(lx, -s.half_w, s.half_w), jnp.clip(ly, -s.half_h, s.half_h)
    gx, gy = lx - nx, ly - ny
    gap = jnp.sqrt(gx * gx + gy * gy)
    inside = (jnp.abs(lx) <= s.half_w) & (jnp.abs(ly) <= s.half_h)
    push = r / jnp.maximum(gap, 1e-12)
    left, right = lx + s.half_w, s.half_w - lx
    bottom, top = ly + s.half_h, s.half_h - ly
    go_x = jnp.minimum(left, right) <= jnp.minimum(bottom, top)
    exit_x = jnp.where(left <= right, -s.half_w - r, s.half_w + r)
    exit_y = jnp.where(bottom <= top, -s.half_h - r, s.half_h + r)
    new_lx = jnp.where(inside, jnp.where(go_x, exit_x, lx), nx + gx * push)
    new_ly = jnp.where(inside, jnp.where(go_x, ly, exit_y), ny + gy * push)
    wall_x = s.x + new_lx * s.cos - new_ly * s.sin
    wall_y = s.y + new_lx * s.sin + new_ly * s.cos
    wall_hit = inside | (gap < r - C.OVERLAP_EPS)

    hit = (s.pillar & pillar_hit) | (s.wall & wall_hit)
    return hit, jnp.where(s.pillar, pillar_x, wall_x), jnp.where(s.pillar, pillar_y, wall_y)


def project_all(pos: jnp.ndarray, obstacles: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Project discs (10, 2) out of every obstacle they overlap, all obstacles at once.

    Each overlapped obstacle contributes its own push from the same starting position and the
    pushes add up, so the result does not depend on obstacle order. A disc wedged between
    obstacles may still overlap afterwards; `any_overlap` finds it. Discs that overlap nothing
    are returned unchanged, bit for bit.
    """
    hit, tx, ty = _contacts(pos, radius, shapes(obstacles))
    push_x = jnp.sum(jnp.where(hit, tx - pos[:, 0:1], 0.0), axis=1)
    push_y = jnp.sum(jnp.where(hit, ty - pos[:, 1:2], 0.0), axis=1)
    moved = pos + jnp.stack([push_x, push_y], axis=1)
    return jnp.where(jnp.any(hit, axis=1)[:, None], moved, pos)


def any_overlap(pos: jnp.ndarray, obstacles: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Does each disc (10, 2) of the given radii (10,) overlap any obstacle? (10,) bool."""
    return jnp.any(_contacts(pos, radius, shapes(obstacles))[0], axis=1)


def clip_to_bounds(pos: jnp.ndarray, radius: jnp.ndarray) -> jnp.ndarray:
    """Keep discs (10, 2) inside the 20 x 10 map: centre in [r, W - r] x [r, H - r]."""
    low = radius[:, None]
    high = jnp.array([C.MAP_WIDTH, C.MAP_HEIGHT]) - radius[:, None]
    return jnp.clip(pos, low, high)


def distances(pos: jnp.ndarray) -> jnp.ndarray:
    """Centre-to-centre distances (10, 2) -> (10, 10) float32 map units."""
    diff = pos[:, None, :] - pos[None, :, :]
    return jnp.sqrt(jnp.sum(diff * diff, axis=-1))
