"""Engine throughput, latency, compile time and memory (`mbg bench engine`).

Rollouts are `lax.scan` over ticks of random legal actions, vmapped over games and sharded over
the host's CPU devices (XLA gives each device its own thread, so sharding is how one process
uses both cores). Our rollouts run in a worker process (`python -m evaluation.engine_bench
--serve`) and JaxMARL's SMAX 5v5 in another (`bench/smax_rollout.py --serve`, in its own virtual
environment) at the same batch, ticks and device count; both compile once and stay warm, and
the driver times them in alternating short rounds, so the ratio is the median of per-round
ratios taken under the same load (`evaluation.interleaved`).
"""

import os
import statistics
import sys
import time
from pathlib import Path

from evaluation import interleaved

REPO = Path(__file__).resolve().parent.parent
SMAX_SCRIPT = REPO / "bench" / "smax_rollout.py"
DEFAULT_SMAX_PYTHON = REPO / ".venv-smax" / "bin" / "python"


def set_host_devices(count: int) -> None:
    """Ask XLA for `count` CPU devices; must run before JAX creates its CPU backend. More
    devices than CPU cores still run (XLA gives each a thread), with a note on stderr: the
    extra devices share cores, so they split the work without adding speed."""
    cores = os.cpu_count() or 1
    if count > cores:
        print(
            f"mbg: note: --devices {count} is more than this machine's {cores} CPU cores; "
            "the devices share the cores and add no speed",
            file=sys.stderr,
        )
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={count}".strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def _rollout_fn(env, ticks: int, observations: bool = False):
    """The rollout `mbg bench engine` times: `ticks` ticks of random legal actions (the
    sampler reads the legal-action mask). observations=True also reads every other leaf of
    each tick's observation at the start of the next tick, as a learner's network does; without
    it XLA drops what nothing reads (the unit rows, the obstacle tables), as it drops SMAX's."""
    import jax
    import jax.numpy as jnp

    from engine.sampling import random_legal_actions

    def read(obs):
        return sum(jnp.sum(leaf.astype(jnp.float32)) for leaf in jax.tree.leaves(obs))

    def rollout(keys):
        obs, state = jax.vmap(env.reset)(keys)

        def tick(carry, key):
            obs, state, done_count, seen = carry
            if observations:  # read here, not after the step: XLA would fuse it into observe
                seen = seen + read(obs.replace(mask=None))
            k_act, k_step = jax.random.split(key)
            batch = keys.shape[0]
            actions = jax.vmap(random_legal_actions)(jax.random.split(k_act, batch), obs.mask)
            obs, state, _, done, _ = jax.vmap(env.step)(
                jax.random.split(k_step, batch), state, actions
            )
            return (obs, state, done_count + done.sum(), seen), None

        carry = (obs, state, jnp.int32(0), jnp.float32(0))
        (obs, state, done_count, seen), _ = jax.lax.scan(
            tick, carry, jax.random.split(keys[0], ticks)
        )
        if observations:
            seen = seen + read(obs.replace(mask=None))
        return done_count + state.tick.sum(), seen

    return rollout


def rollout_program(env, batch: int, ticks: int, devices: int, observations: bool = False):
    """A warm sharded rollout of `batch` games x `ticks` (`_rollout_fn`): (run() blocking,
    compile seconds)."""
    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(jax.devices()[:devices], ("batch",))
    spec = PartitionSpec("batch" if batch % devices == 0 else None)
    keys = jax.device_put(jax.random.split(jax.random.PRNGKey(0), batch), NamedSharding(mesh, spec))
    compiled = jax.jit(_rollout_fn(env, ticks, observations))
    start = time.perf_counter()
    jax.block_until_ready(compiled(keys))
    compile_s = time.perf_counter() - start
    return (lambda: jax.block_until_ready(compiled(keys))), compile_s


def rollout_throughput(env, batch: int, ticks: int, devices: int, repeats: int = 3) -> dict:
    """Env-steps/s (games x ticks / s, best of `repeats`) of a sharded random rollout, and its
    compile time, in this process (no interleaving: see `run_engine_bench` for ratios)."""
    run, compile_s = rollout_program(env, batch, ticks, devices)
    best = min(interleaved.time_calls(run, 1) for _ in range(repeats))
    return {"steps_per_s": batch * ticks / best, "compile_s": compile_s}


