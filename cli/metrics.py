"""`mbg metrics`: game metrics of replays, or the metric catalog, as a table, CSV, Parquet or JSON.

mbg metrics game.mbgr --level full --search heal
mbg metrics runs/replays/ --level priority --format csv --out priority.csv
mbg metrics --catalog --format md > docs/METRICS.md
"""

import argparse
import io
import sys
from pathlib import Path

FORMATS = ("table", "csv", "parquet", "json", "md")


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


# What the table of a replay of other rules holds (evaluation.replay_verify.rules_note)
FROM_RECORDING = {
    False: "its metrics are computed from its recorded states and events",
    True: "its stored metrics were computed when it was recorded",
}


def _game_frame(path: Path, level: str, stored: bool):
    """One game's metrics table (game column = the path as given); a replay of other rules
    than this engine's is measured as recorded, with a stderr warning naming both rules
    versions. Raises ValueError/OSError."""
    import polars as pl

    from evaluation.metrics import compute_metrics, level_ids
    from evaluation.replay import read_replay
    from evaluation.replay_verify import rules_note

    replay = read_replay(path)
    if not stored:
        frame = compute_metrics(replay, level, game=str(path))
    elif replay.metrics is None:
        raise ValueError(f"{path}: metrics: none stored (recorded with level none)")
    else:
        kept = replay.metrics.filter(pl.col("metric").is_in(list(level_ids(level))))
        frame = kept.with_columns(pl.lit(str(path)).alias("game"))
    note = rules_note(replay.header, FROM_RECORDING[stored])
    if note:
        print(f"mbg metrics: warning: {path}: {note}", file=sys.stderr)
    return frame


def game_table(paths: list[str], level: str, stored: bool = False, on_error=None):
    """One metrics table for all games; the game column is each file's path as given.

    on_error(path, error): called for a replay that cannot be read or measured (ValueError,
    e.g. evaluation.replay.ReplayError, or OSError), which is then left out; without it the
    first such error is raised.
    """
    import polars as pl

    from evaluation.metrics import empty_frame
    from evaluation.replay import replay_paths

    frames = []
    for path in replay_paths(paths):
        try:
            frames.append(_game_frame(path, level, stored))
        except (ValueError, OSError) as error:
            if on_error is None:
                raise
            on_error(path, error)
    return pl.concat(frames) if frames else empty_frame()


def _reason(path: Path, error: Exception) -> str:
    """The error's text without a leading "PATH: " (the caller names the file itself)."""
    text = str(error)
    return text.removeprefix(f"{path}: ")


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


NAME_CHARS = 40  # a game's name in a table of several: at most this many characters


def short_names(paths: list[str]) -> dict[str, str]:
    """Each path's shortest end that no other path shares (its file name, with as many of
    its folders as tell it apart), cut to NAME_CHARS characters by ui.elide.elide_path; the
    uncut ends when cutting would make two names equal."""
    from ui.elide import CHARS, elide_path

    parts = {path: Path(path).parts for path in paths}
    ends = {}
    for path, own in parts.items():
        for k in range(1, len(own) + 1):
            end = str(Path(*own[-k:]))
            if all(str(Path(*other[-k:])) != end for p, other in parts.items() if p != path):
                break
        ends[path] = end
    cut = {path: elide_path(end, CHARS, NAME_CHARS) for path, end in ends.items()}
    return cut if len(set(cut.values())) == len(cut) else ends


def games_heading(paths: list[str]) -> str:
    """The line above a printed table that names its replays: "replay: PATH" for one (the
    table then has no game column), else how many and the folder they share."""
    import os

    if len(paths) == 1:
        return f"replay: {paths[0]}"
    try:
        common = os.path.commonpath([str(Path(p).parent) for p in paths])
    except ValueError:  # absolute and relative paths mixed: no folder in common
        common = ""
    under = f" under {common}" if common not in ("", ".") else ""
    return f"replays: {len(paths)}{under} (game: the end of its path that tells it apart)"


def game_view(frame, paths: list[str]) -> tuple[str, object]:
    """(heading, frame) of a printed table of the games `paths`: one game's path once in the
    heading and no game column; several games each named by short_names."""
    import polars as pl

    if len(paths) == 1:
        return games_heading(paths), frame.drop("game")
    names = short_names(paths)
    short = pl.col("game").replace_strict(names, return_dtype=pl.String)
    return games_heading(paths), frame.with_columns(short)


def _note_no_match(frame, args) -> None:
    """Says on stderr when --search kept nothing, so an empty table is not read as a game
    without such metrics: a misspelt word, or a metric of another --level."""
    if args.search and frame.is_empty():
        where = "in the catalog" if args.catalog else f"at --level {args.level}"
        print(
            f"mbg metrics: no metric {where} matches --search {args.search!r}"
            " (mbg metrics --catalog lists every id)",
            file=sys.stderr,
        )


def _catalog_data(args) -> bytes:
    from evaluation.metrics.docs import catalog_frame, catalog_markdown

    if args.fmt == "md":
        return catalog_markdown().encode()
    frame = catalog_frame()
    for token in args.search.lower().split():
        frame = frame.filter(frame["id"].str.to_lowercase().str.contains(token, literal=True))
    _note_no_match(frame, args)
    return render(frame, args.fmt)


def _games_data(args) -> tuple[bytes | None, list[Path]]:
    """The rendered table of the readable replays (None when none was) and the skipped files.

    Each unreadable replay is reported on stderr with its reason, and the rest go on."""
    from evaluation.metrics import search
    from evaluation.replay import replay_paths

    if not args.paths:
        raise ValueError("name at least one replay or folder (or use --catalog)")
    files, failed = replay_paths(args.paths), []

    def skip(path: Path, error: Exception) -> None:
        failed.append(path)
        print(f"mbg metrics: skipped {path}: {_reason(path, error)}", file=sys.stderr)

    frame = search(game_table([str(f) for f in files], args.level, args.stored, skip), args.search)
    if len(failed) == len(files):
        print(f"mbg metrics: no replay could be read ({len(files)} tried)", file=sys.stderr)
        return None, failed
    _note_no_match(frame, args)
    if args.fmt != "table":  # files for programs keep each game's path as given
        return render(frame, args.fmt), failed
    heading, shown = game_view(frame, [str(f) for f in files if f not in failed])
    return (heading + "\n").encode() + render(shown, args.fmt), failed


def run(args) -> int:
    """Entry point of `mbg metrics`: 0, or 2 when some replay could not be read (bad input, the
    status of every refusal in cli.main; each one is named on stderr, the others still make
    the table)."""
    from fileio import output_file, write_new_file

    out = None if args.out is None else output_file(args.out, "--out")  # before the replays
    data, failed = (_catalog_data(args), []) if args.catalog else _games_data(args)
    if data is None:
        return 2
    if out is not None:
        write_new_file(out, data, "already exists; choose another --out")
    elif args.fmt == "parquet":
        raise ValueError("--format parquet is binary: give --out FILE")
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if failed:
        plural = "s" if len(failed) > 1 else ""
        print(f"mbg metrics: skipped {len(failed)} unreadable replay{plural}", file=sys.stderr)
        return 2
    return 0
