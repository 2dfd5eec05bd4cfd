"""The orders ring never hides a unit: at tick 0 the selected A0's north dot falls
on its teammate A1, so that dot is drawn as an outline and A1 shows through; the click is
still the move (the ring is how a player moves off its pad)."""

import pygame

from battleclient import layout as L
from battleclient import panels
from tests.battleclient.driver import frame, make_app, orders_ready, setup, wait_for
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
