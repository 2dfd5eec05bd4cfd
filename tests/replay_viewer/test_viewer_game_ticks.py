"""A scenario replay starts mid-game: the viewer numbers its ticks as the game did (tick 294,
as the BattleClient's top bar), on the tick box, the info bar, the timeline's tooltip and the
event log, while the scenario's ticks-left figure still counts from the start."""

import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers import sdl_queue
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame

START = 294  # scenario 6's start tick


def post_key(app, key, char=""):
    """One key through SDL's queue (tests.helpers.sdl_queue), then a frame."""
    sdl_queue.post_key(key, char)
    frame(app)


@pytest.fixture
def scenario_app(display, tmp_path):
    from replay_viewer.app import App

    replay = synthetic_replay(6, seed=3)
    replay.states["tick"] = replay.states["tick"] + START  # states 294..300, as recorded
    replay.header["scenario"] = {"id": 6, "title": "The Patient Hunter", "horizon": 6,
                                 "skill": "opponent modelling", "focal_team": "A",
                                 "solved": False, "brief": "b"}  # fmt: skip
    app = App(L.SIZE)
    assert app.open_path(write_replay(tmp_path / "scenario06.mbgr", replay))
    pygame.event.clear()
    frame(app)
    return app


def test_the_tick_box_info_bar_and_log_read_the_game_tick(scenario_app):
    app = scenario_app
    from replay_viewer.panels import info_lines, log_history

    assert app.tick_entry.get_text() == "294"
    assert "tick 294/300" in info_lines(app.model)[0]
    assert app.model.log_lines()[0].startswith("Tick 294: the replay starts")
    post_key(app, pygame.K_RIGHT)
    post_key(app, pygame.K_RIGHT)
    assert app.model.tick == 2 and app.tick_entry.get_text() == "296"

    lines = info_lines(app.model)
    assert "tick 296/300" in lines[0]
    assert "(opponent modelling): 4 ticks left" in lines[1]  # the horizon less ticks played
    assert log_history(app.model)[0][0] == "Tick 295 (state 295 -> 296)"
    post_key(app, pygame.K_g, "g")  # the tick box takes the game's tick
    for ch in "299":
        post_key(app, ord(ch), ch)
    post_key(app, pygame.K_RETURN)
    assert app.model.tick == 5 and app.tick_entry.get_text() == "299"
    post_key(app, pygame.K_g, "g")
    for ch in "3":
        post_key(app, ord(ch), ch)
    post_key(app, pygame.K_RETURN)  # an index, not a tick of this game
    assert app.model.tick == 5 and "type a number from 294 to 300" in app.message


def test_the_timeline_tooltip_names_the_game_tick(scenario_app):
    app = scenario_app
    strip = app.bar.strip
    x, y, mark = strip._placed[0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=()))
    frame(app)
    assert (
        app.hover_lines((x, y))[0]
        == f"Tick {START + mark.tick - 1} (state {START + mark.tick}); click to jump"
    )
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=(x, y), button=1))
    frame(app)
    assert app.model.tick == mark.tick
    assert app.tick_entry.get_text() == str(START + mark.tick)
    assert app.message.startswith(f"Tick {START + mark.tick - 1} (state {START + mark.tick}):")


def test_the_command_lines_tick_is_the_game_tick_too(scenario_app, capsys, tmp_path):
    from replay_viewer.cli import main

    path = scenario_app.replay_path
    shot = tmp_path / "at296.png"
    assert main([str(path), "--tick", "296", "--screenshot", str(shot)]) == 0 and shot.exists()
    assert main([str(path), "--tick", "3", "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "--tick 3: scenario06.mbgr has ticks 294 to 300 (300 is the end" in err


def test_a_scenario_replay_opens_without_a_tick(scenario_app, capsys, tmp_path):
    # The BattleClient's "Show a winning line" and "R: this replay" start `replay-viewer FILE`
    # with no --tick: a default of game tick 0 lies outside a replay of ticks 294-300, and the
    # viewer used to exit at once with a range message nobody saw.
    from replay_viewer.cli import main

    shot = tmp_path / "first.png"
    assert main([str(scenario_app.replay_path), "--screenshot", str(shot)]) == 0
    assert shot.exists() and capsys.readouterr().err == ""


def test_x_saves_the_position_by_its_game_tick(scenario_app, monkeypatch):
    from tests.replay_viewer.test_viewer_branching import key, post, press

    app = scenario_app
    started = []
    monkeypatch.setattr(app.children, "start", lambda what, argv: started.append(argv) or what)
    app.model.timeline.seek(2)  # replay index 2: game tick 296, as the tick box reads it
    post(app, *key(pygame.K_x, "x"))
    post(app, *press(app.branch_window.go.rect.center))
    (argv,) = started
    assert argv[argv.index("--tick") + 1] == "296"  # scenario_save's --tick is the game tick
