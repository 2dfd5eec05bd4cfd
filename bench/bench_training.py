"""Training throughput of recurrent IPPO beside the bare engine rollout at the same batch, with
the update split into its parts.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_training.py [--envs 64] [--rollout 32]
        [--epochs 4] [--minibatches 4] [--grad-chunk 16] [--embed 32 --torso 64 --hidden 64]
        [--self-play-only] [--pool-vs-mixed] [--rounds 5] [--learners ippo,ippo-ff,mappo,mappo-rnn]
        [--no-q]

Bare rollout: the engine's own rollout (`mbg bench engine`'s): `num_envs` games stepped with
auto-reset for `rollout` ticks inside one jitted `lax.scan`, every slot playing a uniformly random
legal value of each head (engine.random_legal_actions; the Gumbel sampler of the
`random` System costs twice the engine step, which made an earlier version of this bench report a
bare rollout 3x too slow). Learner: one full IPPO update
(the same rollout with the network acting and the configured opponents, then GAE and
epochs x minibatches of PPO). Both report env-steps per second (one env-step = one tick of one
game); the target is learner cost < 3x the bare rollout. Parts, each jitted alone on the same
batch: the learner's rollout (engine + policy + opponents), the policy's forward pass and
sampling over the rollout, the bot opponents over `rollout` ticks, GAE, and the PPO epochs
(GRU forward + backward). All parts are compiled first and then timed in --rounds alternating
rounds (`evaluation.interleaved`, ABBA order): each "x bare" is the median of the per-round
ratios to the bare rollout with its interquartile range, flagged when too noisy to trust (the
machine is shared, and load that changes between two timings would land in their ratio).

Learner rows: one whole update (one jit) of each learner named by --learners (cli.train.LEARNERS:
recurrent IPPO, feed-forward IPPO, MAPPO with a feed-forward or GRU actor and the centralised
critic on the world state), at the same batch and sizes, beside the bare rollout of the same run.
--pool-vs-mixed instead times one update with today's opponent mix beside the same mix with
the ghost pool (training.selfplay) in place of self-play.

Arithmetic: XLA's cost analysis of one forward pass gives the network's FLOPs per agent-tick;
the PPO epochs cost about 3x that per replayed agent-tick (the backward pass about twice the
forward, the usual estimate). The last lines print the FLOP rate the epochs achieved and the rate
they would need for the whole learner to cost < 3x the bare rollout.
"""

import argparse
import dataclasses
import importlib
import statistics
import time

import jax
import jax.numpy as jnp

from engine import constants as C
from engine.sampling import random_legal_actions
from evaluation import interleaved
from policies import networks as nets
from training import common, ippo

BARE, ROLLOUT = "bare rollout (random actions)", "learner rollout + GAE"
QMIX_BARE = "bare rollout at QMIX's batch"
PPO = "PPO epochs (GRU fwd + bwd)"


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


def first_call(fn, *args) -> float:
    """Seconds of the first call (compile + run)."""
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    return time.perf_counter() - start


def parts(config: ippo.IPPOConfig):
    """Yield (part, jitted fn, args): the bare rollout, then each part of one update, then the
    whole update in one jit."""
    run, carry = bare_rollout(config)
    yield BARE, run, (carry,)
    trainer = ippo.make_train(config)
    runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
    collect = jax.jit(trainer.collect)
    yield ROLLOUT, collect, (runner,)
    after, batch, hidden0, _ = collect(runner)
    yield "  policy forward + sampling", policy_pass(trainer), (runner.params, hidden0, batch)
    if any(g.kind != "self" for g in trainer.groups):
        yield "  bot opponents", opponents_pass(trainer), (runner,)
    gae = jax.jit(lambda b: ippo.gae(b.ret, b.value, b.reset, b.value[0], 0.99, 0.95))
    yield "  GAE", gae, (batch,)
    yield PPO, jax.jit(trainer.learn), (after, batch, hidden0)
    yield "whole update (one jit)", jax.jit(lambda r: trainer.update(r)[0]), (runner,)


