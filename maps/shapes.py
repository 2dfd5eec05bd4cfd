"""Shape helpers for the map designs: pillars, walls by centre or by end points, seeded scatter.

Every helper returns obstacle objects in the map-file format (maps/README.md), west half only.
"""

import math

import numpy as np

GAP = 1.2  # clearance the scatter keeps between obstacles, map edges and mirror images (> 1.0)
THICK = 0.4  # default wall thickness
EDGE = 0.3  # the scatter's least distance from the north and south edges


def P(x: float, y: float, r: float) -> dict:
    """A pillar centred at (x, y) with radius r."""
    return {"type": "pillar", "x": x, "y": y, "radius": r}


def W(x: float, y: float, w: float, h: float, a: float = 0.0) -> dict:
    """A wall centred at (x, y), w along its own x axis, h along its y axis, turned a degrees."""
    return {"type": "wall", "x": x, "y": y, "width": w, "height": h, "angle_deg": a}


def seg(x0: float, y0: float, x1: float, y1: float, t: float = THICK) -> dict:
    """A wall of thickness t whose centre line runs from (x0, y0) to (x1, y1)."""
    length = math.hypot(x1 - x0, y1 - y0)
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
    return W((x0 + x1) / 2, (y0 + y1) / 2, length, t, angle)


def box(x0: float, y0: float, x1: float, y1: float) -> dict:
    """An axis-aligned wall filling the rectangle [x0, x1] x [y0, y1]."""
    return W((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)


def arc(cx: float, cy: float, radius: float, degrees: list[float], r: float) -> list[dict]:
    """Pillars of radius r on a circle about (cx, cy) at the given angles (0 = east, CCW)."""
    out = []
    for a in degrees:
        x = cx + radius * math.cos(math.radians(a))
        y = cy + radius * math.sin(math.radians(a))
        out.append(P(round(x, 3), round(y, 3), r))
    return out


def _segment_distance(a0, a1, b0, b1) -> float:
    """Shortest distance between segments a0-a1 and b0-b1 (2-D, no intersection test needed
    for our use because crossing walls are rejected by the end-point test below)."""

    def point_seg(p, s0, s1):
        d = s1 - s0
        t = np.clip(np.dot(p - s0, d) / max(np.dot(d, d), 1e-12), 0.0, 1.0)
        return float(np.linalg.norm(p - (s0 + t * d)))

    def crosses(p0, p1, q0, q1):
        def side(a, b, c):
            return np.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

        return side(p0, p1, q0) != side(p0, p1, q1) and side(q0, q1, p0) != side(q0, q1, p1)

    if crosses(a0, a1, b0, b1):
        return 0.0
    return min(point_seg(a0, b0, b1), point_seg(a1, b0, b1), point_seg(b0, a0, a1),
               point_seg(b1, a0, a1))  # fmt: skip


def _clear(cand: tuple, placed: list[tuple], x_max: float, gap: float) -> bool:
    """Whether a capsule keeps `gap` from the map edges, the placed ones and all mirror images."""
    x0, y0, x1, y1, h = cand
    xs, ys = (x0, x1), (y0, y1)
    # Near the long edges a thin strip is allowed: a dead end there traps no pad.
    if min(xs) - h < 3.0 or min(ys) - h < EDGE or max(ys) + h > 10 - EDGE or max(xs) > x_max:
        return False
    a0, a1 = np.array([x0, y0]), np.array([x1, y1])
    mirror = [(20 - x0, y0, 20 - x1, y1, h)]
    for q in placed + [(20 - p[0], p[1], 20 - p[2], p[3], p[4]) for p in placed] + mirror:
        b0, b1 = np.array(q[:2]), np.array(q[2:4])
        if _segment_distance(a0, a1, b0, b1) < h + q[4] + gap:
            return False
    return True


def scatter(
    seed: int,
    count: int,
    radii: tuple[float, float] = (0.3, 0.6),
    lengths: tuple[float, float] | None = None,
    x_range: tuple[float, float] = (3.2, 9.3),
    placed: list[dict] = (),
    gap: float = GAP,
) -> list[dict]:
    """`count` seeded pillars (lengths None) or walls (lengths = (min, max), thickness 0.35) in
    x_range of the west half, each keeping `gap` from the others, the edges and mirror images."""
    rng = np.random.default_rng(seed)
    caps = [_as_capsule(o) for o in placed]
    out: list[dict] = []
    for _ in range(20000):
        if len(out) == count:
            return out
        x, y = rng.uniform(*x_range), rng.uniform(0.5, 9.5)
        if lengths is None:
            r = round(float(rng.uniform(*radii)), 2)
            cand, obj = (x, y, x, y, r), P(round(x, 2), round(y, 2), r)
        else:
            length, a = rng.uniform(*lengths), rng.uniform(0.0, 180.0)
            dx, dy = length / 2 * math.cos(math.radians(a)), length / 2 * math.sin(math.radians(a))
            cand = (x - dx, y - dy, x + dx, y + dy, 0.175)
            obj = W(round(x, 2), round(y, 2), round(length, 2), 0.35, round(a, 1))
        if _clear(cand, caps, x_range[1], gap):
            caps.append(cand)
            out.append(obj)
    raise RuntimeError(f"scatter(seed={seed}) placed only {len(out)} of {count}")


def _as_capsule(o: dict) -> tuple:
    if o["type"] == "pillar":
        return (o["x"], o["y"], o["x"], o["y"], o["radius"])
    half = o["width"] / 2
    a = math.radians(o["angle_deg"])
    dx, dy = half * math.cos(a), half * math.sin(a)
    return (o["x"] - dx, o["y"] - dy, o["x"] + dx, o["y"] + dy, o["height"] / 2)


def design(map_id, slug, name, description, obstacles, team_size=None) -> dict:
    """One map design, the record maps/generate.py turns into a map file: id (int), slug (file
    name part), name, description, obstacles (the west half's dicts), team_size (None: 5)."""
    return {
        "id": map_id,
        "slug": slug,
        "name": name,
        "description": description,
        "obstacles": obstacles,
        "team_size": team_size,
    }
