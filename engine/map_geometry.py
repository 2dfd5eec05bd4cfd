"""Host-side NumPy geometry for map files: overlap predicates (RULES 1.3), mirroring about
x = 10, flood-fill grids and the ASCII preview. The engine's traced geometry is engine/geometry.py;
this module checks and draws maps on the host and never runs under jit.
"""

import math

import numpy as np
from scipy import ndimage

from engine import constants as C

AXIS_X = C.MAP_WIDTH / 2
GRID_STEP = 0.05  # map units between flood-fill grid points (reachability)
TOL = 1e-6  # geometric slack for bounds, symmetry and tangency (RULES 1.3 uses 1e-6)
PREVIEW_COLS, PREVIEW_ROWS = 80, 20  # ASCII preview: a character is 0.25 wide, 0.5 tall


def mirror_rows(rows: np.ndarray) -> np.ndarray:
    """Mirror obstacle rows about x = 10: (x, theta) -> (20 - x, -theta). (k, 8) -> (k, 8)."""
    out = np.array(rows, np.float32, copy=True).reshape(-1, C.OBSTACLE_FEATURES)
    out[:, C.OBS_X] = C.MAP_WIDTH - out[:, C.OBS_X]
    out[:, C.OBS_THETA] = -out[:, C.OBS_THETA]
    return out


def wall_corners(row: np.ndarray) -> np.ndarray:
    """The 4 corners (4, 2) of a wall row, counter-clockwise from local (-w/2, -h/2)."""
    hw, hh, th = row[C.OBS_WIDTH] / 2, row[C.OBS_HEIGHT] / 2, float(row[C.OBS_THETA])
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float64)
    rot = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
    return local @ rot.T + np.array([row[C.OBS_X], row[C.OBS_Y]], np.float64)


def same_shape(a: np.ndarray, b: np.ndarray, tol: float = 1e-4) -> bool:
    """Whether two rows cover the same set (a wall is its corner set, whatever its angle)."""
    if a[C.OBS_TYPE] != b[C.OBS_TYPE]:
        return False
    if a[C.OBS_TYPE] == C.OBSTACLE_PILLAR:
        return bool(np.allclose(a[1:4], b[1:4], atol=tol))
    ca, cb = wall_corners(a), wall_corners(b)
    return all(np.min(np.abs(cb - p).max(axis=1)) <= tol for p in ca)


def disc_overlaps(rows: np.ndarray, px, py, radius: float) -> np.ndarray:
    """Whether a disc of `radius` centred at (px, py) (broadcastable arrays, map units) overlaps
    each obstacle of `rows` (k, 8) -> bool (k, *shape) (RULES 1.3): a pillar when the centre
    distance is strictly below the radii's sum; a wall when the centre is inside/on the
    rectangle or its nearest point is closer than radius - 1e-6. Tangency is legal. Radius 0
    gives plain point coverage. Computed in float64."""
    rows = np.asarray(rows, np.float64).reshape(-1, C.OBSTACLE_FEATURES)
    px, py = np.broadcast_arrays(np.asarray(px, np.float64), np.asarray(py, np.float64))
    col = rows.T.reshape((C.OBSTACLE_FEATURES, -1) + (1,) * px.ndim)
    dx, dy = px - col[C.OBS_X], py - col[C.OBS_Y]
    cos, sin = np.cos(col[C.OBS_THETA]), np.sin(col[C.OBS_THETA])
    lx, ly = cos * dx + sin * dy, cos * dy - sin * dx  # rotate by -theta into the wall's frame
    hw, hh = col[C.OBS_WIDTH] / 2, col[C.OBS_HEIGHT] / 2
    inside = (np.abs(lx) <= hw) & (np.abs(ly) <= hh)
    gap = np.hypot(lx - np.clip(lx, -hw, hw), ly - np.clip(ly, -hh, hh))
    wall = (inside | (gap < radius - C.OVERLAP_EPS)) & (col[C.OBS_TYPE] == C.OBSTACLE_WALL)
    pillar = dx * dx + dy * dy < (radius + col[C.OBS_RADIUS]) ** 2
    return np.where(col[C.OBS_TYPE] == C.OBSTACLE_PILLAR, pillar, wall)


def _extent(row: np.ndarray) -> float:
    """Radius of a circle about the centre that holds the whole obstacle."""
    if row[C.OBS_TYPE] == C.OBSTACLE_PILLAR:
        return float(row[C.OBS_RADIUS])
    return math.hypot(row[C.OBS_WIDTH] / 2, row[C.OBS_HEIGHT] / 2)


def grid_axes(step: float) -> tuple[np.ndarray, np.ndarray]:
    """Grid point coordinates (nx,), (ny,) covering [0, 20] x [0, 10] with spacing `step`."""
    nx, ny = round(C.MAP_WIDTH / step) + 1, round(C.MAP_HEIGHT / step) + 1
    return np.arange(nx) * step, np.arange(ny) * step


