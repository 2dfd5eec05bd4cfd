"""What the JaxMARL-style adapter costs over the engine's own API (issue 25: target < 10%).

    python bench/bench_adapters.py [--games 1024] [--ticks 32] [--rounds 5] [--json]

Both sides play the same random legal games (one flat index a slot from the flat mask, the
engine benchmark's sampler), `lax.scan` over ticks, vmapped over games, and read every number
of their observations (a sum per game), so neither program can drop the observation it would
hand a learner. The core side reads `Obs` and `mask.flat`; the adapter side its dicts of flat
(680,) vectors, stacked into one batch, and `get_avail_actions`. Each side reads either right
after the step or at the start of the next tick (the observation carried over, as a learner
acts on it); XLA lays the two programs out differently. All four are timed in turn, round
after round, in one process, and the ratio of the medians is reported for each reading.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import adapters  # noqa: E402
from adapters import arrays  # noqa: E402
from engine.sampling import pick_legal  # noqa: E402


def batchify(tree: dict, agents) -> jax.Array:
    return jnp.stack([tree[a] for a in agents])


def _draw(key, avail):
    return pick_legal(jax.random.uniform(key, (avail.shape[0],)), avail)


def _core_reads(obs) -> jax.Array:
    leaves = [obs.units, obs.visible, obs.relayed, obs.public, obs.obstacles]
    leaves += [obs.context, obs.prev_action, obs.class_id, obs.self_index, obs.mask.flat]
    return sum(jnp.sum(x.astype(jnp.float32)) for x in leaves)


def core_rollout(env, ticks: int, carried: bool):
    """Engine API: Obs and Masks, `env.core.step` with Actions. carried: the observation is read
    at the start of the next tick (as a learner acts on it), else right after the step."""
    core = env.core

    def game(key):
        def tick(carry, k):
            obs, state, seen = carry
            seen += _core_reads(obs) if carried else 0.0
            k_act, k_step = jax.random.split(k)
            actions = arrays.to_actions(_draw(k_act, obs.mask.flat), "flat")
            obs, state, reward, done, _ = core.step(k_step, state, actions)
            seen += 0.0 if carried else _core_reads(obs)
            return (obs, state, seen + reward.sum() + done), None

        obs, state = core.reset(key)
        carry = (obs, state, jnp.float32(0))
        return jax.lax.scan(tick, carry, jax.random.split(key, ticks))[0][2]

    return jax.jit(jax.vmap(game))


def adapter_rollout(env, ticks: int, carried: bool):
    """Adapter API: dicts keyed by agent name, `get_avail_actions`, `env.step` with a dict;
    the agents' vectors are stacked into one batch, as a JaxMARL learner does."""

    def game(key):
        def tick(carry, k):
            obs, state, seen = carry
            avail = batchify(env.get_avail_actions(state), env.agents)
            seen += jnp.sum(avail) + (jnp.sum(batchify(obs, env.agents)) if carried else 0.0)
            k_act, k_step = jax.random.split(k)
            flat = _draw(k_act, avail)
            actions = {a: flat[i] for i, a in enumerate(env.agents)}
            obs, state, rewards, dones, _ = env.step(k_step, state, actions)
            seen += 0.0 if carried else jnp.sum(batchify(obs, env.agents))
            seen += jnp.sum(batchify(rewards, env.agents)) + dones["__all__"]
            return (obs, state, seen), None

        obs, state = env.reset(key)
        carry = (obs, state, jnp.float32(0))
        return jax.lax.scan(tick, carry, jax.random.split(key, ticks))[0][2]

    return jax.jit(jax.vmap(game))


def _time(fn, keys) -> float:
    start = time.perf_counter()
    jax.block_until_ready(fn(keys))
    return time.perf_counter() - start


def run(games: int, ticks: int, rounds: int) -> dict:
    """Compile the four rollouts (core and adapter, observation read after the step or carried
    to the next tick), then time them in turn `rounds` times: env-steps/s and overheads."""
    env = adapters.make("TeamDeathmatch", maps="train", rosters=["MWHRP/MWHRP"])
    keys = jax.random.split(jax.random.PRNGKey(0), games)
    sides = {}
    for read in ("after_step", "carried"):
        sides[f"core_{read}"] = core_rollout(env, ticks, read == "carried")
        sides[f"adapter_{read}"] = adapter_rollout(env, ticks, read == "carried")
    compile_s = {name: _time(fn, keys) for name, fn in sides.items()}
    seconds = {name: [] for name in sides}
    for _ in range(rounds):
        for name, fn in sides.items():
            seconds[name].append(_time(fn, keys))
    median = {name: statistics.median(s) for name, s in seconds.items()}
    overhead = {
        read: median[f"adapter_{read}"] / median[f"core_{read}"] - 1.0
        for read in ("after_step", "carried")
    }
    return {
        "jax": jax.__version__,
        "devices": jax.device_count(),
        "games": games,
        "ticks": ticks,
        "rounds": rounds,
        "compile_s": compile_s,
        "seconds": seconds,
        "steps_per_s": {name: games * ticks / m for name, m in median.items()},
        "overhead": overhead,
    }


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--ticks", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.games, args.ticks, args.rounds)
    if args.json:
        print(json.dumps(figures, indent=2))
        return figures
    print(f"jax {figures['jax']}, {figures['devices']} device(s), {args.games} games x "
          f"{args.ticks} ticks, {args.rounds} alternating rounds")  # fmt: skip
    for name, seconds in figures["seconds"].items():
        times = ", ".join(f"{s:.2f}" for s in seconds)
        print(f"  {name:>18}: {figures['steps_per_s'][name]:>9,.0f} env-steps/s  ({times} s)")
    for read, value in figures["overhead"].items():
        print(f"adapter overhead, observation read {read}: {100 * value:+.1f}% (target < 10%)")
    return figures


if __name__ == "__main__":
    main()
