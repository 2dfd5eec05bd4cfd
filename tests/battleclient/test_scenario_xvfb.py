"""A real BattleClient window under Xvfb, driven by xdotool's mouse: the lobby's Scenarios
button, scenario 2 then scenario 6 clicked in the list, Start; the play screen of scenario 6
comes up (its Hunter A0 drawn where the scenario file puts it, F12), Space locks in a tick,
Esc then Q quits, and the attempt's replay starts at scenario 6's tick 294 and names its
start hash."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from battleclient import layout as L
from battleclient.scenario_screen import BUTTONS, LIST
from evaluation import scenarios as S
from evaluation.replay import read_replay
from tests.battleclient.test_client_xvfb import blue_at, shoot
from tests.helpers.xvfb import XVFB_MARKS, find_window, window_env, xdo
from ui.theme import COLOURS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [*XVFB_MARKS, pytest.mark.slow]  # the client process compiles scenario 6's rules
ROW_H = 20  # pixels: a row of the scenario list (pygame_gui's default selection-list item)


def _row(k: int) -> tuple[int, int]:
    return LIST[0] + 100, LIST[1] + 4 + ROW_H * k + ROW_H // 2


def _listed(image) -> bool:
    """The Scenarios screen with its list filled in (the files load on the engine thread)."""
    detail = tuple(image.get_at((635, 400)))[:3] == COLOURS["panel"]
    return detail and tuple(image.get_at(_row(0)))[:3] != COLOURS["background"]


def _click(display, window, point) -> None:
    xdo(display, "mousemove", "--window", window, *map(str, point), "click", "1")


def _center(rect) -> tuple[int, int]:
    x, y, w, h = rect
    return x + w // 2, y + h // 2


def test_a_scenario_picked_by_mouse_opens_its_play_screen(xserver, tmp_path):
    data = tmp_path / "data"
    env = window_env(
        xserver, XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONHASHSEED="0", JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE=os.environ.get("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax")),
    )  # fmt: skip
    command = [sys.executable, "-m", "battleclient.app"]
    client = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)  # fmt: skip
    shots = data / "marl-battlegrounds" / "screenshots"
    replays = data / "marl-battlegrounds" / "replays"
    try:
        window = find_window(xserver, client.pid, timeout=120)
        shoot(xserver, window, shots, 120, client=client)  # the lobby is drawn
        _click(xserver, window, _center(L.LOBBY_BUTTONS["scenarios"][1]))
        # behind the lobby's warm-up compile
        shoot(xserver, window, shots, 600, until=_listed, client=client)
        _click(xserver, window, _row(1))
        _click(xserver, window, _row(5))  # 6. The Patient Hunter
        _click(xserver, window, _center(BUTTONS["start"][1]))
        hunter = tuple(S.load_scenario(6).doc["start"]["agents"]["A0"]["pos"])
        shoot(
            xserver, window, shots, 600, until=lambda image: blue_at(image, hunter), client=client
        )
        six = S.load_scenario(6)  # every live focal slot is taken: each locks in with Space
        for _ in range(sum(bool(six.start.alive[slot]) for slot in six.focal_slots)):
            xdo(xserver, "key", "--window", window, "space")  # the tick resolves before the save
        xdo(xserver, "key", "--window", window, "Escape")
        xdo(xserver, "key", "--window", window, "q")
        assert client.wait(timeout=120) == 0
    finally:
        if client.poll() is None:
            client.kill()
        output = client.communicate()[0]
    saved = sorted(replays.glob("scenario06_*_attempt1_*.mbgr"))
    assert len(saved) == 1, output
    replay = read_replay(saved[0])
    assert replay.header["scenario"]["start_hash"] == S.load_scenario(6).start_hash
    assert int(replay.states["tick"][0]) == 294 and replay.ticks == 1
