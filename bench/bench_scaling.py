"""Env-steps per second from 1 to 16,384 games, on one and on two host devices, with memory.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_scaling.py [--sizes 1 16 256 1024 4096 16384]
        [--ticks 16] [--devices 1 2] [--png docs/scaling.png] [--json scaling.json]

Each point is a jitted `lax.scan` of `--ticks` ticks of random legal actions
(`engine.sampling.random_play`) over `games` games with auto-reset. With two
devices the games are split over a 1-D device mesh by `jax.shard_map`, each device stepping its
own share with no exchange, as `training/parallel.py` does for training; a size that does not
split evenly is skipped there. One worker process per device count (XLA fixes the count when
it starts), the points in increasing size. Memory per point: XLA's own account of the compiled
program per device (`Compiled.memory_analysis()`: arguments, outputs, temporaries), and the
worker's peak resident memory after the point (it includes JAX itself, about 400 MiB). Throughput is
the best of two timings, each over enough calls to last 0.25 s
(`evaluation.interleaved.time_calls`), taken after compiling. The PNG and JSON are written
atomically and never over an existing file.
"""

import argparse
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evaluation import interleaved  # noqa: E402
from evaluation.replay import write_new_file  # noqa: E402

DEFAULT_SIZES = (1, 16, 256, 1024, 4096, 16384)


def sharded_rollout(env, devices: int, ticks: int):
    """A jitted function keys (games, 2) -> (games,) int32 ticks played, over `devices`."""
    import jax
    from jax.sharding import PartitionSpec as P

    from engine.sampling import random_play
    from training.parallel import device_mesh

    def local(keys):
        return random_play(env, keys, ticks)[1].tick

    if devices == 1:
        return jax.jit(local)
    mesh = device_mesh(devices)
    # check_vma off for the reason training/parallel.py gives: the engine's scans start from
    # constants that the games then make device-varying.
    sharded = jax.shard_map(
        local, mesh=mesh, in_specs=P("games"), out_specs=P("games"), check_vma=False
    )
    return jax.jit(sharded)


def measure_point(env, games: int, devices: int, ticks: int, repeats: int = 2) -> dict:
    """One point: env-steps/s, compile seconds, XLA's memory account and peak RSS (MiB)."""
    import jax

    keys = jax.random.split(jax.random.PRNGKey(0), games)
    start = time.perf_counter()
    compiled = sharded_rollout(env, devices, ticks).lower(keys).compile()
    jax.block_until_ready(compiled(keys))
    compile_s = time.perf_counter() - start
    memory = compiled.memory_analysis()
    xla_bytes = sum(
        getattr(memory, field, 0) or 0
        for field in ("argument_size_in_bytes", "output_size_in_bytes", "temp_size_in_bytes")
    )

    def run():
        return jax.block_until_ready(compiled(keys))

    calls = interleaved.calls_for(run)
    best = min(interleaved.time_calls(run, calls) for _ in range(repeats))
    return {
        "games": games,
        "devices": devices,
        "ticks": ticks,
        "steps_per_s": games * ticks / best,
        "compile_s": compile_s,
        "xla_mib": xla_bytes / 2**20,
        "peak_rss_mib": interleaved.peak_rss_mib(),
    }


def worker(sizes, devices: int, ticks: int) -> None:
    """Print one JSON line per point (this process was started with `devices` host devices)."""
    import jax

    jax.config.update("jax_enable_compilation_cache", False)
    from engine import Config, Env, maps

    env = Env(Config(), maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",)), keep_last_obs=False)
    for games in sorted(sizes):
        if games % devices:
            print(json.dumps({"games": games, "devices": devices, "skipped": True}), flush=True)
            continue
        print(json.dumps(measure_point(env, games, devices, ticks)), flush=True)


def run_worker(sizes, devices: int, ticks: int) -> list[dict]:
    """Start a worker with `devices` host devices and collect its points (echoed as they come)."""
    from evaluation.engine_bench import _worker_env

    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--ticks", str(ticks)]
    command += ["--devices", str(devices), "--sizes", *map(str, sizes)]
    points = []
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, text=True, env=_worker_env(devices)
    ) as process:
        for line in process.stdout:
            if line.startswith("{"):
                points.append(json.loads(line))
                print(f"  {format_row(points[-1])}", file=sys.stderr, flush=True)
    if process.returncode:
        raise RuntimeError(f"scaling worker on {devices} device(s) exited {process.returncode}")
    return points


def format_row(point: dict) -> str:
    if point.get("skipped"):
        return f"| {point['games']:,} | {point['devices']} | - | - | - | - |"
    return (
        f"| {point['games']:,} | {point['devices']} | {point['steps_per_s']:,.0f} | "
        f"{point['xla_mib']:,.1f} | {point['peak_rss_mib']:,.0f} | {point['compile_s']:.1f} |"
    )


def table(points) -> str:
    head = (
        "| Games | Devices | Env-steps/s | XLA buffers per device, MiB | Peak RSS, MiB "
        "| Compile, s |\n"
        "| ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    return "\n".join([head, *map(format_row, points)])


def plot(points) -> bytes:
    """A log-log PNG of env-steps/s against games, one line per device count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    for devices in sorted({p["devices"] for p in points}):
        mine = [p for p in points if p["devices"] == devices and not p.get("skipped")]
        label = f"{devices} host device{'s' if devices > 1 else ''}"
        axes.plot([p["games"] for p in mine], [p["steps_per_s"] for p in mine], "o-", label=label)
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xlabel("games stepped together")
    axes.set_ylabel("env-steps per second")
    axes.set_title("Team Deathmatch 5v5, random legal actions, CPU")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return buffer.getvalue()


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--ticks", type=int, default=16)
    parser.add_argument("--devices", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--png", type=Path, default=None, help="write the plot here (new file)")
    parser.add_argument("--json", type=Path, default=None, help="write the points here (new file)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if min(args.sizes) < 1 or args.ticks < 1 or min(args.devices) < 1:
        parser.error("--sizes, --ticks and --devices must be positive")
    if args.worker:
        worker(args.sizes, args.devices[0], args.ticks)
        return []
    for path in (args.png, args.json):
        if path is not None and path.exists():
            parser.error(f"{path}: exists; the benchmark never writes over a file")
    points = [p for d in args.devices for p in run_worker(args.sizes, d, args.ticks)]
    print(f"{os.cpu_count()} CPU cores, {args.ticks} ticks a rollout")
    print(table(points))
    if args.json is not None:
        write_new_file(args.json, json.dumps(points, indent=1).encode(), "not overwritten")
    if args.png is not None:
        write_new_file(args.png, plot(points), "not overwritten")
    return points


if __name__ == "__main__":
    main()
