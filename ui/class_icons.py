"""Class icons drawn in code (no image files, so no licences), readable from 8 pixels up.

Each class of engine/constants.CLASS_NAMES has one shape list in `ICON_SHAPES`, keyed by the
class name: polygons and strokes in icon units (-1..1, x right, y down), scaled to the circle
they fill. A class without an entry (a new one) draws its letter instead (`draw_class_icon`
returns False), so adding a class never breaks a picture. The shapes say the class's role:
the Mage's spark (Burst), the Warrior's sword, the Hunter's bow and arrow, the Rogue's drop of
poison, the Priest's cross (RULES 2.2).
"""

import math

import pygame

from ui.rules import C


def _star(points: int, outer: float, inner: float) -> list[tuple[float, float]]:
    """A star of `points` tips, pointing up."""
    angles = [math.pi / points * k - math.pi / 2 for k in range(2 * points)]
    radii = [outer if k % 2 == 0 else inner for k in range(2 * points)]
    return [(math.cos(a) * r, math.sin(a) * r) for a, r in zip(angles, radii, strict=True)]


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int = 12):
    """Points along a circle's arc from angle `start` to `end` (radians, y down)."""
    angles = [start + (end - start) * k / steps for k in range(steps + 1)]
    return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in angles]


STAR = _star(4, 0.75, 0.28)  # tips inside 0.55 of the unit: its team colour shows round it
DROP = [*_arc(0.0, 0.2, 0.62, -0.25 * math.pi, 1.25 * math.pi), (0.0, -0.95)]
ARC = _arc(-0.55, 0.0, 1.1, -0.4 * math.pi, 0.4 * math.pi)

# class name -> [(kind, points)]: "polygon" is filled, "lines" a stroke through the points
ICON_SHAPES = {
    "Mage": [("polygon", STAR)],
    "Warrior": [
        ("polygon", [(-0.13, 0.45), (-0.13, -0.7), (0.0, -0.95), (0.13, -0.7), (0.13, 0.45)]),
        ("lines", [(-0.5, 0.45), (0.5, 0.45)]),
        ("lines", [(0.0, 0.45), (0.0, 0.9)]),
    ],
    "Hunter": [
        ("lines", ARC),
        ("lines", [ARC[0], ARC[-1]]),
        ("lines", [(-0.75, 0.0), (0.85, 0.0)]),
        ("polygon", [(0.95, 0.0), (0.62, -0.22), (0.62, 0.22)]),
    ],
    "Rogue": [("polygon", DROP)],
    "Priest": [
        (
            "polygon",
            [
                (-0.22, -0.85),
                (0.22, -0.85),
                (0.22, -0.22),
                (0.85, -0.22),
                (0.85, 0.22),
                (0.22, 0.22),
                (0.22, 0.85),
                (-0.22, 0.85),
                (-0.22, 0.22),
                (-0.85, 0.22),
                (-0.85, -0.22),
                (-0.22, -0.22),
            ],
        ),  # fmt: skip
    ],
}


def icon_points(points, centre, size: float) -> list[tuple[int, int]]:
    """Icon units -> screen pixels around `centre`, `size` pixels per icon unit."""
    return [(round(centre[0] + x * size), round(centre[1] + y * size)) for x, y in points]


def draw_class_icon(surface, class_id: int, centre, radius: float, colour) -> bool:
    """Draw the icon of class `class_id` (engine.constants class id) in the circle of `radius`
    pixels at `centre` (x, y pixels) in `colour` (RGB). False, drawing nothing, for a class
    without an icon (Neutral or a class added after this table): draw its letter then."""
    name = C.CLASS_NAMES[class_id] if 0 <= class_id < len(C.CLASS_NAMES) else ""
    shapes = ICON_SHAPES.get(name)
    if not shapes:
        return False
    size = radius * 0.72
    width = max(1, round(radius * 0.16))
    for kind, points in shapes:
        pixels = icon_points(points, centre, size)
        if kind == "polygon":
            pygame.draw.polygon(surface, colour, pixels)
        else:
            pygame.draw.lines(surface, colour, False, pixels, width)
    return True
