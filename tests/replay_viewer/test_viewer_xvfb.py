"""A real window under Xvfb driven by xdotool: open a replay, step, switch view, save a PNG."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers.replays import synthetic_replay

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.xvfb,
    pytest.mark.skipif(
        not (shutil.which("Xvfb") and shutil.which("xdotool")),
        reason="needs Xvfb and xdotool (apt-get install -y xvfb xdotool)",
    ),
]


@pytest.fixture
def xserver():
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as handle:
        display = f":{handle.readline().strip()}"
    yield display
    server.terminate()
    server.wait(timeout=10)


def xdo(display, *args, timeout=20):
    env = dict(os.environ, DISPLAY=display)
    result = subprocess.run(
        ["xdotool", *args], env=env, capture_output=True, text=True, timeout=timeout
    )
    return result.stdout.strip()


def wait_for(predicate, seconds=30.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_window_steps_switches_view_and_saves_a_png(xserver, tmp_path):
    replay = write_replay(tmp_path / "game.mbgr", synthetic_replay(20, seed=4))
    env = dict(os.environ, DISPLAY=xserver, SDL_AUDIODRIVER="dummy")
    env.pop("SDL_VIDEODRIVER", None)
    viewer = subprocess.Popen(
        [sys.executable, "-m", "replay_viewer.app", str(replay)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # SDL stores the title as UTF-8 text, which `search --name` misses; the pid works
        window = xdo(xserver, "search", "--sync", "--pid", str(viewer.pid), timeout=60)
        assert window, "the viewer window did not appear"
        window = window.splitlines()[0]
        xdo(xserver, "windowfocus", "--sync", window)
        time.sleep(1.0)
        for keys in (["Right"], ["Right"], ["Up"], ["3"], ["s"], ["p"]):
            xdo(xserver, "key", "--delay", "80", *keys)
            time.sleep(0.3)
        shot = tmp_path / "game_t0012_agent-a3.png"
        assert wait_for(shot.exists), sorted(p.name for p in tmp_path.iterdir())
        image = pygame.image.load(str(shot))
        assert image.get_size() == L.SIZE
        xdo(xserver, "key", "ctrl+q")
        assert viewer.wait(timeout=20) == 0
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait()
