"""Map documents: the checks of one map JSON object, field by field (RULES_BRIEF A3-A4).

Types and keys of every field, obstacle rows (RULES 1.2) and their bounds and mirror
symmetry, pads (inside the map, clear of obstacles and of each other, reachable) and the Red
Zone. Every failure is a `MapError` naming the file, the field and the reason. The ids and splits
of a map, and the loading of files, are engine.maps's (which re-exports `MapError` and
`FORMAT_VERSION`).
"""

import json
import math

import numpy as np

from engine import constants as C
from engine.map_geometry import (
    AXIS_X,
    TOL,
    disc_overlaps,
    mirror_rows,
    pad_components,
    same_shape,
    wall_corners,
)

FORMAT_VERSION = 1


class MapError(ValueError):
    """A map file that cannot be used; the message names the file, the field and the reason
    (field None: the file as a whole, which cannot be read or is not JSON)."""

    def __init__(self, source: object, field: str | None, reason: str):
        self.source, self.field, self.reason = str(source), field, reason
        where = "" if field is None else f"field '{field}': "
        super().__init__(f"{source}: {where}{reason}")


# --- Parsing ---------------------------------------------------------------------------------
_FIELDS = {  # field -> accepted JSON types (None = null)
    "format": (int,),
    "id": (int,),
    "name": (str,),
    "split": (str,),
    "team_size": (int, type(None)),
    "description": (str,),
    "mirror": (bool,),
    "obstacles": (list,),
    "pads": (list,),
    "red_zone": (list,),
}
_OPTIONAL = {"preview": (list,)}
_SHAPE_KEYS = {"pillar": ("x", "y", "radius"), "wall": ("x", "y", "width", "height", "angle_deg")}
_TYPE_NAMES = {"int": "an integer", "str": "a string", "list": "a list", "bool": "true or false"}


def _type_text(types: tuple) -> str:
    return " or ".join("null" if t is type(None) else _TYPE_NAMES[t.__name__] for t in types)


def _check_type(src, field: str, value, types: tuple):
    # bool is an int in Python; a map file's true is never a number.
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        raise MapError(src, field, f"expected {_type_text(types)}, got {json.dumps(value)}")
    return value


