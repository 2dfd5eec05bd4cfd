"""Real input for app tests: events posted through SDL's own queue, as a keyboard sends them,
so an app reads them with pygame.event.get() exactly as it reads a person's."""

import pygame


def post_key(key: int, char: str = "") -> None:
    """KEYDOWN, then TEXTINPUT for a printable key (as SDL sends it), then KEYUP."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
    if char:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=char, scancode=0))
