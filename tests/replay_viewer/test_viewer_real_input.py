"""The viewer driven as a person drives it: SDL events posted to pygame's queue and read by
the App's own handling (`frame` drains the queue), never synthetic pygame_gui events."""

import pygame
import pytest

from replay_viewer import layout as L
from replay_viewer.metrics_table import MetricsTable, display_frame
from tests.helpers import sdl_queue
from tests.helpers.viewer import demo_metrics, frame


def post_click(app, pos):
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    frame(app)  # the window loops on: a drop-down's answer takes a few rounds of events
    frame(app)


def post_key(app, key, char=""):
    """One key through SDL's queue (tests.helpers.sdl_queue), then a frame."""
    sdl_queue.post_key(key, char)
    frame(app)


def option_rect(menu, text):
    """Where the expanded drop-down draws the option `text` (pixels)."""
    items = menu.current_state.options_selection_list.item_list
    return next(i["button_element"].rect for i in items if i["text"] == text)


@pytest.fixture
def with_metrics(app):
    pygame.event.clear()
    table = display_frame(demo_metrics(app.model.replay), app.model.replay.states["class_id"][0])
    app.side.set_metrics(MetricsTable(table), "demo metrics")
    frame(app)
    return app


def test_view_menu_choice_by_mouse_sticks(app):
    pygame.event.clear()
    frame(app)
    post_click(app, pygame.Rect(L.VIEW).center)
    post_click(app, option_rect(app.view_menu, "B2 Hunter").center)
    assert app.model.view == ("agent", 7)
    assert app.view_menu.selected_option[0] == "B2 Hunter"
    post_click(app, pygame.Rect(L.VIEW).center)
    post_click(app, option_rect(app.view_menu, "Team B").center)
    assert app.model.view == ("team", 1)


def test_view_menu_names_each_agent_with_its_class(app):
    """The agents' views read "A0 Mage" ... "B4 Priest" (each slot's class in the replay), in
    the open list and on the closed menu once chosen by mouse, each text drawn whole."""
    pygame.event.clear()
    frame(app)
    post_click(app, pygame.Rect(L.VIEW).center)
    items = app.view_menu.current_state.options_selection_list.item_list
    names = ("Mage", "Warrior", "Hunter", "Rogue", "Priest")
    cls = app.model.replay.states["class_id"][0]
    expected = [f"{'AB'[s // 5]}{s % 5} {names[int(cls[s]) - 1]}" for s in range(10)]
    assert [i["text"] for i in items][1:11] == expected
    font = items[1]["button_element"].font
    assert all(font.size(i["text"])[0] < i["button_element"].rect.width - 8 for i in items)
    post_click(app, option_rect(app.view_menu, "A3 Rogue").center)
    assert app.model.view == ("agent", 3) and app.view_menu.selected_option[0] == "A3 Rogue"


def test_search_box_gives_the_keyboard_back_on_esc_enter_and_click(with_metrics):
    app = with_metrics
    post_key(app, pygame.K_SLASH, "/")
    for ch in "dam":
        post_key(app, ord(ch), ch)
    assert app.side.search.get_text() == "dam"  # the '/' that opened it is not typed
    assert app.side.table.query == "dam"
    post_key(app, pygame.K_ESCAPE)
    assert not app.side.search.is_focused
    post_key(app, pygame.K_SPACE, " ")
    assert app.model.timeline.playing and app.side.search.get_text() == "dam"
    post_key(app, pygame.K_SPACE, " ")
    post_key(app, pygame.K_SLASH, "/")
    post_key(app, pygame.K_RETURN)
    assert not app.side.search.is_focused
    post_key(app, pygame.K_RIGHT)
    assert app.model.tick == 1
    post_key(app, pygame.K_SLASH, "/")
    post_click(app, pygame.Rect(L.ARENA).center)
    assert not app.side.search.is_focused
    post_key(app, pygame.K_SLASH, "/")
    post_click(app, app.side.tab_buttons["log"].rect.center)  # the box is hidden now
    assert not app.side.search.is_focused
    post_key(app, pygame.K_SLASH, "?")
    assert app.show_help


def test_g_opens_the_tick_box_without_typing_g(app):
    pygame.event.clear()
    frame(app)
    post_key(app, pygame.K_g, "g")
    assert app.tick_entry.is_focused and app.tick_entry.get_text() == ""
    for ch in "12":
        post_key(app, ord(ch), ch)
    post_key(app, pygame.K_RETURN)
    assert app.model.tick == 12 and not app.tick_entry.is_focused
    post_key(app, pygame.K_RIGHT)
    assert app.model.tick == 13


def test_g_then_a_digit_draws_only_the_digit(app):
    """The box opened by g draws what is typed and no leftover placeholder ("8tick" did): its
    right half is the same pixels as a box that holds "8" (the cursor sits at the left)."""
    from pygame_gui.elements import UITextEntryLine

    pygame.event.clear()
    frame(app)
    post_key(app, pygame.K_g, "g")
    post_key(app, ord("8"), "8")
    assert app.tick_entry.get_text() == "8"
    plain = UITextEntryLine(app.tick_entry.relative_rect, app.manager, placeholder_text="tick")
    plain.set_text("8")
    frame(app)
    half = app.tick_entry.image.get_width() // 2
    width, height = app.tick_entry.image.get_size()
    right = pygame.Rect(half, 0, width - half, height)
    typed = pygame.image.tobytes(app.tick_entry.image.subsurface(right), "RGB")
    wanted = pygame.image.tobytes(plain.image.subsurface(right), "RGB")
    plain.kill()
    assert typed == wanted


def test_the_last_two_states_of_a_finished_game_read_apart(display, tmp_path):
    """End, then Left: state 12 (after the last tick, 11) and state 11 (ordering tick 11) must
    not both read "tick 11" (RULES 0: tick t leads from state t to t+1)."""
    from evaluation.replay import write_replay
    from replay_viewer.app import App
    from replay_viewer.panels import info_lines
    from tests.helpers.replays import synthetic_replay

    replay = synthetic_replay(12, seed=2)
    replay.states["outcome"][-1] = 1  # Team A won with tick 11
    app = App(L.SIZE)
    assert app.open_path(write_replay(tmp_path / "won.mbgr", replay))
    pygame.event.clear()
    headings = []
    for key in (pygame.K_END, pygame.K_LEFT):
        post_key(app, key)
        headings.append((app.model.tick, info_lines(app.model)[0].split("   ")[2]))
    assert headings == [(12, "after tick 11 (end)"), (11, "tick 11/12")]
