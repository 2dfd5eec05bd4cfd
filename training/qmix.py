"""QMIX on Team Deathmatch: recurrent agent Q-networks, a monotonic mixing network conditioned on
the world state, a replay buffer of whole games, a target network, epsilon-greedy acting.

After Rashid et al. 2018, "QMIX: Monotonic Value Function Factorisation for Deep Multi-Agent
Reinforcement Learning": Q_tot = f(Q_1..Q_5; s) with f's weights made non-negative (absolute
values of hypernetwork outputs), so dQ_tot / dQ_i >= 0 and each agent's greedy legal action is
also the team's. Agent Q-values, epsilon-greedy acting, the team reward and the games are
training.qlearning's; the mixer sees env.world_state (RULES_BRIEF A9), training only.

Read top to bottom: CONFIG, MIXER, REPLAY BUFFER, TD LOSS (module level, tested by hand),
MAKE_TRAIN (each update plays num_envs fresh games of the curriculum stage's pool to the end,
`horizon` ticks, stores each learner team's game in the buffer, then takes `gradient_steps`
steps on batches of stored games and refreshes the target network every `target_every`
updates), RUN (`mbg train qmix`, through training.run_schedule as IPPO).

Ghost pool (opponent kind "pool", training.ghosts): the pool games' Team B is played by
greedy ghosts, snapshots of the agent Q-network (training.selfplay's window and Elo). The
pool lives in the runner state, not in the games: each update's fresh games start from it
(every ghost's recurrent state restarts with its game), and only each game's own ticks are
rated and counted as ghost steps (its auto-reset successor is not). The ghosts and the
curriculum need no second copy of the schedule: training.run_schedule drives both.

Why a small array buffer and not flashbax: flashbax 0.1.3 would install and pull in chex, but
nothing in it is tested against this project's jax 0.10; a ring of whole games is a few array
writes that live in the runner state, so Orbax saves it and a resumed run is exact.
Whole games: every update starts its games at tick 0, so every stored sequence starts from a
zero GRU state (no stale recurrent state) and ends at the game's end; ticks after a game's end
(its auto-reset successor) are marked invalid and never learnt from.
"""

import functools
from dataclasses import dataclass
from typing import Any, NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax

from engine import constants as C
from policies import networks as nets
from training import curriculum_runner, ippo, parallel, pqn_vdn, qlearning, run_schedule, selfplay
from training.selfplay import device_count

# ================================ CONFIG ================================


@dataclass(frozen=True)
class QMIXConfig(qlearning.QConfig):
    """qlearning.QConfig plus the buffer, the target network and the mixer."""

    num_envs: int = 8  # games per update, each played to its end (`horizon` ticks simulated)
    layer_norm: bool = False  # the target network stabilises QMIX (Rashid et al. use none)
    buffer_games: int = 64  # learner team-games kept (the oldest are overwritten)
    batch_games: int = 8  # team-games per gradient step
    gradient_steps: int = 2  # per update
    target_every: int = 10  # updates between hard target-network refreshes
    mixer_embed: int = 32
    hyper_hidden: int = 64

    def __post_init__(self):
        fields = ("buffer_games", "batch_games", "gradient_steps", "target_every")
        self.check("QMIXConfig", fields + ("mixer_embed", "hyper_hidden"))
        for field in ("buffer_games", "batch_games"):  # each device holds its share
            if getattr(self, field) % self.devices:
                raise ValueError(
                    f"QMIXConfig.{field}: {getattr(self, field)} must be a multiple of "
                    f"devices ({self.devices})"
                )
        if self.num_teams > self.buffer_games:
            raise ValueError(
                f"QMIXConfig.buffer_games: {self.buffer_games} is fewer than the "
                f"{self.num_teams} learner team-games of one update"
            )

    @property
    def steps_per_update(self) -> int:
        return self.num_envs * self.horizon


# ================================ MIXER ================================

# World-state scales: every unit row as the actor's (policies.networks), then the context.
WORLD_SCALE = np.concatenate([np.tile(nets.ROW_SCALE, C.NUM_SLOTS), nets.CONTEXT_SCALE])


