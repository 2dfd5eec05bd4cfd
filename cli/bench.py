"""`mbg bench engine`: engine speed beside JaxMARL SMAX 5v5, timed in alternating rounds."""

import argparse
import json
import os
from pathlib import Path


def register(subparsers) -> None:
    """Add `bench engine` to the `mbg` parser."""
    bench = subparsers.add_parser("bench", help="measure the engine's speed")
    kinds = bench.add_subparsers(dest="bench_kind", metavar="KIND", required=True)
    engine = kinds.add_parser(
        "engine",
        help="env-steps/s at several batches, step latency, compile time, memory, SMAX ratio",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    engine.add_argument("--batches", type=int, nargs="+", default=[1, 128, 1024])
    engine.add_argument("--ticks", type=int, default=128, help="rollout length (lax.scan)")
    engine.add_argument(
        "--devices", type=int, default=os.cpu_count() or 1, help="host CPU devices to shard over"
    )
    engine.add_argument(
        "--smax-python",
        type=Path,
        default=None,
        help="python of a venv with jaxmarl (default: .venv-smax/bin/python if present)",
    )
    engine.add_argument("--no-smax", action="store_true", help="skip the SMAX comparison")
    engine.add_argument(
        "--rounds", type=int, default=7, help="alternating rounds (ours, SMAX) per batch"
    )
    engine.add_argument(
        "--observations",
        action="store_true",
        help="both engines' rollouts read every observation, as a learner does (by default "
        "only the legal-action masks are read, and XLA drops the rest on both sides)",
    )
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.set_defaults(func=run)


def run(args) -> int:
    """Run the engine benchmark and print a table or JSON."""
    if args.devices < 1 or any(b < 1 for b in args.batches) or args.ticks < 1 or args.rounds < 1:
        raise ValueError("--devices, --batches, --ticks and --rounds must be positive")
    from evaluation import engine_bench

    engine_bench.set_host_devices(args.devices)
    smax_python = None if args.no_smax else (args.smax_python or engine_bench.DEFAULT_SMAX_PYTHON)
    figures = engine_bench.run_engine_bench(
        args.batches,
        args.ticks,
        args.devices,
        smax_python,
        rounds=args.rounds,
        observations=args.observations,
    )
    if args.json:
        print(json.dumps(figures))
    else:
        engine_bench.print_table(figures)
    return 0
