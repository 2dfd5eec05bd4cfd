"""Run by test_parallel.py in a fresh process with two host CPU devices (XLA's device count is
fixed when JAX starts). Prints one JSON line of measured differences."""

import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
os.environ["JAX_PLATFORMS"] = "cpu"

import dataclasses  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from training import ippo, parallel  # noqa: E402

TINY = ippo.IPPOConfig(
    maps=("0-3",), num_envs=4, rollout=4, minibatches=1, epochs=1, embed=8, torso=16, hidden=8,
    updates_per_log=1, logs_per_checkpoint=1,
    opponents=(("self", 0.5), ("scripted:brawler", 0.5)),
)  # fmt: skip


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


def main(root: str) -> None:
    config = dataclasses.replace(TINY, devices=2)
    step = config.steps_per_update
    whole, _ = ippo.run(config, f"{root}/whole", steps=3 * step, show=False)
    ippo.run(config, f"{root}/split", steps=step, show=False)
    resumed, _ = ippo.run(None, f"{root}/split", resume=True, steps=3 * step, show=False)
    equal = all(
        np.array_equal(np.asarray(a), np.asarray(b))
        for a, b in zip(jax.tree.leaves(whole), jax.tree.leaves(resumed), strict=True)
    )
    games = np.asarray(whole.env_state.tick)
    report = {
        "gradient_gap": gradient_gap(),
        "resume_equal": equal,
        "same_params": leaves_same_on_devices((whole.params, whole.opt_state, whole.rng)),
        "devices": len(jax.tree.leaves(whole.params)[0].sharding.device_set),
        "games": int(games.shape[0]),
        "halves_differ": not np.array_equal(
            np.asarray(whole.env_state.pos)[:2], np.asarray(whole.env_state.pos)[2:]
        ),
        "updates": int(whole.update),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])
