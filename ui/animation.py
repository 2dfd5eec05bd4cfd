"""In-between frames of one tick: units along their actual path, effects, captions (no JAX).

A tick's transition t -> t+1 is drawn at a phase u in [0, 1). The units of the frame are those
of a real Scene: the view's Scene of tick t while u < HALF, of tick t+1 after it, so an
in-between frame shows exactly the units (and health, statuses) of a frame the view could show
anyway (RULES 5.2; the POV rule of ui.scene). A unit the view saw directly at both ends glides
along the path the tick really took: the Charge displacement first, then ordinary movement
(Events.charge_move and Events.move, RULES 4 steps 9-10, 6), so pos_t + charge + move = pos_t+1.
A respawned unit stays on its death spot and appears on its pad at HALF (its jump is in neither
displacement, RULES 6). Combat resolves from start positions (RULES 4 steps 4-5): beams run from
source to recipient over the first half; deaths, respawns and fresh statuses are marked after.
"""

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import pygame

from ui.panels import cut_end
from ui.rules import C
from ui.scene import Scene
from ui.theme import COLOURS, STATUS_COLOURS

HALF = 0.5  # phase at which the frame switches from tick t's Scene to tick t+1's
BEAM_END = 0.45  # phase by which a beam's head reaches its recipient
CHARGE_SHARE = 0.35  # share of the tick's time given to the Charge phase when anyone charged
STATUS_WORDS = tuple(st.mark for st in C.STATUSES)  # floated over a unit as it lands


@dataclass(frozen=True)
class Effects:
    """What to mark over one transition's frames, limited to units the view knew.

    beams: (source, recipient, kind) with kind "damage", "heal" or "ultimate"; deaths,
    respawns: slots; statuses: (slot, word, channel) for counters freshly applied or
    refreshed ("stunned", ...) and Traps broken by damage ("trap broken"), RULES 2.3, 6.
    """

    beams: tuple = ()
    deaths: tuple = ()
    respawns: tuple = ()
    statuses: tuple = ()


def ease(u: float) -> float:
    """Smoothstep on [0, 1]: units start and stop gently."""
    u = min(1.0, max(0.0, u))
    return u * u * (3.0 - 2.0 * u)


def path_point(start, charge, move, u: float, charged: bool) -> tuple[float, float]:
    """Position (map units) at phase u along start -> start + charge -> start + charge + move.

    start, charge, move: (2,) map units; charged: some unit charged this tick, so every unit
    waits (or charges) during the first CHARGE_SHARE of the tick, then all move together.
    """
    start, charge, move = (np.asarray(v, np.float64) for v in (start, charge, move))
    if charged:
        first = ease(u / CHARGE_SHARE)
        second = ease((u - CHARGE_SHARE) / (1.0 - CHARGE_SHARE))
    else:
        first, second = 1.0, ease(u)
    point = start + charge * first + move * second
    return (float(point[0]), float(point[1]))


def tick_effects(events: dict, before: Scene, after: Scene) -> Effects:
    """The effects of the transition `events` (fields of RULES 6 without a time axis) between
    the view's Scenes `before` (tick t) and `after` (tick t+1). A beam needs both ends seen
    directly at t; a death, respawn or status mark needs its unit seen directly at t+1."""
    seen_t = {u.slot for u in before.units if not u.relayed}
    seen_t1 = {u.slot for u in after.units if not u.relayed}
    beams = []
    for s in np.flatnonzero(np.asarray(events["lane"]) > 0):
        r = int(events["recipient"][s])
        if r < 0 or s not in seen_t or r not in seen_t:
            continue
        heal = float(events["heal_raw"][s, r]) > 0
        kind = "heal" if heal else ("ultimate" if events["lane"][s] == 2 else "damage")
        beams.append((int(s), r, kind))
    fresh = np.asarray(events["status_applied"]) | np.asarray(events["status_refreshed"])
    broken = np.asarray(events["status_broken"]) & ~fresh
    marks = [(int(s), STATUS_WORDS[c], c) for s in range(len(fresh)) for c in marked(fresh[s])]
    marks += [(int(s), "trap broken", int(c)) for s, c in zip(*np.nonzero(broken), strict=True)]
    return Effects(
        beams=tuple(beams),
        deaths=tuple(int(s) for s in np.flatnonzero(events["died"]) if s in seen_t1),
        respawns=tuple(int(s) for s in np.flatnonzero(events["respawned"]) if s in seen_t1),
        statuses=tuple(mark for mark in marks if mark[0] in seen_t1),
    )


def marked(fresh, words=STATUS_WORDS) -> list[int]:
    """The channels to name over a unit whose channels `fresh` ((9,) bool) landed this tick,
    in channel order: one a distinct word of `words` (a Charge slow and a Poison slow read
    "slowed" once) and a single stun, the longest-lasting, when several land at once (a Trap
    and a Poison stun are one stun to the player: "trapped", not "trapped" and "stunned")."""
    landed = [int(c) for c in np.flatnonzero(fresh)]
    stuns = [c for c in landed if C.IS_STUN[c]]
    longest = max(stuns, key=lambda c: C.STATUS_DURATION[c], default=None)
    kept = [c for c in landed if not C.IS_STUN[c] or c == longest]
    first = {}
    for c in kept:
        first.setdefault(words[c], c)
    return sorted(first.values())


