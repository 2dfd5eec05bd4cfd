"""What the JaxMARL-style adapter costs over the engine's own API (issue 25: target < 10%).

    python bench/bench_adapters.py [--games 1024] [--ticks 4] [--rounds 15] [--json]

Both sides play the same random legal games (one flat index a slot from the flat mask, the
engine's `pick_legal`), vmapped over games, and each hands over, every tick, what a learner
needs: the observation, the legal-action mask, the rewards and the dones. The core side gets
`Obs` and `Masks` from `Env.step` with `Actions`; the adapter side its dicts of flat (680,)
vectors, `get_avail_actions` and `env.step` with a dict, the agents' entries stacked into one
batch as a JaxMARL learner does. The readings (ways a learner takes them):

- step: one jitted step a call, its outputs back from the jit (a learner stepping from Python);
- carried: `lax.scan` over ticks, the observation and mask read at the start of the next tick,
  where a learner acts on them;
- trajectory: `lax.scan` whose per-tick outputs are (observation, mask, reward, done), the
  rollout buffer a purejaxrl learner keeps;
- stacked: the trajectory reading through the adapter's stacked path (`step_stacked`,
  `avail_stacked`: the arrays `batchify` would make, without stacking the dicts), against the
  same core trajectory;
- learner: the trajectory reading laid out as JaxMARL's IPPO and `examples/ippo_jaxmarl_style`
  lay it out: `lax.scan` over ticks outside, the games' `env.step` vmapped inside, and
  `batchify` applied outside the vmap, so the learner stacks each agent's (games, 680) block
  into (agents, games, 680) (agents-major, as its network batch is); the core the same way
  round (`Env.step` vmapped inside the scan), its `Obs` (games, 10, ...).

Each reading makes both programs build every observation. (Summing the observation right after
the step, in the same tick, does not: XLA fuses the sum into the core's observation code and
never builds `Obs`, which no learner feeding a network can do.) The nine programs are timed in
short alternating ABBA rounds in one process (`evaluation.interleaved`), one call or 0.25 s a
program a round, by the wall clock and by this process's CPU clock (which other jobs' load on a
shared machine barely moves). Each ratio is the median of the per-round adapter / core ratios,
with its interquartile range; each core program is also timed twice a round, and that A/A
ratio is the noise a difference has to clear (`interleaved.verdict`).
"""

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import adapters  # noqa: E402
from adapters import arrays  # noqa: E402
from engine.sampling import pick_legal  # noqa: E402
from evaluation import interleaved  # noqa: E402

READINGS = ("step", "carried", "trajectory", "stacked", "learner")
TARGET = 1.10  # issue 25: the wrapper costs under 10% over the core API
CORE_OF = {"stacked": "trajectory"}  # the core program each adapter reading is compared with


def _draw(key, avail):
    return pick_legal(jax.random.uniform(key, (avail.shape[0],)), avail)


def _core_reads(obs) -> jax.Array:
    leaves = [obs.units, obs.visible, obs.relayed, obs.public, obs.obstacles]
    leaves += [obs.context, obs.prev_action, obs.class_id, obs.self_index, obs.mask.flat]
    return sum(jnp.sum(x.astype(jnp.float32)) for x in leaves)


def core_step(env):
    """Engine API, one tick: (obs, state, reward (10,), done ()) from jitted `Env.step`."""

    def step(key, state, actions):
        obs, state, reward, done, _ = env.core.step(key, state, actions)
        return obs, state, reward, done

    return jax.jit(jax.vmap(step))


def adapter_step(env):
    """Adapter API, one tick: (obs dict, state, rewards dict, dones dict) from jitted `step`."""

    def step(key, state, actions):
        obs, state, rewards, dones, _ = env.step(key, state, actions)
        return obs, state, rewards, dones

    return jax.jit(jax.vmap(step))


