"""The status line in its box: a message that fits is shown whole; a longer one is cut visibly
("..." at a word, never a line clipped by the box) and hovering the box shows all of it."""

import pygame
import pytest

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


def held(shown: str, word: str) -> bool:
    """True when `shown` is `word` whole or, for a path, its start and end around "/.../"."""
    head, mark, tail = shown.partition("/.../")
    return shown == word or (bool(mark) and word.startswith(head + "/") and word.endswith(tail))


def test_a_long_status_is_cut_at_a_word_and_shown_whole_on_hover(app):
    app.say(LONG)
    frame(app)
    font, lines = app.status_lines()
    x, y, width, height = L.STATUS
    assert len(lines) * font.get_linesize() <= height  # every line drawn, none clipped
    assert all(font.size(line)[0] <= width - 8 for line in lines)
    assert lines[-1].endswith("...") and lines[-1][-4] != " "
    shown = " ".join(lines)[:-3].split()  # the words drawn, in order
    words = LONG.split()
    # the message's first words, each whole or a path keeping its ends, cut after a word
    assert all(held(a, b) for a, b in zip(shown, words, strict=False)) and len(shown) < len(words)
    assert "/.../" in " ".join(shown)  # a path wider than its line kept its file name
    tip = hover(app, (x + width // 2, y + height // 2))
    assert tip == [LONG]
    wrapped = wrap_tooltip(tip, app.font)
    assert "".join(wrapped).replace(" ", "") == LONG.replace(" ", "")  # no piece cut


@pytest.mark.parametrize(
    "path",
    [
        "~/.local/share/marl-battlegrounds/screenshots/game0001_map47_seed12_t0012_agent-a3.png",
        "/home/someone/experiments/season-7/.local/share/marl-battlegrounds/scenarios/"
        "009_game0001_map47_seed12_at_tick_120.json",
    ],
)
def test_a_long_path_keeps_its_file_name_and_is_never_broken(app, path):
    message = f"Saved {path}; the BattleClient's Scenarios screen lists it"
    app.say(message)
    frame(app)
    font, lines = app.status_lines()
    x, y, width, height = L.STATUS
    assert len(lines) * font.get_linesize() <= height
    paths = [w.rstrip(";") for line in lines for w in line.split() if "/" in w]
    assert len(paths) == 1 and "/.../" in paths[0] and held(paths[0], path)  # one piece
    assert paths[0].endswith(path.rsplit("/", 1)[1])  # the file name whole
    assert hover(app, (x + width // 2, y + height // 2)) == [message]
    # the tooltip holds the whole path, wrapped only after a folder's "/"
    words = " ".join(wrap_tooltip([message], app.font)).split()
    pieces = words[1 : words.index("the")]
    assert "".join(pieces) == path + ";" and all(p.endswith("/") for p in pieces[:-1])
