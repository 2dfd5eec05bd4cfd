"""Training throughput of recurrent IPPO beside the bare engine rollout at the same batch, with
the update split into its parts.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_training.py [--envs 64] [--rollout 32]
        [--epochs 4] [--minibatches 4] [--grad-chunk 16] [--embed 32 --torso 64 --hidden 64]
        [--self-play-only] [--pool-vs-mixed] [--repeats 3]

Bare rollout: the engine's own rollout (`mbg bench engine`'s): `num_envs` games stepped with
auto-reset for `rollout` ticks inside one jitted `lax.scan`, every slot playing a uniformly random
legal value of each head (evaluation.engine_bench.random_legal_actions; the Gumbel sampler of the
`random` System costs twice the engine step, which made an earlier version of this bench report a
bare rollout 3x too slow). Learner: one full IPPO update
(the same rollout with the network acting and the configured opponents, then GAE and
epochs x minibatches of PPO). Both report env-steps per second (one env-step = one tick of one
game); the target is learner cost < 3x the bare rollout. Parts, each jitted alone on the same
batch: the learner's rollout (engine + policy + opponents), the policy's forward pass and
sampling over the rollout, the bot opponents over `rollout` ticks, GAE, and the PPO epochs
(GRU forward + backward). --pool-vs-mixed instead times one update with today's opponent mix
beside the same mix with the ghost pool (training.selfplay) in place of self-play. Wall times
are the best of --repeats (the machine is shared).

Arithmetic: XLA's cost analysis of one forward pass gives the network's FLOPs per agent-tick;
the PPO epochs cost about 3x that per replayed agent-tick (the backward pass about twice the
forward, the usual estimate). The last lines print the FLOP rate the epochs achieved and the rate
they would need for the whole learner to cost < 3x the bare rollout.
"""

import argparse
import dataclasses
import time

import jax
import jax.numpy as jnp

from engine import constants as C
from evaluation.engine_bench import random_legal_actions
from policies import networks as nets
from training import common, ippo

ROLLOUT, PPO = "learner rollout + GAE", "PPO epochs (GRU fwd + bwd)"


def bare_rollout(config: ippo.IPPOConfig):
    """jitted run(carry) stepping num_envs games for `rollout` ticks with random actions."""
    env = ippo.make_env(config)
    b = config.num_envs

    def tick(carry, _):
        obs, state, key = carry
        key, k_act, k_env = jax.random.split(key, 3)
        keys = jax.random.split(k_act, b)
        actions = jax.vmap(random_legal_actions)(keys, obs.mask)
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
    yield ROLLOUT, *timed(collect, runner, repeats=repeats)
    after, batch, hidden0, _ = collect(runner)
    act = policy_pass(trainer)
    yield "  policy forward + sampling", *timed(act, runner.params, hidden0, batch, repeats=repeats)
    if any(g.kind != "self" for g in trainer.groups):
        yield "  bot opponents", *timed(opponents_pass(trainer), runner, repeats=repeats)
    gae = jax.jit(lambda b: ippo.gae(b.ret, b.value, b.reset, b.value[0], 0.99, 0.95))
    yield "  GAE", *timed(gae, batch, repeats=repeats)
    learn = jax.jit(trainer.learn)
    yield PPO, *timed(learn, after, batch, hidden0, repeats=repeats)
    update = jax.jit(lambda r: trainer.update(r)[0])
    yield "whole update (one jit)", *timed(update, runner, repeats=repeats)


MIXED = (("self", 0.5), ("scripted:brawler", 0.25), ("random", 0.25))
POOLED = (("pool", 0.5), ("scripted:brawler", 0.25), ("random", 0.25))


