"""Movement and the whole step, another checkout's collision code beside this one's, one process.

    JAX_PLATFORMS=cpu .venv/bin/python bench/ab_movement.py --base DIR [--batch 1024] [--rounds 15]

DIR is a checkout of the engine to compare with (e.g. `git worktree add --detach DIR main`);
its engine/geometry.py and engine/movement.py are loaded as modules of their own and swapped
into `engine.env` while `bench/profile_tick.py`'s whole-step and movement parts are traced, so
both engines differ only there and run on the same warm games in one process. The four
programs are timed in alternating rounds (`evaluation.interleaved`) by the CPU and wall
clocks; printed: each side's median microseconds per game-tick and the median of the
per-round ratios base / this (above 1: this checkout is faster) with its IQR. Also checks
that both whole steps return the same bytes. Other modules of DIR are not compared.
"""

import argparse
import statistics
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from bench.profile_tick import tick_parts, warm_games  # noqa: E402
from engine import Config, Env, geometry, maps, movement  # noqa: E402
from engine import env as env_module  # noqa: E402
from evaluation import interleaved  # noqa: E402

PARTS = {
    "step": "whole step (auto-reset, obs, masks, events)",
    "movement": "  movement (Charge + 4 collision sub-steps)",
}


def load_module(name: str, path: Path, replace: tuple[tuple[str, str], ...] = ()):
    """The source file `path` run as a fresh module `name`, after the text replacements."""
    source = path.read_text()
    for old, new in replace:
        source = source.replace(old, new)
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def programs(env: Env, sides: dict, keys, state, actions):
    """name -> timing program ({clock: seconds} per call), and name -> outputs of one call."""
    parts = tick_parts(env)
    timed, outputs = {}, {}
    for side, (geo, mov) in sides.items():
        for short, long_name in PARTS.items():
            env_module.geometry, env_module.movement = geo, mov
            try:  # traced on this first call, with this side's modules in place
                jitted = jax.jit(jax.vmap(lambda k, s, a, part=parts[long_name]: part(k, s, a)))
                outputs[side, short] = jax.block_until_ready(jitted(keys, state, actions))
            finally:
                env_module.geometry, env_module.movement = geometry, movement

            def run(f=jitted):
                return jax.block_until_ready(f(keys, state, actions))

            calls = interleaved.calls_for(run)
            timed[f"{side} {short}"] = lambda run=run, calls=calls: interleaved.time_clocks(
                run, calls
            )
    return timed, outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout to compare with")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    base_geometry = load_module("base_geometry", args.base / "engine" / "geometry.py")
    base_movement = load_module(
        "base_movement",
        args.base / "engine" / "movement.py",
        (("from engine import geometry", "import base_geometry as geometry"),),
    )
    pool = maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",))
    env = Env(Config(), pool, keep_last_obs=False)
    _, state, actions = warm_games(env, args.batch, 40)
    keys = jax.random.split(jax.random.PRNGKey(1), args.batch)
    sides = {"base": (base_geometry, base_movement), "this": (geometry, movement)}
    timed, outputs = programs(env, sides, keys, state, actions)
    base_out, this_out = (jax.tree.leaves(outputs[side, "step"]) for side in sides)
    pairs = zip(base_out, this_out, strict=True)
    same = all(np.asarray(a).tobytes() == np.asarray(b).tobytes() for a, b in pairs)
    print(f"batch {args.batch}; whole steps return the same bytes: {same}")
    seconds = interleaved.interleave_clocks(timed, args.rounds)
    for clock, per_name in seconds.items():
        for short in PARTS:
            base, this = per_name[f"base {short}"], per_name[f"this {short}"]
            summary = interleaved.ratio_summary(base, this)
            print(
                f"{clock:4s} {short:8s} base {statistics.median(base) / args.batch * 1e6:7.2f}"
                f"  this {statistics.median(this) / args.batch * 1e6:7.2f} us/game-tick"
                f"  base/this {interleaved.describe(summary)}"
            )


if __name__ == "__main__":
    main()
