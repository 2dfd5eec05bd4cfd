"""First compile of reset + step in a fresh process, with no persistent compilation cache.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_compile.py [--repeats 1] [--batch 0]

Each repeat starts a new Python process (so nothing JAX has traced or compiled carries over),
turns the persistent compilation cache off, builds the default 5v5 `Env` and times, apart,
tracing + lowering and XLA's compilation of `jit(env.reset)` and `jit(env.step)` (`--batch N`
vmaps both over N games first). Also printed: the size of step's optimised HLO (instructions)
and the slowest compilations `jax.log_compiles` reports. Target (issue #26): reset + step
under 10 s. Prints figures; asserts nothing.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r"""
import json, sys, time
import jax
jax.config.update("jax_enable_compilation_cache", False)
import engine
batch = int(sys.argv[1])
env = engine.make(maps="train", rosters=["MWHRP/MWHRP"])
key = jax.random.PRNGKey(0)
reset, step = env.reset, env.step
if batch:
    key = jax.random.split(key, batch)
    reset, step = jax.vmap(reset), jax.vmap(step)
figures = {}

def timed(name, thunk):
    wall, cpu = time.perf_counter(), time.process_time()
    result = thunk()
    figures[name + "_s"] = time.perf_counter() - wall
    figures[name + "_cpu_s"] = time.process_time() - cpu
    return result

lowered = timed("reset_trace", lambda: jax.jit(reset).lower(key))
compiled = timed("reset_compile", lowered.compile)
obs, state = compiled(key)
actions = jax.vmap(engine.random_legal_actions)(
    jax.random.split(jax.random.PRNGKey(1), max(batch, 1)), obs.mask if batch else
    jax.tree.map(lambda x: x[None], obs.mask))
if not batch:
    actions = jax.tree.map(lambda x: x[0], actions)
lowered = timed("step_trace", lambda: jax.jit(step).lower(key, state, actions))
compiled = timed("step_compile", lowered.compile)
text = compiled.as_text()
figures["step_hlo_instructions"] = sum(1 for line in text.splitlines() if " = " in line)
figures["step_hlo_kib"] = len(text) / 1024
print(json.dumps(figures))
"""


def one_run(batch: int, xla_flags: str | None = None) -> dict:
    """Figures of one fresh process (seconds, instruction counts); `xla_flags` replaces the
    XLA_FLAGS environment variable for it (None: inherited)."""
    env = dict(os.environ, JAX_PLATFORMS=os.environ.get("JAX_PLATFORMS", "cpu"))
    if xla_flags is not None:
        env["XLA_FLAGS"] = xla_flags
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(batch)], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"the compile worker failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="fresh processes to time")
    parser.add_argument("--batch", type=int, default=0, help="vmap over N games (0: one game)")
    args = parser.parse_args()
    runs = [one_run(args.batch) for _ in range(args.repeats)]
    for name in runs[0]:
        values = [r[name] for r in runs]
        print(f"{name:24s} median {statistics.median(values):9.2f}  all {values}")
    parts = ("reset_trace", "reset_compile", "step_trace", "step_compile")
    for label, suffix in (("wall", "_s"), ("CPU", "_cpu_s")):
        total = [sum(r[part + suffix] for part in parts) for r in runs]
        print(
            f"{'reset + step, ' + label + ' s':24s} median {statistics.median(total):9.2f}",
            f" all {[round(t, 2) for t in total]}",
        )
    print("target: reset + step under 10 s; CPU time (process_time) is the figure load moves least")


if __name__ == "__main__":
    main()
