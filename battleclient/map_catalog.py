"""The list of shipped maps for the lobby, read without JAX (engine.maps pulls JAX in).

Only names, splits, descriptions and the ASCII preview are read here, straight from the JSON
files; the engine thread loads and validates the chosen map with engine.maps.load_map. The maps
folder is the one engine.maps uses: $MBG_MAPS_DIR, else the `maps/` folder next to `engine/`.
"""

import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class MapEntry:
    """One map file: id, name, split, one-line description, ASCII preview lines (may be empty)."""

    id: int
    name: str
    split: str
    description: str
    preview: tuple[str, ...]
    path: Path

    @property
    def label(self) -> str:
        return f"{self.id:03d} {self.name} ({self.split})"


def maps_dir() -> Path:
    """Where the map files are (same rule as engine.maps.MAPS_DIR)."""
    if os.environ.get("MBG_MAPS_DIR"):
        return Path(os.environ["MBG_MAPS_DIR"])
    spec = importlib.util.find_spec("engine")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the engine package is not installed")
    return Path(next(iter(spec.submodule_search_locations))).resolve().parent / "maps"


def read_catalog(folder: Path | None = None) -> list[MapEntry]:
    """Every readable `NNN_*.json` map file, by id. Unreadable files are left out (the engine
    reports them when chosen)."""
    entries = []
    for path in sorted((folder or maps_dir()).glob("[0-9][0-9][0-9]_*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            entries.append(
                MapEntry(
                    id=int(doc["id"]),
                    name=str(doc["name"]),
                    split=str(doc["split"]),
                    description=str(doc.get("description", "")),
                    preview=tuple(str(line) for line in doc.get("preview", ())),
                    path=path,
                )
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return entries


def ids_by_split(entries) -> dict[str, list[int]]:
    """split name -> sorted map ids."""
    out: dict[str, list[int]] = {}
    for entry in entries:
        out.setdefault(entry.split, []).append(entry.id)
    return {k: sorted(v) for k, v in out.items()}


def settle_map(setup, catalog):
    """(setup, note): a setup whose map id has no file any more gets the default map (the
    ClientSetup default, else the first map) and a note saying so; anything else is kept.

    Splits are kept as they are (they are drawn from whatever maps exist)."""
    ids = {entry.id for entry in catalog}
    if not setup.map.isdigit() or int(setup.map) in ids or not catalog:
        return setup, ""
    default = type(setup)().map
    entry = next((e for e in catalog if str(e.id) == default), catalog[0])
    note = (
        f"Map {setup.map} of your last game no longer exists; using {entry.label} instead "
        "(pick another map above)."
    )
    return setup.replace(map=str(entry.id)), note
