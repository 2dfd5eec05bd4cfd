"""The BattleClient's animated resolution of a tick and the game-over card's "Export video",
driven by posted keys and clicks on a short spectated engine game."""

import pygame
import pytest
from PIL import Image

from battleclient import layout as L
from tests.battleclient.driver import RANDOM, click, frame, key, make_app, setup, wait_for


@pytest.fixture(scope="module")
def spectated(display):
    """One spectated 6-tick game for the module (the first start compiles the engine)."""
    app = make_app(setup(RANDOM, seed=3))
    yield app
    app.close()


def arena(app, since):
    app.screen.since = since
    surface = pygame.Surface(L.SIZE)
    app.draw(surface)
    return pygame.image.tobytes(surface.subsurface(pygame.Rect(L.ARENA)), "RGB")


@pytest.mark.slow
def test_resolution_glides_and_no_animation_holds_the_result(spectated):
    app = spectated
    wait_for(app, lambda: app.screen.phase == "spectate" and app.screen.snap.tick >= 1)
    frame(app, [key(pygame.K_SPACE)])  # pause
    tick = app.screen.snap.tick
    frame(app, [key(pygame.K_n)])  # one tick
    wait_for(app, lambda: app.screen.snap.tick == tick + 1 and not app.screen.waiting, dt=0.0)
    early, late, settled = arena(app, 0.1), arena(app, 0.3), arena(app, 5.0)
    assert early != late != settled  # in-between frames along the path, then the result
    app.animate = False
    assert arena(app, 0.1) == arena(app, 0.3)  # the result at once
    app.animate = True


def test_game_over_card_exports_a_video(spectated, user_dirs):
    app, root = spectated, user_dirs  # videos go to the data folder of this test
    frame(app, [key(pygame.K_SPACE)])  # play on to the end
    wait_for(app, lambda: app.screen.phase == "over" and app.screen.replay_path is not None)
    button = pygame.Rect(L.OVER_BUTTONS["video"][1])
    frame(app, click(button.center))
    assert app.screen.video.running and "Exporting" in app.screen.video.line
    wait_for(app, lambda: not app.screen.video.running, seconds=120)
    assert app.screen.video.line.startswith("Saved the video")
    (video,) = (root / "data" / "marl-battlegrounds" / "videos").iterdir()
    assert video.name == f"{app.screen.replay_path.stem}_t0000-0006_oracle.gif"
    with Image.open(video) as gif:
        assert gif.n_frames > 20 and gif.size == (1280, 720)


def test_in_between_frames_fit_in_a_tick_at_every_spectator_speed():
    from types import SimpleNamespace

    from battleclient.controls import SPEEDS
    from battleclient.resolution import TWEEN_S, tween_seconds

    screen = SimpleNamespace(phase="orders", paused=False, speed_index=0)
    assert tween_seconds(screen) == TWEEN_S
    screen.phase = "spectate"
    for index, speed in enumerate(SPEEDS):
        screen.speed_index = index
        assert tween_seconds(screen) == pytest.approx(min(TWEEN_S, 0.9 / speed))
        assert tween_seconds(screen) < 1.0 / speed  # done before the next tick lands
