"""Video export speed and memory (issue 20): a 300-tick game at 1280x720, 10 frames a tick.

    .venv/bin/python bench/bench_video.py [--file REPLAY.mbgr] [--formats gif,mp4]

Targets: export at least 4x faster than real time at 30 fps (30 fps with 3 ticks a second is
10 frames a tick: 3,000 game frames, 100 s of video plus the 4 s of cards); memory flat in the
game's length (frames are streamed). Each export runs in a child process that reports its own
peak resident memory, once for the first 100 ticks and once for all 300: the two peaks should
match. CPU seconds count every thread and the ffmpeg child, so frames per CPU second is the
figure that a loaded machine changes least. Without --file a synthetic 300-tick 5v5 game
(tests/helpers) is used.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FPS, TICKS_PER_SECOND, SIZE = 30, 3.0, (1280, 720)


def child(replay: str, out: str, end: int) -> None:
    """One export; prints {seconds, frames, video_s, peak_mib} as JSON."""
    from replay_viewer.video import VideoExport, VideoOptions

    options = VideoOptions(end=end, fps=FPS, ticks_per_second=TICKS_PER_SECOND, size=SIZE)
    job = VideoExport(replay, out, options)
    start, cpu = time.perf_counter(), cpu_seconds()
    job.run()
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    result = {"seconds": seconds, "cpu": cpu, "frames": job.total, "video_s": job.total / FPS}
    result.update(peak_mib=peak, bytes=Path(out).stat().st_size)
    print(json.dumps(result))


def cpu_seconds() -> float:
    """CPU seconds of this process (all threads) and its finished children (ffmpeg)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run_child(replay: Path, out: Path, end: int) -> dict:
    command = [sys.executable, __file__, "--child", str(replay), str(out), str(end)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, help="a replay of at least 300 ticks")
    parser.add_argument("--formats", default="gif,mp4", help="gif,mp4 (mp4 needs the extra)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    from evaluation.replay import write_replay

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        replay = args.file
        if replay is None:
            from tests.helpers.replays import synthetic_replay

            replay = write_replay(folder / "game.mbgr", synthetic_replay(300, seed=1))
        print(f"{replay}: {SIZE[0]}x{SIZE[1]}, {FPS} fps, {TICKS_PER_SECOND:g} ticks/s "
              f"({FPS / TICKS_PER_SECOND:g} frames a tick)")  # fmt: skip
        print(f"{'format':<6} {'ticks':>5} {'frames':>6} {'seconds':>8} {'frames/s':>9} "
              f"{'x real time':>11} {'CPU s':>6} {'frames/CPU s':>12} {'peak MiB':>9} "
              f"{'file MB':>8}")  # fmt: skip
        for kind in args.formats.split(","):
            for end in (100, 300):
                r = run_child(replay, folder / f"v{end}.{kind}", end)
                print(f"{kind:<6} {end:>5} {r['frames']:>6} {r['seconds']:>8.1f} "
                      f"{r['frames'] / r['seconds']:>9.1f} {r['video_s'] / r['seconds']:>10.2f}x "
                      f"{r['cpu']:>6.1f} {r['frames'] / r['cpu']:>12.1f} "
                      f"{r['peak_mib']:>9.0f} {r['bytes'] / 1e6:>8.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
