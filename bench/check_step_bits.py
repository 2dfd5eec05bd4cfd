"""Is the engine's step still the same bit for bit? Every output of `Env.step` over random play.

    JAX_PLATFORMS=cpu .venv/bin/python bench/check_step_bits.py --save before.npz
    ... change the engine or XLA_FLAGS ...
    JAX_PLATFORMS=cpu .venv/bin/python bench/check_step_bits.py --against before.npz

Records every leaf of what `Env.step` returns (observations with masks, state, reward, done and
info with the tick's `Events` and `last_obs`) over `--games` games x `--ticks` ticks of random
legal actions, with three rosters and a 40-tick horizon so that auto-reset runs several times
a game: once vmapped over the games inside one `lax.scan` (as training and tournaments run),
and once for a single game stepped by `jit(env.step)` from a Python loop (as the apps do).
`--against` compares the bytes of each leaf with a saved file and names those that differ,
with the unit-row features (RULES 5.3) where they differ and the largest difference; it exits
1 when any does. Speed work on engine/ must keep this at zero (issue #26). The saved file is
written atomically and never over an existing one.
"""

import argparse
import collections
import os
import sys
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

ROSTERS = ("MWHRP/MWHRP", "MWP/HRP", "WWHRP/MMRPP")


def record(games: int, ticks: int) -> dict[str, np.ndarray]:
    """name -> array of every step output: batched leaves (ticks, games, ...), then "single"
    leaves (ticks, ...) of one game stepped alone."""
    import engine
    from engine.sampling import random_legal_actions

    env = engine.make(maps="train", rosters=ROSTERS, horizon=40)

    def rollout(keys):
        obs, state = jax.vmap(env.reset)(keys)

        def tick(carry, key):
            obs, state = carry
            k_act, k_step = jax.random.split(key)
            acts = jax.vmap(random_legal_actions)(jax.random.split(k_act, games), obs.mask)
            out = jax.vmap(env.step)(jax.random.split(k_step, games), state, acts)
            return (out[0], out[1]), out

        return jax.lax.scan(tick, (obs, state), jax.random.split(keys[0], ticks))[1]

    batched = jax.jit(rollout)(jax.random.split(jax.random.PRNGKey(7), games))
    leaves = {jax.tree_util.keystr(p): np.asarray(v) for p, v in _with_paths(batched)}
    step, sample = jax.jit(env.step), jax.jit(random_legal_actions)
    key = jax.random.PRNGKey(3)
    obs, state = jax.jit(env.reset)(key)
    single = []
    for _ in range(ticks):
        key, k_act, k_step = jax.random.split(key, 3)
        out = step(k_step, state, sample(k_act, obs.mask))
        obs, state = out[0], out[1]
        single.append(out)
    stacked = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *single)
    leaves.update(
        {"single" + jax.tree_util.keystr(p): np.asarray(v) for p, v in _with_paths(stacked)}
    )
    return leaves


def _with_paths(tree):
    return jax.tree_util.tree_leaves_with_path(tree)


def differences(before: dict, now: dict) -> list[str]:
    """One line per leaf whose dtype, shape or bytes differ (or that only one side has)."""
    from engine.types import ROW_FEATURES

    lines = [f"{name}: only in one file" for name in sorted(set(before) ^ set(now))]
    for name in sorted(set(before) & set(now)):
        a, b = before[name], now[name]
        if a.dtype != b.dtype or a.shape != b.shape:
            lines.append(f"{name}: {a.dtype}{a.shape} before, {b.dtype}{b.shape} now")
        elif a.tobytes() != b.tobytes():
            where = np.argwhere(a != b)
            line = f"{name}: {len(where)} of {a.size} values differ"
            if np.issubdtype(a.dtype, np.floating):
                line += f", by at most {np.max(np.abs(a.astype(np.float64) - b)):.3g}"
            if name.endswith(".units"):
                columns = collections.Counter(ROW_FEATURES[i] for i in where[:, -1])
                line += f", in the columns {dict(columns)}"
            lines.append(line)
    return lines


def save_new(path: Path, leaves: dict) -> None:
    """Write `leaves` to `path` (.npz) atomically; never over an existing file."""
    if path.exists():
        raise SystemExit(f"{path}: already exists; choose a new name")
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".npz.part")
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez(out, **leaves)
        os.link(temporary, path)  # fails rather than replace a file made meanwhile
    finally:
        os.unlink(temporary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--save", type=Path, help="record to this new .npz file")
    which.add_argument("--against", type=Path, help="compare with this saved .npz file")
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--ticks", type=int, default=120)
    args = parser.parse_args()
    jax.config.update("jax_enable_compilation_cache", False)
    if args.against is not None and not args.against.exists():
        raise SystemExit(f"{args.against}: no such file")
    leaves = record(args.games, args.ticks)
    if args.save is not None:
        save_new(args.save, leaves)
        print(f"{len(leaves)} leaves of {args.games} games x {args.ticks} ticks -> {args.save}")
        return
    with np.load(args.against) as saved:
        before = {name: saved[name] for name in saved.files}
    lines = differences(before, leaves)
    print(f"{len(leaves)} leaves compared bit for bit with {args.against}: {len(lines)} differ")
    for line in lines:
        print("  " + line)
    sys.exit(1 if lines else 0)


if __name__ == "__main__":
    main()
