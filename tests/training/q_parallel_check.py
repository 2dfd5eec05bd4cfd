"""Run by test_q_parallel.py in a fresh process with two host CPU devices (XLA's device count
is fixed when JAX starts): QMIX and PQN-VDN on two devices. Prints one JSON line of measured
differences."""

import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
os.environ["JAX_PLATFORMS"] = "cpu"
# `mbg train` below: the caller's compile cache, none by default (not the user's ~/.cache)
os.environ.setdefault("MBG_JAX_CACHE", os.environ.get("JAX_COMPILATION_CACHE_DIR", ""))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from cli.main import main as cli_main  # noqa: E402
from training import common, parallel, pqn_vdn, qmix  # noqa: E402
from training.selfplay import PER_GAME_FIELDS  # noqa: E402

SMALL = dict(maps=("0-3",), embed=8, torso=16, hidden=8, updates_per_log=1,
             logs_per_checkpoint=1)  # fmt: skip
# Per device: one self-play game (two learner teams), one against random (and for PQN-VDN
# one against the ghost pool: 4 learner teams x 5 agents x 4 ticks = 80 trainer steps a
# device, 160 an update, a snapshot each update into the window of 2).
MIX = (("self", 1.0), ("random", 1.0))
CONFIGS = {
    "pqn-vdn": pqn_vdn.PQNConfig(**SMALL, num_envs=6, rollout=4, minibatches=1, epochs=2,
                                 opponents=(*MIX, ("pool", 1.0)), save_steps=160, window=2,
                                 swap_steps=1),
    "qmix": qmix.QMIXConfig(**SMALL, num_envs=4, horizon=12, buffer_games=12, batch_games=4,
                            gradient_steps=1, target_every=2, opponents=MIX),
}  # fmt: skip
MODULES = {"pqn-vdn": pqn_vdn, "qmix": qmix}


def largest_gap(a, b) -> float:
    pairs = zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
    return float(max(np.max(np.abs(np.asarray(x) - np.asarray(y))) for x, y in pairs))


def leaves_same_on_devices(tree) -> bool:
    return all(
        all(np.array_equal(np.asarray(s.data), np.asarray(leaf.addressable_shards[0].data))
            for s in leaf.addressable_shards)
        for leaf in jax.tree.leaves(tree)
    )  # fmt: skip


def on_two(fn, in_specs, out_specs):
    return jax.jit(jax.shard_map(fn, mesh=parallel.device_mesh(2), in_specs=in_specs,
                                 out_specs=out_specs, check_vma=False))  # fmt: skip


