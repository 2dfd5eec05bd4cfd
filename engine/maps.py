"""Map files: parse, validate and pack the 52 maps into the engine's map pool (RULES_BRIEF A3-A5).

One JSON file a map under `maps/` (format in maps/README.md), e.g. `maps/047_keep.json`.
Loading validates on the host with NumPy: bounds, at most 32 obstacles, pads clear of obstacles and
of each other, every pad reachable from every other pad by a disc of radius 0.5 (grid flood fill
at 0.05 map units) and mirror symmetry about x = 10. Every error is a `MapError` naming the file,
the field and the reason.

Splits (A5): ids 0-11 curriculum, 12-41 train, 42-46 validation, 47-51 test; a user map file with
an id of 52 or more has split "custom". Set MBG_MAPS_DIR to read the shipped ids from elsewhere.

A map id names one layout: replays and pools record it. A file loaded by its path (anywhere) may
carry the id of a map in MAPS_DIR only if it is that map; a user's own map takes an unused id of
52 or more. Selections (`load_maps`) mix ids, ranges, splits and map file paths.
"""

import functools
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine import constants as C
from engine.map_geometry import (  # noqa: F401  (re-exported: the map API in one place)
    AXIS_X,
    GRID_STEP,
    TOL,
    ascii_picture,
    blocked_grid,
    disc_overlaps,
    grid_axes,
    mirror_rows,
    pad_components,
    same_shape,
    wall_corners,
)
from engine.pool import pack_pool

if TYPE_CHECKING:
    from engine.types import Pool

MAPS_DIR = Path(os.environ.get("MBG_MAPS_DIR", Path(__file__).resolve().parents[1] / "maps"))
FORMAT_VERSION = 1
NUM_MAPS = 52
SPLITS = {
    "curriculum": range(0, 12),
    "train": range(12, 42),
    "validation": range(42, 47),
    "test": range(47, 52),
}
CUSTOM_SPLIT = "custom"


class MapError(ValueError):
    """A map file that cannot be used; the message names the file, the field and the reason."""

    def __init__(self, source: object, field: str, reason: str):
        self.source, self.field, self.reason = str(source), field, reason
        super().__init__(f"{source}: field '{field}': {reason}")


@dataclass(frozen=True, eq=False)
class MapSpec:
    """One loaded, validated, mirror-symmetric map. Arrays are float32 and read-only.

    obstacles: (k <= 32, 8) rows [type, x, y, radius, width, height, theta, active] (RULES 1.2;
    type 1 pillar, 2 wall; theta in radians, counter-clockwise). pads: (2 ends, 5, 2), end 0 west,
    pad k belongs to team-local slot k. red_zones: (2 ends, 4) [x0, y0, x1, y1], width 0 = none.
    team_size: the curriculum stage's team size, or None.
    """

    id: int
    name: str
    split: str
    team_size: int | None
    description: str
    obstacles: np.ndarray
    pads: np.ndarray
    red_zones: np.ndarray
    source: Path

    @property
    def num_obstacles(self) -> int:
        return len(self.obstacles)


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


def _obstacle_row(src, field: str, entry) -> np.ndarray:
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


def _mirror_authored(src, rows: np.ndarray) -> tuple[np.ndarray, list[str]]:
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


def _parse(src, doc) -> dict:
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


def _check_identity(src, doc: dict) -> None:
    map_id, split, size = doc["id"], doc["split"], doc["team_size"]
    if map_id < 0:
        raise MapError(src, "id", f"must be >= 0, got {map_id}")
    expected = split_of(map_id)
    if split == CUSTOM_SPLIT and expected != CUSTOM_SPLIT:
        raise MapError(
            src, "id", f"{map_id} is a shipped map's id; a map of your own takes an unused id of "
            f"{NUM_MAPS} or more (e.g. {free_id()})"
        )  # fmt: skip
    if split != expected:
        raise MapError(src, "split", f"map {map_id} belongs to split {expected!r}, got {split!r}")
    if size is not None and not 1 <= size <= C.TEAM_SIZE:
        raise MapError(src, "team_size", f"must be 1-5 or null, got {size}")
    if split == "curriculum" and size is None:
        raise MapError(src, "team_size", "a curriculum map needs its stage's team size (1-5)")
    if not doc["name"].strip():
        raise MapError(src, "name", "must not be empty")


def _end_arrays(src, doc: dict) -> tuple[np.ndarray, np.ndarray]:
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


def occupancy(spec: MapSpec, step: float = 0.1) -> np.ndarray:
    """(ny, nx) bool grid of points covered by an obstacle (no body radius); e.g. for IoU."""
    return blocked_grid(spec.obstacles, 0.0, step)


