"""Class icons drawn in code (no image files, so no licences to track), for both apps.

Each class's icon is a few filled polygons and thick lines in a unit box (x right, y down,
-1..1), keyed by the class name of the catalogue (`engine.constants.CLASS_NAMES`): a
lightning bolt for the Mage's spells, a shield for the Warrior, an arrow for the Hunter, a
dagger for the Rogue, a cross for the Priest. Shapes are bold and few so they stay readable
at a body radius of 6 pixels. A class without an entry (a new class of the catalogue) is
drawn as its letter.
"""

import pygame

from ui.rules import C

# name -> (filled polygons, thick lines as (start, end, width as a fraction of the size))
ICONS = {
    "Mage": (
        [
            [
                (0.2, -0.95),
                (-0.6, 0.15),
                (-0.05, 0.15),
                (-0.25, 0.95),
                (0.6, -0.2),
                (0.05, -0.2),
                (0.35, -0.95),
            ]
        ],
        [],
    ),  # fmt: skip
    "Warrior": ([[(-0.75, -0.8), (0.75, -0.8), (0.75, -0.1), (0.0, 0.9), (-0.75, -0.1)]], []),
    "Hunter": (
        [[(0.85, -0.85), (0.75, -0.15), (0.15, -0.75)]],
        [((-0.8, 0.8), (0.55, -0.55), 0.22)],
    ),
    "Rogue": (
        [[(0.0, -0.95), (0.22, -0.55), (0.14, 0.3), (-0.14, 0.3), (-0.22, -0.55)]],
        [((-0.6, 0.35), (0.6, 0.35), 0.2), ((0.0, 0.35), (0.0, 0.95), 0.22)],
    ),
    "Priest": ([], [((0.0, -0.9), (0.0, 0.9), 0.4), ((-0.7, -0.25), (0.7, -0.25), 0.4)]),
}


def icon_shapes(class_id: int):
    """(polygons, lines) of a class's icon in the unit box, or None for a class without one
    (the empty slot's class 0 included)."""
    return ICONS.get(C.CLASS_NAMES[int(class_id)]) if 0 < int(class_id) < C.NUM_CLASSES else None


def draw_class_icon(surface, class_id: int, centre, size: int, colour=(255, 255, 255), font=None):
    """Draws the icon of `class_id` fitted in a `size` x `size` pixel box centred on `centre`.
    Without an icon, draws the class letter (ui.theme.CLASS_GLYPHS) with `font` (pygame's
    default font at `size` pixels when None). Returns the pixel rect drawn."""
    shapes = icon_shapes(class_id)
    cx, cy = centre
    half = max(size, 4) / 2

    def at(point):
        return (cx + point[0] * half, cy + point[1] * half)

    if shapes is None:
        from ui.theme import CLASS_GLYPHS

        glyph = CLASS_GLYPHS[class_id] if class_id < len(CLASS_GLYPHS) else "?"
        text = (font or pygame.font.Font(None, max(size, 8))).render(glyph, True, colour)
        return surface.blit(text, text.get_rect(center=(round(cx), round(cy))))
    polygons, lines = shapes
    drawn = pygame.Rect(round(cx - half), round(cy - half), round(2 * half), round(2 * half))
    for polygon in polygons:
        pygame.draw.polygon(surface, colour, [at(p) for p in polygon])
    for start, end, width in lines:
        pygame.draw.line(surface, colour, at(start), at(end), max(1, round(width * half)))
    return drawn
