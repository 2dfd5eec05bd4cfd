"""Replay Viewer speed on this machine (prints; targets from issue 6 and issue 8):

- open a 300-tick 5v5 replay with full metrics (read + first frame)   < 1 s
- jump to any tick (model, scene, panels, plots, one frame)            < 50 ms
- metric search, one keystroke (filter + draw of the visible rows)     < 100 ms
- playback                                                              60 frames a second
- the replay file: < 1 MB, written and read in < 200 ms each

    .venv/bin/python bench/bench_viewer.py [--file REPLAY.mbgr] [--rows N]

Without --file it builds a synthetic 300-tick game (tests/helpers) with the real metric
catalog (evaluation.metrics, full level) padded to --rows rows (default 11,192, the paper's
count per game).
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import polars as pl  # noqa: E402
import pygame  # noqa: E402

from evaluation.replay import encode_replay, read_replay, write_replay  # noqa: E402
from replay_viewer import layout as L  # noqa: E402
from replay_viewer.app import App  # noqa: E402
from replay_viewer.model import SPEEDS  # noqa: E402


def build_replay(rows: int):
    from evaluation.metrics import compute_metrics
    from tests.helpers.replays import synthetic_replay

    replay = synthetic_replay(300, seed=1)
    metrics = compute_metrics(replay, "full")
    pad = rows - metrics.height
    if pad > 0:  # extra who-did-what-to-whom rows, as in the paper's 11,192 metrics a game
        extra = pl.DataFrame(
            {
                "game": ["game"] * pad,
                "topic": ["extra"] * pad,
                "metric": [f"extra.pair_{k % 97}" for k in range(pad)],
                "source": [k % 10 for k in range(pad)],
                "target": [(k // 10) % 10 for k in range(pad)],
                "value": [float(k % 113) for k in range(pad)],
            },
            schema=metrics.schema,
        )
        metrics = pl.concat([metrics, extra])
    replay.metrics = metrics
    replay.header["metrics_level"] = "full"
    return replay


def timed(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


def draw(app, surface, dt=0.0):
    app.handle_events(pygame.event.get())
    app.update(dt)
    app.draw(surface)


def replay_path(args, workdir: Path) -> Path:
    """--file, or a synthetic replay written to `workdir` (its size and times printed)."""
    if args.file:
        return Path(args.file)
    replay, build_s = timed(build_replay, args.rows)
    data, encode_s = timed(encode_replay, replay)
    path, write_s = timed(write_replay, workdir / "bench.mbgr", replay)
    print(
        f"file: {len(data) / 1e6:.3f} MB ({replay.metrics.height} metric rows); "
        f"encode {encode_s * 1e3:.0f} ms, write {write_s * 1e3:.0f} ms"
    )
    return path


def open_app(path: Path):
    """The viewer with `path` open and its first frame drawn: (app, surface); prints the time."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(L.SIZE)
    surface = pygame.Surface(L.SIZE)
    app = App(L.SIZE)
    start = time.perf_counter()
    app.open_path(path)
    draw(app, surface)
    print(
        f"open (read + metric table + first frame): {(time.perf_counter() - start) * 1e3:.0f} ms"
        "   target < 1000 ms"
    )
    return app, surface


def time_jumps(app, surface) -> None:
    """40 jumps to random ticks in each view and side tab: median and max per pair."""
    rng = random.Random(0)
    for view in ("oracle", ("agent", 3), ("team", 1)):
        app.model.set_view(view)
        for tab in ("log", "agent"):
            app.side.tab = tab
            times = []
            for _ in range(40):
                app.model.timeline.seek(rng.randrange(app.model.ticks + 1))
                app.model.selected = 3
                times.append(timed(draw, app, surface)[1])
            times.sort()
            print(
                f"jump, view {view!s:14} tab {tab:6}: median {times[20] * 1e3:5.1f} ms,"
                f" max {times[-1] * 1e3:5.1f} ms   target < 50 ms"
            )


def time_search(app, surface) -> None:
    """A metric search typed one keystroke at a time: mean and max per keystroke."""
    app.model.set_view("oracle")
    app.side.tab = "metrics"
    draw(app, surface)
    query, times = "", []
    for char in "damage priest b4":
        query += char
        start = time.perf_counter()
        app.side.table.set_query(query)
        draw(app, surface)
        times.append(time.perf_counter() - start)
    print(
        f"search per keystroke: mean {sum(times) / len(times) * 1e3:.1f} ms,"
        f" max {max(times) * 1e3:.1f} ms   target < 100 ms"
        f" ({app.side.table.rows.height} rows match {query!r})"
    )


def time_playback(app, surface) -> None:
    """Frames a second over 3 s of playback at the fastest speed."""
    app.side.tab = "log"
    app.model.timeline.seek(0)
    app.model.timeline.speed_index = len(SPEEDS) - 1
    app.model.timeline.playing = True
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < 3.0 and app.model.timeline.playing:
        draw(app, surface, 1 / 60)
        frames += 1
    elapsed = time.perf_counter() - start
    print(
        f"playback at {app.model.timeline.speed} ticks/s: {frames / elapsed:.0f} frames a second"
        "   target 60"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", help="a replay to measure instead of the synthetic one")
    parser.add_argument("--rows", type=int, default=11192, help="metric rows (synthetic)")
    args = parser.parse_args()
    path = replay_path(args, Path(tempfile.mkdtemp(prefix="bench_viewer_")))
    loaded, read_s = timed(read_replay, path)
    print(f"read_replay: {read_s * 1e3:.0f} ms for {loaded.ticks} ticks")
    app, surface = open_app(path)
    time_jumps(app, surface)
    time_search(app, surface)
    time_playback(app, surface)


if __name__ == "__main__":
    main()