# --- Validation ------------------------------------------------------------------------------
def _pad_name(end: int, k: int) -> str:
    return f"pads[{k}]" if end == 0 else f"pads[{k}] (east mirror)"


def _check_obstacles(src, rows: np.ndarray, names: list[str]) -> None:
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


def _check_crowding(src, rows: np.ndarray) -> None:
    """No 1 x 1 cell has more obstacles within a body's reach than collisions test (RULES 1.3)."""
    x, y = C.CELL_CENTRES[:, 0], C.CELL_CENTRES[:, 1]
    counts = disc_overlaps(rows, x, y, C.CELL_REACH).sum(axis=0)
    worst = int(np.argmax(counts)) if len(counts) else 0
    if len(rows) and counts[worst] > C.CELL_OBSTACLES:
        col, row = worst % C.GRID_COLS, worst // C.GRID_COLS
        raise MapError(
            src,
            "obstacles",
            f"{int(counts[worst])} obstacles come within a body's reach of the cell "
            f"[{col}, {col + 1}] x [{row}, {row + 1}]; at most {C.CELL_OBSTACLES} may",
        )


def _check_symmetry(src, rows: np.ndarray, names: list[str]) -> None:
    """Every obstacle's mirror image about x = 10 is also an obstacle of the map."""
    images = mirror_rows(rows)
    for image, name in zip(images, names, strict=True):
        near = (np.abs(rows[:, 1] - image[1]) < 1e-4) & (np.abs(rows[:, 2] - image[2]) < 1e-4)
        if not any(same_shape(image, rows[j]) for j in np.flatnonzero(near)):
            raise MapError(src, name, "has no mirror image about x = 10 (the map must be mirrored)")


def _check_pads(src, pads: np.ndarray, rows: np.ndarray, names: list[str]) -> None:
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


def _check_reachable(src, pads: np.ndarray, rows: np.ndarray) -> None:
    """Every pad reaches every other for a disc of radius 0.5 (4-connected grid at 0.05)."""
    comps = pad_components(rows, pads)
    known = comps[comps > 0]
    main = int(np.bincount(known).argmax()) if known.size else -1
    for n in np.flatnonzero(comps != main):
        where = _pad_name(n // C.TEAM_SIZE, n % C.TEAM_SIZE)
        raise MapError(
            src, where, "unreachable: a disc of radius 0.5 cannot walk to the other pads"
        )


# --- Loading ---------------------------------------------------------------------------------
def map_from_dict(doc, source: object = "<map>") -> MapSpec:
    """Parse and validate one map document (the JSON object of a map file). Raises MapError."""
    src = Path(source) if not isinstance(source, Path) else source
    doc = _parse(src, doc)
    _check_identity(src, doc)
    entries = doc["obstacles"]
    rows = np.array([_obstacle_row(src, f"obstacles[{i}]", e) for i, e in enumerate(entries)])
    rows = rows.reshape(-1, C.OBSTACLE_FEATURES).astype(np.float32)
    if doc["mirror"]:
        rows, names = _mirror_authored(src, rows)
    else:
        names = [f"obstacles[{i}]" for i in range(len(rows))]
    _check_obstacles(src, rows, names)
    _check_crowding(src, rows)
    if not doc["mirror"]:  # mirrored files are symmetric by construction
        _check_symmetry(src, rows, names)
    pads, zones = _end_arrays(src, doc)
    _check_pads(src, pads, rows, names)
    _check_reachable(src, pads, rows)
    for array in (rows, pads, zones):
        array.setflags(write=False)
    return MapSpec(
        id=doc["id"],
        name=doc["name"],
        split=doc["split"],
        team_size=doc["team_size"],
        description=doc["description"],
        obstacles=rows,
        pads=pads,
        red_zones=zones,
        source=src,
    )


def load_map_file(path: str | os.PathLike) -> MapSpec:
    """Read, parse and validate one map file (JSON, maps/README.md). Raises MapError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise MapError(path, "(file)", f"cannot read it: {error.strerror or error}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        reason = f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise MapError(path, "(file)", reason) from None
    return map_from_dict(doc, path)


def _map_files() -> dict[str, list[Path]]:
    """MAPS_DIR's map files by their 3-digit id prefix (one directory listing per folder)."""
    return _listing(MAPS_DIR)


# Keyed by folder, not read once: a MAPS_DIR swapped (tests, MBG_MAPS_DIR in one process) can
# never leave another folder's listing or maps behind, even if a thread reads during the swap.
@functools.lru_cache(maxsize=8)
def _listing(folder: Path) -> dict[str, list[Path]]:
    index: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("[0-9][0-9][0-9]_*.json")):
        index.setdefault(path.name[:3], []).append(path)
    return index


