"""Data-parallel learners over host devices (IPPO, IPPO-FF and MAPPO; QMIX and PQN-VDN with
their own runner layouts, `make_parallel_train`'s runner_spec): each CPU device collects its
own share of the games and replays its own learner sequences; gradients, advantage statistics
and counts are summed (or averaged) across devices (`jax.shard_map`, psum), so every device
holds the same parameters.

Why not let XLA shard one big batch: the PPO epochs gain nothing from XLA's threads on this
CPU (one pinned core ran an update's epochs as fast as two), and a batch sharded by XLA's
partitioner ran slower than one device (shuffling sequences across devices became gathers). One
independent collector per device, whose only exchange is the gradient sum, uses both cores.

A run with `devices` D plays D copies of the opponent layout of num_envs / D games, with its
own random draws per device (training.ippo.make_train with axis_name); the same seed and D give
the same run, but a different D is a different run.

The ghost pool (opponents "pool", training.selfplay) is replicated: every device holds the same
snapshots, ratings, counters and sampler key (updated from psummed trainer steps and Elo
changes), and each device keeps its own pool games' opponents, ghost steps and ghost carries.
Each opponent draw is made for all D x G pool games alike on every device and each device takes
its block (selfplay.device_block), so a device's games pick opponents as one device holding
all of them would; what differs from a one-device run is only which games those are (their own
maps, spawns and actions) and so which games end when.
"""

import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

AXIS = "games"


def device_key(key, axis_name=None):
    """This device's own random key: `key` folded with the device's index on `axis_name`
    (`key` itself when None), so each device draws its own games while the carried key stays
    the same everywhere."""
    return key if axis_name is None else jax.random.fold_in(key, jax.lax.axis_index(axis_name))


def pmean(tree, axis_name=None):
    """The mean of every leaf over the devices of `axis_name` (`tree` itself when None)."""
    return tree if axis_name is None else jax.lax.pmean(tree, axis_name)


def device_mesh(count: int, name: str = "IPPOConfig") -> Mesh:
    """A 1-D mesh of the first `count` devices. Raises ValueError naming the config class
    `name` when JAX has fewer."""
    devices = jax.devices()
    if len(devices) < count:
        raise ValueError(
            f"{name}.devices: {count}, but JAX has {len(devices)} device(s); on a CPU, set "
            f"XLA_FLAGS=--xla_force_host_platform_device_count={count} before JAX starts "
            "(mbg train does so)"
        )
    return Mesh(np.array(devices[:count]), (AXIS,))


def _runner_spec(ippo, ghost):
    """Where each RunnerState field lives: per-game state split over devices, the rest
    (parameters, optimiser state, the carried rng, the update count, the pool of maps, the
    curriculum) the same on all; `ghost` the ghost pool's (selfplay.ghost_spec: snapshots and
    Elo the same on all, each pool game's opponent with its device's games)."""
    split, same = P(AXIS), P()
    return ippo.RunnerState(
        params=same, opt_state=same, env_state=split, obs=split, hidden=split, reset=split,
        opponents=split, rng=same, update=same, pool=same, ghost=ghost, curriculum=same,
        partners=split,
    )  # fmt: skip


def make_parallel_train(config, make_train=None, runner_spec=None, local_config=None):
    """The learner's Trainer for config.devices > 1: init, update (and train, where the
    Trainer has one) run on a device mesh; collect and learn (one device's parts, for
    benchmarks) are None. make_train: the learner's (default training.ippo.make_train), called
    as make_train(local_config, axis_name=AXIS); runner_spec(same, split): its runner state of
    PartitionSpecs when it is not an ippo.RunnerState (training.qmix, training.pqn_vdn);
    local_config: one device's config (default: num_envs / devices games, devices 1)."""
    from training import ippo, selfplay

    local_config = local_config or dataclasses.replace(
        config, num_envs=config.num_envs // config.devices, devices=1
    )
    local = (make_train or ippo.make_train)(local_config, axis_name=AXIS)
    mesh = device_mesh(config.devices, type(config).__name__)

    def on_mesh(fn, in_specs, out_specs):
        # check_vma off: the engine's scans start from constants that its games then make
        # device-varying; the outputs declared the same on all devices are (psummed gradients
        # and counts, the carried rng and update count), as tests/training check.
        return jax.shard_map(fn, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False)

    if runner_spec is not None:
        runner = runner_spec(P(), P(AXIS))
    else:  # a learner without ghosts carries an empty `ghost`; the shapes tell
        shapes = jax.eval_shape(on_mesh(local.init, (P(),), P()), jax.random.PRNGKey(0))
        with_ghosts = isinstance(shapes.ghost, selfplay.GhostState)
        runner = _runner_spec(ippo, selfplay.ghost_spec(P(), P(AXIS)) if with_ghosts else P())
    parts = {
        "config": config,
        "init": on_mesh(local.init, (P(),), runner),
        "update": on_mesh(local.update, (runner,), (runner, P())),
        "collect": None,
        "learn": None,
    }
    if "train" in local._fields:
        parts["train"] = on_mesh(local.train, (P(),), (runner, P()))
    return local._replace(**parts)
