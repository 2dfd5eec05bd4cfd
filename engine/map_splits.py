"""Map splits and selections: which split an id belongs to (RULES_BRIEF A5) and the map ids a
selection names ("train", "3,5,12-15", "validation,47"), without reading any map file.

Ids 0-11 curriculum, 12-41 train, 42-46 validation, 47-51 test; 52 and more "custom" (a user's
own maps); 900-999 "scenario" (arenas played only from scenario files, never pooled).
`engine.maps` re-exports every name here: it is the map API in one place.
"""

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

NUM_MAPS = 52
SPLITS = {
    "curriculum": range(0, 12),
    "train": range(12, 42),
    "validation": range(42, 47),
    "test": range(47, 52),
}
CUSTOM_SPLIT = "custom"
SCENARIO_SPLIT = "scenario"
SCENARIO_IDS = range(900, 1000)


def split_of(map_id: int) -> str:
    """The split a map id belongs to (A5); 900-999 are scenario arenas, split "scenario"; other
    ids of 52 and more are user maps, split "custom"."""
    for name, ids in SPLITS.items():
        if map_id in ids:
            return name
    return SCENARIO_SPLIT if map_id in SCENARIO_IDS else CUSTOM_SPLIT


def refuse_scenario_arenas(map_ids, where: str) -> None:
    """Raise ValueError when a pool (`where`) would hold a scenario arena (split "scenario")."""
    bad = sorted({int(i) for i in map_ids if int(i) in SCENARIO_IDS})
    if bad:
        raise ValueError(
            f"{where}: map {bad[0]} is a scenario arena (ids 900-999); scenario arenas are never "
            "trained, validated or tested on (play them with `mbg scenarios`)"
        )


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
