"""Class icons: every class of the catalogue has one, and at small sizes they stay apart."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from ui.icons import draw_class_icon, icon_shapes  # noqa: E402
from ui.rules import C  # noqa: E402


def mask(class_id: int, size: int) -> bytes:
    surface = pygame.Surface((size + 4, size + 4))
    draw_class_icon(surface, class_id, ((size + 4) / 2, (size + 4) / 2), size)
    return pygame.image.tobytes(surface, "RGB")


def test_every_class_of_the_catalogue_has_an_icon():
    assert [icon_shapes(c) is not None for c in range(C.NUM_CLASSES)] == [False] + [True] * (
        C.NUM_CLASSES - 1
    )


@pytest.mark.parametrize("size", [7, 12, 24])
def test_icons_differ_pairwise_and_fill_part_of_their_box(size):
    pygame.font.init()
    pictures = [mask(c, size) for c in range(1, C.NUM_CLASSES)]
    assert len(set(pictures)) == len(pictures)
    for picture in pictures:
        lit = sum(picture[k] > 128 for k in range(0, len(picture), 3))
        assert 0.12 * size * size < lit < 0.8 * size * size  # bold, but not a blob


def test_a_class_without_an_icon_is_drawn_as_its_letter():
    pygame.font.init()
    surface = pygame.Surface((30, 30))
    rect = draw_class_icon(surface, 0, (15, 15), 20)
    assert rect.width > 0 and any(
        surface.get_at((x, y))[0] > 128 for x in range(30) for y in range(30)
    )