def step_latency(env, ticks: int = 200, rounds: int = 5) -> dict:
    """Compile time of reset + step, and microseconds per step of one game from a Python loop
    by `jax.jit(env.step)` (92 leaves out, "us_per_step") and by `engine.host.HostStepper`
    (the same results, the non-state outputs packed, "host_stepper_us"), timed in `rounds`
    alternating rounds of `ticks` steps each (medians), with the load average."""
    import jax

    from engine.host import HostStepper
    from engine.sampling import random_legal_actions

    reset, step = jax.jit(env.reset), jax.jit(env.step)
    key = jax.random.PRNGKey(0)
    start = time.perf_counter()
    obs, state = reset(key)
    actions = jax.jit(random_legal_actions)(key, obs.mask)
    jax.block_until_ready(step(key, state, actions))
    compile_s = time.perf_counter() - start
    stepper = HostStepper(env)
    stepper.reset(key)
    jax.block_until_ready(stepper.step(key, actions)._device)

    def plain():
        current = state
        for _ in range(ticks):
            _, current, _, _, _ = step(key, current, actions)
        jax.block_until_ready(current)

    def packed():
        for _ in range(ticks):
            stepper.step(key, actions)
        jax.block_until_ready(stepper.state)

    load = os.getloadavg()[0]
    seconds = interleaved.interleave(
        {
            "plain": lambda: interleaved.time_calls(plain, 1),
            "host": lambda: interleaved.time_calls(packed, 1),
        },
        rounds,
    )
    return {
        "compile_s": compile_s,
        "us_per_step": statistics.median(seconds["plain"]) / ticks * 1e6,
        "host_stepper_us": statistics.median(seconds["host"]) / ticks * 1e6,
        "ratio": interleaved.ratio_summary(seconds["plain"], seconds["host"]),
        "load_average": (load + os.getloadavg()[0]) / 2,
    }


def _worker_env(devices: int) -> dict:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    count = "--xla_force_host_platform_device_count="
    flags = [f for f in env.get("XLA_FLAGS", "").split() if not f.startswith(count)]
    env["XLA_FLAGS"] = " ".join([*flags, f"{count}{devices}"])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _worker_args(batches, ticks: int, devices: int, observations: bool = False) -> list[str]:
    args = ["--batches", *map(str, batches), "--ticks", str(ticks), "--devices", str(devices)]
    return [*args, "--observations"] if observations else args


def start_workers(
    batches, ticks: int, devices: int, smax_python: Path | None, observations: bool = False
) -> dict:
    """Our engine's worker and, when `smax_python` exists, SMAX's: name -> PipeWorker (warm);
    observations: both read every tick's observations (`_rollout_fn`)."""
    args = _worker_args(batches, ticks, devices, observations)
    env = _worker_env(devices)
    ours = [sys.executable, "-m", "evaluation.engine_bench", "--serve", *args]
    workers = {"ours": interleaved.PipeWorker(ours, "engine", env)}
    if smax_python is not None and Path(smax_python).exists():
        smax = [str(smax_python), str(SMAX_SCRIPT), "--serve", *args]
        try:
            workers["smax"] = interleaved.PipeWorker(smax, "SMAX", env)
        except RuntimeError:
            workers["ours"].close()
            raise
    return workers


def interleaved_rollouts(workers: dict, batches, ticks: int, rounds: int) -> dict:
    """Alternate the workers' rollouts for `rounds` rounds: per engine and batch the median
    env-steps/s, the compile time and the peak memory; `ratio_vs_smax` per batch."""
    programs = {
        (name, str(b)): (lambda w=worker, b=b: w.seconds(str(b)))
        for b in batches
        for name, worker in workers.items()
    }
    seconds = interleaved.interleave(programs, rounds)
    figures = {"rounds": rounds}
    for name, worker in workers.items():
        rows = {}
        for b in batches:
            per_round = seconds[name, str(b)]
            rows[str(b)] = {
                "steps_per_s": b * ticks / statistics.median(per_round),
                "compile_s": worker.info["compile_s"][str(b)],
                "seconds": per_round,
            }
        figures[name] = rows
        figures[f"{name}_peak_rss_mib"] = worker.request(str(batches[-1]))["peak_rss_mib"]
    if "smax" in workers:
        figures["ratio_vs_smax"] = {
            str(b): interleaved.ratio_summary(seconds["smax", str(b)], seconds["ours", str(b)])
            for b in batches
        }
    return figures


