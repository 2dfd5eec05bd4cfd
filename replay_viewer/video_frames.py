"""The frames of an exported video, drawn offscreen with pygame (no display, no JAX).

`FrameMaker` draws a header band (map, tick, score, view), the arena (ui.arena) with the
in-between frame of ui.animation, and a caption band with the transition's events in words as
the view knew them (ViewerModel.log_lines); plus the title and end cards. The Scenes, effects
and captions of a transition are built once and reused for its frames.
"""

import pygame

from replay_viewer.model import ViewerModel
from replay_viewer.panels import tick_heading
from ui.animation import (
    HALF,
    caption_lines,
    draw_caption,
    draw_effects,
    tick_effects,
    tween_scene,
)
from ui.arena import ArenaRenderer
from ui.explain import counted
from ui.rules import C
from ui.theme import COLOURS, TEAM_COLOURS

CAPTION_LINES = 2
FRAME_MASKS = (0xFF0000, 0xFF00, 0xFF)  # 32-bit pixels, little endian: bytes B, G, R, unused


class FrameMaker:
    """Frames of `model` (its current view) at `size` (width, height) pixels."""

    def __init__(self, model: ViewerModel, size, captions: bool = True):
        if not pygame.font.get_init():
            pygame.font.init()
        self.model, self.size, self.captions = model, tuple(size), captions
        width, height = self.size
        self.renderer = ArenaRenderer()
        self.font = self.renderer.font(max(16, round(height / 30)))
        self.big = self.renderer.font(max(24, round(height / 16)))
        header = self.font.get_linesize() + 10
        caption = CAPTION_LINES * self.font.get_linesize() + 12 if captions else 0
        self.header = pygame.Rect(0, 0, width, header)
        self.arena = pygame.Rect(0, header, width, height - header - caption)
        self.caption = pygame.Rect(0, height - caption, width, caption)
        self.surface = pygame.Surface(self.size, 0, 32, (*FRAME_MASKS, 0))
        self._key, self._parts = None, None

    def _transition(self, tick: int):
        """(Scene t, Scene t+1 or None, events or None, effects, caption) of tick -> tick+1."""
        if self._key != tick:
            model = self.model
            before = model.scene(tick)
            if tick < model.ticks:
                after, events = model.scene(tick + 1), model.events(tick)
                effects = tick_effects(events, before, after)
                caption = caption_lines(model.log_lines(tick + 1), CAPTION_LINES)
            else:
                after, events, effects, caption = None, None, None, []
            self._key, self._parts = tick, (before, after, events, effects, caption)
        return self._parts

    def game_frame(self, tick: int, u: float = 0.0, caption: bool = True) -> pygame.Surface:
        """The frame at phase u of the transition tick -> tick+1 (u = 0: tick itself), with
        that transition's caption when `caption` (and captions are on)."""
        before, after, events, effects, lines = self._transition(tick)
        surface = self.surface
        surface.fill(COLOURS["background"])
        if after is None or u <= 0.0:
            scene, effects = before, None
        else:
            scene = tween_scene(before, after, events, u)
        self.renderer.draw(surface, scene, self.arena)
        if effects is not None:
            draw_effects(surface, self.renderer, scene, effects, u, self.arena)
        shown = tick + 1 if after is not None and u >= HALF else tick
        self._header(surface, shown, scene.score)
        if self.captions and caption and lines:
            g = self.model.game_tick(tick)
            head = f"{g} -> {g + 1}: "
            draw_caption(surface, self.caption, [head + lines[0], *lines[1:]], self.font)
        return surface

    def _header(self, surface, tick: int, score) -> None:
        h = self.model.replay.header
        g, last = self.model.game_tick(tick), self.model.game_tick(self.model.ticks)
        left = f"Map {h['map']['id']} {h['map']['name']}   tick {g}/{last}"
        text = self.font.render(left, True, COLOURS["text"])
        y = self.header.centery - text.get_height() // 2
        surface.blit(text, (10, y))
        view = self.font.render(self.model.view_name(), True, COLOURS["muted"])
        surface.blit(view, view.get_rect(midright=(self.header.right - 10, self.header.centery)))
        a = self.font.render(f"A {score[0]}", True, TEAM_COLOURS[0])
        b = self.font.render(f"{score[1]} B", True, TEAM_COLOURS[1])
        colon = self.font.render(" : ", True, COLOURS["text"])
        x = self.header.centerx - colon.get_width() // 2
        surface.blit(colon, (x, y))
        surface.blit(a, (x - a.get_width(), y))
        surface.blit(b, (x + colon.get_width(), y))

    def title_card(self, lines) -> pygame.Surface:
        """The opening card: a title and `lines` (ui text), centred."""
        surface = self.surface
        surface.fill(COLOURS["background"])
        rows = [(self.big, "MARL-BattleGrounds replay", COLOURS["accent"])]
        rows += [(self.font, line, COLOURS["text"]) for line in lines]
        self._centred(surface, rows)
        return surface

    def end_card(self, tick: int) -> pygame.Surface:
        """The closing card over the frame of `tick`: the score there and the game's result."""
        self.game_frame(tick, 0.0, caption=False)  # what follows the range is not told
        surface = self.surface
        veil = pygame.Surface(self.size, pygame.SRCALPHA)
        veil.fill((10, 12, 16, 200))
        surface.blit(veil, (0, 0))
        r = self.model.result
        rows = [
            (self.big, end_heading(self.model, tick), COLOURS["accent"]),
            (self.font, f"Game result: {r['outcome_name']}, A {r['score'][0]} : "
                        f"{r['score'][1]} B after {counted(r['ticks'], 'tick')}", COLOURS["text"]),
            (self.font, "Made with replay-viewer --export (MARL-BattleGrounds)", COLOURS["muted"]),
        ]  # fmt: skip
        self._centred(surface, rows)
        return surface

    def _centred(self, surface, rows) -> None:
        rendered = [font.render(text, True, colour) for font, text, colour in rows]
        gap = self.font.get_linesize() // 2
        height = sum(r.get_height() for r in rendered) + gap * (len(rendered) - 1)
        y = (self.size[1] - height) // 2
        for image in rendered:
            surface.blit(image, image.get_rect(midtop=(self.size[0] // 2, y)))
            y += image.get_height() + gap


def end_heading(model: ViewerModel, tick: int) -> str:
    """The closing card's first line: the moment as the apps' info bars name it
    (`replay_viewer.panels.tick_heading`: "After tick 2 (end)" for a finished game's last
    state, "Tick 5/10" for a state inside the game) and the score there."""
    state = model.state(tick)
    over = int(state["outcome"]) != C.ONGOING
    moment = tick_heading(tick, model.ticks, over, model.first_tick)
    score = state["score"]
    return f"{moment[0].upper()}{moment[1:]}: A {int(score[0])} : {int(score[1])} B"
