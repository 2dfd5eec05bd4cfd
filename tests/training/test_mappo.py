"""MAPPO (training/mappo.py): the centralised critic reads the world state and the actor does
not; the loss against hand-computed terms; one update on a fixed batch improves the loss; a
tiny run resumed from its checkpoint equals an uninterrupted one; the exported actor plays
only legal actions through the `checkpoint:PATH` slot spec."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import traverse_util

from engine import constants as C
from engine.types import CONTEXT_DIM, ROW_DIM
from policies import checkpoints as ck
from policies import networks as nets
from training import ippo, mappo
from training import runs as run_files

WORLD_DIM = C.NUM_SLOTS * ROW_DIM + CONTEXT_DIM
SMALL = dict(embed=8, torso=16, hidden=8, critic_width=16)


def _world(key, *lead):
    return jax.random.uniform(key, (*lead, WORLD_DIM))


def _setup(random_obs, config, n=6, t=3):
    networks = mappo.make_networks(config)

    @jax.jit  # one compiled program: op-by-op dispatch compiles (and caches) each op alone
    def build():
        obs = jax.vmap(lambda k: random_obs(k, n))(jax.random.split(jax.random.PRNGKey(3), t))
        world = _world(jax.random.PRNGKey(4), t, n)
        one = jax.tree.map(lambda x: x[0], obs)
        params = {
            "actor": nets.init_params(config.network, jax.random.PRNGKey(5), one),
            "critic": networks.critic.init(
                jax.random.PRNGKey(6), world[0], one.self_index, one.class_id
            ),
        }
        return params, obs, world

    params, obs, world = build()
    return networks, params, obs, world


def _critic(networks, params):
    """mappo.critic_value of params, jitted: (world (..., WORLD_DIM), obs) -> values."""
    return jax.jit(lambda world, obs: mappo.critic_value(networks, params, world, obs))


def test_actor_has_no_value_head_and_ignores_the_world_state(random_obs):
    config = mappo.MAPPOConfig(**SMALL)
    networks, params, obs, world = _setup(random_obs, config)
    assert config.network.kind == "ff_actor"
    assert mappo.MAPPORNNConfig(**SMALL).network.kind == "gru_actor"
    names = {"/".join(k) for k in traverse_util.flatten_dict(params["actor"])}
    assert names == set(ck.expected_shapes(config.network))
    assert len(names) == len(ck.expected_shapes(nets.NetworkConfig(recurrent=False))) - 4
    one = jax.tree.map(lambda x: x[0], obs)
    hidden = nets.initial_hidden(config.network, 6)
    _, heads = jax.jit(networks.actor.apply)(params["actor"], hidden, one, jnp.ones(6, bool))
    assert not np.asarray(heads.value).any()  # no value head: the critic gives values

    # The critic's value moves with the world state even when the observation is fixed ...
    critic = _critic(networks, params)
    v1, v2 = critic(world[0], one), critic(world[1], one)
    assert np.abs(np.asarray(v1 - v2)).min() > 0
    # ... and reads nothing of the observation but the agent's own slot and class.
    other = jax.tree.map(lambda x: x[1], obs).replace(
        self_index=one.self_index, class_id=one.class_id
    )
    np.testing.assert_array_equal(v1, critic(world[0], other))


# The resumed runs' configuration, whose jitted init the rollout test shares: one learner team
# (team A) a game, so the critic inputs are each game's first TEAM_SIZE world-state rows.
TINY = mappo.MAPPORNNConfig(
    maps=("0-3",), num_envs=4, rollout=4, minibatches=2, epochs=1, **SMALL, updates_per_log=1,
    logs_per_checkpoint=1, opponents=(("random", 1.0),),
)  # fmt: skip
STEP = TINY.steps_per_update


def test_env_world_state_feeds_the_critic_in_a_rollout():
    """The rollout's critic input is exactly Env.world_state of the games in flight."""
    trainer, init, _ = run_files.compiled_chunk(mappo.make_train, TINY)
    runner = init(jax.random.PRNGKey(0))
    expected = jax.jit(jax.vmap(trainer.env.world_state))(runner.env_state)[:, : C.TEAM_SIZE]
    _, batch, _, _ = jax.jit(trainer.collect)(runner)
    assert batch.world.shape == (4, 4 * C.TEAM_SIZE, WORLD_DIM)  # (rollout, learner agents, .)
    np.testing.assert_array_equal(batch.world[0], expected.reshape(-1, WORLD_DIM))
    assert not hasattr(batch.obs, "world")


def _sampled(networks, params, config, obs, seed):
    """A (3, 6) batch's resets (a game start on the first tick), initial hidden state, the
    actor's heads and actions sampled from them with PRNGKey(seed)."""
    t, n = 3, 6

    @jax.jit
    def sample(params, obs):
        reset = jnp.zeros((t, n), bool).at[0].set(True)
        hidden0 = nets.initial_hidden(config.network, n)
        _, heads = networks.actor.apply(params["actor"], hidden0, obs, reset)
        flat, key = nets.flatten_agents(obs), jax.random.PRNGKey(seed)
        move, pair = nets.sample_actions(key, nets.flatten_agents(heads), flat)
        return reset, hidden0, heads, move.reshape(t, n), pair.reshape(t, n)

    return sample(params, obs)


