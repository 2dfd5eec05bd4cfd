"""Batches of games split over the host's CPU devices.

XLA:CPU runs one program on one thread of one device, so a process uses both of this machine's
cores only when a batch is sharded over two host devices (`--xla_force_host_platform_device_count`,
set by `evaluation.engine_bench.set_host_devices` before JAX starts). Games are independent, so
a vmapped program sharded along its game axis computes each game as the unsharded one does.
"""

import jax
import numpy as np


def game_sharding(batch: int):
    """The NamedSharding that splits axis 0 (games) over the local devices, or None where one
    device is all there is or `batch` (games) does not divide among them."""
    devices = jax.local_devices()
    if len(devices) == 1 or batch % len(devices):
        return None
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    return NamedSharding(Mesh(np.array(devices), ("games",)), PartitionSpec("games"))


def shard_games(tree):
    """Every array leaf of `tree` (leading axis: games) placed split over the local devices
    (`game_sharding`); the tree as it is where it cannot be split."""
    leaves = jax.tree.leaves(tree)
    sharding = game_sharding(int(np.shape(leaves[0])[0])) if leaves else None
    return tree if sharding is None else jax.device_put(tree, sharding)
