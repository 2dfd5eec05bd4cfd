"""Engine throughput, latency, compile time and memory (`mbg bench engine`).

Rollouts are `lax.scan` over ticks of random legal actions, vmapped over games and sharded over
the host's CPU devices (XLA gives each device its own thread, so sharding is how one process
uses both cores). JaxMARL's SMAX 5v5 runs through `bench/smax_rollout.py` in its own virtual
environment at the same batch, ticks and device count, so the ratio comes from one run.
"""

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMAX_SCRIPT = REPO / "bench" / "smax_rollout.py"
DEFAULT_SMAX_PYTHON = REPO / ".venv-smax" / "bin" / "python"


def set_host_devices(count: int) -> None:
    """Ask XLA for `count` CPU devices; must run before JAX creates its CPU backend."""
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={count}".strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def _rollout_fn(env, ticks: int):
    import jax

    from engine.sampling import random_legal_actions

    def rollout(keys):
        obs, state = jax.vmap(env.reset)(keys)

        def tick(carry, key):
            obs, state, done_count = carry
            k_act, k_step = jax.random.split(key)
            batch = keys.shape[0]
            actions = jax.vmap(random_legal_actions)(jax.random.split(k_act, batch), obs.mask)
            obs, state, _, done, _ = jax.vmap(env.step)(
                jax.random.split(k_step, batch), state, actions
            )
            return (obs, state, done_count + done.sum()), None

        carry = (obs, state, jax.numpy.int32(0))
        (obs, state, done_count), _ = jax.lax.scan(tick, carry, jax.random.split(keys[0], ticks))
        return done_count + state.tick.sum()

    return rollout


def rollout_throughput(env, batch: int, ticks: int, devices: int, repeats: int = 3) -> dict:
    """Env-steps/s (games x ticks / s) of a sharded random rollout, and its compile time."""
    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(jax.devices()[:devices], ("batch",))
    spec = PartitionSpec("batch" if batch % devices == 0 else None)
    keys = jax.device_put(jax.random.split(jax.random.PRNGKey(0), batch), NamedSharding(mesh, spec))
    run = jax.jit(_rollout_fn(env, ticks))
    start = time.perf_counter()
    jax.block_until_ready(run(keys))
    compile_s = time.perf_counter() - start
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(run(keys))
        best = min(best, time.perf_counter() - start)
    return {"steps_per_s": batch * ticks / best, "compile_s": compile_s}


def step_latency(env, ticks: int = 200) -> dict:
    """Compile time of reset + step and microseconds per jitted step from a Python loop."""
    import jax

    from engine.sampling import random_legal_actions

    reset, step = jax.jit(env.reset), jax.jit(env.step)
    key = jax.random.PRNGKey(0)
    start = time.perf_counter()
    obs, state = reset(key)
    actions = jax.jit(random_legal_actions)(key, obs.mask)
    jax.block_until_ready(step(key, state, actions))
    compile_s = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(ticks):
        obs, state, _, _, _ = step(key, state, actions)
    jax.block_until_ready(state)
    return {"compile_s": compile_s, "us_per_step": (time.perf_counter() - start) / ticks * 1e6}


def smax_throughput(python: Path, batches, ticks: int, devices: int) -> dict | None:
    """Run bench/smax_rollout.py with JaxMARL's interpreter; None when it is not installed."""
    if not Path(python).exists():
        return None
    command = [str(python), str(SMAX_SCRIPT), "--batches", *map(str, batches)]
    command += ["--ticks", str(ticks), "--devices", str(devices)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return {"error": f"SMAX run failed (exit {done.returncode}): {' | '.join(tail)}"}
    return json.loads(lines[-1])


def run_engine_bench(batches, ticks: int, devices: int, smax_python: Path | None) -> dict:
    """All engine figures as one dict (see `mbg bench engine --help`)."""
    import jax

    jax.config.update("jax_enable_compilation_cache", False)  # measure real compile time
    from engine import Config, Env, maps

    pool = maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",))
    figures = {
        "jax": jax.__version__,
        "devices": devices,
        "ticks": ticks,
        "batch_1_step": step_latency(Env(Config(), pool)),
        "rollout": {},
    }
    fast = Env(Config(), pool, keep_last_obs=False)
    for batch in batches:
        figures["rollout"][str(batch)] = rollout_throughput(fast, batch, ticks, devices)
    figures["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if smax_python is not None:
        smax = smax_throughput(smax_python, batches, ticks, devices)
        figures["smax"] = smax
        if smax and "error" not in smax:
            figures["ratio_vs_smax"] = {
                str(b): figures["rollout"][str(b)]["steps_per_s"] / smax[str(b)]["steps_per_s"]
                for b in batches
            }
    return figures


def print_table(figures: dict, out=sys.stdout) -> None:
    """Human-readable summary of `run_engine_bench` output."""
    single = figures["batch_1_step"]
    print(f"jax {figures['jax']}, {figures['devices']} CPU device(s)", file=out)
    print(f"first compile of reset + step: {single['compile_s']:.1f} s", file=out)
    print(f"one jitted step from a Python loop: {single['us_per_step']:.0f} us", file=out)
    print(f"rollouts of {figures['ticks']} ticks of random legal actions:", file=out)
    for batch, row in figures["rollout"].items():
        line = f"  batch {batch:>5}: {row['steps_per_s']:>10,.0f} env-steps/s"
        smax = (figures.get("smax") or {}).get(batch)
        if smax:
            ratio = figures["ratio_vs_smax"][batch]
            line += f"   SMAX 5v5 {smax['steps_per_s']:>10,.0f}   ratio {ratio:.2f}x"
        print(line, file=out)
    if (figures.get("smax") or {}).get("error"):
        print(f"SMAX: {figures['smax']['error']}", file=out)
    elif "smax" not in figures or figures["smax"] is None:
        print("SMAX: not installed (make bench-smax-venv installs JaxMARL beside us)", file=out)
    print(f"peak memory: {figures['peak_rss_mib']:.0f} MiB", file=out)
