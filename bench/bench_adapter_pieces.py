"""Where the JaxMARL-style adapter's rollout-buffer cost goes, piece by piece (issue 25).

    python bench/bench_adapter_pieces.py [--games 1024] [--ticks 4] [--rounds 11] [--hlo]

Every program is the rollout-buffer reading of `bench_adapters` (a `lax.scan` whose per-tick
outputs are the observation, the legal-action mask, the rewards and the done, vmapped over
1,024 games of random legal actions) with one more of the adapter's pieces switched on, so
each ratio to the core's program is what those pieces cost:

- flatten: the core's own step, its `Obs` flattened to (10, 680) float32 right after the step
  (`arrays.flatten_obs`) and carried flat, as the adapter carries it;
- avail: the core's own step, the flat mask built at the start of the tick from the carried
  move and pair heads (what `AdapterState.avail` does) instead of read from `Obs.mask.flat`;
- state: the adapter's step (`TeamDeathmatch._step`: the hidden team's actions merged in, the
  head masks kept in `AdapterState`, the infos), the `Obs` leaves carried and kept unflattened;
- stacked: the adapter's stacked path (`step_stacked`, `avail_stacked`): all of the above;
- dicts: the adapter's dicts (`step`, `get_avail_actions`), stacked by the learner with
  `adapters.batchify`: the stacked path plus the dict build and the learner's stack;
- dicts_grouped: the same, the learner's stack of the ten rows built as two stacks of five
  (`grouped_stack`): one `jnp.stack` of ten is a 10-operand concatenate, which XLA's CPU fusion
  (at most 8 operands) writes out before the rollout buffer reads it; two of five fuse into the
  buffer's update (the loop body writes 2.37 MB instead of 2.60 MB at 8 games). Not shipped:
  in one run it timed 1.02x the plain stack (IQR 0.95-1.10; issue 25);
- dicts_agents_first: the dicts, the mask's rows cut agents-first under
  `vmap` (`agents_first_rows`), so that the learner's `batchify` of them folds into a slice
  (the observation's rows cross the `lax.scan` carry as ten arrays and cannot fold). Not
  shipped: in one run it timed 1.02x the plain dicts (IQR 1.00-1.03; issue 25).

The programs are timed in short ABBA rounds by the wall and CPU clocks, the core twice a round
for the A/A noise (`bench_adapters.timed_rounds`). `--hlo` also compiles each program at 8 games
and prints the copies and concatenates of its optimised HLO, and the world state's
(`TeamDeathmatch.world_state` against `Env.world_state`).
"""

import argparse
import collections
import os
import re
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
from jax import custom_batching

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import adapters  # noqa: E402
from adapters import arrays  # noqa: E402
from bench import bench_adapters as whole  # noqa: E402
from engine import legality  # noqa: E402
from evaluation import interleaved  # noqa: E402

PIECES = ("flatten", "avail", "state", "stacked", "dicts", "dicts_grouped", "dicts_agents_first")
HLO_OPS = ("copy", "concatenate", "gather", "scatter", "transpose")
BYTES = {"f32": 4, "s32": 4, "u32": 4, "pred": 1}


def _scan_games(ticks: int, start, tick):
    """jit(vmap) of `ticks` ticks of `tick(carry, key) -> (carry, outputs)` from `start(key)`."""

    def game(key):
        return jax.lax.scan(tick, start(key), jax.random.split(key, ticks))

    return jax.jit(jax.vmap(game))


def _core_step(env, k, state, flat_mask):
    """The core's tick from a flat mask: random legal actions, then `Env.step`."""
    k_act, k_step = jax.random.split(k)
    actions = arrays.to_actions(whole._draw(k_act, flat_mask), "flat")
    return env.core.step(k_step, state, actions)[:4]


def core_flatten(env, ticks: int):
    """The core with its observation flattened after each step and carried flat."""

    def start(key):
        obs, state = env.core.reset(key)
        return arrays.flatten_obs(obs), obs.mask, state

    def tick(carry, k):
        flat, mask, state = carry
        nxt, state, reward, done = _core_step(env, k, state, mask.flat)
        return (arrays.flatten_obs(nxt), nxt.mask, state), (flat, mask.flat, reward, done)

    return _scan_games(ticks, start, tick)


