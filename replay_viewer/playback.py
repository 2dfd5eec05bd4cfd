"""Smooth playback and in-window video export for the viewer App (no JAX).

`SmoothArena` draws the arena while the timeline plays: the in-between frame of the transition
tick -> tick+1 at the timeline's phase (ui.animation), its effects and a caption of its events
as the view knew them. Paused, or with animation off (key m, `--no-animation`), it draws the
tick itself. `VideoJob` runs a VideoExport a few frames per window frame, so the window keeps
answering; Esc stops it and removes the partial file.
"""

import time
from pathlib import Path

from evaluation.replay import read_replay
from fileio import unused_path
from replay_viewer.model import ViewerModel
from replay_viewer.video import VideoExport, VideoOptions, default_name
from ui.animation import caption_lines, draw_caption, draw_effects, tick_effects, tween_scene
from ui.panels import short_path
from ui.paths import video_dir

FRAME_BUDGET_S = 0.03  # seconds of export work per window frame


class SmoothArena:
    """Draws a ViewerModel's arena with in-between frames while it plays."""

    def __init__(self, renderer, font, animate: bool = True):
        self.renderer, self.font, self.animate = renderer, font, animate
        self._key, self._parts = None, None

    def _transition(self, model, tick: int):
        key = (id(model), tick, model.view, model.selected, frozenset(model.overlays))
        if self._key != key:
            before, after, events = model.scene(tick), model.scene(tick + 1), model.events(tick)
            caption = caption_lines(model.log_lines(tick + 1))
            caption[:1] = [f"{tick} -> {tick + 1}: {caption[0]}"] if caption else []
            self._key = key
            self._parts = (before, after, events, tick_effects(events, before, after), caption)
        return self._parts

    def draw(self, surface, model, rect) -> None:
        """The frame of `model` into `rect` (pixels): tweened while playing, else the tick."""
        u = model.timeline.phase
        if not self.animate or u <= 0.0:
            self.renderer.draw(surface, model.scene(), rect)
            return
        before, after, events, effects, caption = self._transition(model, model.tick)
        scene = tween_scene(before, after, events, u)
        self.renderer.draw(surface, scene, rect)
        draw_effects(surface, self.renderer, scene, effects, u, rect)
        draw_caption(surface, self.renderer.map_rect(rect), caption, self.font)


class VideoJob:
    """One export from the window: the whole game in the model's current view at the speed
    preset, as a GIF in the videos folder (ui.paths.video_dir), under a name not yet taken."""

    def __init__(self, replay_path, model, folder=None):
        folder = Path(folder) if folder is not None else video_dir()
        options = VideoOptions(view=model.view, ticks_per_second=float(model.timeline.speed))
        name = default_name(replay_path, model.view, 0, model.ticks)
        self.export = VideoExport(replay_path, unused_path(folder, name), options, model.replay)
        self.steps = self.export.steps()
        self.done = 0

    @property
    def out(self) -> Path:
        return self.export.out

    def progress_text(self) -> str:
        share = 100 * self.done // max(1, self.export.total)
        done = f"{self.done}/{self.export.total} frames"
        return f"Exporting {self.out.name}: {share}% ({done}); Esc stops"

    def step(self, budget_s: float = FRAME_BUDGET_S) -> bool:
        """Writes frames for about `budget_s` seconds; True once the file is complete."""
        until = time.perf_counter() + budget_s
        for done in self.steps:
            self.done = done
            if time.perf_counter() >= until:
                return False
        return True

    def cancel(self) -> None:
        """Stops the export; the partial file is removed (VideoExport.steps)."""
        self.steps.close()

    def finished_text(self) -> str:
        return f"Saved the video {short_path(self.out)}"


class VideoRunner:
    """At most one VideoJob at a time for a window (the viewer's Video button, the
    BattleClient's game-over card): `start`, then `step` once a window frame; `line` says how
    it is going or why it failed, for the status line or a card; `error` marks a failure."""

    def __init__(self, folder=None):
        self.folder, self.job, self.line, self.error = folder, None, "", False

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, replay_path, model=None) -> None:
        """Exports the replay file `replay_path` in `model`'s view (a ViewerModel; None: read
        the file, Oracle view) at its speed preset."""
        if self.job is not None:
            return
        try:
            if model is None:
                model = ViewerModel(read_replay(replay_path), Path(replay_path).name)
            self.job = VideoJob(replay_path, model, self.folder)
        except (OSError, ValueError) as error:
            self.line, self.error = f"Video not exported: {error}", True
            return
        self.line, self.error = self.job.progress_text(), False

    def step(self) -> None:
        """Some frames of the running export (about FRAME_BUDGET_S seconds)."""
        job = self.job
        if job is None:
            return
        try:
            finished = job.step()
        except (OSError, ValueError) as error:
            self.job, self.line, self.error = None, f"Video not exported: {error}", True
            return
        if finished:
            self.job, self.line = None, job.finished_text()
        else:
            self.line = job.progress_text()

    def cancel(self) -> bool:
        """Stops a running export (its partial file removed); True if one was running."""
        job, self.job = self.job, None
        if job is None:
            return False
        job.cancel()
        self.line = f"Video export stopped; {job.out.name} was not written"
        return True
