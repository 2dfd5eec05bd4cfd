"""Video export of a replay: `replay-viewer FILE --export OUT.gif|OUT.mp4`, the viewer's Video
button (Ctrl+E / e) and `mbg replay export`. Never imports JAX.

A video is a title card (map, teams' Systems, rosters, final score), the tick range played at
`ticks_per_second` with `fps` frames a second (in-between frames from ui.animation, captions
from the view's event log), then an end card on the last tick. Every frame is built from the
view's Scenes (ui.scene), so a point-of-view video shows only what that view knew. Frames are
streamed to a temporary file in the output's folder (replay_viewer.video_writers) that takes
its name only when complete, never over an existing file. The replay's identity (file, SHA-256,
tick range, view) is stored in the file's metadata (GIF comment, MP4 comment tag) as JSON.
"""

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame

from evaluation.replay import read_replay
from evaluation.replay_schema import tick_range
from fileio import ordinary_temp_file, publish_new_file
from replay_viewer.model import ViewerModel
from replay_viewer.panels import team_systems
from replay_viewer.video_frames import FRAME_MASKS, FrameMaker
from replay_viewer.video_writers import (
    GifWriter,
    Mp4Writer,
    Pipelined,
    VideoError,
    check_format,
)
from ui.animation import phase_of
from ui.explain import counted
from ui.rules import C
from ui.scene import view_tag

TITLE_S = 2.0  # seconds of the title card
END_S = 2.0  # seconds of the end card


@dataclass(frozen=True)
class VideoOptions:
    """What to export. start / end: game ticks as the viewer shows them (states["tick"]; None:
    the replay's first / last; a scenario's replay starts at its start tick); fps: frames a second;
    ticks_per_second: playback speed; size: (width, height) pixels; animate: in-between frames
    (False: each tick held for its frames); end_option: the command-line name of `end` in
    messages ("--until" in `mbg replay export`, whose --to names the folder)."""

    view: object = "oracle"
    start: int | None = None
    end: int | None = None
    fps: int = 30
    ticks_per_second: float = 4.0
    captions: bool = True
    size: tuple[int, int] = (1280, 720)
    animate: bool = True
    end_option: str = "--to"


def view_text(view) -> str:
    """A view as the command line writes it (ui.scene.parse_view's inverse)."""
    if view == "oracle":
        return "oracle"
    kind, arg = view
    return f"agent:{arg}" if kind == "agent" else f"team:{'AB'[arg]}"


def file_sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def game_frame_count(start: int, end: int, fps: int, ticks_per_second: float) -> int:
    """Frames of the game part: (end - start) ticks at `ticks_per_second`, `fps` frames a
    second, rounded to whole frames; frame k shows game time start + k * tps / fps ticks."""
    return max(1, round((end - start) * fps / ticks_per_second))


def card_frames(fps: int) -> tuple[int, int]:
    return max(1, round(TITLE_S * fps)), max(1, round(END_S * fps))


def title_lines(model: ViewerModel, options: VideoOptions, start: int, end: int) -> list[str]:
    """The title card: map, each team's Systems and roster, the final score, the range
    (`start`, `end`: replay indices, shown as game ticks)."""
    h = model.replay.header
    roster = h["roster"]
    lines = [f"Map {h['map']['id']} {h['map']['name']} ({h['map']['split']})"]
    for team in range(2):
        slots = range(team * C.TEAM_SIZE, (team + 1) * C.TEAM_SIZE)
        classes = ", ".join(C.CLASS_NAMES[roster[s]] for s in slots if roster[s])
        systems = team_systems(h["systems"][slots.start : slots.stop])
        lines.append(f"Team {C.TEAM_NAMES[team]}: {systems}  ({classes or 'empty'})")
    r = model.result
    lines.append(f"Final score A {r['score'][0]} : {r['score'][1]} B, {r['outcome_name']} "
                 f"after {counted(r['ticks'], 'tick')}")  # fmt: skip
    lines.append(f"Ticks {model.game_tick(start)}-{model.game_tick(end)} at "
                 f"{options.ticks_per_second:g} ticks/s, "
                 f"view: {model.view_name(options.view)}")  # fmt: skip
    return lines


