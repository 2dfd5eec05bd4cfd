"""Command-line video export: `replay-viewer FILE --export OUT ...` and `mbg replay export`.

Both share the options below (`add_export_options`) and print one line per problem naming the
file and the option at fault (exit status 2, bad input, as every refusal in cli.main; `mbg
replay export` tries every file first). A rich progress bar runs on stderr. Never imports JAX.
"""

import argparse
import dataclasses
import sys
from pathlib import Path

from evaluation.replay import ReplayError, read_replay, replay_paths
from fileio import output_file, output_folder
from replay_viewer.video_writers import VideoError, check_format


def add_export_options(parser, view: bool = True, end_flag: str = "--to", whose="the replay's"):
    """The export options: --from, `end_flag` (the batch's --to names its folder, so its last
    tick is --until), [--view], --fps, --ticks-per-second, --captions/--no-captions, --size,
    --no-animation. `whose`: the replay the tick defaults name in the help."""
    first = f"first game tick, as the viewer shows it ({whose} first)"
    parser.add_argument("--from", dest="start", type=int, metavar="T", help=first)
    parser.add_argument(end_flag, dest="end", type=int, metavar="T",
                        help=f"last game tick ({whose} end)")  # fmt: skip
    if view:
        parser.add_argument("--view", default="oracle", help="oracle | agent:0-9|A0-B4 | team:A|B")
    parser.add_argument("--fps", type=int, default=30, help="frames a second (30)")
    parser.add_argument("--ticks-per-second", type=float, default=4.0, metavar="N",
                        help="playback speed in ticks a second (4)")  # fmt: skip
    parser.add_argument("--captions", action=argparse.BooleanOptionalAction, default=True,
                        help="the tick's events in words under the arena (on)")  # fmt: skip
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="pixels (1280x720)")
    parser.add_argument("--no-animation", dest="animate", action="store_false",
                        help="hold each tick instead of in-between frames")  # fmt: skip


def options_from_args(args):
    """VideoOptions from parsed arguments; ValueError (VideoError) naming the bad option."""
    from replay_viewer.video import VideoOptions, parse_size
    from ui.scene import parse_view

    try:
        view = parse_view(args.view)
    except ValueError as error:
        raise VideoError(f"--view: {error}") from None
    return VideoOptions(
        view=view,
        start=args.start,
        end=args.end,
        fps=args.fps,
        ticks_per_second=args.ticks_per_second,
        captions=args.captions,
        size=parse_size(args.size),
        animate=args.animate,
    )


def export_one(source, out, options, quiet: bool = False, replay=None) -> Path:
    """Exports one replay (VideoOptions; `replay`: the file's Replay when already read) with a
    progress bar on stderr; returns the path written. Raises FileExistsError, VideoError,
    ReplayError or OSError (nothing is left)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from replay_viewer.video import VideoExport

    job = VideoExport(source, out, options, replay=replay)
    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=True, disable=quiet) as bar:
        task = bar.add_task(Path(out).name, total=job.total)
        job.run(lambda done, total: bar.update(task, completed=done))
    return Path(out)


def warn_edited_result(command: str, source, replay) -> None:
    """One stderr line for each header `result` field the recorded game contradicts (a file
    edited by hand): the video's cards show the game's own result (replay_viewer.model
    .game_result), so a viewer of the video would not see the header's claim is false."""
    from replay_viewer.model import game_result

    for line in game_result(replay)[1]:
        print(
            f"{command}: warning: {source}: {line}; the video shows what the game gives",
            file=sys.stderr,
        )


def warn_other_rules(command: str, source, replay) -> None:
    """One stderr line for a replay recorded under other rules than this engine's, naming both
    versions (evaluation.replay_verify.rules_note): the video draws its recorded states, which
    this engine could not re-simulate."""
    from evaluation.replay_verify import rules_note

    note = rules_note(replay.header, "the video shows its recorded states")
    if note:
        print(f"{command}: warning: {source}: {note}", file=sys.stderr)


def problem_line(source, error: Exception) -> str:
    """One line for a failed export: the replay file, then the reason."""
    if isinstance(error, ReplayError):
        return f"{error.source}: {error.field}: {error.problem}"
    if isinstance(error, FileExistsError):  # names the video, not the replay
        return str(error)
    return f"{source}: {error}"


