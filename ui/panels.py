"""Wrapped text drawing shared by the BattleClient and the Replay Viewer panels."""

import pygame

from ui.theme import COLOURS


def wrap(text: str, font, width: int, indent: str = "   ") -> list[str]:
    """Greedy word wrap of one line to pixel `width`; continuation lines start with `indent`.

    A word wider than `width` still gets a line of its own (never an empty line)."""
    if font.size(text)[0] <= width:
        return [text]
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if font.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = indent + word
    return lines + [line] if line else lines


def draw_lines(surface, rect, lines, font, colour=None, y=None, indent: str = "   ") -> int:
    """Draws `lines` (text, or (text, colour)) wrapped into `rect` from its top or from `y`.

    Text without its own colour uses `colour`, else the theme's text colour; drawing stops at
    the line that would cross the bottom of `rect`. Returns the y (pixels) of the next line."""
    rect = pygame.Rect(rect)
    y = rect.y if y is None else y
    step = font.get_linesize()
    for item in lines:
        text, tint = item if isinstance(item, tuple) else (item, colour or COLOURS["text"])
        for part in wrap(text, font, rect.width - 8, indent):
            if y + step > rect.bottom:
                return y
            surface.blit(font.render(part, True, tint), (rect.x + 4, y))
            y += step
    return y