def measure(config: ippo.IPPOConfig, rounds: int, extra=()) -> dict:
    """Compile every part, then time them all in alternating rounds (evaluation.interleaved):
    part -> {"first" (compile + first call, s), "seconds" (per round), "vs_bare" (the
    `ratio_summary` of the part's per-round time over the bare rollout's)}."""
    programs, firsts = {}, {}
    for name, fn, args in [*parts(config), *extra]:
        firsts[name] = first_call(fn, *args)
        programs[name] = lambda fn=fn, args=args: interleaved.time_calls(
            lambda: jax.block_until_ready(fn(*args)), 1
        )
    seconds = interleaved.interleave(programs, rounds)
    return {
        name: {
            "first": firsts[name],
            "seconds": seconds[name],
            "vs_bare": interleaved.ratio_summary(seconds[name], seconds[BARE]),
        }
        for name in programs
    }


def learner_parts(config: ippo.IPPOConfig, names):
    """Yield ("learner NAME", one whole update jitted, its arguments) for each learner in
    `names` (cli.train.LEARNERS), built from config's shared fields: timed in the same
    alternating rounds as the parts, so each row's ratio to the bare rollout is fair."""
    from cli.train import learner

    shared = {f.name: getattr(config, f.name) for f in dataclasses.fields(ippo.IPPOConfig)}
    del shared["recurrent"]  # each learner's own default
    for name in names:
        cls, _ = learner(name)
        make = importlib.import_module(cls.__module__).make_train
        trainer = make(cls(**shared))
        runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
        update = jax.jit(lambda r, trainer=trainer: trainer.update(r)[0])
        yield f"learner {name}", update, (runner,)


def q_learner_parts(config: ippo.IPPOConfig):
    """Yield (name, jitted fn, args, env-steps) of one whole PQN-VDN update at the bench's batch
    (num_envs x rollout) and, at QMIX's own batch (its num_envs games played to the end: x
    horizon ticks), a bare rollout of that batch and one QMIX update."""
    from training import pqn_vdn, qmix

    same = {k: getattr(config, k) for k in ("num_envs", "opponents", "embed", "torso", "hidden")}
    pqn = pqn_vdn.PQNConfig(**same, rollout=config.rollout)
    q = qmix.QMIXConfig(**{**same, "num_envs": qmix.QMIXConfig.num_envs})
    q = dataclasses.replace(q, buffer_games=max(q.buffer_games, 2 * q.num_teams))
    bare_q = dataclasses.replace(config, num_envs=q.num_envs, rollout=q.horizon, minibatches=1)
    run, carry = bare_rollout(bare_q)
    yield QMIX_BARE, run, (carry,), q.steps_per_update
    for name, learner, module in (("pqn-vdn", pqn, pqn_vdn), ("qmix", q, qmix)):
        made = module.make_train(learner)
        runner = jax.jit(made.init)(jax.random.PRNGKey(0))
        update = jax.jit(lambda r, made=made: made.update(r)[0])
        yield f"learner {name}", update, (runner,), learner.steps_per_update


MIXED = (("self", 0.5), ("scripted:brawler", 0.25), ("random", 0.25))
POOLED = (("pool", 0.5), ("scripted:brawler", 0.25), ("random", 0.25))


