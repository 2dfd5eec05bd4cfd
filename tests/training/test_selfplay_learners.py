"""The ghost pool, curriculum, frozen partners and Elo logs of training.ippo for the learners
that share its actor interface (feed-forward IPPO, MAPPO): a tiny run, killed after one update
and resumed, equals an uninterrupted one bit for bit; snapshots fill the window and the stage
advances; MAPPO's ghosts are snapshots of its actor alone; a pool game's opponent is redrawn
only on the tick its game ends."""

import json

import jax
import numpy as np
import pytest

from policies import checkpoints as ck
from tests.helpers.runs import assert_same_tree, logged_rows
from training import ippo_ff, mappo

pytestmark = pytest.mark.slow  # a compilation per learner: about a minute each, loaded machine

STAGES = {"stages": [
    {"name": "1v1", "maps": "0,1", "team_sizes": [1], "score_threshold": 5},
    {"name": "2v2", "maps": "2,3", "team_sizes": [2], "score_threshold": 5},
]}  # fmt: skip
POOL = dict(
    num_envs=4, rollout=8, minibatches=2, epochs=1, embed=8, torso=16, hidden=8,
    updates_per_log=1, logs_per_checkpoint=1, opponents=(("pool", 0.5), ("random", 0.5)),
    save_steps=16, swap_steps=4, window=2, stage_budget=64, partners="A1=random",
)  # fmt: skip
LEARNERS = {
    "ippo-ff": (ippo_ff.IPPOFFConfig, ippo_ff.run),
    "mappo": (mappo.MAPPOConfig, mappo.run),
}


@pytest.fixture(scope="module", params=sorted(LEARNERS))
def runs(request, tmp_path_factory):
    name = request.param
    cls, run = LEARNERS[name]
    root = tmp_path_factory.mktemp(name)
    stages = root / "stages.json"
    stages.write_text(json.dumps(STAGES))
    config = cls(**POOL, curriculum=str(stages))
    step = config.steps_per_update
    whole, policy = run(config, root / "whole", steps=3 * step, show=False)
    run(config, root / "split", steps=step, show=False)  # "killed" after update 1
    resumed, _ = run(None, root / "split", resume=True, steps=3 * step, show=False)
    return name, root, whole, resumed, policy


def test_killed_and_resumed_equals_uninterrupted(runs):
    _, _, whole, resumed, _ = runs
    assert_same_tree(whole, resumed)
    # the run did what it is checked for: snapshots taken, the window full, stage advanced
    assert int(whole.ghost.size) == 2 and int(whole.curriculum.stage) == 1
    assert int(whole.ghost.trainer_steps) > 0 and whole.ghost.choice.shape == (2,)


def test_logs_carry_elo_and_the_stage_and_agree_after_resume(runs):
    _, root, _, _, _ = runs
    rows = {name: logged_rows(root / name) for name in ("whole", "split")}
    assert rows["whole"] == rows["split"]
    assert [r["curriculum/stage"] for r in rows["whole"]] == [0.0, 1.0, 1.0]
    assert all("elo/learner" in r and "elo/random" in r for r in rows["whole"])
    assert [r["pool/size"] for r in rows["whole"]] == [2.0, 2.0, 2.0]


def test_the_exported_policy_names_its_network_kind(runs):
    name, _, _, _, policy = runs
    loaded = ck.load_policy(policy)
    assert loaded.network.kind == {"ippo-ff": "ff_actor_critic", "mappo": "ff_actor"}[name]
    assert loaded.training["algorithm"] == name
    assert loaded.training["config"]["recurrent"] is False


def test_mappo_ghosts_are_snapshots_of_the_actor(runs):
    name, _, whole, _, _ = runs
    if name != "mappo":
        pytest.skip("feed-forward IPPO's ghosts are its whole network, as IPPO's")
    shapes = jax.tree.map(lambda x: x.shape[1:], whole.ghost.params)
    assert shapes == jax.tree.map(np.shape, whole.params["actor"])


def test_mappo_pool_games_swap_opponents_only_at_their_ends():
    # One tick a collect: after each, a pool game's ghost-step count restarts (its opponent
    # redrawn) only if its game ended on that tick.
    tiny = dict(POOL, rollout=1, minibatches=1, partners="", swap_steps=1)
    config = mappo.MAPPOConfig(**tiny, maps=("0-3",), horizon=6)
    trainer = mappo.make_train(config)
    collect = jax.jit(trainer.collect)
    runner = jax.jit(trainer.init)(jax.random.PRNGKey(0))
    pool_games = np.arange(2)  # the "pool" group comes first in the mix
    swaps = 0
    for _ in range(14):
        before = np.asarray(runner.ghost.ghost_steps)
        runner = collect(runner)[0]
        after, ended = np.asarray(runner.ghost.ghost_steps), np.asarray(runner.reset)
        restarted = after < before + 1  # every tick adds its ghost agents' steps (>= 1)
        assert not (restarted & ~ended[pool_games]).any()
        swaps += int(restarted.sum())
    assert swaps >= 2  # games of 6 ticks: each pool game ended and swapped at least twice