class MonotonicMixer(nn.Module):
    """Q_tot (...,) from agent Q-values q (..., 5) and the world state (..., W) float32.

    Hypernetworks map the state to the weights of a two-layer mixing network; the weights on
    q pass through abs, and the hidden layer's ELU is increasing, so Q_tot is monotonic
    non-decreasing in every q_i (Rashid et al. 2018, eq. 5)."""

    embed: int = 32
    hyper_hidden: int = 64

    @nn.compact
    def __call__(self, q: jax.Array, state: jax.Array) -> jax.Array:
        s = state / WORLD_SCALE
        agents = q.shape[-1]

        def hyper(features, name):
            return nn.Dense(features, name=f"{name}_out")(
                nn.relu(nn.Dense(self.hyper_hidden, name=f"{name}_in")(s))
            )

        w1 = jnp.abs(hyper(agents * self.embed, "w1")).reshape(q.shape + (self.embed,))
        b1 = nn.Dense(self.embed, name="b1")(s)
        hidden = nn.elu(jnp.einsum("...a,...ae->...e", q, w1) + b1)
        w2 = jnp.abs(hyper(self.embed, "w2"))
        b2 = hyper(1, "b2")[..., 0]
        return jnp.einsum("...e,...e->...", hidden, w2) + b2


# ============================ REPLAY BUFFER ============================


class Games(NamedTuple):
    """Whole team-games: leading axes (G games, T ticks), agents (5) after them."""

    obs: Any  # Obs (G, T, 5, ...)
    reset: jax.Array  # (G, T, 5) bool
    move: jax.Array  # (G, T, 5) int32
    pair: jax.Array  # (G, T, 5) int32
    active: jax.Array  # (G, T, 5) bool
    reward: jax.Array  # (G, T) scaled team reward
    done: jax.Array  # (G, T) bool
    valid: jax.Array  # (G, T) bool: the tick belongs to the stored game
    world: jax.Array  # (G, T, W) world state in the team's frame


class Buffer(NamedTuple):
    games: Games  # capacity G
    count: jax.Array  # () int32 games ever added
    # the next write position is count % G


def buffer_add(buffer: Buffer, new: Games) -> Buffer:
    """Write k new games (leading axis k <= G) over the oldest."""
    capacity = buffer.games.done.shape[0]
    k = new.done.shape[0]
    pos = (buffer.count + jnp.arange(k)) % capacity
    games = jax.tree.map(lambda old, x: old.at[pos].set(x), buffer.games, new)
    return Buffer(games, buffer.count + k)


def buffer_sample(buffer: Buffer, key, size: int) -> Games:
    """`size` games drawn uniformly (with replacement) from those stored."""
    capacity = buffer.games.done.shape[0]
    idx = jax.random.randint(key, (size,), 0, jnp.clip(buffer.count, 1, capacity))
    return jax.tree.map(lambda x: x[idx], buffer.games)


def played_ticks(done: jax.Array) -> jax.Array:
    """(T, ...) bool: ticks up to and including each sequence's first done (its own game)."""
    ended_before = jnp.cumsum(done.astype(jnp.int32), axis=0) - done.astype(jnp.int32)
    return ended_before == 0


# =============================== TD LOSS ===============================


def td_targets(reward, done, next_q_tot, gamma: float):
    """One-step targets r_t + gamma (1 - d_t) Q_tot_target(s_{t+1}); all (T, ...) float32,
    next_q_tot[t] being the target network's value after tick t."""
    return reward + gamma * (1.0 - done.astype(jnp.float32)) * next_q_tot


def _time_major(games: Games):
    """(B, T, 5, ...) agent leaves -> (T, B * 5, ...); team leaves -> (T, B, ...)."""

    def agents(x):
        x = jnp.swapaxes(x, 0, 1)
        return x.reshape(x.shape[:1] + (-1,) + x.shape[3:])

    obs, reset, move, pair, active = jax.tree.map(
        agents, (games.obs, games.reset, games.move, games.pair, games.active)
    )
    team = jax.tree.map(lambda x: jnp.swapaxes(x, 0, 1), (games.reward, games.done, games.valid,
                                                         games.world))  # fmt: skip
    return (obs, reset, move, pair, active), team


def _share_of_mean(x, mask, axis_name=None):
    """This device's part of the masked mean of x over every device of `axis_name` (its
    masked sum over all devices' mask count), so the parts sum to the mean; the masked mean
    itself when None."""
    if axis_name is None:
        return ippo.masked_mean(x, mask)
    m = mask.astype(jnp.float32)
    return jnp.sum(x * m) / jnp.maximum(jax.lax.psum(jnp.sum(m), axis_name), 1.0)