class VideoExport:
    """One export, checked up front: `run(progress)` writes it; `steps()` yields the frames
    written so far one frame at a time (for the viewer's loop). `total` frames in all.

    Raises (from the constructor): FileExistsError when `out` exists, VideoError for an option
    that cannot be met (format, fps, size, tick range, empty slot), ReplayError / OSError for a
    replay that cannot be read. Nothing is written before `run` or `steps`.
    """

    def __init__(self, replay_path, out, options: VideoOptions = VideoOptions(), replay=None):
        self.source, self.out, self.options = Path(replay_path), Path(out), options
        if self.out.exists():
            raise FileExistsError(f"{self.out}: refusing to overwrite an existing file")
        self.kind = check_format(self.out, options.fps, options.size)
        if options.ticks_per_second <= 0:
            raise VideoError(f"--ticks-per-second {options.ticks_per_second:g}: must be above 0")
        replay = read_replay(self.source) if replay is None else replay
        self.model = ViewerModel(replay, self.source.name)
        self.start, self.end = self._range(options)
        self._check_view(options.view)
        self.model.set_view(options.view)
        self.game_frames = game_frame_count(self.start, self.end, options.fps,
                                            options.ticks_per_second)  # fmt: skip
        self.title_frames, self.end_frames = card_frames(options.fps)
        self.total = self.title_frames + self.game_frames + self.end_frames

    def _range(self, options) -> tuple[int, int]:
        """The options' game ticks -> (first, last) replay index of the export."""
        first, ticks = self.model.first_tick, self.model.ticks
        start = first if options.start is None else options.start
        end = first + ticks if options.end is None else options.end
        to, words = options.end_option, tick_range(self.source.name, ticks, first)
        if not first <= start <= first + ticks:
            raise VideoError(f"--from {start}: {words}")
        if not first <= end <= first + ticks:
            raise VideoError(f"{to} {end}: {words}")
        if end <= start:
            raise VideoError(f"--from {start} {to} {end}: the range needs at least one tick")
        return start - first, end - first

    @property
    def game_ticks(self) -> tuple[int, int]:
        """The export's first and last game tick (what a person reads; `start`, `end` are
        replay indices)."""
        return self.model.game_tick(self.start), self.model.game_tick(self.end)

    def _check_view(self, view) -> None:
        if view != "oracle" and view[0] == "agent":
            if not self.model.replay.states["active"][0][view[1]]:
                raise VideoError(f"--view {view_text(view)}: that slot is empty in this game")

    def metadata(self) -> dict:
        """The replay's identity and the export's settings (stored as JSON in the file)."""
        o = self.options
        h = self.model.replay.header
        return {
            "title": f"MARL-BattleGrounds: map {h['map']['id']} {h['map']['name']}, "
            f"ticks {self.game_ticks[0]}-{self.game_ticks[1]}, {self.model.view_name(o.view)}",
            "replay": self.source.name,
            "sha256": file_sha256(self.source) if self.source.is_file() else None,
            "ticks": list(self.game_ticks),
            "view": view_text(o.view),
            "fps": o.fps,
            "ticks_per_second": o.ticks_per_second,
            "size": list(o.size),
            "frames": self.total,
            "made_by": "marl-battlegrounds replay-viewer --export",
        }

    def frame_times(self):
        """(tick, phase) of each frame of the game part (ui.animation.phase_of)."""
        step = self.options.ticks_per_second / self.options.fps
        for k in range(self.game_frames):
            tick, u = phase_of(self.start + k * step)
            yield (tick, u) if self.options.animate else (tick, 0.0)

    def frames(self, maker: FrameMaker):
        """Every frame in order as raw pixels (frame_bytes: BGRX, rows top to bottom)."""
        title = frame_bytes(maker.title_card(title_lines(self.model, self.options, self.start,
                                                         self.end)))  # fmt: skip
        for _ in range(self.title_frames):
            yield title
        for tick, u in self.frame_times():
            yield frame_bytes(maker.game_frame(tick, u))
        closing = frame_bytes(maker.end_card(self.end))
        for _ in range(self.end_frames):
            yield closing

    def steps(self):
        """Writes the video, yielding the number of frames written after each; the file takes
        its name after the last frame. Closing the generator early removes the partial file."""
        self.out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = ordinary_temp_file(self.out.parent, f".{self.out.stem}.", self.kind)
        meta, done, writer = self.metadata(), False, None
        try:
            maker = FrameMaker(self.model, self.options.size, self.options.captions)
            with os.fdopen(fd, "wb") as handle:
                writer = Pipelined(self._writer(handle, tmp, meta, maker))
                for count, pixels in enumerate(self.frames(maker), 1):
                    writer.write(pixels)
                    yield count
                writer.close()
            publish_new_file(tmp, self.out)
            done = True
        finally:
            if not done:
                if writer is not None:
                    writer.abandon()
                Path(tmp).unlink(missing_ok=True)

    def _writer(self, handle, tmp, meta, maker):
        o = self.options
        if self.kind == ".mp4":
            return Mp4Writer(tmp, o.size, o.fps, meta)
        from PIL import Image

        writer = GifWriter(handle, o.size, o.fps, json.dumps(meta, sort_keys=True))
        title = maker.title_card(title_lines(self.model, o, self.start, self.end))
        sample = np.concatenate([to_rgb(title), to_rgb(maker.game_frame(self.start, 0.0))])
        writer.start(Image.fromarray(sample))
        return writer

    def run(self, progress=None) -> Path:
        """Writes the whole video; progress(done, total) after each frame. Returns `out`."""
        for done in self.steps():
            if progress is not None:
                progress(done, self.total)
        return self.out


def frame_bytes(surface: pygame.Surface) -> bytes:
    """The pixels of a FrameMaker surface (32 bits, masks of FRAME_MASKS) as BGRX bytes, a copy
    of its buffer: no per-pixel conversion here (Pillow and ffmpeg read the layout)."""
    if surface.get_bitsize() != 32 or surface.get_masks()[:3] != FRAME_MASKS:
        raise ValueError(f"frame surface: 32 bits with masks {FRAME_MASKS} expected")
    return surface.get_buffer().raw


def to_rgb(surface: pygame.Surface) -> np.ndarray:
    """(height, width, 3) uint8 copy of a surface's pixels."""
    width, height = surface.get_size()
    data = pygame.image.tobytes(surface, "RGB")
    return np.frombuffer(data, np.uint8).reshape(height, width, 3)


def parse_size(text: str) -> tuple[int, int]:
    """ "1280x720" -> (1280, 720); VideoError otherwise."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()):
        raise VideoError(f"--size {text!r}: expected WIDTHxHEIGHT in pixels, e.g. 1280x720")
    return int(width), int(height)


def default_name(source, view, start: int, end: int, kind: str = ".gif") -> str:
    """The file name of a replay's video: <stem>_t<start>-<end>_<view><kind>, the view as a
    picture's name gives it (`ui.scene.view_tag`: "agent-b2", "team-a", "oracle")."""
    return f"{Path(source).stem}_t{start:04d}-{end:04d}_{view_tag(view)}{kind}"
