"""Ghost opponents and Elo inside a learner's rollout, for learners whose policy is the
actor-critic of policies.networks (IPPO, IPPO-FF, MAPPO's actor; the Q-network of PQN-VDN and
QMIX, whose ghosts act greedily). The pool's rules are training.selfplay's; this module wires
them into batched games: which games are pool games, where their ghosts sit, and one tick of
acting, rating and swapping.

Layout: the batch's opponent groups (training.common.opponent_groups) fix each game's opponent
kind for the run; the games of the "pool" group have Team B played by ghosts (each game's own
window snapshot or the latest parameters, training.selfplay.opponent_params), every other
non-self group by its fixed System, rated as one Elo entrant.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from policies import networks as nets
from training import common, selfplay


class GhostLayout(NamedTuple):
    """Static indices of a batch of B games: pool_games (G,) batch index of each pool game;
    ghost_slots (G * 5,) flat (game * 10 + slot) index of each ghost; fixed_group (B,) the
    fixed entrant (index into common.fixed_groups) each game meets, -1 for self and pool."""

    pool_games: np.ndarray
    ghost_slots: np.ndarray
    fixed_group: np.ndarray
    fixed_names: tuple


def ghost_layout(groups, num_envs: int) -> GhostLayout:
    """The GhostLayout of `groups` over `num_envs` games."""
    pool = [i for g in groups if g.kind == "pool" for i in range(g.lo, g.hi)]
    pool_games = np.asarray(pool, np.int32)
    team_b = np.arange(C.TEAM_SIZE, C.NUM_SLOTS)
    ghost_slots = (pool_games[:, None] * C.NUM_SLOTS + team_b[None]).reshape(-1)
    fixed = common.fixed_groups(groups)
    fixed_group = np.full(num_envs, -1, np.int32)
    for i, g in enumerate(fixed):
        fixed_group[g.lo : g.hi] = i
    return GhostLayout(pool_games, ghost_slots.astype(np.int32), fixed_group,
                       tuple(g.kind for g in fixed))  # fmt: skip


def init_state(config: selfplay.GhostConfig, network_config, params, layout, key, axis_name=None):
    """The run's first GhostState: the initial parameters as the one snapshot, fresh ghost
    recurrent state (G, 5, H); key the same on every device of `axis_name`."""
    g = len(layout.pool_games)
    hidden = nets.initial_hidden(network_config, g * C.TEAM_SIZE)
    carry = hidden.reshape(g, C.TEAM_SIZE, hidden.shape[-1])
    fixed = len(layout.fixed_names)
    return selfplay.init_ghost(config, params, g, carry, fixed, key, axis_name)


def ghost_actions(
    network, layout: GhostLayout, ghost, params, obs, reset, joint, key, axis_name=None,
    choose=None,
):  # fmt: skip
    """Team B's heads in every pool game from its opponent's parameters.

    obs: batched Obs (B, 10, ...); reset (B,) bool (the ghost's carry restarts with the game);
    joint: heads (B, 10) to fill; key: the same on every device of `axis_name`, each device
    sampling with its games' block of the keys (selfplay.device_block); choose(key, heads,
    obs) -> (move, pair) int32: the ghost's action from its network's heads (default
    policies.networks.sample_actions; the Q learners' greedy legal argmax). Returns (joint,
    ghost with the new carry)."""
    g = len(layout.pool_games)
    if g == 0:
        return joint, ghost
    flat = jax.tree.map(lambda x: x.reshape((-1,) + x.shape[2:]), obs)
    mine = jax.tree.map(lambda x: x[layout.ghost_slots].reshape((g, C.TEAM_SIZE) + x.shape[1:]),
                        flat)  # fmt: skip
    fresh = jnp.broadcast_to(reset[layout.pool_games][:, None], (g, C.TEAM_SIZE))
    opponent = selfplay.opponent_params(ghost, params)
    choose = choose or nets.sample_actions

    def act(p, hidden, o, new, k):
        hidden, heads = network.apply(p, hidden, o, new)
        return hidden, choose(k, heads, o)

    keys = selfplay.device_block(
        jax.random.split(key, g * selfplay.device_count(axis_name)), axis_name
    )
    carry, (move, pair) = jax.vmap(act)(opponent, ghost.carry, mine, fresh, keys)
    heads = nets.to_actions(move.reshape(-1), pair.reshape(-1))
    joint = jax.tree.map(
        lambda j, h: j.reshape(-1).at[layout.ghost_slots].set(h).reshape(j.shape), joint, heads
    )
    return joint, ghost._replace(carry=carry)


def after_tick(
    config, layout: GhostLayout, ghost, state, done, outcome, axis_name=None, live=None
):  # fmt: skip
    """Ratings and swaps after a tick (training.selfplay.after_tick) given the pre-tick
    State's active slots (B, 10), done (B,) and outcome (B,). live (B,) bool, when given: the
    games that count (QMIX's whole games: a game's auto-reset successor within the same
    update is neither rated nor counted in ghost steps)."""
    score = selfplay.learner_score(outcome, C.A_WINS, C.DRAW)
    active = state.active[layout.pool_games]
    if live is not None:
        done = done & live
        active = active & live[layout.pool_games][:, None]
    agents = (active[:, : C.TEAM_SIZE].sum(1), active[:, C.TEAM_SIZE :].sum(1))
    ghost, _ = selfplay.after_tick(
        ghost, config, done, score, jnp.asarray(layout.fixed_group),
        jnp.asarray(layout.pool_games), agents, axis_name,
    )  # fmt: skip
    return ghost
