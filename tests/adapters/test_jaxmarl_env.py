"""The JaxMARL-style adapter plays the engine's games: same keys and actions, same states,
rewards and observations; dead agents keep their keys; jit, vmap and scan agree (RULES 4.4)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import adapters
from adapters import arrays
from engine import constants as C
from engine import legality
from engine.env import Env
from engine.sampling import pick_legal
from policies.random_system import random_system
from policies.system import merge_actions

TICKS = 30
# horizon 12: the rollouts cross two auto-resets; a mixed pool changes map and roster
ENV_KWARGS = dict(maps=[0, 8, 12], rosters=["MWHRP/MWHRP", "MWH/RP"], horizon=12)


def draw_flat(key, avail):
    """One legal flat index per slot from (10, 198) masks (the engine benchmark's sampler)."""
    return pick_legal(jax.random.uniform(key, (avail.shape[0],)), avail)


@pytest.fixture(scope="module")
def env():
    return adapters.make("TeamDeathmatch", **ENV_KWARGS)


def adapter_rollout(env, key):
    """A scanned random legal game through the adapter: per tick (game, rewards, dones, obs)."""

    def tick(carry, k):
        obs, state = carry
        k_act, k_step = jax.random.split(k)
        flat = draw_flat(k_act, state.avail)
        actions = {a: flat[i] for i, a in enumerate(env.agents)}
        obs, state, rewards, dones, _ = env.step(k_step, state, actions)
        stacked = jnp.stack([obs[a] for a in env.agents])
        reward = jnp.stack([rewards[a] for a in env.agents])
        return (obs, state), (state.game, reward, dones["__all__"], stacked, state.avail)

    k_reset, k_run = jax.random.split(key)
    start = env.reset(k_reset)
    return jax.lax.scan(tick, start, jax.random.split(k_run, TICKS))[1]


def core_rollout(core: Env, key):
    """The same game through the engine's own API, splitting keys as the adapter does."""

    def tick(carry, k):
        obs, state = carry
        k_act, k_step = jax.random.split(k)
        flat = draw_flat(k_act, obs.mask.flat)
        obs, state, reward, done, _ = core.step(
            jax.random.split(k_step)[0], state, arrays.to_actions(flat, "flat")
        )
        return (obs, state), (state, reward, done, arrays.flatten_obs(obs), obs.mask.flat)

    k_reset, k_run = jax.random.split(key)
    start = core.reset(jax.random.split(k_reset)[0])
    return jax.lax.scan(tick, start, jax.random.split(k_run, TICKS))[1]


def assert_trees_equal(a, b):
    for (path, x), y in zip(
        jax.tree_util.tree_leaves_with_path(a), jax.tree_util.tree_leaves(b), strict=True
    ):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=str(path))


def assert_games_equal(a, b):
    """States, rewards, dones and masks bit for bit; observations to 2 ulp: XLA fuses the
    observation's distance column (a square root) differently in different programs."""
    game, reward, done, obs, avail = a
    assert_trees_equal((game, reward, done, avail), (b[0], b[1], b[2], b[4]))
    np.testing.assert_array_max_ulp(np.asarray(obs), np.asarray(b[3]), maxulp=2)


@pytest.mark.slow  # compiles three scanned rollouts (single, vmapped, core)
def test_games_equal_core_engine(env):
    keys = jax.random.split(jax.random.PRNGKey(7), 2)
    ours = jax.jit(lambda k: adapter_rollout(env, k))(keys[1])
    theirs = jax.jit(lambda k: core_rollout(env.core, k))(keys[1])
    assert_games_equal(ours, theirs)
    done = np.asarray(ours[2])
    assert done.sum() == 2  # both auto-resets were crossed (horizon 12, 30 ticks)
    # vmapped over games = one game at a time
    batch = jax.jit(jax.vmap(lambda k: adapter_rollout(env, k)))(keys)
    assert_games_equal(jax.tree.map(lambda x: x[1], batch), ours)


def killing_blow(env):
    """ally_0 (a Mage) stands 2.0 from enemy_0 (a Mage at 1 HP): Basic on enemy 0 kills it."""
    _, state = jax.jit(env.reset)(jax.random.PRNGKey(0))
    game = state.game
    game = game.replace(
        pos=game.pos.at[0].set(jnp.array([9.0, 5.0])).at[5].set(jnp.array([11.0, 5.0])),
        health=game.health.at[5].set(1.0),
        map_id=game.map_id,
    )
    game = game.replace(seen=legality.visibility(game))
    return jax.jit(env.from_game)(jax.random.PRNGKey(1), game)


