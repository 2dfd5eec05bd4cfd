"""Tab and Shift+Tab between text boxes, which pygame_gui (0.6) does not do itself; and the
keyboard taken back when a window this program started closes.

A UITextEntryLine keeps the keyboard on Tab, so a person leaving a box with Tab would stay in
it and its value would never count as entered. `tab_focus` moves the focus along a form's boxes
in order (wrapping round) and says which box was left, so the form can commit its value. The
box Tab arrives in has its old text selected, as desktop forms do, so typing replaces it.
"""

import pygame


def tab_focus(manager, entries, event) -> object | None:
    """On a Tab KEYDOWN (Shift: backwards) while one of `entries` (text boxes in form order)
    has the keyboard, gives it to the next box through `manager` (pygame_gui.UIManager) and
    returns the box left; None (nothing done) for any other event. The new box's text is
    selected whole (what its own Ctrl+A does), so the next key typed replaces it."""
    if event.type != pygame.KEYDOWN or event.key != pygame.K_TAB:
        return None
    entries = list(entries)
    left = next((k for k, entry in enumerate(entries) if entry.is_focused), None)
    if left is None:
        return None
    step = -1 if event.mod & pygame.KMOD_SHIFT else 1
    arrived = entries[(left + step) % len(entries)]
    manager.set_focus_set(arrived)
    select_all(arrived)
    return entries[left]


def select_all(entry) -> None:
    """Select the whole text of a pygame_gui UITextEntryLine, the cursor at its end."""
    entry.select_range = [0, len(entry.get_text())]
    entry.edit_position = len(entry.get_text())


def take_keyboard_back() -> bool:
    """Gives this program's window the keyboard when it lacks it, as after a window it started
    (the Replay Viewer, a BattleClient) has closed: under X11 with no window manager (a bare
    Xvfb, a kiosk) nobody else hands it back, and keys go nowhere. A window manager gets a
    raise request (SDL_RaiseWindow), the X server the input focus (SDL_SetWindowInputFocus),
    both through pygame-ce's Window.focus. True when it asked; False when the window has the
    keyboard already or there is no window."""
    if pygame.key.get_focused() or pygame.display.get_surface() is None:
        return False
    window = pygame.Window.from_display_module()
    window.focus()
    window.focus(input_only=True)
    return True
