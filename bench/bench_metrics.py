"""Benchmark of game metrics: time per game at each level, 1,000 games, and bytes per game.

    .venv/bin/python bench/bench_metrics.py                      # random rule-consistent games
    .venv/bin/python bench/bench_metrics.py --source engine      # games played by the engine
    .venv/bin/python bench/bench_metrics.py --games 200 --ticks 300

Targets (issue 4): full metrics of a 300-tick 5v5 game < 0.5 s, priority < 50 ms, 1,000 games
of full metrics < 5 minutes; the paper stores about 54 KB (full) and 6 KB (priority) a game.
Prints figures only; it asserts nothing.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.metrics import LEVELS, compute_metrics, metrics_to_bytes  # noqa: E402

ROSTER = (1, 2, 3, 4, 5, 1, 2, 3, 4, 5)


def random_games(count: int, ticks: int) -> list[dict]:
    """Distinct NumPy games of exactly `ticks` ticks (tests/evaluation/metrics/randgame.py)."""
    from tests.evaluation.metrics.randgame import random_game

    return [random_game(seed, ROSTER, ticks=ticks, threshold=10**6) for seed in range(count)]


def engine_games(count: int, ticks: int) -> list[dict]:
    """Games of the real engine with random, attack-happy actions, played to `ticks`."""
    import os

    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import pytest

    import tests.evaluation.metrics.test_engine_games as played

    played.GAMES, played.HORIZON, played.THRESHOLD = count, ticks, 10**6
    try:
        return played._play()
    except pytest.skip.Exception as reason:
        raise SystemExit(f"engine games unavailable: {reason}") from None


def timed(fn, repeats: int) -> float:
    """Median seconds of `repeats` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", choices=("random", "engine"), default="random")
    parser.add_argument("--games", type=int, default=1000, help="games in the batch timing")
    parser.add_argument("--distinct", type=int, default=20, help="distinct games to cycle over")
    parser.add_argument("--ticks", type=int, default=300)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    make = random_games if args.source == "random" else engine_games
    games = make(args.distinct, args.ticks)
    ticks = games[0]["events"]["lane"].shape[0]
    print(f"{len(games)} distinct {args.source} 5v5 games of {ticks} ticks, "
          f"made in {time.perf_counter() - start:.1f} s")  # fmt: skip

    compute_metrics(games[0], "full")  # warm caches and imports
    print(f"\none game ({ticks} ticks), median of 20:")
    for level in LEVELS:
        seconds = timed(lambda level=level: compute_metrics(games[0], level), 20)
        print(f"  {level:<9} {seconds * 1e3:8.2f} ms")

    print("\nbytes a game (metrics_to_bytes; rows), mean over the distinct games:")
    for level in LEVELS:
        frames = [compute_metrics(g, level) for g in games]
        sizes = [len(metrics_to_bytes(f)) for f in frames]
        rows = statistics.mean(f.height for f in frames)
        print(f"  {level:<9} {statistics.mean(sizes):9.0f} B  ({rows:.0f} rows)")

    for level in ("priority", "full"):
        start = time.perf_counter()
        total = 0
        for i in range(args.games):
            total += len(
                metrics_to_bytes(compute_metrics(games[i % len(games)], level, game=str(i)))
            )
        seconds = time.perf_counter() - start
        each = seconds / args.games * 1e3
        print(f"\n{args.games} games at level {level} (compute + encode): {seconds:.1f} s,")
        print(f"  {each:.1f} ms a game, {total / 1e6:.2f} MB in all")


if __name__ == "__main__":
    main()
