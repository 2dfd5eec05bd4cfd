"""The Agent panel's hint says what keys 0-9 really do in each view
(they switch the point of view; units are selected by clicking)."""

import pygame
import pytest

from tests.helpers.viewer import frame, key

ORACLE = ["Click a unit to select it.", "Keys 0-9 switch to that agent's point of view."]
POV = [
    "Click a unit shown in this view to select it.",
    "Keys 0-9 switch to another agent's point of view, o back to the Oracle.",
]


@pytest.mark.parametrize(
    ("view_key", "view", "hint"),
    [
        (pygame.K_o, "oracle", ORACLE),
        (pygame.K_a, ("team", 0), POV),
        (pygame.K_3, ("agent", 3), POV),
    ],
)
def test_the_hint_matches_what_the_digit_keys_do(app, view_key, view, hint):
    frame(app, [key(view_key)])
    app.side.tab = "agent"
    assert app.model.view == view and app.model.selected is None
    assert app.model.agent_lines(None) == hint
    frame(app, [key(pygame.K_7)])  # what the hint promises: a new point of view, no selection
    assert app.model.view == ("agent", 7) and app.model.selected is None


def test_no_hint_mentions_selecting_with_digits(app):
    for view_key in (pygame.K_o, pygame.K_b, pygame.K_0):
        frame(app, [key(view_key)])
        text = " ".join(app.model.agent_lines(None))
        assert "0-9" in text and "press 0-9" not in text and "select it." in text
