"""Run by test_parallel.py in a fresh process with two host CPU devices (XLA's device count is
fixed when JAX starts). Prints one JSON line of measured differences."""

import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
os.environ["JAX_PLATFORMS"] = "cpu"
# `mbg train` below: the caller's compile cache, none by default (not the user's ~/.cache)
os.environ.setdefault("MBG_JAX_CACHE", os.environ.get("JAX_COMPILATION_CACHE_DIR", ""))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from cli.main import main as cli_main  # noqa: E402
from training import common, ippo, parallel, selfplay  # noqa: E402

# Per device (3 games): one self-play, one ghost-pool, one scripted game; 40 learner agents in
# all, so 160 trainer steps an update: a snapshot every update, the window of 3 full by the
# third (the oldest then dropped).
TINY = ippo.IPPOConfig(
    maps=("0-3",), num_envs=6, rollout=4, minibatches=1, epochs=1, embed=8, torso=16, hidden=8,
    updates_per_log=1, logs_per_checkpoint=1,
    opponents=(("self", 1.0), ("pool", 1.0), ("scripted:brawler", 1.0)),
    save_steps=160, window=3, swap_steps=1,
)  # fmt: skip
REPLICATED = [f for f in selfplay.GhostState._fields if f not in selfplay.PER_GAME_FIELDS]
COUNTERS = ("taken", "size", "head", "since_save", "trainer_steps")


def gradient_gap() -> float:
    """Largest |difference| between one device's gradient of a whole batch and the sum of two
    devices' gradients of its halves (advantages standardised over both halves)."""
    trainer = ippo.make_train(TINY)
    runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
    _, batch, hidden0, _ = jax.jit(trainer.collect)(runner)
    batch = ippo.swap_leading_axes(batch)  # (n, T), as the epochs hold it
    want = ippo.make_grad(TINY, trainer.network)(runner.params, hidden0, batch)
    split = ippo.make_grad(TINY, trainer.network, parallel.AXIS)
    on_two = jax.shard_map(
        split, mesh=parallel.device_mesh(2), in_specs=(P(), P(parallel.AXIS), P(parallel.AXIS)),
        out_specs=P(), check_vma=False,
    )  # fmt: skip
    got = jax.jit(on_two)(runner.params, hidden0, batch)
    gaps = [np.max(np.abs(np.asarray(a) - np.asarray(b))) for a, b in
            zip(jax.tree.leaves(want), jax.tree.leaves(got), strict=True)]  # fmt: skip
    return float(max(gaps))


def leaves_same_on_devices(tree) -> bool:
    return all(
        all(np.array_equal(np.asarray(s.data), np.asarray(leaf.addressable_shards[0].data))
            for s in leaf.addressable_shards)
        for leaf in jax.tree.leaves(tree)
    )  # fmt: skip