def _number(src, field: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise MapError(src, field, f"expected a finite number, got {json.dumps(value)}")
    return float(value)


def _point(src, field: str, value, size: int) -> list[float]:
    if not isinstance(value, list) or len(value) != size:
        raise MapError(src, field, f"expected a list of {size} numbers, got {json.dumps(value)}")
    return [_number(src, f"{field}[{i}]", v) for i, v in enumerate(value)]


def obstacle_row(src, field: str, entry) -> np.ndarray:
    """One obstacle object -> a RULES 1.2 row; walls give angle_deg, rows hold radians."""
    if not isinstance(entry, dict):
        raise MapError(src, field, f"expected an object, got {json.dumps(entry)}")
    kind = entry.get("type")
    if kind not in _SHAPE_KEYS:
        raise MapError(src, f"{field}.type", f"expected 'pillar' or 'wall', got {kind!r}")
    keys = _SHAPE_KEYS[kind]
    extra = sorted(set(entry) - set(keys) - {"type"})
    if extra:
        raise MapError(src, f"{field}.{extra[0]}", f"unknown key for a {kind}")
    missing = [k for k in keys if k not in entry]
    if missing:
        raise MapError(src, f"{field}.{missing[0]}", f"missing (a {kind} needs {', '.join(keys)})")
    v = {k: _number(src, f"{field}.{k}", entry[k]) for k in keys}
    for k in ("radius", "width", "height"):
        if k in v and v[k] <= 0:
            raise MapError(src, f"{field}.{k}", f"must be > 0, got {v[k]:g}")
    if kind == "pillar":
        return np.array([C.OBSTACLE_PILLAR, v["x"], v["y"], v["radius"], 0, 0, 0, 1], np.float32)
    theta = math.radians(v["angle_deg"])
    row = [C.OBSTACLE_WALL, v["x"], v["y"], 0, v["width"], v["height"], theta, 1]
    return np.array(row, np.float32)


def mirror_authored(src, rows: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """West-half authoring: add the mirror of every row west of the axis; rows on it stay once."""
    on_axis = np.abs(rows[:, C.OBS_X] - AXIS_X) <= TOL
    for i in np.flatnonzero(rows[:, C.OBS_X] > AXIS_X + TOL):
        x = float(rows[i, C.OBS_X])
        raise MapError(
            src, f"obstacles[{i}].x", f"with mirror true, author only x <= 10, got {x:g}"
        )
    for i in np.flatnonzero(on_axis):
        if not same_shape(rows[i], mirror_rows(rows[i])[0]):
            raise MapError(src, f"obstacles[{i}]", "sits on x = 10 but is not its own mirror")
    copies = mirror_rows(rows[~on_axis])
    names = [f"obstacles[{i}]" for i in range(len(rows))]
    names += [f"obstacles[{i}] (mirror)" for i in np.flatnonzero(~on_axis)]
    return np.concatenate([rows, copies]), names


def parse_document(src, doc) -> dict:
    """The document itself if it is an object with exactly the known fields, each of its JSON
    type, and format version 1; else MapError (field "(top level)", the field, or "format")."""
    if not isinstance(doc, dict):
        raise MapError(src, "(top level)", "expected a JSON object")
    for key in doc:
        if key not in _FIELDS and key not in _OPTIONAL:
            raise MapError(src, key, "unknown field")
    for key, types in _FIELDS.items():
        if key not in doc:
            raise MapError(src, key, "missing")
        _check_type(src, key, doc[key], types)
    for key, types in _OPTIONAL.items():
        if key in doc:
            _check_type(src, key, doc[key], types)
    if doc["format"] != FORMAT_VERSION:
        raise MapError(src, "format", f"version {doc['format']} unknown; this reads version 1")
    return doc


def end_arrays(src, doc: dict) -> tuple[np.ndarray, np.ndarray]:
    """West pads and Red Zone from the file; the east end is their mirror image."""
    if len(doc["pads"]) != C.TEAM_SIZE:
        raise MapError(src, "pads", f"expected 5 [x, y] pads, got {len(doc['pads'])}")
    west = np.array([_point(src, f"pads[{k}]", p, 2) for k, p in enumerate(doc["pads"])])
    for k in np.flatnonzero(west[:, 0] >= AXIS_X):
        raise MapError(
            src, f"pads[{k}]", f"pads are the west end's: x must be < 10, got {west[k, 0]:g}"
        )
    east = np.stack([C.MAP_WIDTH - west[:, 0], west[:, 1]], axis=1)
    x0, y0, x1, y1 = _point(src, "red_zone", doc["red_zone"], 4)
    if not (0 <= x0 <= x1 <= AXIS_X and 0 <= y0 < y1 <= C.MAP_HEIGHT):
        got = json.dumps(doc["red_zone"])
        reason = f"needs 0 <= x0 <= x1 <= 10 and 0 <= y0 < y1 <= 10 (west end), got {got}"
        raise MapError(src, "red_zone", reason)
    zones = [[x0, y0, x1, y1], [C.MAP_WIDTH - x1, y0, C.MAP_WIDTH - x0, y1]]
    return np.stack([west, east]).astype(np.float32), np.array(zones, np.float32)


# --- Validation ------------------------------------------------------------------------------
def _pad_name(end: int, k: int) -> str:
    return f"pads[{k}]" if end == 0 else f"pads[{k}] (east mirror)"


def check_obstacles(src, rows: np.ndarray, names: list[str]) -> None:
    """At most 32 rows (k, 8), each inside the 20 x 10 map; `names` are their fields."""
    if len(rows) > C.MAX_OBSTACLES:
        raise MapError(src, "obstacles", f"{len(rows)} obstacles when loaded; at most 32 fit")
    for row, name in zip(rows, names, strict=True):
        if row[C.OBS_TYPE] == C.OBSTACLE_PILLAR:
            r = row[C.OBS_RADIUS]
            pts = np.array([[row[1] - r, row[2] - r], [row[1] + r, row[2] + r]])
        else:
            pts = wall_corners(row)
        low, high = pts.min(axis=0), pts.max(axis=0)
        if low.min() < -TOL or high[0] > C.MAP_WIDTH + TOL or high[1] > C.MAP_HEIGHT + TOL:
            raise MapError(
                src,
                name,
                f"reaches outside the 20 x 10 map (spans {_xy(low)} to {_xy(high)})",
            )


def _xy(xy) -> str:
    return f"({xy[0]:.3g}, {xy[1]:.3g})"


def check_symmetry(src, rows: np.ndarray, names: list[str]) -> None:
    """Every obstacle's mirror image about x = 10 is also an obstacle of the map."""
    images = mirror_rows(rows)
    for image, name in zip(images, names, strict=True):
        near = (np.abs(rows[:, 1] - image[1]) < 1e-4) & (np.abs(rows[:, 2] - image[2]) < 1e-4)
        if not any(same_shape(image, rows[j]) for j in np.flatnonzero(near)):
            raise MapError(src, name, "has no mirror image about x = 10 (the map must be mirrored)")


def check_pads(src, pads: np.ndarray, rows: np.ndarray, names: list[str]) -> None:
    """Pads (2, 5, 2) lie 0.5 inside the map, clear of every obstacle and 1.0 from each other."""
    r = C.BODY_RADIUS
    flat = pads.reshape(-1, 2).astype(np.float64)
    for n, (x, y) in enumerate(flat):
        where = _pad_name(n // C.TEAM_SIZE, n % C.TEAM_SIZE)
        if not (r - TOL <= x <= C.MAP_WIDTH - r + TOL and r - TOL <= y <= C.MAP_HEIGHT - r + TOL):
            raise MapError(src, where, f"pad ({x:g}, {y:g}) must be 0.5 inside the map")
    hits = disc_overlaps(rows, flat[:, 0], flat[:, 1], r)  # (obstacles, pads)
    for j, n in zip(*np.nonzero(hits.T), strict=True):
        x, y = flat[j]
        where = _pad_name(j // C.TEAM_SIZE, j % C.TEAM_SIZE)
        raise MapError(src, where, f"pad ({x:g}, {y:g}) overlaps {names[n]}")
    dist = np.hypot(*(flat[:, None, :] - flat[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(dist, np.inf)
    for a, b in np.argwhere(dist < 2 * r - TOL):
        if a < b:
            first, second = divmod(int(a), C.TEAM_SIZE), divmod(int(b), C.TEAM_SIZE)
            raise MapError(
                src, _pad_name(*first), f"pad disc overlaps {_pad_name(*second)} (< 1.0 apart)"
            )


def check_reachable(src, pads: np.ndarray, rows: np.ndarray) -> None:
    """Every pad reaches every other for a disc of radius 0.5 (4-connected grid at 0.05)."""
    comps = pad_components(rows, pads)
    known = comps[comps > 0]
    main = int(np.bincount(known).argmax()) if known.size else -1
    for n in np.flatnonzero(comps != main):
        where = _pad_name(n // C.TEAM_SIZE, n % C.TEAM_SIZE)
        raise MapError(
            src, where, "unreachable: a disc of radius 0.5 cannot walk to the other pads"
        )
