"""`mbg maps`: list, show, validate and draw the maps (engine/maps.py; maps/README.md).

    mbg maps list [--split S] [--json]          (S: a split, custom or all; all by default)
    mbg maps show ID|FILE [--png FILE] [--scale PX] [--force]
    mbg maps validate [FILE ...]                 (default: every *.json file in maps/)
    mbg maps atlas --png docs/atlas.png [--maps SELECTION] [--force]

A FILE is any map file: a path holding a separator or a name ending in .json. Files added to
maps/ besides the 52 shipped maps are listed with split "custom", and selections take "custom"
for all of them. PNGs are drawn with pygame
offscreen (SDL_VIDEODRIVER=dummy) and written atomically; an existing file is only replaced with
--force.
"""

import argparse
import json
import os
import re
import sys
from pathlib import Path

from engine import maps as M
from fileio import output_file

MAPS_HELP = "map ids, ranges, splits or map files"  # what map_specs reads, in every --help
SCALE = 40  # pixels a map unit in `show --png`
ATLAS_SCALE, ATLAS_COLUMNS, ATLAS_MARGIN, LABEL_H = 16, 6, 12, 22
COLOURS = {
    "ground": (36, 40, 48),
    "red_zone": (78, 38, 44),
    "axis": (70, 74, 84),
    "wall": (168, 172, 182),
    "pillar": (112, 168, 204),
    "pad_west": (90, 150, 255),
    "pad_east": (255, 140, 90),
    "text": (232, 232, 236),
    "page": (22, 24, 30),
}
SPLIT_COLOURS = {
    "curriculum": (120, 200, 120),
    "train": (120, 160, 235),
    "validation": (235, 190, 90),
    "test": (235, 105, 105),
    "custom": (200, 200, 200),
}


# --- Drawing (pygame, offscreen) -------------------------------------------------------------
def _pygame():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    return pygame


def draw_map(surface, spec: M.MapSpec, left: int, top: int, scale: float) -> None:
    """Draw `spec` north-up into `surface` with its south-west corner at (left, top + 10 scale)."""
    pg = _pygame()

    def px(x: float, y: float) -> tuple[float, float]:
        return left + float(x) * scale, top + (10.0 - float(y)) * scale

    pg.draw.rect(surface, COLOURS["ground"], (left, top, 20 * scale, 10 * scale))
    for x0, y0, x1, y1 in spec.red_zones:
        if x1 > x0:
            ax, ay = px(x0, y1)
            size = float(x1 - x0) * scale, float(y1 - y0) * scale
            pg.draw.rect(surface, COLOURS["red_zone"], (ax, ay, *size))
    pg.draw.line(surface, COLOURS["axis"], px(10, 0), px(10, 10), 1)
    for row in spec.obstacles:
        if row[0] == 1:
            pg.draw.circle(surface, COLOURS["pillar"], px(row[1], row[2]), float(row[3]) * scale)
        else:
            pg.draw.polygon(surface, COLOURS["wall"], [px(x, y) for x, y in M.wall_corners(row)])
    font = pg.font.Font(None, max(12, int(scale * 0.8)))
    for end, colour in ((0, COLOURS["pad_west"]), (1, COLOURS["pad_east"])):
        for k, (x, y) in enumerate(spec.pads[end]):
            pg.draw.circle(surface, colour, px(x, y), 0.5 * scale, max(1, int(scale / 10)))
            label = font.render(str(k), True, colour)
            surface.blit(label, label.get_rect(center=px(x, y)))


def _save_png(pg, surface, path: str | Path, force: bool) -> Path:
    """Write atomically (`fileio.atomic`); refuse to replace a file without force."""
    import io

    from fileio import replace_file, write_new_file

    path = Path(path)
    buffer = io.BytesIO()
    pg.image.save(surface, buffer, "png")
    if force:
        return replace_file(path, buffer.getvalue())
    return write_new_file(path, buffer.getvalue(), "exists; pass --force to replace it")


def render_png(spec: M.MapSpec, path: str | Path, scale: int = SCALE, force: bool = False) -> Path:
    """One map as a PNG of 20 x 10 map units at `scale` pixels a unit."""
    pg = _pygame()
    surface = pg.Surface((20 * scale, 10 * scale))
    draw_map(surface, spec, 0, 0, scale)
    return _save_png(pg, surface, path, force)


