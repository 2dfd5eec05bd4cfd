"""The viewer App offscreen: pixels of chosen ticks and views, keyboard and search events."""

from pathlib import Path

import numpy as np
import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.model import SPEEDS
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import click, demo_metrics, frame, key, text
from ui.theme import COLOURS, TEAM_COLOURS


def lone_units(model, t, slots, gap=1.3):
    """Slots among `slots` with no other active unit within `gap` map units at tick t."""
    pos = model.replay.states["pos"][t]
    active = model.replay.states["active"][t]
    out = []
    for s in slots:
        d = np.linalg.norm(pos - pos[s], axis=1)
        d[s] = np.inf
        if (d[active] > gap).all():
            out.append(int(s))
    return out


def disc_pixel(app, pos):
    """A pixel inside a unit's disc, left of its class letter."""
    x, y = app.renderer.world_to_screen(pos, L.ARENA)
    return (x - 12, y)


@pytest.mark.parametrize("t", [0, 12, 40])
def test_oracle_frame_draws_lone_units_in_their_team_colour(app, t):
    model = app.model
    model.timeline.seek(t)
    surface = frame(app)
    state = model.state(t)
    lone = lone_units(model, t, np.flatnonzero(state["alive"]))
    assert lone or t > 0, "at tick 0 every unit stands alone on its pad"
    for slot in lone:
        pixel = disc_pixel(app, state["pos"][slot])
        assert tuple(surface.get_at(pixel))[:3] == TEAM_COLOURS[slot // 5], slot
    assert tuple(surface.get_at((4, 84)))[:3] == COLOURS["background"]


def test_pov_frame_leaves_out_units_the_agent_did_not_see(app):
    model = app.model
    for t in range(model.ticks + 1):
        for agent in range(10):
            direct, relay = model.masks(t, ("agent", agent))
            hidden = [s for s in np.flatnonzero(~(direct | relay)) if model.state(t)["alive"][s]]
            lone = lone_units(model, t, hidden)
            if lone:
                break
        if lone:
            break
    model.timeline.seek(t)
    model.set_view(("agent", agent))
    surface = frame(app)
    pixel = disc_pixel(app, model.state(t)["pos"][lone[0]])
    assert tuple(surface.get_at(pixel))[:3] != TEAM_COLOURS[lone[0] // 5]
    model.set_view("oracle")
    assert tuple(frame(app).get_at(pixel))[:3] == TEAM_COLOURS[lone[0] // 5]


def test_timeline_keys(app):
    tl = app.model.timeline
    frame(app, [key(pygame.K_RIGHT)])
    assert tl.tick == 1
    frame(app, [key(pygame.K_RIGHT, pygame.KMOD_SHIFT), key(pygame.K_UP)])
    assert tl.tick == 21
    frame(app, [key(pygame.K_DOWN), key(pygame.K_LEFT)])
    assert tl.tick == 10
    frame(app, [key(pygame.K_END)])
    assert tl.tick == app.model.ticks
    frame(app, [key(pygame.K_HOME)])
    assert tl.tick == 0
    frame(app, [key(pygame.K_EQUALS, unicode="+")])
    assert tl.speed == SPEEDS[3]
    frame(app, [key(pygame.K_SPACE)])
    assert tl.playing
    frame(app, dt=0.5)  # 8 ticks a second for half a second
    assert tl.tick == 4
    assert app.slider.get_current_value() == 4


def test_buttons_drive_the_timeline(app):
    frame(app, click(pygame.Rect(L.BUTTONS[5][2]).center))  # ">"
    frame(app, click(pygame.Rect(L.BUTTONS[6][2]).center))  # ">>"
    assert app.model.tick == 11


def test_type_a_tick(app):
    frame(app, [key(pygame.K_g, unicode="g")])
    assert app.tick_entry.is_focused
    frame(app, text("17") + [key(pygame.K_RETURN)])
    assert app.model.tick == 17
    frame(app, [key(pygame.K_g, unicode="g")])
    frame(app, text("999") + [key(pygame.K_RETURN)])
    assert app.model.tick == 17 and app.message_is_error and "0 to 40" in app.message


def test_view_keys(app):
    frame(app, [key(pygame.K_7, unicode="7")])
    assert app.model.view == ("agent", 7)
    assert app.view_menu.selected_option[0] == "B2 Hunter"
    frame(app, [key(pygame.K_b, unicode="b")])
    assert app.model.view == ("team", 1)
    frame(app, [key(pygame.K_v, unicode="v")])
    assert app.model.view == "oracle"  # after Team B comes the Oracle again
    frame(app, [key(pygame.K_a, unicode="a"), key(pygame.K_o, unicode="o")])
    assert app.model.view == "oracle"


def test_overlay_and_tab_keys(app):
    frame(app, [key(pygame.K_s, unicode="s"), key(pygame.K_t, unicode="t")])
    assert {"sight", "trails"} <= app.model.overlays
    frame(app, [key(pygame.K_z, unicode="z")])
    assert "red_zones" not in app.model.overlays
    frame(app, [key(pygame.K_TAB)])
    assert app.side.tab == "agent"
    frame(app, [key(pygame.K_TAB, pygame.KMOD_SHIFT), key(pygame.K_TAB, pygame.KMOD_SHIFT)])
    assert app.side.tab == "heat"


def test_help_card_opens_and_closes(app):
    surface = frame(app, [key(pygame.K_SLASH, pygame.KMOD_SHIFT, unicode="?")])
    assert app.show_help
    card = pygame.Rect(0, 0, 680, 40 + 22 * 20)
    card.center = (640, 400)
    assert tuple(surface.get_at((card.x, card.centery)))[:3] == COLOURS["accent"]
    frame(app, [key(pygame.K_ESCAPE)])
    assert not app.show_help


def test_click_selects_a_unit_and_shows_its_panel(app):
    frame(app)
    slot = 7
    centre = app.renderer.world_to_screen(app.model.state(0)["pos"][slot], L.ARENA)
    frame(app, click(centre))
    assert app.model.selected == slot and app.side.tab == "agent"
    frame(app, [key(pygame.K_ESCAPE)])
    assert app.model.selected is None


@pytest.fixture
def metrics_app(display, tmp_path):
    replay = synthetic_replay(20, seed=6)
    replay.metrics = demo_metrics(replay, filler=3000)
    replay.header["metrics_level"] = "full"
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / "m.mbgr", replay))
    return viewer


def test_search_filters_as_you_type(metrics_app):
    app = metrics_app
    frame(app, [key(pygame.K_SLASH, unicode="/")])
    assert app.side.tab == "metrics" and app.side.search.is_focused
    frame(app, text("priest"))
    table = app.side.table
    # rows naming slot 4 or 9 (the Priests): 36 of the 100 pair rows, 600 filler rows
    assert table.query == "priest" and table.rows.height == 36 + 600
    frame(app, text(" b4"))
    assert table.rows.height == 19 + 300
    drawn = len(table.row_rects)
    assert 0 < drawn <= table.capacity(L.TABLE) < table.rows.height  # only visible rows drawn
    frame(app, [key(pygame.K_BACKSPACE)] * 3)
    assert table.rows.height == 36 + 600


def test_sort_by_clicking_a_header(metrics_app):
    app = metrics_app
    frame(app, [key(pygame.K_SLASH, unicode="/")])
    frame(app, text("pair") + [key(pygame.K_ESCAPE)])
    app.side.search.unfocus()
    frame(app)
    frame(app, click(app.side.table.header_rects["value"].center))
    values = [row[-1] for _, row in app.side.table.row_rects]
    assert (
        values == sorted(values, reverse=True) and values[0] == app.side.table.rows["value"].max()
    )


def test_metrics_hidden_in_a_point_of_view(metrics_app):
    app = metrics_app
    frame(app, [key(pygame.K_SLASH, unicode="/")])
    app.side.search.unfocus()
    frame(app, [key(pygame.K_3, unicode="3")])
    frame(app)
    assert not app.side.search.visible
    assert app.side.table.row_rects  # drawn before, but not redrawn in the POV
    app.side.table.row_rects = []
    frame(app)
    assert app.side.table.row_rects == []


def test_heat_map_click_jumps_to_the_peak(metrics_app):
    app = metrics_app
    app.side.tab = "heat"
    frame(app)
    damage = app.model.pair_matrices()["damage"]
    s, r = np.unravel_index(np.argmax(damage), damage.shape)
    frame(app, click(app.side.cells[(s, r)].center))
    assert app.model.tick == app.model.peak_tick("damage", s, r)
    assert app.model.selected == r


def test_export_png_goes_to_the_data_folder_never_overwrites(app, tmp_path, monkeypatch):
    work, data = tmp_path / "work", tmp_path / "home" / ".local" / "share"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    app.model.timeline.seek(3)
    frame(app)
    first = app.export_png()
    shots = data / "marl-battlegrounds" / "screenshots"
    assert first == shots / "game_t0003_oracle.png"
    assert (
        app.message == "Saved ~/.local/share/marl-battlegrounds/screenshots/game_t0003_oracle.png"
    )
    frame(app, [key(pygame.K_p, unicode="p")])
    assert sorted(p.name for p in shots.iterdir()) == ["game_t0003_oracle-2.png", first.name]
    assert list(work.iterdir()) == []  # nothing lands in the working folder (git status)
    assert pygame.image.load(str(first)).get_size() == L.SIZE


def test_export_png_honours_xdg_data_home(app, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    frame(app)
    path = app.export_png()
    assert path == tmp_path / "xdg" / "marl-battlegrounds" / "screenshots" / "game_t0000_oracle.png"
    assert app.message == f"Saved {path}"  # outside the home folder: the full path as is


def test_open_dialog_picks_a_file(app, replay_file):
    import pygame_gui

    frame(app, [key(pygame.K_o, pygame.KMOD_CTRL)])
    assert app.dialog is not None and app.dialog.alive()
    # it opens beside the open replay (it opened in the working folder)
    assert Path(app.dialog.current_directory_path) == replay_file.parent.resolve()
    picked = pygame.event.Event(
        pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(replay_file), ui_element=app.dialog
    )
    app.model = None
    frame(app, [picked])
    assert app.model is not None and app.model.name == replay_file.name


def test_view_and_speed_menus(app):
    import pygame_gui

    changed = pygame_gui.UI_DROP_DOWN_MENU_CHANGED
    frame(app, [pygame.event.Event(changed, text="B1 Warrior", ui_element=app.view_menu)])
    assert app.model.view == ("agent", 6)
    frame(app, [pygame.event.Event(changed, text="Team A", ui_element=app.view_menu)])
    assert app.model.view == ("team", 0)
    frame(app, [pygame.event.Event(changed, text="15 ticks/s", ui_element=app.speed_menu)])
    assert app.model.timeline.speed == 15
