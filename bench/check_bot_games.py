"""Whole bot-against-bot games from an earlier copy of the bots and the current ones: same actions?

    PYTHONPATH=.:DIR JAX_PLATFORMS=cpu .venv/bin/python bench/check_bot_games.py --before PKG
        [--games 4] [--ticks 200] [--maps test]

PKG (importable from DIR) holds an earlier `policies/scripted*.py`, made as for
`bench/bench_bots.py --before` (`git show COMMIT:policies/scripted.py` into PKG/, its
`policies.scripted_*` imports renamed). Two pairings (tactician-kiter, brawler-tactician) play
`--games` games each, `--ticks` ticks, roster MWHRP/MWHRP, spawn ends drawn, with each side's
path-finding Memory carried as in a match; the earlier and current bots play from the same
keys, and every tick's (move, target, ult) of all ten slots is compared. A speed-up of the bots
must print "identical" for both pairings (issue #26). Prints; exits 1 when an action differs.
"""

import argparse
import functools
import importlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

import engine
from policies import scripted

TEAM_A, TEAM_B = (0, 1, 2, 3, 4), (5, 6, 7, 8, 9)
PAIRINGS = (("tactician", "kiter"), ("brawler", "tactician"))


def play(bots, env, west: str, east: str, key, ticks: int):
    """Every tick's actions (3, ticks, 10) int32 of one game between two bots of module `bots`."""

    def tick(carry, k):
        obs, state, memory_a, memory_b = carry
        a, memory_a = bots.styled_policy(bots.STYLES[west], obs, obs.mask, memory_a, TEAM_A)
        b, memory_b = bots.styled_policy(bots.STYLES[east], obs, obs.mask, memory_b, TEAM_B)
        actions = jax.tree.map(lambda x, y: jnp.where(jnp.arange(10) >= 5, y, x), a, b)
        obs, state, *_ = env.step(k, state, actions)
        return (obs, state, memory_a, memory_b), jnp.stack(
            [actions.move, actions.target, actions.ult]
        )

    obs, state = env.reset(key)
    fresh = bots.fresh_memory(len(TEAM_A))
    return jax.lax.scan(tick, (obs, state, fresh, fresh), jax.random.split(key, ticks))[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="package holding the earlier bots")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--ticks", type=int, default=200)
    parser.add_argument("--maps", default="test", help="map split (engine.maps)")
    args = parser.parse_args()
    before = importlib.import_module(f"{args.before}.scripted")
    env = engine.make(maps=args.maps, rosters=["MWHRP/MWHRP"], p_east=0.5)
    differing = 0
    for p, (west, east) in enumerate(PAIRINGS):
        keys = jax.random.split(jax.random.PRNGKey(700 + p), args.games)
        runs = []
        for bots in (before, scripted):
            game = functools.partial(play, bots, env, west, east, ticks=args.ticks)
            runs.append(np.asarray(jax.jit(jax.vmap(game))(keys)))
        count = int((runs[0] != runs[1]).sum())
        differing += count
        verdict = "identical" if count == 0 else f"{count} actions differ"
        print(f"{west} vs {east}, {args.games} games x {args.ticks} ticks x 10 slots: {verdict}")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
