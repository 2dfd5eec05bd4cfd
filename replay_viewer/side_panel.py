"""The right-hand panel (its tabs: replay_viewer.tabs) and the plots below the arena.

The panel switches between tab objects and caches the body's picture until what it shows
changes; the plots (replay_viewer.plot_panel) follow the view and the tick.
"""

import pygame
from pygame_gui.elements import UIButton

from replay_viewer import layout as L
from replay_viewer.panels import draw_lines
from replay_viewer.plot_panel import PlotPanel
from replay_viewer.tabs import TAB_CLASSES
from ui.theme import COLOURS

ORACLE_ONLY = "Metrics describe the whole game, so they show only in the Oracle view (press o)."


class SidePanel:
    """Owns the tabs and their buttons; talks to the App for the model and fonts. `tab` is the
    current tab's name ("log", "agent", "metrics", "heat")."""

    def __init__(self, app):
        self.app, self.tab = app, "log"
        self.tabs = {cls.name: cls(self) for cls in TAB_CLASSES}
        self.tab_buttons: dict = {}
        self.plots = PlotPanel(app)
        self._cache: dict = {}

    # the Metrics and Heat maps tabs' parts, by the names the rest of the viewer uses
    metrics = property(lambda self: self.tabs["metrics"])
    search = property(lambda self: self.metrics.search)
    table = property(lambda self: self.metrics.table)
    note = property(lambda self: self.metrics.note)
    hide_zero_button = property(lambda self: self.metrics.hide_zero_button)
    csv_button = property(lambda self: self.metrics.csv_button)
    cells = property(lambda self: self.tabs["heat"].cells)

    @property
    def current(self):
        return self.tabs[self.tab]

    def build(self) -> None:
        m = self.app.manager
        for k, tab in enumerate(self.tabs.values()):
            rect = pygame.Rect(L.SIDE[0] + k * (L.TAB_W + 2), L.SIDE[1], L.TAB_W, L.TAB_H)
            self.tab_buttons[tab.name] = UIButton(rect, tab.title, m)
            if self.app.model is None:
                self.tab_buttons[tab.name].disable()  # no replay, no tabs (Toolbar brings them)
            tab.build(m)
        self._show_widgets()

    def _allowed(self, tab) -> bool:
        """Whether `tab` shows its content in the current view (oracle_only tabs: Oracle)."""
        model = self.app.model
        return model is not None and (not tab.oracle_only or model.view == "oracle")

    def _show_widgets(self) -> None:
        shown = self.current.widgets() if self._allowed(self.current) else []
        if self.search not in shown and self.search.is_focused:
            self.app.release_keyboard()  # a hidden box must not keep the keyboard
        for tab in self.tabs.values():
            for widget in tab.all_widgets():
                widget.show() if any(widget is w for w in shown) else widget.hide()

    def set_metrics(self, table, note: str) -> None:
        self.metrics.table, self.metrics.note = table, note
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
        return any(tab.button(element) for tab in self.tabs.values())

    def export_csv(self):
        return self.metrics.export_csv()

    def hover_lines(self, pos) -> list[str]:
        """Tooltip lines for `pos` (window pixels): the current tab's, then the plots'."""
        if self.app.model is None:
            return []
        if self._allowed(self.current):
            lines = self.current.hover_lines(pos)
            if lines:
                return lines
        return self.plots.hover_lines(pos)

    def text_changed(self, element, text: str) -> bool:
        if element is self.search and self.table is not None:
            self.table.set_query(text)
            return True
        return False

    def act(self, action: str, arg) -> None:
        names = list(self.tabs)
        if action == "tab":
            self.tab = names[(names.index(self.tab) + arg) % len(names)]
        elif action == "search":
            self.tab = "metrics"
            self._show_widgets()
            if self.table is not None and self._allowed(self.current):
                self.app.give_keyboard(self.search)

    def wheel(self, pos, dy: int) -> None:
        if self._allowed(self.current):
            self.current.scroll(pos, dy)

    def click(self, pos) -> bool:
        if self._allowed(self.current) and self.current.click(pos):
            return True
        return self.plots.click(pos)

    # --- drawing -----------------------------------------------------------------------------
    def _key(self):
        model = self.app.model
        extra = self.current.key() if self._allowed(self.current) else ()
        return (self.tab, model.tick, model.view, model.selected, extra, id(model))

    def draw(self, surface) -> None:
        self._show_widgets()
        for name, button in self.tab_buttons.items():
            button.select() if name == self.tab else button.unselect()
        key = self._key()
        if self._cache.get("side_key") != key:
            body = pygame.Surface(L.SIDE_BODY[2:])
            body.fill(COLOURS["panel"])
            rect = body.get_rect().inflate(-8, -8)
            if self._allowed(self.current):
                self.current.render(body, rect, self.app.font)
            else:
                draw_lines(body, rect, [ORACLE_ONLY], self.app.font, COLOURS["muted"])
            self._cache.update(side_key=key, side=body)
        surface.blit(self._cache["side"], L.SIDE_BODY[:2])

    def draw_plots(self, surface) -> None:
        self.plots.draw(surface)
