"""The bar over the arena and the timeline under it: buttons, tick box, speed and View menus,
the scrubber and the story strip over it (replay_viewer.timeline)."""

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UIHorizontalSlider, UITextEntryLine

from replay_viewer import layout as L
from replay_viewer.model import SPEEDS
from replay_viewer.story import game_marks
from replay_viewer.timeline import StoryStrip, slider_track
from ui.explain import counted
from ui.rules import C


def speed_label(speed: int) -> str:
    """The speed menu's words for `speed` ticks per second: "1 tick/s", "4 ticks/s"."""
    return f"{counted(speed, 'tick')}/s"


def speed_labels() -> list[str]:
    return [speed_label(s) for s in SPEEDS]


class Toolbar:
    """Owns the bar's widgets; `ui_event` answers theirs, `sync` follows the model."""

    def __init__(self, app):
        self.app, m = app, app.manager
        self.buttons = {
            name: UIButton(pygame.Rect(rect), text, m, tool_tip_text=tip)
            for name, text, rect, tip in L.BUTTONS
        }
        self.tick_entry = UITextEntryLine(pygame.Rect(L.TICK_ENTRY), m, placeholder_text="tick")
        self.speed_menu = self._speed_menu(SPEEDS[2])
        self.view_menu = self.slider = None
        self.menu_view = None  # the view the View menu was built for
        self.strip = StoryStrip(L.MARKS)
        self.enable_game_buttons(False)

    def enable_game_buttons(self, on: bool) -> None:
        """Greys out (or brings back) every widget that needs an open game: the buttons of
        `L.GAME_BUTTONS`, the tick box, the speed menu and the side panel's tabs."""
        widgets = [self.buttons[name] for name in L.GAME_BUTTONS]
        widgets += [self.tick_entry, self.speed_menu, *self.app.side.tab_buttons.values()]
        for widget in widgets:
            widget.enable() if on else widget.disable()

    def _speed_menu(self, speed: int):
        return UIDropDownMenu(
            speed_labels(), speed_label(speed), pygame.Rect(L.SPEED), self.app.manager
        )

    def rebuild_speed(self, speed: int) -> None:
        self.speed_menu.kill()
        self.speed_menu = self._speed_menu(speed)
        if self.app.model is None:
            self.speed_menu.disable()

    def build_game_widgets(self) -> None:
        model = self.app.model
        for widget in (self.view_menu, self.slider):
            if widget is not None:
                widget.kill()
        options, label = view_options(model), model.view_name()
        self.menu_view = model.view
        self.view_menu = UIDropDownMenu(
            options, label if label in options else options[0], pygame.Rect(L.VIEW),
            self.app.manager,
        )  # fmt: skip
        self.slider = UIHorizontalSlider(
            pygame.Rect(L.SCRUB), 0, (0, max(1, model.ticks)), self.app.manager
        )
        self.enable_game_buttons(True)

    def sync(self) -> None:
        model = self.app.model
        t = model.tick
        if int(self.slider.get_current_value()) != t:
            self.slider.set_current_value(t)
        shown = str(model.game_tick(t))  # the game's tick, as the BattleClient shows it
        if not self.tick_entry.is_focused and self.tick_entry.get_text() != shown:
            self.tick_entry.set_text(shown)
        play = "Pause" if model.timeline.playing else "Play"
        if self.buttons["play"].text != play:
            self.buttons["play"].set_text(play)
        # Rebuilt only when the view changed elsewhere (keys, --view): the menu's own choice
        # is still on its way as UI_DROP_DOWN_MENU_CHANGED, and a rebuilt menu would drop it.
        if self.menu_view != model.view:
            self.build_game_widgets()
            self.slider.set_current_value(t)

    def ui_event(self, event) -> bool:
        """Handles an event of the bar's widgets; True if it was one."""
        app, kind, element = self.app, event.type, getattr(event, "ui_element", None)
        model = app.model
        if kind == pygame_gui.UI_BUTTON_PRESSED:
            name = next((n for n, w in self.buttons.items() if w is element), None)
            if name is not None:
                app.act(*L.BUTTON_ACTIONS[name])
            return name is not None
        if kind == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and element is self.slider:
            if model is not None and int(event.value) != model.tick:
                model.timeline.step(int(event.value) - model.tick)
            return True
        if kind == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and element is self.speed_menu:
            if model is not None:
                model.timeline.speed_index = SPEEDS.index(int(event.text.split()[0]))
            return True
        if kind == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and element is self.view_menu:
            if model is not None:
                model.set_view(view_from_label(event.text))
                self.menu_view = model.view
                app.say(f"View: {model.view_name()}")
            return True
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED and element is self.tick_entry:
            self.goto(event.text)
            return True
        return False

    def goto(self, text: str) -> None:
        app = self.app
        app.release_keyboard()
        if app.model is None:
            return
        model = app.model
        first, last = model.first_tick, model.game_tick(model.ticks)
        if text.strip().isdigit() and first <= int(text) <= last:
            model.timeline.step(int(text) - model.game_tick(model.tick))
        else:
            app.say(f"Tick {text!r}: type a number from {first} to {last}", error=True)

    # --- the story strip ---------------------------------------------------------------------
    def draw_strip(self, surface) -> None:
        model = self.app.model
        track = slider_track(self.slider, L.SCRUB)
        self.strip.draw(
            surface, game_marks(model), model.ticks, track, model.tick, model.first_tick
        )

    def strip_click(self, pos) -> bool:
        tick = self.strip.tick_at(pos)
        if tick is None:
            return pygame.Rect(L.MARKS).collidepoint(pos)
        self.app.model.timeline.step(tick - self.app.model.tick)
        # named as the hover and the log name it: the tick played, then the state it led to
        g = self.app.model.game_tick(tick)
        self.app.say(f"Tick {g - 1} (state {g}): {self.strip.marks_at(pos)[0].text}")
        return True


def view_options(model) -> list[str]:
    """Labels of the views of this game (ui.scene.view_label): Oracle, the active agents
    ("A0 Mage"), the two teams."""
    active = model.replay.states["active"][0]
    agents = [model.view_name(("agent", s)) for s in range(C.NUM_SLOTS) if active[s]]
    return ["Oracle", *agents, "Team A", "Team B"]


def view_from_label(label: str):
    """The view of a view_label ("A0 Mage" -> ("agent", 0)); "Agent A0" is read too."""
    if label == "Oracle":
        return "oracle"
    words = label.split(" ")
    if words[0] == "Team":
        return ("team", "AB".index(words[1]))
    name = words[1] if words[0] == "Agent" else words[0]
    return ("agent", "AB".index(name[0]) * 5 + int(name[1]))
