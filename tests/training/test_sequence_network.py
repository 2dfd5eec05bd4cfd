"""The actor-critic's sequence mode (used by PPO) against one-tick calls and flax's GRUCell,
and the released checkpoint against the current network code."""

from pathlib import Path

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from engine import constants as C
from policies import checkpoints as ck
from policies import networks as nets

SMALL = nets.NetworkConfig(embed=8, torso=16, hidden=8)
RELEASED = Path(__file__).resolve().parents[2] / "policies/released/ippo_v1.msgpack"


def _sequence(random_obs, t: int, n: int, seed: int):
    keys = jax.random.split(jax.random.PRNGKey(seed), t + 2)
    obs = jax.vmap(lambda k: random_obs(k, n))(keys[:t])
    reset = jax.random.bernoulli(keys[t], 0.3, (t, n))
    return obs, reset, keys[t + 1]


def _one_tick_at_a_time(network, params, hidden, obs, reset):
    heads = []
    for i in range(reset.shape[0]):
        tick = jax.tree.map(lambda x, i=i: x[i], obs)
        hidden, out = network.apply(params, hidden, tick, reset[i])
        heads.append(out)
    return hidden, jax.tree.map(lambda *xs: jnp.stack(xs), *heads)


@pytest.mark.parametrize("seed", [0, 1])
def test_sequence_mode_equals_one_tick_calls(random_obs, seed):
    t, n = 5, 6
    obs, reset, key = _sequence(random_obs, t, n, seed)
    network = nets.ActorCritic(SMALL)
    params = nets.init_params(SMALL, jax.random.PRNGKey(seed + 10), random_obs(key, n))
    hidden0 = jax.random.normal(key, (n, SMALL.hidden))  # mid-game state, not zeros
    want_h, want = _one_tick_at_a_time(network, params, hidden0, obs, reset)
    got_h, got = network.apply(params, hidden0, obs, reset)
    assert got.move.shape == (t, n, C.NUM_MOVES) and got.pair.shape == (t, n, nets.NUM_PAIR)
    for a, b in zip(jax.tree.leaves((want_h, want)), jax.tree.leaves((got_h, got)), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)


def test_sequence_gru_is_flax_grucell_with_resets():
    h, f, t, n = 4, 3, 6, 2
    key_x, key_h, key_p = jax.random.split(jax.random.PRNGKey(7), 3)
    x = jax.random.normal(key_x, (t, n, f))
    hidden0 = jax.random.normal(key_h, (n, h))
    reset = jnp.zeros((t, n), bool).at[3, 0].set(True)  # agent 0 starts a new game at tick 3
    params = nets.SequenceGRU(h).init(key_p, hidden0, x, reset)
    got_h, got = nets.SequenceGRU(h).apply(params, hidden0, x, reset)
    cell, carry, want = nn.GRUCell(h), hidden0, []
    for i in range(t):
        carry = jnp.where(reset[i][:, None], 0.0, carry)
        carry, out = cell.apply(params, carry, x[i])  # the same parameter names and shapes
        want.append(out)
    np.testing.assert_allclose(np.asarray(got), np.asarray(jnp.stack(want)), atol=1e-6)
    np.testing.assert_allclose(np.asarray(got_h), np.asarray(carry), atol=1e-6)
    # the reset zeroes only agent 0's state: its tick-3 output ignores its past
    fresh = cell.apply(params, jnp.zeros((1, h)), x[3, :1])[1]
    np.testing.assert_allclose(np.asarray(got[3, 0]), np.asarray(fresh[0]), atol=1e-6)


def test_released_checkpoint_loads_and_both_modes_agree(random_obs):
    policy = ck.load_policy(RELEASED)
    t, n = 4, 10
    obs, reset, key = _sequence(random_obs, t, n, 3)
    network = nets.ActorCritic(policy.network)
    hidden0 = nets.initial_hidden(policy.network, n)
    want_h, want = _one_tick_at_a_time(network, policy.params, hidden0, obs, reset)
    got_h, got = network.apply(policy.params, hidden0, obs, reset)
    for a, b in zip(jax.tree.leaves((want_h, want)), jax.tree.leaves((got_h, got)), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-4)
    move, pair = nets.sample_actions(key, jax.tree.map(lambda x: x[0], got), obs_at(obs, 0))
    assert np.asarray(obs.mask.move[0])[np.arange(n), np.asarray(move)].all()
    assert np.asarray(obs.mask.pair[0].reshape(n, -1))[np.arange(n), np.asarray(pair)].all()


def obs_at(obs, i: int):
    return jax.tree.map(lambda x: x[i], obs)


def test_chunked_minibatch_gradient_equals_the_whole_minibatch(random_obs):
    from training import ippo

    t, n = 4, 6
    obs, reset, key = _sequence(random_obs, t, n, 5)
    config = ippo.IPPOConfig(embed=8, torso=16, hidden=8, grad_chunk=2)
    assert [ippo.num_chunks(n, most) for most in (1, 2, 3, 4, 6, 99)] == [6, 3, 2, 2, 1, 1]
    params = nets.init_params(config.network, key, random_obs(key, n))
    k = jax.random.split(key, 6)
    move = jax.random.randint(k[0], (t, n), 0, C.NUM_MOVES)
    pair = jax.random.randint(k[1], (t, n), 0, nets.NUM_PAIR)
    mask = jnp.ones((t, n), bool).at[:, 1].set(False).at[2:, 4].set(False)  # uneven chunks
    normal = [jax.random.normal(k[i], (t, n)) for i in range(2, 6)]
    batch = ippo.Batch(obs, reset, move, pair, -2.0 + 0.1 * normal[0], *normal[1:], mask)
    hidden0 = jax.random.normal(k[5], (n, config.hidden))
    network = nets.ActorCritic(config.network)
    want = jax.value_and_grad(ippo.loss_fn, has_aux=True)(params, network, config, hidden0, batch)
    agent_major = ippo.swap_leading_axes(batch)  # make_grad takes (n, T) sequences
    got = ippo.make_grad(config, network)(params, hidden0, agent_major)  # 3 chunks of 2
    for a, b in zip(jax.tree.leaves(want), jax.tree.leaves(got), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-6)
