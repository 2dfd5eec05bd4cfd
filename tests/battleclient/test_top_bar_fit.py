"""The play screen's top bar fits before its first button: in a scenario game the resolution
banner after "Scenario 1, ticks left: N" ran under Repeat (x 586). The layout is drawn at
1280 x 800 and scaled to the window (ui.window), so what fits in layout pixels fits at every
window size, the half-size one included."""

import pygame

from battleclient import layout as L
from battleclient.play_draw import BANNER_SPACE, TOP_MARGIN, WIDEST_BANNER, fit_top_bar

GAPS = (22, 6, 6, 22, 6)  # after the tick note, "A 0", ":", "0 B", the phase (play_draw._top)
REPEAT_ROOM = L.PLAY_BUTTONS["repeat"][1][0] - TOP_MARGIN  # 578: Repeat is the leftmost


def _parts(head: str, phase: str, banner: str | None = None):
    parts = list(zip((head, "A 0", ":", "0 B", phase), GAPS, strict=True))
    return parts + [(banner, BANNER_SPACE)] if banner is not None else parts


def _end(fonts, texts) -> int:
    """Where the bar ends, computed apart from play_draw: 10 + each part's text and space."""
    spaces = (*GAPS, BANNER_SPACE)
    return 10 + sum(
        (fonts[1] if i == 5 else fonts[0]).size(t)[0] + spaces[i]
        for i, t in enumerate(texts)
        if t or i != 5  # a banner cut away takes no room
    )


def test_the_scenario_bar_with_its_banner_fits_before_repeat(display):
    big, font = pygame.font.Font(None, 26), pygame.font.Font(None, 18)
    parts = _parts("Scenario 1, ticks left: 4", "Team A: your orders", "Tick 295 resolved  +1 A")
    assert _end((big, font), [t for t, _ in parts]) > REPEAT_ROOM  # how it ran under Repeat
    reserve = BANNER_SPACE + font.size(WIDEST_BANNER)[0]
    chosen, texts = fit_top_bar(parts, (big, font), 10, REPEAT_ROOM, font, reserve)
    assert chosen is font  # the smaller font: the banner then fits whole
    assert texts == [t for t, _ in parts]
    assert _end((font, font), texts) <= REPEAT_ROOM


def test_the_font_stays_while_the_banner_comes_and_goes(display):
    big, font = pygame.font.Font(None, 26), pygame.font.Font(None, 18)
    reserve = BANNER_SPACE + font.size(WIDEST_BANNER)[0]
    for room, expected in ((REPEAT_ROOM, font), (1092, big)):  # before Repeat; before Help
        still = fit_top_bar(
            _parts("Tick 300 of 300", "Team A: your orders"), (big, font), 10, room, font, reserve
        )
        banner = fit_top_bar(
            _parts("Tick 300 of 300", "Team A: your orders", "Tick 2 resolved  +10 A  +10 B"),
            (big, font), 10, room, font, reserve,
        )  # fmt: skip
        assert still[0] is expected and banner[0] is expected
        assert banner[1][5] == "Tick 2 resolved  +10 A  +10 B"  # whole: the room was kept


def test_the_banner_is_cut_first_then_the_phase_and_never_the_score(display):
    big, font = pygame.font.Font(None, 26), pygame.font.Font(None, 18)
    parts = _parts("Scenario 12, ticks left: 32", "Team A: your orders (59 s)", "Tick 9 " * 20)
    chosen, texts = fit_top_bar(parts, (big, font), 10, REPEAT_ROOM, font)
    assert texts[:5] == [t for t, _ in parts[:5]]  # the banner alone gives way
    assert texts[5].endswith("...") or texts[5] == ""
    assert _end((chosen, font), texts) <= REPEAT_ROOM
    long_phase = _parts("Scenario 12, ticks left: 32", "Team A: your orders (59 s) " * 4)
    chosen, texts = fit_top_bar(long_phase, (big, font), 10, REPEAT_ROOM, font)
    assert chosen is font and texts[0] == "Scenario 12, ticks left: 32"
    assert texts[1:4] == ["A 0", ":", "0 B"] and texts[4].endswith("...")
    assert texts[4].startswith("Team A: your orders")
    assert _end((font, font), texts) <= REPEAT_ROOM