def core_avail(env, ticks: int):
    """The core with the flat mask built from the carried heads at the start of each tick."""

    def start(key):
        obs, state = env.core.reset(key)
        return obs.replace(mask=None), obs.mask.move, obs.mask.pair, state

    def tick(carry, k):
        obs, move, pair, state = carry
        avail = legality.flat_mask(move, pair)
        nxt, state, reward, done = _core_step(env, k, state, avail)
        out = (obs, avail, reward, done)
        return (nxt.replace(mask=None), nxt.mask.move, nxt.mask.pair, state), out

    return _scan_games(ticks, start, tick)


def adapter_state(env, ticks: int):
    """The adapter's step (`_step`, `AdapterState`), its `Obs` leaves kept unflattened."""

    def start(key):
        obs, state = env._reset(key)
        return obs.replace(mask=None), state

    def tick(carry, k):
        obs, state = carry
        avail = state.avail
        k_act, k_step = jax.random.split(k)
        nxt_obs, nxt, reward, done, _ = env._step(k_step, state, whole._draw(k_act, avail), None)
        return (nxt_obs.replace(mask=None), nxt), (obs, avail, reward, done)

    return _scan_games(ticks, start, tick)


def programs(env, games: int, ticks: int) -> dict:
    """name -> jitted program of the keys, the core's first."""
    return {
        "core_trajectory": whole.core_rollout(env, ticks, trajectory=True),
        "core_flatten": core_flatten(env, ticks),
        "core_avail": core_avail(env, ticks),
        "adapter_state": adapter_state(env, ticks),
        "adapter_stacked": whole.adapter_stacked_rollout(env, ticks),
        "adapter_dicts": whole.adapter_rollout(env, ticks, trajectory=True),
        "adapter_dicts_grouped": whole.adapter_rollout(env, ticks, True, stack=grouped_stack),
        "adapter_dicts_agents_first": whole.adapter_rollout(AgentsFirst(env), ticks, True),
    }


MAX_FUSED_OPERANDS = 8  # XLA:CPU fuses a concatenate of at most 8 operands into its consumer


def grouped_stack(tree: dict, agents) -> jax.Array:
    """`adapters.batchify`'s values ((num_agents, ...), `jnp.stack` in `agents` order), built
    as equal stacks of at most `MAX_FUSED_OPERANDS` stacked again and merged by a reshape
    (which XLA does not fold back into one concatenate); one plain stack where the count has
    no such divisor. Raises KeyError for a missing agent, ValueError for no agents."""
    rows = [jnp.asarray(tree[a]) for a in agents]
    if not rows:
        raise ValueError("grouped_stack: no agents to stack")
    n = len(rows)
    group = max((g for g in range(2, MAX_FUSED_OPERANDS + 1) if n % g == 0), default=n)
    if n <= MAX_FUSED_OPERANDS or group == n:
        return jnp.stack(rows)
    groups = {i: jnp.stack(rows[i : i + group]) for i in range(0, n, group)}
    return grouped_stack(groups, list(groups)).reshape((n,) + rows[0].shape)


def agents_first_rows(per_slot: jax.Array, slots) -> list[jax.Array]:
    """(10, ...) -> [per_slot[s] for s in slots], the same values; under `vmap` each row is cut
    from the batch moved agents-first, (10, batch, ...). A `jnp.stack` of the rows under `vmap`
    joins them along a new leading axis, so it then joins consecutive slices of one array,
    which XLA's algebraic simplifier folds into a slice (a plain row is cut along the batch's
    axis 1, and the ten-operand concatenate is written out)."""
    slots = tuple(slots)

    @custom_batching.custom_vmap
    def rows(x):
        return tuple(x[s] for s in slots)

    @rows.def_vmap
    def _batched(axis_size, in_batched, x):
        if not in_batched[0]:
            return rows(x), (False,) * len(slots)
        lead = jnp.moveaxis(x, 0, 1)
        return tuple(lead[s] for s in slots), (True,) * len(slots)

    return list(rows(per_slot))


class AgentsFirst:
    """A `TeamDeathmatch` whose `get_avail_actions` values are `agents_first_rows` of the mask
    (every other attribute the wrapped env's)."""

    def __init__(self, env):
        self.env = env

    def __getattr__(self, name):
        return getattr(self.env, name)

    def get_avail_actions(self, state) -> dict:
        return dict(zip(self.agents, agents_first_rows(state.avail, self.agent_slots), strict=True))