def run_engine_bench(
    batches,
    ticks: int,
    devices: int,
    smax_python: Path | None,
    rounds: int = 7,
    observations: bool = False,
) -> dict:
    """All engine figures as one dict (see `mbg bench engine --help`).

    The one-step latency and first compile are measured here; the rollouts in warm worker
    processes (ours and SMAX's), timed in alternating rounds (`evaluation.interleaved`).
    """
    import jax

    jax.config.update("jax_enable_compilation_cache", False)  # measure real compile time
    from engine import Config, Env, maps

    pool = maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",))
    figures = {
        "jax": jax.__version__,
        "devices": devices,
        "ticks": ticks,
        "observations_read": observations,
        "batch_1_step": step_latency(Env(Config(), pool)),
    }
    workers = start_workers(batches, ticks, devices, smax_python, observations)
    try:
        measured = interleaved_rollouts(workers, batches, ticks, rounds)
    finally:
        for worker in workers.values():
            worker.close()
    figures["rounds"] = rounds
    figures["rollout"] = measured["ours"]
    figures["peak_rss_mib"] = measured["ours_peak_rss_mib"]
    if "smax" in measured:
        figures["smax"] = measured["smax"]
        figures["ratio_vs_smax"] = measured["ratio_vs_smax"]
    elif smax_python is not None:
        figures["smax"] = None
    return figures


def serve_rollouts(batches, ticks: int, devices: int, observations: bool = False) -> None:
    """Worker side: compile our rollout at each batch, then answer `interleaved` requests."""
    import jax

    jax.config.update("jax_enable_compilation_cache", False)
    from engine import Config, Env, maps

    pool = maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",))
    fast = Env(Config(), pool, keep_last_obs=False)
    programs, compile_s = {}, {}
    for batch in batches:
        programs[str(batch)], compile_s[str(batch)] = rollout_program(
            fast, batch, ticks, devices, observations
        )
    interleaved.serve(programs, {"engine": "marl-battlegrounds", "compile_s": compile_s})


def print_table(figures: dict, out=sys.stdout) -> None:
    """Human-readable summary of `run_engine_bench` output."""
    single = figures["batch_1_step"]
    print(f"jax {figures['jax']}, {figures['devices']} CPU device(s)", file=out)
    print(f"first compile of reset + step: {single['compile_s']:.1f} s", file=out)
    verdict = "met" if single["host_stepper_us"] < 300 else "not met"
    print(
        f"one jitted step from a Python loop: {single['host_stepper_us']:.0f} us with "
        f"engine.host.HostStepper, {single['us_per_step']:.0f} us with jax.jit(env.step) "
        f"(ratio {interleaved.describe(single['ratio'])}, load average "
        f"{single['load_average']:.1f}; target < 300 us {verdict})",
        file=out,
    )
    print(
        f"rollouts of {figures['ticks']} ticks of random legal actions"
        f"{', every observation read' if figures.get('observations_read') else ''}, median of "
        f"{figures['rounds']} alternating rounds:",
        file=out,
    )
    for batch, row in figures["rollout"].items():
        line = f"  batch {batch:>5}: {row['steps_per_s']:>10,.0f} env-steps/s"
        smax = (figures.get("smax") or {}).get(batch)
        if smax:
            ratio = interleaved.describe(figures["ratio_vs_smax"][batch])
            line += f"   SMAX 5v5 {smax['steps_per_s']:>10,.0f}   ratio {ratio}"
        print(line, file=out)
    if "smax" not in figures:
        print("SMAX: skipped (--no-smax)", file=out)
    elif figures["smax"] is None:
        print("SMAX: not installed (make bench-smax-venv installs JaxMARL beside us)", file=out)
    print(
        f"peak memory of the engine's rollout worker: {figures['peak_rss_mib']:.0f} MiB", file=out
    )


def main(argv=None) -> None:
    """`python -m evaluation.engine_bench --serve ...`: the rollout worker process."""
    import argparse

    parser = argparse.ArgumentParser(description="engine rollout worker for mbg bench engine")
    parser.add_argument("--serve", action="store_true", required=True)
    parser.add_argument("--batches", type=int, nargs="+", required=True)
    parser.add_argument("--ticks", type=int, default=128)
    parser.add_argument("--devices", type=int, default=1)
    parser.add_argument("--observations", action="store_true")
    args = parser.parse_args(argv)
    serve_rollouts(args.batches, args.ticks, args.devices, args.observations)


if __name__ == "__main__":
    main()
