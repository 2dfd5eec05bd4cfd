"""The lobby: map (an id, a map file, or a split drawn with the seed) with a preview, class and
controller per slot, information regime, spawn end, seed, score threshold and time limit; Start.

Slot specs are parsed by policies.slotspec on the engine thread (it imports JAX), so the
controller menus fill in once the engine has loaded; until then the lobby is usable and shows
the stored values. Every problem (bad spec, unknown kind, a checkpoint that does not load) is a
message here, never a crash.
"""

import numpy as np
import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UITextEntryLine

from battleclient import layout as L
from battleclient.game_setup import (
    REGIMES,
    SPAWN_ENDS,
    VIEWS,
    ClientSetup,
    default_spec,
    parse_roster,
    parse_specs,
    pick_map,
    roster_text,
    slots_text,
    spawn_end_code,
)
from battleclient.lobby_draw import FIELDS, draw_lobby
from battleclient.lobby_slots import SlotRows
from battleclient.map_catalog import map_label, map_menu_choices, settle_map
from battleclient.presets import PLACEHOLDER, preset_menu
from battleclient.screens import Screen
from battleclient.settings import load_recent_setups
from battleclient.wording import number_problem, player_words, team_problem
from ui.arena import ArenaRenderer
from ui.focus import tab_focus
from ui.panels import elide_middle
from ui.rules import C
from ui.theme import GUI_THEME
from ui.window_fit import FittedManager

END_OPTIONS = ["Team A west", "Team A east", "random end"]
NOTE_S = 8.0  # seconds a note (not a problem) stays on the message line


