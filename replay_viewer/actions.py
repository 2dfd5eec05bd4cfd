"""The viewer's named actions (buttons and shortcuts share these names, replay_viewer.layout
and replay_viewer.shortcuts) and the files they write: PNG frames, high-resolution arena
pictures, and the child programs that branch from a tick (replay_viewer.launch)."""

from pathlib import Path
from types import SimpleNamespace

import pygame
from pygame_gui.windows import UIFileDialog

from evaluation.replay import SUFFIX
from replay_viewer import layout as L
from replay_viewer.branch_windows import PlayOnWindow, ScenarioWindow, slots_problem
from replay_viewer.export import save_png
from replay_viewer.folder_list import close_list
from replay_viewer.launch import default_slots, play_on_command, save_scenario_command
from replay_viewer.toolbar import view_from_label, view_options
from ui.arena import MARGIN, ArenaRenderer
from ui.panels import short_path
from ui.paths import screenshot_dir
from ui.rules import C, slot_label
from ui.scene import view_tag
from ui.score_reach import horizon_problem, horizon_warning

ARENA_PIXELS_PER_UNIT = 96  # the high-resolution arena picture: 20 x 10 map units -> 1920 x 960
# The rules of a replay whose header keeps no Config: the canonical ones (RULES 4.2, 4.3).
RULE_DEFAULTS = {
    "score_threshold": C.SCORE_THRESHOLD,
    "wave_period": C.WAVE_PERIOD,
    "shield_ticks": C.SHIELD_TICKS,
}
APP_ACTIONS = ("help", "escape", "quit", "open", "folder", "fullscreen")


def act(app, action: str, arg=None) -> None:
    """Runs one named action on the App."""
    if action in APP_ACTIONS:
        return app_action(app, action)
    if app.model is None:
        return
    tl = app.model.timeline
    if action == "play":
        tl.toggle()
    elif action == "step":
        tl.step(arg)
    elif action == "seek":
        tl.step((app.model.ticks if arg == -1 else arg) - tl.tick)
    elif action == "speed":
        tl.faster(arg)
        app.bar.rebuild_speed(tl.speed)
    elif action == "goto":
        # emptied before it takes the keyboard: pygame_gui 0.6.14 emptying a focused box leaves
        # its placeholder drawn behind what is typed next ("8tick" until the tick changes)
        app.tick_entry.set_text("")
        app.give_keyboard(app.tick_entry)
    elif action in ("view", "view_agent", "view_next"):
        change_view(app, action, arg)
    elif action == "overlay":
        app.model.overlays ^= {arg}
        state = "on" if arg in app.model.overlays else "off"
        app.say(f"Overlay {arg.replace('_', ' ')}: {state}")
    elif action in ("tab", "search"):
        app.side.act(action, arg)
    elif action in FILE_ACTIONS:
        FILE_ACTIONS[action](app)
    elif action == "animation":
        app.arena.animate = not app.arena.animate
        app.say(f"Smooth playback: {'on' if app.arena.animate else 'off'}")


def app_action(app, action: str) -> None:
    """Actions that need no replay open: help, Esc, quit, open, folder, fullscreen."""
    if action == "help":
        app.show_help = not app.show_help
    elif action == "escape":
        if app.close_windows() or close_list(app):
            return
        if app.video.cancel():
            return app.say(app.video.line)
        if app.show_help:
            app.show_help = False
        elif app.model is not None:
            app.model.selected = None
    elif action == "quit":
        app.running = False
    elif action == "open" and (app.dialog is None or not app.dialog.alive()):
        app.dialog = UIFileDialog(
            pygame.Rect(L.DIALOG), app.manager, "Open a replay or a folder", {SUFFIX},
            str(dialog_start(app)), allow_existing_files_only=True,
            allow_picking_directories=True,
        )  # fmt: skip
        app.dialog.set_blocking(True)  # modal: nothing behind it takes a click (App.modal_windows)
    elif action == "folder" and (app.folder or app.replay_path) is not None:
        app.open_path(app.folder or app.replay_path.parent)  # a file opened alone: its folder
    elif action == "fullscreen":
        toggle_fullscreen(app)


def dialog_start(app) -> Path:
    """Where Ctrl+O's file dialog opens: the folder listed, else the open replay's folder
    (the next replay is most often beside it), else the working folder."""
    if app.folder is not None:
        return Path(app.folder)
    return app.replay_path.parent if app.replay_path is not None else Path.cwd()


def toggle_fullscreen(app) -> None:
    """F11: the window fills the screen or returns; the picture scales with it, aspect kept
    (ui.window.ScaledWindow), so the layout follows."""
    if app.window is None:
        app.say("Full screen needs a window (this view is drawn offscreen)", error=True)
        return
    app.window.toggle_fullscreen()
    app.say(
        "Full screen: F11 returns" if app.window.fullscreen else "Window: drag its edge to resize"
    )