def core_rollout(env, ticks: int, trajectory: bool):
    """Engine API over `ticks` ticks: Obs and Masks carried to the next tick (trajectory=False,
    read there) or every tick's (Obs, flat mask, reward, done) as the scan's outputs."""
    core = env.core

    def game(key):
        def tick(carry, k):
            obs, state, seen = carry
            if not trajectory:
                seen += _core_reads(obs)
            k_act, k_step = jax.random.split(k)
            actions = arrays.to_actions(_draw(k_act, obs.mask.flat), "flat")
            nxt, state, reward, done, _ = core.step(k_step, state, actions)
            out = (obs.replace(mask=None), obs.mask.flat, reward, done) if trajectory else None
            return (nxt, state, seen + reward.sum() + done), out

        obs, state = core.reset(key)
        return jax.lax.scan(tick, (obs, state, jnp.float32(0)), jax.random.split(key, ticks))

    return jax.jit(jax.vmap(game))


def adapter_rollout(env, ticks: int, trajectory: bool, stack=None):
    """Adapter API over `ticks` ticks: dicts stacked into one batch, read at the next tick
    (trajectory=False) or every tick's (obs, avail, rewards, done) as the scan's outputs.
    stack: the learner's `batchify(dict, agents)` (default `adapters.batchify`)."""
    batchify = stack or arrays.batchify

    def game(key):
        def tick(carry, k):
            obs, state, seen = carry
            avail = batchify(env.get_avail_actions(state), env.agents)
            stacked = batchify(obs, env.agents)
            if not trajectory:
                seen += jnp.sum(avail) + jnp.sum(stacked)
            k_act, k_step = jax.random.split(k)
            flat = _draw(k_act, avail)
            actions = {a: flat[i] for i, a in enumerate(env.agents)}
            nxt, state, rewards, dones, _ = env.step(k_step, state, actions)
            reward = batchify(rewards, env.agents)
            out = (stacked, avail, reward, dones["__all__"]) if trajectory else None
            return (nxt, state, seen + reward.sum() + dones["__all__"]), out

        obs, state = env.reset(key)
        return jax.lax.scan(tick, (obs, state, jnp.float32(0)), jax.random.split(key, ticks))

    return jax.jit(jax.vmap(game))


def adapter_stacked_rollout(env, ticks: int):
    """The trajectory reading through the stacked path: every tick's (obs (10, 680), avail
    (10, 198), rewards (10,), done ()) as the scan's outputs, nothing stacked by the learner."""

    def game(key):
        def tick(carry, k):
            obs, state, seen = carry
            avail = env.avail_stacked(state)
            k_act, k_step = jax.random.split(k)
            nxt, state, reward, dones, _ = env.step_stacked(k_step, state, _draw(k_act, avail))
            return (nxt, state, seen + reward.sum() + dones[0]), (obs, avail, reward, dones[0])

        obs, state = env.reset_stacked(key)
        return jax.lax.scan(tick, (obs, state, jnp.float32(0)), jax.random.split(key, ticks))

    return jax.jit(jax.vmap(game))


def core_learner_rollout(env, games: int, ticks: int):
    """Engine API in a JaxMARL learner's layout: the games' `Env.step` vmapped inside a scan
    over `ticks` ticks, every tick's (Obs (games, 10, ...), flat mask, reward, done) kept."""
    reset, step = jax.vmap(env.core.reset), jax.vmap(env.core.step)
    draw = jax.vmap(_draw)  # one game a key, the slots on the game's axis 1

    def tick(carry, k):
        obs, state, seen = carry
        k_act, k_step = jax.random.split(k)
        actions = arrays.to_actions(draw(jax.random.split(k_act, games), obs.mask.flat), "flat")
        nxt, state, reward, done, _ = step(jax.random.split(k_step, games), state, actions)
        out = (obs.replace(mask=None), obs.mask.flat, reward, done)
        return (nxt, state, seen + reward.sum() + done.sum()), out

    def rollout(keys):
        obs, state = reset(keys)
        return jax.lax.scan(tick, (obs, state, jnp.float32(0)), jax.random.split(keys[0], ticks))

    return jax.jit(rollout)


