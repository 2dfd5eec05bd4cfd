"""The Replay Viewer's window: its command line is replay_viewer.cli (`replay-viewer`).

An `App` with `handle_events(events)`, `update(dt)` and `draw(surface)`; it draws into any
surface, so tests render it offscreen (SDL_VIDEODRIVER=dummy). Never imports JAX.
"""

import sys
from pathlib import Path

import pygame
import pygame_gui

from evaluation.replay import ReplayError, read_replay
from evaluation.replay_verify import rules_note
from replay_viewer import layout as L
from replay_viewer.actions import act, export_png
from replay_viewer.folder_list import hide_list, list_folder
from replay_viewer.input_events import InputHandling
from replay_viewer.launch import Children
from replay_viewer.metrics_source import replay_metrics
from replay_viewer.metrics_table import MetricsTable, display_frame
from replay_viewer.model import ViewerModel
from replay_viewer.panels import (
    draw_help,
    draw_lines,
    draw_tooltip,
    info_lines,
    tooltip_lines,
)
from replay_viewer.playback import SmoothArena, VideoRunner
from replay_viewer.problem import close_problem, show_problem
from replay_viewer.side_panel import SidePanel
from replay_viewer.story import kill_feed
from replay_viewer.timeline import draw_kill_feed
from replay_viewer.toolbar import Toolbar
from ui import modal
from ui.arena import ArenaRenderer
from ui.explain import counted
from ui.focus import take_keyboard_back
from ui.pacing import FramePacer
from ui.panels import break_words, fit_lines, is_cut
from ui.signals import EXIT_CODE as TERM_EXIT
from ui.signals import TermSignal
from ui.theme import COLOURS, GUI_THEME
from ui.window import FixedWindow

# Seconds a status message stays before the resting hint replaces it (errors stay longer).
MESSAGE_SECONDS, ERROR_SECONDS = 6.0, 15.0
RESTING_HINT = ("Open a replay: Ctrl+O", "? lists the keys; Ctrl+O opens another replay")


def opened_line(name: str, model: ViewerModel) -> tuple[str, bool]:
    """The status line on opening replay `name` and whether it is an error: its length, or
    that its header's result disagrees with its recorded game (a file edited by hand), without
    either result: an agent's view must not learn how the game ends (the Oracle's info bar
    shows the game's result). A replay of other rules says so: it is shown as recorded, and
    Play on and Scenario (which re-simulate from its state) refuse it."""
    if model.header_problems:
        return (
            f"{name}: its header's result disagrees with its recorded game; the Oracle view "
            "shows the game's (mbg replay verify names the fields)",
            True,
        )
    opened = f"Opened {name}: {counted(model.ticks, 'tick')}."
    other = rules_note(model.replay.header, "shown as recorded")
    if other:
        return f"{opened} It was {other}. ? lists the keys.", False
    return f"{opened} ? lists the keys.", False