class Lobby(SlotRows, Screen):
    """The lobby screen; `app` gives catalog, kinds, fonts, submit(), start_game(), quit()."""

    def __init__(self, app, setup: ClientSetup, message: str = "", error: bool = False):
        setup, note = settle_map(setup, app.catalog)
        if note:  # told once: the App keeps the settled setup for the next lobby
            app.setup = setup
            message = f"{message} {note}".strip()
        self.app, self.setup = app, setup
        theme = str(GUI_THEME) if GUI_THEME.is_file() else None
        self.manager = FittedManager(app.fit, theme)
        self.renderer = ArenaRenderer()
        self.message, self.error, self.message_age, self.said_about = "", False, 0.0, None
        self.roster = list(parse_roster(setup.roster))
        self.specs: list[str] | None = None
        self.spec_problem = False
        self.parse_id = 0  # the latest slot spec sent to the parser
        self.flagged = ""  # the number-box problem shown on the message line, if any
        self.rows: dict = {}
        self.dialog, self.dialog_slot = None, None
        self.buttons = {
            n: UIButton(pygame.Rect(r), t, self.manager) for n, (t, r) in L.LOBBY_BUTTONS.items()
        }
        self.map_entries, self.map_choices = map_menu_choices(
            app.catalog, app.maps_by_split, setup.map
        )
        self.map_options = list(self.map_choices)
        self.map_menu = UIDropDownMenu(
            self.map_options,
            map_label(setup.map, self.map_entries, self.map_choices),
            pygame.Rect(L.MAP_MENU),
            self.manager,
        )
        y = L.FIELDS_Y + 26
        self.regime = UIDropDownMenu(
            list(REGIMES), setup.info_regime, pygame.Rect(20, y, 150, 30), self.manager
        )
        end = END_OPTIONS[SPAWN_ENDS.index(setup.spawn_end)]
        self.end = UIDropDownMenu(END_OPTIONS, end, pygame.Rect(180, y, 150, 30), self.manager)
        self.view = UIDropDownMenu(list(VIEWS), setup.view, pygame.Rect(L.VIEW_MENU), self.manager)
        self.entries = {}
        for k, (field, _) in enumerate(FIELDS):
            entry = UITextEntryLine(
                pygame.Rect(L.FIELD_X + L.FIELD_STEP * k, y, L.FIELD_W, 30), self.manager
            )
            entry.set_text(str(getattr(setup, field)))
            self.entries[field] = entry
        font = self.manager.get_theme().get_font(["drop_down_menu"])
        room = L.PRESET_MENU[2] - 34  # the menu's border and centred-text margins
        self.presets = preset_menu(load_recent_setups(), lambda t: elide_middle(t, font, room, 0.3))
        self.preset_menu = UIDropDownMenu(
            [PLACEHOLDER, *self.presets], PLACEHOLDER, pygame.Rect(L.PRESET_MENU), self.manager
        )
        self.chosen = None  # (menu text, setup) of a preset, applied at the next update
        self.spec_entry = UITextEntryLine(pygame.Rect(L.SPEC_ENTRY), self.manager)
        self.spec_entry.set_text(setup.slots)
        self._build_rows()
        self._parse(setup.slots)
        if message:  # said last: it wins over a slot-spec problem found meanwhile
            self.say(message, error)

    # --- widgets ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """The System kinds arrived (or changed): rebuild the controller menus."""
        if self.specs is None and not self.spec_problem:
            self._parse(self.spec_entry.get_text())  # at once, not after the start-up compile
        self._build_rows()

    def _parse(self, text: str) -> None:
        """Apply a slot spec to the controller menus. Once the engine has loaded, the parser
        (pure text work) runs here at once, so a spec typed while the engine thread compiles
        is not queued behind the compile; before that it waits for the engine thread."""
        self.parse_id += 1
        if self.app.kinds is None:
            mine = self.parse_id  # a later spec (or the menus) wins over this late answer

            def done(ok, value):
                if mine == self.parse_id:
                    self._on_parsed(ok, value)

            self.app.submit(parse_specs, text, done=done)
            return
        try:
            value, ok = parse_specs(text), True
        except ValueError as error:
            value, ok = error, False
        self._on_parsed(ok, value)

    # --- engine-thread answers --------------------------------------------------------------
    def _on_parsed(self, ok, value) -> None:
        if ok:
            self.spec_problem = False
            self.specs = list(value)
            for slot in range(C.NUM_SLOTS):
                if self.roster[slot] and not self.specs[slot]:
                    self.specs[slot] = default_spec(slot)
            self.spec_entry.set_text(slots_text(self.specs))
            self._build_rows()
            if self.message.startswith("The slot spec"):  # queued or not understood: done
                self.say("")
        else:
            self.spec_problem = True
            self._build_rows()
            if not self.error:  # keep the reason a game could not start, if that came first
                self.say(f"The slot spec line is not understood. {value}", error=True)

    def say(self, text: str, error: bool = False) -> None:
        """The message line under the slots; internal field names become control labels. It
        goes when it stops being true (`stale`)."""
        self.message, self.error = player_words(text), error
        self.message_age, self.said_about = 0.0, self.shown_setup()

    def shown_setup(self) -> ClientSetup | None:
        """The setup the widgets show, or None while some control holds a bad value."""
        try:
            return self.current_setup()
        except ValueError:
            return None

    def stale(self) -> bool:
        """Whether the message line no longer tells the truth: a problem once the setup it was
        about changed, a note after NOTE_S seconds (a number box's problem: `_flag_fields`)."""
        if not self.message or self.message == self.flagged:
            return False
        if self.error:
            return self.shown_setup() != self.said_about
        return self.message_age > NOTE_S

    # --- input -----------------------------------------------------------------------------
    def handle_events(self, events) -> None:
        for event in events:
            consumed = self.manager.process_events(event)
            kind = event.type
            left = tab_focus(self.manager, [*self.entries.values(), self.spec_entry], event)
            if left is self.spec_entry:  # leaving a box with Tab enters it, as Enter does
                self._parse(left.get_text())
            elif left is not None:
                self._prepare_rules()
            elif kind == pygame_gui.UI_BUTTON_PRESSED:
                self._button(event.ui_element)
            elif kind == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
                self._menu(event.ui_element, event.text)
            elif kind == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.spec_entry:
                self._parse(event.text)
                if self.app.kinds is None:
                    self.say("The slot spec is applied once the engine has loaded (see the bar)")
            elif kind == pygame_gui.UI_TEXT_ENTRY_FINISHED:
                self._prepare_rules()  # Enter in Max ticks or Score to win
            elif kind == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
                self._picked(event.text)
            elif kind == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
                self.dialog = None
                self._build_rows()
            elif kind == pygame.KEYDOWN and not consumed and not self._typing():
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.start()
                elif event.key == pygame.K_ESCAPE and not self._close_open_menu():
                    self.app.quit()

    def _close_open_menu(self) -> bool:
        """Closes the expanded drop-down, if one is: Esc then means "close this list", as it
        does everywhere else, rather than quitting the lobby with it open. True if one was."""
        for element in self.manager.get_sprite_group().sprites():
            if isinstance(element, UIDropDownMenu):
                expanded = element.menu_states["expanded"]
                if element.current_state is expanded:
                    expanded.should_transition = True
                    return True
        return False

    def _typing(self) -> bool:
        return any(e.is_focused for e in (*self.entries.values(), self.spec_entry))

    def _button(self, element) -> None:
        if element is self.buttons["start"]:
            self.start()
        elif element is self.buttons["quit"]:
            self.app.quit()
        elif element is self.buttons["scenarios"]:
            self.app.to_scenarios()
        elif element is self.buttons["replays"]:
            from battleclient.settings import replay_dir

            folder = replay_dir()
            folder.mkdir(parents=True, exist_ok=True)
            self.say(self.app.open_viewer(folder))

    def _menu(self, element, text: str) -> None:
        if element is self.preset_menu and text in self.presets:
            self.chosen = (text, self.presets[text](self.shown_setup() or self.setup))
            return
        if element is self.map_menu:
            self.setup = self.setup.replace(map=self.map_choices[text])
            return
        if element is self.regime:
            self.setup = self.setup.replace(info_regime=text)
            return
        if element is self.end:
            self.setup = self.setup.replace(spawn_end=SPAWN_ENDS[END_OPTIONS.index(text)])
            return
        if element is self.view:
            self.setup = self.setup.replace(view=text)
            return
        for slot, (cls_menu, ctl_menu) in self.rows.items():
            if element is cls_menu:
                self.roster[slot] = C.CLASS_NAMES.index(text) if text in C.CLASS_NAMES else 0
                return self._give_controller(slot)
            elif element is ctl_menu:
                self._controller(slot, text)

    # --- start -----------------------------------------------------------------------------
    def field_values(self) -> tuple[dict[str, int], str]:
        """({field: value} of the number boxes that hold a valid number, every bad box's
        problem in a player's words, each naming its box, one a line; "" when none)."""
        values, problems = {}, []
        for field, label in FIELDS:
            text = self.entries[field].get_text().strip()
            problem = number_problem(label, field, text)
            if problem:
                problems.append(problem)
            else:
                values[field] = int(text)
        return values, "\n".join(problems)

    def current_setup(self) -> ClientSetup:
        """The setup the widgets show; raises ValueError naming each control at fault (one a
        line), what is wrong and what is allowed, in a player's words."""
        values, problem = self.field_values()
        problems = [p for p in (problem, team_problem(self.roster)) if p]
        if problems:  # all at once: a player fixes them in one go, not one per Start
            raise ValueError("\n".join(problems))
        roster = roster_text(self.roster)
        slots = slots_text(self.specs) if self.specs is not None else self.spec_entry.get_text()
        return self.setup.replace(
            roster=roster,
            slots=slots,
            **values,
        )

    def start(self) -> None:
        try:
            setup = self.current_setup()
        except ValueError as error:
            return self.say(str(error), error=True)
        self.app.start_game(setup)

    # --- frame -----------------------------------------------------------------------------
    def preview_choice(self) -> tuple[int | str | None, np.ndarray, int]:
        """(map that will be played: id, file path or None; roster, spawn end) for the
        preview."""
        roster = np.asarray(self.roster, np.int32)
        # The map does not depend on the rules boxes: only a valid Seed (a split's draw) is used.
        seed = self.field_values()[0].get("seed", self.setup.seed)
        setup = self.setup.replace(seed=seed)
        try:
            return pick_map(setup, self.app.maps_by_split), roster, spawn_end_code(setup)
        except ValueError:
            return None, roster, spawn_end_code(setup)

    def rules_shown(self) -> ClientSetup:
        """The setup with the rules the number boxes show now, typing included (for the
        progress line: a value being typed is not compiled yet)."""
        try:
            return self.setup.replace(**self.field_values()[0])
        except ValueError:
            return self.setup

    def _prepare_rules(self) -> None:
        """New rules (Max ticks, Score to win, Information) start compiling in the background
        once entered, so Start does not wait for the compile; unfinished values never do."""
        try:
            self.app.prepare(self.current_setup())
        except ValueError:
            pass  # Start says what is wrong

    def _flag_fields(self) -> None:
        """A number box that does not hold a valid number is named on the message line at
        once (Start refuses with the same words); the line clears when the box is fixed."""
        problem = self.field_values()[1]
        if problem == self.flagged:
            return
        if problem:
            self.say(problem, error=True)
        elif self.message == self.flagged:
            self.say("")
        self.flagged = problem

    def update(self, dt: float) -> None:
        if self.chosen is not None:  # pygame_gui has delivered the change: rebuild now
            text, self.app.setup = self.chosen
            return self.app.to_lobby(f"Preset: {text.strip()}")
        self.manager.update(dt)
        self.message_age += dt
        if self.stale():
            self.say("")
        self._flag_fields()
        if not self._typing():
            self._prepare_rules()

    def draw(self, surface) -> None:
        draw_lobby(self, surface)
        self.manager.draw_ui(surface)
