"""The Scenarios screen: pick an endgame scenario, the focal slots to play, then Start.

Lists every scenario file in `evaluation.scenarios.SCENARIOS_DIR` (the eight shipped ones and
any a user adds; issue 17 point 5), then those of the user's scenario folder
(`ui.paths.scenario_dir`, where both apps save positions): title, skill, horizon, the brief a
playtester reads before playing, the file, a picture of the start and the client's record
(battleclient.scenario_record). A file that does not load is listed with its error, never a
crash. The player toggles the focal slots to take (every live one by default); the focal
team's other slots play the slot spec in the "Others" box (the scenario's controller by
default) and the other team the controller. The files load on a thread of their own (they
build engine states) once the engine thread has imported JAX and the scenario modules
(controllers.import_runtime), so the screen opens at once and a compile running on the engine
thread does not hold the list up.
"""

import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UISelectionList, UITextEntryLine

from battleclient import panels
from battleclient.screens import Screen
from ui.arena import ArenaRenderer
from ui.panels import short_path
from ui.paths import scenario_dir
from ui.rules import C
from ui.scene import scene_from_state
from ui.theme import COLOURS, GUI_THEME
from ui.window_fit import FittedManager

LIST = (20, 60, 400, 250)
PREVIEW = (20, 346, 400, 200)  # the start position, 2:1 as the maps are
DETAIL = (440, 56, 820, 380)
SLOTS_Y = 470  # the focal-slot toggles; the Others box below them
OTHERS = (440, 540, 520, 30)
MESSAGE = (20, 620, 1240, 100)
BUTTONS = {
    "start": ("Start (Enter)", (20, 740, 200, 40)),
    "lobby": ("Back to the lobby (Esc)", (230, 740, 220, 40)),
}
PREVIEW_FIELDS = (
    "obstacles", "pads", "red_zones", "class_id", "active", "alive", "pos", "health", "shield",
    "cooldown", "status", "score", "tick", "outcome",
)  # fmt: skip


@dataclass(frozen=True)
class Listed:
    """One file of the scenarios folder: its Scenario, or the error that stops it loading."""

    path: Path
    scenario: object = None  # evaluation.scenarios.Scenario
    error: str = ""
    picture: dict | None = None  # the start state's fields for ui.scene (NumPy)

    @property
    def label(self) -> str:
        if self.scenario is None:
            return f"(does not load) {self.path.name}"
        return f"{self.scenario.id}. {self.scenario.title}"


def list_scenarios(folders=None) -> list[Listed]:
    """Every scenario file of `folders` (default: the shipped SCENARIOS_DIR, then the user's
    ui.paths.scenario_dir, where both apps save positions), loaded and checked
    (evaluation.scenarios.load_scenario_file); a bad file keeps its error text. Off the UI
    thread, after controllers.import_runtime imported its modules (never two threads
    importing JAX at once)."""
    from evaluation import scenarios as S

    folders = folders or (S.SCENARIOS_DIR, scenario_dir())
    listed = []
    for path in (p for folder in folders for p in S.scenario_files(folder)):
        try:
            scenario = S.load_scenario_file(path)
        except ValueError as error:  # ScenarioError names the file, the field and the value
            # its problems without the file's path on each (the pane names the file once)
            listed.append(Listed(path, error="\n".join(getattr(error, "problems", [str(error)]))))
            continue
        fields = {k: np.asarray(getattr(scenario.start, k)) for k in PREVIEW_FIELDS}
        listed.append(Listed(path, scenario, picture=fields))
    return listed


def detail_lines(item: Listed, record_text: str) -> list:
    """The detail pane's text of a listed file: (text, colour) lines, wrapped when drawn."""
    if item.scenario is None:
        return [(f"{item.path.name} does not load:", COLOURS["damage"]), *item.error.splitlines()]
    s = item.scenario
    team = C.TEAM_NAMES[s.focal_team]
    start = int(s.start.tick)
    a, b = (int(v) for v in np.asarray(s.start.score))
    return [
        (f"Skill: {s.skill}", COLOURS["accent"]),
        f"You play Team {team}. Win within {s.horizon} ticks (ticks {start}-{start + s.horizon - 1}"
        f"); score A {a} : {b} B, {s.score_to_win} to win.",
        f"Opponent (and your other slots by default): {s.controller}",
        (f"Your record: {record_text}", COLOURS["muted"]),
        (f"File: {short_path(item.path)}", COLOURS["muted"]),
        "",
        s.brief,
    ]


