"""The Replay Viewer: `replay-viewer FILE|FOLDER [--tick N --view V --screenshot PNG]`,
`replay-viewer FILE --export OUT.gif|OUT.mp4 [--from T --to T --fps N ...]`.

The command line of the viewer (`replay-viewer`, `python -m replay_viewer`): argparse options,
then either a window running `replay_viewer.app.App` or, with --screenshot, one frame drawn
offscreen into a new PNG. Never imports JAX.
"""

import argparse
import os
import sys
from pathlib import Path

import pygame

from evaluation.replay import SUFFIX
from evaluation.replay_schema import tick_range
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.export import save_png
from replay_viewer.export_cli import add_export_options, run_viewer_export
from replay_viewer.folder import list_replays
from ui.scene import parse_view
from ui.window import ScaledWindow


def folder_screenshot_problem(folder: Path, argv=None) -> str:
    """One line for `--screenshot` given a folder: a frame needs one game, so it names a
    readable replay in the folder and the command that would draw it (the same options)."""
    readable = [e.path for e in list_replays(folder) if e.header is not None]
    if not readable:
        return f"--screenshot needs a replay file; {folder} holds no readable *{SUFFIX} file"
    argv = list(sys.argv[1:] if argv is None else argv)
    options = [a for a in argv if a != str(folder) and Path(a) != folder]
    command = " ".join(["replay-viewer", str(readable[0]), *options])
    more = f" (1 of {len(readable)})" if len(readable) > 1 else ""
    return f"--screenshot needs a replay file, not a folder; try: {command}{more}"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="replay-viewer", description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", help="a replay file (*.mbgr) or a folder of replays")
    parser.add_argument(
        "--tick",
        type=int,
        default=None,
        help="tick to show first (default: the replay's first): N shows the position "
        "before tick N is played; the game's tick count (e.g. 40) shows its end, after the "
        "last tick (39); a scenario replay counts the game's ticks too (it starts at its "
        "start tick, e.g. 294)",
    )
    parser.add_argument("--view", default="oracle", help="oracle | agent:0-9|A0-B4 | team:A|B")
    parser.add_argument(
        "--screenshot", metavar="PNG", help="render one frame of a replay file to PNG and exit"
    )
    parser.add_argument("--export", metavar="OUT", help="write a .gif or .mp4 video and exit")
    add_export_options(parser, view=False)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    """Console entry point; returns the exit code (2 for bad arguments or an unreadable file)."""
    args = parse_args(argv)
    if args.export is not None:  # an empty --export is refused, not read as no export
        return run_viewer_export(args)
    try:
        view = parse_view(args.view)
    except ValueError as error:
        print(f"replay-viewer: {error}", file=sys.stderr)
        return 2
    if args.screenshot and args.path and Path(args.path).is_dir():
        print(f"replay-viewer: {folder_screenshot_problem(Path(args.path), argv)}", file=sys.stderr)
        return 2
    if args.screenshot:
        if Path(args.screenshot).exists():
            print(f"replay-viewer: {args.screenshot}: refusing to overwrite it", file=sys.stderr)
            return 2
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    # a resizable window showing the 1280 x 800 layout at any size (ui.window)
    window = None if args.screenshot else ScaledWindow(L.SIZE, "MARL-BattleGrounds Replay Viewer")
    if args.screenshot:
        pygame.display.set_mode(L.SIZE)
    app = App(L.SIZE, animate=args.animate)
    if args.path:
        opened = app.open_path(args.path)
        if args.screenshot and (not opened or app.model is None):
            print(f"replay-viewer: {app.problem or app.message}", file=sys.stderr)
            return 2
        if app.model is not None:
            model = app.model  # --tick is the game's tick, as the tick box reads it
            first = model.first_tick
            # no --tick: the replay's own first tick (a scenario replay has no tick 0)
            index = 0 if args.tick is None else args.tick - first
            if not 0 <= index <= model.ticks:  # seek would clamp it silently
                where = tick_range(model.name, model.ticks, first)
                print(f"replay-viewer: --tick {args.tick}: {where}", file=sys.stderr)
                return 2
            model.timeline.seek(index)
            if (
                view != "oracle"
                and not app.model.replay.states["active"][0][view[1] if view[0] == "agent" else 0]
            ):
                print(
                    f"replay-viewer: {args.view}: that slot is empty in this game", file=sys.stderr
                )
                return 2
            app.model.set_view(view)
    if args.screenshot:
        app.update(0.0)
        frame = pygame.Surface(L.SIZE)
        app.draw(frame)
        try:
            save_png(frame, args.screenshot)
        except OSError as error:  # e.g. a read-only folder: one line, not a traceback
            print(f"replay-viewer: --screenshot: {error}", file=sys.stderr)
            return 2
        print(args.screenshot)
        return 0
    code = app.run(window)
    pygame.quit()
    return code


if __name__ == "__main__":
    sys.exit(main())
