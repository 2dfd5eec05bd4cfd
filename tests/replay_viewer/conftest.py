import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # for tests.helpers

import pygame  # noqa: E402
import pytest  # noqa: E402

from evaluation.replay import write_replay  # noqa: E402
from replay_viewer import layout as L  # noqa: E402
from tests.helpers.replays import synthetic_replay  # noqa: E402
from tests.helpers.xvfb import xserver  # noqa: E402, F401  (a fixture)


@pytest.fixture(scope="session")
def display():
    pygame.display.init()
    pygame.font.init()
    return pygame.display.set_mode(L.SIZE)


@pytest.fixture(scope="session")
def replay_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("replays") / "game.mbgr"
    return write_replay(path, synthetic_replay(40, seed=4))


@pytest.fixture
def app(display, replay_file):
    from replay_viewer.app import App

    viewer = App(L.SIZE)
    assert viewer.open_path(replay_file)
    return viewer