def adapter_learner_rollout(env, games: int, ticks: int, stack=None):
    """The dicts in a JaxMARL learner's layout: `env.step` vmapped over the games inside the
    scan, `batchify` outside it, every tick's (obs (agents, games, 680), avail, rewards (agents,
    games), done (games,)) kept; the same draws as `core_learner_rollout`. stack: the
    learner's `batchify(dict, agents)` (default `adapters.batchify`)."""
    batchify = stack or arrays.batchify
    reset, step = jax.vmap(env.reset), jax.vmap(env.step)
    avail_of = jax.vmap(env.get_avail_actions)
    draw = jax.vmap(_draw, in_axes=(0, 1), out_axes=1)  # the agents lead: (agents, games)

    def tick(carry, k):
        obs, state, seen = carry
        stacked, avail = batchify(obs, env.agents), batchify(avail_of(state), env.agents)
        k_act, k_step = jax.random.split(k)
        flat = draw(jax.random.split(k_act, games), avail)
        actions = {a: flat[i] for i, a in enumerate(env.agents)}
        nxt, state, rewards, dones, _ = step(jax.random.split(k_step, games), state, actions)
        reward, done = batchify(rewards, env.agents), dones["__all__"]
        out = (stacked, avail, reward, done)
        return (nxt, state, seen + reward.sum() + done.sum()), out

    def rollout(keys):
        obs, state = reset(keys)
        return jax.lax.scan(tick, (obs, state, jnp.float32(0)), jax.random.split(keys[0], ticks))

    return jax.jit(rollout)


def warm_games(env, games: int, ticks: int):
    """(adapter state, flat actions (games, 10)) after `ticks` ticks of random legal actions, so
    that the timed step sees bodies spread over the map, fighting and sometimes dead."""

    def play(key):
        def tick(state, k):
            k_act, k_step = jax.random.split(k)
            flat = _draw(k_act, state.avail)
            actions = {a: flat[i] for i, a in enumerate(env.agents)}
            return env.step(k_step, state, actions)[1], None

        state = env.reset(key)[1]
        state = jax.lax.scan(tick, state, jax.random.split(key, ticks))[0]
        return state, _draw(jax.random.fold_in(key, 1), state.avail)

    return jax.jit(jax.vmap(play))(jax.random.split(jax.random.PRNGKey(1), games))


def program_names(readings) -> list[str]:
    """The core and adapter programs the readings compare, each named once, core first."""
    names = [f"{side}_{CORE_OF.get(r, r) if side == 'core' else r}" for r in readings
             for side in ("core", "adapter")]  # fmt: skip
    return list(dict.fromkeys(names))


def programs(env, games: int, ticks: int, readings=READINGS) -> dict:
    """name -> a callable that blocks until done, core and adapter for each reading."""
    keys = jax.random.split(jax.random.PRNGKey(0), games)
    calls = {}
    if "step" in readings:
        state, flat = warm_games(env, games, 20)
        heads = arrays.to_actions(flat, "flat")
        named = {a: flat[:, i] for i, a in enumerate(env.agents)}
        calls["core_step"] = (core_step(env), (keys, state.game, heads))
        calls["adapter_step"] = (adapter_step(env), (keys, state, named))
    for reading in ("carried", "trajectory"):
        trajectory = reading == "trajectory"
        calls[f"core_{reading}"] = (core_rollout(env, ticks, trajectory), (keys,))
        calls[f"adapter_{reading}"] = (adapter_rollout(env, ticks, trajectory), (keys,))
    calls["adapter_stacked"] = (adapter_stacked_rollout(env, ticks), (keys,))
    calls["core_learner"] = (core_learner_rollout(env, games, ticks), (keys,))
    calls["adapter_learner"] = (adapter_learner_rollout(env, games, ticks), (keys,))
    return {  # jax.jit compiles on the first call: the programs no reading needs never do
        name: (lambda fn=calls[name][0], args=calls[name][1]: jax.block_until_ready(fn(*args)))
        for name in program_names(readings)
    }


