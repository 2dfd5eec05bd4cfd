"""The orders ring never hides a unit: at tick 0 the selected A0's north dot falls
on its teammate A1, so that dot is drawn as an outline and A1 shows through; the click is
still the move (the ring is how a player moves off its pad)."""

import dataclasses

import numpy as np
import pygame

from battleclient import layout as L
from battleclient import panels
from tests.battleclient.driver import (
    click,
    frame,
    make_app,
    orders_ready,
    post_events,
    setup,
    wait_for,
)
from ui.rules import C
from ui.theme import TEAM_COLOURS

DOT_FILL = (60, 66, 80)  # panels.draw_ring: an unchosen dot


def test_a_ring_dot_over_a_unit_lets_the_unit_show(display):
    app = make_app(setup("A0=human,A1-A4=random,B*=random", seed=5))
    try:
        wait_for(app, lambda: orders_ready(app))
        frame(app, dt=0.5)  # the ring shows once the units have settled
        screen = app.screen
        scene = screen.scenes[screen.team]
        dots = dict(screen.drawing.ring(scene, 0))
        north = dots[1]
        assert screen.renderer.unit_at(scene, north, L.ARENA) == 1  # the dot lies on A1
        surface = frame(app)
        r = panels.DOT_R
        box = [
            tuple(surface.get_at((north[0] + dx, north[1] + dy)))[:3]
            for dx in range(-r + 2, r - 1)
            for dy in range(-r + 2, r - 1)
        ]
        assert DOT_FILL not in box and TEAM_COLOURS[0] in box
        free = next(
            p for d, p in dots.items() if screen.renderer.unit_at(scene, p, L.ARENA) is None
        )
        assert DOT_FILL in [
            tuple(surface.get_at((free[0] + dx, free[1])))[:3] for dx in range(-r + 2, r - 1)
        ]
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=north, button=1))
        frame(app)
        assert screen.books[0].orders[0].move == 1  # north
    finally:
        app.close()


LABEL_PINK = (230, 150, 150)  # ui.arena: the Red Zone labels' text


def test_ring_dots_by_the_map_edge_leave_the_red_zone_label_readable(display):
    """At tick 0 the selected A0 stands by the south-west corner: its SW and S dots sit where
    "A Red Zone" is written (bottom-left, as "B Red Zone" still is), so the label moves to a
    corner of its zone that no dot covers, and its letters are drawn there."""
    app = make_app(setup("A0=human,A1-A4=random,B*=random", seed=5))
    try:
        wait_for(app, lambda: orders_ready(app))
        frame(app, dt=0.5)
        screen = app.screen
        surface = frame(app)
        r = panels.DOT_R
        dots = [
            pygame.Rect(x - r, y - r, 2 * r, 2 * r)
            for _, (x, y) in screen.drawing.ring(screen.scenes[screen.team], 0)
        ]
        labels = screen.renderer.red_zone_labels
        usual = pygame.Rect(screen.renderer.map_rect(L.ARENA).x + 4, labels[1].y, *labels[0].size)
        assert usual.collidelist(dots) >= 0  # where it is written without the ring
        assert labels[0] != usual and labels[0].collidelist(dots) < 0
        pixels = [
            tuple(surface.get_at((x, y)))[:3]
            for x in range(labels[0].left, labels[0].right)
            for y in range(labels[0].top, labels[0].bottom)
        ]
        assert pixels.count(LABEL_PINK) > 20
    finally:
        app.close()


def _enemy_on_the_dot(screen, direction: int, offset_px: float):
    """Puts B0 (slot 5) `offset_px` pixels beyond A0's ring dot `direction`, along its spoke,
    in A's view, and makes B0 a legal Basic target of A0 this tick; returns the dot's screen
    point."""
    scene = screen.scenes[screen.team]
    dots = dict(screen.drawing.ring(scene, 0))
    point = dots[direction]
    centre = screen.renderer.world_to_screen(scene.unit(0).pos, L.ARENA)
    spoke = pygame.Vector2(point) - pygame.Vector2(centre)
    at = pygame.Vector2(point) + spoke.normalize() * offset_px
    pos = screen.renderer.screen_to_world((at.x, at.y), L.ARENA)
    b0_class = int(screen.snap.state["class_id"][5])  # B0 is out of A's sight at tick 0
    moved = dataclasses.replace(scene.unit(1), slot=5, class_id=b0_class, pos=pos)
    units = tuple(u for u in scene.units if u.slot != 5) + (moved,)
    screen.scenes[screen.team] = dataclasses.replace(scene, units=units)
    book = screen.books[0]
    book.pair_mask = book.pair_mask.copy()  # the engine's mask arrives read-only
    book.pair_mask[0, int(np.flatnonzero(C.TARGET_SLOT[0] == 5)[0]), 0] = True
    return point


def test_a_click_on_a_legal_target_over_a_ring_dot_targets_it(display):
    """An enemy standing on A0's W dot (the dot is drawn as an outline under it): a click on
    its body targets it, as T does; a click on the dot's part outside the body still moves."""
    app = make_app(setup("A0=human,A1-A4=random,B*=random", seed=5))
    try:
        wait_for(app, lambda: orders_ready(app))
        frame(app, dt=0.5)
        screen = app.screen
        book, cls = screen.books[0], int(screen.snap.state["class_id"][0])
        west = C.MOVE_NAMES.index("W")
        point = _enemy_on_the_dot(screen, west, 0.0)
        assert screen.renderer.unit_at(screen.scenes[0], point, L.ARENA) == 5
        post_events(app, click(point))
        assert book.describe(0, cls) == "stay, Basic on B0"
        body = (C.BODY_RADIUS + 0.2) * screen.drawing.scale()
        dot = _enemy_on_the_dot(screen, west, body)  # B0 now covers the dot's outer half
        inner = (dot[0] + 10, dot[1])  # W dot: inward is east, 10 px is still on the dot
        assert screen.renderer.unit_at(screen.scenes[0], inner, L.ARENA) is None
        post_events(app, click(inner))
        assert book.describe(0, cls) == "move W, Basic on B0"
    finally:
        app.close()
