"""A resizable window over a fixed logical frame: the app draws its 1280 x 800 layout as
always, and the frame is shown scaled to the window (uniform scale, centred, bars beside).

Mouse positions go the other way, from window pixels to the frame's. pygame_gui already maps
every position it reads (events and pygame.mouse.get_pos) through
`UIManager.calculate_scaled_mouse_position`, so `FittedManager` only overrides that mapping;
an app's own click handling calls the same method, so widgets and the arena agree.
"""

import pygame
import pygame_gui


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
