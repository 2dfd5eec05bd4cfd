"""Tooltips stay inside the window and off the panels they are not about: a unit by the
arena's right or bottom edge and a plot's bottom right corner, hovered with the mouse through
SDL's event queue, leave the side panel's pixels untouched; the placement rule by hand."""

import numpy as np
import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer.panels import tooltip_box
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame, motion, post

WINDOW = pygame.Rect(0, 0, *L.SIZE)
TOOLTIP_FILL = (12, 12, 16)  # replay_viewer.panels.draw_tooltip


def test_tooltip_box_flips_at_an_area_edge_and_keeps_to_its_area():
    areas = (L.ARENA, L.SIDE, L.LEFT_COLUMN)
    # room to the right and below: 14 right of the pointer, 10 below it
    assert tooltip_box((100, 200), (120, 40), areas, WINDOW) == pygame.Rect(114, 210, 120, 40)
    # by the arena's right edge (x 860): to the pointer's left, not over the side panel
    assert tooltip_box((800, 200), (120, 40), areas, WINDOW) == pygame.Rect(666, 210, 120, 40)
    # by its bottom (y 502) too: above the pointer
    assert tooltip_box((800, 490), (120, 40), areas, WINDOW) == pygame.Rect(666, 440, 120, 40)
    # the side panel's bottom right corner: up and left, inside the panel
    assert tooltip_box((1270, 790), (300, 60), areas, WINDOW) == pygame.Rect(956, 720, 300, 60)
    # too tall for the arena: its column holds it; no room below (300 + 10 + 500 > 800), so
    # above, clamped to the column's top (y 40)
    assert tooltip_box((400, 300), (200, 500), areas, WINDOW) == pygame.Rect(414, 40, 200, 500)
    # wider than every area under the pointer: the window
    assert tooltip_box((850, 20), (500, 40), areas, WINDOW) == pygame.Rect(336, 30, 500, 40)


def _replay_with_units_at(spots):
    replay = synthetic_replay(10, seed=2)
    for slot, xy in spots.items():
        replay.states["pos"][:, slot] = xy
        replay.states["alive"][:, slot] = True
    return replay


def _hover(app, pos):
    """The frame with the pointer moved to `pos` (an SDL MOUSEMOTION), and one with it away."""
    post(app, motion(pos))
    shown = pygame.surfarray.array3d(frame(app))
    post(app, motion((2, 2)))
    return shown, pygame.surfarray.array3d(frame(app))


def _changed(a, b, rect):
    """Pixels of `rect` that differ between frames `a` and `b` ((w, h, 3) arrays), (w, h)."""
    rect = pygame.Rect(rect)
    return (a != b)[rect.left : rect.right, rect.top : rect.bottom].any(axis=-1)


def _tooltip(a, b, rect):
    """Pixels of `rect` that show the tooltip's fill in `a` and not in `b`, (w, h) bool."""
    fill = (a == TOOLTIP_FILL).all(axis=-1) & _changed(a, b, WINDOW)
    rect = pygame.Rect(rect)
    return fill[rect.left : rect.right, rect.top : rect.bottom]


@pytest.mark.parametrize("corner", [(19.6, 9.4), (19.6, 0.6)])
def test_a_unit_by_the_arena_edge_keeps_its_tooltip_in_the_arena(display, tmp_path, corner):
    from replay_viewer.app import App

    app = App(L.SIZE, animate=False)
    assert app.open_path(write_replay(tmp_path / "g.mbgr", _replay_with_units_at({9: corner})))
    frame(app)
    centre = app.renderer.world_to_screen(corner, L.ARENA)
    assert app.renderer.unit_at(app.model.scene(), centre, L.ARENA) == 9
    shown, away = _hover(app, centre)
    assert not _changed(shown, away, L.SIDE).any()  # the side panel is untouched
    xs, ys = np.nonzero(_tooltip(shown, away, L.ARENA))
    assert xs.size > 500  # the tooltip is drawn ...
    assert xs.max() < centre[0]  # ... left of the pointer, which is by the right edge
    if corner[1] < 1:  # and above it when the pointer is by the bottom edge
        assert ys.max() + L.ARENA[1] < centre[1]


def test_a_plot_corner_keeps_its_tooltip_off_the_side_panel(app):
    x, y, w, h = L.PLOTS["damage"]
    pointer = (x + w - 6, y + h - 6)
    assert app.hover_lines(pointer)  # the plot describes the tick there
    shown, away = _hover(app, pointer)
    assert not _changed(shown, away, L.SIDE).any()
    xs, ys = np.nonzero(_tooltip(shown, away, WINDOW))
    assert xs.size > 500 and xs.max() < pointer[0] and ys.max() < pointer[1]