def clear_map_caches() -> None:
    """Forget every folder listing and loaded map (after map files change on disk)."""
    _listing.cache_clear()
    _load_from.cache_clear()


def map_path(map_id: int) -> Path:
    """The file of a shipped map id: MAPS_DIR/NNN_<slug>.json. Raises MapError if not one."""
    return _file_in(MAPS_DIR, map_id)


def _file_in(folder: Path, map_id: int) -> Path:
    files = _listing(folder).get(f"{map_id:03d}", [])
    if len(files) != 1:
        found = "no file" if not files else f"{len(files)} files"
        raise MapError(folder / f"{map_id:03d}_*.json", "id", f"{found} for map {map_id}")
    return files[0]


def load_map(map_id: int) -> MapSpec:
    """The validated map with this id from MAPS_DIR (cached per folder; arrays read-only)."""
    if isinstance(map_id, bool) or not isinstance(map_id, int | np.integer) or map_id < 0:
        raise ValueError(f"map id must be an integer >= 0, got {map_id!r}")
    return _load_from(MAPS_DIR, int(map_id))


@functools.lru_cache(maxsize=256)
def _load_from(folder: Path, map_id: int) -> MapSpec:
    path = _file_in(folder, map_id)
    spec = load_map_file(path)
    if spec.id != map_id:
        raise MapError(path, "id", f"the file name says map {map_id}, the field says {spec.id}")
    return spec


def same_layout(a: MapSpec, b: MapSpec) -> bool:
    """Whether two maps have the same obstacles, pads and Red Zones (names aside)."""
    pairs = ((a.obstacles, b.obstacles), (a.pads, b.pads), (a.red_zones, b.red_zones))
    return all(x.shape == y.shape and np.array_equal(x, y) for x, y in pairs)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def free_id() -> int:
    """The lowest custom id (52 or more) that no NNN_<slug>.json file in MAPS_DIR uses."""
    used = {int(key) for key in _map_files()}
    return next(i for i in range(NUM_MAPS, NUM_MAPS + len(used) + 1) if i not in used)


def load_map_path(path: str | os.PathLike) -> MapSpec:
    """A map file named by its path (in maps/ or anywhere), validated like a shipped map.

    Its id may belong to a map of MAPS_DIR (e.g. the shipped ids 0-51) only if the file is that
    map (same obstacles, pads and Red Zones), since replays and pools record the id. Raises
    MapError naming the file, the field and the reason.
    """
    path = Path(path)
    spec = load_map_file(path)
    owners = _map_files().get(f"{spec.id:03d}", [])
    if len(owners) != 1 or _same_file(owners[0], path):
        return spec  # no map of MAPS_DIR has this id (several: `mbg maps validate` says so)
    shipped = load_map(spec.id)
    if not same_layout(spec, shipped):
        raise MapError(
            path,
            "id",
            f"{spec.id} is the id of {owners[0].name} ({shipped.name}), a different map; give "
            f'this one an unused id of {NUM_MAPS} or more (e.g. {free_id()}) and split "custom"',
        )
    return spec


def is_map_path(part: object) -> bool:
    """Whether a selection part names a map file: a Path, or text holding a path separator or
    ending in ".json" ("my_map.json", "maps/x.json"); ids, ranges and splits never do."""
    if isinstance(part, os.PathLike):
        return True
    if not isinstance(part, str):
        return False
    text = part.strip()
    separators = {"/", os.sep, os.altsep} - {None}
    return any(s in text for s in separators) or text.lower().endswith(".json")


def selection_parts(maps: object) -> list:
    """A selection split into its parts: "validation,47,a.json" -> ["validation", "47",
    "a.json"]; a list gives its items; a path to an existing file stays whole (it may hold a
    comma); anything else is one part."""
    if isinstance(maps, str) and "," in maps and not Path(maps.strip()).is_file():
        return [part.strip() for part in maps.split(",")]
    if isinstance(maps, Sequence | range | np.ndarray) and not isinstance(maps, str):
        return [part for item in maps for part in selection_parts(item)]
    return [maps.strip() if isinstance(maps, str) else maps]