def pqn_learn_gap(config) -> dict:
    """One update's learning (epochs x minibatches = 2 gradient steps) on one rollout, by
    one device holding every learner team and by two holding half each."""
    one = pqn_vdn.make_train(config)
    runner = jax.jit(one.init)(jax.random.PRNGKey(0))
    _, batch, hidden0, _ = jax.jit(one.collect)(runner)
    want, _ = jax.jit(one.learn)(runner, batch, hidden0)
    local = pqn_vdn.make_train(
        dataclasses.replace(config, num_envs=config.num_envs // 2), parallel.AXIS
    )
    spec = pqn_vdn.runner_spec(P(), P(parallel.AXIS))
    split_time_major = P(None, parallel.AXIS)  # (T, n) agents / (T, teams)
    learn = on_two(local.learn, (spec, split_time_major, P(parallel.AXIS)), (spec, P()))
    got, _ = learn(runner, batch, hidden0)
    moved = largest_gap(want.params, runner.params)
    return {"learn_gap": largest_gap(want.params, got.params), "learn_moved": moved}


def qmix_gradient_gap(config) -> dict:
    """The TD loss gradient of one batch of stored games on one device, and the sum of two
    devices' gradients of their halves (each holding its share of the valid ticks)."""
    one = qmix.make_train(config)
    runner = jax.jit(one.init)(jax.random.PRNGKey(0))
    runner, games, _ = jax.jit(one.collect)(runner)
    # Uneven halves: the first game's last half is not its own (as after an early end), so
    # averaging the two halves' means would weigh its ticks wrong.
    games = games._replace(valid=games.valid.at[0, config.horizon // 2 :].set(False))
    both = {"agent": runner.params, "mixer": runner.mixer}

    def grad(params, target, games, axis_name=None):
        loss = lambda p: qmix.td_loss(  # noqa: E731
            p, target, one.actor.network, one.mixer, config.gamma, games, axis_name
        )[0]
        value, grads = jax.value_and_grad(loss)(params)
        return jax.lax.psum((value, grads), axis_name) if axis_name else (value, grads)

    want = jax.jit(grad)(both, runner.target, games)
    split = lambda p, t, g: grad(p, t, g, parallel.AXIS)  # noqa: E731
    got = on_two(split, (P(), P(), P(parallel.AXIS)), P())(both, runner.target, games)
    valid = np.asarray(games.valid).sum(1)
    return {"gradient_gap": largest_gap(want[1], got[1]), "loss_gap": largest_gap(want[0], got[0]),
            "valid_ticks_per_half": [int(valid[:3].sum()), int(valid[3:].sum())]}  # fmt: skip


def resume_report(name, config, root) -> dict:
    """`mbg train NAME --devices 2` for one update, resumed to three, against three updates
    in one session on two devices."""
    module = MODULES[name]
    two = dataclasses.replace(config, devices=2)
    step = two.steps_per_update
    whole, _ = module.run(two, f"{root}/{name}-whole", steps=3 * step, show=False)
    path = f"{root}/{name}.json"
    with open(path, "w", encoding="utf-8") as file:
        json.dump(common.config_to_dict(config), file)
    argv = ["train", name, "--config", path, "--devices", "2", "--steps", str(step), "--quiet"]
    code = cli_main([*argv, "--out", f"{root}/{name}-split"])
    resumed, _ = module.run(None, f"{root}/{name}-split", resume=True, steps=3 * step, show=False)
    equal = all(
        np.array_equal(np.asarray(a), np.asarray(b))
        for a, b in zip(jax.tree.leaves(whole), jax.tree.leaves(resumed), strict=True)
    )
    saved = json.load(open(f"{root}/{name}-split/config.json", encoding="utf-8"))
    rows = open(f"{root}/{name}-whole/metrics.jsonl", encoding="utf-8").read().splitlines()
    same = (whole.params, whole.opt_state, whole.rng)
    return {
        "cli_code": code,
        "saved_devices": saved["devices"],
        "resume_equal": equal,
        "updates": int(whole.update),
        "same_params": leaves_same_on_devices(same),
        "devices": len(jax.tree.leaves(whole.params)[0].sharding.device_set),
        "env_steps": [json.loads(r)["env_steps"] for r in rows],
        "agent_steps_per_update": step,
        "finished_games": sum(json.loads(r)["games/random/finished"] for r in rows),
        "buffer_count": int(whole.buffer.count) if name == "qmix" else None,
        **(pool_figures(whole.acting.ghost, rows) if name == "pqn-vdn" else {}),
    }


def pool_figures(ghost, rows) -> dict:
    """PQN-VDN's ghost pool on two devices: its replicated part the same on both, its
    counters, the pool size and the learner's Elo logged after each update."""
    replicated = [getattr(ghost, f) for f in ghost._fields if f not in PER_GAME_FIELDS]
    return {
        "pool_same_on_devices": leaves_same_on_devices(replicated),
        "pool_trainer_steps": int(ghost.trainer_steps),
        "pool_games": int(ghost.choice.shape[0]),
        "pool_sizes": [json.loads(r)["pool/size"] for r in rows],
        "elo_logged": all("elo/learner" in json.loads(r) for r in rows),
    }


def main(root: str) -> None:
    report = {
        "pqn-vdn": {**pqn_learn_gap(CONFIGS["pqn-vdn"]),
                    **resume_report("pqn-vdn", CONFIGS["pqn-vdn"], root)},
        "qmix": {**qmix_gradient_gap(CONFIGS["qmix"]),
                 **resume_report("qmix", CONFIGS["qmix"], root)},
    }  # fmt: skip
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])
