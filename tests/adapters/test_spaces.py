"""Gymnasium spaces hold every observation of random games, with the engine's shapes and
dtypes (RULES 5.3-5.6), and name the layout of the flat vector."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import adapters
from adapters import arrays, spaces
from engine import constants as C
from engine.sampling import pick_legal
from engine.types import ROW, Obs

GAMES, TICKS = 4, 300


@pytest.fixture(scope="module")
def rollout():
    """Four full random legal games (deaths and respawns included) through the adapter."""
    env = adapters.make("TeamDeathmatch", maps=[8, 12, 30], rosters=["MWHRP/MWHRP", "MWH/RP"])

    def game(key):
        def tick(carry, k):
            _, state = carry
            k_act, k_step = jax.random.split(k)
            flat = pick_legal(jax.random.uniform(k_act, (10,)), state.avail)
            obs, state, *_ = env.step(k_step, state, dict(zip(env.agents, flat, strict=True)))
            core = env.core.observe(state.game)  # no relay: the structured Dict space check
            return (obs, state), (jnp.stack([obs[a] for a in env.agents]), state.game.alive, core)

        k_reset, k_run = jax.random.split(key)
        return jax.lax.scan(tick, env.reset(k_reset), jax.random.split(k_run, TICKS))[1]

    keys = jax.random.split(jax.random.PRNGKey(0), GAMES)
    flat, alive, core = jax.device_get(jax.jit(jax.vmap(game))(keys))
    return env, flat, alive, core


def test_flat_space_contains_every_observation(rollout):
    env, flat, alive, _ = rollout
    space = env.observation_space("ally_0")
    assert space.shape == (spaces.FLAT_DIM,) == (680,) and space.dtype == np.float32
    assert flat.dtype == np.float32 and flat.shape == (GAMES, TICKS, 10, 680)
    rows = flat.reshape(-1, 680)
    outside = (rows < space.low) | (rows > space.high)
    assert not outside.any(), f"columns outside the space: {np.flatnonzero(outside.any(0))}"
    assert all(space.contains(row) for row in rows[:: len(rows) // 50])
    # the rollout reached the states the bounds are for: deaths and respawns happened
    deaths = (alive[:, :-1] & ~alive[:, 1:]).sum()
    assert deaths > 0 and (~alive[:, :-1] & alive[:, 1:]).sum() > 0
    # a bound that is never approached would hide a wrong unit: health reaches max health
    health = rows[:, ROW["health"] : 10 * len(ROW) : len(ROW)]
    assert health.max() == space.high[ROW["health"]] == 200.0


def test_structured_space_matches_engine_arrays(rollout):
    env, _, _, core = rollout
    space = spaces.obs_space(env.core.config, env.core.pool)
    for name, sub in space.spaces.items():
        value = np.asarray(getattr(core, name))
        assert value.dtype == sub.dtype, name
        assert value.shape[3:] == sub.shape, name  # (games, ticks, observer, ...)
        flat = value.reshape(-1, *sub.shape)
        assert ((flat >= sub.low) & (flat <= sub.high)).all(), name
    one = {name: np.asarray(np.asarray(getattr(core, name))[0, 5, 2]) for name in space.spaces}
    assert space.contains(one)


def test_flat_layout_offsets():
    # every field in order; a unit's x sits at 33 * row, the context after the obstacle table
    obs = Obs(
        units=jnp.arange(10 * 330, dtype=jnp.float32).reshape(10, 10, 33),
        visible=jnp.ones((10, 10), bool),
        relayed=jnp.zeros((10, 10), bool),
        public=jnp.full((10, 10, 3), 2.0),
        obstacles=jnp.full((10, 32, 8), 3.0),
        context=jnp.full((10, 12), 4.0),
        prev_action=jnp.full((10, 10, 3), -1, jnp.int32),
        class_id=jnp.arange(10, dtype=jnp.int32),
        self_index=jnp.arange(10, dtype=jnp.int32) % 5,
        mask=None,
    )
    flat = np.asarray(arrays.flatten_obs(obs))
    assert flat.shape == (10, 680)
    np.testing.assert_array_equal(flat[1, :330], np.arange(330, 660))
    assert flat[0, 330:340].tolist() == [1.0] * 10 and flat[0, 340:350].tolist() == [0.0] * 10
    assert set(flat[0, 350:380]) == {2.0} and set(flat[0, 380:636]) == {3.0}
    assert set(flat[0, 636:648]) == {4.0} and set(flat[0, 648:678]) == {-1.0}
    assert flat[7, 678:].tolist() == [7.0, 2.0]


def test_action_spaces_and_round_trip():
    assert spaces.action_space("flat").n == C.NUM_FLAT
    heads = spaces.action_space("heads")
    assert heads.dtype == np.int32 and heads.nvec.tolist() == [9, 11, 2]
    assert spaces.mask_space("heads").shape == (22,) and spaces.mask_space("flat").dtype == np.int8
    flat = jnp.arange(C.NUM_FLAT, dtype=jnp.int32)
    actions = arrays.to_actions(flat, "flat")
    np.testing.assert_array_equal(arrays.from_actions(actions, "flat"), flat)
    # RULES 3.7's examples: walk east and Basic enemy 2 is 82, the last index is 197
    assert (int(actions.move[82]), int(actions.target[82]), int(actions.ult[82])) == (3, 8, 0)
    assert (int(actions.move[197]), int(actions.target[197]), int(actions.ult[197])) == (8, 10, 1)
    with pytest.raises(ValueError, match="action_type 'x'"):
        spaces.action_space("x")
