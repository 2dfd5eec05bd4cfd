"""Driving the BattleClient App in tests: post events, pump frames, wait for the engine thread."""

import time

import pygame

from battleclient import layout as L
from battleclient.game_setup import ClientSetup

GAME_TICKS = 6  # the horizon of every engine game in these tests (one compiled Config)
RANDOM = "A*=random,B*=random"


def setup(slots: str = RANDOM, **changes) -> ClientSetup:
    return ClientSetup(map="47", slots=slots, horizon=GAME_TICKS, **changes)


def frame(app, events=(), dt: float = 1 / 60):
    """Handle `events`, update, let pygame_gui's own events land, draw; returns the surface."""
    app.handle_events(list(events))
    app.update(dt)
    for _ in range(2):
        app.handle_events(pygame.event.get())
        app.update(0.0)
    surface = pygame.Surface(L.SIZE)
    app.draw(surface)
    return surface


def wait_for(app, predicate, seconds: float = 600.0, dt: float = 1 / 60):
    """Pump frames until predicate() holds (the engine thread works meanwhile)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        frame(app, dt=dt)
        if predicate():
            return True
        time.sleep(0.01)
    raise AssertionError("timed out waiting for the client")


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def click(pos, button=1):
    return [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
    ]


def make_app(game_setup, *, start=True, **kwargs):
    from battleclient.app import App

    app = App(game_setup, start=start, warm=False, **kwargs)
    app.launch = FakeLaunch()
    return app


class FakeLaunch:
    """Stands in for subprocess.Popen: records the Replay Viewer commands."""

    def __init__(self):
        self.commands = []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        return None


def orders_ready(app):
    screen = app.screen
    return getattr(screen, "phase", "") in ("orders", "over") and not screen.waiting


def post_events(app, events) -> None:
    """Puts `events` on SDL's event queue and runs two frames that read it, as a person's
    clicks and keys arrive."""
    for event in events:
        pygame.event.post(event)
    frame(app, pygame.event.get())
    frame(app)


def move_mouse(app, pos) -> None:
    """Moves the pointer to `pos` (window pixels) as a person's mouse does: SDL's own motion
    (SDL_WarpMouseInWindow, which the dummy driver turns into a motion event on the queue and
    the pointer position pygame.mouse.get_pos reads), then a frame that reads the queue."""
    pygame.mouse.set_pos(pos)
    frame(app, pygame.event.get())


def hover(app, seconds: float, dt: float = 0.1) -> None:
    """Frames of `dt` seconds for `seconds` with the pointer still (pygame_gui's tooltip
    delay counts these)."""
    for _ in range(round(seconds / dt)):
        frame(app, pygame.event.get(), dt=dt)


def scenario_one_folder(root, monkeypatch):
    """A scenarios folder under `root` holding shipped scenario 1 and the arenas, made the one
    the client lists (evaluation.scenarios.SCENARIOS_DIR); returns it."""
    import shutil

    from evaluation import scenarios as S

    shipped = S.SCENARIOS_DIR
    target = root / "scenarios"
    shutil.copytree(shipped / "arenas", target / "arenas")
    shutil.copy(shipped / "001_hold_the_trap.json", target)
    monkeypatch.setattr(S, "SCENARIOS_DIR", target)
    return target


def lobby_with_fake_compiles(monkeypatch, compiled: set, jobs: list):
    """A lobby App (human A0, random rest) whose start-up warm-up reports Ready for its own
    rules at once, whose background compiles only append their setup to `jobs`, and whose
    rules count as compiled when their Max ticks is in `compiled`; Ready already shown."""
    from battleclient.app import App

    def warm(progress, s, maps):
        progress.stage(f"Ready: the engine is compiled for Max ticks {s.horizon}", 1.0)
        progress.done = True
        return ""

    monkeypatch.setattr("battleclient.app.warm_up", warm)
    monkeypatch.setattr("battleclient.app.prepare_rules", lambda p, s, m: jobs.append(s) or "")
    monkeypatch.setattr("battleclient.app.rules_compiled_now", lambda s: s.horizon in compiled)
    app = App(setup("A0=human,A1-A4=random,B*=random"), start=False, warm=True)
    app.launch = FakeLaunch()
    wait_for(app, lambda: app.progress.done and app.progress.text.startswith("Ready"), 300)
    return app
