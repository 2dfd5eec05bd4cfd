"""JaxMARL SMAX rollout throughput, printed as one JSON object (run in JaxMARL's own venv).

Used by `mbg bench engine` to put our engine beside SMAX 5v5 (`smacv2_5_units`) at the same
batch, the same rollout length and the same device layout on the same machine:

    python bench/smax_rollout.py --batches 1 128 1024 --ticks 128 --devices 1
    python bench/smax_rollout.py --serve --batches 1 128 1024 --ticks 128 --devices 2

With --serve it compiles every batch, then stays up as a worker answering timing requests on
stdin (`evaluation.interleaved.serve`), so `mbg bench engine` can alternate it with our engine.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batches", type=int, nargs="+", default=[1024])
    parser.add_argument("--ticks", type=int, default=128)
    parser.add_argument("--devices", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help="stay up as a timing worker")
    parser.add_argument(
        "--observations", action="store_true", help="read every observation, as a learner does"
    )
    return parser.parse_args()


def make_rollout(env, ticks: int, observations: bool):
    """`rollout(keys) -> (games ended, sum of observations read)`: `ticks` random legal ticks of
    a batch of SMAX games, one game a key."""
    import jax
    import jax.numpy as jnp

    from engine.sampling import pick_legal

    agents = env.agents

    def random_actions(key, state):
        # The same sampler as our engine's benchmark, so both pay the same for random actions.
        avail = env.get_avail_actions(state)
        legal = jnp.stack([avail[a] > 0 for a in agents])
        picks = pick_legal(jax.random.uniform(key, (len(agents),)), legal)
        return {a: picks[i] for i, a in enumerate(agents)}

    def read(obs):
        # as our engine's worker does (evaluation.engine_bench._rollout_fn): every leaf read
        return sum(jnp.sum(leaf.astype(jnp.float32)) for leaf in jax.tree.leaves(obs))

    def rollout(keys):
        obs, state = jax.vmap(env.reset)(keys)

        def tick(carry, key):
            obs, state, total, seen = carry
            if observations:  # at the next tick, as a learner's network reads them
                seen = seen + read(obs)
            k_act, k_step = jax.random.split(key)
            batch = keys.shape[0]
            acts = jax.vmap(random_actions)(jax.random.split(k_act, batch), state)
            obs, state, _, dones, _ = jax.vmap(env.step)(
                jax.random.split(k_step, batch), state, acts
            )
            kept = obs if observations else None  # else not carried: the loop as before
            return (kept, state, total + dones["__all__"].sum(), seen), None

        carry = (obs if observations else None, state, jnp.int32(0), jnp.float32(0))
        (obs, state, total, seen), _ = jax.lax.scan(tick, carry, jax.random.split(keys[0], ticks))
        return total, seen + (read(obs) if observations else 0)

    return rollout


def compile_batches(rollout, batches, devices: int) -> tuple[dict, dict]:
    """Compile `rollout` for each batch size, keys sharded over `devices` where the batch
    divides: (batch -> a call that runs it to the end, batch -> {"compile_s": seconds})."""
    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(jax.devices()[:devices], ("batch",))
    results, programs = {}, {}
    for batch in batches:
        keys = jax.random.split(jax.random.PRNGKey(0), batch)
        sharding = NamedSharding(mesh, PartitionSpec("batch" if batch % devices == 0 else None))
        keys = jax.device_put(keys, sharding)
        run = jax.jit(rollout)
        start = time.perf_counter()
        jax.block_until_ready(run(keys))
        compile_s = time.perf_counter() - start
        programs[str(batch)] = lambda run=run, keys=keys: jax.block_until_ready(run(keys))
        results[str(batch)] = {"compile_s": compile_s}
    return programs, results


def main() -> None:
    args = parse_args()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={args.devices}"

    import jax
    import jaxmarl
    from jaxmarl.environments.smax import map_name_to_scenario

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from evaluation import interleaved

    env = jaxmarl.make("SMAX", scenario=map_name_to_scenario("smacv2_5_units"))
    rollout = make_rollout(env, args.ticks, args.observations)
    programs, results = compile_batches(rollout, args.batches, args.devices)
    engine = "jaxmarl-smax-smacv2_5_units"
    if args.serve:
        compile_s = {b: row["compile_s"] for b, row in results.items()}
        interleaved.serve(programs, {"engine": engine, "compile_s": compile_s})
        return
    for batch in args.batches:
        best = min(interleaved.time_calls(programs[str(batch)], 1) for _ in range(args.repeats))
        results[str(batch)]["steps_per_s"] = batch * args.ticks / best
    print(json.dumps({"engine": engine, "jax": jax.__version__, **results}))


if __name__ == "__main__":
    main()
