"""PQN-VDN on Team Deathmatch: parallel Q-learning without a replay buffer or target network,
VDN team sums, LayerNorm, lambda-returns.

After Gallici et al. 2024, "Simplifying Deep Temporal Difference Learning" (PQN: many parallel
games instead of a replay buffer, LayerNorm in place of a target network, Q(lambda) targets from
the fresh rollout, several epochs of minibatches over it) with the value decomposition of
Sunehag et al. 2018 (VDN: a team's Q is the sum of its agents' Q-values).

Read top to bottom: CONFIG, LAMBDA-RETURNS AND LOSS (module level, tested by hand), MAKE_TRAIN
(rollout of `rollout` ticks of `num_envs` lock-step games drawn from the curriculum stage's
pool, then targets, then epochs x minibatches over learner teams; all pure), RUN (`mbg train
pqn-vdn`, through training.run_schedule as IPPO: ghost pool, curriculum, validation checks).

Agent Q-values, epsilon-greedy acting, the team reward and the games are training.qlearning's.
Q_tot(team, t) = sum over the team's active agents of Q_i(o_i, a_i); its target is the
lambda-return of the team reward bootstrapped on max_a Q_tot = sum of the agents' legal maxima
(exact under VDN: the sum's maximum is the sum of maxima), computed with the parameters before
the epochs and held fixed through them.
"""

import functools
from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import optax

from engine import constants as C
from policies import networks as nets
from training import curriculum_runner, ippo, parallel, qlearning, run_schedule, selfplay
from training.selfplay import device_count

# ================================ CONFIG ================================


@dataclass(frozen=True)
class PQNConfig(qlearning.QConfig):
    """qlearning.QConfig plus PQN's batch and update shape."""

    rollout: int = 32  # env-steps per update = num_envs * rollout
    lam: float = 0.65  # Q(lambda) mixing (JaxMARL's PQN-VDN default)
    epochs: int = 2
    minibatches: int = 4  # over the learner teams of a rollout

    def __post_init__(self):
        self.check("PQNConfig", ("rollout", "epochs", "minibatches"))
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"PQNConfig.lam: {self.lam!r} must be in [0, 1]")
        teams = self.local_teams
        if teams % self.minibatches:
            where = f" of each of the {self.devices} devices" if self.devices > 1 else ""
            raise ValueError(
                f"PQNConfig.minibatches: {self.minibatches} must divide the {teams} learner "
                f"teams of a rollout{where}"
            )

    @property
    def steps_per_update(self) -> int:
        return self.num_envs * self.rollout


# ======================== LAMBDA-RETURNS AND LOSS ========================


def lambda_returns(rewards, dones, next_max_q, gamma: float, lam: float):
    """Q(lambda) targets (Watkins / Peng's form as in PQN), backwards over time.

    rewards, dones: (T, ...) with dones[t] true when the game ended on tick t (no bootstrap
    across it); next_max_q (T, ...): max_a Q of the observation after tick t. With
    G_{T-1} = r + gamma (1 - d) maxQ_T and
    G_t = r_t + gamma (1 - d_t) [(1 - lam) maxQ_{t+1} + lam G_{t+1}]. Returns (T, ...) float32.
    """

    def back(g_next, x):
        reward, done, q_next = x
        alive = 1.0 - done.astype(jnp.float32)
        g = reward + gamma * alive * ((1.0 - lam) * q_next + lam * g_next)
        return g, g

    last = rewards[-1] + gamma * (1.0 - dones[-1].astype(jnp.float32)) * next_max_q[-1]
    _, body = jax.lax.scan(back, last, (rewards[:-1], dones[:-1], next_max_q[:-1]), reverse=True)
    return jnp.concatenate([body, last[None]], axis=0)


class Batch(NamedTuple):
    """Learner agent sequences (T, n) and their teams' targets (T, n / 5)."""

    obs: Any
    reset: jax.Array
    move: jax.Array
    pair: jax.Array
    active: jax.Array
    target: jax.Array


def team_q(network, params, hidden0, batch: Batch) -> jax.Array:
    """Q_tot (T, teams) of the actions taken: the VDN sum of the active agents' Q-values."""
    _, heads = network.apply(params, hidden0, batch.obs, batch.reset)
    q = qlearning.chosen_q(heads, batch.move, batch.pair)
    return qlearning.team_sum(q * batch.active)


