"""Crowds stay readable: unit labels never overlap (the lowest-priority ones give way), and the
Replay Viewer's kill feed wraps a long death onto a second line instead of cutting names."""

import dataclasses

import pygame
import pytest

from replay_viewer import layout as L
from replay_viewer.story import Mark
from replay_viewer.timeline import draw_kill_feed
from tests.ui.test_ui_arena import scene, unit
from ui.arena import ArenaRenderer, label_order
from ui.theme import TEAM_COLOURS


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


def test_ten_units_on_one_spot_keep_eight_labels_apart(tmp_path):
    units = [unit(s, (10.0, 5.0), alive=s not in (3, 8)) for s in range(10)]
    crowd = dataclasses.replace(scene(units), selected=9)
    order = [u.slot for u in label_order(crowd)]
    assert order == [9, 0, 1, 2, 4, 5, 6, 7, 3, 8]  # selected, living, then the dead
    surface = pygame.Surface((840, 440))
    renderer = ArenaRenderer()
    renderer.draw(surface, crowd, pygame.Rect(0, 0, 840, 440))
    pygame.image.save(surface, str(tmp_path / "crowd.png"))
    labels = renderer._labels
    assert len(labels) == 8  # four corners and four one row further out: the two dead give way
    assert all(a.collidelist([b for b in labels if b is not a]) < 0 for a in labels)
    room = renderer.map_rect(pygame.Rect(0, 0, 840, 440))
    assert all(room.contains(r) for r in labels)


def test_a_long_death_wraps_in_the_kill_feed_with_every_name_whole(tmp_path):
    font = pygame.font.Font(None, 16)  # the viewer's info font
    text = "Warrior A1 and Hunter A3 killed Priest B4 in its own Red Zone (2 points)"
    assert font.size(text)[0] > L.FEED[2] - 10  # too wide for one line of the feed
    feed = [Mark(7, "death", 1, text), Mark(6, "death", 0, "Mage B2 killed Rogue A0")]
    surface = pygame.Surface((900, 300))
    draw_kill_feed(surface, L.FEED, feed, font)
    pygame.image.save(surface, str(tmp_path / "feed.png"))
    rect, step = pygame.Rect(L.FEED), font.get_linesize()

    def inked(top, colour) -> bool:
        return any(
            tuple(surface.get_at((x, y)))[:3] == tuple(colour)[:3]
            for x in range(rect.x, rect.right)
            for y in range(top, top + step)
        )

    killer_a, killer_b = TEAM_COLOURS[0], TEAM_COLOURS[1]
    assert inked(rect.y + 2, killer_a) and inked(rect.y + 2 + step, killer_a)  # two lines
    second = rect.y + 2 * step + 4 + 2  # the next band starts under both lines
    assert inked(second + 2, killer_b) and not inked(second + 2, killer_a)
