"""Curriculum stages: the maps, team sizes and winning score of each training stage (A5).

The built-in `CURRICULUM` walks the curriculum maps 0-11 from 1v1 to 5v5 while obstacles grow
from none to many (each map file's `team_size` names its stage's size). Define your own stages
with `make_stage(...)` or in a JSON/TOML file read by `load_curriculum(path)`::

    {"stages": [{"name": "lanes 3v3", "maps": "15,16,20-22", "team_sizes": [3],
                 "score_threshold": 12}]}

`maps` takes anything `engine.maps.resolve_maps` does: ids, ranges, split names.
A stage's score threshold is a static `Config` field, so switching to a stage with another
threshold recompiles a jitted step; switching maps or rosters within a stage does not.
"""

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine import constants as C
from engine.maps import make_pool, refuse_scenario_arenas, resolve_maps

if TYPE_CHECKING:
    from engine.types import Pool

MAX_POOL = C.MAX_POOL

CLASS_ORDER = C.CLASS_LETTERS  # "MWHRP"


@dataclass(frozen=True)
class Stage:
    """One curriculum stage. map_ids: maps drawn at reset; team_sizes: n for nvn games (1-5);
    score_threshold: points that win a game of this stage. Raises ValueError when invalid."""

    name: str
    map_ids: tuple[int, ...]
    team_sizes: tuple[int, ...]
    score_threshold: int

    def __post_init__(self):
        where = f"stage {self.name!r}"
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"{where}: name must be a non-empty string")
        if not self.map_ids or not 1 <= len(self.map_ids) <= MAX_POOL:
            raise ValueError(f"{where}: map_ids needs 1-{MAX_POOL} ids, got {self.map_ids!r}")
        if any(not _is_int(i) or i < 0 for i in self.map_ids):
            raise ValueError(f"{where}: map_ids must be integers >= 0, got {self.map_ids!r}")
        refuse_scenario_arenas(self.map_ids, where)
        if not self.team_sizes or any(
            not _is_int(n) or not 1 <= n <= C.TEAM_SIZE for n in self.team_sizes
        ):
            raise ValueError(f"{where}: team_sizes must be 1-5, got {self.team_sizes!r}")
        if not _is_int(self.score_threshold) or self.score_threshold < 1:
            raise ValueError(f"{where}: score_threshold must be >= 1, got {self.score_threshold!r}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_stage(
    name: str, maps: object, team_sizes: int | Sequence[int], score_threshold: int
) -> Stage:
    """A user stage; `maps` is any selection `resolve_maps` accepts ("train", "12-20", [3, 5])."""
    sizes = (team_sizes,) if _is_int(team_sizes) else tuple(team_sizes)
    return Stage(name, tuple(resolve_maps(maps)), sizes, score_threshold)


# Thresholds grow with team size: a 1v1 produces about a fifth of a 5v5's deaths.
CURRICULUM: tuple[Stage, ...] = (
    Stage("1v1", (0, 1), (1,), 5),
    Stage("2v2", (2, 3), (2,), 8),
    Stage("3v3", (4, 5, 6), (3,), 12),
    Stage("4v4", (7, 8), (4,), 16),
    Stage("5v5", (9, 10, 11), (5,), C.SCORE_THRESHOLD),
)


def stage_rosters(stage: Stage, classes: str = CLASS_ORDER) -> list[str]:
    """Mirrored rosters for a stage: for each team size n, every run of n consecutive letters
    of `classes` read cyclically ("MW", "WH", "HR", "RP", "PM" for n = 2), as "MW/MW"."""
    rosters: list[str] = []
    for n in stage.team_sizes:
        for start in range(len(classes)):
            team = "".join(classes[(start + k) % len(classes)] for k in range(n))
            if f"{team}/{team}" not in rosters:
                rosters.append(f"{team}/{team}")
    return rosters


def stage_pool(stage: Stage, rosters: Sequence | None = None, p_east: float = 0.5) -> "Pool":
    """The auto-reset pool of a stage: its maps and `rosters` (default `stage_rosters`)."""
    return make_pool(stage.map_ids, list(rosters or stage_rosters(stage)), p_east)


def load_curriculum(path: str | Path) -> tuple[Stage, ...]:
    """Stages from a JSON or TOML file ({"stages": [{name, maps, team_sizes, score_threshold}]}).
    Raises ValueError naming the file, the stage entry and the field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        doc = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot read a curriculum: {error}") from None
    entries = doc.get("stages") if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: field 'stages': expected a non-empty list of stages")
    stages = []
    for i, entry in enumerate(entries):
        keys = ("name", "maps", "team_sizes", "score_threshold")
        if not isinstance(entry, dict) or sorted(entry) != sorted(keys):
            raise ValueError(f"{path}: field 'stages[{i}]': needs exactly the keys {keys}")
        try:
            stages.append(make_stage(*(entry[k] for k in keys)))
        except (TypeError, ValueError) as error:
            raise ValueError(f"{path}: field 'stages[{i}]': {error}") from None
    return tuple(stages)
