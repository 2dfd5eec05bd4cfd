"""The right-hand panel (event log, selected agent, metrics, heat maps) and the plots below
the arena. Content is re-rendered only when what it shows changes."""

from pathlib import Path

import pygame
from pygame_gui.elements import UIButton, UITextEntryLine

from replay_viewer import layout as L
from replay_viewer.metric_values import definitions
from replay_viewer.panels import draw_lines, log_history
from replay_viewer.plots import SLOT_COLOURS, draw_heat_map, draw_plot
from ui.panels import short_path
from ui.paths import metrics_dir
from ui.rules import unit_name
from ui.theme import COLOURS, TEAM_COLOURS

TABS = (("log", "Log"), ("agent", "Agent"), ("metrics", "Metrics"), ("heat", "Heat maps"))
HEAT_KINDS = ("damage", "healing", "control")
ORACLE_ONLY = "Metrics describe the whole game, so they show only in the Oracle view (press o)."


class SidePanel:
    """Owns its pygame_gui widgets and caches; talks to the App for the model and fonts."""

    def __init__(self, app):
        self.app, self.tab, self.heat_kind = app, "log", "damage"
        self.table, self.note = None, "no replay open"
        self.tab_buttons, self.heat_buttons = {}, {}
        self.search = None
        self.cells: dict = {}
        self._cache: dict = {}

    def build(self) -> None:
        m = self.app.manager
        for k, (name, text) in enumerate(TABS):
            rect = pygame.Rect(L.SIDE[0] + k * (L.TAB_W + 2), L.SIDE[1], L.TAB_W, L.TAB_H)
            self.tab_buttons[name] = UIButton(rect, text, m)
        self.search = UITextEntryLine(
            pygame.Rect(L.SEARCH), m, placeholder_text="search metrics (/)"
        )
        self.hide_zero_button = UIButton(
            pygame.Rect(L.HIDE_ZERO), "Hide 0", m, tool_tip_text="Hide rows whose value is 0"
        )
        self.csv_button = UIButton(
            pygame.Rect(L.CSV), "CSV", m, tool_tip_text="Save the rows shown as a CSV file"
        )
        for k, kind in enumerate(HEAT_KINDS):
            rect = pygame.Rect(L.SIDE[0] + k * 104, L.HEAT_BUTTONS_Y, 100, 26)
            self.heat_buttons[kind] = UIButton(rect, kind.capitalize(), m)
        self._show_widgets()

    def _show_widgets(self) -> None:
        metrics = self.tab == "metrics" and self.table is not None and self._oracle()
        if not metrics and self.search.is_focused:  # a hidden box must not keep the keyboard
            self.app.release_keyboard()
        for widget in (self.search, self.hide_zero_button, self.csv_button):
            widget.show() if metrics else widget.hide()
        for button in self.heat_buttons.values():
            button.show() if self.tab == "heat" and self._oracle() else button.hide()

    def _oracle(self) -> bool:
        return self.app.model is not None and self.app.model.view == "oracle"

    def set_metrics(self, table, note: str) -> None:
        self.table, self.note = table, note
        self.search.set_text("")
        self._cache.clear()

    # --- input -------------------------------------------------------------------------------
    def typing(self) -> bool:
        return self.search.is_focused

    def button(self, element) -> bool:
        for name, button in self.tab_buttons.items():
            if element is button:
                self.tab = name
                return True
        for kind, button in self.heat_buttons.items():
            if element is button:
                self.heat_kind = kind
                return True
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

    def hover_lines(self, pos) -> list[str]:
        """The definition of the metric row under `pos` (window pixels) in the Metrics tab, as
        the catalog gives it (docs/METRICS.md); [] elsewhere."""
        if self.tab != "metrics" or self.table is None or not self._oracle():
            return []
        x, y = pos[0] - L.SIDE_BODY[0], pos[1] - L.SIDE_BODY[1]
        for rect, row in self.table.row_rects:
            if rect.collidepoint(x, y):
                text = definitions().get(row[0])
                return [row[0], text] if text else []
        return []

    def text_changed(self, element, text: str) -> bool:
        if element is self.search and self.table is not None:
            self.table.set_query(text)
            return True
        return False

    def act(self, action: str, arg) -> None:
        names = [name for name, _ in TABS]
        if action == "tab":
            self.tab = names[(names.index(self.tab) + arg) % len(names)]
        elif action == "search":
            self.tab = "metrics"
            self._show_widgets()
            if self.table is not None and self._oracle():
                self.app.give_keyboard(self.search)

    def wheel(self, pos, dy: int) -> None:
        if (
            self.tab == "metrics"
            and self.table is not None
            and pygame.Rect(L.TABLE).collidepoint(pos)
        ):
            self.table.scroll_by(-3 * dy, self.table.capacity(L.TABLE))

    def click(self, pos) -> None:
        model = self.app.model
        if self.tab == "metrics" and self.table is not None and self._oracle():
            for column, rect in self.table.header_rects.items():
                if rect.collidepoint(pos):
                    self.table.toggle_sort(column)
                    return
        if self.tab == "heat" and self._oracle():
            for (source, target), rect in self.cells.items():
                if rect.collidepoint(pos):
                    self._jump_to_pair(model, source, target)
                    return

    def _jump_to_pair(self, model, source: int, target: int) -> None:
        tick = model.peak_tick(self.heat_kind, source, target)
        who = f"{model.unit_label(source)} -> {model.unit_label(target)}"
        if tick is None:
            self.app.say(f"{who}: no single peak tick for {self.heat_kind}")
            return
        model.timeline.step(tick - model.tick)
        model.selected = target
        self.app.say(f"Tick {tick}: the most {self.heat_kind} {who}; press {target} for its view")

    # --- drawing -----------------------------------------------------------------------------
    def _key(self):
        model, t = self.app.model, self.app.model.tick
        table = self.table
        table_key = (
            None if table is None else (table.query, table.scroll, table.sort, table.hide_zero)
        )
        return (self.tab, t, model.view, model.selected, table_key, self.heat_kind, id(model))

    def draw(self, surface) -> None:
        self._show_widgets()
        for name, button in self.tab_buttons.items():
            button.select() if name == self.tab else button.unselect()
        key = self._key()
        if self._cache.get("side_key") != key:
            body = pygame.Surface(L.SIDE_BODY[2:])
            self._render_body(body)
            self._cache.update(side_key=key, side=body)
        surface.blit(self._cache["side"], L.SIDE_BODY[:2])

    def _render_body(self, body) -> None:
        body.fill(COLOURS["panel"])
        model, font, rect = self.app.model, self.app.font, body.get_rect().inflate(-8, -8)
        self.cells = {}
        if self.tab == "log":
            draw_lines(body, rect, log_history(model), font)
        elif self.tab == "agent":
            draw_lines(body, rect, model.agent_lines(model.selected), font)
        elif not self._oracle():
            draw_lines(body, rect, [ORACLE_ONLY], font, COLOURS["muted"])
        elif self.tab == "metrics":
            self._render_metrics(body, rect, font)
        else:
            self._render_heat(body, model, font)

    def _render_metrics(self, body, rect, font) -> None:
        offset = L.TABLE[1] - L.SIDE_BODY[1]
        draw_lines(
            body,
            pygame.Rect(rect.x, offset - 22, rect.width, 20),
            [self.note],
            font,
            COLOURS["muted"],
        )
        if self.table is None:
            return
        table_rect = pygame.Rect(0, offset, L.TABLE[2], L.TABLE[3])
        self.table.draw(body, table_rect, font, self.app.small_fonts)
        # header rects are in body coordinates; shift them to the window for clicks
        for rect_ in self.table.header_rects.values():
            rect_.move_ip(L.SIDE_BODY[0], L.SIDE_BODY[1])

    def _render_heat(self, body, model, font) -> None:
        matrix = model.pair_matrices()[self.heat_kind]
        units = "hit points" if self.heat_kind != "control" else "ticks of stun and slow"
        area = pygame.Rect(4, 40, body.get_width() - 8, 440)
        title = f"{self.heat_kind.capitalize()} ({units}), rows = source, columns = target"
        cells = draw_heat_map(body, area, matrix, title, font, model.replay.states["active"][0])
        self.cells = {k: r.move(L.SIDE_BODY[0], L.SIDE_BODY[1]) for k, r in cells.items()}
        top = self._top_pairs(model, matrix)
        lines = ["Click a cell to jump to its peak tick.", "Largest:"] + top
        draw_lines(
            body, pygame.Rect(4, 490, body.get_width() - 8, 180), lines, font, COLOURS["muted"]
        )

    @staticmethod
    def _top_pairs(model, matrix, count: int = 5) -> list[str]:
        order = sorted(((matrix[s, r], s, r) for s in range(10) for r in range(10)), reverse=True)
        cls = model.replay.states["class_id"][0]
        return [
            f"{unit_name(s, cls[s])} -> {unit_name(r, cls[r])}: {v:.0f}"
            for v, s, r in order[:count]
            if v > 0
        ]

    def draw_plots(self, surface) -> None:
        model = self.app.model
        key = (model.view, model.tick, id(model))
        top = min(r[1] for r in L.PLOTS.values())
        if self._cache.get("plot_key") != key:
            width = max(r[0] + r[2] for r in L.PLOTS.values())
            height = max(r[1] + r[3] for r in L.PLOTS.values()) - top
            layer = pygame.Surface((width, height))
            layer.fill(COLOURS["background"])
            font, t = self.app.renderer.font(16), model.tick
            series = {
                "health": (model.health_series(), SLOT_COLOURS, "Health per agent"),
                "score": (model.score_series(), TEAM_COLOURS, "Score A / B"),
                "damage": (model.damage_series(), TEAM_COLOURS, "Damage dealt per tick, A / B"),
            }
            for name, (values, colours, title) in series.items():
                rect = pygame.Rect(L.PLOTS[name]).move(0, -top)
                draw_plot(layer, rect, values, colours, t, title, font)
            self._cache.update(plot_key=key, plots=layer)
        surface.blit(self._cache["plots"], (0, top))
