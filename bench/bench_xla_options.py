"""XLA:CPU options against the default: first compile, one-step latency and batched rollouts.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_xla_options.py [--options legacy-emitters]
        [--compile-repeats 2] [--batches 128 1024] [--ticks 32] [--rounds 5]

Three figures per option, each beside the default measured in the same session:
- CPU seconds (`time.process_time`) of tracing and compiling reset + step in fresh processes
  with no compilation cache (`bench_compile.one_run`), the processes of the options
  alternating, so a change of load lands on all of them;
- microseconds per jitted step of one game from a Python loop (observations, masks, events);
- env-steps/s of `lax.scan` rollouts of random legal actions at each `--batches` size, sharded
  over `--devices` host CPU devices as in `mbg bench engine`.
The last two come from one warm worker process per option (compiled once), timed in
alternating rounds (`evaluation.interleaved`); a ratio is the median of per-round ratios, and
one whose interquartile range is wider than 15% of it is flagged as too noisy to trust.
The options are XLA_FLAGS of the XLA that ships with jaxlib (see OPTIONS). Prints figures;
asserts nothing.
"""

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench")]

import bench_compile  # noqa: E402

from evaluation import engine_bench, interleaved  # noqa: E402

# name -> XLA_FLAGS added to the inherited ones. The fusion-emitter flag selects XLA:CPU's
# older LLVM IR emitters over the MLIR fusion emitters; the thunk-runtime flag compiles the
# whole program into one function instead of a sequence of kernels run by a thunk executor.
# The optimisation level is LLVM's (-O0 .. -O3 on the emitted kernels; XLA's default is 2).
OPTIONS = {
    "default": "",
    "legacy-emitters": "--xla_cpu_use_fusion_emitters=false",
    "legacy-runtime": "--xla_cpu_use_thunk_runtime=false",
    "legacy-both": "--xla_cpu_use_fusion_emitters=false --xla_cpu_use_thunk_runtime=false",
    "llvm-o1": "--xla_backend_optimization_level=1",
    "llvm-o0": "--xla_backend_optimization_level=0",
}
LOOP_STEPS = 50  # jitted steps per timed call of the latency program


def serve(batches, ticks: int, devices: int) -> None:
    """Worker side: compile the Python-loop step and the rollouts, then answer timings."""
    import jax

    jax.config.update("jax_enable_compilation_cache", False)
    from engine import Config, Env, maps
    from engine.sampling import random_legal_actions

    pool = maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",))
    env = Env(Config(), pool)
    key = jax.random.PRNGKey(0)
    obs, state = jax.jit(env.reset)(key)
    actions = jax.jit(random_legal_actions)(key, obs.mask)
    step = jax.jit(env.step)
    jax.block_until_ready(step(key, state, actions))

    def loop():
        current = state
        for _ in range(LOOP_STEPS):
            _, current, _, _, _ = step(key, current, actions)
        return jax.block_until_ready(current)

    programs = {"step": loop}
    fast = Env(Config(), pool, keep_last_obs=False)  # as `mbg bench engine` rolls out
    for batch in batches:
        programs[str(batch)] = engine_bench.rollout_program(fast, batch, ticks, devices)[0]
    interleaved.serve(programs, {"flags": os.environ.get("XLA_FLAGS", "")})


def compile_figures(names, repeats: int) -> dict:
    """name -> per-process CPU seconds of reset + step (trace and compile), alternating."""
    inherited = os.environ.get("XLA_FLAGS", "")
    parts = ("reset_trace", "reset_compile", "step_trace", "step_compile")
    cpu = {name: [] for name in names}
    for repeat in range(repeats):
        for name in names if repeat % 2 == 0 else names[::-1]:
            run = bench_compile.one_run(0, f"{inherited} {OPTIONS[name]}".strip())
            cpu[name].append(sum(run[part + "_cpu_s"] for part in parts))
    return cpu


def warm_figures(names, batches, ticks: int, devices: int, rounds: int) -> dict:
    """(name, program) -> seconds per call in each round, the workers alternating."""
    base = engine_bench._worker_env(devices)
    args = ["--serve", *engine_bench._worker_args(batches, ticks, devices)]
    workers = {}
    try:
        for name in names:
            env = dict(base, XLA_FLAGS=f"{base['XLA_FLAGS']} {OPTIONS[name]}".strip())
            workers[name] = interleaved.PipeWorker([sys.executable, __file__, *args], name, env)
        programs = {
            (name, program): (lambda w=worker, p=program: w.seconds(p))
            for program in ["step", *map(str, batches)]
            for name, worker in workers.items()
        }
        return interleaved.interleave(programs, rounds)
    finally:
        for worker in workers.values():
            worker.close()


def report(names, cpu: dict, seconds: dict, batches, ticks: int) -> dict:
    """Print one table; return its figures (json-able)."""
    figures = {}
    print(
        f"{'option':16s} {'compile CPU s':>13s} {'step us':>8s}  "
        + "  ".join(f"{b:>6d} games, steps/s" for b in batches)
    )
    for name in names:
        row = {"compile_cpu_s": statistics.median(cpu[name])}
        row["step_us"] = statistics.median(seconds[name, "step"]) / LOOP_STEPS * 1e6
        for b in batches:
            row[f"steps_per_s_{b}"] = b * ticks / statistics.median(seconds[name, str(b)])
        figures[name] = row
        rates = "  ".join(f"{row[f'steps_per_s_{b}']:20.0f}" for b in batches)
        print(f"{name:16s} {row['compile_cpu_s']:13.2f} {row['step_us']:8.0f}  {rates}")
    for name in names[1:]:
        print(f"{name} against default:")
        share = figures[name]["compile_cpu_s"] / figures["default"]["compile_cpu_s"]
        print(f"  compile CPU: {share:.2f}x the default's")
        for program in ["step", *map(str, batches)]:
            # default seconds over this option's seconds: above 1 is faster than the default
            summary = interleaved.ratio_summary(seconds["default", program], seconds[name, program])
            figures[name][f"speed_ratio_{program}"] = summary
            label = "one step" if program == "step" else f"{program} games"
            print(f"  {label} speed: {interleaved.describe(summary)}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--options", nargs="+", default=["legacy-emitters"], choices=OPTIONS)
    parser.add_argument("--compile-repeats", type=int, default=2)
    parser.add_argument("--batches", type=int, nargs="+", default=[128, 1024])
    parser.add_argument("--ticks", type=int, default=32)
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.batches, args.ticks, args.devices)
        return
    names = ["default", *[n for n in args.options if n != "default"]]
    cpu = compile_figures(names, args.compile_repeats)
    seconds = warm_figures(names, args.batches, args.ticks, args.devices, args.rounds)
    figures = report(names, cpu, seconds, args.batches, args.ticks)
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
