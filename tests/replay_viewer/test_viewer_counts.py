"""One of a thing is singular in the viewer's words: "1 tick", "1 tick/s", "1 replay"."""

import pygame

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers import sdl_queue
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame


def post_key(app, key, char=""):
    """One key through SDL's queue (tests.helpers.sdl_queue), then a frame."""
    sdl_queue.post_key(key, char)
    frame(app)


def test_a_one_tick_game_reads_singular_everywhere(display, tmp_path):
    from replay_viewer.app import App
    from replay_viewer.panels import info_lines

    replay = synthetic_replay(1, seed=2)
    assert replay.ticks == 1 and replay.header["result"]["ticks"] == 1
    path = write_replay(tmp_path / "short.mbgr", replay)
    app = App(L.SIZE)
    assert app.open_path(tmp_path)
    assert app.message.startswith("1 replay in ")
    assert app.list_widget.item_list[0]["text"].endswith("in 1 tick")
    assert app.open_path(path)
    assert app.message.startswith("Opened short.mbgr: 1 tick.")
    assert " in 1 tick " in info_lines(app.model)[1]
    pygame.event.clear()
    frame(app)
    for _ in range(3):  # from 4 ticks/s down to the slowest
        post_key(app, pygame.K_MINUS, "-")
    assert app.model.timeline.speed == 1
    assert app.speed_menu.selected_option[0] == "1 tick/s"
    post_key(app, pygame.K_EQUALS, "=")
    assert app.speed_menu.selected_option[0] == "2 ticks/s"