class ScenarioScreen(Screen):
    """The Scenarios screen; `app` gives submit(), fonts, start_scenario(), to_lobby()."""

    phase, waiting = "scenarios", False

    def __init__(self, app, chosen_id: int | None = None, message: str = "", error=False):
        self.app, self.chosen_id = app, chosen_id
        theme = str(GUI_THEME) if GUI_THEME.is_file() else None
        self.manager = FittedManager(app.fit, theme)
        self.renderer = ArenaRenderer()
        self.reading = pygame.font.Font(None, 22)  # the brief: a paragraph read before playing
        self.items: list[Listed] | None = None
        self.index = 0
        self.picked: set[int] = set()  # focal slots the person plays
        self.toggles: dict = {}  # UIButton -> focal slot
        self.message, self.error = message, bool(error)
        self.records: dict = {}
        self.list = None
        self.buttons = {
            n: UIButton(pygame.Rect(r), t, self.manager) for n, (t, r) in BUTTONS.items()
        }
        self.others = UITextEntryLine(pygame.Rect(OTHERS), self.manager)
        self.others.hide()
        self.loader, self.loaded = None, None  # the loading thread, its (ok, value)
        self.failed = False  # the files could not be listed (said on the message line)
        self._load_record()

    # --- data ------------------------------------------------------------------------------
    def _load_record(self) -> None:
        from battleclient.scenario_record import load_record

        try:
            self.records = load_record()
        except ValueError as error:  # shown, never overwritten (scenario_record keeps it)
            self.records = {}
            self.say(f"The scenario record cannot be read: {error}", error=True)

    def _on_listed(self, ok, value) -> None:
        if not ok:
            self.failed = True
            return self.say(f"The scenarios could not be listed: {value}", error=True)
        self.items = list(value)
        if not self.items:
            return self.say("No scenario files in the scenarios folder", error=True)
        ids = [i.scenario.id if i.scenario is not None else None for i in self.items]
        known = self.chosen_id is not None and self.chosen_id in ids  # None: a bad file's id
        self.index = ids.index(self.chosen_id) if known else 0
        labels = [item.label for item in self.items]
        self.list = UISelectionList(
            pygame.Rect(LIST), labels, self.manager, default_selection=labels[self.index]
        )
        self.choose(self.index)

    @property
    def item(self) -> Listed | None:
        return self.items[self.index] if self.items else None

    def record_text(self, item: Listed) -> str:
        from battleclient.scenario_record import entry_text

        return entry_text(self.records.get(item.scenario.start_hash)) if item.scenario else ""

    # --- actions ---------------------------------------------------------------------------
    def choose(self, index: int) -> None:
        """Show file `index`: its details, its focal-slot toggles (every live one taken) and the
        Others box holding its controller."""
        self.index = index
        for button in self.toggles:
            button.kill()
        self.toggles = {}
        scenario = self.item.scenario
        if scenario is None:
            self.others.hide()
            self.buttons["start"].disable()
            return
        from battleclient.scenario_session import focal_slot_names

        names = focal_slot_names(scenario)
        alive = np.asarray(scenario.start.alive)
        playable = [s for s in scenario.focal_slots if alive[s]] or list(scenario.focal_slots)
        self.picked = set(playable)  # a verified line moves the whole focal team
        for k, (slot, name) in enumerate(zip(scenario.focal_slots, names, strict=True)):
            text = name if alive[slot] else f"{name} (dead)"
            rect = pygame.Rect(440 + k * 164, SLOTS_Y, 156, 34)  # five fit in the window
            self.toggles[UIButton(rect, text, self.manager)] = slot
        self.others.set_text(scenario.controller)
        self.others.show()
        self.buttons["start"].enable()
        self._sync()

    def toggle(self, slot: int) -> None:
        """Take or give up a focal slot (at least one stays taken)."""
        if slot in self.picked and len(self.picked) > 1:
            self.picked.discard(slot)
        elif slot not in self.picked:
            self.picked.add(slot)
        else:
            self.say("Play at least one focal slot")
        self._sync()

    def _sync(self) -> None:
        for button, slot in self.toggles.items():
            button.select() if slot in self.picked else button.unselect()

    def start(self) -> None:
        if self.items is None:
            return self.say("The scenarios are still loading")
        self._follow_list()
        item = self.item
        if item is None or item.scenario is None:
            return self.say("Pick a scenario that loads", error=True)
        from battleclient.scenario_session import slot_spec
        from policies.slotspec import check_system

        others = self.others.get_text().strip()
        try:
            slot_spec(item.scenario, self.picked, others)
            if others:  # an unknown bot or a missing checkpoint is said here, not in the lobby
                check_system(others, f"System spec {others!r} for your team's other slots")
        except ValueError as error:
            return self.say(str(error), error=True)
        self.app.start_scenario(item.scenario, sorted(self.picked), others)

    def _follow_list(self) -> None:
        """Take the list's own selection: a row clicked in the frame that also pressed Start
        is selected in the list, but pygame_gui posts its NEW_SELECTION event for the next
        frame, after Start has run (a slow frame under load holds both clicks)."""
        chosen = self.list.get_single_selection() if self.list is not None else None
        labels = [item.label for item in self.items]
        if chosen in labels and labels.index(chosen) != self.index:
            self.choose(labels.index(chosen))

    def say(self, text: str, error: bool = False) -> None:
        self.message, self.error = text, error

    # --- input -----------------------------------------------------------------------------
    def handle_events(self, events) -> None:
        for event in events:
            consumed = self.manager.process_events(event)
            if event.type == pygame_gui.UI_BUTTON_PRESSED:
                self._button(event.ui_element)
            elif event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and self.items:
                labels = [item.label for item in self.items]
                if event.text in labels:
                    self.choose(labels.index(event.text))
            elif (
                event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.others
            ):
                self.start()  # Enter in the System spec box starts, as the button says
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.app.to_lobby()  # from the spec box too: Esc edits nothing in one line
            elif event.type == pygame.KEYDOWN and not consumed and not self.others.is_focused:
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.start()

    def _button(self, element) -> None:
        if element is self.buttons["start"]:
            self.start()
        elif element is self.buttons["lobby"]:
            self.app.to_lobby()
        elif element in self.toggles:
            self.toggle(self.toggles[element])

    def _load(self) -> None:
        try:
            self.loaded = (True, list_scenarios())
        except Exception as error:  # said on the screen, never a crash
            self.loaded = (False, error)

    def loading_line(self) -> str:
        """The line shown until the list is up: the start-up's progress while the Systems are
        still being imported (the files are read after it), then the files being read; never
        the lobby's last "Ready: ..." line, which reads as if loading were over."""
        if self.app.kinds is None:
            return f"Loading the scenarios: {self.app.progress_text()}"
        return "Loading the scenarios: reading and checking the scenario files"

    def update(self, dt: float) -> None:
        if self.items is None and self.loader is None and self.app.kinds is not None:
            self.loader = threading.Thread(target=self._load, name="scenarios", daemon=True)
            self.loader.start()
        if self.loaded is not None:
            (ok, value), self.loaded = self.loaded, None
            self._on_listed(ok, value)
        self.manager.update(dt)

    def busy(self) -> bool:
        """While the files load: frames keep coming so the list shows when they are in."""
        return self.items is None and not self.failed

    # --- frame -----------------------------------------------------------------------------
    def draw(self, surface) -> None:
        app = self.app
        surface.fill(COLOURS["background"])
        title = "Scenarios: endgame positions to win within a few ticks"
        surface.blit(app.big.render(title, True, COLOURS["text"]), (20, 16))
        item = self.item
        if self.items is None:
            text = self.loading_line()
            panels.draw_lines(surface, DETAIL, [text], app.font, COLOURS["muted"])
        elif item is not None:
            self._draw_detail(surface, item)
        colour = COLOURS["damage"] if self.error else COLOURS["text"]
        panels.draw_lines(
            surface, MESSAGE, [self.message] if self.message else [], app.font, colour
        )
        self.manager.draw_ui(surface)

    def _draw_detail(self, surface, item: Listed) -> None:
        app = self.app
        inner = panels.panel(surface, DETAIL)
        head = item.scenario.label if item.scenario is not None else item.path.name
        y = panels.draw_lines(surface, inner, [(head, COLOURS["accent"])], app.big)
        lines = detail_lines(item, self.record_text(item))
        panels.draw_lines(surface, inner, lines, self.reading, y=y + 6, indent="")
        if item.picture is not None:
            tick = int(item.picture["tick"])
            caption = f"The start position (tick {tick}), as the Oracle sees it:"
            surface.blit(app.small.render(caption, True, COLOURS["muted"]), (20, PREVIEW[1] - 18))
            self.renderer.draw(surface, scene_from_state(item.picture), pygame.Rect(PREVIEW))
        if item.scenario is not None:
            hint = app.small.render(
                "Your slots (click to take or give up one):", True, COLOURS["muted"]
            )
            surface.blit(hint, (440, SLOTS_Y - 20))
            names = ", ".join(C.slot_label(s) for s in sorted(self.picked))
            mine = app.small.render(f"you play {names}", True, COLOURS["accent"])
            surface.blit(mine, (440 + hint.get_width() + 12, SLOTS_Y - 20))
            label = "Your team's other slots play this System spec:"
            surface.blit(app.small.render(label, True, COLOURS["muted"]), (440, OTHERS[1] - 18))