def pool_tick_gaps() -> dict:
    """One tick of ghost ratings and swaps (selfplay.after_tick) over 12 games (8 pool games,
    4 against a fixed entrant) on one device, and split device-major over two (6 each, the
    pool's rest replicated): the opponent draws must be equal, the Elo equal up to the order
    of float sums."""
    k_choice, k_done, k_score, k_steps, k_ghost = jax.random.split(jax.random.PRNGKey(3), 5)
    local_pool, local_fixed = np.arange(4), np.array([0, 1])  # per device: 4 pool, 2 fixed
    pool_games = np.concatenate([local_pool, local_pool + 6]).astype(np.int32)
    fixed_group = np.tile(np.r_[np.full(4, -1), local_fixed], 2).astype(np.int32)
    ghost = selfplay.GhostState(
        params=jnp.zeros((5, 2)), rating=jnp.linspace(1100.0, 1300.0, 5),
        taken=jnp.arange(5, dtype=jnp.int32), size=jnp.int32(5), head=jnp.int32(0),
        since_save=jnp.int32(0), trainer_steps=jnp.int32(9), learner_elo=jnp.float32(1230.0),
        fixed_elo=jnp.array([1150.0, 1260.0]),
        choice=jax.random.randint(k_choice, (8,), -1, 5), ghost_steps=
        jax.random.randint(k_steps, (8,), 0, 8), carry=jnp.zeros((8, 5, 3)), key=k_ghost,
    )  # fmt: skip
    done = jax.random.bernoulli(k_done, 0.7, (12,))
    score = jax.random.randint(k_score, (12,), 0, 3) / 2.0
    agents = (jnp.full(8, 5), jnp.full(8, 5))
    config = dataclasses.replace(TINY.ghost, swap_steps=4)

    def tick(ghost, done, score, fixed_group, pool_games, agents, axis=None):
        return selfplay.after_tick(
            ghost, config, done, score, fixed_group, pool_games, agents, axis
        )

    one = tick(ghost, done, score, fixed_group, pool_games, agents)
    split, same = P(parallel.AXIS), P()
    spec = selfplay.ghost_spec(same, split)
    on_two = jax.shard_map(
        lambda *a: tick(*a, parallel.AXIS), mesh=parallel.device_mesh(2),
        in_specs=(spec, split, split, split, same, split), out_specs=(spec, split),
        check_vma=False,
    )  # fmt: skip
    two = jax.jit(on_two)(ghost, done, score, fixed_group, jnp.asarray(local_pool), agents)
    exact = ("choice", "ghost_steps", "key", "size", "trainer_steps")
    return {
        "pool_swaps": int(np.asarray(one[1]).sum()),
        "pool_tick_equal": all(
            np.array_equal(getattr(one[0], f), getattr(two[0], f)) for f in exact
        ) and np.array_equal(one[1], two[1]),
        "pool_elo_gap": float(max(
            np.max(np.abs(np.asarray(getattr(one[0], f)) - np.asarray(getattr(two[0], f))))
            for f in ("learner_elo", "rating", "fixed_elo")
        )),
        "pool_elo_moved": float(abs(one[0].learner_elo - ghost.learner_elo)),
    }  # fmt: skip


def pool_figures(whole, root: str) -> dict:
    """The ghost pool of the two-device run: whether its replicated part is the same on both
    devices, its snapshot counters and the pool size logged after each update."""
    lines = open(f"{root}/whole/metrics.jsonl", encoding="utf-8").read().splitlines()
    return {
        "pool_same_on_devices": leaves_same_on_devices(
            [getattr(whole.ghost, f) for f in REPLICATED]
        ),
        **{f"pool_{f}": np.asarray(getattr(whole.ghost, f)).tolist() for f in COUNTERS},
        "pool_sizes": [json.loads(x)["pool/size"] for x in lines],
        "pool_games": int(np.asarray(whole.ghost.choice).shape[0]),
        "elo_finite": bool(np.isfinite(np.asarray(whole.ghost.learner_elo))),
    }


def main(root: str) -> None:
    config = dataclasses.replace(TINY, devices=2)
    step = config.steps_per_update
    whole, _ = ippo.run(config, f"{root}/whole", steps=3 * step, show=False)
    # The first session through `mbg train ippo --devices 2` (the pool on two devices).
    path = f"{root}/tiny.json"
    with open(path, "w", encoding="utf-8") as file:
        json.dump(common.config_to_dict(TINY), file)
    argv = ["train", "ippo", "--config", path, "--devices", "2", "--steps", str(step)]
    cli_code = cli_main([*argv, "--out", f"{root}/split", "--quiet"])
    resumed, _ = ippo.run(None, f"{root}/split", resume=True, steps=3 * step, show=False)
    equal = all(
        np.array_equal(np.asarray(a), np.asarray(b))
        for a, b in zip(jax.tree.leaves(whole), jax.tree.leaves(resumed), strict=True)
    )
    games = np.asarray(whole.env_state.tick)
    report = {
        "gradient_gap": gradient_gap(),
        "cli_code": cli_code,
        "resume_equal": equal,
        "same_params": leaves_same_on_devices((whole.params, whole.opt_state, whole.rng)),
        "devices": len(jax.tree.leaves(whole.params)[0].sharding.device_set),
        "games": int(games.shape[0]),
        "halves_differ": not np.array_equal(
            np.asarray(whole.env_state.pos)[:3], np.asarray(whole.env_state.pos)[3:]
        ),
        "updates": int(whole.update),
        **pool_figures(whole, root),
        **pool_tick_gaps(),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])
