"""The value-based learners' pieces against hand-computed values: PQN's lambda-returns, QMIX's
TD targets, its mixer's monotonicity, the whole-game buffer, the factorised agent Q-values,
epsilon-greedy and greedy acting (never illegal), one update lowering each objective, and a
Q-network policy file acting greedily through the `checkpoint:` slot spec."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import constants as C
from policies import checkpoints
from policies import networks as nets
from training import pqn_vdn, qlearning, qmix

SMALL = nets.NetworkConfig(embed=8, torso=16, hidden=8, layer_norm=True)
# one compiled program each: op-by-op dispatch compiles every op of the network alone
_init_params = jax.jit(nets.init_params, static_argnums=0)


def test_lambda_returns_match_hand_computation():
    r = jnp.array([1.0, 2.0, 3.0])
    d = jnp.array([False, False, False])
    q = jnp.array([10.0, 20.0, 30.0])  # max Q after ticks 0, 1, 2
    g, lam = 0.5, 0.8
    g2 = 3 + g * 30  # 18
    g1 = 2 + g * ((1 - lam) * 20 + lam * g2)  # 2 + 0.5 * (4 + 14.4) = 11.2
    g0 = 1 + g * ((1 - lam) * 10 + lam * g1)  # 1 + 0.5 * (2 + 8.96) = 6.48
    out = pqn_vdn.lambda_returns(r, d, q, g, lam)
    np.testing.assert_allclose(out, [g0, g1, g2], rtol=1e-6)
    assert out[0] == pytest.approx(6.48)


def test_lambda_returns_stop_at_a_game_end_and_reduce_to_one_step_at_lambda_zero():
    r = jnp.array([[1.0], [2.0], [3.0]])
    d = jnp.array([[False], [True], [False]])
    q = jnp.array([[10.0], [20.0], [30.0]])
    out = pqn_vdn.lambda_returns(r, d, q, 0.5, 0.8)
    # tick 1 ends the game: its return is its reward; tick 0 bootstraps into it
    np.testing.assert_allclose(out[:, 0], [1 + 0.5 * (0.2 * 10 + 0.8 * 2), 2.0, 18.0], rtol=1e-6)
    one_step = pqn_vdn.lambda_returns(r, d, q, 0.5, 0.0)
    np.testing.assert_allclose(one_step, qmix.td_targets(r, d, q, 0.5), rtol=1e-6)
    np.testing.assert_allclose(one_step[:, 0], [6.0, 2.0, 18.0], rtol=1e-6)


def test_played_ticks_keep_each_game_to_its_own_end():
    done = jnp.array([[0, 0], [1, 0], [0, 0], [1, 1]], bool)
    expected = [[1, 1], [1, 1], [0, 1], [0, 1]]
    np.testing.assert_array_equal(qmix.played_ticks(done), np.array(expected, bool))


def _games(k: int, t: int = 3, w: int = 4, fill: float = 0.0) -> qmix.Games:
    zero = jnp.zeros((k, t, C.TEAM_SIZE))
    return qmix.Games(
        obs=zero, reset=zero.astype(bool), move=zero.astype(jnp.int32),
        pair=zero.astype(jnp.int32), active=zero.astype(bool),
        reward=jnp.zeros((k, t)) + fill, done=jnp.zeros((k, t), bool),
        valid=jnp.ones((k, t), bool), world=jnp.zeros((k, t, w)),
    )  # fmt: skip


def test_buffer_overwrites_the_oldest_games_and_samples_only_stored_ones():
    empty = jax.tree.map(jnp.zeros_like, _games(4))
    buffer = qmix.Buffer(empty, jnp.int32(0))
    buffer = qmix.buffer_add(buffer, _games(3, fill=1.0))
    picks = qmix.buffer_sample(buffer, jax.random.PRNGKey(0), 64).reward[:, 0]
    assert set(np.asarray(picks).tolist()) == {1.0}  # never the empty fourth slot
    buffer = qmix.buffer_add(buffer, _games(3, fill=2.0))  # writes slots 3, 0, 1
    np.testing.assert_array_equal(buffer.games.reward[:, 0], [2.0, 2.0, 1.0, 2.0])
    assert int(buffer.count) == 6


def _mixer(seed=0):
    w = len(qmix.WORLD_SCALE)
    mixer = qmix.MonotonicMixer(embed=8, hyper_hidden=16)
    key_p, key_q, key_s = jax.random.split(jax.random.PRNGKey(seed), 3)
    params = mixer.init(key_p, jnp.zeros((1, C.TEAM_SIZE)), jnp.zeros((1, w)))
    # scale the parameters up so the ELU's negative side and large weights are exercised
    params = jax.tree.map(lambda x: x * 3.0, params)
    q = jax.random.normal(key_q, (256, C.TEAM_SIZE)) * 20
    state = jax.random.normal(key_s, (256, w)) * 50
    return mixer, params, q, state


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mixer_is_monotonic_in_every_agent_q(seed):
    mixer, params, q, state = _mixer(seed)
    grads = jax.vmap(jax.grad(lambda qi, s: mixer.apply(params, qi, s)))(q, state)
    assert grads.shape == (256, C.TEAM_SIZE)
    assert (grads >= 0).all() and (grads > 0).any()
    # and in finite steps: raising one agent's Q never lowers Q_tot
    base = mixer.apply(params, q, state)
    for i in range(C.TEAM_SIZE):
        assert (mixer.apply(params, q.at[:, i].add(5.0), state) >= base - 1e-4).all()


def test_mixer_uses_the_state():
    mixer, params, q, state = _mixer()
    assert not np.allclose(mixer.apply(params, q, state), mixer.apply(params, q, state * 0))


def _heads(random_obs, n=32, seed=0, scale=1.0):
    obs = random_obs(jax.random.PRNGKey(seed), n)
    params = _init_params(SMALL, jax.random.PRNGKey(seed + 1), obs)
    params = jax.tree.map(lambda x: x * scale, params)
    apply = jax.jit(nets.ActorCritic(SMALL).apply)
    _, heads = apply(params, nets.initial_hidden(SMALL, n), obs, jnp.ones(n, bool))
    return obs, heads


def test_factorised_q_max_and_greedy_equal_the_brute_force_over_legal_flat_actions(random_obs):
    obs, heads = _heads(random_obs, scale=3.0)
    move = jnp.arange(C.NUM_FLAT) // nets.NUM_PAIR
    pair = jnp.arange(C.NUM_FLAT) % nets.NUM_PAIR
    one = jax.jit(
        jax.vmap(lambda m, p: qlearning.chosen_q(heads, jnp.full(32, m), jnp.full(32, p)))
    )
    every = one(
        move, pair
    ).T  # (32, 198), flat index = move * 22 + pair = (move * 11 + target) * 2 + ult
    legal = np.asarray(obs.mask.flat)
    best = np.where(legal, np.asarray(every), -np.inf).max(1)
    np.testing.assert_allclose(qlearning.max_q(heads, obs.mask), best, rtol=1e-5)
    m, p = qlearning.greedy_actions(heads, obs.mask)
    flat = np.asarray(m * nets.NUM_PAIR + p)
    assert legal[np.arange(32), flat].all()
    np.testing.assert_allclose(np.asarray(every)[np.arange(32), flat], best, rtol=1e-5)


_eps_greedy = jax.jit(qlearning.epsilon_greedy)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), eps=st.sampled_from([0.0, 0.3, 1.0]),
       scale=st.sampled_from([1.0, 1e4, 1e30]))  # fmt: skip
def test_epsilon_greedy_and_greedy_never_pick_an_illegal_action(seed, eps, scale):
    from tests.training.conftest import make_random_obs

    key_obs, key_q, key_act = jax.random.split(jax.random.PRNGKey(seed), 3)
    obs = make_random_obs(key_obs, 64)
    raw = jax.random.normal(key_q, (64, nets.NUM_PAIR)) * scale
    pair_mask = obs.mask.pair.reshape(64, -1)
    # illegal entries get the largest raw values, so a leak through the mask would show
    raw = jnp.where(pair_mask, raw, jnp.abs(raw) + scale)
    raw_move = jnp.where(obs.mask.move, raw[:, : C.NUM_MOVES], 2 * scale)
    heads = nets.Heads(
        move=nets.masked_logits(raw_move, obs.mask.move),
        pair=nets.masked_logits(raw, pair_mask),
        value=jnp.zeros(64),
    )
    move, pair = _eps_greedy(key_act, heads, obs, eps)
    flat = np.asarray(move * nets.NUM_PAIR + pair)
    assert np.asarray(obs.mask.flat)[np.arange(64), flat].all()
    if eps == 0.0:
        g_move, g_pair = qlearning.greedy_actions(heads, obs.mask)
        np.testing.assert_array_equal(move, g_move)
        np.testing.assert_array_equal(pair, g_pair)


def test_full_exploration_is_uniform_over_legal_joint_actions(random_obs):
    obs, heads = _heads(random_obs, n=1)
    keys = jax.random.split(jax.random.PRNGKey(9), 6000)
    move, pair = jax.vmap(lambda k: qlearning.epsilon_greedy(k, heads, obs, 1.0))(keys)
    flat = np.asarray(move * nets.NUM_PAIR + pair)[:, 0]
    legal = np.flatnonzero(np.asarray(obs.mask.flat[0]))
    counts = np.array([(flat == a).sum() for a in legal])
    assert counts.sum() == 6000 and len(legal) > 1
    expected = 6000 / len(legal)
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)


def test_epsilon_schedule_is_linear_then_flat():
    config = pqn_vdn.PQNConfig(eps_start=1.0, eps_end=0.1, eps_decay_steps=1000)
    assert float(qlearning.epsilon(config, 0)) == pytest.approx(1.0)
    assert float(qlearning.epsilon(config, 500)) == pytest.approx(0.55)
    assert float(qlearning.epsilon(config, 5000)) == pytest.approx(0.1)


def _sequences(random_obs, t, n, seed=3):
    obs = jax.vmap(lambda k: random_obs(k, n))(jax.random.split(jax.random.PRNGKey(seed), t))
    reset = jnp.zeros((t, n), bool).at[0].set(True)
    move = jnp.zeros((t, n), jnp.int32)  # the no-op is always legal
    pair = jnp.zeros((t, n), jnp.int32)
    return obs, reset, move, pair


def _descend(loss, params, steps=5, lr=3e-3):
    """(loss before, loss after `steps` Adam steps) of loss(params)[0]: jitted, as op-by-op
    dispatch compiles each op of the network and its gradient alone."""
    tx = optax.adam(lr)
    value = jax.jit(lambda p: loss(p)[0])

    @jax.jit
    def step(params, state):
        updates, state = tx.update(jax.grad(lambda p: loss(p)[0])(params), state, params)
        return optax.apply_updates(params, updates), state

    state = tx.init(params)
    before = float(value(params))
    for _ in range(steps):
        params, state = step(params, state)
    return before, float(value(params))


def test_pqn_update_on_a_fixed_batch_lowers_its_td_loss(random_obs):
    t, n = 4, 10
    obs, reset, move, pair = _sequences(random_obs, t, n)
    network = nets.ActorCritic(SMALL)
    params = _init_params(SMALL, jax.random.PRNGKey(4), jax.tree.map(lambda x: x[0], obs))
    target = jax.random.normal(jax.random.PRNGKey(5), (t, n // C.TEAM_SIZE)) * 3
    batch = pqn_vdn.Batch(obs, reset, move, pair, jnp.ones((t, n), bool), target)
    h0 = nets.initial_hidden(SMALL, n)
    before, after = _descend(lambda p: pqn_vdn.loss_fn(p, network, h0, batch), params)
    assert after < 0.8 * before


def test_pqn_team_q_is_the_sum_of_its_active_agents(random_obs):
    t, n = 2, 10
    obs, reset, move, pair = _sequences(random_obs, t, n)
    network = nets.ActorCritic(SMALL)
    params = _init_params(SMALL, jax.random.PRNGKey(4), jax.tree.map(lambda x: x[0], obs))
    active = jnp.ones((t, n), bool).at[:, 3].set(False)
    batch = pqn_vdn.Batch(obs, reset, move, pair, active, jnp.zeros((t, 2)))
    h0 = nets.initial_hidden(SMALL, n)
    q = jax.jit(network.apply)(params, h0, obs, reset)[1]
    agent_q = np.asarray(qlearning.chosen_q(q, move, pair))
    expected = [agent_q[:, [0, 1, 2, 4]].sum(1), agent_q[:, 5:].sum(1)]
    team_q = jax.jit(lambda p, h, b: pqn_vdn.team_q(network, p, h, b))
    np.testing.assert_allclose(team_q(params, h0, batch),
                               np.stack(expected, 1), rtol=1e-5)  # fmt: skip


def test_qmix_update_on_fixed_games_lowers_its_td_loss(random_obs):
    t, b = 4, 2
    obs, reset, move, pair = _sequences(random_obs, t, b * C.TEAM_SIZE)

    def games_major(x):  # (T, B * 5, ...) -> (B, T, 5, ...)
        return jnp.swapaxes(x.reshape((t, b, C.TEAM_SIZE) + x.shape[2:]), 0, 1)

    obs, reset, move, pair = jax.tree.map(games_major, (obs, reset, move, pair))
    w = C.NUM_SLOTS * len(nets.ROW_SCALE) + len(nets.CONTEXT_SCALE)
    done = jnp.zeros((b, t), bool).at[:, -1].set(True)
    games = qmix.Games(obs, reset, move, pair, jnp.ones((b, t, C.TEAM_SIZE), bool),
                       jax.random.normal(jax.random.PRNGKey(6), (b, t)) * 3, done,
                       jnp.ones((b, t), bool),
                       jax.random.uniform(jax.random.PRNGKey(7), (b, t, w)))  # fmt: skip
    network = nets.ActorCritic(SMALL)
    mixer = qmix.MonotonicMixer(8, 16)
    agent = _init_params(SMALL, jax.random.PRNGKey(4), jax.tree.map(lambda x: x[0, 0], obs))
    params = {"agent": agent, "mixer": mixer.init(jax.random.PRNGKey(8), jnp.zeros((1, 5)),
                                                  jnp.zeros((1, w)))}  # fmt: skip
    target = jax.tree.map(lambda x: x + 0.0, params)

    def loss(p):
        return qmix.td_loss(p, target, network, mixer, 0.9, games)

    before, after = _descend(loss, params)
    assert after < 0.8 * before


def test_a_q_network_policy_file_plays_greedily_and_legally(random_obs, tmp_path):
    obs = random_obs(jax.random.PRNGKey(0), C.NUM_SLOTS)
    params = _init_params(SMALL, jax.random.PRNGKey(1), obs)
    path = tmp_path / "q.msgpack"
    training = {"algorithm": "pqn-vdn"}
    checkpoints.save_policy(path, params, SMALL, training, checkpoints.Q_NETWORK_KIND)
    policy = checkpoints.load_policy(path)
    assert policy.kind == checkpoints.Q_NETWORK_KIND and policy.network == SMALL
    system = checkpoints.checkpoint_system(str(path))  # without #greedy: a Q network is greedy
    carry = system.initial_carry()
    picks = [system.act(obs, obs.mask, carry, jax.random.PRNGKey(k))[0] for k in range(2)]
    for a in picks[1:]:
        for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(picks[0]), strict=True):
            np.testing.assert_array_equal(x, y)
    flat = (picks[0].move * C.NUM_TARGETS + picks[0].target) * C.NUM_ULT + picks[0].ult
    assert np.asarray(obs.mask.flat)[np.arange(C.NUM_SLOTS), np.asarray(flat)].all()
    _, heads = nets.ActorCritic(SMALL).apply(params, carry, obs, jnp.zeros(C.NUM_SLOTS, bool))
    np.testing.assert_array_equal(picks[0].move, qlearning.greedy_actions(heads, obs.mask)[0])


def test_configs_refuse_bad_values():
    with pytest.raises(ValueError, match="QMIXConfig.buffer_games"):
        qmix.QMIXConfig(num_envs=8, buffer_games=4, opponents=(("random", 1.0),))
    with pytest.raises(ValueError, match="PQNConfig.minibatches"):
        pqn_vdn.PQNConfig(num_envs=6, minibatches=4, opponents=(("random", 1.0),))
    with pytest.raises(ValueError, match=r"PQNConfig.devices: 3 must divide num_envs \(64\)"):
        pqn_vdn.PQNConfig(devices=3)
    assert pqn_vdn.PQNConfig(devices=2).local_config().num_envs == 32  # training.parallel
    with pytest.raises(ValueError, match="PQNConfig.lam"):
        pqn_vdn.PQNConfig(lam=1.5)
    with pytest.raises(ValueError, match="validation"):
        qmix.QMIXConfig(maps=("validation",))
