"""One name for a view everywhere the viewer writes it (ui.scene.view_label over the replay
header's roster): the View menu, the status line, the info bar and a video's cards read the
same "B2 Hunter"; file names keep the roster-free tag ("agent-b2")."""

import pygame

from replay_viewer import layout as L
from replay_viewer.actions import frame_stem
from replay_viewer.panels import info_lines
from replay_viewer.video import VideoExport, VideoOptions, title_lines
from tests.helpers import sdl_queue
from tests.helpers.viewer import frame


def post_click(app, pos):
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    frame(app)  # a drop-down's answer takes a few rounds of events
    frame(app)


def option_rect(menu, text):
    items = menu.current_state.options_selection_list.item_list
    return next(i["button_element"].rect for i in items if i["text"] == text)


def names(app) -> tuple[str, str, str]:
    """(status line, the info bar's view, the closed View menu) as drawn now."""
    view = info_lines(app.model)[0].rsplit("view: ", 1)[1]
    return app.message, view, app.view_menu.selected_option[0]


def test_the_status_line_and_info_bar_name_the_class_as_the_menu_does(app):
    pygame.event.clear()
    frame(app)
    assert app.model.replay.header["roster"][7] == 3  # B2 is a Hunter (engine class id 3)
    post_click(app, pygame.Rect(L.VIEW).center)
    post_click(app, option_rect(app.view_menu, "B2 Hunter").center)
    assert app.model.view == ("agent", 7)
    assert names(app) == ("View: B2 Hunter", "B2 Hunter", "B2 Hunter")
    sdl_queue.post_key(pygame.K_3, "3")  # a digit key switches the view too
    frame(app)
    assert names(app) == ("View: A3 Rogue", "A3 Rogue", "A3 Rogue")
    sdl_queue.post_key(pygame.K_b, "b")
    frame(app)
    assert names(app) == ("View: Team B", "Team B", "Team B")
    sdl_queue.post_key(pygame.K_o, "o")
    frame(app)
    assert names(app) == ("View: Oracle", "Oracle", "Oracle")


def test_a_video_names_the_view_with_its_class_and_files_keep_the_tag(app, replay_file, tmp_path):
    export = VideoExport(replay_file, tmp_path / "v.gif", VideoOptions(view=("agent", 7)))
    lines = title_lines(export.model, export.options, export.start, export.end)
    assert lines[-1].endswith("view: B2 Hunter")
    assert export.metadata()["title"].endswith(", B2 Hunter")
    app.model.set_view(("agent", 7))
    assert frame_stem(app.model) == "game_t0000_agent-b2"
