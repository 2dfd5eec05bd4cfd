"""Headless match speed, replay cost, and the scripted bots' round robin.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_matches.py speed [--games 1000]
    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_matches.py replay
    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_matches.py round-robin [--games 200]

- speed: full-length 5v5 games (roster MWHRP/MWHRP, test maps, ends swapped in pairs) between
  two scripted bots, vmapped batches, without replays, then a share of them again recording a
  replay of every game (built in memory, as `mbg play --out` does before writing): games per
  minute both ways and the recording overhead. Compile time is reported apart.
- replay: one 300-tick 5v5 game (a threshold no team reaches): file size, write and read time
  (targets: under 1 MB, 200 ms, 200 ms).
- round-robin: random and the three bots, every pair, N games a pair on the validation maps
  with random mirrored rosters (a new one each pair of games) and spawn ends swapped; prints
  a win/draw/loss table in Markdown, row System against column System.
Prints figures; asserts nothing.
"""

import argparse
import itertools
import tempfile
import time
from pathlib import Path

from engine.types import Config
from evaluation.match import play_match, schedule, summary
from evaluation.record import record_games
from evaluation.replay import read_replay, write_replay
from policies.slotspec import resolve_slots, team_spec

SYSTEMS = ("random", "scripted:brawler", "scripted:kiter", "scripted:tactician")


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def speed(args) -> None:
    lineup = resolve_slots(team_spec(args.team_a, args.team_b))
    config = Config()
    batch = args.batch
    warm = schedule("test", games=batch, seed=10_000)
    _, first = _timed(lambda: play_match(lineup, warm, config, mode="batch", batch=batch))
    setups = schedule("test", games=args.games, seed=0)
    results, plain = _timed(lambda: play_match(lineup, setups, config, mode="batch", batch=batch))
    facts = summary(results)
    print(f"{args.team_a} vs {args.team_b}, {args.games} games on the test maps, batch {batch}")
    print(f"  first batch (compile + run): {first:.1f} s")
    print(f"  without replays: {plain:.1f} s, {args.games / plain * 60:.1f} games/min")
    print(
        f"  mean ticks {facts['mean_ticks']:.1f}; A {facts['a_wins']} B {facts['b_wins']} "
        f"draws {facts['draws']}"
    )
    size = max(batch, args.replay_games // batch * batch)
    rec_batch = min(batch, 16)
    warm = schedule("test", games=rec_batch, seed=20_000)
    _, first = _timed(lambda: record_games(lineup, warm, config, mode="batch", batch=rec_batch))
    play_match(lineup, warm, config, mode="batch", batch=rec_batch)  # compile at this batch too
    subset = setups[:size]
    # Both ways at the recording batch, so the difference is the recording alone.
    _, plain_subset = _timed(
        lambda: play_match(lineup, subset, config, mode="batch", batch=rec_batch)
    )
    kept = []
    _, recorded = _timed(
        lambda: record_games(
            lineup,
            subset,
            config,
            mode="batch",
            batch=rec_batch,
            on_replay=lambda s, r, replay: kept.append(replay.ticks),
        )
    )
    print(
        f"  with replays ({size} games, batch {rec_batch}; first batch {first:.1f} s): "
        f"{recorded:.1f} s against {plain_subset:.1f} s without, "
        f"overhead {recorded / plain_subset - 1:+.0%}, {size / recorded * 60:.1f} games/min"
    )


def replay(args) -> None:
    lineup = resolve_slots(team_spec("scripted:kiter", "scripted:tactician"))
    config = Config(score_threshold=10_000)
    _, replays = record_games(lineup, schedule(47, games=1), config, mode="host")
    game = replays[0]
    with tempfile.TemporaryDirectory() as folder:
        writes, reads = [], []
        for k in range(5):
            path, seconds = _timed(lambda k=k: write_replay(Path(folder) / f"r{k}.mbgr", game))
            writes.append(seconds)
            _, seconds = _timed(lambda path=path: read_replay(path))
            reads.append(seconds)
        size = path.stat().st_size
    print(
        f"{game.ticks}-tick 5v5 replay: {size / 1024:.0f} KiB on disk, "
        f"write {min(writes) * 1000:.0f} ms, read {min(reads) * 1000:.0f} ms (best of 5)"
    )


def round_robin(args) -> None:
    names = [s.split(":")[-1] for s in SYSTEMS]
    table = {}
    for a, b in itertools.combinations(range(len(SYSTEMS)), 2):
        lineup = resolve_slots(team_spec(SYSTEMS[a], SYSTEMS[b]))
        setups = schedule("validation", ["random"], args.games, seed=1000 * a + 100 * b)
        results, seconds = _timed(
            lambda lineup=lineup, setups=setups: play_match(
                lineup, setups, Config(), mode="batch", batch=args.batch
            )
        )
        facts = summary(results)
        table[a, b] = (facts["a_wins"], facts["draws"], facts["b_wins"])
        table[b, a] = (facts["b_wins"], facts["draws"], facts["a_wins"])
        print(
            f"{names[a]} vs {names[b]}: W/D/L {table[a, b]}, mean ticks "
            f"{facts['mean_ticks']:.0f}, {seconds:.0f} s",
            flush=True,
        )
    print(f"\n| row vs column ({args.games} games a pair, W/D/L) | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for a in range(len(SYSTEMS)):
        cells = ["-" if a == b else "/".join(map(str, table[a, b])) for b in range(len(names))]
        print(f"| {names[a]} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    kinds = parser.add_subparsers(dest="kind", required=True)
    fast = kinds.add_parser("speed")
    fast.add_argument("--games", type=int, default=1000)
    fast.add_argument("--replay-games", type=int, default=128)
    fast.add_argument("--batch", type=int, default=64)
    fast.add_argument("--team-a", default="scripted:kiter")
    fast.add_argument("--team-b", default="scripted:tactician")
    fast.set_defaults(run=speed)
    kinds.add_parser("replay").set_defaults(run=replay)
    robin = kinds.add_parser("round-robin")
    robin.add_argument("--games", type=int, default=200)
    robin.add_argument("--batch", type=int, default=100)
    robin.set_defaults(run=round_robin)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
