"""Feed-forward IPPO (training/ippo_ff.py): the network has no memory, its policy files carry
the kind "ff_actor_critic" and load back by slot spec, the recurrent network's parameter names
are unchanged (the released ippo_v1 still loads). A tiny run's resume and its exported file:
tests/training/test_selfplay_learners.py."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from engine import constants as C
from policies import checkpoints as ck
from policies import networks as nets

SMALL = nets.NetworkConfig(embed=8, torso=16, hidden=8, recurrent=False)


def test_feed_forward_network_ignores_hidden_state_and_resets(random_obs):
    obs = jax.jit(random_obs, static_argnums=1)(jax.random.PRNGKey(0), 6)
    params = jax.jit(nets.init_params, static_argnums=0)(SMALL, jax.random.PRNGKey(1), obs)
    names = {k.split("/")[1] for k in ck.expected_shapes(SMALL)}
    assert "FeedForward_0" in names and "GRUCell_0" not in names
    apply = jax.jit(nets.ActorCritic(SMALL).apply)  # one program, not an op at a time
    h0 = nets.initial_hidden(SMALL, 6)
    h1, a = apply(params, h0, obs, jnp.ones(6, bool))
    _, b = apply(params, h0 + 3.0, obs, jnp.zeros(6, bool))
    np.testing.assert_array_equal(h1, h0)  # the state passes through unchanged
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    # Greedy and sampled actions are legal under the observation's mask.
    move, pair = jax.jit(nets.sample_actions)(jax.random.PRNGKey(2), a, obs)
    for m, p in ((move, pair), (a.move.argmax(-1), a.pair.argmax(-1))):
        flat = nets.to_actions(m, p)
        index = (flat.move * C.NUM_TARGETS + flat.target) * C.NUM_ULT + flat.ult
        assert np.asarray(obs.mask.flat)[np.arange(6), np.asarray(index)].all()


def test_kind_names_round_trip_and_unknown_kinds_are_refused(tmp_path, random_obs):
    assert {nets.NetworkConfig.from_kind(k).kind for k in nets.KINDS.values()} == set(
        nets.KINDS.values()
    )
    params = nets.init_params(SMALL, jax.random.PRNGKey(1), random_obs(jax.random.PRNGKey(0), 2))
    path = ck.save_policy(tmp_path / "ff.msgpack", params, SMALL, {"algorithm": "ippo-ff"})
    loaded = ck.load_policy(path)
    assert loaded.network == SMALL and loaded.network.kind == "ff_actor_critic"
    with pytest.raises(ValueError, match="network kind 'lstm'"):
        nets.NetworkConfig.from_kind("lstm")


def test_released_recurrent_policy_keeps_its_kind():
    policy = ck.load_policy("policies/released/ippo_v1.msgpack")
    assert policy.network.kind == "gru_actor_critic" and policy.network.recurrent


def test_every_mbg_train_learner_builds_its_network_kind():
    from cli.train import LEARNERS, learner

    kinds = {name: learner(name)[0]().network.kind for name in LEARNERS}
    assert kinds == {
        "ippo": "gru_actor_critic",
        "ippo-ff": "ff_actor_critic",
        "mappo": "ff_actor",
        "mappo-rnn": "gru_actor",
        "qmix": "gru_actor_critic",  # the Q learners read the recurrent actor-critic's layers
        "pqn-vdn": "gru_actor_critic",
    }
