"""The Replay Viewer's window: its command line is replay_viewer.cli (`replay-viewer`).

An `App` with `handle_events(events)`, `update(dt)` and `draw(surface)`; it draws into any
surface, so tests render it offscreen (SDL_VIDEODRIVER=dummy). Never imports JAX.
"""

import html
import sys
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIHorizontalSlider,
    UISelectionList,
    UITextEntryLine,
)
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from evaluation.replay import SUFFIX, ReplayError, read_replay
from replay_viewer import layout as L
from replay_viewer.export import save_png
from replay_viewer.folder import list_replays
from replay_viewer.metrics_source import replay_metrics
from replay_viewer.metrics_table import MetricsTable, display_frame
from replay_viewer.model import SPEEDS, ViewerModel, view_from_label, view_options
from replay_viewer.panels import draw_help, draw_lines, draw_tooltip, info_lines, tooltip_lines
from replay_viewer.playback import SmoothArena, VideoRunner
from replay_viewer.shortcuts import action_for
from replay_viewer.side_panel import SidePanel
from ui.arena import ArenaRenderer
from ui.pacing import FramePacer
from ui.panels import elide_middle, fit_lines, short_path
from ui.paths import screenshot_dir
from ui.rules import slot_label
from ui.scene import view_label
from ui.theme import COLOURS, GUI_THEME

# Seconds a status message stays before the resting hint replaces it (errors stay longer).
MESSAGE_SECONDS, ERROR_SECONDS = 6.0, 15.0
LIST_ROOM = 60  # pixels of the folder list taken by its scroll bar and padding
RESTING_HINT = ("Open a replay: Ctrl+O", "? lists the keys; Ctrl+O opens another replay")


