"""The folder list, driven with real SDL events: nothing of the game sits over it, Esc closes
it (back to the replay it covered), and an empty folder gets no empty box over the tabs."""

import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers import sdl_queue
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame


def post_key(app, key, char=""):
    """One key through SDL's queue (tests.helpers.sdl_queue), then a frame."""
    sdl_queue.post_key(key, char)
    frame(app)


def post_click(app, pos):
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    frame(app)
    frame(app)


@pytest.fixture
def folder(tmp_path):
    for k in range(2):
        write_replay(tmp_path / f"g{k}.mbgr", synthetic_replay(6, seed=k))
    return tmp_path


def _covered_visible(app) -> list:
    return [w.visible for w in (app.slider, *app.side.tab_buttons.values())]


def test_f_lists_the_folder_over_the_game_and_esc_goes_back(display, folder):
    from replay_viewer.app import App

    app = App(L.SIZE)
    assert app.open_path(folder)
    pygame.event.clear()
    frame(app)
    row = app.list_widget.item_list_container.elements[1]  # g1.mbgr
    post_click(app, row.rect.center)
    assert app.model is not None and app.model.name == "g1.mbgr"
    post_key(app, pygame.K_RIGHT)
    post_key(app, pygame.K_RIGHT)
    shown = app.model
    assert all(_covered_visible(app))
    post_key(app, pygame.K_f, "f")
    assert app.list_widget is not None and app.model is None
    assert not any(_covered_visible(app))  # no scrubber arrows or tab edges over the list
    post_key(app, pygame.K_ESCAPE)
    assert app.list_widget is None and app.model is shown and shown.tick == 2
    assert all(_covered_visible(app)) and all(b.is_enabled for b in app.side.tab_buttons.values())
    assert app.message.startswith("Back to g1.mbgr")
    post_key(app, pygame.K_RIGHT)  # the game's keys work again
    assert app.model.tick == 3


def test_esc_with_nothing_behind_closes_the_list_to_the_resting_screen(display, folder):
    from replay_viewer.app import App

    app = App(L.SIZE)
    assert app.open_path(folder)
    pygame.event.clear()
    frame(app)
    post_key(app, pygame.K_ESCAPE)
    assert app.list_widget is None and app.model is None and app.entries == []
    post_key(app, pygame.K_f, "f")  # and f lists the folder again
    assert app.list_widget is not None and len(app.entries) == 2


def test_an_empty_folder_lists_nothing_and_keeps_the_open_replay(display, folder, tmp_path):
    from replay_viewer.app import App

    empty = tmp_path / "empty"
    empty.mkdir()
    app = App(L.SIZE)
    assert app.open_path(folder / "g0.mbgr")
    assert app.open_path(empty)
    frame(app)
    assert app.list_widget is None and app.model is not None and app.model.name == "g0.mbgr"
    assert app.message.startswith(f"No replays (.mbgr files) in {empty}")
    fresh = App(L.SIZE)
    assert fresh.open_path(empty) and fresh.list_widget is None
    frame(fresh)
    assert fresh.model is None and fresh.message.startswith("No replays")


def test_a_row_counts_a_teams_shared_systems_as_the_info_bar_does(display, tmp_path):
    from replay_viewer.app import App

    replay = synthetic_replay(6, seed=0)
    replay.header["systems"] = ["human"] + ["scripted:tactician"] * 4 + ["scripted:kiter"] * 5
    write_replay(tmp_path / "mine.mbgr", replay)
    app = App(L.SIZE)
    assert app.open_path(tmp_path)
    frame(app)
    (row,) = [item["text"] for item in app.list_widget.item_list]
    assert "| human / 4x scripted:tactician vs scripted:kiter |" in row, row
