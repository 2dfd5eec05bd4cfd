"""Tab and Shift+Tab between text boxes, which pygame_gui (0.6) does not do itself.

A UITextEntryLine keeps the keyboard on Tab, so a person leaving a box with Tab would stay in
it and its value would never count as entered. `tab_focus` moves the focus along a form's boxes
in order (wrapping round) and says which box was left, so the form can commit its value.
"""

import pygame


def tab_focus(manager, entries, event) -> object | None:
    """On a Tab KEYDOWN (Shift: backwards) while one of `entries` (text boxes in form order)
    has the keyboard, gives it to the next box through `manager` (pygame_gui.UIManager) and
    returns the box left; None (nothing done) for any other event."""
    if event.type != pygame.KEYDOWN or event.key != pygame.K_TAB:
        return None
    entries = list(entries)
    left = next((k for k, entry in enumerate(entries) if entry.is_focused), None)
    if left is None:
        return None
    step = -1 if event.mod & pygame.KMOD_SHIFT else 1
    manager.set_focus_set(entries[(left + step) % len(entries)])
    return entries[left]