def pool_versus_mixed(config: ippo.IPPOConfig, rounds: int) -> None:
    """Print one whole update with today's mix (half the games self-play) beside the same mix
    with the ghost pool in place of self-play (training.selfplay), timed in alternating rounds
    (evaluation.interleaved), and the median of the per-round ratios.

    The pool's ghosts do not learn, so a pooled update replays fewer agent sequences in its
    PPO epochs (Team A only in those games) while its rollout runs one network per game's
    opponent parameters; the learner sequences of each are printed beside the times."""
    programs, learners = {}, {}
    for name, mix in (("mixed", MIXED), ("pool", POOLED)):
        pooled = dataclasses.replace(config, opponents=mix)
        trainer = ippo.make_train(pooled)
        runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
        update = jax.jit(lambda r, t=trainer: t.update(r)[0])
        first_call(update, runner)
        programs[name] = lambda update=update, runner=runner: interleaved.time_calls(
            lambda: jax.block_until_ready(update(runner)), 1
        )
        learners[name] = (mix[0][0], pooled.num_learners)
    seconds = interleaved.interleave(programs, rounds)
    for name, (kind, count) in learners.items():
        update = statistics.median(seconds[name])
        print(f"{name:5s} ({kind} 0.5, {count} learner sequences): update "
              f"{update * 1e3:6.0f} ms ({config.steps_per_update / update:5.0f} env-steps/s)",
              flush=True)  # fmt: skip
    ratio = interleaved.ratio_summary(seconds["pool"], seconds["mixed"])
    print(f"pool / mixed per update: {interleaved.describe(ratio)} (target <= 1.10x)")


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


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=ippo.IPPOConfig.num_envs)
    parser.add_argument("--rollout", type=int, default=ippo.IPPOConfig.rollout)
    parser.add_argument("--rounds", type=int, default=5, help="alternating timing rounds")
    parser.add_argument("--epochs", type=int, default=ippo.IPPOConfig.epochs)
    parser.add_argument("--minibatches", type=int, default=ippo.IPPOConfig.minibatches)
    parser.add_argument("--grad-chunk", type=int, default=ippo.IPPOConfig.grad_chunk)
    for size in ("embed", "torso", "hidden"):
        parser.add_argument(f"--{size}", type=int, default=getattr(ippo.IPPOConfig, size))
    parser.add_argument("--self-play-only", action="store_true", help="no bot opponents")
    parser.add_argument(
        "--learners", default="ippo,ippo-ff,mappo,mappo-rnn", help="learner rows ('' for none)"
    )
    parser.add_argument("--no-q", action="store_true", help="no PQN-VDN and QMIX rows")
    parser.add_argument(
        "--pool-vs-mixed", action="store_true", help="one update, the ghost pool beside today's mix"
    )
    return parser.parse_args()


def config_of(args) -> ippo.IPPOConfig:
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
    return config


def print_rows(measured: dict, part_steps: dict, steps: int) -> dict:
    """Print each measured part (median time, env-steps a second, ratio to the bare rollout);
    returns the median seconds by part name."""
    seconds = {}
    for name, row in measured.items():
        seconds[name] = statistics.median(row["seconds"])
        vs_bare = row["vs_bare"]
        if name == "learner qmix":  # its batch is its own: against the bare rollout of that batch
            vs_bare = interleaved.ratio_summary(row["seconds"], measured[QMIX_BARE]["seconds"])
        rate = part_steps.get(name, steps) / seconds[name]
        print(
            f"{name:30s} {seconds[name] * 1e3:7.0f} ms {rate:7.0f} env-steps/s "
            f"vs bare {interleaved.describe(vs_bare)} (compile {row['first']:.0f} s)",
            flush=True,
        )
    return seconds


def main() -> None:
    args = parse_args()
    config = config_of(args)
    if args.pool_vs_mixed:
        return pool_versus_mixed(config, args.rounds)
    steps = config.steps_per_update
    print(f"batch: {config.num_envs} games x {config.rollout} ticks = {steps} env-steps")
    print(f"opponents: {config.opponents}; network: {config.network}")
    print(f"PPO: {config.epochs} epochs x {config.minibatches} minibatches, gradient chunks of "
          f"<= {config.grad_chunk} of {config.num_learners} learner sequences")  # fmt: skip
    names = [n.strip() for n in args.learners.split(",") if n.strip()]
    q_parts = [] if args.no_q else list(q_learner_parts(config))
    part_steps = {name: n for name, _, _, n in q_parts}
    extra = [*learner_parts(config, names), *((n, f, a) for n, f, a, _ in q_parts)]
    measured = measure(config, args.rounds, extra)
    print(f"median of {args.rounds} alternating rounds; ratios are medians of per-round ratios")
    seconds = print_rows(measured, part_steps, steps)
    whole = measured["whole update (one jit)"]["vs_bare"]
    print(f"learner cost / bare rollout: {interleaved.describe(whole)} (target < 3x)")
    seconds["bare"], seconds["rollout"], seconds["ppo"] = (
        seconds[BARE],
        seconds[ROLLOUT],
        seconds[PPO],
    )
    print_arithmetic(config, seconds)


if __name__ == "__main__":
    main()
