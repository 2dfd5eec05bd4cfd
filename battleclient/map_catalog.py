"""The maps the lobby lists: the shipped ones and every map file added to the maps folder.

Only names, splits, descriptions and the ASCII preview are read here, straight from the JSON
files (fast, no validation); the engine thread loads and validates the chosen map with
`load_choice`. The files are the ones engine.maps lists: `map_path(id)` for the shipped ids
0-51 and `custom_map_files()` for the rest (split "custom", maps/README.md "Your own maps"), in
engine.maps.MAPS_DIR ($MBG_MAPS_DIR, else the `maps/` folder next to `engine/`).
"""

import json
from dataclasses import dataclass
from pathlib import Path

from battleclient.game_setup import SPLIT_NAMES
from engine import maps as map_files  # NumPy/SciPy only, no JAX


@dataclass(frozen=True)
class MapEntry:
    """One map file: id, name, split, one-line description, ASCII preview lines (may be empty).

    by_id: whether the file loads by its id (MAPS_DIR/NNN_<slug>.json, NNN its id, the only file
    with that prefix); other files are chosen, and loaded, by their path."""

    id: int
    name: str
    split: str
    description: str
    preview: tuple[str, ...]
    path: Path
    by_id: bool = True

    @property
    def choice(self) -> str:
        """The setup's map text for this map: its id, or its file's path."""
        return str(self.id) if self.by_id else str(self.path)

    @property
    def label(self) -> str:
        text = f"{self.id:03d} {self.name} ({self.split})"
        return text if self.by_id else f"{text} {self.path.name}"  # two files may share an id


def _loads_by_id(path: Path, map_id: int) -> bool:
    try:
        return map_files.map_path(map_id) == path
    except (map_files.MapError, ValueError):
        return False


def read_entry(path: Path) -> MapEntry | None:
    """The entry of one map file, or None when it cannot be read (the engine says why when the
    map is chosen)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        map_id = int(doc["id"])
        return MapEntry(
            id=map_id,
            name=str(doc["name"]),
            split=str(doc["split"]),
            description=str(doc.get("description", "")),
            preview=tuple(str(line) for line in doc.get("preview", ())),
            path=Path(path),
            by_id=_loads_by_id(Path(path), map_id),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def map_file_paths() -> list[Path]:
    """The shipped map files (ids 0-51 that have one) and the files added to the maps folder."""
    shipped = []
    for map_id in range(map_files.NUM_MAPS):
        try:
            shipped.append(map_files.map_path(map_id))
        except map_files.MapError:
            continue  # missing or doubled: `mbg maps validate` reports it
    return shipped + map_files.custom_map_files()


def read_catalog() -> list[MapEntry]:
    """Every readable map file, by id then file name. Unreadable files are left out."""
    entries = [entry for path in map_file_paths() if (entry := read_entry(path)) is not None]
    return sorted(entries, key=lambda e: (e.id, e.path.name))


def maps_by_split(entries) -> dict[str, list]:
    """split name -> its maps in catalog order: the id (int) of a map that loads by id, else the
    file's path (str). The input of game_setup.pick_map."""
    out: dict[str, list] = {}
    for entry in entries:
        out.setdefault(entry.split, []).append(entry.id if entry.by_id else entry.choice)
    return out


def same_file(a, b) -> bool:
    """Whether two paths name one file (False when either is missing)."""
    try:
        return Path(a).samefile(Path(b))
    except OSError:
        return False


def find_entry(entries, choice) -> MapEntry | None:
    """The entry of a pick_map result or a setup's map text: an id matches a by-id entry, a path
    the entry of that file; None when no entry matches."""
    text = str(choice)
    if text.isdigit():
        return next((e for e in entries if e.by_id and e.id == int(text)), None)
    return next((e for e in entries if e.choice == text or same_file(e.path, text)), None)


def load_choice(choice):
    """The validated MapSpec of a pick_map result: engine.maps.load_map(id), or
    load_map_path(path) for a file (its id may be a shipped map's only if it is that map).
    Raises MapError naming the file, the field and the reason, or ValueError."""
    if isinstance(choice, str):
        return map_files.load_map_path(choice)
    return map_files.load_map(int(choice))


def settle_map(setup, catalog):
    """(setup, note): a setup whose map id has no file any more, or whose map file is gone, gets
    the default map (the ClientSetup default, else the first map) and a note saying so; anything
    else is kept.

    Splits are kept as they are (they are drawn from whatever maps exist)."""
    if map_files.is_map_path(setup.map):
        gone = not Path(setup.map).is_file()
        what = f"The map file {setup.map} of your last game is gone"
    else:
        gone = setup.map.isdigit() and find_entry(catalog, setup.map) is None
        what = f"Map {setup.map} of your last game no longer exists"
    if not gone or not catalog:
        return setup, ""
    default = type(setup)().map
    entry = next((e for e in catalog if e.choice == default), catalog[0])
    note = f"{what}; using {entry.label} instead (pick another map above)."
    return setup.replace(map=entry.choice), note


RANDOM = "Random map from: "  # the map menu's entries that draw a map from a split


def map_menu_choices(catalog, by_split: dict, choice: str) -> tuple[list, dict[str, str]]:
    """(entries, {menu text: setup map text}) of the lobby's map menu for a setup whose map is
    `choice`: the splits that have maps (and the setup's own split), every map of the catalog
    (shipped and added to maps/), and a map file given by path (--map FILE) that is not in the
    maps folder."""
    splits = [s for s in SPLIT_NAMES if s == "all" or s == choice or by_split.get(s)]
    entries = list(catalog)
    outside = map_files.is_map_path(choice) and find_entry(entries, choice) is None
    if outside:
        extra = read_entry(Path(choice))
        entries += [extra] if extra is not None else []
    choices = {f"{RANDOM}{s}": s for s in splits}
    choices.update({e.label: e.choice for e in entries})
    if outside and find_entry(entries, choice) is None:
        choices[choice] = choice  # unreadable: Start says why
    return entries, choices


def map_label(choice: str, entries, choices: dict) -> str:
    """The map menu's text for a setup map `choice` (a split, an id or a file path)."""
    if choice in SPLIT_NAMES:
        return f"{RANDOM}{choice}"
    entry = find_entry(entries, choice)
    if entry is not None:
        return entry.label
    return choice if choice in choices else next(iter(choices))
