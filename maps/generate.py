"""Write the 52 map files from the design table in maps/designs.py (fixed seed; rerunnable).

    .venv/bin/python maps/generate.py            # rewrite maps/NNN_<slug>.json
    .venv/bin/python maps/generate.py --check    # exit 1 if a committed file differs

Each design authors the west half (x <= 10); the loader mirrors it. Every file is validated by
`engine.maps.map_from_dict` before it is written, and carries an ASCII preview.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import maps as M  # noqa: E402
from fileio import replace_file  # noqa: E402
from maps.designs import DESIGNS  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_PADS = [[1.5, y] for y in (1.5, 3.25, 5.0, 6.75, 8.5)]
DEFAULT_RED_ZONE = [0.0, 0.0, 4.0, 10.0]


def _num(value: float) -> float | int:
    rounded = round(float(value), 3)
    return int(rounded) if rounded.is_integer() else rounded


def _obstacle(entry: dict) -> dict:
    return {k: (v if isinstance(v, str) else _num(v)) for k, v in entry.items()}


def build_doc(design: dict) -> dict:
    """A design (id, name, slug, team_size, description, obstacles) -> a map document."""
    doc = {
        "format": M.FORMAT_VERSION,
        "id": design["id"],
        "name": design["name"],
        "split": M.split_of(design["id"]),
        "team_size": design.get("team_size"),
        "description": design["description"],
        "mirror": True,
        "obstacles": [_obstacle(o) for o in design["obstacles"]],
        "pads": DEFAULT_PADS,
        "red_zone": DEFAULT_RED_ZONE,
    }
    spec = M.map_from_dict(doc, f"design {design['id']} ({design['name']})")
    doc["preview"] = M.render_ascii(spec)
    return doc


def dump(doc: dict) -> str:
    """JSON with one obstacle, pad or preview line per text line (readable diffs)."""
    lines = ["{"]
    items = list(doc.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if isinstance(value, list) and value:
            inner = [json.dumps(v) for v in value]
            body = ",\n".join(f"    {v}" for v in inner)
            if key == "red_zone":
                lines.append(f'  "{key}": {json.dumps(value)}{comma}')
            else:
                lines.append(f'  "{key}": [\n{body}\n  ]{comma}')
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    return "\n".join(lines + ["}"]) + "\n"


def _write(path: Path, text: str) -> None:
    """Atomic write over `path` with an ordinary file's mode (`fileio.replace_file`): map
    files are read by everyone who checks out or installs the project."""
    replace_file(path, text.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    ids = [d["id"] for d in DESIGNS]
    if sorted(ids) != list(range(M.NUM_MAPS)):
        raise SystemExit(f"designs must cover ids 0-51 once each, got {sorted(ids)}")
    stale = 0
    for design in DESIGNS:
        path = HERE / f"{design['id']:03d}_{design['slug']}.json"
        text = dump(build_doc(design))
        others = [p for p in HERE.glob(f"{design['id']:03d}_*.json") if p != path]
        if args.check:
            if others or not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"differs: {path.name}")
                stale += 1
            continue
        for other in others:
            other.unlink()
        _write(path, text)
    print(f"{len(DESIGNS) - stale} of {len(DESIGNS)} map files up to date" if args.check else "")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