def loss_fn(params, network, hidden0, batch: Batch):
    """0.5 * mean squared TD error of Q_tot against the fixed lambda-returns; (loss, terms)."""
    q = team_q(network, params, hidden0, batch)
    err = q - jax.lax.stop_gradient(batch.target)
    loss = 0.5 * jnp.mean(jnp.square(err))
    return loss, {"td": loss, "q_tot": jnp.mean(q)}


# ============================== MAKE_TRAIN ==============================


class RunnerState(NamedTuple):
    params: Any
    opt_state: Any
    acting: qlearning.Acting  # the games in flight and the ghost pool (acting.ghost)
    rng: jax.Array
    update: jax.Array  # () int32 updates done
    pool: Any = ()  # engine Pool new games are drawn from (the curriculum stage's)
    curriculum: Any = ()  # curriculum_runner.CurriculumState

    @property
    def ghost(self):
        """The ghost pool and Elo (selfplay.GhostState), as training.run_schedule reads it."""
        return self.acting.ghost


class Trainer(NamedTuple):
    config: PQNConfig
    actor: qlearning.Actor
    groups: tuple
    init: Any
    update: Any
    collect: Any  # collect(runner) -> (runner, Batch, hidden0, stats)
    learn: Any  # learn(runner, batch, hidden0) -> (runner, losses)


def make_optimizer(config: qlearning.QConfig):
    return optax.chain(optax.clip_by_global_norm(config.max_grad_norm), optax.radam(config.lr))


def _swap(tree):
    return jax.tree.map(lambda x: jnp.swapaxes(x, 0, 1), tree)


def runner_spec(same, split) -> RunnerState:
    """Where each RunnerState field lives on a device mesh (training.parallel): the games in
    flight and their recurrent state with their device, the rest the same on all."""
    acting = qlearning.acting_spec(same, split, with_ghosts=True)
    return RunnerState(params=same, opt_state=same, acting=acting, rng=same, update=same,
                       pool=same, curriculum=same)  # fmt: skip


