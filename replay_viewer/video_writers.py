"""Streaming video writers: animated GIF through Pillow, MP4 through imageio-ffmpeg (no JAX).

Frames go to the file one at a time, so memory stays flat in the game's length. GIF: Pillow's
frame encoder (`GifImagePlugin.getheader` / `getdata`) with one fixed palette for the whole
file (the theme's colours exactly, the rest fitted to a sample frame), each frame cropped to
what changed since the last, identical frames merged into one longer frame. GIF delays are in
hundredths of a second (GIF89a spec), so delays are rounded per frame on the running total and
the file's length stays exact. MP4: H.264 in yuv420p through the ffmpeg binary that
imageio-ffmpeg ships (the optional extra `video`).
"""

import json

import numpy as np

from ui.theme import COLOURS, STATUS_COLOURS, TEAM_COLOURS, TEAM_DARK

MP4_EXTRA = "video"
MP4_HINT = (
    f"MP4 export needs the optional extra '{MP4_EXTRA}' (imageio-ffmpeg, which ships its own "
    f"ffmpeg): pip install 'marl-battlegrounds[{MP4_EXTRA}]', or export a .gif"
)
GIF_MAX_FPS = 50  # 2/100 s: browsers slow any shorter GIF delay down to 1/10 s
FORMATS = (".gif", ".mp4")
MIN_SIZE = (320, 180)  # pixels; below this the panels' text no longer fits
# 4K UHD: a frame surface is width x height x 4 bytes (33 MB here), and larger ones run the
# process out of memory in pygame.Surface, past what H.264 levels or GIF players take anyway.
MAX_SIZE = (3840, 2160)


class VideoError(ValueError):
    """An export that cannot be made as asked (format, extra, frame rate, size)."""


def check_format(path, fps: int, size) -> str:
    """The format of `path` (".gif" or ".mp4") after checking it can be written at `fps` and
    `size` (width, height pixels); raises VideoError naming the option at fault."""
    suffix = str(path).lower()[-4:]
    if suffix not in FORMATS:
        raise VideoError(f"{path}: the file name must end in .gif or .mp4")
    if fps < 1:
        raise VideoError(f"--fps {fps}: must be at least 1")
    if suffix == ".gif" and fps > GIF_MAX_FPS:
        raise VideoError(
            f"--fps {fps}: GIF delays are in 1/100 s and players slow delays under 2/100 s, "
            f"so a GIF plays at most {GIF_MAX_FPS} fps; use --fps {GIF_MAX_FPS} or less, or .mp4"
        )
    width, height = size
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        raise VideoError(f"--size {width}x{height}: at least {MIN_SIZE[0]}x{MIN_SIZE[1]} pixels")
    if width > MAX_SIZE[0] or height > MAX_SIZE[1]:
        raise VideoError(f"--size {width}x{height}: at most {MAX_SIZE[0]}x{MAX_SIZE[1]} pixels")
    if suffix == ".mp4":
        if width % 2 or height % 2:
            raise VideoError(
                f"--size {width}x{height}: MP4 (yuv420p) needs an even width and height"
            )
        mp4_backend()
    return suffix


def mp4_backend():
    """The imageio_ffmpeg module; VideoError naming the extra when it is not installed."""
    try:
        import imageio_ffmpeg
    except ImportError:
        raise VideoError(MP4_HINT) from None
    return imageio_ffmpeg


def theme_colours() -> list[tuple[int, int, int]]:
    """Every flat colour the apps draw with (ui.theme), each once, in a fixed order."""
    out = []
    for colour in [*COLOURS.values(), *TEAM_COLOURS, *TEAM_DARK, *STATUS_COLOURS]:
        rgb = tuple(int(v) for v in colour[:3])
        if rgb not in out:
            out.append(rgb)
    return out


def fixed_palette(sample):
    """A 256-colour "P" image for Image.quantize: the theme's colours exactly, then colours
    fitted to `sample` (a PIL RGB image of typical frames, e.g. a title card and a game frame)
    by Pillow's median cut."""
    from PIL import Image

    exact = theme_colours()
    fitted = sample.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
    rest = np.array(fitted.getpalette()[: 3 * (256 - len(exact))], np.uint8).reshape(-1, 3)
    colours = np.concatenate([np.array(exact, np.uint8), rest])
    colours = np.concatenate([colours, np.zeros((256 - len(colours), 3), np.uint8)])
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours.reshape(-1).tolist())
    return palette