@pytest.mark.slow  # compiles reset, an authored start and step of its own configuration
def test_dead_agents_keep_their_keys_and_respawn():
    env = adapters.make("TeamDeathmatch", maps=[0], rosters=["MWHRP/MWHRP"])
    _, state = killing_blow(env)
    basic_on_enemy_0 = (0 * C.NUM_TARGETS + 6) * C.NUM_ULT  # flat 12 (RULES 3.7)
    assert bool(state.avail[0, basic_on_enemy_0])
    noop = {a: jnp.int32(0) for a in env.agents}
    step = jax.jit(env.step)
    obs, state, rewards, dones, infos = step(
        jax.random.PRNGKey(2), state, noop | {"ally_0": jnp.int32(basic_on_enemy_0)}
    )
    assert not bool(state.game.alive[5]) and int(state.game.score[0]) == 1
    for table in (obs, rewards, dones, env.get_avail_actions(state)):
        assert set(env.agents) <= set(table)
    avail = env.get_avail_actions(state)["enemy_0"]
    assert np.flatnonzero(np.asarray(avail)).tolist() == [0]  # only the no-op
    assert not np.asarray(obs["enemy_0"][:330]).any()  # a dead agent sees no unit (RULES 5.2)
    assert not bool(dones["enemy_0"]) and infos["won"].shape == (10,)
    # killed on tick 0: the wave on tick 4 brings it back in state 5 (RULES 4.2, 7.10)
    for tick in range(1, 5):
        obs, state, *_ = step(jax.random.PRNGKey(2 + tick), state, noop)
        assert bool(state.game.alive[5]) == (tick == 4)
    assert int(state.game.shield[5]) == C.SHIELD_TICKS
    moves = np.flatnonzero(np.asarray(env.get_avail_actions(state)["enemy_0"]))
    assert moves.tolist() == [m * C.NUM_TARGETS * C.NUM_ULT for m in range(C.NUM_MOVES)]


def hidden_key(key):
    """The key the adapter hands its one hidden System after reset(key) or step(key)."""
    return jax.random.split(jax.random.split(key)[1], 1)[0]


def test_heuristic_enemy_equals_core_match():
    """Team B's System decides on each state's observation inside the env, as a match would."""
    env = adapters.make("HeuristicEnemyTeamDeathmatch", maps=[8], opponent="random", horizon=6)
    assert env.agents == [f"ally_{i}" for i in range(5)]
    bot = random_system()
    team_b = np.arange(10) >= 5
    k_reset, k_run = jax.random.split(jax.random.PRNGKey(11))
    obs, state = jax.jit(env.reset)(k_reset)
    core_obs, game = jax.jit(env.core.reset)(jax.random.split(k_reset)[0])
    bot_key = hidden_key(k_reset)
    step, core_step = jax.jit(env.step), jax.jit(env.core.step)
    dones = []
    for k in jax.random.split(k_run, 8):
        k_act, k_step = jax.random.split(k)
        flat = draw_flat(k_act, state.avail)[:5]
        theirs, _ = bot.act(core_obs, core_obs.mask, (), bot_key)
        mine = arrays.to_actions(jnp.concatenate([flat, jnp.zeros(5, jnp.int32)]), "flat")
        joint, _ = merge_actions([mine, theirs], np.stack([~team_b, team_b]))
        agent_actions = {a: flat[i] for i, a in enumerate(env.agents)}
        obs, state, rewards, done, _ = step(k_step, state, agent_actions)
        core_obs, game, reward, core_done, _ = core_step(jax.random.split(k_step)[0], game, joint)
        bot_key = hidden_key(k_step)
        assert_trees_equal((state.game, done["__all__"]), (game, core_done))
        np.testing.assert_array_equal(np.stack([rewards[a] for a in env.agents]), reward[:5])
        mine_obs = np.stack([obs[a] for a in env.agents])
        np.testing.assert_array_max_ulp(mine_obs, arrays.flatten_obs(core_obs)[:5], maxulp=2)
        dones.append(bool(core_done))
    assert dones.count(True) == 1  # the auto-reset at tick 6 was crossed
    assert np.asarray(state.game.pos[5:] != state.game.pads[5:]).any()  # Team B walked


