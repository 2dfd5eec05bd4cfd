"""A real window under Xvfb driven by xdotool: the window is resized (not below its minimum;
the picture follows),
then a story mark on the timeline is hovered and clicked at its place in the smaller window,
which jumps to its tick (the PNG saved with p names the tick and has the layout's size)."""

import time

import pygame

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer import story
from replay_viewer.timeline import mark_x, slider_track
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame
from tests.helpers.xvfb import XVFB_MARKS, find_window, start_app, wait_for, xdo

pytestmark = XVFB_MARKS
SCALE = 0.75  # the window is resized to 960 x 600: three quarters of the 1280 x 800 layout, the
# smallest it may be (ui.window_fit.MIN_SCALE: a resize to 300 x 200 grows back to it)


def first_death_spot(display, path):
    """(tick, layout pixel) of the first death's mark, from the same App offscreen."""
    from replay_viewer.app import App

    app = App(L.SIZE)
    assert app.open_path(path)
    frame(app)
    death = next(m for m in story.game_marks(app.model) if m.kind == "death")
    x = mark_x(death.tick, app.model.ticks, slider_track(app.slider, L.SCRUB))
    y = L.MARKS[1] + L.MARKS[3] // 4 + death.team * (L.MARKS[3] // 2)
    return death.tick, (x, y)


def sizes(display, pid) -> str:
    """The geometry lines of every window of `pid` (SDL makes a new one for full screen)."""
    windows = xdo(display, "search", "--pid", str(pid)).split()
    return " ".join(xdo(display, "getwindowgeometry", w) for w in windows)


def test_resized_window_hover_and_click_a_mark(display, xserver, tmp_path):
    path = write_replay(tmp_path / "game.mbgr", synthetic_replay(40, seed=4))
    tick, (x, y) = first_death_spot(display, path)
    viewer = start_app(xserver, "replay_viewer", str(path), folder=tmp_path)
    try:
        window = find_window(xserver, viewer.pid, timeout=60)
        # the window at its layout size and the app's loop running before it is shrunk
        assert wait_for(lambda: "1280x800" in xdo(xserver, "getwindowgeometry", window), 30)
        time.sleep(1.0)
        xdo(xserver, "windowsize", window, "300", "200")  # no window manager stops this
        smallest = f"{int(1280 * SCALE)}x{int(800 * SCALE)}"  # ui.window_fit.minimum_window
        assert wait_for(lambda: smallest in xdo(xserver, "getwindowgeometry", window), 30)
        xdo(xserver, "windowsize", "--sync", window, str(int(1280 * SCALE)), str(int(800 * SCALE)))
        xdo(xserver, "windowmove", "--sync", window, "0", "0")
        xdo(xserver, "windowfocus", "--sync", window)
        time.sleep(1.5)
        geometry = xdo(xserver, "getwindowgeometry", window)
        assert f"{int(1280 * SCALE)}x{int(800 * SCALE)}" in geometry, geometry
        spot = [str(round(v * SCALE)) for v in (x, y)]
        xdo(xserver, "mousemove", "--window", window, *spot)
        time.sleep(0.5)
        xdo(xserver, "key", "p")  # the frame with the mark's tooltip, at tick 0
        xdo(xserver, "click", "1")
        time.sleep(0.5)
        xdo(xserver, "key", "p")
        shots = tmp_path / "data" / "marl-battlegrounds" / "screenshots"
        jumped = shots / f"game_t{tick:04d}_oracle.png"
        assert wait_for(jumped.exists), sorted(p.name for p in tmp_path.rglob("*.png"))
        hovered = pygame.image.load(str(shots / "game_t0000_oracle.png"))
        assert hovered.get_size() == L.SIZE  # the layout's pixels, whatever the window's size
        # the tooltip is drawn by the mark: light text on the dark box right of the pointer
        box = hovered.subsurface(pygame.Rect(x + 14, y - 60, 300, 60).clip(hovered.get_rect()))
        assert max(box.get_at((i, j))[0] for i in range(0, box.get_width(), 2)
                   for j in range(box.get_height())) > 180  # fmt: skip
        xdo(xserver, "key", "F11")  # full screen: the whole 1400 x 900 screen, same layout
        assert wait_for(lambda: "1400x900" in sizes(xserver, viewer.pid), 10)
        time.sleep(1.0)  # SDL made a new window for full screen: give it the keyboard
        for shown in xdo(xserver, "search", "--pid", str(viewer.pid)).split():
            xdo(xserver, "windowfocus", shown)
        time.sleep(0.5)
        xdo(xserver, "key", "F11")  # back to a window of the layout's size
        assert wait_for(lambda: "1280x800" in sizes(xserver, viewer.pid), 20)
        xdo(xserver, "key", "ctrl+q")
        assert viewer.wait(timeout=20) == 0
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait()
