"""Wrapped text drawing shared by the BattleClient and the Replay Viewer panels."""

import pygame

from ui.elide import ELLIPSIS, elide_middle, elide_path  # noqa: F401  (used by the apps)
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


def fit_lines(text: str, fonts, width: int, height: int, indent: str = "  "):
    """(font, lines) to show `text` in a `width` x `height` pixel box.

    Tries `fonts` in order (largest first) with word wrapping; the first whose lines fit both
    ways wins. Otherwise the last font is used: a word wider than a line is elided in its middle
    (elide_path: a path keeps its first folder and its file name), and when more lines follow
    than fit, the last one shown ends in "..." after a whole word (the rest is cut)."""
    lines: list[str] = []
    for font in fonts:
        lines = wrap(text, font, width, indent)
        tall = len(lines) * font.get_linesize() > height
        if not tall and all(font.size(line)[0] <= width for line in lines):
            return font, lines
    font = fonts[-1]
    # a word wider than a line (a path) keeps its start and its file name (elide_path): a
    # path broken across lines, or cut inside its file name, reads as two wrong names
    room = width - font.size(indent)[0]
    lines = wrap(" ".join(elide_path(w, font, room) for w in text.split(" ")), font, width, indent)
    rows = max(1, height // font.get_linesize())
    kept = lines[:rows]
    if len(lines) > rows:
        kept[-1] = _end_line(kept[-1], font, width)
    return font, kept


def _end_line(line: str, font, width: int) -> str:
    """The last line shown of a longer text, ending in "...": cut after a whole word that
    leaves room, or, for a line of one word (a path), with that word elided to fit."""
    if " " in line.strip():
        return _cut_end(line + ELLIPSIS, font, width, at_word=True)
    lead = line[: len(line) - len(line.lstrip())]
    return lead + elide_path(line.strip(), font, width - font.size(lead + ELLIPSIS)[0]) + ELLIPSIS


def _cut_end(line: str, font, width: int, at_word: bool = False) -> str:
    """`line`, or its longest start followed by "..." that is at most `width` pixels wide; with
    `at_word`, a start that ends at a word break where the line has one (a single long word,
    such as a path, is cut inside it)."""
    if font.size(line)[0] <= width:
        return line
    body = line[: -len(ELLIPSIS)] if line.endswith(ELLIPSIS) else line
    while body and font.size(body + ELLIPSIS)[0] > width:
        body = body[:-1]
    cut_inside = len(body) < len(line) and not line[len(body)].isspace()
    if at_word and cut_inside and " " in body.strip():
        body = body.rstrip()[: body.rstrip().rfind(" ")]
    return body.rstrip() + ELLIPSIS


def break_words(text: str, font, width: int) -> str:
    """`text` with each word wider than `width` pixels of `font` split by spaces into pieces
    that fit (a long path wraps instead of running off its line)."""
    return " ".join(piece for word in text.split(" ") for piece in _pieces(word, font, width))


def _pieces(word: str, font, width: int) -> list[str]:
    """`word` cut into consecutive pieces each at most `width` pixels of `font` wide, a path
    after a "/" where a piece holds one (each folder name stays whole on a line)."""
    pieces = []
    while font.size(word)[0] > width and len(word) > 1:
        end = len(word) - 1
        while end > 1 and font.size(word[:end])[0] > width:
            end -= 1
        slash = word.rfind("/", 1, end)
        end = slash + 1 if slash > 0 else end
        pieces.append(word[:end])
        word = word[end:]
    return pieces + [word]


def is_cut(text: str, lines) -> bool:
    """True when `lines` (fit_lines' output for `text`) do not hold all of it (a word broken
    across lines by break_words still counts as held)."""
    return "".join("".join(lines).split()) != "".join(text.split())


cut_end = _cut_end  # the public name (ui.animation's captions)


def short_path(path, home=None) -> str:
    """A path as a person reads it: under the home folder it starts with "~"."""
    from pathlib import Path

    path = Path(path)
    home = Path.home() if home is None else Path(home)
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)
