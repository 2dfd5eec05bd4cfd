"""Second new-user trial: the lobby preview does not hang on the rules boxes, a bad box is named
at once, slot specs typed during the start-up compile, and the end card, labels and menu."""

import numpy as np
import pygame

from battleclient import layout as L
from tests.battleclient.driver import frame, key, setup

HUMAN = "A0=human,A1-A4=random,B*=random"


def test_invalid_max_ticks_keeps_the_preview_and_is_named_at_once(apps):
    app = apps(setup(HUMAN), start=False)
    screen = app.screen
    screen.entries["horizon"].set_text("0")
    shot = frame(app)
    assert screen.preview_choice()[0] == 47  # map 047 Keep stays chosen and drawn
    preview = pygame.surfarray.array3d(shot.subsurface(pygame.Rect(L.PREVIEW)))
    assert len(np.unique(preview.reshape(-1, 3), axis=0)) >= 3
    assert screen.error and screen.message.startswith("Max ticks: type a whole number from 1")
    assert "(it says '0')" in screen.message
    frame(app, [key(pygame.K_RETURN)])  # Start refuses with the same reason
    assert app.screen is screen and screen.message.startswith("Max ticks: type")
    screen.entries["horizon"].set_text("40")
    frame(app)
    assert screen.message == "" and not screen.error
