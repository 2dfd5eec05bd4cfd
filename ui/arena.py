"""Draws a `Scene` into any pygame surface: map, Red Zones, obstacles, units and overlays.

World coordinates are map units with y up (RULES 1.1); the screen flips y. The renderer keeps
the transform of the last drawn rect for mouse picking (`screen_to_world`, `unit_at`).
"""

import math

import numpy as np
import pygame

from ui.geometry import los_clear, wall_corners
from ui.icons import draw_class_icon
from ui.rules import C
from ui.scene import Scene, UnitView
from ui.theme import COLOURS, STATUS_COLOURS, TEAM_COLOURS, TEAM_DARK

MARGIN = 8  # pixels around the map inside the given rect
BAR_HEIGHT = 4  # a health bar's height in pixels


class ArenaRenderer:
    """Stateless apart from fonts and the last layout; draw into any surface and rect. Units
    show their class icon (ui.icons)."""

    def __init__(self):
        self._fonts: dict[int, pygame.font.Font] = {}
        self._rect = pygame.Rect(0, 0, 2 * MARGIN + 200, 2 * MARGIN + 100)
        self._static_key, self._static = None, None
        # screen rects the Red Zone labels keep clear of (a BattleClient move ring's dots)
        self.label_avoid: tuple = ()
        self._layer_offset = (0, 0)  # the static layer's top-left on the screen
        self.red_zone_labels: dict[int, pygame.Rect] = {}  # team -> label's screen rect

    # --- transform -------------------------------------------------------------------------
    def _layout(self, rect) -> tuple[float, float, float]:
        rect = pygame.Rect(rect)
        scale = min(
            (rect.width - 2 * MARGIN) / C.MAP_WIDTH, (rect.height - 2 * MARGIN) / C.MAP_HEIGHT
        )
        scale = max(scale, 1.0)
        left = rect.x + (rect.width - scale * C.MAP_WIDTH) / 2
        top = rect.y + (rect.height - scale * C.MAP_HEIGHT) / 2
        return scale, left, top

    def world_to_screen(self, pos, rect=None) -> tuple[int, int]:
        """Map units (x east, y north) -> pixel (x, y) in the last drawn rect (or `rect`)."""
        scale, left, top = self._layout(rect or self._rect)
        return (round(left + pos[0] * scale), round(top + (C.MAP_HEIGHT - pos[1]) * scale))

    def screen_to_world(self, xy, rect=None) -> tuple[float, float]:
        """Pixel -> map units; the inverse of `world_to_screen`."""
        scale, left, top = self._layout(rect or self._rect)
        return ((xy[0] - left) / scale, C.MAP_HEIGHT - (xy[1] - top) / scale)

    def unit_at(self, scene: Scene, xy, rect=None) -> int | None:
        """The slot of the scene unit under pixel `xy` (within one body radius + 0.2), or None."""
        x, y = self.screen_to_world(xy, rect)
        best, best_d = None, C.BODY_RADIUS + 0.2
        for unit in scene.units:
            d = math.hypot(unit.pos[0] - x, unit.pos[1] - y)
            if d <= best_d:
                best, best_d = unit.slot, d
        return best

    def map_rect(self, rect) -> pygame.Rect:
        scale, left, top = self._layout(rect)
        return pygame.Rect(
            round(left), round(top), round(scale * C.MAP_WIDTH), round(scale * C.MAP_HEIGHT)
        )

    def font(self, size: int) -> pygame.font.Font:
        if size not in self._fonts:
            if not pygame.font.get_init():
                pygame.font.init()
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, scene: Scene, rect) -> None:
        """Draws `scene` fitted into `rect` (aspect kept, centred)."""
        self._rect = pygame.Rect(rect)
        scale, _, _ = self._layout(self._rect)
        previous_clip = surface.get_clip()
        surface.set_clip(self._rect.clip(previous_clip))
        self._draw_map(surface, scene, scale)
        self._room = self.map_rect(self._rect)
        # circles, rings and numbers of units by the edge stay on the map, not its margin
        surface.set_clip(self._room.clip(previous_clip))
        self._draw_overlays(surface, scene, scale)
        for unit in scene.units:
            self._draw_unit(surface, scene, unit, scale)
        self._draw_bars(surface, scene, scale)
        self._draw_labels(surface, scene, scale)
        self._draw_floats(surface, scene, scale)
        surface.set_clip(previous_clip)

    def _draw_map(self, surface, scene: Scene, scale: float) -> None:
        """The static layer (arena, grid, Red Zones, pads, obstacles), cached per layout."""
        key = (
            tuple(self._rect),
            scene.obstacles.tobytes(),
            scene.red_zones.tobytes(),
            scene.pads.tobytes(),
            "red_zones" in scene.overlays,
            tuple(tuple(pygame.Rect(r)) for r in self.label_avoid),
        )
        if self._static_key != key:
            layer = pygame.Surface(self._rect.size)
            offset = self._layer_offset = self._rect.topleft
            self._rect.topleft = (0, 0)  # draw the layer in its own coordinates
            try:
                layer.fill(COLOURS["background"])
                self._draw_static(layer, scene, scale)
            finally:
                self._rect.topleft = offset
            self._static_key, self._static = key, layer
        surface.blit(self._static, self._rect.topleft)

    def _draw_static(self, surface, scene: Scene, scale: float) -> None:
        area = self.map_rect(self._rect)
        surface.fill(COLOURS["arena"], area)
        for x in range(1, int(C.MAP_WIDTH)):
            sx = self.world_to_screen((x, 0))[0]
            pygame.draw.line(surface, COLOURS["grid"], (sx, area.top), (sx, area.bottom - 1))
        for y in range(1, int(C.MAP_HEIGHT)):
            sy = self.world_to_screen((0, y))[1]
            pygame.draw.line(surface, COLOURS["grid"], (area.left, sy), (area.right - 1, sy))
        if "red_zones" in scene.overlays:
            self._draw_red_zones(surface, scene)
        for slot, pad in enumerate(scene.pads):
            if np.any(pad):
                cx, cy = self.world_to_screen(pad)
                side = max(4, round(scale * 0.5))
                box = pygame.Rect(cx - side // 2, cy - side // 2, side, side)
                pygame.draw.rect(surface, TEAM_DARK[slot // C.TEAM_SIZE], box, 1)
        for row in scene.obstacles:
            if row[C.OBS_ACTIVE] != 1.0:
                continue
            if int(row[C.OBS_TYPE]) == C.OBSTACLE_PILLAR:
                centre = self.world_to_screen(row[[C.OBS_X, C.OBS_Y]])
                radius = max(2, round(row[C.OBS_RADIUS] * scale))
                pygame.draw.circle(surface, COLOURS["obstacle"], centre, radius)
                pygame.draw.circle(surface, COLOURS["obstacle_edge"], centre, radius, 1)
            elif int(row[C.OBS_TYPE]) == C.OBSTACLE_WALL:
                points = [self.world_to_screen(p) for p in wall_corners(row)]
                pygame.draw.polygon(surface, COLOURS["obstacle"], points)
                pygame.draw.polygon(surface, COLOURS["obstacle_edge"], points, 1)
        pygame.draw.rect(surface, COLOURS["border"], area, 1)

    def _draw_red_zones(self, surface, scene: Scene) -> None:
        self.red_zone_labels = {}
        for team, zone in enumerate(scene.red_zones):
            if zone[2] <= zone[0] or zone[3] <= zone[1]:
                continue  # width 0 disables a zone (RULES A4)
            x0, y1 = self.world_to_screen((zone[0], zone[1]))
            x1, y0 = self.world_to_screen((zone[2], zone[3]))
            box = pygame.Rect(x0, y0, max(1, x1 - x0), max(1, y1 - y0))
            layer = pygame.Surface(box.size, pygame.SRCALPHA)
            layer.fill(COLOURS["red_zone"])
            surface.blit(layer, box)
            label = self.font(16).render(f"{C.TEAM_NAMES[team]} Red Zone", True, (230, 150, 150))
            place = self.red_zone_label_rect(box, label.get_size())
            surface.blit(label, place)
            self.red_zone_labels[team] = place.move(self._layer_offset)

    def red_zone_label_rect(self, box, size) -> pygame.Rect:
        """Where a Red Zone's label of `size` pixels goes in the zone's `box` (the layer's
        coordinates): its bottom-left corner, else the first of the other corners that keeps
        clear of `label_avoid` (screen rects), else the bottom-left after all."""
        box, (w, h) = pygame.Rect(box), size
        offset = self._layer_offset
        avoid = [pygame.Rect(r).move(-offset[0], -offset[1]) for r in self.label_avoid]
        corners = [
            (box.x + 4, box.bottom - h - 3),
            (box.x + 4, box.y + 3),
            (box.right - w - 4, box.bottom - h - 3),
            (box.right - w - 4, box.y + 3),
        ]
        for x, y in corners:
            rect = pygame.Rect(x, y, w, h)
            if rect.collidelist(avoid) < 0:
                return rect
        return pygame.Rect(*corners[0], w, h)

    def _circle(self, surface, colour, pos, radius_units, scale, width=1) -> None:
        radius = max(1, round(radius_units * scale))
        pygame.draw.circle(surface, colour, self.world_to_screen(pos), radius, width)

    def _draw_overlays(self, surface, scene: Scene, scale: float) -> None:
        focus = [scene.unit(scene.selected)] if scene.selected is not None else scene.units
        focus = [u for u in focus if u is not None and u.alive]
        if "trails" in scene.overlays:
            for slot, points in scene.trails.items():
                if len(points) >= 2:
                    pts = [self.world_to_screen(p) for p in points]
                    pygame.draw.lines(surface, TEAM_DARK[slot // C.TEAM_SIZE], False, pts, 2)
        if "sight" in scene.overlays:
            for unit in focus:
                radius = C.SIGHT_RADIUS[unit.class_id]
                self._circle(surface, TEAM_DARK[unit.team], unit.pos, radius, scale)
        if "ranges" in scene.overlays:
            for unit in focus:
                self._circle(
                    surface, (200, 200, 200), unit.pos, C.BASIC_RANGE[unit.class_id], scale
                )
                if C.ULT_RANGE[unit.class_id] > 0:
                    self._circle(
                        surface, COLOURS["accent"], unit.pos, C.ULT_RANGE[unit.class_id], scale
                    )
        if "los" in scene.overlays and scene.selected is not None:
            self._draw_los(surface, scene)

    def _draw_los(self, surface, scene: Scene) -> None:
        source = scene.unit(scene.selected)
        if source is None:
            return
        start = self.world_to_screen(source.pos)
        for unit in scene.units:
            if unit.slot == source.slot or not unit.alive:
                continue
            clear = los_clear(source.pos, unit.pos, scene.obstacles)
            colour = COLOURS["los_clear"] if clear else COLOURS["los_blocked"]
            pygame.draw.line(surface, colour, start, self.world_to_screen(unit.pos), 1)

    def _draw_unit(self, surface, scene: Scene, unit: UnitView, scale: float) -> None:
        centre = self.world_to_screen(unit.pos)
        radius = max(4, round(C.BODY_RADIUS * scale))
        colour = TEAM_COLOURS[unit.team] if unit.alive else COLOURS["dead"]
        if unit.relayed:  # an echo of last tick: hollow, dashed-looking double ring
            pygame.draw.circle(surface, TEAM_DARK[unit.team], centre, radius)
            pygame.draw.circle(surface, COLOURS["relayed"], centre, radius, 1)
            pygame.draw.circle(surface, COLOURS["relayed"], centre, max(2, radius - 3), 1)
        else:
            pygame.draw.circle(surface, colour, centre, radius)
        if not unit.alive:
            d = round(radius * 0.6)
            pygame.draw.line(
                surface,
                (30, 30, 30),
                (centre[0] - d, centre[1] - d),
                (centre[0] + d, centre[1] + d),
                2,
            )
            pygame.draw.line(
                surface,
                (30, 30, 30),
                (centre[0] - d, centre[1] + d),
                (centre[0] + d, centre[1] - d),
                2,
            )
        icon = round(radius * 1.15)  # inside the body, clear of the rings around it
        draw_class_icon(surface, unit.class_id, centre, icon, font=self.font(max(12, icon)))
        if unit.shield > 0:
            pygame.draw.circle(surface, COLOURS["shield"], centre, radius + 3, 2)
        if unit.slot in scene.highlights:
            pygame.draw.circle(surface, COLOURS["highlight"], centre, radius + 6, 2)
        if unit.slot == scene.selected:
            pygame.draw.circle(surface, COLOURS["select"], centre, radius + 5, 2)
        self._draw_statuses(surface, unit, centre, radius)

    def _bodies(self, scene: Scene, radius: int) -> dict[int, pygame.Rect]:
        """Each unit's body and icon as a screen box (slot -> Rect), what labels keep off."""
        boxes = {}
        for unit in scene.units:
            x, y = self.world_to_screen(unit.pos)
            boxes[unit.slot] = pygame.Rect(x - radius, y - radius, 2 * radius + 1, 2 * radius + 1)
        return boxes

    def _draw_bars(self, surface, scene: Scene, scale: float) -> None:
        """The living units' health bars, after every body so that no body covers one: above
        the body, or below it (under the status squares) when that spot overlaps a bar placed
        before it in `label_order` or another unit's body (units side by side); failing both,
        the spot clear of bars, else above all the same."""
        radius = max(4, round(C.BODY_RADIUS * scale))
        self._bars: list[pygame.Rect] = []  # health bars placed so far this frame
        bodies = self._bodies(scene, radius)
        for unit in label_order(scene):
            if unit.alive:
                others = [box for slot, box in bodies.items() if slot != unit.slot]
                box = self._place_bar(self.world_to_screen(unit.pos), radius, others)
                self._draw_health(surface, unit, box)

    def _place_bar(self, centre, radius: int, bodies) -> pygame.Rect:
        width = max(16, radius * 2 + 4)
        above = pygame.Rect(centre[0] - width // 2, centre[1] - radius - 8, width, BAR_HEIGHT)
        below = above.move(0, 2 * radius + 18)  # under _draw_statuses' row of squares
        spots = [r.clamp(self._room) for r in (above, below)]  # by the map's edge: on the map
        clear = [r for r in spots if r.inflate(0, 2).collidelist(self._bars) < 0]
        box = next((r for r in clear if r.collidelist(bodies) < 0), (clear or spots)[0])
        self._bars.append(box)
        return box

    def _draw_labels(self, surface, scene: Scene, scale: float) -> None:
        """The units' slot labels, over every body, placed by priority (`label_order`) so that
        in a crowd the selected and living units keep theirs and a label with no free spot
        left is not drawn rather than drawn over another label, a health bar or another unit's
        body and icon (the tooltip still names the unit)."""
        radius = max(4, round(C.BODY_RADIUS * scale))
        self._labels: list[pygame.Rect] = []  # unit labels placed so far this frame
        bodies = self._bodies(scene, radius)
        for unit in label_order(scene):
            label = self.font(14).render(
                C.slot_label(unit.slot) + (" r" if unit.relayed else ""),
                True,
                COLOURS["muted"] if unit.relayed else COLOURS["text"],
            )
            others = [box for slot, box in bodies.items() if slot != unit.slot]
            first = not self._labels  # the most important label always shows
            centre = self.world_to_screen(unit.pos)
            box = self._place_label(label.get_size(), centre, radius, first, others)
            if box is not None:
                surface.blit(label, box)

    def _place_label(
        self, size, centre, radius: int, always=False, keep_off=()
    ) -> pygame.Rect | None:
        """Where a unit's label goes: top right of the body, else top left, bottom right or
        bottom left, then the same a label's height further out, the first spot that stays on
        the map and clear of the labels and health bars already placed this frame and of the
        boxes in `keep_off` (other units' bodies); None when every spot is taken, unless
        `always` (then the first spot on the map)."""
        w, h = size
        right, left = centre[0] + radius + 2, centre[0] - radius - 2 - w
        top, bottom = centre[1] - radius - 2, centre[1] + radius + 2 - h
        rows = (top, bottom, top - h, bottom + h)
        spots = [pygame.Rect(x, y, w, h) for y in rows for x in (right, left)]
        fits = [r for r in spots if self._room.contains(r)] or [spots[0].clamp(self._room)]
        taken = [*self._labels, *getattr(self, "_bars", ()), *keep_off]
        box = next((r for r in fits if r.collidelist(taken) < 0), None)
        if box is None and always:
            box = fits[0]
        if box is not None:
            self._labels.append(box)
        return box

    def _draw_health(self, surface, unit: UnitView, box: pygame.Rect) -> None:
        surface.fill(COLOURS["health_back"], box)
        frac = 0.0 if unit.max_health <= 0 else max(0.0, min(1.0, unit.health / unit.max_health))
        colour = COLOURS["health"] if frac > 0.35 else COLOURS["health_low"]
        surface.fill(colour, (box.x, box.y, round(box.width * frac), box.height))

    def _draw_statuses(self, surface, unit: UnitView, centre, radius: int) -> None:
        active = [c for c, left in enumerate(unit.status) if left > 0]
        size = 5
        x = centre[0] - (len(active) * (size + 1)) // 2
        for channel in active:
            surface.fill(STATUS_COLOURS[channel], (x, centre[1] + radius + 3, size, size))
            x += size + 1

    def _draw_floats(self, surface, scene: Scene, scale: float) -> None:
        if "numbers" not in scene.overlays:
            return
        offsets: dict[int, int] = {}
        for item in scene.floats:
            unit = scene.unit(item.slot)
            if unit is None:
                continue
            cx, cy = self.world_to_screen(unit.pos)
            dy = offsets.get(item.slot, 0)
            offsets[item.slot] = dy + 14
            text = self.font(18).render(item.text, True, COLOURS.get(item.kind, COLOURS["info"]))
            top = cy - round(C.BODY_RADIUS * scale) - 24 - dy
            surface.blit(text, text.get_rect(midbottom=(cx, top + 12)).clamp(self._room))


def label_order(scene: Scene) -> list:
    """The units in the order their labels are placed: the selected one, the highlighted, the
    living, the dead, then relayed echoes of last tick; slot order within each."""

    def rank(unit) -> tuple[int, int]:
        if unit.slot == scene.selected:
            return (0, unit.slot)
        if unit.slot in scene.highlights:
            return (1, unit.slot)
        return (2 + (not unit.alive) + 2 * bool(unit.relayed), unit.slot)

    return sorted(scene.units, key=rank)
