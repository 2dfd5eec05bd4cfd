"""SIGTERM ends both apps cleanly, as real processes in real windows (Xvfb): the BattleClient
in its lobby while its engine thread compiles the lobby's rules (it used to answer SDL's QUIT
by waiting up to a minute for that compile), and the Replay Viewer with a replay open. Each
exits with 143 (128 + SIGTERM) within seconds and says why on stderr (ui.signals)."""

import signal
import subprocess
import sys
import time

import pytest

from evaluation.replay import write_replay
from tests.helpers.replays import synthetic_replay
from tests.helpers.xvfb import XVFB_MARKS, find_window, window_env

pytestmark = XVFB_MARKS
PROMPT_S = 12.0  # a clean end: the engine thread gets 3 s twice (battleclient.app.close)


def _env(display, tmp_path):
    return window_env(
        display,
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONHASHSEED="0",
        JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE="off",  # the warm-up really compiles while the signal comes
    )


def _terminate(process, display) -> tuple[int, float, str]:
    find_window(display, process.pid, timeout=120)
    time.sleep(3.0)  # the lobby is up and its engine thread busy (JAX import, then a compile)
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        output, _ = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        pytest.fail(f"still running 60 s after SIGTERM:\n{output[-2000:]}")
    return process.returncode, time.monotonic() - sent, output


@pytest.mark.slow  # the client's start-up (~30 s on a loaded machine)
def test_sigterm_ends_the_battleclient_while_it_compiles(xserver, tmp_path):
    command = [sys.executable, "-m", "battleclient.app", "--horizon", "7"]  # new rules
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    client = subprocess.Popen(command, cwd=tmp_path, env=_env(xserver, tmp_path), **pipes)
    code, seconds, output = _terminate(client, xserver)
    print(f"BattleClient: ended {seconds:.1f} s after SIGTERM (loaded machine)")
    assert code == 128 + signal.SIGTERM, output[-2000:]
    assert seconds < PROMPT_S, seconds
    assert "battleclient: ended by SIGTERM" in output
    assert "Traceback" not in output


def test_sigterm_ends_the_replay_viewer(xserver, tmp_path):
    path = write_replay(tmp_path / "game.mbgr", synthetic_replay(ticks=12))
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    command = [sys.executable, "-m", "replay_viewer.app", str(path)]
    viewer = subprocess.Popen(command, cwd=tmp_path, env=_env(xserver, tmp_path), **pipes)
    code, seconds, output = _terminate(viewer, xserver)
    assert code == 128 + signal.SIGTERM, output[-2000:]
    assert seconds < PROMPT_S, seconds
    assert "replay-viewer: ended by SIGTERM" in output
    assert "Traceback" not in output