def test_heads_action_type_plays_the_same_actions():
    env = adapters.make("TeamDeathmatch", maps=[0], action_type="heads")
    assert env.action_space("ally_0").nvec.tolist() == [9, 11, 2]
    heads = jnp.tile(jnp.array([1, 0, 0], jnp.int32), (10, 1))  # everyone walks north

    @jax.jit
    def both(key):
        _, state = env.reset(key)
        _, after, *_ = env.step(key, state, dict(zip(env.agents, heads, strict=True)))
        core = env.core.step(
            jax.random.split(key)[0], state.game, arrays.to_actions(heads, "heads")
        )
        return state, after, core[1]

    state, after, game = both(jax.random.PRNGKey(5))
    assert state.avail.shape == (10, 22)
    assert_trees_equal(after.game, game)
    north = np.asarray(after.game.pos - state.game.pos)[:, 1]
    np.testing.assert_allclose(north, C.BASE_SPEED[np.asarray(game.class_id)], rtol=1e-5)


def test_world_state_and_bad_input(env):
    _, state = jax.jit(env.reset)(jax.random.PRNGKey(0))
    assert jax.jit(env.world_state)(state).shape == (10, 342)
    with pytest.raises(ValueError, match="NoSuchEnv"):
        adapters.make("NoSuchEnv")
    with pytest.raises(ValueError, match="action_type 'joint'"):
        adapters.make("TeamDeathmatch", action_type="joint")
    with pytest.raises(KeyError, match="enemy_4"):
        env.step(jax.random.PRNGKey(0), state, {a: 0 for a in env.agents[:-1]})
    with pytest.raises(ValueError, match="nobody"):
        adapters.make("HeuristicEnemyTeamDeathmatch", opponent="scripted:nobody")


def test_flat_mask_layout_with_leading_axes():
    """legality.flat_mask puts move m, target t, ult u at (m * 11 + t) * 2 + u (RULES 3.7), for
    any leading axes (the adapter builds it from vmapped head masks)."""
    rng = np.random.default_rng(3)
    move = rng.random((4, 10, C.NUM_MOVES)) < 0.5
    pair = rng.random((4, 10, C.NUM_TARGETS, C.NUM_ULT)) < 0.5
    flat = np.asarray(legality.flat_mask(jnp.asarray(move), jnp.asarray(pair)))
    assert flat.shape == (4, 10, 198)
    for m, t, u in [(0, 0, 0), (3, 7, 1), (8, 10, 1), (5, 2, 0)]:
        expected = move[..., m] & pair[..., t, u]
        np.testing.assert_array_equal(flat[..., (m * C.NUM_TARGETS + t) * C.NUM_ULT + u], expected)
    assert flat.sum() == (move[..., :, None, None] & pair[..., None, :, :]).sum()


def test_avail_is_the_engine_mask_in_both_action_types():
    """The state keeps the head masks; `avail` rebuilt from them is the engine's flat mask, or
    move | target | ult for heads, in a state where some slots are dead."""
    heads_env = adapters.make("TeamDeathmatch", maps=[0], action_type="heads")
    flat_env = adapters.make("TeamDeathmatch", maps=[0])

    @jax.jit
    def views(key):
        game = flat_env.reset(key)[1].game
        game = game.replace(alive=game.alive.at[jnp.array([1, 7])].set(False))
        flat_state = flat_env.from_game(key, game)[1]
        heads_state = heads_env.from_game(key, game)[1]
        named = flat_env.get_avail_actions(flat_state)["enemy_2"]
        return flat_env.core.observe(game).mask, flat_state.avail, heads_state.avail, named

    mask, flat, heads, named = views(jax.random.PRNGKey(2))
    np.testing.assert_array_equal(flat, mask.flat)
    np.testing.assert_array_equal(heads, np.concatenate([mask.move, mask.target, mask.ult], -1))
    assert not flat[1, 1:].any() and flat[1, 0] and flat[0, 1:].any()
    np.testing.assert_array_equal(named, mask.flat[7])


