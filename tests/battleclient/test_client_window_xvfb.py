"""A real BattleClient window under Xvfb, driven by xdotool at its minimum size (resized
smaller, it grows back: ui.window_fit.MIN_SCALE of the layout): the Presets
drop-down by mouse in the lobby, a game started from it, a tick taken back by clicking "Take
back"; the frame follows the window's size and the replay records the
takeback."""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from battleclient import layout as L
from evaluation.replay import read_replay
from tests.battleclient.test_client_xvfb import ROOT, blue_at, screen_point, shoot
from tests.helpers.xvfb import XVFB_MARKS, find_window, window_env, xdo
from ui.theme import TEAM_COLOURS
from ui.window_fit import WindowFit, minimum_window

pytestmark = XVFB_MARKS
PAD, NORTH = (1.5, 1.5), (1.5, 2.5)  # A0's pad on map 47 (Team A west), one tick north of it
OPTION_H = 20  # pixels per open drop-down option (see test_lobby_presets)


def unit_at(image, world) -> bool:
    """Team A's colour on both sides of the icon of a unit at `world` in the play screen's
    arena, before it has orders (the lobby's preview, smaller and elsewhere, is blue on one
    side at most; an order's mark crosses the unit's side later on)."""
    x, y = screen_point(world)
    return all(tuple(image.get_at((x + dx, y)))[:3] == TEAM_COLOURS[0] for dx in (-13, 13))


def window_size(display, window) -> tuple[int, int] | None:
    """(width, height) of an X window, or None when it is gone (SDL may make a new window on
    switching to full screen)."""
    found = re.search(r"Geometry: (\d+)x(\d+)", xdo(display, "getwindowgeometry", window))
    return None if found is None else (int(found[1]), int(found[2]))


@pytest.mark.slow
def test_minimum_size_window_presets_and_take_back_by_mouse(xserver, tmp_path):
    data, config = tmp_path / "data", tmp_path / "config"
    env = window_env(
        xserver, XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(config), PYTHONHASHSEED="0",
        JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE=os.environ.get("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax")),
    )  # fmt: skip
    command = [sys.executable, "-m", "battleclient.app", "--lobby", "--map", "47", "--seed", "1"]
    command += ["--slots", "A0=human,A1-A4=random,B*=random", "--horizon", "6"]
    client = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)  # fmt: skip
    shots = data / "marl-battlegrounds" / "screenshots"
    try:
        window = find_window(xserver, client.pid, timeout=120)
        # the window at its layout size and the app's loop running before it is shrunk
        end = time.monotonic() + 60
        while window_size(xserver, window) != L.SIZE and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(1.0)
        xdo(xserver, "windowsize", window, "300", "200")  # no window manager stops this
        smallest = minimum_window(L.SIZE)
        end = time.monotonic() + 30  # the app grows it at its next frame, slower under load
        while window_size(xserver, window) != smallest and time.monotonic() < end:
            time.sleep(0.2)
        assert window_size(xserver, window) == smallest == (960, 600)  # the app grew it back
        fit = WindowFit(L.SIZE)
        fit.resize(window_size(xserver, window))
        assert fit.scale == 0.75  # the window really shrank, to its minimum

        def click(point):
            x, y = fit.rect.x + point[0] * fit.scale, fit.rect.y + point[1] * fit.scale
            xdo(xserver, "mousemove", "--window", window, str(round(x)), str(round(y)))
            xdo(xserver, "click", "1")
            time.sleep(0.6)

        menu = pygame.Rect(L.PRESET_MENU)
        click(menu.center)
        click((menu.centerx, menu.bottom + 3 * OPTION_H + OPTION_H // 2))  # Warriors
        xdo(xserver, "key", "--window", window, "Return")  # Start
        game_on = lambda im: unit_at(im, PAD)  # noqa: E731
        path, first = shoot(xserver, window, shots, until=game_on, client=client)
        assert first.get_size() == L.SIZE  # F12 keeps the layout's frame
        xdo(xserver, "key", "--window", window, "w", "space")  # north, end the turn
        shoot(xserver, window, shots, until=lambda im: blue_at(im, NORTH), client=client)
        click(pygame.Rect(L.PLAY_BUTTONS["takeback"][1]).center)
        back_on_pad = lambda im: blue_at(im, PAD)  # noqa: E731
        shoot(xserver, window, shots, until=back_on_pad, client=client)
        xdo(xserver, "key", "--window", window, "d", "space")  # east instead
        shoot(xserver, window, shots, until=lambda im: blue_at(im, (2.5, 1.5)), client=client)
        xdo(xserver, "key", "--window", window, "Escape")
        time.sleep(0.5)
        xdo(xserver, "key", "--window", window, "q")
        code = client.wait(timeout=120)
        assert code == 0, client.stdout.read()[-3000:]
        (replay_path,) = (data / "marl-battlegrounds" / "replays").glob("*.mbgr")
        replay = read_replay(replay_path)
        assert replay.header["roster"][:5] == [2] * 5  # the preset's team of Warriors
        assert [t["tick"] for t in replay.header["takebacks"]] == [0]
        assert replay.header["takebacks"][0]["submitted"][0] == [1, 0, 0]  # north, undone
        assert replay.events["submitted"][0, 0].tolist() == [3, 0, 0]  # east, kept
        last = json.loads((config / "marl-battlegrounds" / "last_setup.json").read_text())
        assert last["roster"] == "WWWWW/MWHRP"
        Path(path).replace(tmp_path / "minimum_size_game.png")
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
