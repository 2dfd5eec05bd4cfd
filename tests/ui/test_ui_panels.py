"""The shared wrapped-text drawing of ui.panels, with a font whose width is 10 px a character."""

import pygame

from ui.panels import draw_lines, wrap
from ui.theme import COLOURS


class TenPixelFont:
    """Every character is 10 px wide; a line is 12 px high; render paints a solid strip."""

    def size(self, text):
        return (10 * len(text), 12)

    def get_linesize(self):
        return 12

    def render(self, text, antialias, colour):
        strip = pygame.Surface((max(1, 10 * len(text)), 12))
        strip.fill(colour)
        return strip


def test_wrap_breaks_between_words_and_indents_continuations():
    font = TenPixelFont()
    assert wrap("ab cd", font, 50) == ["ab cd"]  # 50 px fits exactly
    assert wrap("ab cd ef", font, 50) == ["ab cd", "   ef"]
    assert wrap("ab cd ef", font, 50, indent="  ") == ["ab cd", "  ef"]
    # a word wider than the line still gets a line of its own
    assert wrap("abcdefgh ij", font, 50) == ["abcdefgh", "   ij"]


def test_draw_lines_stops_at_the_bottom_and_returns_the_next_y():
    font, surface = TenPixelFont(), pygame.Surface((100, 100))
    surface.fill((0, 0, 0))
    # width 58 leaves 50 px of text; "ab cd ef" takes two lines, the tinted one a third
    y = draw_lines(surface, (0, 10, 58, 40), ["ab cd ef", ("xy", (200, 0, 0))], font)
    assert y == 10 + 3 * 12
    assert tuple(surface.get_at((4, 10)))[:3] == COLOURS["text"]
    assert tuple(surface.get_at((4, 34)))[:3] == (200, 0, 0)
    # a rect 30 px high holds two 12 px lines: the third is not drawn
    assert draw_lines(surface, (0, 60, 58, 30), ["ab cd ef", "zz"], font, y=60) == 84


class _MonoFont:
    """A font whose every character is 10 pixels wide."""

    def size(self, text):
        return (10 * len(text), 16)


def test_elide_middle_keeps_the_share_of_the_end_it_is_asked_for():
    from ui.panels import elide_middle

    text = "abcdefghijklmnopqrst"  # 20 characters, 200 pixels
    assert elide_middle(text, _MonoFont(), 200) == text
    assert elide_middle(text, _MonoFont(), 130) == "abcde...pqrst"  # 10 kept, half at the end
    assert elide_middle(text, _MonoFont(), 130, 0.3) == "abcdefg...rst"  # 3 of 10 at the end
    assert elide_middle(text, _MonoFont(), 20) == "..."
