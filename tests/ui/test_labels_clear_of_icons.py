"""Unit labels keep off other units' bodies and icons, and side-by-side units' health bars do
not overlap: a bar whose spot above the body is taken goes below it (ui.arena, `label_order`
gives the priority). The picture is saved for looking at (tmp folder, and $MBG_SHOTS)."""

import os
import shutil

import pygame
import pytest

from tests.ui.test_ui_arena import scene, unit
from ui.arena import ArenaRenderer

RECT = pygame.Rect(0, 0, 840, 440)  # 41.2 px a map unit: a body is 43 px across


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


def _draw(units, tmp_path, name):
    surface = pygame.Surface(RECT.size)
    renderer = ArenaRenderer()
    crowd = scene(units)
    renderer.draw(surface, crowd, RECT)
    pygame.image.save(surface, str(tmp_path / f"{name}.png"))
    if os.environ.get("MBG_SHOTS"):
        shutil.copy(tmp_path / f"{name}.png", os.path.join(os.environ["MBG_SHOTS"], f"{name}.png"))
    return renderer, crowd


def _body(renderer, u):
    x, y = renderer.world_to_screen(u.pos)
    return pygame.Rect(x - 21, y - 21, 43, 43)  # radius round(0.5 * 41.2) = 21


def test_side_by_side_bars_take_turns_above_and_below(tmp_path):
    row = [unit(s, (5.0 + s, 3.0)) for s in range(3)]  # one map unit apart: 41 px
    renderer, _ = _draw(row, tmp_path, "bars_side_by_side")
    bars = renderer._bars
    assert len(bars) == 3
    centre_y = renderer.world_to_screen((0, 3.0))[1]
    assert [b.y < centre_y for b in bars] == [True, False, True]  # A1's bar went below
    assert bars[1].y == centre_y + 21 + 10  # under the status squares (y + radius + 3..8)
    for i, a in enumerate(bars):
        assert a.inflate(0, 2).collidelist(bars[:i] + bars[i + 1 :]) < 0
        assert a.width == 46  # whole width: readable


def test_labels_sit_on_no_other_body_and_no_bar(tmp_path):
    units = [
        unit(0, (5.0, 5.0)),
        unit(1, (5.9, 5.3)),  # right beside A0: A0's first label spot (top right) is on it
        unit(2, (5.4, 6.1)),  # above both
        unit(5, (6.6, 4.3)),
        unit(6, (4.4, 4.2), alive=False),
    ]
    renderer, _ = _draw(units, tmp_path, "labels_clear_of_icons")
    bodies = [_body(renderer, u) for u in units]
    x, y = renderer.world_to_screen(units[0].pos)
    first_spot = pygame.Rect(x + 21 + 2, y - 21 - 2, 16, 10)  # where A0's label used to go
    assert first_spot.colliderect(bodies[1])
    labels = renderer._labels
    assert len(labels) >= 4  # the crowd keeps most of its labels
    for box in labels:
        assert box.collidelist(bodies) < 0  # on no body, its own or another's
        assert box.collidelist(renderer._bars) < 0
        assert box.collidelist([other for other in labels if other is not box]) < 0
