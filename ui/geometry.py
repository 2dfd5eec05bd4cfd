"""Line of sight on the host (NumPy), for overlays: RULES 1.4 (segment between centres).

Pillars block when the segment passes within radius + LOS_EPS of the centre; walls block when
the segment, in the wall's own frame, touches its rectangle (slab test).
"""

import numpy as np

from ui.rules import C


def _pillar_blocks(a, b, row) -> bool:
    centre = row[[C.OBS_X, C.OBS_Y]]
    ab = b - a
    denom = float(ab @ ab)
    u = 0.0 if denom == 0.0 else float(np.clip((centre - a) @ ab / denom, 0.0, 1.0))
    return float(np.linalg.norm(a + u * ab - centre)) <= row[C.OBS_RADIUS] + C.LOS_EPS


def _wall_blocks(a, b, row) -> bool:
    centre = row[[C.OBS_X, C.OBS_Y]]
    cos, sin = np.cos(row[C.OBS_THETA]), np.sin(row[C.OBS_THETA])
    rot = np.array([[cos, sin], [-sin, cos]])  # world -> wall frame
    p, q = rot @ (a - centre), rot @ (b - centre)
    half = np.array([row[C.OBS_WIDTH], row[C.OBS_HEIGHT]]) / 2
    t0, t1, d = 0.0, 1.0, q - p
    for axis in range(2):
        if abs(d[axis]) < 1e-12:
            if abs(p[axis]) > half[axis]:
                return False
            continue
        lo, hi = sorted(((-half[axis] - p[axis]) / d[axis], (half[axis] - p[axis]) / d[axis]))
        t0, t1 = max(t0, lo), min(t1, hi)
        if t0 > t1:
            return False
    return True


def los_clear(a, b, obstacles: np.ndarray) -> bool:
    """True when no active obstacle row of `obstacles` (32, 8) blocks the segment a-b."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    rows = np.asarray(obstacles, np.float64)
    for row in rows[rows[:, C.OBS_ACTIVE] == 1.0]:
        kind = int(row[C.OBS_TYPE])
        if kind == C.OBSTACLE_PILLAR and _pillar_blocks(a, b, row):
            return False
        if kind == C.OBSTACLE_WALL and _wall_blocks(a, b, row):
            return False
    return True


def wall_corners(row) -> np.ndarray:
    """(4, 2) world corners of a wall row, counter-clockwise."""
    half = np.array([row[C.OBS_WIDTH], row[C.OBS_HEIGHT]]) / 2
    local = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half
    cos, sin = np.cos(row[C.OBS_THETA]), np.sin(row[C.OBS_THETA])
    rot = np.array([[cos, -sin], [sin, cos]])  # wall -> world
    return local @ rot.T + np.array([row[C.OBS_X], row[C.OBS_Y]])