def td_loss(params, target_params, network, mixer, gamma: float, games: Games, axis_name=None):
    """Masked mean squared TD error of Q_tot over the valid ticks of `games` (B, T).

    params, target_params: {"agent": network params, "mixer": mixer params}. The target uses
    the target network's legal maxima mixed by the target mixer (Rashid et al. 2018).
    With `axis_name`, `games` is one device's part of the batch and the loss its share of the
    mean over every device's valid ticks (the shares, and their gradients, sum to the whole
    batch's). Returns (loss, dict of td, q_tot)."""
    (obs, reset, move, pair, active), (reward, done, valid, world) = _time_major(games)
    t, n = reset.shape
    h0 = nets.initial_hidden(network.config, n)

    def agent_q(p, pick):
        _, heads = network.apply(p["agent"], h0, obs, reset)
        return (pick(heads) * active).reshape(t, -1, C.TEAM_SIZE)

    q = agent_q(params, lambda h: qlearning.chosen_q(h, move, pair))
    q_tot = mixer.apply(params["mixer"], q, world)
    q_next = agent_q(target_params, lambda h: qlearning.max_q(h, obs.mask))
    next_tot = mixer.apply(target_params["mixer"], q_next, world)
    next_tot = jnp.concatenate([next_tot[1:], jnp.zeros_like(next_tot[:1])])
    target = jax.lax.stop_gradient(td_targets(reward, done, next_tot, gamma))
    loss = 0.5 * _share_of_mean(jnp.square(q_tot - target), valid, axis_name)
    return loss, {"td": loss, "q_tot": _share_of_mean(q_tot, valid, axis_name)}


# ============================== MAKE_TRAIN ==============================


class RunnerState(NamedTuple):
    params: Any  # agent network parameters (the exported policy)
    mixer: Any  # mixer parameters
    target: Any  # {"agent", "mixer"} target-network parameters
    opt_state: Any
    buffer: Buffer
    rng: jax.Array
    update: jax.Array  # () int32 updates done
    # The ghost pool and Elo (selfplay.GhostState): snapshots of the agent Q-network, each
    # pool game's opponent (kept from one update's games to the next), the ratings.
    ghost: Any = ()
    pool: Any = ()  # engine Pool new games are drawn from (the curriculum stage's)
    curriculum: Any = ()  # curriculum_runner.CurriculumState


class Trainer(NamedTuple):
    config: QMIXConfig
    actor: qlearning.Actor
    mixer: MonotonicMixer
    groups: tuple
    init: Any
    update: Any
    collect: Any  # collect(runner) -> (runner, Games of this update, stats)
    learn: Any  # learn(runner) -> (runner, losses)


def runner_spec(same, split) -> RunnerState:
    """Where each RunnerState field lives on a device mesh (training.parallel): each device's
    share of the buffer (its own games) with it, the rest the same on all."""
    buffer = Buffer(games=split, count=same)  # every device adds as many games an update
    return RunnerState(params=same, mixer=same, target=same, opt_state=same, buffer=buffer,
                       rng=same, update=same, ghost=selfplay.ghost_spec(same, split), pool=same,
                       curriculum=same)  # fmt: skip


