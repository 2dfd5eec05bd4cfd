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


def test_elide_path_keeps_the_first_folder_and_the_file_name():
    from ui.panels import elide_path

    font, path = TenPixelFont(), "~/.local/share/mbg/shots/game_t0012.png"  # 39 characters
    assert elide_path(path, font, 390) == path
    assert elide_path(path, font, 360) == "~/.../share/mbg/shots/game_t0012.png"  # 36 characters
    assert elide_path(path, font, 300) == "~/.../mbg/shots/game_t0012.png"  # whole folders go
    assert elide_path(path, font, 259) == "~/.../game_t0012.png"
    assert elide_path(path, font, 190) == "~/.../game_...2.png"  # the name, in its middle
    absolute = "/home/someone/runs/final/game.mbgr"
    assert elide_path(absolute, font, 220) == "/home/.../game.mbgr"
    assert elide_path("no_folders_here.json", font, 120) == "no_f....json"  # 4 + 5 kept


def test_fit_lines_elides_a_long_path_and_never_breaks_it():
    from ui.panels import fit_lines, is_cut

    font = TenPixelFont()
    text = "Saved ~/.local/share/mbg/shots/game_t0012.png and the rest of it"
    used, lines = fit_lines(text, (font,), 300, 36)  # three lines of 30 characters
    assert used is font
    assert lines == ["Saved", "  ~/.../shots/game_t0012.png", "  and the rest of it"]
    assert is_cut(text, lines)  # so the status line offers the whole text on hover
    # two lines: the path ends the second, elided further to leave room for the "..."
    assert fit_lines(text, (font,), 300, 24)[1] == ["Saved", "  ~/.../game_t0012.png..."]
    # a line that ends after a word: "..." in place of the words that do not fit
    tail = "~/.local/share/mbg/shots/game_t0012.png and more"
    assert fit_lines(tail, (font,), 300, 12)[1] == ["~/.../shots/game_t0012.png..."]


def test_break_words_breaks_a_path_after_a_folder():
    from ui.panels import break_words

    font = TenPixelFont()
    assert break_words("to ~/.local/share/mbg/game.png", font, 150) == (
        "to ~/.local/share/ mbg/game.png"
    )
    assert break_words("abcdefghijklmnop", font, 100) == "abcdefghij klmnop"  # no "/": cut