def again(name: str) -> str:
    """The name of a core program's second timing in each round (its A/A noise reference)."""
    return f"{name}_again"


def timed_rounds(runs: dict, rounds: int) -> dict:
    """Time warm programs in `rounds` ABBA rounds by wall and CPU clock, each core program
    twice a round (`again`): clock -> name -> seconds per call, one entry a round."""
    calls = {name: interleaved.calls_for(fn) for name, fn in runs.items()}
    for name in [n for n in runs if n.startswith("core_")]:
        runs, calls = runs | {again(name): runs[name]}, calls | {again(name): calls[name]}
    timed = {
        name: (lambda fn=fn, n=calls[name]: interleaved.time_clocks(fn, n))
        for name, fn in runs.items()
    }
    return interleaved.interleave_clocks(timed, rounds)


def summaries(seconds: dict, readings) -> dict:
    """clock -> reading -> {"ratio": adapter / core, "noise": core / core again} summaries."""
    out = {}
    for clock, named in seconds.items():
        out[clock] = {}
        for reading in readings:
            core = f"core_{CORE_OF.get(reading, reading)}"
            out[clock][reading] = {
                "ratio": interleaved.ratio_summary(named[f"adapter_{reading}"], named[core]),
                "noise": interleaved.ratio_summary(named[again(core)], named[core]),
            }
    return out


def run(games: int, ticks: int, rounds: int, readings=READINGS) -> dict:
    """Compile and warm the readings' programs (nine for all five), then time them in
    `rounds` ABBA rounds (`timed_rounds`): env-steps/s by the wall clock (games x ticks, or
    games for one step) and the adapter / core ratios by both clocks, with the A/A noise."""
    env = adapters.make("TeamDeathmatch", maps="train", rosters=["MWHRP/MWHRP"])
    runs = programs(env, games, ticks, readings)
    compile_s = {name: interleaved.time_calls(fn, 1) for name, fn in runs.items()}
    seconds = timed_rounds(runs, rounds)
    steps = {name: games * (1 if "_step" in name else ticks) for name in seconds["wall"]}
    median = {name: statistics.median(s) for name, s in seconds["wall"].items()}
    return {
        "jax": jax.__version__,
        "devices": jax.device_count(),
        "games": games,
        "ticks": ticks,
        "rounds": rounds,
        "load_average": os.getloadavg(),
        "first_call_s": compile_s,
        "seconds": seconds,
        "steps_per_s": {name: steps[name] / m for name, m in median.items()},
        "ratio": summaries(seconds, readings),
    }


def report(figures: dict) -> None:
    """Print the figures of `run` as a person reads them."""
    print(f"jax {figures['jax']}, {figures['devices']} device(s), {figures['games']} games, "
          f"rollouts of {figures['ticks']} ticks, {figures['rounds']} ABBA rounds, load average "
          f"{figures['load_average'][0]:.1f} at the end")  # fmt: skip
    for name, seconds in figures["seconds"]["wall"].items():
        wall, cpu = statistics.median(seconds), statistics.median(figures["seconds"]["cpu"][name])
        print(f"  {name:>24}: {figures['steps_per_s'][name]:>9,.0f} env-steps/s  "
              f"(median {wall:.3f} s wall, {cpu:.3f} s CPU a call)")  # fmt: skip
    for clock, by_reading in figures["ratio"].items():
        for reading, pair in by_reading.items():
            ratio, noise = pair["ratio"], pair["noise"]
            print(f"adapter / core, {reading:>10}, {clock:>4} clock: {interleaved.describe(ratio)}")
            print(f"{'':>34}A/A core {interleaved.describe(noise)}")
            print(f"{'':>34}{interleaved.verdict(ratio, noise, TARGET)}")


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--ticks", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--readings", nargs="+", choices=READINGS, default=list(READINGS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.games, args.ticks, args.rounds, args.readings)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)
    return figures


if __name__ == "__main__":
    main()
