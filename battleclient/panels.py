"""Text panels of the play screen: top bar, side panel of unit cards, orders, log, cards.

Every function draws only what it is given; the play screen hands them the fair Scene
(battleclient.views), so a panel cannot show a unit the view does not know.
"""

import math

import numpy as np
import pygame

from battleclient.controls import HELP
from ui.icons import draw_class_icon
from ui.modal import draw_veil
from ui.panels import draw_lines, wrap
from ui.rules import C, hp_text, unit_name
from ui.theme import COLOURS, STATUS_COLOURS, TEAM_COLOURS

STATUS_WORDS = tuple(st.label for st in C.STATUSES)


def panel(surface, rect, title: str | None = None, font=None) -> pygame.Rect:
    """A panel background; returns the inner rect below the title."""
    rect = pygame.Rect(rect)
    surface.fill(COLOURS["panel"], rect)
    pygame.draw.rect(surface, COLOURS["panel_line"], rect, 1)
    inner = rect.inflate(-8, -8)
    if title and font is not None:
        surface.blit(font.render(title, True, COLOURS["muted"]), (inner.x + 2, inner.y))
        inner.y += font.get_linesize() + 2
        inner.height -= font.get_linesize() + 2
    return inner


def tick_heading(tick: int, horizon: int, over: bool) -> str:
    """The top bar's tick. State t shows "Tick t/T": the tick being ordered, numbered as the log
    and banner number them (RULES 0: tick t leads from state t to t+1). A finished game sits in
    state n after its last tick n-1: "After tick n-1 (end)" names the tick the log's "Game over"
    line names, and still differs from state n-1's "Tick n-1/T" (the viewer shows both)."""
    return f"After tick {tick - 1} (end)" if over else f"Tick {tick}/{horizon}"


def tick_line(tick: int, horizon: int, over: bool) -> str:
    """The side panel's tick line; once over, the last tick and how many were played."""
    if over:
        return f"Ended on tick {tick - 1}: {tick} of {horizon} ticks played"
    return f"Tick {tick} / {horizon}   {max(0, horizon - tick)} ticks left"


def score_lines(snap, horizon: int) -> list:
    """Score, tick, ticks left, respawn waves and who is dead (all public, RULES 5.6: a view
    draws no dead unit, not even its own, as no observation holds a dead unit's state, 5.2)."""
    s, tick = snap.state, snap.tick
    waves = snap.state["wave_clock"]
    dead = np.flatnonzero(np.asarray(s["active"], bool) & ~np.asarray(s["alive"], bool))
    return [
        (f"Score  A {int(s['score'][0])} : {int(s['score'][1])} B", COLOURS["text"]),
        tick_line(tick, horizon, snap.over),
        f"Respawn wave in: A {int(waves[0]) + 1}, B {int(waves[1]) + 1} ticks",
        "Dead: " + (", ".join(C.slot_label(int(d)) for d in dead) if len(dead) else "none"),
    ]


def unit_lines(unit) -> list[str]:
    """The second line of a unit card: Ultimate, shield, statuses (ticks left)."""
    if not unit.alive:
        return ["dead: respawns with the next wave"]
    ult = C.ULT_NAMES[unit.class_id]
    parts = [f"{ult} ready" if unit.cooldown == 0 else f"{ult} in {unit.cooldown}"]
    if unit.shield:
        parts.append(f"shield {unit.shield}")
    parts += [f"{STATUS_WORDS[c]} {left}" for c, left in enumerate(unit.status) if left > 0]
    return [", ".join(parts)]


def draw_unit_card(surface, rect, unit, font, small, locked: bool | None = None) -> None:
    rect = pygame.Rect(rect)
    colour = TEAM_COLOURS[unit.team] if unit.alive else COLOURS["dead"]
    name = unit_name(unit.slot, unit.class_id) + ("  (relayed: last tick)" if unit.relayed else "")
    r = font.get_linesize() // 2 - 1  # the class icon before the name (ui.icons)
    centre = (rect.x + r, rect.y + r)
    pygame.draw.circle(surface, colour, centre, r)
    draw_class_icon(surface, unit.class_id, centre, round(r * 1.15))
    surface.blit(font.render(name, True, colour), (rect.x + 2 * r + 5, rect.y))
    hp = f"{hp_text(unit.health)}/{hp_text(unit.max_health)}"
    if locked is not None:
        hp = ("locked  " if locked else "") + hp
    label = small.render(hp, True, COLOURS["text"])
    surface.blit(label, (rect.right - label.get_width(), rect.y + 2))
    bar = pygame.Rect(rect.x, rect.y + font.get_linesize(), rect.width, 5)
    surface.fill(COLOURS["health_back"], bar)
    frac = 0.0 if unit.max_health <= 0 else max(0.0, min(1.0, unit.health / unit.max_health))
    tint = COLOURS["health"] if frac > 0.35 else COLOURS["health_low"]
    surface.fill(tint, (bar.x, bar.y, round(bar.width * frac), bar.height))
    y = bar.bottom + 2
    x = rect.x
    for channel, left in enumerate(unit.status):
        if left > 0:
            surface.fill(STATUS_COLOURS[channel], (x, y + 4, 6, 6))
            x += 8
    x += 4 if x > rect.x else 0
    for line in status_lines(unit, small, rect.right - x):
        surface.blit(small.render(line, True, COLOURS["muted"]), (x, y))
        y += small.get_linesize()


