"""Run by test_scenario_sharding.py in a fresh process with two host CPU devices (XLA fixes
the device count when JAX starts): one batch of scenario games played split over the two
devices and again on one, every state, event and result compared. Prints one JSON line."""

import dataclasses
import json
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax  # noqa: E402
import numpy as np  # noqa: E402

from evaluation import scenario_batch as B  # noqa: E402
from evaluation import scenarios as S  # noqa: E402
from evaluation import sharding  # noqa: E402

FIELDS = ("solved", "outcome", "ticks", "score", "first_death")


def _games():
    # Scenarios 1 (focal A) and 8 (focal B) against a random controller, so the check compiles
    # only the random System and the engine step; 2 x 2 games fill one batch of 4
    one, eight = (dataclasses.replace(s, controller="random") for s in S.load_scenarios(["1", "8"]))
    entries = [B.entry(s, "random") for s in (one, eight)]
    return [B.Game(e, seed, i) for e in entries for i, seed in enumerate((5, 17))]


def _differences(a, b) -> list[str]:
    found = [f for f in FIELDS if getattr(a, f) != getattr(b, f)]
    for part in ("states", "events"):
        x, y = getattr(a.replay, part), getattr(b.replay, part)
        found += [f"{part}.{n}" for n in y if not np.array_equal(x[n], y[n])]
    return found + [p for p in ("visible", "relayed") if not np.array_equal(
        getattr(a.replay, p), getattr(b.replay, p))]  # fmt: skip


def main() -> None:
    games = _games()
    split = sharding.game_sharding(len(games))
    two = [p for _, p in B.play("random", games, record=True, batch=len(games))]
    B.shard_games = lambda tree: tree  # the same batch on the default device alone
    one = [p for _, p in B.play("random", games, record=True, batch=len(games))]
    report = {
        "devices": len(jax.local_devices()),
        "split_over": 0 if split is None else len(split.device_set),
        "solved": [p.solved for p in two],
        "ticks": [p.ticks for p in two],
        "differences": [d for a, b in zip(two, one, strict=True) for d in _differences(a, b)],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
