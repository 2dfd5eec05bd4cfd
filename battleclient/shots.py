"""Regenerate the README screenshots of the BattleClient: `python -m battleclient.shots [DIR]`.

Plays Team A by posting the same key presses a player would (select an agent with 1-5, move
with D, target with T, Ultimate with U, Space to end the turn) against the tactician bot,
offscreen, and saves client_orders.png (orders being given) and client_resolution.png (a tick
that just resolved: moves, damage and healing numbers, banner, log). DIR defaults to
assets/screenshots; existing files are replaced only with --force.
"""

import argparse
import io
import os
import sys
import time
from pathlib import Path

from fileio import replace_file, write_new_file

SETUP = dict(map="47", slots="A*=human,B*=scripted:tactician", seed=7)
LAST_TICK = 16  # the orders screenshot shows this tick's orders being given


def _pump(app, frames=3):
    import pygame

    from battleclient import layout as L

    surface = pygame.Surface(L.SIZE)
    for _ in range(frames):
        app.handle_events(pygame.event.get())
        app.update(1 / 60)
        app.draw(surface)
    return surface


def _press(app, key):
    import pygame

    app.handle_events([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")])
    return _pump(app, 1)


def _wait_orders(app, limit=900.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        _pump(app, 1)
        screen = app.screen
        if getattr(screen, "phase", "") in ("orders", "over") and not screen.waiting:
            return screen.phase == "orders"
        time.sleep(0.01)
    raise TimeoutError("the game did not reach its next orders")


def _give_orders(app, engage: bool):
    """Every agent walks east (D) and, once in reach, targets (T) and fires its Ultimate (U)."""
    import pygame

    screen = app.screen
    for k in range(5):
        _press(app, pygame.K_1 + k)
        _press(app, pygame.K_d)
        if engage and screen.books[0].legal_targets(screen.selected, False):
            _press(app, pygame.K_t)
        if engage and screen.books[0].can_ult(screen.selected):
            _press(app, pygame.K_u)


def make_shots(folder: Path, force: bool = False) -> list[Path]:
    import pygame

    from battleclient.app import App
    from battleclient.game_setup import ClientSetup

    targets = [folder / "client_orders.png", folder / "client_resolution.png"]
    taken = [p for p in targets if p.exists() and not force]
    if taken:
        raise FileExistsError(f"{taken[0]} exists; pass --force to replace it")
    app = App(ClientSetup(**SETUP), start=True, warm=False, remember=False)
    try:
        best, resolution, orders = 0, None, None
        while _wait_orders(app) and app.screen.snap.tick < LAST_TICK:
            floats = len(app.screen.scenes[0].floats)
            if floats > best:  # the busiest resolution, caught mid-move
                app.screen.since, app.screen.message = 0.3, ""
                best, resolution = floats, _pump(app, 1).copy()
            _give_orders(app, engage=app.screen.snap.tick >= 4)
            if app.screen.snap.tick == LAST_TICK - 1:
                _press(app, pygame.K_1)
                app.screen.since, app.screen.message = 5.0, ""
                orders = _pump(app, 1).copy()
            _press(app, pygame.K_SPACE)
        if orders is None or resolution is None:
            raise RuntimeError(f"the game ended before tick {LAST_TICK}; try another seed")
        for path, surface in zip(targets, (orders, resolution), strict=True):
            buffer = io.BytesIO()
            pygame.image.save(surface, buffer, "png")
            write = replace_file if force else write_new_file
            write(path, buffer.getvalue())
        return targets
    finally:
        app.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m battleclient.shots", description=__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=Path("assets/screenshots"))
    parser.add_argument("--force", action="store_true", help="replace existing screenshots")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from battleclient import layout as L

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(L.SIZE)
    try:
        for path in make_shots(args.folder, args.force):
            print(path)
    except (FileExistsError, RuntimeError, TimeoutError) as error:
        print(f"shots: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
