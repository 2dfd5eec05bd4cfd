"""Other ways to build the dict path's (680,) rows, timed against the core (issue 25).

    python bench/bench_adapter_rows.py [--games 1024] [--ticks 4] [--rounds 9] [--ways ...]

Every program is the rollout-buffer reading of `bench_adapters` through the dicts (the
adapter's `step` and `get_avail_actions`, stacked by the learner with `adapters.batchify`);
only the way the adapter builds each agent's row from the step's `Obs` changes. Each way gives
the same values as `arrays.flatten_obs` (tested), so a ratio is what the construction costs:

- rows: the shipped one (`arrays.agent_vectors`), each row concatenated from the fields as
  (340, 2) pairs, a concatenate XLA fuses with the slices and casts;
- minor: each row concatenated from the fields along its one axis (the minor one, which XLA
  on a CPU never fuses: every slice is written out, then copied in);
- block: `flatten_obs` once, the rows sliced out of the (10, 680) block;
- precast: each `Obs` leaf sliced to the agent's row before its float32 cast;
- pad: each row as the sum of its fields zero-padded to 680 (one fused loop, no concatenate);
- dus: each row written field by field with `lax.dynamic_update_slice`;
- team_obstacles: `rows`, the obstacle table sliced once a team, since a team's five slots
  share one frame (RULES 5.8: the east flag is the team's);
- barrier: `rows` from `Obs` leaves written out first (`lax.optimization_barrier`; the obstacle
  table, built from the state's (32, 8) one, left to fuse), so each row's loop only casts and
  joins instead of also evaluating the leaves' selects (not kept: 1.16x against `rows`' 1.13x
  in one run, issue 25).

Why a concatenate stays: XLA's CPU fusion never fuses a concatenate along the minor dimension
(nor one with over 8 operands), it materialises the operands and copies them in
(`CpuInstructionFusion::ShouldFuse`, xla/service/cpu/cpu_instruction_fusion.cc), so each
formulation that avoids it emits slower fused loops.
"""

import argparse
import statistics
import sys
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters import arrays  # noqa: E402
from adapters.jaxmarl_env import TeamDeathmatch  # noqa: E402
from adapters.spaces import FLAT_DIM, FLAT_LAYOUT  # noqa: E402
from bench import bench_adapters as whole  # noqa: E402
from engine import constants as C  # noqa: E402
from evaluation import interleaved  # noqa: E402


def _padded_sum(pieces) -> jnp.ndarray:
    total, offset = 0.0, 0
    for piece in pieces:
        total = total + jnp.pad(piece, (offset, FLAT_DIM - offset - piece.shape[0]))
        offset += piece.shape[0]
    return total


def _updated(pieces) -> jnp.ndarray:
    row, offset = jnp.zeros(FLAT_DIM, jnp.float32), 0
    for piece in pieces:
        row = jax.lax.dynamic_update_slice(row, piece, (offset,))
        offset += piece.shape[0]
    return row


def _team_rows(obs, slots) -> list[jnp.ndarray]:
    parts = arrays._flat_parts(obs)
    names = [name for name, _ in FLAT_LAYOUT]
    first = {slot: slot - slot % C.TEAM_SIZE for slot in slots}
    return [jnp.concatenate([part[first[s]] if name == "obstacles" else part[s]
                             for name, part in zip(names, parts, strict=True)])
            for s in slots]  # fmt: skip


def _precast_rows(obs, slots) -> list[jnp.ndarray]:
    return [jnp.concatenate([getattr(obs, name)[s].astype(jnp.float32).reshape(-1)
                             for name, _ in FLAT_LAYOUT]) for s in slots]  # fmt: skip


def _minor_rows(obs, slots) -> list[jnp.ndarray]:
    parts = arrays._flat_parts(obs)
    return [jnp.concatenate([part[s] for part in parts]) for s in slots]


def _barrier_rows(obs, slots) -> list[jnp.ndarray]:
    names = [name for name, _ in FLAT_LAYOUT if name != "obstacles"]
    leaves = jax.lax.optimization_barrier([getattr(obs, name) for name in names])
    return arrays.agent_vectors(obs.replace(**dict(zip(names, leaves, strict=True))), slots)


WAYS = {
    "rows": arrays.agent_vectors,
    "minor": _minor_rows,
    "block": lambda obs, slots: [arrays.flatten_obs(obs)[s] for s in slots],
    "precast": _precast_rows,
    "pad": lambda obs, slots: [_padded_sum([p[s] for p in arrays._flat_parts(obs)]) for s in slots],
    "dus": lambda obs, slots: [_updated([p[s] for p in arrays._flat_parts(obs)]) for s in slots],
    "team_obstacles": _team_rows,
    "barrier": _barrier_rows,
}


def env_building_rows(way: str) -> TeamDeathmatch:
    """TeamDeathmatch whose dicts' rows are built the named way (a key of `WAYS`)."""
    build = WAYS[way]

    class Rows(TeamDeathmatch):
        def _obs_dict(self, obs):
            return dict(zip(self.agents, build(obs, self.agent_slots), strict=True))

    return Rows(maps="train", rosters=["MWHRP/MWHRP"])


def run(games: int, ticks: int, rounds: int, ways) -> dict:
    """Compile the core's trajectory and one dict program a way, time them in ABBA rounds
    (`bench_adapters.timed_rounds`): clock -> way -> ratio summary over the core, and "A/A"."""
    keys = jax.random.split(jax.random.PRNGKey(0), games)
    fns = {"core_trajectory": whole.core_rollout(env_building_rows("rows"), ticks, True)}
    fns |= {way: whole.adapter_rollout(env_building_rows(way), ticks, True) for way in ways}
    runs = {name: (lambda fn=fn: jax.block_until_ready(fn(keys))) for name, fn in fns.items()}
    for call in runs.values():
        call()  # compile outside the timed rounds
    seconds = whole.timed_rounds(runs, rounds)
    core = "core_trajectory"
    ratios = {}
    for clock, named in seconds.items():
        ratios[clock] = {way: interleaved.ratio_summary(named[way], named[core]) for way in ways}
        ratios[clock]["A/A"] = interleaved.ratio_summary(named[whole.again(core)], named[core])
    return {"seconds": seconds, "ratio": ratios}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--ticks", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--ways", nargs="+", choices=list(WAYS), default=list(WAYS))
    args = parser.parse_args(argv)
    figures = run(args.games, args.ticks, args.rounds, args.ways)
    for clock, by_way in figures["ratio"].items():
        for way, summary in by_way.items():
            named = figures["seconds"][clock]
            seconds = named.get(way, named["core_trajectory"])
            print(f"{clock:>4} {way:>15} / core: {interleaved.describe(summary)}  "
                  f"(median {statistics.median(seconds):.3f} s a call)")  # fmt: skip
    return figures


if __name__ == "__main__":
    main()
