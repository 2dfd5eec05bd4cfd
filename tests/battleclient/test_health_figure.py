"""The BattleClient's unit card, the Replay Viewer's unit tooltip and its detail panel print one
health figure (ui.rules.hp_text): 64.4 HP reads 65 in both apps."""

import pygame

from battleclient.panels import draw_unit_card
from replay_viewer.panels import tooltip_lines
from tests.battleclient.test_human_view import Recording
from ui.scene import UnitView

HUNTER_B2 = UnitView(
    slot=7, class_id=3, pos=(5.0, 5.0), health=64.4, max_health=100.0, alive=True, shield=0,
    cooldown=0, status=(0,) * 9, relayed=True,
)  # fmt: skip


def test_card_and_tooltip_print_the_same_health(display):
    texts: list[str] = []
    font, small = (Recording(pygame.font.Font(None, size), texts) for size in (20, 16))
    draw_unit_card(pygame.Surface((400, 60)), (0, 0, 380, 50), HUNTER_B2, font, small)
    assert "65/100" in texts and "Hunter B2  (relayed: last tick)" in texts
    assert tooltip_lines(HUNTER_B2)[:2] == ["Hunter B2 (relayed, last tick)", "health 65/100"]
