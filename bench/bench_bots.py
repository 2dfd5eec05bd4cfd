"""What a scripted bot's decision costs beside one engine tick (issue #26: target <= 1 tick).

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_bots.py [--batches 128 1024] [--rounds 5]
        [--parts]

Games are first played `--warm` ticks of random legal actions (bench/profile_tick.py), so
bodies are spread over the map and fighting. Then, in one process on one JAX device, these
programs run vmapped over the batch and are timed in alternating rounds
(`evaluation.interleaved`, ABBA order): one engine step (`Env.step`: the tick's rules,
observations, masks, events) and each bot deciding for one team (five slots, its
path-finding Memory warm from the tick before, as in a match). Printed: microseconds per
game, and each bot's ratio to the engine step as the median of the per-round ratios with its
interquartile range, by the wall clock and by the CPU clock (this process's CPU time, all its
threads, which other processes' load on a shared machine barely moves). `--parts` also times
the pieces of a decision (the walking grid, built once a map and kept in Memory, the distance
fields, the landing points and move choice, the combat choice) jitted alone.
`--before PKG` times an earlier copy of the bots beside
the current ones, e.g. made with `git show COMMIT:policies/scripted.py` into PKG/ (renaming
its `policies.scripted_*` imports). Prints figures; asserts nothing.
"""

import argparse
import importlib

import jax

from engine import Config, Env, maps
from evaluation import interleaved
from policies import scripted
from policies import scripted_nav as nav
from policies import scripted_view as sv

try:  # run as a script (bench/ first on the path) or as the module bench.bench_bots
    from profile_tick import warm_games
except ImportError:
    from bench.profile_tick import warm_games

TEAM = (0, 1, 2, 3, 4)


def bot_program(name: str, obs, bots=scripted):
    """jit(vmap) of bot `name` (of the module `bots`) deciding for TEAM, run on `obs`
    (batched) from the Memory of a first decision on the same map (the warm path)."""
    style = bots.STYLES[name]

    def decide(obs, memory):
        return bots.styled_policy(style, obs, obs.mask, memory, TEAM)

    jitted = jax.jit(jax.vmap(decide))
    batch = obs.units.shape[0]
    fresh = jax.vmap(lambda _: bots.fresh_memory(len(TEAM)))(jax.numpy.arange(batch))
    _, memory = jitted(obs, fresh)  # a second decision on the same map: the warm path
    return lambda: jax.block_until_ready(jitted(obs, memory))


def part_programs(obs):
    """name -> run() of the pieces of one tactician decision for TEAM, each jitted alone."""
    style = scripted.STYLES["tactician"]

    def views(obs):
        pick = lambda x: x[: len(TEAM)]  # noqa: E731
        return jax.vmap(sv.read_view)(
            pick(obs.units), pick(obs.visible), pick(obs.relayed), pick(obs.context),
            pick(obs.obstacles), pick(obs.self_index), pick(obs.mask.move), pick(obs.mask.pair),
        )  # fmt: skip

    def grid(obs):
        return nav.grid_links(obs.obstacles[0])

    def field(obs, links):  # the walking grid comes from Memory, as in a match
        v = views(obs)
        goal, _ = jax.vmap(lambda v: scripted._goal(v, style, scripted._focus(v, style)))(v)
        shapes = jax.vmap(lambda o: nav.geometry.shapes(o))(v.obstacles)
        warm = (jax.numpy.zeros((5, nav.ROWS, nav.COLS)) + 3.0, goal, goal[:, 0] == goal[:, 0])
        return jax.vmap(nav.distance_field, (0, None, 0, 0))(goal, links, shapes, warm)

    def move(obs):
        v = views(obs)
        field = jax.numpy.zeros((5, nav.ROWS, nav.COLS))
        return jax.vmap(lambda v, f: sv.choose_move(v, v.me, v.hp * 0 + 1.0, 1.0, f))(v, field)

    def combat(obs):
        def one(v):
            focus = scripted._focus(v, style)
            scores = scripted._attack_scores(v, style, focus, scripted._threat(v))
            return sv.choose_combat(v, scores), scripted._goal(v, style, focus)

        return jax.vmap(one)(views(obs))

    links = jax.jit(jax.vmap(grid))(obs)
    programs = {}
    for name, part, args in (
        ("  walking grid (grid_links, once a map)", grid, (obs,)),
        ("  distance fields (warm, 5 slots)", field, (obs, links)),
        ("  landing points and move choice (5 slots)", move, (obs,)),
        ("  combat choice and goal (5 slots)", combat, (obs,)),
    ):
        jitted = jax.jit(jax.vmap(part))
        jax.block_until_ready(jitted(*args))
        programs[name] = lambda f=jitted, args=args: jax.block_until_ready(f(*args))
    return programs


def measure(env: Env, batch: int, rounds: int, parts: bool, warm: int, before=None) -> None:
    obs, state, actions = warm_games(env, batch, warm)
    keys = jax.random.split(jax.random.PRNGKey(1), batch)
    step = jax.jit(jax.vmap(env.step))
    jax.block_until_ready(step(keys, state, actions))
    runs = {"engine step (Env.step)": lambda: jax.block_until_ready(step(keys, state, actions))}
    for name in scripted.BOTS:
        runs[f"{name} decision (one team)"] = bot_program(name, obs)
        if before is not None:
            runs[f"{name} decision, before (one team)"] = bot_program(name, obs, before)
    if parts:
        runs.update(part_programs(obs))
    programs = {}
    for name, run in runs.items():
        calls = interleaved.calls_for(run)
        programs[name] = lambda run=run, calls=calls: interleaved.time_clocks(run, calls)
    for clock, seconds in interleaved.interleave_clocks(programs, rounds).items():
        print(f"\nbatch {batch}, after {warm} ticks; {rounds} alternating rounds, one JAX device")
        report(seconds, batch, clock, before is not None)


def report(seconds: dict, batch: int, clock: str, before: bool) -> None:
    """Print one clock's table: each program's us a game and its ratio to the engine step, and
    with `before` each bot's now / before ratio (medians of the per-round ratios, IQRs)."""
    engine_rounds = seconds["engine step (Env.step)"]
    print(f"{'program':46s} {'us/game':>9s}  ratio to one engine step (median, IQR), {clock} clock")
    for name, per_round in seconds.items():
        us = sorted(per_round)[len(per_round) // 2] / batch * 1e6
        summary = interleaved.ratio_summary(per_round, engine_rounds)
        print(f"{name:46s} {us:9.2f}  {interleaved.describe(summary)}")
    if before:
        print(f"each bot's decision now against --before ({clock} clock, median, IQR):")
        for name in scripted.BOTS:
            now, then = (
                seconds[f"{name} decision (one team)"],
                seconds[f"{name} decision, before (one team)"],
            )
            summary = interleaved.ratio_summary(now, then)
            print(f"  {name:44s} now / before {interleaved.describe(summary)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, nargs="+", default=[128, 1024])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=40, help="ticks played before timing")
    parser.add_argument("--parts", action="store_true", help="also time a decision's pieces")
    parser.add_argument(
        "--before",
        default=None,
        help="a package holding an earlier copy of policies/scripted*.py (its own imports "
        "renamed), timed beside the current bots",
    )
    args = parser.parse_args()
    before = None if args.before is None else importlib.import_module(f"{args.before}.scripted")
    env = Env(Config(), maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",)), keep_last_obs=False)
    for batch in args.batches:
        measure(env, batch, args.rounds, args.parts, args.warm, before)


if __name__ == "__main__":
    main()
