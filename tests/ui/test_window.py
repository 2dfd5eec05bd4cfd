"""ui.window: the layout fitted into any window (aspect kept, centred) and mouse positions
mapped back to layout pixels, hand-computed."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from ui.window import fit, to_layout  # noqa: E402


def test_fit_keeps_the_aspect_and_centres():
    assert fit((1280, 800), (960, 600)) == (0.75, pygame.Rect(0, 0, 960, 600))
    scale, rect = fit((1280, 800), (1000, 800))  # too wide: bars left and right
    assert scale == 1000 / 1280 and rect == pygame.Rect(0, (800 - 625) // 2, 1000, 625)
    assert fit((1280, 800), (1600, 1200))[1] == pygame.Rect(0, 100, 1600, 1000)


def test_mouse_positions_map_back_to_layout_pixels():
    assert to_layout((480, 300), (1280, 800), (960, 600)) == (640, 400)
    assert to_layout((800, 150), (1280, 800), (1600, 1200)) == (640, 40)
    assert to_layout((5, 5), (1280, 800), (1600, 1200)) == (4, 0)  # in the bar: clamped
