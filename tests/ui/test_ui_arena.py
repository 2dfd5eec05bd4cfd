"""ArenaRenderer: transforms, picking, and pixels of map, Red Zones, obstacles and units."""

import numpy as np
import pygame
import pytest

from ui.arena import ArenaRenderer
from ui.scene import Scene, UnitView
from ui.theme import COLOURS, TEAM_COLOURS, TEAM_DARK

# A 416 x 216 surface fits the 20 x 10 map at 20 pixels a unit, 8 pixels in from each side.
RECT = pygame.Rect(0, 0, 416, 216)


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


def unit(slot, pos, alive=True, relayed=False, shield=0):
    return UnitView(slot, 1, pos, 80.0 if alive else 0.0, 80.0, alive, shield, 0, (0,) * 9, relayed)


def scene(units, overlays=frozenset(), red_zones=((0, 0, 4, 10), (16, 0, 20, 10))):
    obstacles = np.zeros((32, 8), np.float32)
    obstacles[0] = [1, 10.0, 5.0, 1.0, 0, 0, 0, 1]  # pillar at the centre, radius 1
    obstacles[1] = [2, 10.0, 9.0, 0, 4.0, 0.5, 0, 0]  # inactive wall: never drawn
    return Scene(
        tick=0,
        view="oracle",
        obstacles=obstacles,
        red_zones=np.array(red_zones, np.float32),
        pads=np.zeros((10, 2), np.float32),
        units=tuple(units),
        score=(0, 0),
        outcome=0,
        overlays=frozenset(overlays),
    )


def draw(sc, rect=RECT, size=(416, 216)):
    surface = pygame.Surface(size)
    surface.fill((1, 2, 3))
    renderer = ArenaRenderer()
    renderer.draw(surface, sc, rect)
    return surface, renderer


def rgb(surface, xy):
    return tuple(surface.get_at(xy))[:3]


def test_transform_corners_and_inverse():
    renderer = ArenaRenderer()
    assert renderer.world_to_screen((0, 10), RECT) == (8, 8)
    assert renderer.world_to_screen((20, 0), RECT) == (408, 208)
    assert renderer.world_to_screen((5, 5), RECT) == (108, 108)
    assert renderer.screen_to_world((108, 108), RECT) == (5.0, 5.0)


def test_units_pillar_and_background_pixels():
    surface, _ = draw(scene([unit(1, (5, 5)), unit(7, (15, 5)), unit(3, (5, 2), alive=False)]))
    assert rgb(surface, (100, 108)) == TEAM_COLOURS[0]  # inside A1's disc, left of its glyph
    assert rgb(surface, (300, 108)) == TEAM_COLOURS[1]  # B2 at (15, 5)
    assert rgb(surface, (100, 168)) == COLOURS["dead"]  # A3's corpse at (5, 2)
    assert rgb(surface, (208, 108)) == COLOURS["obstacle"]  # pillar centre
    assert rgb(surface, (212, 30)) == COLOURS["arena"]  # the inactive wall is not drawn
    assert rgb(surface, (3, 3)) == COLOURS["background"]  # margin outside the map


def test_relayed_unit_is_drawn_dark():
    surface, _ = draw(scene([unit(6, (5, 5), relayed=True)]))
    assert rgb(surface, (100, 108)) == TEAM_DARK[1]


def test_red_zone_tint_only_with_the_overlay():
    plain, _ = draw(scene([]))
    assert rgb(plain, (20, 60)) == COLOURS["arena"]
    tinted, _ = draw(scene([], overlays={"red_zones"}))
    r, g, b = rgb(tinted, (20, 60))
    # 46/255 of (200, 40, 40) over the arena colour (46, 52, 46)
    assert abs(r - 74) <= 2 and abs(g - 50) <= 2 and abs(b - 45) <= 2
    assert rgb(tinted, (150, 60)) == COLOURS["arena"]  # the middle of the map is no zone


def test_zero_width_red_zone_is_not_drawn():
    surface, _ = draw(scene([], overlays={"red_zones"}, red_zones=((0, 0, 0, 10), (20, 0, 20, 10))))
    assert rgb(surface, (20, 60)) == COLOURS["arena"]


def test_draw_stays_inside_its_rect():
    rect = pygame.Rect(100, 50, 416, 216)
    surface, renderer = draw(scene([unit(1, (0.5, 9.5))]), rect=rect, size=(700, 400))
    assert rgb(surface, (99, 49)) == (1, 2, 3)
    assert rgb(surface, (516, 266)) == (1, 2, 3)
    assert renderer.world_to_screen((5, 5)) == (208, 158)  # the last drawn rect is kept


def test_unit_at_picks_the_nearest_unit_within_reach():
    sc = scene([unit(1, (5, 5)), unit(2, (6.2, 5))])
    _, renderer = draw(sc)
    assert renderer.unit_at(sc, (108, 108)) == 1
    assert renderer.unit_at(sc, (131, 108)) == 2  # x = 6.15
    assert renderer.unit_at(sc, (300, 30)) is None


def test_slot_label_moves_left_of_a_unit_at_the_east_edge():
    """A label right of the body would be cut by the arena's edge; it goes on the left."""
    surface = pygame.Surface(RECT.size)
    renderer = ArenaRenderer()
    renderer.draw(surface, scene([unit(5, (19.5, 5.0))]), RECT)
    cx, cy = renderer.world_to_screen((19.5, 5.0))  # (398, 108); body radius 10 px
    text = COLOURS["text"]
    left = pygame.Rect(cx - 10 - 2 - 14, cy - 10 - 2, 14, 10)  # where "B0" goes now
    right = pygame.Rect(cx + 10 + 2, cy - 10 - 2, RECT.right - cx - 12, 10)
    lit = [surface.get_at((x, y))[:3] == text for x in range(left.left, left.right)
           for y in range(left.top, left.bottom)]  # fmt: skip
    assert any(lit)
    assert not any(surface.get_at((x, y))[:3] == text for x in range(right.left, right.right)
                   for y in range(right.top, right.bottom))  # fmt: skip


def test_edge_units_and_overlays_stay_on_the_map_not_its_margin():
    """A shielded, selected unit on the west edge with sight and range circles: its rings and
    circles are cut at the map's edge (x = 8 px here); the 8 px margin stays background."""
    edge = unit(1, (0.5, 5.0), shield=3)
    sc = scene([edge], overlays={"sight", "ranges"})
    sc = Scene(**{**sc.__dict__, "selected": 1})
    surface, renderer = draw(sc)
    cx, cy = renderer.world_to_screen(edge.pos)
    assert cx == 18  # body radius 10 px: the body touches the map's west edge at x = 8
    margin = [rgb(surface, (x, cy)) for x in range(0, 8)]
    assert margin == [COLOURS["background"]] * 8
    assert rgb(surface, (8, cy)) != COLOURS["background"]  # the map's own border is drawn
