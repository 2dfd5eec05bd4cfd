"""Driving the Replay Viewer App in tests: post events, update, draw offscreen."""

import pygame

from replay_viewer import layout as L


def frame(viewer, events=(), dt=0.0):
    """Handles `events`, updates and draws into a fresh surface; returns the surface."""
    viewer.handle_events(list(events))
    viewer.update(dt)
    viewer.update(0.0)  # pygame_gui posts its own events during update; let them land
    viewer.handle_events(pygame.event.get())
    surface = pygame.Surface(L.SIZE)
    viewer.draw(surface)
    return surface


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)