def load_maps(maps: object) -> tuple[MapSpec, ...]:
    """Load every map of a selection, in order: anything `resolve_maps` takes, map file paths
    (`is_map_path`) and "custom" (the files of `custom_map_files`, by id), e.g.
    "validation,my_maps/arena.json". Two maps of different layouts may not share an id.
    Raises ValueError, or MapError naming the file, the field and the reason.
    """
    specs: list[MapSpec] = []
    for part in selection_parts(maps):
        if is_map_path(part):
            specs.append(load_map_path(part))
        elif part == CUSTOM_SPLIT:
            found = [load_map_path(path) for path in custom_map_files()]
            if not found:
                raise ValueError(f"maps {CUSTOM_SPLIT!r}: no map files added to {MAPS_DIR}")
            specs.extend(sorted(found, key=lambda s: (s.id, s.source.name)))
        else:
            specs.extend(load_map(i) for i in resolve_maps(part))
    seen: dict[int, MapSpec] = {}
    for spec in specs:
        first = seen.setdefault(spec.id, spec)
        if not same_layout(first, spec):
            raise MapError(
                spec.source, "id", f"{spec.id} is also the id of {first.source}, a different map"
            )
    return tuple(specs)


def custom_map_files() -> list[Path]:
    """JSON files in MAPS_DIR besides the shipped ids 0-51 (a user's own maps: NNN_<slug>.json
    with NNN >= 52, or any other name), sorted by name. Only the NNN_ ones load by id."""
    shipped = {p for key, files in _map_files().items() if int(key) < NUM_MAPS for p in files}
    return sorted(p for p in MAPS_DIR.glob("*.json") if p.is_file() and p not in shipped)


# --- Splits and selections -------------------------------------------------------------------
def split_of(map_id: int) -> str:
    """The split a map id belongs to (A5); ids of 52 and more are user maps, split "custom"."""
    for name, ids in SPLITS.items():
        if map_id in ids:
            return name
    return CUSTOM_SPLIT


def split_ids(split: str) -> list[int]:
    """Ids of a split: "curriculum", "train", "validation", "test" or "all" (0-51)."""
    if split == "all":
        return list(range(NUM_MAPS))
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; use one of {', '.join([*SPLITS, 'all'])}")
    return list(SPLITS[split])


def _ids_from_text(text: str) -> list[int]:
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            bounds = (int(low), int(high)) if dash else (int(part), int(part))
        except ValueError:
            raise ValueError(f"maps {text!r}: {part!r} is not an id, a range or a split") from None
        if bounds[0] > bounds[1]:
            raise ValueError(f"maps {text!r}: range {part!r} runs backwards")
        ids.extend(range(bounds[0], bounds[1] + 1))
    return ids


def resolve_maps(spec: object) -> list[int]:
    """Map ids from a selection: an int id, a split name ("train", "all", ...), a string of ids,
    ranges and split names ("47", "3,5,12-15", "validation,47"), or a list of any of these.
    Raises ValueError."""
    if isinstance(spec, bool):
        raise ValueError(f"maps {spec!r}: expected ids or a split name")
    if isinstance(spec, int | np.integer):
        ids = [int(spec)]
    elif isinstance(spec, str) and "," in spec:  # each part an id, a range or a split
        ids = [i for part in spec.split(",") for i in resolve_maps(part)]
    elif is_map_path(spec):  # a file has no id until it is read: load_maps takes files
        raise ValueError(f"maps {str(spec)!r}: a map file; here only ids, ranges and splits")
    elif isinstance(spec, str):
        text = spec.strip()
        if text == CUSTOM_SPLIT:  # files, whose ids are known once read: load_maps takes them
            raise ValueError(f"maps {text!r}: the added map files; here only ids, ranges, splits")
        ids = split_ids(text) if text in SPLITS or text == "all" else _ids_from_text(text)
    elif isinstance(spec, Sequence | range | np.ndarray):
        ids = [i for item in spec for i in resolve_maps(item)]
    else:
        raise ValueError(f"maps {spec!r}: expected ids or a split name")
    if not ids or min(ids) < 0:
        raise ValueError(f"maps {spec!r}: expected at least one id, all >= 0")
    return ids


def make_pool(
    maps: object = "train", rosters: Sequence = ("MWHRP",), p_east: float = 0.5
) -> "Pool":
    """The auto-reset `Pool` (A10) for a map selection (anything `load_maps` takes, map files
    included, or loaded MapSpecs), rosters (strings such as "MWHRP/MWHRP" or (10,) class ids)
    and the probability that Team A spawns east. At most 64 maps and 64 rosters. Raises
    ValueError."""
    specs = (
        tuple(maps)
        if isinstance(maps, Sequence) and maps and all(isinstance(m, MapSpec) for m in maps)
        else load_maps(maps)
    )
    return pack_pool(
        [m.obstacles for m in specs],
        list(rosters),
        pads=[m.pads for m in specs],
        red_zones=[m.red_zones for m in specs],
        map_ids=[m.id for m in specs],
        p_east=p_east,
    )


def render_ascii(spec: MapSpec) -> list[str]:
    """The map as 22 lines of 82 characters (see `engine.map_geometry.ascii_picture`)."""
    return ascii_picture(spec.obstacles, spec.pads, spec.red_zones)