class GifWriter:
    """Writes an endless-loop GIF89a to an open binary `handle`, one RGB frame at a time.

    `start(sample)` fixes the palette (see fixed_palette) and writes the header with `comment`
    (the replay's identity as JSON); `write(pixels)` takes one frame's BGRX bytes; `close()`
    writes the last frame and the trailer. Durations: frame k ends at round(100 (k+1) / fps)
    hundredths.
    """

    def __init__(self, handle, size, fps: int, comment: str):
        self.handle, self.size, self.fps, self.comment = handle, tuple(size), int(fps), comment
        self.palette = None
        self.frames = 0  # frames given to write()
        self.previous: np.ndarray | None = None  # palette indices of the last frame
        self.pending = None  # (image, offset, start hundredths) not yet written
        self.ended_cs = 0

    def start(self, sample) -> None:
        from PIL import GifImagePlugin, Image

        self.palette = fixed_palette(sample)
        first = Image.new("RGB", self.size).quantize(palette=self.palette, dither=0)
        header, _ = GifImagePlugin.getheader(first, None, {"loop": 0, "comment": self.comment})
        for chunk in header:
            self.handle.write(chunk)

    def write(self, pixels: bytes) -> None:
        """One frame: raw BGRX bytes, width x height pixels, rows top to bottom."""
        from PIL import Image

        image = Image.frombuffer("RGB", self.size, pixels, "raw", "BGRX", 0, 1)
        if self.palette is None:
            self.start(image)
        indexed = image.quantize(palette=self.palette, dither=Image.Dither.NONE)
        index = np.asarray(indexed)
        start_cs = self._cs(self.frames)
        self.frames += 1
        if self.previous is None:
            box = (0, 0, self.size[0], self.size[1])
        else:
            changed = index != self.previous
            if not changed.any():
                return  # the pending frame lasts one frame longer
            rows, cols = np.flatnonzero(changed.any(1)), np.flatnonzero(changed.any(0))
            box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
        self._flush(start_cs)
        self.previous = index
        self.pending = (indexed.crop(box), box[:2], start_cs)

    def _cs(self, frame: int) -> int:
        return round(100 * frame / self.fps)

    def _flush(self, end_cs: int) -> None:
        from PIL import GifImagePlugin

        if self.pending is None:
            return
        image, offset, start_cs = self.pending
        delay = max(1, end_cs - start_cs)  # hundredths; at least one so no frame is dropped
        image.info.pop("transparency", None)
        for chunk in GifImagePlugin.getdata(image, offset, duration=10 * delay):
            self.handle.write(chunk)
        self.ended_cs = start_cs + delay
        self.pending = None

    def close(self) -> None:
        self._flush(self._cs(self.frames))
        self.handle.write(b";")  # GIF trailer


class Mp4Writer:
    """H.264 MP4 through imageio-ffmpeg's `write_frames` generator (frames piped to ffmpeg);
    `metadata` goes into the container's comment and title tags."""

    def __init__(self, path, size, fps: int, metadata: dict):
        ffmpeg = mp4_backend()
        comment = json.dumps(metadata, sort_keys=True)
        self.frames = 0
        self.gen = ffmpeg.write_frames(
            str(path),
            tuple(size),
            fps=fps,
            codec="libx264",
            pix_fmt_in="bgr0",  # the frames' BGRX bytes as they are; ffmpeg converts
            pix_fmt_out="yuv420p",
            quality=None,
            macro_block_size=2,
            ffmpeg_log_level="error",
            output_params=[
                *("-preset", "veryfast", "-crf", "23", "-f", "mp4"),
                *("-metadata", f"comment={comment}", "-metadata", f"title={metadata['title']}"),
            ],
        )
        self.gen.send(None)

    def write(self, pixels: bytes) -> None:
        """One frame: raw BGRX bytes, width x height pixels, rows top to bottom."""
        self.gen.send(pixels)
        self.frames += 1

    def close(self) -> None:
        self.gen.close()


class Pipelined:
    """Runs a writer's `write` on a thread of its own, fed through a queue of at most `depth`
    frames (memory stays bounded), so drawing the next frame overlaps encoding this one
    (Pillow's quantizer and encoder and the pipe to ffmpeg release the GIL). An error in the
    writer is raised from the next `write` or from `close`."""

    def __init__(self, writer, depth: int = 6):
        import queue
        import threading

        self.writer, self.error = writer, None
        self.frames: queue.Queue = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._drain, name="video-writer", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while (pixels := self.frames.get()) is not None:
            if self.error is None:
                try:
                    self.writer.write(pixels)
                except BaseException as error:  # handed to the caller's thread
                    self.error = error

    def _raise(self) -> None:
        if self.error is not None:
            raise self.error

    def write(self, pixels: bytes) -> None:
        self._raise()
        self.frames.put(pixels)

    def close(self) -> None:
        self.frames.put(None)
        self.thread.join()
        self._raise()
        self.writer.close()

    def abandon(self) -> None:
        """Stops the thread without finishing the file (the export failed or was stopped)."""
        if self.thread.is_alive():
            self.frames.put(None)
            self.thread.join()
        try:  # ends an ffmpeg child; the caller removes the partial file
            self.writer.close()
        except Exception:  # noqa: BLE001 - already failing: the first error is the one raised
            pass
