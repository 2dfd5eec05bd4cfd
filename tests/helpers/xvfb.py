"""Real-window tests: a private Xvfb display, xdotool commands, and the environment an app
under test needs to open its window there (not the SDL dummy driver the other tests set).

Test modules use `pytestmark = XVFB_MARKS`; the `xserver` fixture is imported into the
conftest.py of each app's test folder.
"""

import os
import shutil
import subprocess
import sys
import time

import pytest

XVFB_MARKS = [
    pytest.mark.xvfb,
    pytest.mark.skipif(
        not (shutil.which("Xvfb") and shutil.which("xdotool")),
        reason="needs Xvfb and xdotool (apt-get install -y xvfb xdotool)",
    ),
]


@pytest.fixture
def xserver():
    """A fresh Xvfb server (1400x900, 24-bit, no TCP) for one test; yields its display ":N"."""
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


def xdo(display: str, *args: str, timeout: float = 30) -> str:
    """Runs `xdotool ARGS` on `display` (timeout in seconds); returns its stripped stdout."""
    env = dict(os.environ, DISPLAY=display)
    done = subprocess.run(
        ["xdotool", *args], env=env, capture_output=True, text=True, timeout=timeout
    )
    return done.stdout.strip()


def window_env(display: str, **extra: str) -> dict[str, str]:
    """This process's environment for an app drawing on `display`: real video driver, no sound."""
    env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy", **extra)
    env.pop("SDL_VIDEODRIVER", None)
    return env


def start_app(display: str, module: str, *args: str, folder) -> subprocess.Popen:
    """`python -m module args...` drawing on `display`, run in `folder` with its data
    (replays, screenshots) under folder/data; stdout and stderr together as text."""
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        cwd=folder,
        env=window_env(display, XDG_DATA_HOME=str(folder / "data")),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def find_window(display: str, pid: int, timeout: float) -> str:
    """The id of the first window of process `pid`, waiting up to `timeout` seconds for it.

    SDL stores the title as UTF-8 text, which `xdotool search --name` misses; the pid works."""
    found = xdo(display, "search", "--sync", "--pid", str(pid), timeout=timeout)
    assert found, f"no window of process {pid} appeared on {display}"
    return found.splitlines()[0]


def wait_for(predicate, seconds: float = 30.0) -> bool:
    """Poll `predicate()` every 0.2 s until it is true (True) or `seconds` pass (False): a
    window's effects (a saved PNG, a video) land some frames after the key that asks for them."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False
