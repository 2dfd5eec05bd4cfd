"""One health figure on every surface: ui.rules.hp_text rounds hit points up, as games do."""

import numpy as np
import pytest

from ui.rules import hp_text


@pytest.mark.parametrize(
    ("health", "text"),
    [
        (64.4, "65"),  # the BattleClient showed 65 and the Replay Viewer 64 before
        (64.5, "65"),
        (64.0, "64"),
        (0.3, "1"),  # a living unit never reads 0
        (1e-6, "1"),
        (0.0, "0"),
        (-2.5, "0"),  # overkill leaves negative health: a dead unit reads 0
        (np.float32(80) - np.float32(15), "65"),
        (np.float32(65.000004), "65"),  # float32 noise above a whole number stays that number
        (np.float32(200), "200"),
    ],
)
def test_hp_text_rounds_up_and_never_shows_0_for_a_living_unit(health, text):
    assert hp_text(health) == text
