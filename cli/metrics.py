"""`mbg metrics`: game metrics of replays, or the metric catalog, as a table, CSV, Parquet or JSON.

mbg metrics game.mbgr --level full --search heal
mbg metrics runs/replays/ --level priority --format csv --out priority.csv
mbg metrics --catalog --format md > docs/METRICS.md
"""

import argparse
import io
import os
import sys
import tempfile
from pathlib import Path

FORMATS = ("table", "csv", "parquet", "json", "md")
REPLAY_SUFFIX = ".mbgr"


def register(subparsers) -> None:
    """Adds the `metrics` subcommand."""
    parser = subparsers.add_parser(
        "metrics",
        help="game metrics of replays (or a folder of replays), or the metric catalog",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="*", metavar="REPLAY_OR_FOLDER", help="*.mbgr files or folders"
    )
    parser.add_argument("--level", choices=("none", "priority", "full"), default="full")
    parser.add_argument(
        "--search",
        default="",
        metavar="TEXT",
        help="keep metrics whose id contains every word; @N keeps slot (or team) N",
    )
    parser.add_argument("--format", choices=FORMATS, default="table", dest="fmt")
    parser.add_argument("--out", metavar="FILE", help="write here (never over an existing file)")
    parser.add_argument("--catalog", action="store_true", help="list the catalog instead")
    parser.add_argument(
        "--stored", action="store_true", help="use the metrics stored in each replay"
    )
    parser.set_defaults(func=run)


def replay_files(paths: list[str]) -> list[Path]:
    """The replay files named by paths: files as given, folders searched for *.mbgr (sorted)."""
    files = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.rglob(f"*{REPLAY_SUFFIX}"))
            if not found:
                raise FileNotFoundError(f"{path}: no {REPLAY_SUFFIX} files in this folder")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return files


def game_table(paths: list[str], level: str, stored: bool = False):
    """One metrics table for all games; the game column is each file's path as given."""
    import polars as pl

    from evaluation.metrics import compute_metrics, empty_frame, level_ids
    from evaluation.replay import read_replay

    frames = []
    for path in replay_files(paths):
        replay = read_replay(path)
        if stored:
            if replay.metrics is None:
                raise ValueError(f"{path}: metrics: none stored (recorded with level none)")
            kept = replay.metrics.filter(pl.col("metric").is_in(list(level_ids(level))))
            frames.append(kept.with_columns(pl.lit(str(path)).alias("game")))
        else:
            frames.append(compute_metrics(replay, level, game=str(path)))
    return pl.concat(frames) if frames else empty_frame()


def render(frame, fmt: str) -> bytes:
    """The table in a format: a printed table, CSV, Parquet, JSON rows or Markdown."""
    import polars as pl

    if fmt == "table":
        with pl.Config(tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=200, tbl_width_chars=200):
            return (str(frame) + "\n").encode()
    buffer = io.BytesIO()
    if fmt == "csv":
        frame.write_csv(buffer)
    elif fmt == "parquet":
        frame.write_parquet(buffer, compression="zstd")
    elif fmt == "json":
        frame.write_json(buffer)
    else:
        raise ValueError("--format md: only with --catalog")
    return buffer.getvalue()


def write_new(path: Path, data: bytes) -> None:
    """Writes atomically (temp file + os.replace); refuses to replace an existing file."""
    if path.exists():
        raise FileExistsError(f"{path}: already exists; choose another --out")
    handle, temp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        if path.exists():
            raise FileExistsError(f"{path}: already exists; choose another --out")
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def run(args) -> int:
    """Entry point of `mbg metrics`."""
    from evaluation.metrics import search
    from evaluation.metrics.docs import catalog_frame, catalog_markdown

    if args.catalog:
        if args.fmt == "md":
            data = catalog_markdown().encode()
        else:
            frame = catalog_frame()
            for token in args.search.lower().split():
                frame = frame.filter(
                    frame["id"].str.to_lowercase().str.contains(token, literal=True)
                )
            data = render(frame, args.fmt)
    else:
        if not args.paths:
            raise ValueError("name at least one replay or folder (or use --catalog)")
        frame = search(game_table(args.paths, args.level, args.stored), args.search)
        data = render(frame, args.fmt)
    if args.out:
        write_new(Path(args.out), data)
    elif args.fmt == "parquet":
        raise ValueError("--format parquet is binary: give --out FILE")
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0
