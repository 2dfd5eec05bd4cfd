"""The SMAX comparison's rollout, another checkout's engine beside this one's, one process.

    JAX_PLATFORMS=cpu .venv/bin/python bench/ab_rollout.py --base DIR [--batch 64] [--ticks 32]
        [--rounds 7]

DIR is a checkout to compare with (e.g. `git worktree add --detach DIR main`). Its engine/
package is copied to a temporary folder as the package `engine_base` and imported beside
`engine`, so every module of the engine can differ. Both run `mbg bench engine`'s rollout
(`evaluation.engine_bench`: a `lax.scan` of random legal actions and `Env.step`, with
`keep_last_obs` off) on one JAX device over this checkout's training pool. That rollout reads
only `obs.mask`, so XLA drops the rest of the observation; `bench/ab_movement.py` times
`Env.step` with all its outputs instead. Three programs (base, this, this again as the A/A
check) are timed in alternating rounds (`evaluation.interleaved`) by the CPU and wall clocks;
printed: each one's median microseconds per game-tick and the median of the per-round ratios
base / this (above 1: this checkout is faster) with its IQR. Also checks that both rollouts
return the same count of finished games and ticks.
"""

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jax  # noqa: E402

from engine import Config, Env, maps  # noqa: E402
from evaluation import engine_bench, interleaved  # noqa: E402


def copy_as_base(engine_dir: Path, into: Path) -> None:
    """Copy the .py files of `engine_dir` to `into`/engine_base, imports renamed to match."""
    target = into / "engine_base"
    target.mkdir()
    for path in engine_dir.glob("*.py"):
        text = re.sub(r"\b(from|import) engine\b", r"\1 engine_base", path.read_text())
        (target / path.name).write_text(text.replace("engine.types", "engine_base.types"))


def rollout_programs(envs: dict, batch: int, ticks: int):
    """name -> timing program ({clock: seconds} per call), and name -> the rollout's result."""
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    timed, results = {}, {}
    for name, env in envs.items():
        compiled = jax.jit(engine_bench._rollout_fn(env, ticks)).lower(keys).compile()
        results[name] = int(compiled(keys))

        def run(f=compiled):
            return jax.block_until_ready(f(keys))

        calls = interleaved.calls_for(run)
        timed[name] = lambda run=run, calls=calls: interleaved.time_clocks(run, calls)
    return timed, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout to compare with")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--ticks", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    jax.config.update("jax_enable_compilation_cache", False)
    pool = maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",))
    with tempfile.TemporaryDirectory() as folder:
        copy_as_base(args.base / "engine", Path(folder))
        sys.path.insert(0, folder)
        import engine_base

        envs = {
            "base": engine_base.Env(engine_base.Config(), pool, keep_last_obs=False),
            "this": Env(Config(), pool, keep_last_obs=False),
            "this again": Env(Config(), pool, keep_last_obs=False),
        }
        timed, results = rollout_programs(envs, args.batch, args.ticks)
    print(f"batch {args.batch} x {args.ticks} ticks; rollout results {results}")
    seconds = interleaved.interleave_clocks(timed, args.rounds)
    scale = 1e6 / (args.batch * args.ticks)
    for clock, per_name in seconds.items():
        medians = "  ".join(f"{n} {statistics.median(v) * scale:.2f}" for n, v in per_name.items())
        ratio = interleaved.ratio_summary(per_name["base"], per_name["this"])
        noise = interleaved.ratio_summary(per_name["this"], per_name["this again"])
        print(f"{clock:4s} us/game-tick: {medians}")
        print(f"     base/this {interleaved.describe(ratio)}; A/A {interleaved.describe(noise)}")


if __name__ == "__main__":
    main()
