"""Pieces the value-based learners share (training.pqn_vdn, training.qmix): their common config
fields, the agent Q-values read off the recurrent network, epsilon-greedy acting over legal
actions only, the team sums and the lock-step rollout tick.

Agent Q-network: policies.networks.ActorCritic (one GRU network shared by every agent, class id
in the input) whose heads are read as a dueling, additive factorisation of the flat 198 actions:

    Q(o, move, target, ult) = V(o) + A_move(o, move) + A_pair(o, target * 2 + ult)

with V the critic head and A the two masked heads. The engine's flat mask is exactly
move x pair (engine.legality.masks), so the greedy legal joint action is the pair of per-head
legal argmaxes, and max_a Q = V + max A_move + max A_pair, both exact: no legal joint action is
lost and no illegal one can win (masked entries are networks.MASKED, far below any Q-value, and
every mask allows the no-op). The factorisation is the action-branching idea of Tavakoli et al.
2018 ("Action Branching Architectures for Deep Reinforcement Learning") with one joint Q-value
per agent rather than one per branch. Checkpoints name this reading "gru_q_network"
(policies.checkpoints), whose System acts greedily.

Team reward (for the VDN and QMIX targets): the mean over the team's active agents of each
agent's shaped reward (training.common), times config.reward_scale (x10 by default: the
paper's search found reward scaling by 10 helped both Q methods, seed 000 S6.1).
"""

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine.types import Obs, State
from policies import networks as nets
from policies.checkpoints import Q_NETWORK_KIND
from training import common, ghosts, parallel, run_schedule, selfplay
from training.ppo import psum

# ================================ CONFIG ================================


