"""Small line plots over time (health per agent, score, damage per tick) and pair heat maps."""

import numpy as np
import pygame

from ui.rules import C, slot_label
from ui.theme import COLOURS, TEAM_COLOURS

# Ten distinguishable slot colours: team hue, lighter for later slots.
SLOT_COLOURS = tuple(
    tuple(min(255, int(c * (0.55 + 0.15 * k)) + 10 * k) for c in TEAM_COLOURS[team])
    for team in range(2)
    for k in range(5)
)


def _segments(xs: np.ndarray, ys: np.ndarray):
    """Runs of consecutive finite points (NaN breaks the line), as lists of (x, y)."""
    finite = np.isfinite(ys)
    if not finite.any():
        return []
    edges = np.flatnonzero(np.diff(np.concatenate([[0], finite.astype(np.int8), [0]])))
    points = np.stack([xs, np.where(finite, ys, 0)], axis=1).tolist()
    return [points[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True)]


def plot_area(rect) -> pygame.Rect:
    """The part of a plot's `rect` that holds its lines (below the title row)."""
    rect = pygame.Rect(rect)
    return pygame.Rect(rect.x + 4, rect.y + 16, rect.width - 8, rect.height - 20)


def tick_at_x(rect, points: int, x: float) -> int:
    """The x index (0..points-1) of a plot of `points` values nearest pixel column `x`."""
    area, n = plot_area(rect), max(points - 1, 1)
    return int(np.clip(round((x - area.x) * n / max(area.width, 1)), 0, max(points - 1, 0)))


def draw_plot(surface, rect, series, colours, cursor, title, font, top=None) -> None:
    """Lines of `series` (N, k) over x = 0..N-1 in `rect`, a cursor at x = `cursor`.

    NaN values leave gaps. The y axis runs from 0 to `top` (default: the largest finite value).
    """
    rect = pygame.Rect(rect)
    surface.fill(COLOURS["panel"], rect)
    pygame.draw.rect(surface, COLOURS["panel_line"], rect, 1)
    surface.blit(font.render(title, True, COLOURS["muted"]), (rect.x + 4, rect.y + 2))
    area = plot_area(rect)
    series = np.asarray(series, np.float64)
    if series.ndim == 1:
        series = series[:, None]
    finite = series[np.isfinite(series)]
    top = top or (float(finite.max()) if finite.size else 1.0) or 1.0
    n = max(series.shape[0] - 1, 1)
    xs = area.x + np.arange(series.shape[0]) * area.width / n
    for k in range(series.shape[1]):
        ys = area.bottom - np.clip(series[:, k] / top, 0, 1) * area.height
        for run in _segments(xs, ys):
            if len(run) > 1:
                pygame.draw.lines(surface, colours[k % len(colours)], False, run, 1)
            else:
                surface.set_at((round(run[0][0]), round(run[0][1])), colours[k % len(colours)])
    label = font.render(f"{top:.0f}", True, COLOURS["muted"])
    surface.blit(label, (rect.right - label.get_width() - 4, rect.y + 2))
    if cursor is not None:
        cx = area.x + cursor * area.width / n
        pygame.draw.line(surface, COLOURS["accent"], (cx, area.y), (cx, area.bottom))


def heat_colour(frac: float) -> tuple[int, int, int]:
    """0 -> dark panel, 1 -> bright orange."""
    frac = float(np.clip(frac, 0, 1))
    base, hot = np.array(COLOURS["panel"]), np.array((255, 150, 40))
    return tuple(int(v) for v in base + (hot - base) * frac**0.6)


def draw_heat_map(surface, rect, matrix, title, font, active) -> dict:
    """A (10, 10) [source row, target column] matrix as coloured cells with values.

    Returns {(source, target): cell rect} of drawn cells (for clicks). Inactive slots are left
    out (`active` (10,) bool).
    """
    rect = pygame.Rect(rect)
    slots = [s for s in range(C.NUM_SLOTS) if active[s]]
    surface.blit(font.render(title, True, COLOURS["text"]), (rect.x, rect.y))
    label_w, top = 26, rect.y + 32
    size = max(
        8,
        min((rect.width - label_w) // max(len(slots), 1), (rect.height - 32) // max(len(slots), 1)),
    )
    peak = float(np.max(matrix)) if np.max(matrix) > 0 else 1.0
    cells = {}
    for i, s in enumerate(slots):
        head = font.render(slot_label(s), True, TEAM_COLOURS[s // 5])
        surface.blit(head, (rect.x + label_w + i * size + 2, rect.y + 16))
        surface.blit(head, (rect.x, top + i * size + 2))
        for j, r in enumerate(slots):
            cell = pygame.Rect(rect.x + label_w + j * size, top + i * size, size - 1, size - 1)
            value = float(matrix[s, r])
            surface.fill(heat_colour(value / peak), cell)
            if value > 0 and size >= 22:
                text = font.render(f"{value:.0f}", True, (255, 255, 255))
                surface.blit(text, text.get_rect(center=cell.center))
            cells[(s, r)] = cell
    return cells