def make_train(config: QMIXConfig, axis_name: str | None = None) -> Trainer:
    """Build the pure, jittable functions of a run (see Trainer). With config.devices > 1
    they run on that many host devices (training.parallel); with `axis_name` (used there)
    they are one device's part: its own games, its buffer_games / devices share of the
    buffer and batch_games / devices of each batch drawn from it, each gradient summed over
    the devices as the one-device gradient of the whole batch (`td_loss`)."""
    if config.devices > 1 and axis_name is None:
        local = config.local_config(buffer_games=True, batch_games=True)
        return parallel.make_parallel_train(config, make_train, runner_spec, local)
    actor = qlearning.make_actor(config, ippo.make_env(config), True, axis_name)
    network = actor.network
    mixer = MonotonicMixer(config.mixer_embed, config.hyper_hidden)
    tx = pqn_vdn.make_optimizer(config)
    teams = actor.n // C.TEAM_SIZE
    ghost_config = config.ghost
    first_pool = config.schedule.pool(curriculum_runner.initial_state())

    def play(params, key, eps, ghost=(), pool=None):
        """num_envs fresh games of `pool` for `horizon` ticks, "pool" games against the
        ghosts of `ghost`: (Games of the learner teams, stats, ghost after the games). key:
        this device's own."""
        k_reset, k_ticks = jax.random.split(key)

        def step(carry, k):
            acting, live = carry
            acting, (tick, stats) = actor.tick(params, acting, eps, k, live, pool)
            return (acting, live & ~acting.reset), (tick, stats)

        keys = jax.random.split(k_ticks, config.horizon)
        start = (actor.games(k_reset, pool)._replace(ghost=ghost), jnp.ones(config.num_envs, bool))
        (acting, _), (traj, stats) = jax.lax.scan(step, start, keys)
        # Only each game's own ticks count: the ticks after its end belong to another game.
        valid = played_ticks(traj.done)  # (T, teams)
        agents_valid = jnp.repeat(valid, C.TEAM_SIZE, axis=1)

        def team_major(x):  # (T, n, ...) -> (teams, T, 5, ...)
            x = x.reshape(x.shape[:1] + (teams, C.TEAM_SIZE) + x.shape[2:])
            return jnp.swapaxes(x, 0, 1)

        obs, reset, move, pair = jax.tree.map(team_major, (traj.obs, traj.reset, traj.move,
                                                           traj.pair))  # fmt: skip
        active = team_major(traj.active & agents_valid)
        games = Games(obs, reset, move, pair, active, *jax.tree.map(
            lambda x: jnp.swapaxes(x, 0, 1), (traj.reward * valid, traj.done & valid, valid,
                                              traj.world)))  # fmt: skip
        return games, stats, acting.ghost

    def init(rng) -> RunnerState:
        rng, k_env, k_net, k_mix = jax.random.split(rng, 4)
        acting = actor.init(k_env, pool=first_pool)
        obs = actor.learners(acting.obs)
        params = nets.init_params(config.network, k_net, obs)
        ghost = actor.init(k_env, params, first_pool).ghost  # the first parameters' pool
        dummy, *_ = jax.eval_shape(play, params, k_env, 0.0, ghost, first_pool)
        q0 = jnp.zeros((1, C.TEAM_SIZE))
        mixer_params = mixer.init(k_mix, q0, jnp.zeros((1, dummy.world.shape[-1])))
        empty = jax.tree.map(lambda x: jnp.zeros((config.buffer_games,) + x.shape[1:], x.dtype),
                             dummy)  # fmt: skip
        both = {"agent": params, "mixer": mixer_params}
        return RunnerState(params, mixer_params, both, tx.init((params, mixer_params)),
                           Buffer(empty, jnp.int32(0)), rng, jnp.int32(0), ghost, first_pool,
                           curriculum_runner.initial_state())  # fmt: skip

    def collect(runner: RunnerState):
        env_steps = runner.update * config.steps_per_update * device_count(axis_name)
        eps = qlearning.epsilon(config, env_steps)
        rng, key = jax.random.split(runner.rng)
        own = parallel.device_key(key, axis_name)
        games, stats, ghost = play(runner.params, own, eps, runner.ghost, runner.pool)
        runner = runner._replace(buffer=buffer_add(runner.buffer, games), rng=rng, ghost=ghost)
        return runner, games, dict(stats, eps=eps)

    loss = functools.partial(
        td_loss, network=network, mixer=mixer, gamma=config.gamma, axis_name=axis_name
    )
    grad_fn = jax.value_and_grad(loss, has_aux=True)

    def gradient_step(carry, key):
        params, mixer_params, opt_state, target, buffer = carry
        batch = buffer_sample(buffer, parallel.device_key(key, axis_name), config.batch_games)
        both = {"agent": params, "mixer": mixer_params}
        (_, aux), grads = grad_fn(both, target_params=target, games=batch)
        grads, aux = ippo.psum((grads, aux), axis_name)
        grads = (grads["agent"], grads["mixer"])
        updates, opt_state = tx.update(grads, opt_state, (params, mixer_params))
        params, mixer_params = optax.apply_updates((params, mixer_params), updates)
        return (params, mixer_params, opt_state, target, buffer), aux

    def learn(runner: RunnerState):
        rng, key = jax.random.split(runner.rng)
        keys = jax.random.split(key, config.gradient_steps)
        carry = (runner.params, runner.mixer, runner.opt_state, runner.target, runner.buffer)
        (params, mixer_params, opt_state, *_), losses = jax.lax.scan(gradient_step, carry, keys)
        update = runner.update + 1
        fresh = {"agent": params, "mixer": mixer_params}
        refresh = update % config.target_every == 0
        target = jax.tree.map(lambda a, b: jnp.where(refresh, a, b), fresh, runner.target)
        runner = runner._replace(params=params, mixer=mixer_params, target=target,
                                 opt_state=opt_state, rng=rng, update=update)  # fmt: skip
        return runner, jax.tree.map(jnp.mean, losses)

    def update(runner: RunnerState):
        runner, _, stats = collect(runner)
        runner, losses = learn(runner)
        losses = dict(losses, epsilon=stats.pop("eps"))
        metrics = qlearning.update_metrics(stats, losses, axis_name)
        trainer_steps = metrics["agent_steps"].astype(jnp.int32)
        ghost = selfplay.after_update(runner.ghost, runner.params, trainer_steps, ghost_config)
        return runner._replace(ghost=ghost), metrics

    return Trainer(config, actor, mixer, actor.groups, init, update, collect, learn)


# ================================ RUN ================================


def run(config: QMIXConfig | None, out, resume=False, steps=None, show=True):
    """Train (or resume, exactly) a run in directory `out` (training.run_schedule: the ghost
    pool's Elo in the logs, the curriculum's stages, validation checks); returns (final
    RunnerState, path of the exported policy checkpoint)."""
    return run_schedule.run_scheduled(make_train, QMIXConfig, "qmix", config, out, resume,
                                      steps, show)  # fmt: skip
