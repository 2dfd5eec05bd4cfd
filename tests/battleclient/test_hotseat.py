"""Hotseat: humans on both teams take turns behind a hand-over card; both teams' orders count."""

import dataclasses

import numpy as np
import pygame
import pytest

from battleclient import layout as L
from battleclient.controls import EARLY_PRESS_PROMPT, TAKE_OVER_PROMPT
from battleclient.play_input import HANDOVER_GUARD_S
from evaluation.replay import read_replay
from tests.battleclient.driver import frame, key, make_app, setup, wait_for

HOTSEAT = "A0=human,A1-A4=random,B0=human,B1-B4=random"


def shown(app):
    """(phase, team, the hand-over card's last line as drawn, or None off the card)."""
    screen, drawn = app.screen, []
    screen.drawing._card = lambda surface, title, lines: drawn.append(lines[-1])
    try:
        app.draw(pygame.Surface(L.SIZE))
    finally:
        del screen.drawing._card
    return screen.phase, screen.team, drawn[0] if screen.phase == "handover" else None


def phase_is(app, phase, team=None):
    screen = app.screen
    return screen.phase == phase and not screen.waiting and (team is None or screen.team == team)


@pytest.fixture(scope="module")
def game(display):
    app = make_app(setup(HOTSEAT, seed=2))
    seen = []
    wait_for(app, lambda: phase_is(app, "handover", 0))
    seen.append(shown(app))
    handover = frame(app, dt=HANDOVER_GUARD_S)
    frame(app, [key(pygame.K_RETURN)])
    seen.append(shown(app))
    frame(app, [key(pygame.K_d)])  # A0: world east
    frame(app, [key(pygame.K_SPACE)], dt=2 * HANDOVER_GUARD_S)  # a stalled frame: its time
    # passed before Team B's card appeared, so it does not count towards the card's guard
    seen.append(shown(app))
    frame(app, [key(pygame.K_RETURN)])  # a double press: the card stays up
    seen.append(shown(app))
    frame(app, dt=HANDOVER_GUARD_S)
    frame(app, [key(pygame.K_RETURN)])
    seen.append(shown(app))
    frame(app, [key(pygame.K_a)])  # B0: world west (team frame East: B spawns east)
    frame(app, [key(pygame.K_SPACE)])
    wait_for(app, lambda: phase_is(app, "handover", 0) and app.screen.snap.tick == 1)
    seen.append(shown(app))
    while app.screen.phase != "over":
        wait_for(app, lambda: app.screen.phase in ("handover", "over") and not app.screen.waiting)
        for _ in range(2):
            if app.screen.phase == "handover":
                frame(app, dt=HANDOVER_GUARD_S)
                frame(app, [key(pygame.K_RETURN)])
                frame(app, [key(pygame.K_SPACE)])
    wait_for(app, lambda: app.screen.replay_path is not None)
    yield app, seen, handover, read_replay(app.screen.replay_path)
    app.close()


def test_turns_go_through_hand_over_cards(game):
    _, seen, _, _ = game
    assert seen == [
        ("handover", 0, TAKE_OVER_PROMPT),
        ("orders", 0, None),
        ("handover", 1, TAKE_OVER_PROMPT),
        # Enter straight after Space: still Team B's card, which says the press was ignored
        ("handover", 1, EARLY_PRESS_PROMPT),
        ("orders", 1, None),
        ("handover", 0, TAKE_OVER_PROMPT),  # the next card starts afresh
    ]


def test_both_teams_orders_reach_the_engine(game):
    _, _, _, replay = game
    assert replay.events["submitted"][0, 0].tolist() == [3, 0, 0]
    assert replay.events["submitted"][0, 5].tolist() == [3, 0, 0]  # mirrored frame of Team B
    pos = replay.states["pos"][:2]
    assert pos[1, 0, 0] > pos[0, 0, 0] and pos[1, 5, 0] < pos[0, 5, 0]
    assert replay.header["systems"][0] == replay.header["systems"][5] == "human"


def test_hand_over_card_shows_nothing_of_the_board(game):
    app, _, handover, _ = game
    screen = app.screen
    snap = screen.snap
    moved = dict(snap.state, pos=snap.state["pos"] + np.float32(0.5))
    pictures = []
    for state in (snap.state, moved):
        screen.snap = dataclasses.replace(snap, state=state)
        screen.phase, screen.turn = "handover", 1
        surface = pygame.Surface(L.SIZE)
        app.draw(surface)
        pictures.append(pygame.surfarray.array3d(surface))
    assert np.array_equal(*pictures)
    arena = pygame.surfarray.array3d(handover.subsurface(pygame.Rect(0, 60, 300, 150)))
    assert len(np.unique(arena.reshape(-1, 3), axis=0)) <= 3  # an empty backdrop, no map
