"""The side panel's tabs, one class each: Log, Agent, Metrics, Heat maps.

A tab draws its body (`render`), answers a click, a wheel turn and a hover in window pixels,
names the widgets it shows, and says what its picture depends on (`key`, for the panel's
cache). `oracle_only` tabs describe the whole game (metrics, pair totals), so a point of view
gets a note instead (RULES 5.7: a view shows only what it observed). Adding a tab is one class
here and one entry in TAB_CLASSES.
"""

from pathlib import Path

import pygame
from pygame_gui.elements import UIButton, UITextEntryLine

from replay_viewer import layout as L
from replay_viewer.metric_values import definitions
from replay_viewer.panels import draw_lines, log_history
from replay_viewer.plots import draw_heat_map
from ui.panels import short_path
from ui.paths import metrics_dir
from ui.rules import C, unit_name
from ui.theme import COLOURS

HEAT_KINDS = ("damage", "healing", "control")


class Tab:
    """The defaults: text only, no widgets, clicks, wheel or hover."""

    name, title, oracle_only = "", "", False

    def __init__(self, panel):
        self.panel = panel

    @property
    def app(self):
        return self.panel.app

    def build(self, manager) -> None:
        """Creates the tab's pygame_gui widgets (once)."""

    def widgets(self) -> list:
        """The widgets shown while this tab is open (in a view it may show)."""
        return []

    def all_widgets(self) -> list:
        """Every widget the tab owns (hidden while another tab is open)."""
        return self.widgets()

    def key(self) -> tuple:
        return ()

    def render(self, body, rect, font) -> None:
        raise NotImplementedError

    def click(self, pos) -> bool:
        return False

    def scroll(self, pos, dy: int) -> bool:
        return False

    def hover_lines(self, pos) -> list[str]:
        return []

    def button(self, element) -> bool:
        return False


class LogTab(Tab):
    name, title = "log", "Log"

    def render(self, body, rect, font) -> None:
        draw_lines(body, rect, log_history(self.app.model), font)


class AgentTab(Tab):
    name, title = "agent", "Agent"

    def render(self, body, rect, font) -> None:
        model = self.app.model
        draw_lines(body, rect, model.agent_lines(model.selected), font)


class MetricsTab(Tab):
    """The metrics table: search box, "Hide 0", CSV export, sorting by a header click."""

    name, title, oracle_only = "metrics", "Metrics", True

    def __init__(self, panel):
        super().__init__(panel)
        self.table, self.note = None, "no replay open"

    def build(self, manager) -> None:
        self.search = UITextEntryLine(
            pygame.Rect(L.SEARCH), manager, placeholder_text="search metrics (/)"
        )
        self.hide_zero_button = UIButton(
            pygame.Rect(L.HIDE_ZERO), "Hide 0", manager, tool_tip_text="Hide rows whose value is 0"
        )
        self.csv_button = UIButton(
            pygame.Rect(L.CSV), "CSV", manager, tool_tip_text="Save the rows shown as a CSV file"
        )

    def widgets(self) -> list:
        return self.all_widgets() if self.table is not None else []

    def all_widgets(self) -> list:
        return [self.search, self.hide_zero_button, self.csv_button]

    def key(self) -> tuple:
        t = self.table
        return () if t is None else (t.query, t.scroll, t.sort, t.hide_zero)

    def render(self, body, rect, font) -> None:
        offset = L.TABLE[1] - L.SIDE_BODY[1]
        note_rect = pygame.Rect(rect.x, offset - 22, rect.width, 20)
        draw_lines(body, note_rect, [self.note], font, COLOURS["muted"])
        if self.table is None:
            return
        self.table.draw(
            body, pygame.Rect(0, offset, L.TABLE[2], L.TABLE[3]), font, self.app.small_fonts
        )
        # header rects are in body coordinates; shift them to the window for clicks
        for header in self.table.header_rects.values():
            header.move_ip(L.SIDE_BODY[0], L.SIDE_BODY[1])

    def click(self, pos) -> bool:
        for column, rect in self.table.header_rects.items() if self.table else ():
            if rect.collidepoint(pos):
                self.table.toggle_sort(column)
                return True
        return False

    def scroll(self, pos, dy: int) -> bool:
        if self.table is None or not pygame.Rect(L.TABLE).collidepoint(pos):
            return False
        self.table.scroll_by(-3 * dy, self.table.capacity(L.TABLE))
        return True

    def hover_lines(self, pos) -> list[str]:
        """The definition of the metric row under `pos`, as the catalog gives it
        (docs/METRICS.md); [] elsewhere."""
        if self.table is None:
            return []
        x, y = pos[0] - L.SIDE_BODY[0], pos[1] - L.SIDE_BODY[1]
        for rect, row in self.table.row_rects:
            if rect.collidepoint(x, y):
                text = definitions().get(row[0])
                return [row[0], text] if text else []
        return []

    def button(self, element) -> bool:
        if element is self.hide_zero_button and self.table is not None:
            self.table.toggle_hide_zero()
            hidden = self.table.hide_zero
            self.hide_zero_button.set_text("Show 0" if hidden else "Hide 0")
            self.app.say(f"Rows with value 0: {'hidden' if hidden else 'shown'}")
            return True
        if element is self.csv_button and self.table is not None:
            self.export_csv()
            return True
        return False

    def export_csv(self) -> Path | None:
        """The metric rows shown (search, hidden zeros, sort) as a new CSV in the metrics
        folder under the data directory (ui.paths.metrics_dir), never over a file."""
        stem = f"{Path(self.app.model.name).stem}_metrics"
        for n in range(1, 1000):
            path = metrics_dir() / (f"{stem}.csv" if n == 1 else f"{stem}-{n}.csv")
            try:
                self.table.write_csv(path)
            except FileExistsError:
                continue
            except OSError as error:  # a read-only or full disk: said, the viewer goes on
                self.app.say(f"CSV not saved: {error}", error=True)
                return None
            self.app.say(f"Saved {self.table.rows.height} rows to {short_path(path)}")
            return path
        return None


