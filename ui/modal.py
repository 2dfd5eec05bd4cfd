"""Modal cards and windows in both apps: one veil darkens everything behind them, the top bar
included, and only the modal's own widgets are drawn bright over it.

pygame_gui (0.6) draws every widget of a UIManager in one pass (`UIManager.draw_ui`), so a
card drawn between two passes would leave the bar's buttons bright on top of its veil. These
helpers draw the first pass, the veil, then blit only the modal's sprites, in the manager's
own layer order (`LayeredGUIGroup.draw` blits each sprite's `blit_data` the same way).
"""

import pygame

VEIL = (10, 12, 16, 200)  # RGBA over the screen behind a card or window


def draw_veil(surface: pygame.Surface, rect=None) -> None:
    """Darkens `rect` of `surface` (default: all of it) with VEIL."""
    rect = pygame.Rect(rect) if rect is not None else surface.get_rect()
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    veil.fill(VEIL)
    surface.blit(veil, rect)


def draw_widgets(surface: pygame.Surface, widgets) -> None:
    """Blits the pygame_gui `widgets` (buttons, text boxes: one sprite each) as they look now,
    in the order given; hidden or dead ones are left out."""
    surface.blits([w.blit_data for w in widgets if w.alive() and w.visible and w.image is not None])


def draw_from_layer(surface: pygame.Surface, manager, layer: int) -> None:
    """Blits every visible sprite of `manager` on `layer` or above, back to front: a window
    (UIWindow.layer) with its contents and any menu it has open."""
    sprites = manager.get_sprite_group().sprites()
    draw_widgets(surface, [s for s in sprites if s.layer >= layer])


def draw_over_veil(surface: pygame.Surface, manager, windows) -> bool:
    """Veils `surface` and redraws the open ones of `windows` (pygame_gui windows, or None)
    over it; call after `manager.draw_ui`. Returns whether any window was open."""
    open_windows = [w for w in windows if w is not None and w.alive()]
    if not open_windows:
        return False
    draw_veil(surface)
    draw_from_layer(surface, manager, min(w.layer for w in open_windows))
    return True