def blocked_grid(rows: np.ndarray, radius: float, step: float = GRID_STEP) -> np.ndarray:
    """(ny, nx) bool, row j = y index: grid points where a disc of `radius` overlaps an obstacle
    or leaves the map. Each obstacle only touches the grid patch around it (speed)."""
    xs, ys = grid_axes(step)
    blocked = np.zeros((len(ys), len(xs)), bool)
    for row in rows:
        reach = _extent(row) + radius
        i0, i1 = np.searchsorted(xs, [row[C.OBS_X] - reach, row[C.OBS_X] + reach + step])
        j0, j1 = np.searchsorted(ys, [row[C.OBS_Y] - reach, row[C.OBS_Y] + reach + step])
        patch = disc_overlaps(row, xs[None, i0:i1], ys[j0:j1, None], radius)
        blocked[j0:j1, i0:i1] |= patch[0]
    blocked[:, (xs < radius - TOL) | (xs > C.MAP_WIDTH - radius + TOL)] = True
    blocked[(ys < radius - TOL) | (ys > C.MAP_HEIGHT - radius + TOL), :] = True
    return blocked


def pad_components(rows: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """Flood-fill component of each pad (2 ends, 5, 2) for a disc of radius 0.5 on a 4-connected
    grid at GRID_STEP: (10,) ints, equal where pads connect, 0 where no free grid point lies
    within one step of the pad. `rows` must be mirror-symmetric. Then a path between two west
    points folds into the west half (reflect its eastern stretches), and an east pad connects to
    its west twin iff that twin's component touches x = 10, so only the west half is labelled."""
    blocked = blocked_grid(rows[rows[:, C.OBS_X] <= AXIS_X + TOL], C.BODY_RADIUS)
    half = round(AXIS_X / GRID_STEP) + 1  # columns x = 0 .. 10
    labels, count = ndimage.label(~blocked[:, :half])
    west = np.zeros(len(pads[0]), np.int64)
    for n, (x, y) in enumerate(pads[0]):
        i, j = round(x / GRID_STEP), round(y / GRID_STEP)
        window = labels[max(j - 1, 0) : j + 2, max(i - 1, 0) : i + 2]
        found = window[window > 0]
        west[n] = np.bincount(found).argmax() if found.size else 0
    crosses = np.isin(west, labels[:, -1]) & (west > 0)
    east = np.where(crosses, west, west + count + 1)  # a label no west pad has
    return np.concatenate([west, np.where(west > 0, east, 0)])


def ascii_picture(obstacles: np.ndarray, pads: np.ndarray, red_zones: np.ndarray) -> list[str]:
    """A map as 22 lines of 82 characters, north up: '#' wall, 'O' pillar, '0'-'4' pad k of
    either end, '.' Red Zone, ' ' open ground, framed by +-| (a character is 0.25 x 0.5 units)."""
    cw, ch = C.MAP_WIDTH / PREVIEW_COLS, C.MAP_HEIGHT / PREVIEW_ROWS
    sub = (np.arange(3) + 0.5) / 3  # 3 x 3 samples a character, symmetric about x = 10
    xs = ((np.arange(PREVIEW_COLS)[:, None] + sub).ravel() * cw)[None, :]
    ys = (C.MAP_HEIGHT - (np.arange(PREVIEW_ROWS)[:, None] + sub).ravel() * ch)[:, None]
    chars = np.full((PREVIEW_ROWS, PREVIEW_COLS), " ")
    cx, cy = xs[0, 1::3], ys[1::3, 0]
    for x0, y0, x1, y1 in red_zones:
        if x1 > x0:
            chars[np.ix_((cy >= y0) & (cy <= y1), (cx >= x0) & (cx <= x1))] = "."
    for kind, char in ((C.OBSTACLE_PILLAR, "O"), (C.OBSTACLE_WALL, "#")):
        rows = obstacles[obstacles[:, C.OBS_TYPE] == kind]
        hit = disc_overlaps(rows, xs, ys, 0.0).any(axis=0)
        cells = hit.reshape(PREVIEW_ROWS, 3, PREVIEW_COLS, 3).any(axis=(1, 3))
        chars[cells] = char
    for k, (x, y) in enumerate(pads[0]):
        col = min(int(x / cw), PREVIEW_COLS - 1)
        row = min(int((C.MAP_HEIGHT - y) / ch), PREVIEW_ROWS - 1)
        chars[row, col] = chars[row, PREVIEW_COLS - 1 - col] = str(k)
    edge = "+" + "-" * PREVIEW_COLS + "+"
    return [edge] + ["|" + "".join(line) + "|" for line in chars] + [edge]
