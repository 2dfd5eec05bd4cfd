"""The story strip over the scrubber: a mark for each death, Ultimate and score change, by team.

Team A's marks sit in the upper row, Team B's in the lower; the shape says the kind (a cross for
a death, a diamond for an Ultimate, a bar for points scored). Each mark is drawn above the
scrubber's handle position for its tick, so hovering names it and clicking jumps there. The
marks come from replay_viewer.story, already limited to what the view knew.
"""

import pygame

from replay_viewer.story import Mark
from ui.panels import wrap
from ui.theme import COLOURS, TEAM_COLOURS

PICK = 5  # pixels either side of a mark that still hit it
LEGEND = (("death", "x died"), ("ultimate", "<> Ultimate"), ("score", "| scored"))


def slider_track(slider, rect) -> tuple[float, float]:
    """(x of tick 0, pixels from tick 0 to the last tick) of a pygame_gui UIHorizontalSlider's
    handle centre, so marks line up with the handle; the whole `rect` when no slider is given."""
    rect = pygame.Rect(rect)
    if slider is None or slider.left_button is None:
        return float(rect.x), float(rect.width)
    start = slider.left_button.rect.right + slider.sliding_button_width / 2
    return float(start), float(slider.scrollable_width)


def mark_x(tick: int, ticks: int, track) -> int:
    start, span = track
    return round(start + span * tick / max(ticks, 1))


def _row_y(rect: pygame.Rect, team: int) -> int:
    return rect.y + rect.height // 4 + team * (rect.height // 2)


def _draw_mark(surface, mark: Mark, x: int, y: int) -> None:
    colour = TEAM_COLOURS[mark.team]
    if mark.kind == "death":
        pygame.draw.line(surface, colour, (x - 3, y - 3), (x + 3, y + 3), 2)
        pygame.draw.line(surface, colour, (x - 3, y + 3), (x + 3, y - 3), 2)
    elif mark.kind == "ultimate":
        pygame.draw.polygon(surface, colour, [(x, y - 4), (x + 4, y), (x, y + 4), (x - 4, y)], 1)
    else:
        pygame.draw.line(surface, colour, (x, y - 4), (x, y + 4), 2)


class StoryStrip:
    """Draws the marks into `rect` (window pixels) and answers hover and click there."""

    def __init__(self, rect):
        self.rect = pygame.Rect(rect)
        self._placed: list[tuple[int, int, Mark]] = []
        self.first = 0  # the game tick of replay index 0, for the tooltips

    def draw(self, surface, marks, ticks: int, track, cursor: int, first: int = 0) -> None:
        """Marks (replay_viewer.story.Mark) for a game of `ticks` ticks; `cursor` the shown
        replay index; `first` the game tick of index 0 (ViewerModel.first_tick)."""
        self.first = int(first)
        surface.fill(COLOURS["panel"], self.rect)
        pygame.draw.line(surface, COLOURS["panel_line"], self.rect.midleft, self.rect.midright, 1)
        self._placed = []
        for mark in marks:
            x, y = mark_x(mark.tick, ticks, track), _row_y(self.rect, mark.team)
            _draw_mark(surface, mark, x, y)
            self._placed.append((x, y, mark))
        cx = mark_x(cursor, ticks, track)
        pygame.draw.line(surface, COLOURS["accent"], (cx, self.rect.top), (cx, self.rect.bottom))

    def marks_at(self, pos) -> list[Mark]:
        """The marks drawn within PICK pixels of `pos` (x) in the strip, nearest tick first."""
        if not self.rect.collidepoint(pos):
            return []
        near = [(abs(x - pos[0]), m) for x, _, m in self._placed if abs(x - pos[0]) <= PICK]
        if not near:
            return []
        best = min(d for d, _ in near)
        tick = next(m.tick for d, m in near if d == best)
        return [m for _, m in near if m.tick == tick]

    def hover_lines(self, pos) -> list[str]:
        """Tooltip lines for the marks under `pos`: "Tick t: ..." then one line a mark."""
        found = self.marks_at(pos)
        if not found:
            return []
        g = self.first + found[0].tick
        return [f"Tick {g - 1} (state {g}); click to jump"] + [m.text for m in found]

    def tick_at(self, pos) -> int | None:
        """The replay index to jump to for a click at `pos`: the mark's tick, else None."""
        found = self.marks_at(pos)
        return found[0].tick if found else None


def draw_kill_feed(surface, rect, marks, font) -> None:
    """The latest deaths (story.kill_feed, newest first) right-aligned in `rect`, each on a
    dark band in the colour of the team that made the kill; nothing when `marks` is empty. A
    line too wide wraps at a word onto a second line of the band, so every name shows whole;
    the feed stops at the entry that would cross the bottom of `rect`."""
    rect = pygame.Rect(rect)
    y, step = rect.y, font.get_linesize()
    for mark in marks:
        lines = wrap(mark.text, font, rect.width - 10, indent="  ")
        images = [font.render(line, True, TEAM_COLOURS[1 - mark.team]) for line in lines]
        width = min(max(i.get_width() for i in images) + 10, rect.width)
        band = pygame.Rect(0, y, width, step * len(images) + 4)
        band.right = rect.right
        if band.bottom > rect.bottom:
            break
        shade = pygame.Surface(band.size, pygame.SRCALPHA)
        shade.fill((10, 10, 14, 190))
        surface.blit(shade, band)
        for k, image in enumerate(images):
            surface.blit(image, (band.x + 5, band.y + 2 + k * step))
        y = band.bottom + 2