def pool_versus_mixed(config: ippo.IPPOConfig, repeats: int) -> None:
    """Print one whole update with today's mix (half the games self-play) beside the same mix
    with the ghost pool in place of self-play (training.selfplay), and the ratio.

    The pool's ghosts do not learn, so a pooled update replays fewer agent sequences in its
    PPO epochs (Team A only in those games) while its rollout runs one network per game's
    opponent parameters; the learner sequences of each are printed beside the times."""
    rows = {}
    for name, mix in (("mixed", MIXED), ("pool", POOLED)):
        pooled = dataclasses.replace(config, opponents=mix)
        trainer = ippo.make_train(pooled)
        runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
        update = timed(jax.jit(lambda r, t=trainer: t.update(r)[0]), runner, repeats=repeats)[1]
        rows[name] = update
        print(f"{name:5s} ({mix[0][0]} 0.5, {pooled.num_learners} learner sequences): update "
              f"{update * 1e3:6.0f} ms ({config.steps_per_update / update:5.0f} env-steps/s)",
              flush=True)  # fmt: skip
    print(f"pool / mixed per update: {rows['pool'] / rows['mixed']:.2f}x (target <= 1.10x)")


def forward_flops(config: ippo.IPPOConfig) -> float:
    """FLOPs of one network forward pass per agent-tick, from XLA's cost analysis of a one-tick
    call on 100 agents (shapes from a fresh runner)."""
    trainer = ippo.make_train(config)
    runner = jax.eval_shape(trainer.init, jax.random.PRNGKey(0))
    n = 100
    obs = jax.tree.map(lambda x: jax.ShapeDtypeStruct((n,) + x.shape[2:], x.dtype), runner.obs)
    hidden = jax.ShapeDtypeStruct((n, config.hidden), jnp.float32)
    reset = jax.ShapeDtypeStruct((n,), jnp.bool_)
    apply = jax.jit(trainer.network.apply)
    cost = apply.lower(runner.params, hidden, obs, reset).compile().cost_analysis()
    return float(cost["flops"]) / n


def print_arithmetic(config: ippo.IPPOConfig, seconds: dict) -> None:
    """The PPO epochs' achieved FLOP rate and the rate a < 3x learner would need."""
    per_tick = forward_flops(config)
    replayed = config.epochs * config.num_learners * config.rollout  # agent-ticks, fwd + bwd
    ppo_flop = 3.0 * per_tick * replayed
    budget = 3.0 * seconds["bare"] - seconds["rollout"]  # what < 3x leaves for the epochs
    print(f"network forward: {per_tick / 1e3:.0f} kFLOP per agent-tick (XLA cost analysis)")
    print(f"PPO epochs: {ppo_flop / 1e9:.1f} GFLOP per update ({replayed} agent-ticks x 3 x "
          f"forward), achieved {ppo_flop / seconds['ppo'] / 1e9:.0f} GFLOP/s")  # fmt: skip
    if budget <= 0:
        print("< 3x is out of reach before any learning: the learner's rollout alone costs "
              f"{seconds['rollout'] / seconds['bare']:.2f}x the bare rollout")  # fmt: skip
    else:
        print(f"< 3x would need the epochs in {budget * 1e3:.0f} ms: "
              f"{ppo_flop / budget / 1e9:.0f} GFLOP/s")  # fmt: skip


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
    parser.add_argument(
        "--pool-vs-mixed", action="store_true", help="only: ghost pool vs today's mixed opponents"
    )
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
    if args.pool_vs_mixed:
        return pool_versus_mixed(config, args.repeats)
    steps = config.steps_per_update
    print(f"batch: {config.num_envs} games x {config.rollout} ticks = {steps} env-steps")
    print(f"opponents: {config.opponents}; network: {config.network}")
    print(f"PPO: {config.epochs} epochs x {config.minibatches} minibatches, gradient chunks of "
          f"<= {config.grad_chunk} of {config.num_learners} learner sequences")  # fmt: skip
    bare = None
    seconds = {}
    for name, first, best in measure(config, args.repeats):
        bare = bare or best
        seconds[name] = best
        print(
            f"{name:30s} {best * 1e3:7.0f} ms {steps / best:7.0f} env-steps/s "
            f"{best / bare:5.2f}x bare (compile {first:.0f} s)",
            flush=True,
        )
    print(f"learner cost / bare rollout: {best / bare:.2f}x (target < 3x)")
    print_arithmetic(config, {"bare": bare, "rollout": seconds[ROLLOUT], "ppo": seconds[PPO]})


if __name__ == "__main__":
    main()
