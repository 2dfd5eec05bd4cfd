"""Offscreen BattleClient tests: SDL dummy driver, files under tmp, one JAX compile per run.

Every engine game here uses the same rules (default Config with horizon GAME_TICKS) and the
cheap `random` System for machine slots, so the engine step compiles once for the whole run;
the compiled code is also kept in the repository's ignored .cache/jax for the next run.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402
import pytest  # noqa: E402

from battleclient import layout as L  # noqa: E402
from tests.helpers.xvfb import xserver  # noqa: E402, F401  (a fixture)


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    """Config and data folders of the client under tmp (last setup, replays)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture(scope="session")
def display():
    pygame.display.init()
    pygame.font.init()
    return pygame.display.set_mode(L.SIZE)


@pytest.fixture
def apps(display):
    """A factory of Apps (tests.battleclient.driver.make_app) closed at teardown, pass or fail."""
    from tests.battleclient.driver import make_app

    made = []

    def make(*args, **kwargs):
        made.append(make_app(*args, **kwargs))
        return made[-1]

    yield make
    for app in made:
        app.close()
