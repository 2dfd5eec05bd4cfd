"""Class icons (ui.class_icons): one per class, told apart at small sizes, inside the unit."""

import numpy as np
import pygame

from ui.arena import ArenaRenderer
from ui.class_icons import ICON_SHAPES, draw_class_icon
from ui.rules import C

WHITE = (255, 255, 255)


def icon_mask(class_id: int, radius: int) -> np.ndarray:
    surface = pygame.Surface((2 * radius + 1, 2 * radius + 1))
    assert draw_class_icon(surface, class_id, (radius, radius), radius, WHITE)
    return pygame.surfarray.array3d(surface)[:, :, 0] == 255


def test_every_class_has_an_icon_and_a_class_without_one_says_so():
    assert set(ICON_SHAPES) == set(C.CLASS_NAMES[1:])
    surface = pygame.Surface((20, 20))
    assert not draw_class_icon(surface, C.NEUTRAL, (10, 10), 8, WHITE)
    assert not draw_class_icon(surface, len(C.CLASS_NAMES), (10, 10), 8, WHITE)
    assert not pygame.surfarray.array3d(surface).any()  # nothing drawn: the caller's letter


def test_icons_differ_and_stay_inside_the_unit_at_small_sizes():
    for radius in (8, 20):
        masks = {c: icon_mask(c, radius) for c in range(1, len(C.CLASS_NAMES))}
        yy, xx = np.mgrid[: 2 * radius + 1, : 2 * radius + 1]
        inside = (xx - radius) ** 2 + (yy - radius) ** 2 <= radius**2
        for c, mask in masks.items():
            assert mask.sum() >= radius  # visible, not a speck
            assert not (mask & ~inside.T).any(), C.CLASS_NAMES[c]
        for a in masks:
            for b in masks:
                if a < b:  # at least a fifth of the pixels tell any two apart
                    differ = (masks[a] ^ masks[b]).sum()
                    assert differ >= 0.2 * (masks[a] | masks[b]).sum(), (a, b, radius)


def test_the_arena_draws_the_icon_in_place_of_the_letter():
    from tests.ui.test_ui_arena import RECT, fonts, scene, unit  # noqa: F401

    pygame.font.init()
    pictures = {}
    for icons in (False, True):
        surface = pygame.Surface(RECT.size)
        renderer = ArenaRenderer(icons=icons)
        renderer.draw(surface, scene([unit(0, (6.0, 5.0))]), RECT)  # a Mage, class 1
        centre = renderer.world_to_screen((6.0, 5.0), RECT)
        r = 8
        box = pygame.Rect(centre[0] - r, centre[1] - r, 2 * r + 1, 2 * r + 1)
        pictures[icons] = pygame.surfarray.array3d(surface.subsurface(box))[:, :, 0] == 255
    star = icon_mask(C.MAGE, round(C.BODY_RADIUS * 20))
    middle = star.shape[0] // 2
    expected = star[middle - 8 : middle + 9, middle - 8 : middle + 9]
    assert (pictures[True] == expected).mean() > 0.9  # the icon, pixel for pixel nearly
    assert (pictures[False] != expected).mean() > 0.1  # the letter is another picture
