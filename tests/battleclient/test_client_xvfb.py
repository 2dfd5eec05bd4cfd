"""A real BattleClient window under Xvfb, driven by xdotool: start a game, click the move ring,
end the turn, take F12 screenshots of the arena, quit from the menu; the replay holds the order."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pygame

from battleclient import layout as L
from evaluation.replay import read_replay
from tests.helpers.xvfb import XVFB_MARKS, find_window, window_env, xdo
from ui.arena import ArenaRenderer
from ui.theme import TEAM_COLOURS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = XVFB_MARKS


def screen_point(world):
    return ArenaRenderer().world_to_screen(world, L.ARENA)


def blue_at(image, world) -> bool:
    """Team A's colour just left of the glyph of a unit standing at `world` (map units)."""
    x, y = screen_point(world)
    return tuple(image.get_at((x - 13, y)))[:3] == TEAM_COLOURS[0]


def shoot(
    display, window, folder: Path, seconds: float = 240.0, until=lambda image: True, client=None
):
    """Press F12 until a new screenshot satisfies `until`; returns (path, image). With the app's
    `client` process given, a failure says whether it had exited and what it printed."""
    end, last = time.monotonic() + seconds, None
    while time.monotonic() < end:
        if client is not None and client.poll() is not None:
            raise AssertionError(f"the app exited ({client.returncode}):\n{_tail(client)}")
        before = set(folder.glob("[!.]*.png")) if folder.exists() else set()
        xdo(display, "key", "--window", window, "F12")
        time.sleep(1.0)
        fresh = sorted(set(folder.glob("[!.]*.png")) - before) if folder.exists() else []
        if fresh:
            last, image = fresh[-1], pygame.image.load(str(fresh[-1]))
            if until(image):
                return fresh[-1], image
        time.sleep(1.0)
    said = "" if client is None else f"; the app, still running, printed:\n{_tail(client)}"
    raise AssertionError(f"the expected screen did not appear in {seconds:.0f} s (last "
                         f"screenshot: {last}){said}")  # fmt: skip


def _tail(client, chars: int = 3000) -> str:
    """The last `chars` of what `client` (stdout piped as text) printed; ends it if running."""
    if client.poll() is None:
        client.terminate()
    try:
        out, _ = client.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        client.kill()
        out, _ = client.communicate()
    return (out or "")[-chars:]


def start_client(xserver, tmp_path, slots: str):
    """The BattleClient on map 47 (seed 1, 6 ticks) with `slots`, its data under tmp_path/data:
    (the process, stdout piped as text; its screenshot folder; its data folder)."""
    data = tmp_path / "data"
    env = window_env(
        xserver,
        XDG_DATA_HOME=str(data),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONHASHSEED="0",  # a stable compile-cache key across runs (see battleclient.app)
        JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE=os.environ.get("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax")),
    )
    command = [sys.executable, "-m", "battleclient.app", "--map", "47", "--seed", "1"]
    command += ["--slots", slots, "--horizon", "6"]
    client = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)  # fmt: skip
    return client, data / "marl-battlegrounds" / "screenshots", data


def test_real_window_game_start_clicks_and_screenshot(xserver, tmp_path):
    client, shots, data = start_client(xserver, tmp_path, "A0=human,A1-A4=random,B*=random")
    try:
        window = find_window(xserver, client.pid, timeout=120)
        pad = (1.5, 1.5)  # A0's pad on map 47, Team A west
        _, first = shoot(xserver, window, shots, until=lambda im: blue_at(im, pad), client=client)
        assert first.get_size() == L.SIZE
        north_dot = screen_point((pad[0], pad[1] + 1.7))  # the ring's N dot (RING_UNITS)
        xdo(xserver, "mousemove", "--window", window, *map(str, north_dot), "click", "1")
        time.sleep(0.5)
        xdo(xserver, "key", "--window", window, "space")
        moved = (pad[0], pad[1] + 1.0)
        path, image = shoot(
            xserver, window, shots, until=lambda im: blue_at(im, moved), client=client
        )
        shutil.copy(path, tmp_path / "arena.png")
        xdo(xserver, "key", "--window", window, "Escape")
        time.sleep(0.5)
        xdo(xserver, "key", "--window", window, "q")
        code = client.wait(timeout=120)
        assert code == 0, client.stdout.read()[-3000:]
        (replay_path,) = (data / "marl-battlegrounds" / "replays").glob("*.mbgr")
        replay = read_replay(replay_path)
        assert replay.events["submitted"][0, 0].tolist() == [1, 0, 0]  # north, as clicked
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
