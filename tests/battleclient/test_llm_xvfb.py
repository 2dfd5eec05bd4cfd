"""A real BattleClient window under Xvfb with an LLM slot, driven by xdotool: while the LLM
thinks the arena shows the thinking strip, K stops the wait at once, and the replay records
the cancelled decision as a fallback. The endpoint is the loopback test server of this test."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from battleclient import layout as L
from evaluation.replay import read_replay
from tests.battleclient.test_client_xvfb import blue_at, shoot
from tests.helpers.chat_server import ChatServer
from tests.helpers.xvfb import XVFB_MARKS, find_window, window_env, xdo
from ui.theme import COLOURS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [*XVFB_MARKS, pytest.mark.slow]
STRIP = (L.ARENA[0] + 3, L.ARENA[1] + 4)  # top-left corner of the thinking strip's frame


def strip_shown(image) -> bool:
    """The accent-coloured frame of the thinking strip (battleclient/llm_panel.draw_thinking)."""
    x, y = STRIP
    return all(tuple(image.get_at((x + dx, y)))[:3] == COLOURS["accent"][:3] for dx in range(60))


def test_real_window_shows_thinking_and_k_cancels(xserver, tmp_path):
    data = tmp_path / "data"
    env = window_env(
        xserver,
        XDG_DATA_HOME=str(data),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONHASHSEED="0",
        JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE=os.environ.get("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax")),
    )
    shots = data / "marl-battlegrounds" / "screenshots"
    with ChatServer(slow_s=0.1) as server:
        spec = tmp_path / "slow.json"
        spec.write_text(json.dumps({"model": "slow", "base_url": server.url}))
        command = [sys.executable, "-m", "battleclient.app", "--map", "47", "--seed", "1"]
        command += ["--slots", f"A0=human,A1=llm:{spec},A2-A4=random,B*=random"]
        command += ["--horizon", "6"]
        client = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)  # fmt: skip
        try:
            window = find_window(xserver, client.pid, timeout=120)
            tick_0 = lambda im: blue_at(im, (1.5, 1.5))  # noqa: E731
            shoot(xserver, window, shots, until=tick_0, client=client)
            server.slow_s = 60.0  # from now on the model takes a minute to answer
            xdo(xserver, "key", "--window", window, "space")
            shoot(xserver, window, shots, seconds=120, until=strip_shown, client=client)
            asked = time.monotonic()
            xdo(xserver, "key", "--window", window, "k")
            strip_gone = lambda im: not strip_shown(im)  # noqa: E731
            shoot(xserver, window, shots, seconds=30, until=strip_gone, client=client)
            assert time.monotonic() - asked < 20  # not the minute the model would take
            xdo(xserver, "key", "--window", window, "Escape")
            time.sleep(0.5)
            xdo(xserver, "key", "--window", window, "q")
            code = client.wait(timeout=120)
            assert code == 0, client.stdout.read()[-3000:]
        finally:
            if client.poll() is None:
                client.kill()
                client.wait()
    (path,) = (data / "marl-battlegrounds" / "replays").glob("*.mbgr")
    records = {(r["tick"], r["slot"]): r["reason"] for r in read_replay(path).decisions}
    assert records[(1, 1)] == "cancelled"
