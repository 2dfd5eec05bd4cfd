"""The status line in its box: a message that fits is shown whole; a longer one is cut visibly
("..." at a word, never a line clipped by the box) and hovering the box shows all of it."""

import pygame

from replay_viewer import layout as L
from replay_viewer.app import wrap_tooltip
from tests.helpers.viewer import frame

LONG = (
    "Saved the metrics table of this game to /home/someone/experiments/season-7/replays/"
    "tournament_final_game_0042.metrics.parquet and the video to /home/someone/experiments/"
    "season-7/videos/game_0042.gif; press e to export again or Ctrl+O to open another game"
)


def hover(app, pos):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0,) * 3))
    frame(app)
    return app.hover_lines(pos)


def test_a_long_status_is_cut_at_a_word_and_shown_whole_on_hover(app):
    app.say(LONG)
    frame(app)
    font, lines = app.status_lines()
    x, y, width, height = L.STATUS
    assert len(lines) * font.get_linesize() <= height  # every line drawn, none clipped
    assert all(font.size(line)[0] <= width - 8 for line in lines)
    assert lines[-1].endswith("...") and lines[-1][-4] != " "
    shown = "".join(" ".join(lines)[:-3].split())  # what is drawn, spaces aside
    letters = [i for i, ch in enumerate(LONG) if not ch.isspace()]
    assert LONG.replace(" ", "").startswith(shown)  # a start of the message, in order
    assert LONG[letters[len(shown) - 1] + 1] == " "  # cut at a word's end
    tip = hover(app, (x + width // 2, y + height // 2))
    assert tip == [LONG]
    wrapped = wrap_tooltip(tip, app.font)
    assert "".join(wrapped).replace(" ", "") == LONG.replace(" ", "")  # no piece cut


def test_a_short_status_is_whole_and_has_no_tooltip(app):
    app.say("Exported game.gif")
    frame(app)
    assert app.status_lines()[1] == ["Exported game.gif"]
    x, y, width, height = L.STATUS
    assert hover(app, (x + 20, y + height // 2)) == []
