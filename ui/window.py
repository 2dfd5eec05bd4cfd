"""A resizable window over a fixed layout, for both apps: the app draws into a surface of its
layout size (1280 x 800), and `ScaledWindow` fits that picture into the window, however large
or small, aspect kept and centred (letterbox bars), and maps mouse positions back to layout
pixels. F11 (`toggle_fullscreen`) fills the screen the same way.

pygame's own SCALED flag is not used: it makes the layout size the smallest window allowed
(pygame issue #4237), so a 1366 x 768 screen could never show the whole layout.
"""

import pygame

from ui.window_fit import hold_minimum_size, too_small

MOUSE_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)


def fit(layout_size, window_size) -> tuple[float, pygame.Rect]:
    """(scale, rect in window pixels) of the layout fitted into the window, aspect kept."""
    lw, lh = layout_size
    ww, wh = window_size
    scale = min(ww / lw, wh / lh) if lw and lh else 1.0
    w, h = max(1, round(lw * scale)), max(1, round(lh * scale))
    return scale, pygame.Rect((ww - w) // 2, (wh - h) // 2, w, h)


def to_layout(pos, layout_size, window_size) -> tuple[int, int]:
    """A window pixel -> the layout pixel under it (clamped to the layout)."""
    scale, rect = fit(layout_size, window_size)
    x = (pos[0] - rect.x) / scale
    y = (pos[1] - rect.y) / scale
    return (
        int(min(max(x, 0), layout_size[0] - 1)),
        int(min(max(y, 0), layout_size[1] - 1)),
    )


class ScaledWindow:
    """The display window and the layout-sized surface the app draws into."""

    def __init__(self, layout_size, caption: str):
        self.size = tuple(layout_size)
        self.window = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        hold_minimum_size(self.size)  # smaller, the layout no longer reads (ui.window_fit)
        pygame.display.set_caption(caption)
        self.surface = pygame.Surface(self.size)
        self.fullscreen = False

    def _window_size(self) -> tuple[int, int]:
        return pygame.display.get_surface().get_size()

    def events(self, events) -> list:
        """`events` with mouse positions in layout pixels; a resize is followed, not passed."""
        out = []
        window = self._window_size()
        if not self.fullscreen and too_small(window, self.size):
            # checked every frame, not only on a resize event: one that arrives while the app
            # is busy (opening a replay) may be gone before this loop reads it
            window = hold_minimum_size(self.size) or window
        for event in events:
            if event.type == pygame.VIDEORESIZE:
                hold_minimum_size(self.size)  # a window manager would not let it shrink so
                continue  # pygame resizes the display surface itself (RESIZABLE)
            if event.type in MOUSE_EVENTS and window != self.size:
                attrs = dict(event.dict, pos=to_layout(event.pos, self.size, window))
                event = pygame.event.Event(event.type, attrs)
            out.append(event)
        return out

    def present(self) -> None:
        """Shows the layout surface in the window (scaled when the sizes differ) and flips."""
        window = pygame.display.get_surface()
        if window.get_size() == self.size:
            window.blit(self.surface, (0, 0))
        else:
            _, rect = fit(self.size, window.get_size())
            window.fill((0, 0, 0))
            window.blit(pygame.transform.smoothscale(self.surface, rect.size), rect)
        pygame.display.flip()

    def toggle_fullscreen(self) -> None:
        """F11: the whole screen (the desktop's size), or back to the layout-sized window."""
        self.fullscreen = not self.fullscreen
        if self.fullscreen:
            pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            pygame.display.set_mode(self.size, pygame.RESIZABLE)
            hold_minimum_size(self.size)


class FixedWindow:
    """The ScaledWindow interface over a surface of the layout's size (an offscreen display
    or one made without ui.window): events pass unchanged, `present` flips."""

    fullscreen = False

    def __init__(self, surface):
        self.surface = surface

    def events(self, events) -> list:
        return list(events)

    def present(self) -> None:
        pygame.display.flip()

    def toggle_fullscreen(self) -> None:
        pygame.display.toggle_fullscreen()
        self.fullscreen = not self.fullscreen
