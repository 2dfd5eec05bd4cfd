"""A whole short game with a human slot driven by posted mouse and keyboard events.

Team A spawns east here, so the team frame is mirrored: a world-east order must reach the
engine as the team-frame West head (engine/constants.MIRROR_MOVE), and move the agent east.
"""

import numpy as np
import pygame
import pytest

from battleclient import layout as L
from evaluation.record import verify_replay
from evaluation.replay import read_replay
from tests.battleclient.driver import (
    GAME_TICKS,
    click,
    frame,
    key,
    make_app,
    orders_ready,
    setup,
    wait_for,
)

HUMAN = "A0=human,A1-A4=random,B*=random"


def next_orders(app, tick):
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick >= tick)


@pytest.fixture(scope="module")
def played(display, tmp_path_factory):
    """Plays the game once for the module; returns (app, the replay, what was checked live)."""
    import os

    root = tmp_path_factory.mktemp("human")
    os.environ["XDG_DATA_HOME"] = str(root / "data")
    os.environ["XDG_CONFIG_HOME"] = str(root / "config")
    app = make_app(setup(HUMAN, spawn_end="east", seed=5, repeat_orders=False))
    live = {}
    next_orders(app, 0)
    screen = app.screen
    live["selected"] = screen.selected
    live["buttons"] = (screen.buttons["ult"].visible, screen.buttons["pause"].visible)
    frame(app, [key(pygame.K_t)])  # no enemy in sight at the start
    live["t_refused"] = screen.message
    frame(app, [key(pygame.K_d)])  # world east
    live["tick0"] = screen.books[0].heads(0)
    frame(app, [key(pygame.K_SPACE)])
    next_orders(app, 1)
    frame(app, dt=0.5)  # the ring shows once the units have settled (play_draw.TWEEN_S)
    scene = app.screen.scenes[0]
    ring = dict(app.screen.drawing.ring(scene, 0))
    frame(app, click(ring[1]))  # the north dot of the ring
    frame(app, [key(pygame.K_u)])  # Mage: Burst, a self-cast Ultimate
    live["tick1"] = app.screen.books[0].heads(0)
    frame(app, [key(pygame.K_SPACE)])
    next_orders(app, 2)
    frame(app, [key(pygame.K_u)])  # Burst again: cooling down since tick 1
    live["u_refused"] = app.screen.message
    frame(app, [key(pygame.K_q)])  # world north-west
    live["tick2"] = app.screen.books[0].heads(0)
    frame(app, [key(pygame.K_SPACE)])
    while app.screen.phase != "over":
        next_orders(app, app.screen.snap.tick)
        if app.screen.phase == "orders":
            frame(app, [key(pygame.K_SPACE)])
    wait_for(app, lambda: app.screen.replay_path is not None)
    live["over_frame"] = frame(app)
    frame(app, [key(pygame.K_r)])
    live["viewer"] = list(app.launch.commands)
    replay = read_replay(app.screen.replay_path)
    yield app, replay, live
    app.close()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        os.environ.pop(name, None)


def test_orders_screen_starts_on_the_human_agent(played):
    _, _, live = played
    assert live["selected"] == 0
    assert live["buttons"] == (True, False)  # orders buttons shown, spectator ones hidden


def test_refused_keys_say_why(played):
    _, _, live = played
    assert live["t_refused"] == "A0 has no legal target this tick"
    assert live["u_refused"] == "A0's Ultimate is ready in 30 ticks"  # RULES 4, step 7


def test_world_directions_become_team_frame_heads(played):
    _, _, live = played
    # Team A plays from the east end: world East (3) is the team-frame West (4), NW (6) -> NE (5)
    assert live["tick0"] == (4, 0, 0)
    assert live["tick1"] == (1, 0, 1)  # north unchanged; Burst = Ultimate without target
    assert live["tick2"] == (5, 0, 0)


def test_orders_reached_the_engine_and_the_replay(played):
    _, replay, _ = played
    submitted = replay.events["submitted"][:, 0]
    assert submitted[:3].tolist() == [[4, 0, 0], [1, 0, 1], [5, 0, 0]]
    assert submitted[3:].tolist() == [[0, 0, 0]] * (GAME_TICKS - 3)  # Space alone = stay
    assert not replay.events["fallback"][:, 0].any()
    assert (replay.events["accepted"][:, 0] == submitted).all()
    pos = replay.states["pos"][:, 0]
    assert pos[1, 0] > pos[0, 0]  # world east really is east
    assert pos[2, 1] > pos[1, 1]  # north
    assert replay.events["lane"][1, 0] == 2  # the Ultimate lane was used on tick 1
    assert replay.states["status"][2, 0, 7] > 0  # Burst running on A0


def test_replay_header_and_resimulation(played):
    app, replay, _ = played
    header = replay.header
    assert header["systems"] == ["human"] + ["random"] * 9
    assert header["spawn_end"] == 1 and header["map"]["id"] == 47
    assert header["result"]["ticks"] == GAME_TICKS
    assert verify_replay(replay) is None
    assert app.screen.replay_path.parent.name == "replays"


def test_r_opens_the_replay_in_the_viewer(played):
    app, _, live = played
    (command,) = live["viewer"]
    assert command[-1] == str(app.screen.replay_path)
    assert "replay-viewer" in command[0] or command[1:3] == ["-m", "replay_viewer.app"]


def test_end_screen_shows_the_result(played):
    _, replay, live = played
    surface = live["over_frame"]
    card = pygame.Rect(L.OVER_CARD)
    pixels = pygame.surfarray.array3d(surface.subsurface(card))
    assert np.any(np.all(pixels == (255, 200, 60), axis=-1))  # the accent border of the card
    assert surface.get_size() == L.SIZE