def hlo_counts(compiled_text: str) -> dict:
    """Optimised HLO text -> {op: count} for `HLO_OPS`, plus "copy_bytes" (bytes the copies
    write, one pass of the program)."""
    counts = collections.Counter(re.findall(r"\} (" + "|".join(HLO_OPS) + r")\(", compiled_text))
    copied = 0
    for dtype, dims in re.findall(r"= (\w+)\[([\d,]*)\]\{[^}]*\} copy\(", compiled_text):
        n = 1
        for d in filter(None, dims.split(",")):
            n *= int(d)
        copied += n * BYTES.get(dtype, 4)
    return {op: counts.get(op, 0) for op in HLO_OPS} | {"copy_bytes": copied}


def hlo_report(env, ticks: int) -> dict:
    """{program: hlo_counts} at 8 games, and the world state's (adapter and core)."""
    keys = jax.random.split(jax.random.PRNGKey(0), 8)
    out = {name: hlo_counts(fn.lower(keys).compile().as_text())
           for name, fn in programs(env, 8, ticks).items()}  # fmt: skip
    state = jax.vmap(lambda k: env.reset(k)[1])(keys)
    for name, fn in (("world_state_core", lambda s: env.core.world_state(s.game)),
                     ("world_state_adapter", env.world_state)):  # fmt: skip
        out[name] = hlo_counts(jax.jit(jax.vmap(fn)).lower(state).compile().as_text())
    return out


def run(games: int, ticks: int, rounds: int) -> dict:
    """Compile the eight programs, time them (`bench_adapters.timed_rounds`): clock -> piece ->
    {"ratio": program / core, "noise": core / core again}, and the seconds."""
    env = adapters.make("TeamDeathmatch", maps="train", rosters=["MWHRP/MWHRP"])
    keys = jax.random.split(jax.random.PRNGKey(0), games)
    runs = {name: (lambda fn=fn: jax.block_until_ready(fn(keys)))
            for name, fn in programs(env, games, ticks).items()}  # fmt: skip
    first_call_s = {name: interleaved.time_calls(fn, 1) for name, fn in runs.items()}
    seconds = whole.timed_rounds(runs, rounds)
    core = "core_trajectory"
    ratios = {}
    for clock, named in seconds.items():
        noise = interleaved.ratio_summary(named[whole.again(core)], named[core])
        ratios[clock] = {
            name: {"ratio": interleaved.ratio_summary(named[name], named[core]), "noise": noise}
            for name in runs
            if name != core
        }
        ratios[clock]["dicts_over_stacked"] = {
            "ratio": interleaved.ratio_summary(named["adapter_dicts"], named["adapter_stacked"]),
            "noise": noise,
        }
        ratios[clock]["agents_first_over_dicts"] = {
            "ratio": interleaved.ratio_summary(
                named["adapter_dicts_agents_first"], named["adapter_dicts"]
            ),
            "noise": noise,
        }
        ratios[clock]["grouped_over_dicts"] = {
            "ratio": interleaved.ratio_summary(
                named["adapter_dicts_grouped"], named["adapter_dicts"]
            ),
            "noise": noise,
        }
    return {"games": games, "ticks": ticks, "rounds": rounds, "load_average": os.getloadavg(),
            "first_call_s": first_call_s, "seconds": seconds, "ratio": ratios}  # fmt: skip


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--ticks", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--hlo", action="store_true", help="also count HLO copies at 8 games")
    args = parser.parse_args(argv)
    figures = run(args.games, args.ticks, args.rounds)
    print(f"{args.games} games, {args.ticks} ticks, {args.rounds} ABBA rounds, load average "
          f"{figures['load_average'][0]:.1f} at the end")  # fmt: skip
    for clock, by_name in figures["ratio"].items():
        for name, pair in by_name.items():
            print(f"{clock:>4} {name:>20} / core: {interleaved.describe(pair['ratio'])}")
        print(f"{clock:>4} {'A/A':>20} core: {interleaved.describe(pair['noise'])}")
    if args.hlo:
        figures["hlo"] = hlo_report(adapters.make("TeamDeathmatch"), args.ticks)
        for name, counts in figures["hlo"].items():
            print(f"HLO {name:>20}: {counts}")
    return figures


if __name__ == "__main__":
    main()
