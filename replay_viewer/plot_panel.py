"""The plots below the arena: health per agent, score, damage per tick; legends, hover values
and click-to-seek. Every series comes from the ViewerModel already limited to the view (NaN
where the view did not know a value, replay_viewer.model), so hover values say no more."""

import math

import numpy as np
import pygame

from replay_viewer import layout as L
from replay_viewer.plots import SLOT_COLOURS, draw_plot, plot_area, tick_at_x
from ui.rules import C, hp_text, slot_label
from ui.theme import COLOURS, TEAM_COLOURS

TEAMS = (("A", TEAM_COLOURS[0]), ("B", TEAM_COLOURS[1]))


def value_cell(name: str, value: float, relayed: float = math.nan) -> str:
    """One series' value in the plot tooltip: health by ui.rules.hp_text, other series as
    whole numbers; a health known only from a relayed row is that value with "(relayed)";
    "?" where the view knows neither."""
    if not math.isnan(value):
        return hp_text(value) if name == "health" else f"{value:.0f}"
    if not math.isnan(relayed):
        return f"{hp_text(relayed)} (relayed)"
    return "?"


class PlotPanel:
    """Draws the three plots (cached per view and tick) and answers hover and click on them."""

    def __init__(self, app):
        self.app, self._key, self._layer = app, None, None

    def _series(self) -> dict:
        """name -> (values (N, k) with NaN gaps, colours, title, legend [(label, colour)],
        offset: the replay index of value 0; damage per tick i tells the move to tick i+1)."""
        model = self.app.model
        active = model.replay.states["active"][0]
        slots = [(slot_label(s), SLOT_COLOURS[s]) for s in range(C.NUM_SLOTS) if active[s]]
        return {
            "health": (model.health_series(), SLOT_COLOURS, "Health", slots, 0),
            "score": (model.score_series(), TEAM_COLOURS, "Score", TEAMS, 0),
            "damage": (model.damage_series(), TEAM_COLOURS, "Damage per tick", TEAMS, 1),
        }

    def draw(self, surface) -> None:
        model = self.app.model
        key = (model.view, model.tick, id(model))
        top = min(r[1] for r in L.PLOTS.values())
        if self._key != key:
            width = max(r[0] + r[2] for r in L.PLOTS.values())
            height = max(r[1] + r[3] for r in L.PLOTS.values()) - top
            layer = pygame.Surface((width, height))
            layer.fill(COLOURS["background"])
            font = self.app.renderer.font(16)
            for name, (values, colours, title, legend, _) in self._series().items():
                rect = pygame.Rect(L.PLOTS[name]).move(0, -top)
                draw_plot(layer, rect, values, colours, model.tick, title, font)
                x = rect.x + 8 + font.size(title)[0]
                for label, colour in legend:
                    layer.blit(font.render(label, True, colour), (x, rect.y + 2))
                    x += font.size(label)[0] + 5
            self._key, self._layer = key, layer
        surface.blit(self._layer, (0, top))
        self._draw_hover(surface)

    def _hit(self, pos):
        """(plot name, rect, index into its series) under `pos`, or None."""
        for name, rect in L.PLOTS.items():
            if plot_area(rect).collidepoint(pos):
                points = len(self._series()[name][0])
                return (
                    (name, pygame.Rect(rect), tick_at_x(rect, points, pos[0])) if points else None
                )
        return None

    def _draw_hover(self, surface) -> None:
        hit = self._hit(self.app.mouse)
        if hit is None:
            return
        name, rect, index = hit
        area, n = plot_area(rect), max(len(self._series()[name][0]) - 1, 1)
        x = area.x + index * area.width / n
        pygame.draw.line(surface, COLOURS["text"], (x, area.y), (x, area.bottom))

    def hover_lines(self, pos) -> list[str]:
        """The values under `pos` in a plot: "tick t" then "label value" for each series the
        view knows there: health as ui.rules.hp_text prints it, a unit known only through a
        relayed row by last tick's value marked "(relayed)", as the board shows it, "?" where
        the view knows nothing; [] off the plots."""
        hit = self._hit(pos)
        if hit is None:
            return []
        name, _, index = hit
        values, _, title, legend, offset = self._series()[name]
        row = np.atleast_1d(np.asarray(values, np.float64)[index])
        labels = [label for label, _ in legend]
        relayed = np.full(row.shape, np.nan)
        if name == "health":
            active = np.flatnonzero(self.app.model.replay.states["active"][0])
            row, relayed = row[active], self.app.model.relayed_health()[index][active]
        cells = [
            f"{lab} {value_cell(name, v, r)}"
            for lab, v, r in zip(labels, row, relayed, strict=True)
        ]
        g = self.app.model.game_tick(index)  # a scenario replay's index 0 is a later tick
        when = f"tick {g} -> {g + 1}" if offset else f"state {g}"
        return [f"{title}, {when}; click to jump", ", ".join(cells)]

    def click(self, pos) -> bool:
        """Seeks to the tick under a click on a plot; True if `pos` was on one."""
        hit = self._hit(pos)
        if hit is None:
            return False
        name, _, index = hit
        model = self.app.model
        model.timeline.step(index + self._series()[name][4] - model.tick)
        return True
