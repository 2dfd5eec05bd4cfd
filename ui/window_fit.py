"""A resizable window over a fixed logical frame: the app draws its 1280 x 800 layout as
always, and the frame is shown scaled to the window (uniform scale, centred, bars beside).

Mouse positions go the other way, from window pixels to the frame's. pygame_gui already maps
every position it reads (events and pygame.mouse.get_pos) through
`UIManager.calculate_scaled_mouse_position`, so `FittedManager` only overrides that mapping;
an app's own click handling calls the same method, so widgets and the arena agree.
"""

import math
import warnings

import pygame
import pygame_gui

# The smallest window either app allows, as a share of its 1280 x 800 layout (960 x 600): at
# 0.75 the smallest text (the units panel's status lines, the lobby's hints) is still legible on
# screenshots of the orders screen and the lobby; at 0.625 (800 x 500) it no longer is.
MIN_SCALE = 0.75


def minimum_window(logical) -> tuple[int, int]:
    """The smallest (w, h) window pixels for a layout of `logical` (w, h) pixels."""
    return math.ceil(logical[0] * MIN_SCALE), math.ceil(logical[1] * MIN_SCALE)


def too_small(window, logical) -> bool:
    """True when a (w, h) pixels `window` is narrower or lower than `minimum_window(logical)`."""
    smallest = minimum_window(logical)
    return window[0] < smallest[0] or window[1] < smallest[1]


def hold_minimum_size(logical) -> tuple[int, int] | None:
    """Keeps the display window at least `minimum_window(logical)`: tells SDL the minimum
    (pygame-ce Window.minimum_size, SDL_SetWindowMinimumSize; a window manager enforces it) and
    grows a window already smaller back to it, which is what happens without a window manager
    (a bare X server ignores the size hints and xdotool or a script can resize the window to
    anything). Call it after a set_mode, on each resize event and on a frame that finds the
    window `too_small` (a resize event can pass unread).
    Returns the window's (w, h) pixels now, or None when there is no display window."""
    if pygame.display.get_surface() is None:
        return None
    with warnings.catch_warnings():
        # pygame-ce 2.5 warns that Window.get_surface/flip should replace the display module's
        # surface; only the window's sizes are used here, the app draws as before
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    smallest = minimum_window(logical)
    if tuple(window.minimum_size) != smallest:
        window.minimum_size = smallest
    size = tuple(window.size)
    if too_small(size, logical):
        size = (max(size[0], smallest[0]), max(size[1], smallest[1]))
        window.size = size  # the display surface follows with the resize event SDL sends
    return size


class WindowFit:
    """Where the logical frame (`logical`: (w, h) pixels) sits in a window of `window` pixels."""

    def __init__(self, logical: tuple[int, int]):
        self.logical = (int(logical[0]), int(logical[1]))
        self.window = self.logical

    def resize(self, window: tuple[int, int]) -> None:
        """The window now has `window` (w, h) pixels (pygame.VIDEORESIZE, a fullscreen
        switch); sizes below 1 x 1 are taken as 1 x 1."""
        self.window = (max(1, int(window[0])), max(1, int(window[1])))

    @property
    def scale(self) -> float:
        """Window pixels per frame pixel (the same both ways: circles stay round)."""
        return min(self.window[0] / self.logical[0], self.window[1] / self.logical[1])

    @property
    def rect(self) -> pygame.Rect:
        """The frame's rectangle in window pixels, centred."""
        w, h = round(self.logical[0] * self.scale), round(self.logical[1] * self.scale)
        return pygame.Rect((self.window[0] - w) // 2, (self.window[1] - h) // 2, w, h)

    @property
    def identity(self) -> bool:
        return self.window == self.logical

    def to_logical(self, position) -> tuple[int, int]:
        """A window pixel (x, y) -> the frame pixel under it (outside the frame: beyond its
        edges, so nothing there is hit)."""
        if self.identity:
            return int(position[0]), int(position[1])
        rect, scale = self.rect, self.scale
        return int((position[0] - rect.x) / scale), int((position[1] - rect.y) / scale)

    def present(self, frame: pygame.Surface, display: pygame.Surface) -> None:
        """Show the drawn `frame` on the window surface `display`, scaled (smoothscale) and
        centred, the bars beside it black."""
        if self.identity and display.get_size() == frame.get_size():
            display.blit(frame, (0, 0))
            return
        display.fill((0, 0, 0))
        rect = self.rect
        display.blit(pygame.transform.smoothscale(frame, rect.size), rect.topleft)


class FittedManager(pygame_gui.UIManager):
    """A pygame_gui UIManager for the logical frame of `fit` (a WindowFit): the positions it
    reads are window pixels, mapped to the frame's."""

    def __init__(self, fit: WindowFit, theme_path=None):
        self.fit = fit
        super().__init__(fit.logical, theme_path)

    def calculate_scaled_mouse_position(self, position) -> tuple[int, int]:
        return self.fit.to_logical(position)