class App:
    """The viewer window's logic; `surface_size` is the size of the surface `draw` gets."""

    def __init__(self, surface_size=L.SIZE, animate: bool = True):
        self.size = surface_size
        theme = str(GUI_THEME) if GUI_THEME.is_file() else None
        self.manager = pygame_gui.UIManager(surface_size, theme)
        # the problem window names the file in bold: load that face now, not on first use
        self.manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold"}])
        self.renderer = ArenaRenderer()
        self.font = self.renderer.font(18)
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
        self.widgets: dict = {}
        self.list_widget = None
        self.dialog = None
        self.problem_window = None  # the whole reason a file did not open
        self.problem = ""  # the same reason as one line (for the command line)
        self.last_frame: pygame.Surface | None = None
        self.arena = SmoothArena(self.renderer, self.info_font, animate)
        self.replay_path: Path | None = None
        self.video = VideoRunner()  # an export running in the window's loop (Video, e)
        self.shortcut_char = ""  # the character of the shortcut being run
        self.swallow_text = ""  # ... kept when it opened a text box
        self._build_bar()

    # --- widgets -----------------------------------------------------------------------------
    def _build_bar(self) -> None:
        m = self.manager
        for name, text, rect, tip in L.BUTTONS:
            self.widgets[name] = UIButton(pygame.Rect(rect), text, m, tool_tip_text=tip)
        self.tick_entry = UITextEntryLine(pygame.Rect(L.TICK_ENTRY), m, placeholder_text="tick")
        self.speed_menu = UIDropDownMenu(
            [f"{s} ticks/s" for s in SPEEDS], f"{SPEEDS[2]} ticks/s", pygame.Rect(L.SPEED), m
        )
        self.view_menu = None
        self.menu_view = None  # the view the View menu was built for
        self.slider = None
        self.side.build()

    def _build_game_widgets(self) -> None:
        for widget in (self.view_menu, self.slider):
            if widget is not None:
                widget.kill()
        options = view_options(self.model)
        label = view_label(self.model.view)
        self.menu_view = self.model.view
        self.view_menu = UIDropDownMenu(
            options, label if label in options else options[0], pygame.Rect(L.VIEW), self.manager
        )
        self.slider = UIHorizontalSlider(
            pygame.Rect(L.SCRUB), 0, (0, max(1, self.model.ticks)), self.manager
        )

    def _sync_widgets(self) -> None:
        if self.model is None:
            return
        t = self.model.tick
        if int(self.slider.get_current_value()) != t:
            self.slider.set_current_value(t)
        if not self.tick_entry.is_focused and self.tick_entry.get_text() != str(t):
            self.tick_entry.set_text(str(t))
        play = "Pause" if self.model.timeline.playing else "Play"
        if self.widgets["play"].text != play:
            self.widgets["play"].set_text(play)
        # Rebuilt only when the view changed elsewhere (keys, --view): the menu's own choice
        # is still on its way as UI_DROP_DOWN_MENU_CHANGED, and a rebuilt menu would drop it.
        if self.menu_view != self.model.view:
            self._build_game_widgets()
            self.slider.set_current_value(t)

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
            self.folder, self.entries = path, list_replays(path)
            self.model = None
            self._show_list()
            bad = sum(e.header is None for e in self.entries)
            note = f" ({bad} unreadable)" if bad else ""
            self.say(
                f"{len(self.entries)} replays{note} in {short_path(path)}; click one to open it"
            )
            return True
        return self.open_replay(path)

    def open_replay(self, path) -> bool:
        try:
            replay = read_replay(path)
        except (ReplayError, OSError) as error:
            self._cannot_open(Path(path), error)
            return False
        self._close_problem()
        self.video.cancel()
        self.model = ViewerModel(replay, Path(path).name)
        self.replay_path = Path(path)
        self._hide_list()
        self._build_game_widgets()
        metrics, note = replay_metrics(replay)
        classes = replay.states["class_id"][0]
        self.side.set_metrics(
            None if metrics is None else MetricsTable(display_frame(metrics, classes)), note
        )
        self.say(f"Opened {Path(path).name}: {replay.ticks} ticks. ? lists the keys.")
        return True

    def _cannot_open(self, path: Path, error: Exception) -> None:
        """A short status line and a message window with the whole reason and the full path."""
        reason = open_problem(error)
        self.problem = f"Cannot open {path}: {reason}"
        self.say(f"Cannot open {path.name}: {reason}", error=True)
        self._close_problem()
        text = (
            f"<b>{html.escape(str(path))}</b><br><br>{html.escape(reason)}<br><br>"
            "Pick another file with Open (Ctrl+O); Esc closes this message."
        )
        self.problem_window = UIMessageWindow(
            pygame.Rect(L.PROBLEM), text, self.manager, window_title=f"Cannot open {path.name}"
        )

    def _close_problem(self) -> bool:
        """Closes the problem window; True if one was open."""
        window, self.problem_window = self.problem_window, None
        if window is not None and window.alive():
            window.kill()
            return True
        return False

    def _show_list(self) -> None:
        self._hide_list()
        # pygame_gui clips a row wider than the list under its scroll bar: shorten it in the
        # middle (file name start, result at the end) with the list's own font
        font = self.manager.get_theme().get_font(["selection_list.@selection_list_item"])
        width = L.LIST[2] - LIST_ROOM
        labels = [
            elide_middle(f"{i + 1:3d}  {e.label()}", font, width)
            for i, e in enumerate(self.entries)
        ]
        self.list_widget = UISelectionList(pygame.Rect(L.LIST), labels, self.manager)

    def _hide_list(self) -> None:
        if self.list_widget is not None:
            self.list_widget.kill()
            self.list_widget = None

    # --- input -------------------------------------------------------------------------------
    def handle_events(self, events) -> None:
        for event in events:
            if event.type == pygame.QUIT:
                self.running = False
                continue
            if event.type == pygame.TEXTINPUT and self._swallowed(event.text):
                continue
            if event.type == pygame.KEYDOWN and self._typing() and self._leave_box(event):
                continue
            consumed = self.manager.process_events(event)
            if event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
            if self._ui_event(event):
                continue
            if event.type == pygame.KEYDOWN and not consumed and not self._typing():
                action = action_for(event)
                if action is not None:
                    self.shortcut_char = getattr(event, "unicode", "")
                    self.act(*action)
                    self.shortcut_char = ""
            elif event.type == pygame.MOUSEBUTTONDOWN and not consumed and event.button == 1:
                self._click(event.pos)
            elif event.type == pygame.MOUSEWHEEL:
                self.side.wheel(self.mouse, event.y)

    def _typing(self) -> bool:
        return self.tick_entry.is_focused or self.side.typing()

    def give_keyboard(self, entry) -> None:
        """Focuses a text box through the UI manager (so a click elsewhere releases it) and drops
        the TEXTINPUT that SDL sends after the shortcut's own KEYDOWN (`g`, `/`)."""
        self.manager.set_focus_set(entry)
        self.swallow_text = self.shortcut_char

    def release_keyboard(self) -> None:
        self.manager.set_focus_set(None)

    def _swallowed(self, text: str) -> bool:
        swallow, self.swallow_text = self.swallow_text, ""
        return bool(swallow) and text == swallow

    def _leave_box(self, event) -> bool:
        """Esc in a text box gives the keyboard back to the shortcuts; True if it did."""
        if event.key != pygame.K_ESCAPE:
            return False
        self.release_keyboard()
        return True

    def _ui_event(self, event) -> bool:
        kind = event.type
        if kind == pygame_gui.UI_BUTTON_PRESSED:
            for name, widget in self.widgets.items():
                if event.ui_element is widget:
                    self.act(*L.BUTTON_ACTIONS[name])
                    return True
            return self.side.button(event.ui_element)
        if kind == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and event.ui_element is self.slider:
            if self.model is not None and int(event.value) != self.model.tick:
                self.model.timeline.step(int(event.value) - self.model.tick)
            return True
        if kind == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.speed_menu:
                if self.model is not None:
                    self.model.timeline.speed_index = SPEEDS.index(int(event.text.split()[0]))
            elif event.ui_element is self.view_menu and self.model is not None:
                self.model.set_view(view_from_label(event.text))
                self.menu_view = self.model.view
                self.say(f"View: {event.text}")
            return True
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.tick_entry:
            self._goto(event.text)
            return True
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.side.search:
            self.release_keyboard()  # Enter keeps the filter and gives the keys back
            return True
        if kind == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            return self.side.text_changed(event.ui_element, event.text)
        if (
            kind == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION
            and event.ui_element is self.list_widget
        ):
            index = int(event.text.split()[0]) - 1
            self.open_replay(self.entries[index].path)
            return True
        if kind == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.dialog = None
            self.open_path(event.text)
            return True
        return False

    def _goto(self, text: str) -> None:
        self.release_keyboard()
        if self.model is None:
            return
        if text.strip().isdigit() and int(text) <= self.model.ticks:
            self.model.timeline.step(int(text) - self.model.tick)
        else:
            self.say(f"Tick {text!r}: type a number from 0 to {self.model.ticks}", error=True)

    def _click(self, pos) -> None:
        if self.model is None:
            return
        if pygame.Rect(L.ARENA).collidepoint(pos):
            scene = self.model.scene()
            self.model.selected = self.renderer.unit_at(scene, pos, L.ARENA)
            if self.model.selected is not None:
                self.side.tab = self.side.tab if self.side.tab != "log" else "agent"
            return
        self.side.click(pos)

    def act(self, action: str, arg=None) -> None:
        """Runs one named action (buttons and shortcuts share these names)."""
        if action in ("help", "escape", "quit", "open", "folder"):
            return self._app_action(action)
        if self.model is None:
            return
        tl = self.model.timeline
        if action == "play":
            tl.toggle()
        elif action == "step":
            tl.step(arg)
        elif action == "seek":
            tl.step((self.model.ticks if arg == -1 else arg) - tl.tick)
        elif action == "speed":
            tl.faster(arg)
            self.speed_menu.kill()
            self.speed_menu = UIDropDownMenu(
                [f"{s} ticks/s" for s in SPEEDS],
                f"{tl.speed} ticks/s",
                pygame.Rect(L.SPEED),
                self.manager,
            )
        elif action == "goto":
            self.give_keyboard(self.tick_entry)
            self.tick_entry.set_text("")
        elif action in ("view", "view_agent", "view_next"):
            self._change_view(action, arg)
        elif action == "overlay":
            self.model.overlays ^= {arg}
            state = "on" if arg in self.model.overlays else "off"
            self.say(f"Overlay {arg.replace('_', ' ')}: {state}")
        elif action in ("tab", "search"):
            self.side.act(action, arg)
        elif action == "export":
            self.export_png()
        elif action == "video":  # the whole game in this view (playback.VideoRunner)
            self.video.start(self.replay_path, self.model)
            self.say(self.video.line, self.video.error)
        elif action == "animation":
            self.arena.animate = not self.arena.animate
            self.say(f"Smooth playback: {'on' if self.arena.animate else 'off'}")

    def _app_action(self, action: str) -> None:
        if action == "help":
            self.show_help = not self.show_help
        elif action == "escape":
            if self._close_problem():
                return
            if self.video.cancel():
                return self.say(self.video.line)
            if self.show_help:
                self.show_help = False
            elif self.model is not None:
                self.model.selected = None
        elif action == "quit":
            self.running = False
        elif action == "open" and (self.dialog is None or not self.dialog.alive()):
            start = str(self.folder or Path.cwd())
            self.dialog = UIFileDialog(
                pygame.Rect(L.DIALOG),
                self.manager,
                "Open a replay or a folder",
                {SUFFIX},
                start,
                allow_existing_files_only=True,
                allow_picking_directories=True,
            )
        elif action == "folder" and self.folder is not None:
            self.open_path(self.folder)

    def _change_view(self, action: str, arg) -> None:
        model = self.model
        if action == "view_agent":
            if not model.replay.states["active"][0][arg]:
                return self.say(f"Slot {arg} ({slot_label(arg)}) is empty in this game", error=True)
            view = ("agent", arg)
        elif action == "view_next":
            options = [view_from_label(o) for o in view_options(model)]
            view = options[(options.index(model.view) + 1) % len(options)]
        else:
            view = arg
        model.set_view(view)
        self.say(f"View: {view_label(view)}")

    def export_png(self) -> Path | None:
        """Saves the last drawn frame as a new PNG in the screenshots folder under the data
        directory (ui.paths.screenshot_dir), never over a file; the status line names it."""
        if self.last_frame is None or self.model is None:
            return None
        tag = view_label(self.model.view).replace(" ", "-").lower()
        stem = f"{Path(self.model.name).stem}_t{self.model.tick:04d}_{tag}"
        folder = screenshot_dir()
        path, n = folder / f"{stem}.png", 1
        while path.exists():
            n += 1
            path = folder / f"{stem}-{n}.png"
        try:
            save_png(self.last_frame, path)
        except OSError as error:  # a read-only or full disk: say so, keep the viewer running
            self.say(f"Screenshot not saved: {error}", error=True)
            return None
        self.say(f"Saved {short_path(path)}")
        return path

    # --- frame -------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.video.running:
            self.video.step()
            self.say(self.video.line, self.video.error)
        self._age_message(dt)
        if self.model is not None:
            self.model.timeline.advance(dt)
            self._sync_widgets()
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
        if self.model is not None and pygame.Rect(L.ARENA).collidepoint(self.mouse):
            scene = self.model.scene()
            slot = self.renderer.unit_at(scene, self.mouse, L.ARENA)
            if slot is not None:
                draw_tooltip(surface, self.mouse, tooltip_lines(scene.unit(slot)), self.font)
        described = self.side.hover_lines(self.mouse) if self.model is not None else []
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
        self.side.draw_plots(surface)
        self.side.draw(surface)

    def busy(self) -> bool:
        """True while the picture moves on its own (playback); else the loop waits for input."""
        return self.video.running or (self.model is not None and self.model.timeline.playing)

    def run(self, screen) -> None:
        pacer = FramePacer()
        while self.running:
            events, dt = pacer.next_frame(self.busy())
            self.handle_events(events)
            self.update(dt)
            self.draw(screen)
            pygame.display.flip()


def wrap_tooltip(lines, font, width: int = 380) -> list[str]:
    """`lines` wrapped to `width` pixels of `font` (ui.panels.fit_lines), one after another."""
    out = []
    for line in lines:
        out += fit_lines(line, (font,), width, 10_000)[1]
    return out


def open_problem(error: Exception) -> str:
    """Why a replay did not open, in one line without the path (shown next to it)."""
    if isinstance(error, ReplayError):
        return f"{error.field}: {error.problem}"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def main(argv=None) -> int:
    """The command line, `replay_viewer.cli.main` (kept here for `python -m replay_viewer.app`
    and console scripts installed before the command line moved); returns the exit code."""
    from replay_viewer.cli import main as cli_main  # cli imports this module: import on use

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
