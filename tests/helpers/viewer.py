"""Driving the Replay Viewer App in tests: post events, update, draw offscreen."""

import pygame

from evaluation.replay_codec import METRIC_SCHEMA
from replay_viewer import layout as L


def frame(viewer, events=(), dt=0.0):
    """Handles `events`, updates and draws into a fresh surface; returns the surface."""
    viewer.handle_events(list(events))
    viewer.update(dt)
    for _ in range(3):  # pygame_gui answers events by posting more; let them all land
        viewer.handle_events(pygame.event.get())
        viewer.update(0.0)
    surface = pygame.Surface(L.SIZE)
    viewer.draw(surface)
    return surface


def post(viewer, *events, frames: int = 1):
    """Put `events` on SDL's event queue, as a person's input arrives, then run `frames`
    frames (the viewer reads the queue itself)."""
    for event in events:
        pygame.event.post(event)
    for _ in range(frames):
        frame(viewer)


def motion(pos):
    """The mouse moved to `pos` (window pixels), no button held."""
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


def text(s: str):
    """TEXTINPUT events typing `s` into the focused entry."""
    return [pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in s]


def click(pos, button=1):
    return [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
    ]


def demo_metrics(replay, filler: int = 0):
    """A long-form metric table for tests: realised damage per pair, two team rows, `filler`
    extra slot rows (metric.m<k>), in the column layout of evaluation/replay_schema.py."""
    import polars as pl

    damage = replay.events["damage_realised"].sum(axis=0)
    rows = [
        ("g", "damage", "damage.pair_realised", s, r, float(damage[s, r]))
        for s in range(10)
        for r in range(10)
    ]
    rows += [("g", "outcome", "outcome.points", k, -1, 0.5) for k in (0, 1)]
    rows += [("g", "filler", f"filler.m{k}", k % 10, -1, float(k)) for k in range(filler)]
    return pl.DataFrame(rows, schema=METRIC_SCHEMA, orient="row")