def status_lines(unit, small, width: int) -> list[str]:
    """A unit card's status text (unit_lines) wrapped to `width` pixels, never cut."""
    return wrap(unit_lines(unit)[0], small, width, indent="")


def card_height(unit, width: int, font, small) -> int:
    """Pixels of a unit card `width` wide: name and bar, then its status lines."""
    squares = sum(8 for left in unit.status if left > 0)
    squares += 4 if squares else 0
    lines = len(status_lines(unit, small, width - squares))
    return font.get_linesize() + 7 + lines * small.get_linesize() + 6


def draw_side(surface, rect, scene, snap, horizon: int, fonts, viewer_text: str) -> None:
    """Score block, then one card per unit of the scene (the view's units only)."""
    font, small, big = fonts
    inner = panel(surface, rect)
    y = draw_lines(surface, inner, score_lines(snap, horizon)[:1], big)
    y = draw_lines(
        surface, inner, score_lines(snap, horizon)[1:] + [f"View: {viewer_text}"], small, y=y
    )
    y += 6
    for unit in scene.units:
        card_h = card_height(unit, inner.width - 4, font, small)
        if y + card_h > inner.bottom:
            break
        draw_unit_card(surface, (inner.x + 2, y, inner.width - 4, card_h), unit, font, small)
        y += card_h
    if not scene.units:
        draw_lines(surface, inner, ["No unit in view"], small, COLOURS["muted"], y=y)


def draw_orders(surface, rect, book, snap, selected, font, small, title: str) -> None:
    """One line per human agent of the team on screen: its order, or why it cannot act."""
    inner = panel(surface, rect, title, small)
    lines = []
    for slot in book.slots:
        cls = int(snap.state["class_id"][slot])
        head = f"{'>' if slot == selected else ' '} {unit_name(slot, cls)}: "
        if not snap.state["alive"][slot]:
            text, tint = head + "dead (waits for the respawn wave)", COLOURS["muted"]
        elif not book.can_act(slot):
            text, tint = head + "cannot act this tick (stunned or shielded)", COLOURS["muted"]
        else:
            text = head + book.describe(slot, cls)
            tint = COLOURS["accent"] if slot == selected else COLOURS["text"]
        lines.append((text, tint))
    draw_lines(surface, inner, lines, font)


def log_rows(entries, last: int = 60) -> list[str]:
    """The log's rows, newest first, from (tick, sentence) entries: "t 296  sentence". The space
    after the t keeps a three-digit tick from reading as a number ("t296" reads "1296")."""
    return [f"t {tick:>3}  {text}" for tick, text in reversed(entries[-last:])]


def draw_log(surface, rect, entries, font, small) -> None:
    """The newest events first: entries are (tick, sentence)."""
    inner = panel(surface, rect, "Event log (newest first)", small)
    lines = [(row, COLOURS["text"]) for row in log_rows(entries)]
    draw_lines(surface, inner, lines or [("Nothing has happened yet.", COLOURS["muted"])], font)


def draw_progress(surface, rect, fraction: float, done: bool) -> None:
    """A progress bar over `rect`: `fraction` (0-1) of it filled, green once `done`, else in the
    accent colour (the lobby's bar and the "Setting up the game" card's)."""
    bar = pygame.Rect(rect)
    surface.fill(COLOURS["panel"], bar)
    filled = (bar.x, bar.y, round(bar.width * min(max(fraction, 0.0), 1.0)), bar.height)
    surface.fill(COLOURS["health"] if done else COLOURS["accent"], filled)
    pygame.draw.rect(surface, COLOURS["panel_line"], bar, 1)


def draw_card(surface, rect, title: str, lines, fonts, shade=True) -> pygame.Rect:
    """A centred card over a darkened screen (hand-over, menu, game over)."""
    font, big = fonts
    if shade:
        draw_veil(surface)
    rect = pygame.Rect(rect)
    surface.fill(COLOURS["panel"], rect)
    pygame.draw.rect(surface, COLOURS["accent"], rect, 2)
    inner = rect.inflate(-32, -28)
    y = draw_lines(surface, inner, [(title, COLOURS["accent"])], big)
    draw_lines(surface, inner, lines, font, y=y + 8)
    return rect