def change_view(app, action: str, arg) -> None:
    model = app.model
    if action == "view_agent":
        if not model.replay.states["active"][0][arg]:
            return app.say(f"Slot {arg} ({slot_label(arg)}) is empty in this game", error=True)
        view = ("agent", arg)
    elif action == "view_next":
        options = [view_from_label(o) for o in view_options(model)]
        view = options[(options.index(model.view) + 1) % len(options)]
    else:
        view = arg
    model.set_view(view)
    app.say(f"View: {model.view_name()}")


def new_png_path(stem: str) -> Path:
    """A PNG path in the screenshots folder (ui.paths.screenshot_dir) no file has yet."""
    folder = screenshot_dir()
    path, n = folder / f"{stem}.png", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.png"
    return path


def _save(app, surface, stem: str) -> Path | None:
    path = new_png_path(stem)
    try:
        save_png(surface, path)
    except OSError as error:  # a read-only or full disk: say so, keep the viewer running
        app.say(f"Picture not saved: {error}", error=True)
        return None
    app.say(f"Saved {short_path(path)}")
    return path


def frame_stem(model) -> str:
    return f"{Path(model.name).stem}_t{model.tick:04d}_{view_tag(model.view)}"


def export_png(app) -> Path | None:
    """Saves the last drawn frame as a new PNG in the screenshots folder, never over a file."""
    if app.last_frame is None or app.model is None:
        return None
    return _save(app, app.last_frame, frame_stem(app.model))


def arena_picture(model, pixels_per_unit: int = ARENA_PIXELS_PER_UNIT) -> pygame.Surface:
    """The arena alone (map, units, overlays of the current view and tick) drawn at
    `pixels_per_unit` pixels per map unit: a (20 u + margins) x (10 u + margins) surface."""
    size = (
        round(C.MAP_WIDTH * pixels_per_unit) + 2 * MARGIN,
        round(C.MAP_HEIGHT * pixels_per_unit) + 2 * MARGIN,
    )
    surface = pygame.Surface(size)
    ArenaRenderer().draw(surface, model.scene(), surface.get_rect())
    return surface


def export_arena(app) -> Path | None:
    """i: the arena alone at high resolution (ARENA_PIXELS_PER_UNIT) as a new PNG."""
    return _save(app, arena_picture(app.model), frame_stem(app.model) + "_arena")


def start_video(app) -> None:
    app.video.start(app.replay_path, app.model)
    app.say(app.video.line, app.video.error)


def open_play_on(app) -> None:
    """c / Play on: the window asking who plays each slot from this tick."""
    model = app.model
    slots = default_slots(
        model.replay.header["systems"], model.replay.states["active"][0], model.view
    )
    app.close_windows()
    app.branch_window = PlayOnWindow(app.manager, model.tick, slots, model.game_tick(model.tick))


def open_scenario(app) -> None:
    """x / Scenario: the window asking for the focal team and horizon of a saved position."""
    model = app.model
    focal = (
        "AB"[model.view[1] // (5 if model.view[0] == "agent" else 1)]
        if model.view != "oracle"
        else "A"
    )
    app.close_windows()
    shown, warn = model.game_tick(model.tick), position_warning(model)
    app.branch_window = ScenarioWindow(app.manager, model.tick, focal, shown, warn)


def position_warning(model):
    """(focal "A"/"B", horizon text) -> why the focal team cannot win the shown position in
    that many ticks under the replay's rules, or that the horizon is longer than a scenario may
    be (ui.score_reach.horizon_warning), or ""."""
    state, h = model.state(model.tick), model.replay.header
    known = {k: h[k] for k in ("score_threshold",) if k in h}  # the header's own field
    rules = SimpleNamespace(**{**RULE_DEFAULTS, **known, **(h.get("config") or {})})

    def warn(focal: str, horizon: str) -> str:
        if horizon_problem(horizon) or focal not in C.TEAM_NAMES:
            return horizon_problem(horizon) if horizon else ""  # in the window, as typed
        return horizon_warning(state, C.TEAM_NAMES.index(focal), int(horizon), rules)

    return warn


def branch_request(app, request) -> None:
    """Carries out a branch window's request: start the BattleClient or the scenario saver."""
    kind, tick, *values = request
    if kind == "play_on":
        if slots_problem(values[0]):
            return app.say(slots_problem(values[0]), error=True)
        # the client's --tick counts game ticks; a scenario replay's index 0 is a later tick
        game_tick = int(app.model.state(tick)["tick"])
        argv = play_on_command(app.replay_path, game_tick, values[0])
        what = f"Play on from tick {game_tick}"
    else:
        focal, horizon = values
        if horizon_problem(horizon):
            return app.say(horizon_problem(horizon), error=True)
        argv = save_scenario_command(
            app.replay_path, app.model.game_tick(tick), focal, int(horizon)
        )
        what = f"Scenario from tick {app.model.game_tick(tick)}"
    app.close_windows()
    app.last_command = argv
    app.say(app.children.start(what, argv))


FILE_ACTIONS = {
    "export": export_png,
    "arena_png": export_arena,
    "video": start_video,
    "play_on": open_play_on,
    "scenario": open_scenario,
}
