"""A real window under Xvfb driven by xdotool: open a replay, step, switch view, save a PNG."""

import time

import pygame

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers.replays import synthetic_replay
from tests.helpers.xvfb import XVFB_MARKS, find_window, start_app, wait_for, xdo

pytestmark = XVFB_MARKS


def test_window_steps_switches_view_and_saves_a_png(xserver, tmp_path):
    replay = write_replay(tmp_path / "game.mbgr", synthetic_replay(20, seed=4))
    viewer = start_app(xserver, "replay_viewer.app", str(replay), folder=tmp_path)
    try:
        window = find_window(xserver, viewer.pid, timeout=60)
        xdo(xserver, "windowfocus", "--sync", window)
        time.sleep(1.0)
        for keys in (["Right"], ["Right"], ["Up"], ["3"], ["s"], ["p"]):
            xdo(xserver, "key", "--delay", "80", *keys)
            time.sleep(0.3)
        # The PNG goes to the data folder's screenshots/, never the working folder.
        shots = tmp_path / "data" / "marl-battlegrounds" / "screenshots"
        shot = shots / "game_t0012_agent-a3.png"
        assert wait_for(shot.exists), sorted(p.name for p in tmp_path.rglob("*.png"))
        assert not list(tmp_path.glob("*.png"))
        image = pygame.image.load(str(shot))
        assert image.get_size() == L.SIZE
        xdo(xserver, "key", "ctrl+q")
        assert viewer.wait(timeout=20) == 0
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait()


def test_window_exports_a_video_with_the_e_key(xserver, tmp_path):
    replay = write_replay(tmp_path / "short.mbgr", synthetic_replay(4, seed=2))
    viewer = start_app(xserver, "replay_viewer.cli", str(replay), folder=tmp_path)
    try:
        window = find_window(xserver, viewer.pid, timeout=60)
        xdo(xserver, "windowfocus", "--sync", window)
        time.sleep(1.0)
        for keys in (["7"], ["e"]):  # agent B2's point of view, then the video
            xdo(xserver, "key", "--delay", "80", *keys)
            time.sleep(0.3)
        videos = tmp_path / "data" / "marl-battlegrounds" / "videos"
        video = videos / "short_t0000-0004_agent-b2.gif"
        assert wait_for(video.exists, seconds=60), sorted(p.name for p in tmp_path.rglob("*"))
        from PIL import Image

        with Image.open(video) as gif:
            assert gif.size == (1280, 720) and b'"view": "agent:7"' in gif.info["comment"]
        xdo(xserver, "key", "ctrl+q")
        assert viewer.wait(timeout=20) == 0
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait()