class App(InputHandling):
    """The viewer window's logic; `surface_size` is the size of the surface `draw` gets. Its
    input (handle_events, keyboard focus) is replay_viewer.input_events."""

    def __init__(self, surface_size=L.SIZE, animate: bool = True):
        self.size = surface_size
        theme = str(GUI_THEME) if GUI_THEME.is_file() else None
        self.manager = pygame_gui.UIManager(surface_size, theme)
        # the problem window names the file in bold: load that face now, not on first use
        self.manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold"}])
        self.renderer = ArenaRenderer()
        self.font = self.renderer.font(18)
        # a message too long for the smallest is cut at a word, and hovering shows it whole
        self.status_fonts = (self.font, self.renderer.font(16), self.renderer.font(14))
        self.big_font = self.renderer.font(24)
        self.info_font = self.renderer.font(16)  # three lines over the arena (layout.INFO)
        self.small_fonts = (self.renderer.font(16), self.renderer.font(14))  # cells that are wide
        self.model: ViewerModel | None = None
        self.entries = []  # folder listing
        self.folder: Path | None = None
        self.message, self.message_is_error = RESTING_HINT[0], False
        self.message_age = 0.0  # seconds the status message has been shown
        self.show_help, self.running = False, True
        self.mouse = (0, 0)
        self.side = SidePanel(self)
        self.list_widget = None
        self.behind: ViewerModel | None = None  # the replay the folder list covers (Esc: back)
        self.dialog = None
        self.problem_window = None  # the whole reason a file did not open
        self.problem = ""  # the same reason as one line (for the command line)
        self.last_frame: pygame.Surface | None = None
        self.arena = SmoothArena(self.renderer, self.info_font, animate)
        self.replay_path: Path | None = None
        self.video = VideoRunner()  # an export running in the window's loop (Video, e)
        self.shortcut_char = ""  # the character of the shortcut being run
        self.swallow_text = ""  # ... kept when it opened a text box
        self.children = Children()  # the BattleClient and scenario saver started from here
        self.branch_window = None  # Play on / Save as scenario
        self.last_command: list[str] | None = None  # the last child program's command line
        self.bar = Toolbar(self)
        self.window = None  # the ui.window.ScaledWindow while `run` shows one
        self.side.build()

    # --- widgets (replay_viewer.toolbar) ------------------------------------------------------
    widgets = property(lambda self: self.bar.buttons)
    tick_entry = property(lambda self: self.bar.tick_entry)
    speed_menu = property(lambda self: self.bar.speed_menu)
    view_menu = property(lambda self: self.bar.view_menu)
    slider = property(lambda self: self.bar.slider)

    def close_windows(self) -> bool:
        """Closes the problem window, a branch window or the file dialog (Esc); True if one
        was open."""
        closed = False
        for window in (self.branch_window, self.dialog):
            if window is not None and window.alive():
                window.kill()
                closed = True
        self.branch_window = self.dialog = None
        return close_problem(self) or closed

    # --- opening -----------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.message, self.message_is_error, self.message_age = text, error, 0.0

    def _age_message(self, dt: float) -> None:
        """Replaces a status message older than MESSAGE_SECONDS (ERROR_SECONDS for an error)
        with the resting hint, so an old "Saved ..." or "View: ..." never reads as news."""
        self.message_age += dt
        limit = ERROR_SECONDS if self.message_is_error else MESSAGE_SECONDS
        if self.message_age >= limit and self.message not in RESTING_HINT:
            self.say(RESTING_HINT[self.model is not None])

    def open_path(self, path) -> bool:
        """Opens a replay file or lists a folder; problems become a message, never a crash."""
        path = Path(path)
        if path.is_dir():
            list_folder(self, path)
            return True
        return self.open_replay(path)

    def open_replay(self, path) -> bool:
        try:
            replay = read_replay(path)
        except (ReplayError, OSError) as error:
            show_problem(self, Path(path), error)
            return False
        close_problem(self)
        self.video.cancel()
        self.model, self.behind = ViewerModel(replay, Path(path).name), None
        self.replay_path = Path(path)
        self._hide_list()
        self.bar.build_game_widgets()
        metrics, note = replay_metrics(replay)
        classes = replay.states["class_id"][0]
        self.side.set_metrics(
            None if metrics is None else MetricsTable(display_frame(metrics, classes)), note
        )
        self.say(*opened_line(Path(path).name, self.model))
        return True

    def _hide_list(self) -> None:
        hide_list(self)

    def act(self, action: str, arg=None) -> None:
        """Runs one named action (buttons and shortcuts share the names, replay_viewer.actions)."""
        act(self, action, arg)

    def export_png(self) -> Path | None:
        """Saves the last drawn frame as a new PNG in the screenshots folder under the data
        directory (ui.paths.screenshot_dir), never over a file; the status line names it."""
        return export_png(self)

    # --- frame -------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.video.running:
            self.video.step()
            self.say(self.video.line, self.video.error)
        ended = self.children.poll()
        if ended:  # a BattleClient closed: without a window manager the keys would go nowhere
            take_keyboard_back()
        for line, error in ended:
            self.say(line, error)
        self._age_message(dt)
        if self.model is not None:
            self.model.timeline.advance(dt)
            self.bar.sync()
        if self.branch_window is not None and self.branch_window.alive():
            self.branch_window.refresh()
        self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(COLOURS["background"])
        if self.model is not None:
            self._draw_game(surface)
        elif not self.entries:
            draw_lines(
                surface,
                L.ARENA,
                ["No replay open. Ctrl+O opens a file or a folder."],
                self.big_font,
            )
        self._draw_status(surface)
        self.manager.draw_ui(surface)
        if modal.draw_over_veil(surface, self.manager, self.modal_windows()):
            self.last_frame = surface
            return  # behind a form no tooltip or help card shows
        if self.model is not None and pygame.Rect(L.ARENA).collidepoint(self.mouse):
            scene = self.model.scene()
            slot = self.renderer.unit_at(scene, self.mouse, L.ARENA)
            if slot is not None:
                draw_tooltip(surface, self.mouse, tooltip_lines(scene.unit(slot)), self.font)
        described = self.hover_lines(self.mouse)
        if described:
            draw_tooltip(surface, self.mouse, wrap_tooltip(described, self.font), self.font)
        if self.show_help:
            draw_help(surface, surface.get_rect(), self.font, self.big_font)
        self.last_frame = surface

    def status_lines(self):
        """(font, lines) of the status message, wrapped (smaller if need be) to L.STATUS."""
        width, height = L.STATUS[2] - 8, L.STATUS[3]
        return fit_lines(self.message, self.status_fonts, width, height)

    def _draw_status(self, surface) -> None:
        colour = COLOURS["damage"] if self.message_is_error else COLOURS["muted"]
        font, lines = self.status_lines()
        draw_lines(surface, L.STATUS, lines, font, colour)

    def _draw_game(self, surface) -> None:
        width = L.INFO[2] - 8  # draw_lines keeps 4 pixels each side
        draw_lines(surface, L.INFO, info_lines(self.model, self.info_font, width), self.info_font)
        self.arena.draw(surface, self.model, L.ARENA)
        draw_kill_feed(surface, L.FEED, kill_feed(self.model), self.info_font)
        self.bar.draw_strip(surface)
        self.side.draw_plots(surface)
        self.side.draw(surface)

    def hover_lines(self, pos) -> list[str]:
        """Tooltip lines for `pos` off the arena: a cut status message, a story mark, a
        side-panel row, a plot."""
        if self.model is None:
            return self.status_hover(pos)
        return (
            self.status_hover(pos) or self.bar.strip.hover_lines(pos) or self.side.hover_lines(pos)
        )

    def status_hover(self, pos) -> list[str]:
        """The whole status message as a tooltip over the status box, when it is shown cut."""
        if not pygame.Rect(L.STATUS).collidepoint(pos) or not is_cut(
            self.message, self.status_lines()[1]
        ):
            return []
        return [self.message]

    def busy(self) -> bool:
        """True while the picture moves on its own (playback); else the loop waits for input."""
        return self.video.running or (self.model is not None and self.model.timeline.playing)

    def run(self, window) -> int:
        """The window's loop; `window` a ui.window.ScaledWindow (resizable, F11) or the display
        surface itself (then shown as it is, ui.window.FixedWindow). Returns 0, or 143 when
        SIGTERM ended it (ui.signals: at once, whatever is open)."""
        if isinstance(window, pygame.Surface):
            window = FixedWindow(window)
        self.window, pacer = window, FramePacer()
        with TermSignal() as term:
            while self.running and not term.received:
                events, dt = pacer.next_frame(self.busy())
                if term.received:
                    break
                self.handle_events(window.events(events))
                self.update(dt)
                self.draw(window.surface)
                window.present()
        if term.received:
            self.video.cancel()  # an export in progress: its temporary file removed
            print("replay-viewer: ended by SIGTERM", file=sys.stderr)
            return TERM_EXIT
        return 0


def wrap_tooltip(lines, font, width: int = 380) -> list[str]:
    """`lines` wrapped to `width` pixels of `font` (ui.panels.fit_lines), one after another; a
    word wider than that (a path) is broken into pieces that fit, so none of it is cut."""
    out = []
    for line in lines:
        out += fit_lines(break_words(line, font, width - 24), (font,), width, 10_000)[1]
    return out


def main(argv=None) -> int:
    """The command line, `replay_viewer.cli.main` (kept here for `python -m replay_viewer.app`
    and console scripts installed before the command line moved); returns the exit code."""
    from replay_viewer.cli import main as cli_main  # cli imports this module: import on use

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
