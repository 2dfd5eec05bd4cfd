"""The resolution of a tick on the play screen: units glide along their actual path, attacks
and heals run from source to recipient, deaths, respawns and fresh statuses are marked and
the tick's events are captioned (ui.animation, shared with the Replay Viewer). No JAX.

The in-between frames take TWEEN_S seconds, or less when a spectated game plays faster than
that (a tick must land before the next one arrives). `--no-animation` shows the result at once.
"""

import dataclasses

from battleclient import layout as L
from battleclient.controls import SPEEDS
from ui.animation import caption_lines, draw_caption, draw_effects, tick_effects, tween_scene

TWEEN_S = 0.45  # seconds units glide from their old positions (the orders ring waits for it)
RESOLVE_S = 1.6  # seconds the resolution (numbers, banner) stays on screen


def tween_seconds(screen) -> float:
    """Seconds of in-between frames: TWEEN_S, or 90% of a tick when spectating faster."""
    if screen.phase == "spectate" and not screen.paused:
        return min(TWEEN_S, 0.9 / SPEEDS[screen.speed_index])
    return TWEEN_S


def draw_resolution(surface, screen, scene, before) -> None:
    """Draws the arena of `screen` (a PlayScreen) from the viewer's `scene` of this tick and
    `before`, its Scene of the tick before (None at the start)."""
    s = screen
    resolving = s.since < RESOLVE_S and s.phase != "over"
    if not resolving:
        s.renderer.draw(surface, dataclasses.replace(scene, floats=()), L.ARENA)
        return
    u = s.since / tween_seconds(s)
    events = s.snap.events
    if not getattr(s.app, "animate", True) or before is None or events is None or u >= 1.0:
        s.renderer.draw(surface, scene, L.ARENA)
        return
    shown = tween_scene(before, scene, events, u)
    # draw_effects names the fresh statuses under each unit: their float would say it twice
    floats = tuple(f for f in shown.floats if f.kind != "status")
    s.renderer.draw(surface, dataclasses.replace(shown, floats=floats), L.ARENA)
    draw_effects(surface, s.renderer, shown, tick_effects(events, before, scene), u, L.ARENA)
    tick = s.snap.tick - 1
    lines = [line for t, line in s.logs.get(s.viewer_key, []) if t == tick]
    caption = caption_lines(lines)
    if caption:
        caption[0] = f"{tick} -> {tick + 1}: {caption[0]}"
    draw_caption(surface, s.renderer.map_rect(L.ARENA), caption, s.app.small)
