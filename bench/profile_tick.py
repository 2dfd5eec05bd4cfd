"""What each part of a tick costs: each stage of `Env.step` jitted alone over a batch of games.

    JAX_PLATFORMS=cpu .venv/bin/python bench/profile_tick.py [--batch 1024] [--warm 40] [--rounds 5]

The games are played `--warm` ticks of random legal actions first, so bodies are spread over
the map, fighting and sometimes dead. Each part then runs vmapped over the batch on one JAX
device, timed in alternating rounds (`evaluation.interleaved`), and is printed in microseconds
per game-tick and as a share of the whole step. Parts jitted alone lose the fusion across stage
boundaries that the whole step has, so the shares sum to more than the step; they rank the
stages, they do not add up. Optionally `--trace DIR` writes a `jax.profiler` trace of the whole
step (open it in Perfetto, https://ui.perfetto.dev) for the per-kernel view.
"""

import argparse
import statistics

import jax
import jax.numpy as jnp

from engine import Config, Env, combat, geometry, legality, lifecycle, maps, observation
from engine import env as env_module
from engine.sampling import random_legal_actions, random_play
from evaluation import interleaved


def warm_games(env: Env, batch: int, ticks: int):
    """(obs, state, actions) of `batch` games after `ticks` ticks of random legal actions."""

    @jax.jit
    def play(keys):
        obs, state = random_play(env, keys, ticks)
        acts = jax.vmap(random_legal_actions)(jax.random.split(keys[1], batch), obs.mask)
        return obs, state, acts

    return play(jax.random.split(jax.random.PRNGKey(0), batch))


def tick_parts(env: Env):
    """name -> function(key, state, actions) of one game, one per stage of a tick (RULES 4)."""
    config = env.config

    def fight(key, state, actions):
        accepted, _ = combat.accept(actions, legality.masks(state))
        lane, recipient = combat.route(accepted)
        _, _, aura_out, aura_in = combat.auras(state)
        result = combat.combat(state, lane, recipient, aura_out, aura_in)
        participant = combat.participants(state, result["damage_raw"], result["heal_raw"])
        health = combat.regenerate(state, result["health"], participant)
        # The share matrices too: `Env.step` emits them as events, so left out they would be
        # dead code here and the part would not time what the step does.
        shares = result["damage_realised"], result["heal_realised"]
        return health, combat.cooldowns(state, lane), shares

    def move(key, state, actions):
        accepted, _ = combat.accept(actions, legality.masks(state))
        lane, recipient = combat.route(accepted)
        return env_module._move(config, state, accepted, lane, recipient)

    def statuses(key, state, actions):
        accepted, _ = combat.accept(actions, legality.masks(state))
        lane, recipient = combat.route(accepted)
        fresh = lifecycle.fresh_statuses(state, lane, recipient)
        hurt = jnp.zeros_like(state.alive)
        return lifecycle.statuses(state, fresh, hurt, ~state.alive), lifecycle.respawn(
            config, state, state.alive
        )

    return {
        "whole step (auto-reset, obs, masks, events)": lambda k, s, a: env.step(k, s, a),
        "rules of the tick (advance)": lambda k, s, a: env_module.advance(config, s, a),
        "  legal-action masks": lambda k, s, a: legality.masks(s),
        "  combat (accept, auras, damage, heal, regen, cooldowns)": fight,
        "  movement (Charge + 4 collision sub-steps)": move,
        "  statuses and respawn": statuses,
        "visibility (line of sight, 45 pairs x 32 obstacles)": lambda k, s, a: legality.visibility(
            s
        ),
        "observation (rows, relay, context, masks)": lambda k, s, a: observation.observe(
            config, s, previous=s
        ),
        "auto-reset draw (a fresh game)": lambda k, s, a: env_module.draw_state(
            config, env.pool, k, sighted=False
        ),
        "distances (10 x 10)": lambda k, s, a: geometry.distances(s.pos),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--warm", type=int, default=40, help="ticks played before timing")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--trace", default=None, help="folder for a jax.profiler trace")
    args = parser.parse_args()
    env = Env(Config(), maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",)), keep_last_obs=False)
    obs, state, actions = warm_games(env, args.batch, args.warm)
    keys = jax.random.split(jax.random.PRNGKey(1), args.batch)
    programs = {}
    for name, part in tick_parts(env).items():
        jitted = jax.jit(jax.vmap(part))
        jax.block_until_ready(jitted(keys, state, actions))

        def run(f=jitted):
            return jax.block_until_ready(f(keys, state, actions))

        calls = interleaved.calls_for(run)
        programs[name] = lambda run=run, calls=calls: interleaved.time_calls(run, calls)
    seconds = interleaved.interleave(programs, args.rounds)
    whole = statistics.median(next(iter(seconds.values())))
    print(f"batch {args.batch}, after {args.warm} ticks; median of {args.rounds} rounds")
    print(f"{'part':60s} {'us/game-tick':>12s} {'of the step':>11s}")
    for name, per_round in seconds.items():
        median = statistics.median(per_round)
        print(f"{name:60s} {median / args.batch * 1e6:12.2f} {median / whole:11.0%}")
    if args.trace:
        step = jax.jit(jax.vmap(env.step))
        jax.block_until_ready(step(keys, state, actions))
        with jax.profiler.trace(args.trace, create_perfetto_trace=True):
            for _ in range(5):
                jax.block_until_ready(step(keys, state, actions))
        print(f"trace written under {args.trace}")


if __name__ == "__main__":
    main()
