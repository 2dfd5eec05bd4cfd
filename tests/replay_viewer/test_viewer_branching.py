"""Branching from a replay tick, as a person does it: "c" (or the Play on button) opens the
slots window, its button starts the BattleClient at that tick; "x" saves the position as a
scenario through a child program; "i" saves the arena alone at high resolution."""

import json
import sys
import time
from pathlib import Path

import pygame
import pytest

from replay_viewer import layout as L
from replay_viewer.actions import ARENA_PIXELS_PER_UNIT
from replay_viewer.launch import Children, default_slots, play_on_command
from tests.helpers.viewer import frame
from tests.helpers.viewer import post as viewer_post

REPLAYS = Path(__file__).resolve().parents[1] / "fixtures" / "replays"


class FakeProcess:
    def __init__(self, argv, **_):
        self.argv, self.code = argv, None

    def poll(self):
        return self.code


def post(app, *events):
    viewer_post(app, *events, frames=2)


def press(pos):
    kinds = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
    return [pygame.event.Event(k, pos=pos, button=1) for k in kinds]


def key(k, char):
    return [
        pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=char, scancode=0),
        pygame.event.Event(pygame.TEXTINPUT, text=char),
        pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=char, scancode=0),
    ]


def test_default_slots_put_the_viewer_in_the_viewed_agent():
    systems = ["human", "scripted:kiter", "", "", "", "random", "checkpoint:p.msgpack", "", "", ""]
    active = [s in (0, 1, 5, 6) for s in range(10)]
    assert default_slots(systems, active, ("agent", 6)) == (
        "A0=scripted:tactician,A1=scripted:kiter,B0=random,B1=human"
    )
    assert default_slots(systems, active, "oracle").startswith("A0=human,A1=scripted:kiter")
    assert default_slots(systems, active, ("team", 1)).endswith("B0=human,B1=checkpoint:p.msgpack")
    bots = ["scripted:tactician"] * 5 + ["scripted:kiter"] * 5
    assert default_slots(bots, [True] * 10, "oracle") == (
        "A0=human,A1-A4=scripted:tactician,B*=scripted:kiter"
    )


def test_play_on_command_line(tmp_path):
    path = tmp_path / "g.mbgr"
    assert play_on_command(path, 17, "A0=human,*=random", python="py") == [
        "py", "-m", "battleclient", "--from-replay", str(path.resolve()), "--tick", "17",
        "--slots", "A0=human,*=random",
    ]  # fmt: skip


def test_c_and_the_button_start_the_battleclient_at_this_tick(app, replay_file, monkeypatch):
    started, asked = [], []
    monkeypatch.setattr("replay_viewer.app.take_keyboard_back", lambda: asked.append(1))
    app.children = Children(
        popen=lambda argv, **kw: started.append(FakeProcess(argv)) or started[-1]
    )
    pygame.event.clear()
    app.model.timeline.seek(12)
    post(app, *key(pygame.K_3, "3"))  # agent A3's view
    post(app, *key(pygame.K_c, "c"))
    window = app.branch_window
    assert window is not None and "A3=human" in window.slots.get_text().split(",")
    replay = app.model.replay
    expected = default_slots(replay.header["systems"], replay.states["active"][0], ("agent", 3))
    assert window.slots.get_text() == expected  # the shortcut typed nothing into it
    post(app, *press(window.go.rect.center))
    assert [p.argv for p in started] == [
        [sys.executable, "-m", "battleclient", "--from-replay", str(replay_file.resolve()),
         "--tick", "12", "--slots", window.slots.get_text()]
    ]  # fmt: skip
    assert not window.alive() and "started" in app.message
    frame(app)
    assert asked == []  # the BattleClient still runs: its window has the keyboard
    started[0].code = 0
    frame(app)
    assert app.children.running == []  # reaped: no zombie
    assert asked == [1]  # its window closed: the viewer takes the keyboard back (ui.focus)