def render_atlas(specs: list[M.MapSpec], path: str | Path, force: bool = False) -> Path:
    """All maps on one sheet, one row block per split, each tile labelled id, name and split."""
    pg = _pygame()
    tile_w, tile_h = 20 * ATLAS_SCALE, 10 * ATLAS_SCALE + LABEL_H
    groups = [[s for s in specs if s.split == name] for name in [*M.SPLITS, M.CUSTOM_SPLIT]]
    groups = [g for g in groups if g]
    rows = sum(-(-len(g) // ATLAS_COLUMNS) for g in groups)
    width = ATLAS_COLUMNS * (tile_w + ATLAS_MARGIN) + ATLAS_MARGIN
    height = rows * (tile_h + ATLAS_MARGIN) + len(groups) * (LABEL_H + ATLAS_MARGIN) + ATLAS_MARGIN
    sheet = pg.Surface((width, height))
    sheet.fill(COLOURS["page"])
    font = pg.font.Font(None, 22)
    top = ATLAS_MARGIN
    for group in groups:
        split = group[0].split
        title = f"{split} ({group[0].id}-{group[-1].id})"
        sheet.blit(font.render(title, True, SPLIT_COLOURS[split]), (ATLAS_MARGIN, top))
        top += LABEL_H + ATLAS_MARGIN
        for n, spec in enumerate(group):
            row, col = divmod(n, ATLAS_COLUMNS)
            x = ATLAS_MARGIN + col * (tile_w + ATLAS_MARGIN)
            y = top + row * (tile_h + ATLAS_MARGIN)
            size = f"  {spec.team_size}v{spec.team_size}" if spec.team_size else ""
            text = f"{spec.id:02d} {spec.name}{size}  [{spec.num_obstacles}]"
            sheet.blit(font.render(text, True, SPLIT_COLOURS[split]), (x, y + 2))
            draw_map(sheet, spec, x, y + LABEL_H, ATLAS_SCALE)
        top += -(-len(group) // ATLAS_COLUMNS) * (tile_h + ATLAS_MARGIN)
    return _save_png(pg, sheet, path, force)


# --- Commands --------------------------------------------------------------------------------
def _summary(spec: M.MapSpec) -> dict:
    return {
        "id": spec.id,
        "name": spec.name,
        "split": spec.split,
        "team_size": spec.team_size,
        "obstacles": spec.num_obstacles,
        "description": spec.description,
        "file": spec.source.name,
    }


def shipped_ids() -> list[int]:
    """Ids that have a map file in M.MAPS_DIR (NNN_<slug>.json), sorted."""
    return sorted({int(p.name[:3]) for p in M.MAPS_DIR.glob("[0-9][0-9][0-9]_*.json")})


def id_ranges(ids: list[int]) -> str:
    """Sorted ids as compact ranges: [0, 1, 2, 5] -> "0-2, 5"."""
    parts: list[list[int]] = []
    for i in ids:
        if parts and i == parts[-1][1] + 1:
            parts[-1][1] = i
        else:
            parts.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in parts)


def _valid_text(option: str) -> str:
    """What a selection may hold (--split: no map files)."""
    splits = ", ".join([*M.SPLITS, M.CUSTOM_SPLIT, "all"])
    text = f"valid ids: {id_ranges(shipped_ids())}; splits: {splits}"
    return text if option == "--split" else f"{text}; or a map file (a path, or NAME.json)"


def map_ids(selection: str, option: str = "--maps", shown: str | None = None) -> list[int]:
    """Ids of a command-line map selection (ids, ranges or a split), each with a map file.

    Checked here so that the user reads which id is unknown and what is valid, rather than the
    engine's file pattern. Raises ValueError naming the option, the value (`shown`, default the
    selection) and the valid ids and splits, e.g. "--maps 99: unknown map id 99; valid ids: ...".
    """
    shown = selection if shown is None else shown
    try:
        ids = M.resolve_maps(selection)
    except ValueError as error:
        raise ValueError(f"{option} {shown}: {error}; {_valid_text(option)}") from None
    known = set(shipped_ids())
    unknown = [i for i in dict.fromkeys(ids) if i not in known]
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        listed = ", ".join(map(str, unknown))
        valid = _valid_text(option)
        raise ValueError(f"{option} {shown}: unknown map id{plural} {listed}; {valid}")
    return ids


def map_specs(selection: str, option: str = "--maps") -> list[M.MapSpec]:
    """The maps of a command-line selection: ids, ranges, splits and map file paths, mixed
    ("validation,my_maps/arena.json"). Unknown ids are named before any file is read; a bad
    file raises MapError naming the file, the field and the value."""
    parts = M.selection_parts(selection)
    ids_text = ",".join(str(p) for p in parts if not M.is_map_path(p) and p != M.CUSTOM_SPLIT)
    if ids_text:
        map_ids(ids_text, option, shown=selection)
    return list(M.load_maps(parts))


def add_maps_option(parser: argparse.ArgumentParser, default: str, old: str | None = None) -> None:
    """Adds `--maps SELECTION` (read with map_specs) in the words every command shows for it;
    `old`, a former name of the option, still sets it but is left out of --help."""
    parser.add_argument(
        "--maps", default=default, metavar="SELECTION", help=f"{MAPS_HELP} ({default})"
    )
    if old is not None:
        parser.add_argument(old, dest="maps", help=argparse.SUPPRESS)


def _load(target: str) -> M.MapSpec:
    """A map by id ("47") or by file path. Raises ValueError for anything else."""
    if M.is_map_path(target) or Path(target).is_file():
        return M.load_map_path(target)
    if target.strip().isdigit():
        return M.load_map(map_ids(target, "map")[0])
    known = id_ranges(shipped_ids())
    raise ValueError(
        f"map {target!r}: not a map id ({known}) nor a map file (a path, or NAME.json)"
    )


def _custom_maps() -> tuple[list[M.MapSpec], list[M.MapError]]:
    """The user's maps in maps/ beyond the shipped ids (split "custom"), by id, and the errors of
    those that do not load."""
    specs, errors = [], []
    for path in M.custom_map_files():
        try:
            specs.append(M.load_map_path(path))
        except M.MapError as error:
            errors.append(error)
    return sorted(specs, key=lambda s: (s.id, s.source.name)), errors


def cmd_list(args: argparse.Namespace) -> int:
    """The maps of a split ("custom": the files added to maps/; "all": shipped and custom).
    Returns 1 when some file in maps/ could not be loaded (each is named on stderr)."""
    custom = args.split.strip() == M.CUSTOM_SPLIT  # listed even when some fail to load
    specs = [] if custom else list(M.load_maps(map_ids(args.split, "--split")))
    errors: list[M.MapError] = []
    if custom or args.split.strip() == "all":
        extra, errors = _custom_maps()
        specs += extra
    rows = [_summary(s) for s in specs]
    for error in errors:
        print(f"mbg maps list: skipped {error} (see mbg maps validate)", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 1 if errors else 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"MARL-BattleGrounds maps ({args.split}: {len(rows)})")
    files = any(s.split == M.CUSTOM_SPLIT for s in specs)  # shipped file names say nothing new
    columns = ("id", "name", "split", "team size", "obstacles", "description", "file")
    for column in columns[: len(columns) - (not files)]:
        table.add_column(column, overflow="fold", no_wrap=column == "file")
    for r in rows:
        size = f"{r['team_size']}v{r['team_size']}" if r["team_size"] else "any"
        cells = (r["id"], r["name"], r["split"], size, r["obstacles"], r["description"], r["file"])
        table.add_row(*map(str, cells[: len(columns) - (not files)]))
    Console().print(table)
    return 1 if errors else 0


def _check_png(path: str, force: bool) -> None:
    """Refuse `--png PATH` before anything is drawn or printed (so the error is not lost above
    the map): empty, a folder, an existing file without --force, or a path through a file
    (fileio.output_file). Raises ValueError or OSError naming the option."""
    output_file(path, "--png", force, "exists; pass --force to replace it")


def _write_png(render, path: str, *args) -> Path:
    """render(*args) (render_png, render_atlas), with a file that cannot be written named by its
    option ("--png PATH: Permission denied"). Raises OSError."""
    try:
        return render(*args)
    except OSError as error:
        raise OSError(f"--png {path}: {error.strerror or error}") from None


def cmd_show(args: argparse.Namespace) -> int:
    spec = _load(args.map)
    if args.png is not None:
        _check_png(args.png, args.force)
    size = f", {spec.team_size}v{spec.team_size}" if spec.team_size else ""
    print(f"map {spec.id}: {spec.name} ({spec.split}{size}, {spec.num_obstacles} obstacles)")
    print(spec.description)
    print("\n".join(M.render_ascii(spec)))
    print("# wall   O pillar   0-4 pad k of each end   . Red Zone")
    if args.png:
        print(f"wrote {_write_png(render_png, args.png, spec, args.png, args.scale, args.force)}")
    return 0


_NUMBERED = re.compile(r"^(\d{3})_.*\.json$")


def _folder_check(path: Path, spec: M.MapSpec, claimed: dict[int, M.MapSpec]) -> None:
    """A file of maps/ in its folder: an NNN_ name agrees with the id and is the only file of
    that id; any other file's id is not another map's. Raises MapError."""
    numbered = _NUMBERED.match(path.name)
    if numbered and int(numbered.group(1)) != spec.id:
        reason = f"the file name says map {int(numbered.group(1))}, the field says {spec.id}"
        raise M.MapError(path, "id", reason)
    files = M._map_files().get(f"{spec.id:03d}", [])
    if numbered and len(files) > 1:
        names = ", ".join(f.name for f in files)
        raise M.MapError(path, "id", f"map {spec.id} has {len(files)} files ({names}); keep one")
    if not numbered:
        M.load_map_path(path)  # not the layout of the NNN_ file with its id
    first = claimed.setdefault(spec.id, spec)
    if not M.same_layout(first, spec):
        raise M.MapError(path, "id", f"{spec.id} is also the id of {first.source.name}")


def cmd_validate(args: argparse.Namespace) -> int:
    """Validate the named files (default: every *.json in maps/, with the folder's own checks);
    one line a file; returns 1 when any failed."""
    folder = not args.files
    targets = sorted(M.MAPS_DIR.glob("*.json")) if folder else [Path(f) for f in args.files]
    failed, claimed = 0, {}
    for target in targets:
        try:
            spec = M.load_map_file(target) if folder else M.load_map_path(target)
            if folder:
                _folder_check(target, spec, claimed)
            custom = " (custom)" if spec.split == M.CUSTOM_SPLIT else ""
            print(f"ok    {target}  (map {spec.id}{custom}, {spec.num_obstacles} obstacles)")
        except M.MapError as error:
            print(f"FAIL  {error}")
            failed += 1
    print(f"{len(targets) - failed} of {len(targets)} map files valid")
    return 1 if failed else 0


def cmd_atlas(args: argparse.Namespace) -> int:
    specs = map_specs(args.maps, "--maps")
    _check_png(args.png, args.force)
    path = _write_png(render_atlas, args.png, specs, args.png, args.force)
    print(f"wrote {path}")
    return 0


def register(subparsers) -> None:
    """Add `mbg maps` and its subcommands."""
    parser = subparsers.add_parser("maps", help="list, show, validate and draw maps")
    sub = parser.add_subparsers(dest="maps_command", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="a table of the maps and their splits")
    p.add_argument(
        "--split",
        default="all",
        help="curriculum, train, validation, test, custom (files added to maps/) or all",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("show", help="draw one map as ASCII (and optionally a PNG)")
    p.add_argument("map", help="a map id (0-51) or a map file (a path, or NAME.json)")
    p.add_argument("--png", metavar="FILE", help="also save the map as a PNG")
    p.add_argument("--scale", type=int, default=SCALE, help="PNG pixels a map unit")
    p.add_argument("--force", action="store_true", help="replace an existing PNG")
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("validate", help="load and validate map files, naming every fault")
    p.add_argument("files", nargs="*", help="map files (default: every *.json in maps/)")
    p.set_defaults(func=cmd_validate)
    p = sub.add_parser("atlas", help="draw every map on one PNG sheet")
    p.add_argument("--png", metavar="FILE", required=True, help="where to write the sheet")
    add_maps_option(p, "all")
    p.add_argument("--force", action="store_true", help="replace an existing PNG")
    p.set_defaults(func=cmd_atlas)