def test_loss_terms_match_a_hand_computation(random_obs):
    config = mappo.MAPPOConfig(**SMALL, clip_eps=0.2, vf_coef=0.5, ent_coef=0.01)
    networks, params, obs, world = _setup(random_obs, config)
    reset, hidden0, heads, move, pair = _sampled(networks, params, config, obs, seed=7)
    t, n = reset.shape
    logp = jax.jit(nets.joint_log_prob)(heads, move, pair)
    value = _critic(networks, params)(world, obs)
    # old log-probs 0.1 below today's (ratio e^0.1 = 1.105, inside the clip), old values 1.0
    # away (so the value clip binds), returns 0, advantages +-1 (already normalised)
    adv = jnp.where(jnp.arange(n) % 2 == 0, 1.0, -1.0)[None].repeat(t, 0)
    old_value = value + 1.0
    batch = mappo.Batch(obs, world, reset, move, pair, logp - 0.1, old_value, adv,
                        jnp.zeros((t, n)), jnp.ones((t, n), bool))  # fmt: skip
    loss = jax.jit(lambda p, b: mappo.chunk_loss(p, networks, config, hidden0, b, 1.0))
    total, terms = loss(params, batch)
    ratio = np.exp(0.1)
    policy = -np.mean(np.minimum(ratio * np.asarray(adv), min(ratio, 1.2) * np.asarray(adv)))
    v, vc = np.asarray(value), np.asarray(old_value) - 0.2
    value_loss = 0.5 * np.mean(np.maximum(v**2, vc**2))
    ent = float(np.mean(np.asarray(jax.jit(nets.joint_entropy)(heads))))
    assert float(terms["policy"]) == pytest.approx(policy, rel=1e-5)
    assert float(terms["value"]) == pytest.approx(value_loss, rel=1e-5)
    assert float(terms["entropy"]) == pytest.approx(ent, rel=1e-5)
    assert float(total) == pytest.approx(policy + 0.5 * value_loss - 0.01 * ent, rel=1e-5)

    # The world state reaches the value term only: the actor's terms do not depend on it.
    # (Old values equal today's, so the value clip lets the gradient through.)
    names = ("policy", "entropy", "approx_kl", "value")

    def some_terms(w):
        fixed = batch._replace(world=w, value=value)
        terms = loss(params, fixed)[1]
        return jnp.stack([terms[k] for k in names])

    jacobian = np.abs(np.asarray(jax.jit(jax.jacrev(some_terms))(world)))
    jacobian = jacobian.reshape(len(names), -1)
    assert not jacobian[:3].any()
    assert jacobian[3].sum() > 0


@pytest.mark.parametrize("recurrent", [False, True])
def test_one_update_on_a_fixed_batch_lowers_the_loss(random_obs, recurrent):
    config = mappo.MAPPOConfig(**SMALL, recurrent=recurrent, lr=1e-4)
    networks, params, obs, world = _setup(random_obs, config)
    reset, hidden0, heads, move, pair = _sampled(networks, params, config, obs, seed=8)
    t, n = reset.shape
    value = _critic(networks, params)(world, obs)
    rewards = jax.random.normal(jax.random.PRNGKey(9), (t, n))
    gae = jax.jit(lambda r, v: ippo.gae(r, v, jnp.zeros((t, n), bool), jnp.zeros(n), 0.99, 0.95))
    adv, ret = gae(rewards, value)
    logp = jax.jit(nets.joint_log_prob)(heads, move, pair)
    batch = mappo.Batch(obs, world, reset, move, pair, logp, value, adv, ret,
                        jnp.ones((t, n), bool))  # fmt: skip

    def loss(p):
        return mappo.loss_fn(p, networks, config, hidden0, batch)[0]

    before, grads = jax.jit(jax.value_and_grad(loss))(params)
    assert np.abs(np.asarray(grads["critic"]["params"]["Dense_0"]["kernel"])).sum() > 0
    tx = ippo.make_optimizer(config)
    step = jax.jit(lambda g, p: jax.tree.map(jnp.add, p, tx.update(g, tx.init(p), p)[0]))
    assert float(jax.jit(loss)(step(grads, params))) < float(before)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("mappo")
    whole, _ = mappo.run(TINY, root / "whole", steps=3 * STEP, show=False)
    mappo.run(TINY, root / "split", steps=STEP, show=False)
    resumed, policy = mappo.run_rnn(None, root / "split", resume=True, steps=3 * STEP, show=False)
    return whole, resumed, policy


def test_resume_equals_uninterrupted_bit_for_bit(runs):
    whole, resumed, _ = runs
    assert int(whole.update) == int(resumed.update) == 3
    paths = jax.tree_util.tree_flatten_with_path(whole)[0]
    for (path, a), b in zip(paths, jax.tree.leaves(resumed), strict=True):
        assert np.array_equal(np.asarray(a), np.asarray(b)), jax.tree_util.keystr(path)


def test_exported_actor_loads_by_slot_spec_and_plays_only_legal_actions(runs, random_obs):
    whole, _, policy = runs
    loaded = ck.load_policy(policy)
    assert loaded.network == TINY.network and loaded.training["algorithm"] == "mappo-rnn"
    for a, b in zip(jax.tree.leaves(loaded.params), jax.tree.leaves(whole.params["actor"]),
                    strict=True):  # fmt: skip
        np.testing.assert_array_equal(a, b)
    for suffix in ("", ck.GREEDY_SUFFIX):
        system = ck.checkpoint_system(f"{policy}{suffix}")
        carry = system.initial_carry()
        for i in range(3):
            obs = random_obs(jax.random.PRNGKey(20 + i), C.NUM_SLOTS)
            actions, carry = system.act(obs, obs.mask, carry, jax.random.PRNGKey(i))
            flat = (actions.move * C.NUM_TARGETS + actions.target) * C.NUM_ULT + actions.ult
            assert np.asarray(obs.mask.flat)[np.arange(C.NUM_SLOTS), np.asarray(flat)].all()


def test_config_checks():
    with pytest.raises(ValueError, match="critic_width: 0 must be >= 1"):
        mappo.MAPPOConfig(critic_width=0)
    assert dataclasses.replace(TINY, recurrent=False).network.kind == "ff_actor"
