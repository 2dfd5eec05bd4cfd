"""Training throughput of recurrent IPPO beside the bare engine rollout at the same batch, with
the update split into its parts.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_training.py [--envs 64] [--rollout 32]
        [--epochs 4] [--minibatches 4] [--grad-chunk 16] [--embed 32 --torso 64 --hidden 64]
        [--self-play-only] [--repeats 3]

Bare rollout: `num_envs` games stepped with auto-reset for `rollout` ticks inside one jitted
`lax.scan`, every slot playing a uniformly random legal action. Learner: one full IPPO update
(the same rollout with the network acting and the configured opponents, then GAE and
epochs x minibatches of PPO). Both report env-steps per second (one env-step = one tick of one
game); the target is learner cost < 3x the bare rollout. Parts, each jitted alone on the same
batch: the learner's rollout (engine + policy + opponents), the policy's forward pass and
sampling over the rollout, the bot opponents over `rollout` ticks, GAE, and the PPO epochs
(GRU forward + backward). Wall times are the best of --repeats (the machine is shared).
"""

import argparse
import dataclasses
import time

import jax
import jax.numpy as jnp

from engine import constants as C
from policies import networks as nets
from policies.random_system import random_act
from training import common, ippo


def bare_rollout(config: ippo.IPPOConfig):
    """jitted run(carry) stepping num_envs games for `rollout` ticks with random actions."""
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


def policy_pass(trainer: ippo.Trainer):
    """jitted act(params, hidden0, batch): the rollout's network forward pass and sampling
    over the stored learner observations, without the engine."""

    def act(params, hidden0, batch):
        def step(carry, x):
            hidden, key = carry
            obs, reset = x
            key, k_act = jax.random.split(key)
            hidden, heads = trainer.network.apply(params, hidden, obs, reset)
            move, pair = nets.sample_actions(k_act, heads, obs)
            return (hidden, key), nets.joint_log_prob(heads, move, pair)

        start = (hidden0, jax.random.PRNGKey(0))
        return jax.lax.scan(step, start, (batch.obs, batch.reset))[1]

    return jax.jit(act)


def opponents_pass(trainer: ippo.Trainer):
    """jitted bots(runner): the bot opponents' choices for `rollout` ticks on the current
    observations (their carries evolve), without the engine or the network."""
    systems = common.opponent_systems(trainer.groups)
    noop = jnp.zeros((trainer.config.num_envs, C.NUM_SLOTS), jnp.int32)

    def bots(runner):
        def step(carry, key):
            joint = nets.to_actions(noop, noop)
            joint, carry = common.opponent_actions(
                trainer.groups, systems, runner.obs, joint, carry, runner.reset, key
            )
            return carry, joint.move.sum()

        keys = jax.random.split(jax.random.PRNGKey(0), trainer.config.rollout)
        return jax.lax.scan(step, runner.opponents, keys)[1]

    return jax.jit(bots)


def timed(fn, *args, repeats: int) -> tuple[float, float]:
    """(compile + first call seconds, best call seconds over `repeats`)."""
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    first = time.perf_counter() - start
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        best = min(best, time.perf_counter() - start)
    return first, best


def measure(config: ippo.IPPOConfig, repeats: int):
    """Yield (part, compile + first call seconds, best seconds): the bare rollout, then each
    part of one update, then the whole update in one jit."""
    run, carry = bare_rollout(config)
    yield "bare rollout (random actions)", *timed(run, carry, repeats=repeats)
    trainer = ippo.make_train(config)
    runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
    collect = jax.jit(trainer.collect)
    yield "learner rollout + GAE", *timed(collect, runner, repeats=repeats)
    after, batch, hidden0, _ = collect(runner)
    act = policy_pass(trainer)
    yield "  policy forward + sampling", *timed(act, runner.params, hidden0, batch, repeats=repeats)
    if any(g.kind != "self" for g in trainer.groups):
        yield "  bot opponents", *timed(opponents_pass(trainer), runner, repeats=repeats)
    gae = jax.jit(lambda b: ippo.gae(b.ret, b.value, b.reset, b.value[0], 0.99, 0.95))
    yield "  GAE", *timed(gae, batch, repeats=repeats)
    learn = jax.jit(trainer.learn)
    yield "PPO epochs (GRU fwd + bwd)", *timed(learn, after, batch, hidden0, repeats=repeats)
    update = jax.jit(lambda r: trainer.update(r)[0])
    yield "whole update (one jit)", *timed(update, runner, repeats=repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=ippo.IPPOConfig.num_envs)
    parser.add_argument("--rollout", type=int, default=ippo.IPPOConfig.rollout)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=ippo.IPPOConfig.epochs)
    parser.add_argument("--minibatches", type=int, default=ippo.IPPOConfig.minibatches)
    parser.add_argument("--grad-chunk", type=int, default=ippo.IPPOConfig.grad_chunk)
    for size in ("embed", "torso", "hidden"):
        parser.add_argument(f"--{size}", type=int, default=getattr(ippo.IPPOConfig, size))
    parser.add_argument("--self-play-only", action="store_true", help="no bot opponents")
    args = parser.parse_args()
    config = ippo.IPPOConfig(
        num_envs=args.envs,
        rollout=args.rollout,
        epochs=args.epochs,
        minibatches=args.minibatches,
        grad_chunk=args.grad_chunk,
        embed=args.embed,
        torso=args.torso,
        hidden=args.hidden,
    )
    if args.self_play_only:
        config = dataclasses.replace(config, opponents=(("self", 1.0),))
    steps = config.steps_per_update
    print(f"batch: {config.num_envs} games x {config.rollout} ticks = {steps} env-steps")
    print(f"opponents: {config.opponents}; network: {config.network}")
    print(f"PPO: {config.epochs} epochs x {config.minibatches} minibatches, gradient chunks of "
          f"<= {config.grad_chunk} of {config.num_learners} learner sequences")  # fmt: skip
    bare = None
    for name, first, best in measure(config, args.repeats):
        bare = bare or best
        print(
            f"{name:30s} {best * 1e3:7.0f} ms {steps / best:7.0f} env-steps/s "
            f"{best / bare:5.2f}x bare (compile {first:.0f} s)",
            flush=True,
        )
    print(f"learner cost / bare rollout: {best / bare:.2f}x (target < 3x)")


if __name__ == "__main__":
    main()