def tween_scene(before: Scene | None, after: Scene, events: dict | None, u: float) -> Scene:
    """The Scene drawn at phase u of the transition from `before` (tick t) to `after` (t+1).

    Units, health and statuses come from `before` while u < HALF and from `after` from then on;
    units seen directly at both ends (not respawned) are placed along their path (path_point).
    Floating numbers belong to `after` and show from HALF. Selection, overlays and highlights are
    `after`'s. Without `before` or `events`, `after` itself.
    """
    if before is None or events is None or u >= 1.0:
        return after
    base = before if u < HALF else after
    ends = {x.slot: x for x in before.units if not x.relayed}
    final = {x.slot for x in after.units if not x.relayed}
    charge, move = np.asarray(events["charge_move"]), np.asarray(events["move"])
    charged = bool(np.any(np.abs(charge) > 1e-6))
    respawned = np.asarray(events["respawned"], bool)
    units = []
    for unit in base.units:
        s = unit.slot
        if s in ends and s in final and not unit.relayed and not respawned[s]:
            unit = dataclasses.replace(
                unit, pos=path_point(ends[s].pos, charge[s], move[s], u, charged)
            )
        units.append(unit)
    known = {x.slot for x in units}
    return dataclasses.replace(
        after,
        units=tuple(units),
        floats=after.floats if u >= HALF else (),
        trails={s: p for s, p in after.trails.items() if s in known},
        highlights=frozenset(s for s in after.highlights if s in known),
        selected=after.selected if after.selected in known else None,
    )


def draw_effects(surface, renderer, scene: Scene, effects: Effects, u: float, rect) -> None:
    """Draws `effects` over a frame already drawn by `renderer` from `scene` (the tweened
    Scene) into `rect`: beams before HALF, rings and words for deaths, respawns and statuses
    after it. Marks on units missing from `scene` are skipped."""
    clip = surface.get_clip()
    surface.set_clip(renderer.map_rect(rect))
    scale = renderer.map_rect(rect).width / C.MAP_WIDTH
    radius = max(4, round(C.BODY_RADIUS * scale))
    where = {x.slot: renderer.world_to_screen(x.pos, rect) for x in scene.units}
    if u < HALF:
        for source, recipient, kind in effects.beams:
            if source in where and recipient in where:
                _beam(surface, where[source], where[recipient], kind, u, radius)
    else:
        late = (u - HALF) / (1.0 - HALF)
        for slot in effects.deaths:
            if slot in where:
                _ring(surface, where[slot], COLOURS["damage"], radius, late, 3)
        for slot in effects.respawns:
            if slot in where:
                _ring(surface, where[slot], COLOURS["shield"], radius, late, 2)
        _status_words(surface, renderer, where, effects.statuses, radius)
    surface.set_clip(clip)


def _beam(surface, a, b, kind: str, u: float, radius: int) -> None:
    colour = {"heal": COLOURS["heal"], "ultimate": COLOURS["accent"]}.get(kind, COLOURS["damage"])
    head = min(1.0, u / BEAM_END)
    tip = (a[0] + (b[0] - a[0]) * head, a[1] + (b[1] - a[1]) * head)
    width = 4 if kind == "ultimate" else 2
    pygame.draw.line(surface, colour, a, tip, width)
    pygame.draw.circle(surface, colour, (round(tip[0]), round(tip[1])), max(3, radius // 3))


def _ring(surface, centre, colour, radius: int, late: float, width: int) -> None:
    grow = radius + 3 + round(late * radius * 1.2)
    pygame.draw.circle(surface, colour, centre, grow, width)


def _status_words(surface, renderer, where: dict, statuses, radius: int) -> None:
    font = renderer.font(max(14, round(radius * 1.1)))
    lines: dict[int, int] = {}
    for slot, text, channel in statuses:
        if slot not in where:
            continue
        k = lines.get(slot, 0)
        lines[slot] = k + 1
        word = font.render(text, True, STATUS_COLOURS[channel])
        cx, cy = where[slot]
        surface.blit(word, word.get_rect(midtop=(cx, cy + radius + 9 + k * word.get_height())))


def caption_lines(lines, limit: int = 2) -> list[str]:
    """The first `limit` event sentences of a tick, the rest counted ("+ 3 more")."""
    lines = list(lines)
    if len(lines) <= limit:
        return lines
    return lines[: limit - 1] + [f"{lines[limit - 1]}  (+ {len(lines) - limit} more)"]


def draw_caption(surface, rect, lines, font) -> None:
    """Caption lines on a dark band at the bottom of `rect` (pixels)."""
    if not lines:
        return
    rect = pygame.Rect(rect)
    step = font.get_linesize()
    band = pygame.Rect(
        rect.x, rect.bottom - step * len(lines) - 8, rect.width, step * len(lines) + 8
    )
    veil = pygame.Surface(band.size, pygame.SRCALPHA)
    veil.fill((10, 12, 16, 200))
    surface.blit(veil, band)
    for k, line in enumerate(lines):
        text = font.render(cut_end(line, font, rect.width - 16), True, COLOURS["text"])
        surface.blit(text, (band.x + 8, band.y + 4 + k * step))


def phase_of(clock: float) -> tuple[int, float]:
    """Game time in ticks (float) -> (tick, phase u in [0, 1))."""
    tick = math.floor(clock + 1e-9)
    return tick, max(0.0, clock - tick)