def draw_help(surface, fonts) -> None:
    """The controls card: keys in one column, what they do in the next."""
    font, big = fonts
    rect = draw_card(surface, (240, 100, 800, 600), "Controls (H or Esc closes)", [], (font, big))
    y = rect.y + 28 + big.get_linesize() + 10
    for keys, text in HELP:
        colour = COLOURS["accent"] if not text else COLOURS["text"]
        surface.blit(font.render(keys, True, colour), (rect.x + 24, y))
        surface.blit(font.render(text, True, COLOURS["text"]), (rect.x + 260, y))
        y += font.get_linesize() + (6 if not text else 1)


def ring_points(centre, radius: float) -> list[tuple[int, tuple[int, int]]]:
    """(world direction 1-8, screen point) of the move ring; screen y grows downwards."""
    out = []
    for d in range(1, C.NUM_MOVES):
        vx, vy = C.MOVE_VECTORS[d]
        out.append((d, (round(centre[0] + vx * radius), round(centre[1] - vy * radius))))
    return out


DOT_R = 11  # pixels: radius of a move-ring dot (also its click target)


def fitted_ring(centre, radius: float, legal, room, least: float):
    """[(direction, screen point)] of the legal directions' dots: `radius` pixels out, or
    nearer along the spoke so the point stays inside the rect `room`; a direction whose dot
    would come nearer than `least` pixels is left out."""
    room = pygame.Rect(room)
    out = []
    for d in range(1, C.NUM_MOVES):
        if d not in legal:
            continue
        vx, vy = C.MOVE_VECTORS[d]
        ux, uy = vx / math.hypot(vx, vy), -vy / math.hypot(vx, vy)  # screen y grows down
        reach = radius
        for u, c, low, high in ((ux, centre[0], room.left, room.right - 1),
                                (uy, centre[1], room.top, room.bottom - 1)):  # fmt: skip
            if u > 0:
                reach = min(reach, (high - c) / u)
            elif u < 0:
                reach = min(reach, (low - c) / u)
        if reach >= least:
            out.append((d, (round(centre[0] + ux * reach), round(centre[1] + uy * reach))))
    return out


def draw_ring(surface, centre, dots, chosen: int, font, inner=24, covered=()) -> None:
    """The direction ring: a dot per (direction, point) of `dots`, the chosen one filled in
    accent; spokes start `inner` pixels out so the unit's glyph stays readable. A dot in
    `covered` (over another unit) is only a ring, so the unit under it stays visible."""
    starts = dict(ring_points(centre, inner))
    for d, point in dots:
        if d in covered:
            colour = COLOURS["accent"] if d == chosen else COLOURS["text"]
            pygame.draw.circle(surface, colour, point, DOT_R, 2)
            continue
        start = starts[d]
        spoke = COLOURS["accent"] if d == chosen else COLOURS["panel_line"]
        pygame.draw.line(surface, spoke, start, point, 2 if d == chosen else 1)
        fill = COLOURS["accent"] if d == chosen else (60, 66, 80)
        pygame.draw.circle(surface, fill, point, DOT_R)
        pygame.draw.circle(surface, COLOURS["text"], point, DOT_R, 1)
        label = font.render(C.MOVE_NAMES[d], True, (20, 20, 20) if d == chosen else (230, 230, 230))
        surface.blit(label, label.get_rect(center=point))


def draw_order_marks(surface, renderer, scene, book, world_pos) -> None:
    """Arrows for chosen moves and lines to chosen targets of the team's agents."""
    for slot, order in book.orders.items():
        unit = scene.unit(slot)
        if unit is None or not unit.alive:
            continue
        start = renderer.world_to_screen(world_pos(unit))
        if order.move:
            vx, vy = C.MOVE_VECTORS[order.move]
            end = renderer.world_to_screen((world_pos(unit)[0] + vx, world_pos(unit)[1] + vy))
            pygame.draw.line(surface, COLOURS["accent"], start, end, 3)
            pygame.draw.circle(surface, COLOURS["accent"], end, 4)
        target = scene.unit(order.target) if order.target >= 0 else None
        if target is not None:
            tint = COLOURS["damage"] if target.team != unit.team else COLOURS["heal"]
            end = renderer.world_to_screen(target.pos)
            _dashed(surface, tint, start, end)


def _dashed(surface, colour, start, end, dash=8) -> None:
    length = math.dist(start, end)
    if length < 1:
        return
    for k in range(0, int(length), dash * 2):
        a, b = k / length, min(1.0, (k + dash) / length)
        p = (start[0] + (end[0] - start[0]) * a, start[1] + (end[1] - start[1]) * a)
        q = (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b)
        pygame.draw.line(surface, colour, p, q, 2)