def run_viewer_export(args) -> int:
    """`replay-viewer FILE --export OUT`: 0 when written, 2 with one stderr line otherwise."""
    if not args.path:
        print("replay-viewer: --export needs a replay file", file=sys.stderr)
        return 2
    if Path(args.path).is_dir():
        print(f"replay-viewer: --export needs a replay file, not a folder ({args.path}); "
              "mbg replay export FOLDER --to DIR exports a folder", file=sys.stderr)  # fmt: skip
        return 2
    try:  # before the replay is read and drawn: an empty path, a folder, a path below a file
        out = output_file(args.export, "--export")
    except (ValueError, OSError) as error:
        print(f"replay-viewer: {error}", file=sys.stderr)
        return 2
    try:
        options = options_from_args(args)
        replay = read_replay(args.path)
        written = export_one(args.path, out, options, replay=replay)
    except (FileExistsError, VideoError, ReplayError, OSError) as error:
        print(f"replay-viewer: {problem_line(args.path, error)}", file=sys.stderr)
        return 2
    warn_edited_result("replay-viewer", args.path, replay)
    warn_other_rules("replay-viewer", args.path, replay)
    print(written)
    return 0


def register_batch(actions):
    """Adds `mbg replay export` to the `mbg replay` subcommands; returns its parser (cli.replay
    adds --recursive, as for info and verify)."""
    parser = actions.add_parser("export", help="replays as GIF or MP4 videos, one a replay")
    parser.add_argument("paths", nargs="+", help="*.mbgr files or folders of them")
    parser.add_argument("--to", dest="folder", required=True, metavar="DIR",
                        help="folder for the videos (made if missing)")  # fmt: skip
    parser.add_argument("--format", choices=("gif", "mp4"), default="gif", help="gif (default)")
    add_export_options(parser, end_flag="--until", whose="each replay's")
    parser.set_defaults(func=run_batch, recursive=False)
    return parser


def _export_folder(to: str):
    """--to as the folder the batch writes into (fileio.output_folder). A new path named like a
    video (`out.mp4`) is refused: the batch names each video after its replay, and a folder
    called out.mp4 is not what was meant. Raises ValueError or OSError naming --to."""
    folder = output_folder(to, "--to")
    if not folder.exists() and folder.suffix.lower() in (".gif", ".mp4"):
        raise ValueError(
            f"--to {to}: is the folder the videos go into (each is named after its replay); "
            "name a folder, or export one replay with `replay-viewer FILE --export OUT`"
        )
    return folder


def run_batch(args) -> int:
    """Every replay the arguments name -> DIR/<stem>_t<from>-<to>_<view>.<format>; each failure
    (unreadable replay, existing video, a range the replay does not hold) one stderr line, the
    rest go on. Returns 0, or 2 when some failed, the arguments name no replay or the options
    are bad (each a refused input, as cli.main counts them)."""
    from replay_viewer.video import default_name

    try:  # options wrong for every file (a frame rate, a size, a missing extra): said once
        options = dataclasses.replace(options_from_args(args), end_option="--until")
        check_format(f"video.{args.format}", options.fps, options.size)
        if None not in (options.start, options.end) and options.end <= options.start:
            # The batch's last tick is --until (its --to is the folder), so say it by that name
            raise VideoError(
                f"--from {options.start} --until {options.end}: the range needs at least one tick"
            )
    except VideoError as error:
        print(f"mbg replay export: {error}", file=sys.stderr)
        return 2
    try:  # a file in the folder's place would fail every replay, each with a bare OSError
        folder, failed, files = _export_folder(args.folder), 0, []
    except (OSError, ValueError) as error:  # an empty, too long or unwritable --to
        print(f"mbg replay export: {error}", file=sys.stderr)
        return 2
    for name in args.paths:
        try:
            files += replay_paths([name], recursive=args.recursive)
        except OSError as error:
            print(f"mbg replay export: {name}: {error}", file=sys.stderr)
            failed += 1
    for path in files:
        try:
            replay = read_replay(path)
            ticks = replay.states["tick"]  # game ticks: a scenario's replay starts later
            start = int(ticks[0]) if options.start is None else options.start
            end = int(ticks[-1]) if options.end is None else options.end
            out = folder / default_name(path, options.view, start, end, f".{args.format}")
            print(export_one(path, out, options, replay=replay))
            warn_edited_result("mbg replay export", path, replay)
            warn_other_rules("mbg replay export", path, replay)
        except (FileExistsError, VideoError, ReplayError, OSError, KeyError, TypeError) as error:
            print(f"mbg replay export: {problem_line(path, error)}", file=sys.stderr)
            failed += 1
    if not files:
        return 2
    if failed:
        print(f"mbg replay export: {failed} of {len(files)} failed", file=sys.stderr)
        return 2
    return 0