def test_a_child_that_fails_is_reported_with_its_last_line(app):
    pygame.event.clear()
    app.say(
        app.children.start(
            "Play on", [sys.executable, "-c", "import sys; sys.exit('no --from-replay here')"]
        )
    )
    deadline = time.monotonic() + 20
    while app.children.running and time.monotonic() < deadline:
        time.sleep(0.05)
        frame(app)
    assert app.message == "Play on failed (exit 1): no --from-replay here" and app.message_is_error


def test_the_button_on_the_bar_opens_the_same_window(app):
    pygame.event.clear()
    frame(app)
    post(app, *press(app.widgets["play_on"].rect.center))
    assert app.branch_window is not None and app.branch_window.tick == app.model.tick
    post(app, *key(pygame.K_ESCAPE, ""))
    assert app.branch_window is None


@pytest.mark.slow
def test_x_saves_the_position_as_a_scenario_file(display, tmp_path, monkeypatch):
    """The whole path: x, focal team B, horizon 6 typed, Save; the child program writes a
    scenario file (and loads it back, evaluation.scenario_save) into the user's scenario folder
    (ui.paths.scenario_dir), never into the shipped one, and the status line says where."""
    from replay_viewer.app import App

    shipped = tmp_path / "shipped"
    shipped.mkdir()
    monkeypatch.setenv("MBG_SCENARIOS_DIR", str(shipped))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = App(L.SIZE)
    assert app.open_path(REPLAYS / "v1_real_2v2_no_metrics.mbgr")
    pygame.event.clear()
    app.model.set_view(("agent", 5))  # a Team B agent: B is offered as the focal team
    app.model.timeline.seek(4)
    post(app, *key(pygame.K_x, "x"))
    window = app.branch_window
    assert window.focal.selected_option[0] == "B" and window.horizon.get_text() == "10"
    post(app, *press(window.horizon.rect.center))
    post(app, *key(pygame.K_BACKSPACE, ""), *key(pygame.K_BACKSPACE, ""), *key(pygame.K_6, "6"))
    post(app, *press(window.go.rect.center))
    mine = tmp_path / "data" / "marl-battlegrounds" / "scenarios"
    assert app.last_command[-8:] == [
        "--tick", "4", "--focal", "B", "--horizon", "6", "--folder", str(mine),
    ]  # fmt: skip
    deadline = time.monotonic() + 120
    while app.children.running and time.monotonic() < deadline:
        time.sleep(0.2)
        frame(app)
    saved = mine / "001_v1_real_2v2_no_metrics_at_tick_4.json"
    assert list(shipped.iterdir()) == []
    assert not app.message_is_error and str(saved) in app.message, app.message
    doc = json.loads(saved.read_text())
    assert (doc["focal_team"], doc["horizon"], doc["start"]["tick"]) == ("B", 6, 4)


def test_i_saves_the_arena_alone_at_high_resolution(app, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    pygame.event.clear()
    post(app, *key(pygame.K_i, "i"))
    shots = list((tmp_path / "marl-battlegrounds" / "screenshots").glob("*_arena.png"))
    assert len(shots) == 1, app.message
    image = pygame.image.load(str(shots[0]))
    assert image.get_size() == (20 * ARENA_PIXELS_PER_UNIT + 16, 10 * ARENA_PIXELS_PER_UNIT + 16)
    post(app, *key(pygame.K_i, "i"))  # again: a new file, never over the first
    assert len(list(shots[0].parent.glob("*_arena*.png"))) == 2


def test_digits_typed_into_the_horizon_box_do_not_switch_the_view(app):
    """A digit typed into a branch window's text box is text, not the `1`-`0` view shortcut."""
    pygame.event.clear()
    frame(app)
    view = app.model.view
    post(app, *key(pygame.K_x, "x"))
    window = app.branch_window
    post(app, *press(window.horizon.rect.center))
    post(app, *key(pygame.K_BACKSPACE, ""), *key(pygame.K_BACKSPACE, ""), *key(pygame.K_3, "3"))
    assert window.horizon.get_text() == "3"
    assert app.model.view == view
