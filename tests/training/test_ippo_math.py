"""IPPO pieces against hand-computed values: GAE, the PPO loss, masked sampling, one update."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import constants as C
from policies import networks as nets
from training import ippo


def test_gae_matches_hand_computation():
    # gamma 0.9, lambda 0.8; the game ends on tick 1, so tick 0 does not see tick 2.
    # t2: delta = 2 + 0.9 * 0.2 - 0.3 = 1.88 -> A = 1.88
    # t1: done -> delta = 0 - 0.4 = -0.4 -> A = -0.4
    # t0: delta = 1 + 0.9 * 0.4 - 0.5 = 0.86 -> A = 0.86 + 0.72 * -0.4 = 0.572
    rewards = jnp.array([1.0, 0.0, 2.0])
    values = jnp.array([0.5, 0.4, 0.3])
    dones = jnp.array([False, True, False])
    adv, ret = ippo.gae(rewards, values, dones, jnp.float32(0.2), 0.9, 0.8)
    np.testing.assert_allclose(adv, [0.572, -0.4, 1.88], rtol=1e-6)
    np.testing.assert_allclose(ret, [1.072, 0.0, 2.18], rtol=1e-6)


def test_gae_is_elementwise_over_agents():
    rewards = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    values = jnp.zeros((2, 2))
    adv, _ = ippo.gae(rewards, values, jnp.zeros((2, 2), bool), jnp.zeros(2), 0.5, 1.0)
    # agent 0: A1 = 0, A0 = 1; agent 1: A1 = 1, A0 = 0 + 0.5 * 1 = 0.5
    np.testing.assert_allclose(adv, [[1.0, 0.5], [0.0, 1.0]])


def test_ppo_loss_matches_hand_computation():
    # entry 0: ratio 1.5, adv 2 -> min(3.0, 1.2 * 2) = 2.4; entry 1: ratio 0.5, adv -1 ->
    # min(-0.5, 0.8 * -1) = -0.8; policy = mean(-2.4, 0.8) = -0.8. Entry 2 is masked out.
    logp = jnp.log(jnp.array([1.5, 0.5, 10.0]))
    old = jnp.zeros(3)
    adv = jnp.array([2.0, -1.0, 100.0])
    # value 0: clipped to 0.5 + 0.2 = 0.7; max((1 - 2)^2, (0.7 - 2)^2) = 1.69; value 1: 0
    value, old_value, ret = jnp.array([1.0, 0.0, 9.0]), jnp.array([0.5, 0.1, 0.0]), jnp.zeros(3)
    ret = ret.at[0].set(2.0)
    ent = jnp.array([1.0, 2.0, 50.0])
    mask = jnp.array([True, True, False])
    total, aux = ippo.ppo_loss(logp, old, adv, value, old_value, ret, ent, mask, 0.2, 0.5, 0.01)
    assert aux["policy"] == pytest.approx(-0.8, abs=1e-6)
    assert aux["value"] == pytest.approx(0.5 * 1.69 / 2, abs=1e-6)
    assert aux["entropy"] == pytest.approx(1.5, abs=1e-6)
    assert total == pytest.approx(-0.8 + 0.5 * 0.4225 - 0.01 * 1.5, abs=1e-6)
    kl = ((0.5 - np.log(1.5)) + (-0.5 - np.log(0.5))) / 2
    assert aux["approx_kl"] == pytest.approx(kl, abs=1e-6)
    assert aux["clip_frac"] == pytest.approx(1.0)


def test_masked_log_prob_and_entropy():
    logits = nets.masked_logits(jnp.array([0.3, 5.0, 0.3, -2.0, 0.3]), jnp.array([1, 0, 1, 0, 1]))
    # the three legal logits are equal: uniform over 3
    assert nets.entropy(logits) == pytest.approx(np.log(3), abs=1e-6)
    assert nets.log_prob(logits, jnp.int32(2)) == pytest.approx(-np.log(3), abs=1e-6)
    assert nets.log_prob(logits, jnp.int32(1)) < -1e8


_sample = jax.jit(nets.sample_masked)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    scale=st.sampled_from([1.0, 1e3, 1e8, 1e30]),
    legal=st.lists(st.booleans(), min_size=22, max_size=22),
)
def test_masked_sampling_never_picks_an_illegal_action(seed, scale, legal):
    key_logits, key_sample = jax.random.split(jax.random.PRNGKey(seed))
    logits = jax.random.normal(key_logits, (64, 22)) * scale
    # the no-op (index 0) is always legal in the engine's masks; make the rest random, and
    # give illegal entries the largest logits so a leak would show
    mask = jnp.asarray([True] + legal[1:])[None].repeat(64, 0)
    logits = jnp.where(mask, logits, jnp.abs(logits) + scale)
    picks = np.asarray(_sample(key_sample, logits, mask))
    assert np.asarray(mask)[np.arange(64), picks].all()


def test_masked_sampling_follows_the_softmax_over_legal_entries():
    logits = jnp.array([0.0, np.log(3.0), 100.0])  # index 2 illegal
    mask = jnp.array([True, True, False])
    keys = jax.random.split(jax.random.PRNGKey(7), 4000)
    picks = np.asarray(jax.vmap(lambda k: nets.sample_masked(k, logits, mask))(keys))
    assert not (picks == 2).any()
    assert abs((picks == 1).mean() - 0.75) < 0.03  # 4.4 standard deviations


SMALL = nets.NetworkConfig(embed=8, torso=16, hidden=8)


def test_network_samples_only_legal_actions_and_keeps_shapes(random_obs):
    obs = random_obs(jax.random.PRNGKey(0), 32)
    params = nets.init_params(SMALL, jax.random.PRNGKey(1), obs)
    hidden, heads = nets.ActorCritic(SMALL).apply(
        params, nets.initial_hidden(SMALL, 32), obs, jnp.ones(32, bool)
    )
    assert hidden.shape == (32, 8) and heads.value.shape == (32,)
    move, pair = nets.sample_actions(jax.random.PRNGKey(2), heads, obs)
    actions = nets.to_actions(move, pair)
    flat = (actions.move * C.NUM_TARGETS + actions.target) * C.NUM_ULT + actions.ult
    assert np.asarray(obs.mask.flat)[np.arange(32), np.asarray(flat)].all()


def test_one_update_on_a_fixed_batch_lowers_the_loss(random_obs):
    t, n = 4, 8
    config = ippo.IPPOConfig(embed=8, torso=16, hidden=8, lr=1e-3)
    network = nets.ActorCritic(config.network)
    obs_key = jax.random.PRNGKey(3)
    obs = jax.vmap(lambda k: random_obs(k, n))(jax.random.split(obs_key, t))
    reset = jnp.zeros((t, n), bool).at[0].set(True)
    params = nets.init_params(config.network, jax.random.PRNGKey(4), random_obs(obs_key, n))
    hidden0 = nets.initial_hidden(config.network, n)

    def step(h, x):
        return network.apply(params, h, *x)

    _, heads = jax.lax.scan(step, hidden0, (obs, reset))
    flat_obs = nets.flatten_agents(obs)
    move, pair = nets.sample_actions(jax.random.PRNGKey(5), nets.flatten_agents(heads), flat_obs)
    move, pair = move.reshape(t, n), pair.reshape(t, n)
    rewards = jax.random.normal(jax.random.PRNGKey(6), (t, n))
    adv, ret = ippo.gae(rewards, heads.value, jnp.zeros((t, n), bool), jnp.zeros(n), 0.99, 0.95)
    logp = nets.joint_log_prob(heads, move, pair)
    batch = ippo.Batch(obs, reset, move, pair, logp, heads.value, adv, ret, jnp.ones((t, n), bool))

    def loss(p):
        return ippo.loss_fn(p, network, config, hidden0, batch)[0]

    before, grads = jax.value_and_grad(loss)(params)
    tx = ippo.make_optimizer(config)
    updates, _ = tx.update(grads, tx.init(params), params)
    after = loss(jax.tree.map(lambda p, u: p + u, params, updates))
    assert float(after) < float(before)
