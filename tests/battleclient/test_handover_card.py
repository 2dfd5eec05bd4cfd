"""The hotseat hand-over card names the keys that dismiss it, and those keys do."""

from types import SimpleNamespace

import pygame
import pytest

from battleclient.play_draw import PlayDrawing
from battleclient.play_input import PlayInput


def card_lines(team=1, tick=7, early_press=False):
    drawn = []
    fake = SimpleNamespace(
        s=SimpleNamespace(team=team, snap=SimpleNamespace(tick=tick), early_press=early_press),
        _card=lambda surface, title, lines: drawn.append((title, lines)),
    )
    PlayDrawing._handover(fake, None)
    return drawn[0]


def test_the_card_names_enter_space_and_a_click():
    title, lines = card_lines()
    assert title == "Team B's turn"
    assert lines[0] == "Hand the controls to Team B's player; Team A, look away."
    assert lines[-1] == "Press Enter or Space (or click) when ready."
    assert card_lines(early_press=True)[1][-1] == (
        "That press came as the card appeared and was ignored: press again."
    )


@pytest.mark.parametrize(
    ("key", "takes_over"),
    [
        (pygame.K_RETURN, True),
        (pygame.K_KP_ENTER, True),
        (pygame.K_SPACE, True),
        (pygame.K_a, False),
    ],
)
def test_the_keys_the_card_names_take_over(key, takes_over):
    taken = []
    fake = SimpleNamespace(_take_over_by_hand=lambda: taken.append(True))
    PlayInput._key_handover(fake, SimpleNamespace(key=key))
    assert bool(taken) is takes_over