@dataclass(frozen=True)
class QConfig(
    common.GameFields,
    common.RewardFields,
    common.NetworkSizeFields,
    selfplay.GhostFields,
    run_schedule.ScheduleFields,
):
    """Fields every Q learner has; a JSON/TOML file may set any field (`common.load_config`)."""

    # games: common.GameFields (maps, rosters, p_east, score_threshold, horizon, opponents)
    # ghost pool (opponent kind "pool"): selfplay.GhostFields
    # curriculum and validation checks: run_schedule.ScheduleFields
    num_envs: int = 64
    total_steps: int = 2_000_000
    # optimisation
    lr: float = 3e-4
    gamma: float = 0.99
    max_grad_norm: float = 10.0
    # exploration: epsilon decays linearly from eps_start to eps_end over eps_decay_steps
    # env-steps (counted from the run's start, so a resumed run continues the same schedule)
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_decay_steps: int = 500_000
    reward_scale: float = 10.0  # seed 000 S6.1: x10 passed the search for both Q methods
    # reward weights: common.RewardFields (w_outcome ... w_deaths); network widths:
    # common.NetworkSizeFields (embed, torso, hidden)
    layer_norm: bool = True
    # run
    seed: int = 0
    # Host devices the games are split over, each playing num_envs / devices of them, the
    # gradients averaged across devices (training.parallel); `mbg train` asks XLA for them.
    devices: int = 1
    updates_per_log: int = 5
    logs_per_checkpoint: int = 4

    def check(self, name: str, positive: tuple = ()) -> None:
        """Raise ValueError naming `name`.field for a value out of range."""
        fields = ("num_envs", "updates_per_log", "logs_per_checkpoint", "embed", "torso", "hidden",
                  "devices")  # fmt: skip
        for field in fields + positive:
            if getattr(self, field) < 1:
                raise ValueError(f"{name}.{field}: {getattr(self, field)!r} must be >= 1")
        if self.total_steps < 0:
            raise ValueError(f"{name}.total_steps: {self.total_steps!r} must be >= 0")
        if self.num_envs % self.devices:
            raise ValueError(
                f"{name}.devices: {self.devices} must divide num_envs ({self.num_envs})"
            )
        self.ghost  # noqa: B018  (GhostConfig checks its fields)
        self.check_schedule()
        for field in ("eps_start", "eps_end", "gamma"):
            if not 0.0 <= getattr(self, field) <= 1.0:
                raise ValueError(f"{name}.{field}: {getattr(self, field)!r} must be in [0, 1]")
        common.check_training_maps(list(self.maps))

    @property
    def num_teams(self) -> int:
        """Learner teams per batch of num_envs games (two in a self-play game, else one)."""
        groups = common.opponent_groups(self.opponents, self.num_envs)
        return int(common.learner_slots(groups, self.num_envs).sum()) // C.TEAM_SIZE

    @property
    def local_teams(self) -> int:
        """Learner teams of one device's num_envs / devices games (all when devices is 1)."""
        games = self.num_envs // self.devices
        groups = common.opponent_groups(self.opponents, games)
        return int(common.learner_slots(groups, games).sum()) // C.TEAM_SIZE

    def local_config(self, **divided):
        """One device's config (training.parallel): num_envs / devices games, devices 1, and
        each field named in `divided` (its value unused) divided by devices too."""
        parts = {name: getattr(self, name) // self.devices for name in divided}
        return dataclasses.replace(self, num_envs=self.num_envs // self.devices, devices=1, **parts)

    @property
    def network(self) -> nets.NetworkConfig:
        sizes = {"embed": self.embed, "torso": self.torso, "hidden": self.hidden}
        # keywords: the recurrent actor-critic's layers (value head included), read as Q-values
        return nets.NetworkConfig(**sizes, layer_norm=self.layer_norm)

    @property
    def network_kind(self) -> str:
        return Q_NETWORK_KIND


def epsilon(config: QConfig, env_steps) -> jax.Array:
    """Exploration rate after `env_steps` env-steps (of all devices): linear from eps_start
    to eps_end."""
    frac = jnp.clip(env_steps / max(config.eps_decay_steps, 1), 0.0, 1.0)
    return config.eps_start + frac * (config.eps_end - config.eps_start)


# ============================== Q-VALUES ==============================


def _pick(values: jax.Array, index: jax.Array) -> jax.Array:
    # A one-hot sum rather than a gather: its gradient needs no scatter (slow on CPU).
    return jnp.sum(values * jax.nn.one_hot(index, values.shape[-1], dtype=values.dtype), -1)


def chosen_q(heads: nets.Heads, move: jax.Array, pair: jax.Array) -> jax.Array:
    """Q(o, move, pair) = V + A_move[move] + A_pair[pair], float32 of move's shape."""
    return heads.value + _pick(heads.move, move) + _pick(heads.pair, pair)


def max_q(heads: nets.Heads, mask) -> jax.Array:
    """max over legal joint actions of Q: V + max legal A_move + max legal A_pair.
    mask: the agents' Masks (leading axes as heads')."""
    move = jnp.max(jnp.where(mask.move, heads.move, -jnp.inf), -1)
    pair_mask = mask.pair.reshape(heads.pair.shape)
    return heads.value + move + jnp.max(jnp.where(pair_mask, heads.pair, -jnp.inf), -1)


def greedy_actions(heads: nets.Heads, mask) -> tuple[jax.Array, jax.Array]:
    """The legal argmax (move, pair) int32 per agent, whatever the values (mask: Masks)."""
    pair_mask = mask.pair.reshape(heads.pair.shape)
    return nets.greedy_masked(heads.move, mask.move), nets.greedy_masked(heads.pair, pair_mask)


def epsilon_greedy(key, heads: nets.Heads, obs: Obs, eps) -> tuple[jax.Array, jax.Array]:
    """Per agent: with probability eps a uniformly random legal joint action (each head
    uniform over its legal entries: uniform over legal joint actions, since the flat mask is
    move x pair), else the greedy one. Returns (move (N,), pair (N,)) int32, always legal."""
    k_explore, k_move, k_pair = jax.random.split(key, 3)
    n = heads.move.shape[0]
    pair_mask = obs.mask.pair.reshape(n, nets.NUM_PAIR)
    any_move = nets.sample_masked(k_move, jnp.zeros(heads.move.shape), obs.mask.move)
    any_pair = nets.sample_masked(k_pair, jnp.zeros(heads.pair.shape), pair_mask)
    best_move, best_pair = greedy_actions(heads, obs.mask)
    explore = jax.random.uniform(k_explore, (n,)) < eps
    return jnp.where(explore, any_move, best_move), jnp.where(explore, any_pair, best_pair)


def team_sum(x: jax.Array) -> jax.Array:
    """Sum over each team's five agents: (..., n) -> (..., n / 5). Learner slots come in whole
    teams in slot order (common.learner_slots), so a team is five consecutive agents."""
    return x.reshape(x.shape[:-1] + (-1, C.TEAM_SIZE)).sum(-1)


def team_mean(x: jax.Array, active: jax.Array) -> jax.Array:
    """Mean over each team's active agents: (..., n) -> (..., n / 5)."""
    w = active.astype(jnp.float32)
    return team_sum(x * w) / jnp.maximum(team_sum(w), 1.0)


# =============================== ACTING ===============================


class Acting(NamedTuple):
    """The games in flight and the learner's acting state (saved whole for exact resume)."""

    env_state: State  # (num_envs,) games
    obs: Obs  # (num_envs, 10) their current observations
    hidden: jax.Array  # (n learner agents, H) recurrent state
    reset: jax.Array  # (num_envs,) bool: obs is the first of a new game
    opponents: tuple  # per opponent group, its Systems' carries
    ghost: Any = ()  # selfplay.GhostState with ghosts (`with_ghosts`), else ()


def acting_spec(same, split, with_ghosts: bool) -> Acting:
    """Where each Acting field lives on a device mesh (training.parallel): the games, their
    recurrent state and carries with their device; the ghost pool as selfplay.ghost_spec."""
    ghost = selfplay.ghost_spec(same, split) if with_ghosts else same
    return Acting(split, split, split, split, split, ghost)


class Tick(NamedTuple):
    """One tick of the learner's n agents (leading axis n) and its teams (n / 5)."""

    obs: Obs  # what each agent saw
    reset: jax.Array  # bool: the tick starts a new game (recurrent state zeroed first)
    move: jax.Array  # int32 move head
    pair: jax.Array  # int32 joint (target, ult) head
    active: jax.Array  # bool: the slot is in the game (empty roster slots do not learn)
    reward: jax.Array  # (teams,) scaled team reward
    done: jax.Array  # (teams,) bool: the game ended on this tick
    world: Any  # (teams, W) world state in the team's frame before the tick, or () if unused


class Actor(NamedTuple):
    """The rollout pieces of a learner: init(key, params=None, pool=None) -> Acting (with the
    ghost pool of `params` when given); games(own_key, pool=None) -> Acting: fresh games, no
    ghost pool, from a key already this device's own (parallel.device_key); tick(params,
    acting, eps, key, live=None, pool=None) -> (acting, (Tick, stats)), stats, Elo and ghost
    steps counting only the games where `live` (num_envs,) bool is true (all when None);
    learners(tree) (num_envs, 10, ...) -> (n, ...); layout: ghosts.GhostLayout. `pool`: the
    engine Pool new games are drawn from (the curriculum stage's; the env's own when None)."""

    env: Any
    network: nets.ActorCritic
    groups: tuple
    n: int
    init: Any
    games: Any
    tick: Any
    learners: Any
    layout: ghosts.GhostLayout


def greedy_ghost(key, heads: nets.Heads, obs: Obs) -> tuple[jax.Array, jax.Array]:
    """A ghost's action (ghosts.ghost_actions' `choose`): the greedy legal joint action, as
    the exported Q policy plays (`key` unused)."""
    del key
    return greedy_actions(heads, obs.mask)


def _game_results(groups, done, outcome):
    """(groups, 3) counts of finished games by the learner's (Team A's) win, draw, loss."""
    res = jnp.stack([outcome == C.A_WINS, outcome == C.DRAW, outcome == C.B_WINS], -1)
    res = (res & done[:, None]).astype(jnp.float32)
    return jnp.stack([res[g.lo : g.hi].sum(0) for g in groups])


def make_actor(config: QConfig, env, with_world: bool = False, axis_name=None) -> Actor:
    """The lock-step rollout of config.num_envs games (engine auto-reset), the learner's agents
    acting epsilon-greedily, Team B of each game played by its opponent group (training.common;
    "pool" games by greedy ghosts, training.ghosts, with Elo for every entrant, when init is
    given the parameters). with_world: also record each learner team's world state
    (engine.Env.world_state, A9). axis_name: the device axis the pool is replicated over."""
    network = nets.ActorCritic(config.network)
    groups = common.opponent_groups(config.opponents, config.num_envs)
    systems = common.opponent_systems(groups)
    learn_idx = np.flatnonzero(common.learner_slots(groups, config.num_envs))
    team_idx = learn_idx[:: C.TEAM_SIZE]  # first slot of each learner team (team frame row)
    weights = jnp.asarray(config.weights)
    b, n = config.num_envs, len(learn_idx)
    layout, ghost_config = ghosts.ghost_layout(groups, b), config.ghost

    def learners(tree):
        return jax.tree.map(lambda x: x.reshape((b * C.NUM_SLOTS,) + x.shape[2:])[learn_idx], tree)

    def games(own_key, pool=None) -> Acting:
        obs, state = jax.vmap(lambda k: env.reset(k, pool))(jax.random.split(own_key, b))
        hidden = nets.initial_hidden(config.network, n)
        carries = common.initial_carries(groups, systems)
        return Acting(state, obs, hidden, jnp.ones(b, bool), carries, ())

    def init(key, params=None, pool=None) -> Acting:
        acting = games(parallel.device_key(key, axis_name), pool)
        if params is None:
            return acting
        k_ghost = jax.random.fold_in(key, 1)  # the sampler's key: the same on every device
        ghost = ghosts.init_state(ghost_config, config.network, params, layout, k_ghost, axis_name)
        return acting._replace(ghost=ghost)

    def tick(params, acting: Acting, eps, key, live=None, pool=None):
        k_act, k_opp, k_env = jax.random.split(key, 3)
        obs, reset = learners(acting.obs), acting.reset[learn_idx // C.NUM_SLOTS]
        hidden, heads = network.apply(params, acting.hidden, obs, reset)
        move, pair = epsilon_greedy(k_act, heads, obs, eps)
        mine = nets.to_actions(move, pair)
        joint = jax.tree.map(
            lambda x: jnp.zeros(b * C.NUM_SLOTS, jnp.int32).at[learn_idx].set(x).reshape(b, -1),
            mine,
        )
        joint, carries = common.opponent_actions(
            groups, systems, acting.obs, joint, acting.opponents, acting.reset, k_opp
        )
        ghost = acting.ghost
        with_ghosts = isinstance(ghost, selfplay.GhostState)
        if with_ghosts:
            ghost_key, k_ghost = jax.random.split(ghost.key)
            joint, ghost = ghosts.ghost_actions(
                network, layout, ghost._replace(key=ghost_key), params, acting.obs,
                acting.reset, joint, k_ghost, axis_name, choose=greedy_ghost,
            )  # fmt: skip
        world = ()
        if with_world:
            world = jax.vmap(env.world_state)(acting.env_state)
            world = world.reshape((b * C.NUM_SLOTS, -1))[team_idx]
        keys = jax.random.split(k_env, b)
        step = functools.partial(env.step, pool=pool)
        obs2, state, reward, done, info = jax.vmap(step)(keys, acting.env_state, joint)
        live = jnp.ones(b, bool) if live is None else live
        if with_ghosts:
            ghost = ghosts.after_tick(ghost_config, layout, ghost, acting.env_state, done,
                                      info["outcome"], axis_name, live)  # fmt: skip
        terms = learners(jnp.moveaxis(jax.vmap(common.reward_terms)(info["events"], reward), 1, 2))
        active = learners(acting.env_state.active)
        counted = active & learners(jnp.broadcast_to(live[:, None], (b, C.NUM_SLOTS)))
        shaped = terms @ weights
        team_reward = team_mean(shaped, active) * config.reward_scale
        step = Tick(obs, reset, move, pair, active, team_reward, done[team_idx // C.NUM_SLOTS],
                    world)  # fmt: skip
        stats = {
            "terms": jnp.einsum("k,nk,n->k", weights, terms, counted),
            "agent_steps": counted.sum().astype(jnp.float32),
            "results": _game_results(groups, done & live, info["outcome"]),
        }
        return Acting(state, obs2, hidden, done, carries, ghost), (step, stats)

    return Actor(env, network, groups, n, init, games, tick, learners, layout)


def update_metrics(stats: dict, losses: dict, axis_name=None) -> dict:
    """The per-update metrics training.runs.chunk_scalars reads, from stacked tick stats
    (counts summed over the devices of `axis_name` when given; `losses` as they come)."""
    return {
        "loss": losses,
        "terms": psum(stats["terms"].sum(0), axis_name),
        "agent_steps": psum(stats["agent_steps"].sum(), axis_name),
        "results": psum(stats["results"].sum(0), axis_name),
    }