def make_train(config: PQNConfig, axis_name: str | None = None) -> Trainer:
    """Build the pure, jittable functions of a run (see Trainer). With config.devices > 1
    they run on that many host devices (training.parallel); with `axis_name` (used there)
    they are one device's part: its own games, rollout and minibatches of its own teams, each
    gradient the mean of every device's (the one-device gradient of all the teams' minibatch,
    as each device holds the same number of teams)."""
    if config.devices > 1 and axis_name is None:
        return parallel.make_parallel_train(config, make_train, runner_spec, config.local_config())
    actor = qlearning.make_actor(config, ippo.make_env(config), axis_name=axis_name)
    network, tx, n = actor.network, make_optimizer(config), actor.n
    teams = n // C.TEAM_SIZE
    first_pool = config.schedule.pool(curriculum_runner.initial_state())

    def init(rng) -> RunnerState:
        rng, k_env, k_net = jax.random.split(rng, 3)
        obs = actor.learners(actor.init(k_env, pool=first_pool).obs)
        params = nets.init_params(config.network, k_net, obs)
        # with the ghost pool of the first parameters
        acting = actor.init(k_env, params, first_pool)
        return RunnerState(params, tx.init(params), acting, rng, jnp.int32(0), first_pool,
                           curriculum_runner.initial_state())  # fmt: skip

    def collect(runner: RunnerState):
        env_steps = runner.update * config.steps_per_update * device_count(axis_name)
        eps = qlearning.epsilon(config, env_steps)

        def step(carry, key):
            return actor.tick(runner.params, carry, eps, key, pool=runner.pool)

        rng, k_roll = jax.random.split(runner.rng)
        hidden0 = runner.acting.hidden
        keys = jax.random.split(parallel.device_key(k_roll, axis_name), config.rollout)
        acting, (traj, stats) = jax.lax.scan(step, runner.acting, keys)
        # max_a Q_tot after each tick: the network replayed over the rollout plus the next obs
        last_obs = actor.learners(acting.obs)
        obs = jax.tree.map(lambda a, b: jnp.concatenate([a, b[None]]), traj.obs, last_obs)
        next_reset = per_learner(acting.reset)
        reset = jnp.concatenate([traj.reset, next_reset[None]])
        active = jnp.concatenate([traj.active, actor.learners(acting.env_state.active)[None]])
        _, heads = network.apply(runner.params, hidden0, obs, reset)
        q_next = qlearning.team_sum(qlearning.max_q(heads, obs.mask) * active)[1:]
        target = lambda_returns(traj.reward, traj.done, q_next, config.gamma, config.lam)
        batch = Batch(traj.obs, traj.reset, traj.move, traj.pair, traj.active, target)
        runner = runner._replace(acting=acting, rng=rng)
        return runner, batch, hidden0, dict(stats, eps=eps)

    def per_learner(game_values):
        return actor.learners(
            jnp.broadcast_to(game_values[:, None], (config.num_envs, C.NUM_SLOTS))
        )

    grad_fn = jax.value_and_grad(functools.partial(loss_fn, network=network), has_aux=True)

    def minibatch_step(carry, part):
        params, opt_state = carry
        hidden0, batch = part
        (loss, aux), grads = grad_fn(params, hidden0=hidden0, batch=_swap(batch))
        grads, aux = parallel.pmean((grads, aux), axis_name)
        updates, opt_state = tx.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), aux

    def epoch(carry, key, hidden0, batch):
        """Shuffle learner teams (agent-major batch (n, T)), cut minibatches, one step each."""
        perm = jax.random.permutation(key, teams)
        m = config.minibatches

        def split(x):  # (n, ...) -> (m, n / m, ...) keeping each team's five agents together
            x = x.reshape((teams, -1) + x.shape[1:])
            return jnp.take(x, perm, axis=0).reshape((m, -1) + x.shape[2:])

        def split_target(x):  # (teams, T) -> (m, teams / m, T)
            return jnp.take(x, perm, axis=0).reshape((m, -1) + x.shape[1:])

        agents = jax.tree.map(split, (hidden0, batch._replace(target=jnp.zeros((n, 1)))))
        parts = (agents[0], agents[1]._replace(target=split_target(batch.target)))
        return jax.lax.scan(minibatch_step, carry, parts)

    def learn(runner: RunnerState, batch: Batch, hidden0):
        rng, k_epochs = jax.random.split(runner.rng)
        agent_major = _swap(batch._replace(target=jnp.zeros((config.rollout, 1, 1))))
        agent_major = agent_major._replace(target=batch.target.T)  # (teams, T)
        run_epoch = functools.partial(epoch, hidden0=hidden0, batch=agent_major)
        carry = (runner.params, runner.opt_state)
        keys = jax.random.split(k_epochs, config.epochs)
        (params, opt_state), losses = jax.lax.scan(run_epoch, carry, keys)
        runner = runner._replace(params=params, opt_state=opt_state, rng=rng,
                                 update=runner.update + 1)  # fmt: skip
        return runner, jax.tree.map(jnp.mean, losses)

    def update(runner: RunnerState):
        runner, batch, hidden0, stats = collect(runner)
        runner, losses = learn(runner, batch, hidden0)
        losses = dict(losses, epsilon=stats.pop("eps"))
        metrics = qlearning.update_metrics(stats, losses, axis_name)
        trainer_steps = metrics["agent_steps"].astype(jnp.int32)
        ghost = selfplay.after_update(runner.acting.ghost, runner.params, trainer_steps,
                                      config.ghost)  # fmt: skip
        return runner._replace(acting=runner.acting._replace(ghost=ghost)), metrics

    return Trainer(config, actor, actor.groups, init, update, collect, learn)


# ================================ RUN ================================


def run(config: PQNConfig | None, out, resume=False, steps=None, show=True):
    """Train (or resume, exactly) a run in directory `out` (training.run_schedule: the ghost
    pool's Elo in the logs, the curriculum's stages, validation checks); returns (final
    RunnerState, path of the exported policy checkpoint)."""
    return run_schedule.run_scheduled(make_train, PQNConfig, "pqn-vdn", config, out, resume,
                                      steps, show)  # fmt: skip
