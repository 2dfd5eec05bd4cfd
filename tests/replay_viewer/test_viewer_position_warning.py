"""The viewer's "Save as scenario" window warns, as the horizon is typed, when the focal team
cannot reach the score to win in time (ui.score_reach, from the replay's own rules)."""

import pygame

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import click, frame
from tests.helpers.viewer import post as viewer_post


def post(app, *events):
    viewer_post(app, *events, frames=2)


def key(k, char=""):
    down = pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=char, scancode=0)
    text = [pygame.event.Event(pygame.TEXTINPUT, text=char)] if char else []
    return [down, *text, pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=char, scancode=0)]


def test_save_as_scenario_warns_of_a_position_that_cannot_be_won(display, tmp_path):
    from replay_viewer.app import App

    replay = synthetic_replay(8, seed=3, threshold=30)
    app = App(L.SIZE)
    assert app.open_path(write_replay(tmp_path / "g.mbgr", replay))
    pygame.event.clear()
    frame(app)
    state = app.model.state(0)
    assert list(state["score"]) == [0, 0] and state["alive"].all() and not state["shield"].any()
    post(app, *key(pygame.K_x, "x"))  # the position at tick 0, horizon 10 by default
    window = app.branch_window
    assert window.horizon.get_text() == "10"
    # in 10 ticks each of 5 enemies can die twice (again after the tick-4 wave and 3 shielded
    # ticks): 20 points, short of this game's 30
    assert window.warning == (
        "Cannot be won: in 10 ticks Team A can score at most 20 more points (0 + 20 < 30 to win)"
    )
    pygame.image.save(frame(app), str(tmp_path / "warning.png"))
    post(app, *click(window.horizon.rect.center))
    post(app, *key(pygame.K_END), *key(pygame.K_BACKSPACE), *key(pygame.K_BACKSPACE))
    post(app, *key(pygame.K_1, "1"), *key(pygame.K_5, "5"))
    # 15 ticks: each enemy can die on ticks 0, 8 and 13 (waves on 4 and 9): 30 points, in reach
    assert window.horizon.get_text() == "15" and window.warning == ""


def test_a_horizon_save_cannot_take_is_said_in_the_window(display, tmp_path):
    """A horizon of 0 is refused in the window itself, as it is typed (the status line under
    the window's veil was the only place that said it); Save writes nothing and keeps the
    window up; a good horizon clears the line."""
    from replay_viewer.app import App

    app = App(L.SIZE)
    assert app.open_path(write_replay(tmp_path / "g.mbgr", synthetic_replay(8, seed=3)))
    pygame.event.clear()
    frame(app)
    post(app, *key(pygame.K_x, "x"))
    window = app.branch_window
    post(app, *click(window.horizon.rect.center))
    post(app, *key(pygame.K_END), *key(pygame.K_BACKSPACE), *key(pygame.K_BACKSPACE))
    assert window.horizon.get_text() == "" and window.warning == ""  # not yet typed: quiet
    post(app, *key(pygame.K_0, "0"))
    assert window.warning == "Horizon '0': type a number of ticks, 1 or more"
    post(app, *click(window.go.rect.center))
    assert app.branch_window is window and window.alive() and app.last_command is None
    post(app, *click(window.horizon.rect.center))
    post(app, *key(pygame.K_END), *key(pygame.K_BACKSPACE), *key(pygame.K_5, "5"))
    assert window.horizon.get_text() == "5" and not window.warning.startswith("Horizon")


def test_play_on_with_no_slots_is_said_in_the_window(display, tmp_path):
    """Emptying Play on's slots box says in the window that the slots must be named (the
    veiled status line alone said it before); Play on then starts nothing, typing clears it."""
    from replay_viewer.app import App

    app = App(L.SIZE)
    assert app.open_path(write_replay(tmp_path / "g.mbgr", synthetic_replay(8, seed=3)))
    pygame.event.clear()
    frame(app)
    post(app, *key(pygame.K_c, "c"))
    window = app.branch_window
    assert window.slots.get_text() and window.problem.text == " "
    post(app, *click(window.slots.rect.center))
    ctrl_a = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL, unicode="")
    post(app, ctrl_a, *key(pygame.K_BACKSPACE))  # select all, delete
    assert window.slots.get_text() == ""
    assert window.problem.text == "Play on: name who plays each slot"
    post(app, *click(window.go.rect.center))
    assert app.branch_window is window and window.alive() and app.last_command is None
    post(app, *click(window.slots.rect.center))
    post(app, *key(pygame.K_ASTERISK, "*"))
    assert window.slots.get_text() == "*" and window.problem.text == " "
