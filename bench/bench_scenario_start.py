"""BattleClient: how long a scenario takes to start, as the client runs it (issue: ~80 s).

    .venv/bin/python bench/bench_scenario_start.py [--scenarios 1 2 8] [--no-warm-up]

In one process, as the client does it: JAX set up by battleclient.controllers.configure_jax
with the persistent compile cache in a fresh empty folder (so nothing comes from an earlier
run), the lobby's start-up warm-up of the default setup (skipped with --no-warm-up), then
each scenario's build job (battleclient.scenario_play.build_scenario_game: the person on the
first focal slot, as the Scenarios screen picks) to its first orders screen. Prints each
stage's time and each scenario's total; asserts nothing. Run it before and after a change on
the same machine (`PYTHONPATH=OTHER_TREE` for the other tree) and compare.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("JAX_PLATFORMS", "cpu")


class Stages:
    """The build jobs' `progress`: prints each stage with the seconds since the job began."""

    fraction, done = 0.0, False

    def __init__(self):
        self.began = time.perf_counter()

    def stage(self, text: str, fraction: float) -> None:
        print(f"    {time.perf_counter() - self.began:6.1f} s  {text}", flush=True)
        self.fraction = fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", nargs="+", default=["1", "2", "8"])
    parser.add_argument("--no-warm-up", dest="warm", action="store_false")
    args = parser.parse_args()
    os.environ["MBG_JAX_CACHE"] = tempfile.mkdtemp(prefix="mbg-bench-cache-")
    from battleclient.controllers import configure_jax, warm_up

    configure_jax()
    from battleclient.game_setup import ClientSetup
    from battleclient.map_catalog import maps_by_split, read_catalog
    from battleclient.scenario_play import build_scenario_game
    from evaluation.scenarios import load_scenario

    if args.warm:
        progress = Stages()
        warm_up(progress, ClientSetup(), maps_by_split(read_catalog()))
        print(f"lobby warm-up: {time.perf_counter() - progress.began:.1f} s", flush=True)
    for name in args.scenarios:
        scenario = load_scenario(name)
        progress = Stages()
        build_scenario_game(progress, scenario, [scenario.focal_slots[0]], "")
        took = time.perf_counter() - progress.began
        print(f"scenario {name}: {took:.1f} s to the first orders screen", flush=True)


if __name__ == "__main__":
    main()
