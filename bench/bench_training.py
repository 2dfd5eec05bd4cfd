"""Training throughput of recurrent IPPO beside the bare engine rollout at the same batch.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_training.py [--envs 64] [--rollout 32]
        [--epochs 4] [--minibatches 4] [--self-play-only]

Bare rollout: `num_envs` games stepped with auto-reset for `rollout` ticks inside one jitted
`lax.scan`, every slot playing a uniformly random legal action. Learner: one full IPPO update
(the same rollout with the network acting and the configured opponents, then GAE and
epochs x minibatches of PPO). Both report env-steps per second (one env-step = one tick of one
game); the target is learner cost < 3x the bare rollout. Wall times, best of --repeats.
"""

import argparse
import dataclasses
import time

import jax

from policies.random_system import random_act
from training import ippo


def bare_rollout(config: ippo.IPPOConfig):
    env = ippo.make_env(config)
    b = config.num_envs

    def tick(carry, _):
        obs, state, key = carry
        key, k_act, k_env = jax.random.split(key, 3)
        keys = jax.random.split(k_act, b)
        actions = jax.vmap(lambda o, k: random_act(o, o.mask, (), k)[0])(obs, keys)
        obs, state, *_ = jax.vmap(env.step)(jax.random.split(k_env, b), state, actions)
        return (obs, state, key), None

    @jax.jit
    def run(carry):
        return jax.lax.scan(tick, carry, None, config.rollout)[0]

    obs, state = jax.vmap(env.reset)(jax.random.split(jax.random.PRNGKey(0), b))
    return run, (obs, state, jax.random.PRNGKey(1))


def timed(fn, state, repeats: int) -> tuple[float, float]:
    """(compile + first call seconds, best steady-state seconds)."""
    start = time.perf_counter()
    state = jax.block_until_ready(fn(state))
    first = time.perf_counter() - start
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        state = jax.block_until_ready(fn(state))
        best = min(best, time.perf_counter() - start)
    return first, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--rollout", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=ippo.IPPOConfig.epochs)
    parser.add_argument("--minibatches", type=int, default=ippo.IPPOConfig.minibatches)
    parser.add_argument("--self-play-only", action="store_true", help="no bot opponents")
    args = parser.parse_args()
    config = ippo.IPPOConfig(
        num_envs=args.envs, rollout=args.rollout, epochs=args.epochs, minibatches=args.minibatches
    )
    if args.self_play_only:
        config = dataclasses.replace(config, opponents=(("self", 1.0),))
    steps = config.steps_per_update

    run, carry = bare_rollout(config)
    bare_first, bare = timed(run, carry, args.repeats)
    trainer = ippo.make_train(config)
    runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
    update = jax.jit(lambda r: trainer.update(r)[0])
    learn_first, learn = timed(update, runner, args.repeats)

    print(f"batch: {config.num_envs} games x {config.rollout} ticks = {steps} env-steps")
    print(f"opponents: {config.opponents}; network: {config.network}")
    print(f"PPO: {config.epochs} epochs x {config.minibatches} minibatches")
    print(f"bare engine rollout: {steps / bare:8.0f} env-steps/s (compile {bare_first:.0f} s)")
    print(f"IPPO update:         {steps / learn:8.0f} env-steps/s (compile {learn_first:.0f} s)")
    print(f"learner cost / bare rollout: {learn / bare:.2f}x (target < 3x)")


if __name__ == "__main__":
    main()
