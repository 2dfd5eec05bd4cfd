"""Ghost opponents and Elo (training.selfplay, training.ghosts) against seed 001's definitions:
swaps only at game ends, fresh ghost carry, the latest-model ratio, the window, the swap-steps
formula and Elo, with hand-computed values."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from engine import constants as C
from policies import networks as nets
from training import common, ghosts, selfplay

CONFIG = selfplay.GhostConfig(save_steps=10, swap_steps=6, window=3, elo_k=16.0)
after_tick = jax.jit(selfplay.after_tick, static_argnums=1)  # eager ops are slow on a busy CPU


def make_ghost(games=3, fixed=1, config=CONFIG, seed=0):
    params = {"w": jnp.zeros(2)}
    carry = jnp.zeros((games, C.TEAM_SIZE, 1))
    return selfplay.init_ghost(config, params, games, carry, fixed, jax.random.PRNGKey(seed))


def test_swaps_happen_only_at_game_ends_with_staggered_games():
    # Three pool games of lengths 3, 5 and 7 ticks, 2 ghosts each: 6 ghost steps (the
    # threshold) are reached on tick 3; each game then swaps only at its own end.
    config = selfplay.GhostConfig(swap_steps=6, window=3, play_against_latest_model_ratio=0.5)
    ghost = make_ghost(config=config)
    ghost = ghost._replace(size=jnp.int32(3))
    lengths = np.array([3, 5, 7])
    pool_games = jnp.arange(3)
    fixed = jnp.full(3, -1)
    agents = (jnp.full(3, 2), jnp.full(3, 2))
    swaps = []
    for tick in range(1, 43):
        done = jnp.asarray(tick % lengths == 0)
        before = np.asarray(ghost.choice)
        steps_before = np.asarray(ghost.ghost_steps)
        ghost, swapped = after_tick(
            ghost, config, done, jnp.full(3, 0.5), fixed, pool_games, agents
        )
        swapped = np.asarray(swapped)
        expected = np.asarray(done) & (steps_before + 2 >= 6)
        assert np.array_equal(swapped, expected), tick
        changed = np.asarray(ghost.choice) != before
        assert not np.any(changed & ~np.asarray(done)), f"mid-game change on tick {tick}"
        assert np.array_equal(np.asarray(ghost.ghost_steps)[swapped], np.zeros(swapped.sum()))
        swaps.append(swapped)
    swaps = np.array(swaps)
    # game 0 (3 ticks, 6 ghost steps a game) swaps at every end; game 1 and 2 too (10, 14)
    assert swaps[:, 0].sum() == 14 and swaps[:, 1].sum() == 8 and swaps[:, 2].sum() == 6


def test_swap_steps_follow_the_seed_formula_for_a_2v1_stage():
    # Seed 001: 2v1, x = 4 swaps in team_change = 200000 steps: the 1-agent team swaps
    # every 25000 ghost steps, the 2-agent team every 100000.
    even = 200_000 / 4
    assert selfplay.swap_threshold(even, 1, 2) == 25_000
    assert selfplay.swap_threshold(even, 2, 1) == 100_000
    config = selfplay.GhostConfig(swap_steps=4, window=2)
    ghost = make_ghost(games=1, config=config)
    args = (jnp.full(1, -1), jnp.arange(1), (jnp.full(1, 2), jnp.full(1, 1)))
    done = jnp.ones(1, bool)
    for steps_before in range(7):  # a 2v1 pool game swaps once 8 ghost steps have passed
        g = ghost._replace(ghost_steps=jnp.full(1, steps_before, jnp.int32))
        _, swapped = after_tick(g, config, done, jnp.ones(1), *args)
        assert bool(swapped[0]) == (steps_before + 1 >= 8)


@pytest.mark.parametrize("ratio", [0.0, 1.0])
def test_latest_model_ratio_extremes(ratio):
    drawn = selfplay.draw_opponents(jax.random.PRNGKey(3), jnp.int32(4), ratio, 2000)
    drawn = np.asarray(drawn)
    if ratio == 1.0:
        assert np.all(drawn == selfplay.LATEST)
    else:
        assert not np.any(drawn == selfplay.LATEST)
        assert set(drawn.tolist()) == {0, 1, 2, 3}


def test_latest_model_ratio_in_between_is_the_probability():
    drawn = np.asarray(selfplay.draw_opponents(jax.random.PRNGKey(4), jnp.int32(2), 0.3, 20000))
    assert abs(np.mean(drawn == selfplay.LATEST) - 0.3) < 0.015


def test_window_drops_the_oldest_snapshot():
    ghost = make_ghost()  # holds snapshot 0 (w = 0) in slot 0
    for k in range(1, 5):
        ghost = ghost._replace(trainer_steps=jnp.int32(10 * k))
        ghost = selfplay.take_snapshot(ghost, {"w": jnp.full(2, float(k))}, CONFIG.window)
    # taken 0, 10, 20, 30, 40 into 3 slots: 0 and 10 dropped, 40 overwrote 10's slot
    assert np.asarray(ghost.params["w"])[:, 0].tolist() == [3.0, 4.0, 2.0]
    assert np.asarray(ghost.taken).tolist() == [30, 40, 20]
    assert int(ghost.size) == 3 and int(ghost.head) == 2


def test_snapshots_every_save_steps_carry_the_learner_rating():
    ghost = make_ghost()._replace(learner_elo=jnp.float32(1250.0))
    params = {"w": jnp.ones(2)}
    ghost = selfplay.after_update(ghost, params, jnp.int32(6), CONFIG)
    assert int(ghost.size) == 1 and int(ghost.since_save) == 6
    ghost = selfplay.after_update(ghost, params, jnp.int32(6), CONFIG)  # 12 >= 10
    assert int(ghost.size) == 2 and int(ghost.since_save) == 2
    assert float(ghost.rating[1]) == 1250.0 and int(ghost.taken[1]) == 12


def test_elo_hand_computed_and_rising_against_a_fixed_weak_opponent():
    # 1200 v 1200, k 16: a win moves both by 8; a draw between equals moves nothing.
    learner, ratings = selfplay.rate_games(
        jnp.float32(1200), jnp.full(1, 1200.0), jnp.zeros(1, jnp.int32), jnp.ones(1, bool),
        jnp.ones(1), 16.0,
    )  # fmt: skip
    assert float(learner) == pytest.approx(1208.0) and float(ratings[0]) == pytest.approx(1192.0)
    same, _ = selfplay.rate_games(
        jnp.float32(1200), jnp.full(1, 1200.0), jnp.zeros(1, jnp.int32), jnp.ones(1, bool),
        jnp.full(1, 0.5), 16.0,
    )  # fmt: skip
    assert float(same) == 1200.0
    ghost, history = make_ghost(games=0), []
    fixed = jnp.zeros(4, jnp.int32)  # four games a tick against fixed entrant 0
    for _ in range(30):  # the learner wins 3 games of 4 every tick
        ghost, _ = after_tick(
            ghost, CONFIG, jnp.ones(4, bool), jnp.array([1.0, 1.0, 1.0, 0.0]), fixed,
            jnp.zeros(0, jnp.int32), (jnp.zeros(0), jnp.zeros(0)),
        )  # fmt: skip
        history.append(float(ghost.learner_elo))
        total = float(ghost.learner_elo + ghost.fixed_elo.sum())
        assert total == pytest.approx(2400.0, abs=1e-3)  # Elo moves points, never makes them
    assert all(b > a for a, b in zip(history, history[1:], strict=False))
    # 3 of 4 is the expected score of a 191-point lead; the learner approaches it from below
    lead = history[-1] - float(ghost.fixed_elo[0])
    assert 100 < lead < 191


def test_games_against_the_latest_parameters_move_no_rating():
    ghost = make_ghost(games=2)._replace(choice=jnp.array([selfplay.LATEST, 0], jnp.int32))
    out, _ = after_tick(
        ghost, CONFIG, jnp.array([True, True]), jnp.array([1.0, 1.0]), jnp.full(2, -1),
        jnp.arange(2), (jnp.full(2, 5), jnp.full(2, 5)),
    )  # fmt: skip
    # only the game against snapshot 0 counts: +8 for the learner, -8 for the snapshot
    assert float(out.learner_elo) == pytest.approx(1208.0)
    assert float(out.rating[0]) == pytest.approx(1192.0) and float(out.fixed_elo[0]) == 1200.0


def test_opponent_params_pick_each_games_snapshot_or_the_latest():
    ghost = make_ghost(games=3)
    ghost = ghost._replace(
        params={"w": jnp.arange(6.0).reshape(3, 2)}, choice=jnp.array([2, -1, 0], jnp.int32)
    )
    picked = selfplay.opponent_params(ghost, {"w": jnp.full(2, 9.0)})
    assert np.asarray(picked["w"]).tolist() == [[4.0, 5.0], [9.0, 9.0], [0.0, 1.0]]


@pytest.mark.slow  # compiles a network on the CPU (about 90 s on the loaded development machine)
def test_ghost_carry_is_fresh_when_its_game_restarts(random_obs):
    network_config = nets.NetworkConfig(embed=8, torso=16, hidden=8)
    network = nets.ActorCritic(network_config)
    groups = common.opponent_groups((("pool", 1.0),), 2)
    layout = ghosts.ghost_layout(groups, 2)
    assert layout.pool_games.tolist() == [0, 1] and layout.ghost_slots[:5].tolist() == [
        5,
        6,
        7,
        8,
        9,
    ]
    obs = jax.tree.map(
        lambda x: x.reshape((2, C.NUM_SLOTS) + x.shape[1:]), random_obs(jax.random.PRNGKey(0), 20)
    )
    params = nets.init_params(
        network_config, jax.random.PRNGKey(1), jax.tree.map(lambda x: x[0], obs)
    )
    ghost = ghosts.init_state(CONFIG, network_config, params, layout, jax.random.PRNGKey(2))
    stale = ghost._replace(carry=jnp.full(ghost.carry.shape, 3.0))
    joint = nets.to_actions(jnp.zeros((2, 10), jnp.int32), jnp.zeros((2, 10), jnp.int32))
    reset = jnp.array([True, False])
    key = jax.random.PRNGKey(5)

    @jax.jit
    def act(g):
        return ghosts.ghost_actions(network, layout, g, params, obs, reset, joint, key)[1]

    from_stale, from_fresh = act(stale), act(ghost)
    # game 0 restarted: its ghosts ignore the old opponent's state; game 1 did not
    assert np.allclose(from_stale.carry[0], from_fresh.carry[0])
    assert not np.allclose(from_stale.carry[1], from_fresh.carry[1])


def test_config_checks_name_the_field():
    with pytest.raises(ValueError, match="play_against_latest_model_ratio: 1.5"):
        selfplay.GhostConfig(play_against_latest_model_ratio=1.5)
    with pytest.raises(ValueError, match="window: 0"):
        selfplay.GhostConfig(window=0)