class HeatTab(Tab):
    """Whole-game pair totals as heat maps; a click on a cell jumps to its peak tick."""

    name, title, oracle_only = "heat", "Heat maps", True

    def __init__(self, panel):
        super().__init__(panel)
        self.kind, self.buttons, self.cells = "damage", {}, {}

    def build(self, manager) -> None:
        for k, kind in enumerate(HEAT_KINDS):
            rect = pygame.Rect(L.SIDE[0] + k * 104, L.HEAT_BUTTONS_Y, 100, 26)
            self.buttons[kind] = UIButton(rect, kind.capitalize(), manager)

    def widgets(self) -> list:
        return list(self.buttons.values())

    def key(self) -> tuple:
        return (self.kind,)

    def button(self, element) -> bool:
        for kind, button in self.buttons.items():
            if element is button:
                self.kind = kind
                return True
        return False

    def render(self, body, rect, font) -> None:
        model = self.app.model
        matrix = model.pair_matrices()[self.kind]
        units = "hit points" if self.kind != "control" else "ticks of stun and slow"
        area = pygame.Rect(4, 40, body.get_width() - 8, 440)
        title = f"{self.kind.capitalize()} ({units}), rows = source, columns = target"
        cells = draw_heat_map(body, area, matrix, title, font, model.replay.states["active"][0])
        self.cells = {k: r.move(L.SIDE_BODY[0], L.SIDE_BODY[1]) for k, r in cells.items()}
        lines = ["Click a cell to jump to its peak tick.", "Largest:", *top_pairs(model, matrix)]
        box = pygame.Rect(4, 490, body.get_width() - 8, 180)
        draw_lines(body, box, lines, font, COLOURS["muted"])

    def click(self, pos) -> bool:
        for (source, target), rect in self.cells.items():
            if rect.collidepoint(pos):
                self._jump_to_pair(source, target)
                return True
        return False

    def _jump_to_pair(self, source: int, target: int) -> None:
        model = self.app.model
        tick = model.peak_tick(self.kind, source, target)
        who = f"{model.unit_label(source)} -> {model.unit_label(target)}"
        if tick is None:
            self.app.say(f"{who}: no single peak tick for {self.kind}")
            return
        model.timeline.step(tick - model.tick)
        model.selected = target
        g = model.game_tick(tick)
        self.app.say(
            f"Tick {g - 1} (state {g}): the most {self.kind} {who}; press {target} for its view"
        )


def top_pairs(model, matrix, count: int = 5) -> list[str]:
    """The `count` largest (source, target) entries of a (10, 10) matrix as lines."""
    slots = range(C.NUM_SLOTS)
    order = sorted(((matrix[s, r], s, r) for s in slots for r in slots), reverse=True)
    cls = model.replay.states["class_id"][0]
    return [
        f"{unit_name(s, cls[s])} -> {unit_name(r, cls[r])}: {v:.0f}"
        for v, s, r in order[:count]
        if v > 0
    ]


TAB_CLASSES = (LogTab, AgentTab, MetricsTab, HeatTab)
