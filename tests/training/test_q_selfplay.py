"""PQN-VDN with the ghost pool (training.selfplay through training.ghosts, the Q-network's
ghosts acting greedily): a tiny run killed after one update and resumed equals an
uninterrupted one bit for bit, snapshots fill the window, Elo is logged for every entrant, and
a ghost's action is the greedy legal joint action of its snapshot."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from engine import constants as C
from policies import networks as nets
from tests.helpers.runs import assert_same_tree, logged_rows
from training import pqn_vdn, qlearning

TINY = pqn_vdn.PQNConfig(
    maps=("0-3",), num_envs=2, rollout=4, minibatches=1, epochs=1, embed=8, torso=16,
    hidden=8, updates_per_log=1, logs_per_checkpoint=1,
    opponents=(("pool", 1.0), ("random", 1.0)), save_steps=20, swap_steps=4, window=2,
)  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("pqn_pool")
    step = TINY.steps_per_update
    whole, _ = pqn_vdn.run(TINY, root / "whole", steps=3 * step, show=False)
    pqn_vdn.run(TINY, root / "split", steps=step, show=False)  # "killed" after update 1
    resumed, _ = pqn_vdn.run(None, root / "split", resume=True, steps=3 * step, show=False)
    return root, whole, resumed


@pytest.mark.slow
def test_killed_and_resumed_pool_run_equals_uninterrupted(runs):
    _, whole, resumed = runs
    assert_same_tree(whole, resumed)
    ghost = whole.acting.ghost
    # two learner teams of 5 agents x 4 ticks = 40 trainer steps an update (save_steps 20)
    assert int(ghost.trainer_steps) == 3 * 40 and int(ghost.size) == 2
    assert ghost.choice.shape == (1,)  # one pool game


@pytest.mark.slow
def test_logs_carry_elo_for_every_entrant_and_agree_after_resume(runs):
    root, _, _ = runs
    rows = {name: logged_rows(root / name) for name in ("whole", "split")}
    assert rows["whole"] == rows["split"]
    assert all("elo/learner" in r and "elo/random" in r for r in rows["whole"])
    assert [r["pool/size"] for r in rows["whole"]] == [2.0, 2.0, 2.0]


def test_a_q_ghost_plays_the_greedy_legal_action(random_obs):
    obs = random_obs(jax.random.PRNGKey(0), C.TEAM_SIZE)
    params = nets.init_params(TINY.network, jax.random.PRNGKey(1), obs)
    network = nets.ActorCritic(TINY.network)
    hidden = nets.initial_hidden(TINY.network, C.TEAM_SIZE)
    _, heads = network.apply(params, hidden, obs, jnp.ones(C.TEAM_SIZE, bool))
    move, pair = qlearning.greedy_ghost(jax.random.PRNGKey(2), heads, obs)
    legal_move = np.where(obs.mask.move, heads.move, -np.inf)
    legal_pair = np.where(obs.mask.pair.reshape(C.TEAM_SIZE, -1), heads.pair, -np.inf)
    np.testing.assert_array_equal(move, legal_move.argmax(-1))
    np.testing.assert_array_equal(pair, legal_pair.argmax(-1))
    assert np.asarray(obs.mask.move)[np.arange(C.TEAM_SIZE), np.asarray(move)].all()
