"""Map files: parse, validate and pack the 52 maps into the engine's map pool (RULES_BRIEF A3-A5).

One JSON file a map under `maps/` (format in maps/README.md), e.g. `maps/047_keep.json`.
Loading validates on the host with NumPy: bounds, at most 32 obstacles, pads clear of obstacles and
of each other, every pad reachable from every other pad by a disc of radius 0.5 (grid flood fill
at 0.05 map units) and mirror symmetry about x = 10. Every error is a `MapError` naming the file,
the field and the reason.

Splits (A5, `engine.map_splits`, re-exported here): ids 0-11 curriculum, 12-41 train, 42-46
validation, 47-51 test; a user map file with an id of 52 or more has split "custom". Set
MBG_MAPS_DIR to read the shipped ids from elsewhere. Scenario arenas (ids 900-999, split
"scenario", files under `scenarios/arenas/`) are played only from scenario files: `pack_pool`,
and so every training, curriculum and evaluation pool, refuses them (the paper's scenarios are
on arenas never used in training or selection).

A map id names one layout: replays and pools record it. A file loaded by its path (anywhere) may
carry the id of a map in MAPS_DIR only if it is that map; a user's own map takes an unused id of
52 or more. Selections (`load_maps`) mix ids, ranges, splits and map file paths.
"""

import functools
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine import constants as C
from engine.map_checks import (  # noqa: F401  (MapError, FORMAT_VERSION re-exported)
    FORMAT_VERSION,
    MapError,
    check_obstacles,
    check_pads,
    check_reachable,
    check_symmetry,
    end_arrays,
    mirror_authored,
    obstacle_row,
    parse_document,
)
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
from engine.map_splits import (  # noqa: F401  (re-exported: the map API in one place)
    CUSTOM_SPLIT,
    NUM_MAPS,
    SCENARIO_IDS,
    SCENARIO_SPLIT,
    SPLITS,
    is_map_path,
    refuse_scenario_arenas,
    resolve_maps,
    selection_parts,
    split_ids,
    split_of,
)
from engine.pool import pack_pool

if TYPE_CHECKING:
    from engine.types import Pool

MAPS_DIR = Path(os.environ.get("MBG_MAPS_DIR", Path(__file__).resolve().parents[1] / "maps"))
ARENAS_DIR = Path(__file__).resolve().parents[1] / "scenarios" / "arenas"


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


# --- Identity (ids and splits know MAPS_DIR; the other document checks are engine.map_checks's)
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


def occupancy(spec: MapSpec, step: float = 0.1) -> np.ndarray:
    """(ny, nx) bool grid of points covered by an obstacle (no body radius); e.g. for IoU."""
    return blocked_grid(spec.obstacles, 0.0, step)


# --- Loading ---------------------------------------------------------------------------------
def map_from_dict(doc, source: object = "<map>") -> MapSpec:
    """Parse and validate one map document (the JSON object of a map file). Raises MapError."""
    src = Path(source) if not isinstance(source, Path) else source
    doc = parse_document(src, doc)
    _check_identity(src, doc)
    entries = doc["obstacles"]
    rows = np.array([obstacle_row(src, f"obstacles[{i}]", e) for i, e in enumerate(entries)])
    rows = rows.reshape(-1, C.OBSTACLE_FEATURES).astype(np.float32)
    if doc["mirror"]:
        rows, names = mirror_authored(src, rows)
    else:
        names = [f"obstacles[{i}]" for i in range(len(rows))]
    check_obstacles(src, rows, names)
    if not doc["mirror"]:  # mirrored files are symmetric by construction
        check_symmetry(src, rows, names)
    pads, zones = end_arrays(src, doc)
    check_pads(src, pads, rows, names)
    check_reachable(src, pads, rows)
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
        raise MapError(path, None, f"cannot read the file: {error.strerror or error}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        reason = f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise MapError(path, None, reason) from None
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


def load_arena(map_id: int) -> MapSpec:
    """The scenario arena with this id (900-999) from `scenarios/arenas/NNN_<slug>.json`.
    Raises ValueError for an id outside the range, MapError for a missing or bad file."""
    if map_id not in SCENARIO_IDS:
        raise ValueError(f"arena {map_id!r}: scenario arenas have ids 900-999")
    return _load_from(ARENAS_DIR, int(map_id))


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
