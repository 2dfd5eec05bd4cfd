"""The Replay Viewer opened from the BattleClient's lobby ("Replay folder"), closed with
Ctrl+Q, hands the keyboard back: under a bare Xvfb (no window manager) the focus went nowhere
and the BattleClient's keys did nothing until the person clicked its window. Keys here go
where the X server's focus is (xdotool without --window), as a person's typing does."""

import os
import subprocess
import sys
import time

import pytest

from battleclient import layout as L
from tests.battleclient.test_client_xvfb import ROOT, _tail
from tests.helpers.xvfb import XVFB_MARKS, find_window, wait_for, window_env, xdo

pytestmark = XVFB_MARKS


def focus(display) -> str:
    """The window that has the X keyboard focus ("" for none or the root)."""
    return xdo(display, "getwindowfocus")


def shots(folder) -> int:
    return len(list(folder.glob("[!.]*.png"))) if folder.exists() else 0


@pytest.mark.slow
def test_the_lobby_has_the_keyboard_again_after_the_viewer_closes(xserver, tmp_path):
    data = tmp_path / "data"
    cache = os.environ.get("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax"))
    env = window_env(
        xserver,
        XDG_DATA_HOME=str(data),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE=cache,
    )
    command = [sys.executable, "-m", "battleclient.app"]
    client = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    folder = data / "marl-battlegrounds" / "screenshots"
    try:
        window = find_window(xserver, client.pid, timeout=120)
        assert wait_for(lambda: focus(xserver) == window, 30)
        xdo(xserver, "key", "F12")  # the lobby takes keys: a screenshot
        assert wait_for(lambda: shots(folder) == 1, 30), _tail(client)
        x, y, w, h = L.LOBBY_BUTTONS["replays"][1]
        xdo(
            xserver, "mousemove", "--window", window, str(x + w // 2), str(y + h // 2), "click", "1"
        )
        assert wait_for(lambda: focus(xserver) not in ("", window), 60)  # the viewer's window
        time.sleep(2.0)  # its first frames drawn, its keys read
        xdo(xserver, "key", "ctrl+q")
        assert wait_for(lambda: focus(xserver) == window, 30), focus(xserver)
        xdo(xserver, "key", "F12")  # typed, not sent to the window: only focus brings it
        assert wait_for(lambda: shots(folder) == 2, 30), _tail(client)
    finally:
        client.terminate()
        client.wait(timeout=30)
