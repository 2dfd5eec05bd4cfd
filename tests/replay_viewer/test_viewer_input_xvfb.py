"""A real window under Xvfb: the View drop-down by mouse, and the text boxes (`g`, `/`) giving
the keyboard back. Each step is checked by the PNG that `p` saves (its name holds tick and
view), so a key that went into a box instead shows as a missing file."""

import time

from evaluation.replay import write_replay
from replay_viewer import layout as L
from tests.helpers.replays import synthetic_replay
from tests.helpers.xvfb import XVFB_MARKS, find_window, start_app, wait_for, xdo

pytestmark = XVFB_MARKS


def test_view_menu_and_text_boxes_by_mouse_and_keys(xserver, tmp_path):
    replay = write_replay(tmp_path / "game.mbgr", synthetic_replay(20, seed=4))
    viewer = start_app(xserver, "replay_viewer.cli", str(replay), folder=tmp_path)
    shots = tmp_path / "data" / "marl-battlegrounds" / "screenshots"

    def saved(name: str) -> bool:
        return wait_for((shots / name).exists)

    def keys(*names):
        for name in names:
            xdo(xserver, "key", "--window", window, name)
            time.sleep(0.25)

    def click(x, y):
        xdo(xserver, "mousemove", "--window", window, str(x), str(y))
        time.sleep(0.2)
        xdo(xserver, "click", "1")
        time.sleep(0.6)

    try:
        window = find_window(xserver, viewer.pid, timeout=60)
        xdo(xserver, "windowfocus", "--sync", window)
        time.sleep(1.0)
        keys("slash", "d", "a", "m", "Escape", "Right", "p")  # Esc gives the keys back
        assert saved("game_t0001_oracle.png"), sorted(p.name for p in shots.glob("*"))
        keys("g", "5", "Return", "p")  # `g` does not type itself into the tick box
        assert saved("game_t0005_oracle.png"), sorted(p.name for p in shots.glob("*"))
        keys("slash", "x")
        click(*pygame_rect_center(L.ARENA))  # a click elsewhere releases the search box
        keys("Right", "p")
        assert saved("game_t0006_oracle.png"), sorted(p.name for p in shots.glob("*"))
        menu_x, menu_y = pygame_rect_center(L.VIEW)
        click(menu_x, menu_y)
        click(L.VIEW[0] + 40, L.VIEW[1] + L.VIEW[3] + 8 * 20 + 10)  # "B2 Hunter", ninth option
        keys("p")
        assert saved("game_t0006_agent-b2.png"), sorted(p.name for p in shots.glob("*"))
        xdo(xserver, "key", "--window", window, "ctrl+q")
        assert viewer.wait(timeout=20) == 0
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait()


def pygame_rect_center(rect):
    x, y, w, h = rect
    return x + w // 2, y + h // 2
