"""The buttons that act on a game are greyed out until a replay is open, and a click on one
through SDL's event queue does nothing then."""

import pygame

from replay_viewer import layout as L
from tests.helpers.viewer import click, frame


def _enabled(viewer) -> dict[str, bool]:
    return {name: viewer.widgets[name].is_enabled for name, *_ in L.BUTTONS}


def test_game_buttons_wait_for_a_replay_and_grey_out_again_for_a_folder(display, replay_file):
    from replay_viewer.app import App

    viewer = App(L.SIZE)
    frame(viewer)
    shut = {name for name, on in _enabled(viewer).items() if not on}
    assert shut == set(L.GAME_BUTTONS) and {"play_on", "scenario", "video"} <= shut
    assert "open" not in shut and "help" not in shut

    rect = pygame.Rect(dict((n, r) for n, _, r, _ in L.BUTTONS)["play_on"])
    message = viewer.message
    pygame.event.clear()
    for event in click(rect.center):
        pygame.event.post(event)
    frame(viewer, pygame.event.get())
    assert viewer.branch_window is None and viewer.message == message

    assert viewer.open_path(replay_file)
    frame(viewer)
    assert all(_enabled(viewer).values())
    assert viewer.open_path(replay_file.parent)
    frame(viewer)
    assert not any(_enabled(viewer)[name] for name in L.GAME_BUTTONS)