def test_agent_vectors_are_the_flat_rows():
    """`arrays.agent_vectors` gives exactly the rows of `flatten_obs`, in the order asked."""
    core = adapters.make("TeamDeathmatch", maps=[0]).core
    obs = jax.jit(lambda key: core.reset(key)[0])(jax.random.PRNGKey(4))
    block = np.asarray(arrays.flatten_obs(obs))
    rows = arrays.agent_vectors(obs, (7, 0, 3))
    assert [r.shape for r in rows] == [(680,)] * 3
    for slot, row in zip((7, 0, 3), rows, strict=True):
        np.testing.assert_array_equal(np.asarray(row), block[slot])
    assert block[7, 678] == np.asarray(obs.class_id)[7] and block[7, 679] == 2  # self_index


def test_pair_concat_joins_odd_pieces_and_refuses_an_odd_total():
    """`_pair_concat` gives `jnp.concatenate`'s values when odd-sized neighbours pair up, and
    names an odd total."""
    pieces = [jnp.arange(4.0), jnp.array([10.0]), jnp.array([11.0, 12.0, 13.0]), jnp.arange(2.0)]
    joined = arrays._pair_concat(pieces)
    np.testing.assert_array_equal(joined, [0, 1, 2, 3, 10, 11, 12, 13, 0, 1])
    with pytest.raises(ValueError, match="7 values"):
        arrays._pair_concat([jnp.arange(4.0), jnp.arange(3.0)])


@pytest.mark.slow  # compiles both paths' steps in one scan: 10-60 s a case on the shared CPU
@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("HeuristicEnemyTeamDeathmatch", dict(maps=[8], opponent="random", horizon=5)),
        ("TeamDeathmatch", dict(maps=[0], rosters=["MWH/RP"], horizon=5, action_type="heads")),
    ],
)
def test_stacked_path_is_the_batchified_dicts(name, kwargs):
    """reset_stacked, step_stacked and avail_stacked hand over what `batchify` makes of the
    dicts, in one vmapped scan of two games across an auto-reset (horizon 5, 7 ticks)."""
    env = adapters.make(name, **kwargs)
    n = env.num_agents

    def game(key):
        def tick(carry, k):
            (obs, state), (obs_s, state_s) = carry
            k_act, k_step = jax.random.split(k)
            avail, avail_s = (
                adapters.batchify(env.get_avail_actions(state), env.agents),
                (env.avail_stacked(state_s)),
            )
            flat = draw_flat(
                k_act, arrays.mask_from_heads(state.move_mask, state.pair_mask, "flat")
            )[:n]
            values = arrays.from_actions(arrays.to_actions(flat, "flat"), env.action_type)
            actions = dict(zip(env.agents, values, strict=True))
            obs, state, rewards, dones, infos = env.step(k_step, state, actions)
            obs_s, state_s, rewards_s, dones_s, infos_s = env.step_stacked(k_step, state_s, values)
            dicts = (adapters.batchify(obs, env.agents), avail, state, infos)
            dicts += (adapters.batchify(rewards, env.agents), adapters.batchify(dones, env.agents))
            stacked = (obs_s, avail_s, state_s, infos_s, rewards_s, dones_s)
            return ((obs, state), (obs_s, state_s)), (dicts, stacked, dones["__all__"])

        start = (env.reset(key), env.reset_stacked(key))
        first = (adapters.batchify(start[0][0], env.agents), start[1][0])
        return first, jax.lax.scan(tick, start, jax.random.split(key, 7))[1]

    (first, first_s), (dicts, stacked, done) = jax.jit(jax.vmap(game))(
        jax.random.split(jax.random.PRNGKey(3), 2)
    )
    assert first_s.shape == (2, n, 680) and stacked[0].shape == (2, 7, n, 680)
    assert stacked[4].shape == stacked[5].shape == (2, 7, n)
    np.testing.assert_array_max_ulp(np.asarray(first_s), np.asarray(first), maxulp=2)
    np.testing.assert_array_max_ulp(np.asarray(stacked[0]), np.asarray(dicts[0]), maxulp=2)
    assert_trees_equal(stacked[1:], dicts[1:])
    assert np.asarray(done).sum() == 2  # each game crossed its auto-reset at tick 5


def test_step_stacked_names_a_wrong_action_shape():
    env = adapters.make("HeuristicEnemyTeamDeathmatch", maps=[8], opponent="random")
    state = jax.eval_shape(env.reset, jax.random.PRNGKey(0))[1]  # shapes only: nothing compiles
    with pytest.raises(
        ValueError, match=r"shape \(10,\); expected \(5,\) \(flat actions of ally_0"
    ):
        env.step_stacked(jax.random.PRNGKey(1), state, jnp.zeros(10, jnp.int32))
