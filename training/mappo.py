"""MAPPO on Team Deathmatch: decentralised actors, a centralised critic on the world state.

The paper's MAPPO baselines (seed 000, sections 6 and 7.3; Yu et al. 2022, "The Surprising
Effectiveness of PPO in Cooperative Multi-Agent Games"): every agent acts from its own
observation through one shared actor (policies.networks.ActorCritic without its value head,
feed-forward for `mbg train mappo`, GRU for `mbg train mappo-rnn`), while the value of each
agent comes from a critic that reads `env.world_state` (RULES_BRIEF A9: every unit unredacted
in that agent's frame, plus the game context) and the agent's own slot and class. The critic is
training-only: it is never an actor's input, and the exported policy file holds the actor alone
(network kind "ff_actor" or "gru_actor"), so it plays under the same fair views as any policy.

Everything else is training.ippo's: the games, opponent groups, shaped rewards (training only,
RULES_BRIEF A13), GAE, the clipped PPO loss, the chunked sequence replay, the epochs and the
run driver (training.runs). Actor and critic are one parameter tree {"actor", "critic"} under
one Adam, their losses summed as in IPPO (policy + vf_coef x value - ent_coef x entropy).
"""

import dataclasses
import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp

from engine import constants as C
from engine.types import ROW_DIM, Obs
from policies import networks as nets
from training import common, curriculum_runner, ghosts, ippo, ppo, run_schedule, selfplay

# ================================ CONFIG ================================


@dataclass(frozen=True)
class MAPPOConfig(ippo.IPPOConfig):
    """training.ippo.IPPOConfig plus the critic's width; a feed-forward actor by default."""

    recurrent: bool = False
    critic_width: int = 128  # two hidden layers of this many units

    def __post_init__(self):
        super().__post_init__()
        if self.critic_width < 1:
            raise ValueError(f"MAPPOConfig.critic_width: {self.critic_width!r} must be >= 1")

    @property
    def network(self) -> nets.NetworkConfig:
        return dataclasses.replace(super().network, value_head=False)


@dataclass(frozen=True)
class MAPPORNNConfig(MAPPOConfig):
    """MAPPOConfig with the GRU actor (`mbg train mappo-rnn`)."""

    recurrent: bool = True


def algorithm_name(config: MAPPOConfig) -> str:
    return "mappo-rnn" if config.recurrent else "mappo"


# ================================ CRITIC ================================


class WorldCritic(nn.Module):
    """V(world state, own slot, class) for N agents: an MLP of two `width` layers.

    world (..., 10 * ROW_DIM + CONTEXT_DIM) float32 (engine Env.world_state rows of one agent,
    its team first); self_index (...) int32 0-4, the agent's row in its team; class_id (...)
    int32. Returns the value (...) float32. Rows and context are scaled as the actor scales
    its inputs (policies.networks.ROW_SCALE, CONTEXT_SCALE).
    """

    width: int

    @nn.compact
    def __call__(self, world: jax.Array, self_index: jax.Array, class_id: jax.Array):
        lead = world.shape[:-1]
        split = C.NUM_SLOTS * ROW_DIM
        rows = world[..., :split].reshape(*lead, C.NUM_SLOTS, ROW_DIM) / nets.ROW_SCALE
        x = jnp.concatenate(
            [
                rows.reshape(*lead, split),
                world[..., split:] / nets.CONTEXT_SCALE,
                jax.nn.one_hot(self_index, C.TEAM_SIZE),
                jax.nn.one_hot(class_id, C.NUM_CLASSES),
            ],
            axis=-1,
        )
        for _ in range(2):
            x = nn.relu(nn.Dense(self.width, kernel_init=nn.initializers.orthogonal(2**0.5))(x))
        return nn.Dense(1, kernel_init=nn.initializers.orthogonal(1.0))(x)[..., 0]


class Networks(NamedTuple):
    """The actor (policies.networks.ActorCritic, no value head) and the centralised critic."""

    actor: nets.ActorCritic
    critic: WorldCritic


def critic_value(networks: Networks, params, world, obs: Obs) -> jax.Array:
    """The critic's values for agents with leading axes (...): from the world state and the
    agent's own slot and class only (nothing else of `obs`)."""
    return networks.critic.apply(params["critic"], world, obs.self_index, obs.class_id)


# ============================== LOSS ==============================


class Batch(NamedTuple):
    """Learner agent sequences: leading axes (T, n agents); world: the critic's input."""

    obs: Obs
    world: jax.Array
    reset: jax.Array
    move: jax.Array
    pair: jax.Array
    logp: jax.Array
    value: jax.Array
    adv: jax.Array
    ret: jax.Array
    mask: jax.Array


def chunk_loss(params, network: Networks, config: MAPPOConfig, hidden0, batch: Batch, share):
    """training.ippo.chunk_loss with the value from the centralised critic: `share` x the
    PPO loss (total, dict of terms) of time-major sequences with normalised advantages."""
    _, heads = network.actor.apply(params["actor"], hidden0, batch.obs, batch.reset)
    value = critic_value(network, params, batch.world, batch.obs)
    return ppo.shared_loss(heads, value, batch, config, share)


def loss_fn(params, network: Networks, config: MAPPOConfig, hidden0, batch: Batch):
    """The MAPPO loss (total, terms) of a time-major batch, advantages normalised over it."""
    batch = batch._replace(adv=ippo.normalise(batch.adv, batch.mask))
    return chunk_loss(params, network, config, hidden0, batch, 1.0)


# ============================== MAKE_TRAIN ==============================


def make_networks(config: MAPPOConfig) -> Networks:
    return Networks(nets.ActorCritic(config.network), WorldCritic(config.critic_width))


def make_train(config: MAPPOConfig, axis_name: str | None = None) -> ippo.Trainer:
    """The pure functions of a MAPPO run (training.ippo.Trainer; runner params are
    {"actor", "critic"}). Same games, opponents, rewards and devices as training.ippo."""
    if config.devices > 1 and axis_name is None:
        from training import parallel

        return parallel.make_parallel_train(config, make_train)
    env, network = ippo.make_env(config), make_networks(config)
    tx = ippo.make_optimizer(config)
    fixed = ippo.batch_layout(config)
    groups, systems, _, partners, weights, b, n, layout, ghost_config, first_pool = fixed
    learners, per_learner = fixed.learners, fixed.per_learner
    own = functools.partial(ippo.own_key, axis_name=axis_name)

    def world_of(env_state):  # (n, 10 * ROW_DIM + CONTEXT_DIM): the critic's view only
        return learners(jax.vmap(env.world_state)(env_state))

    def init(rng) -> ippo.RunnerState:
        rng, k_env, k_net, k_critic = jax.random.split(rng, 4)
        obs, state = jax.vmap(lambda k: env.reset(k, first_pool))(jax.random.split(own(k_env), b))
        mine = learners(obs)
        params = {
            "actor": nets.init_params(config.network, k_net, mine),
            "critic": network.critic.init(
                k_critic, world_of(state), mine.self_index, mine.class_id
            ),
        }
        hidden = nets.initial_hidden(config.network, n)
        carries = common.initial_carries(groups, systems)
        # The ghosts are snapshots of the actor alone (the critic never plays), drawn from
        # their own key as in training.ippo.
        k_ghost = jax.random.fold_in(k_net, 1)
        ghost = ghosts.init_state(
            ghost_config, config.network, params["actor"], layout, k_ghost, axis_name
        )
        return ippo.RunnerState(
            params, tx.init(params), state, obs, hidden, jnp.ones(b, bool), carries, rng,
            jnp.int32(0), first_pool, ghost, curriculum_runner.initial_state(),
            common.partner_carries(partners, b),
        )  # fmt: skip

    def env_step(runner: ippo.RunnerState, _):
        rng, k_act, k_opp, k_env = jax.random.split(runner.rng, 4)
        k_act, k_opp, k_env = own(k_act), own(k_opp), own(k_env)
        obs, reset = learners(runner.obs), per_learner(runner.reset)
        hidden, heads = network.actor.apply(runner.params["actor"], runner.hidden, obs, reset)
        world = world_of(runner.env_state)
        value = critic_value(network, runner.params, world, obs)
        move, pair = nets.sample_actions(k_act, heads, obs)
        mine = nets.to_actions(move, pair)
        after, terms, active, done, stats = ippo.play_tick(
            fixed, env, network.actor, runner.params["actor"], runner, mine, hidden, rng, k_opp,
            k_env, axis_name,
        )  # fmt: skip
        tr = ippo.Transition(
            obs, reset, move, pair, nets.joint_log_prob(heads, move, pair), value,
            terms @ weights, per_learner(done), active,
        )  # fmt: skip
        return after, (tr, world, stats)

    run_epoch = ippo.make_epoch(config, network, tx, axis_name, loss=chunk_loss)

    def collect(runner: ippo.RunnerState):
        """Rollout and GAE: (runner, Batch (T, n), hidden0 (n, H), per-tick stats)."""
        hidden0 = runner.hidden
        runner, (traj, world, stats) = jax.lax.scan(env_step, runner, None, config.rollout)
        world_last = world_of(runner.env_state)
        last = critic_value(network, runner.params, world_last, learners(runner.obs))
        adv, ret = ippo.gae(
            traj.reward, traj.value, traj.done, last, config.gamma, config.gae_lambda
        )
        batch = Batch(traj.obs, world, traj.reset, traj.move, traj.pair, traj.logp, traj.value,
                      adv, ret, traj.learn)  # fmt: skip
        return runner, batch, hidden0, stats

    def learn(runner: ippo.RunnerState, batch: Batch, hidden0):
        """config.epochs PPO epochs on one batch: (runner, losses (epochs, minibatches))."""
        rng, k_epochs = jax.random.split(runner.rng)
        epoch = functools.partial(run_epoch, hidden0=hidden0, batch=ippo.swap_leading_axes(batch))
        (params, opt_state), losses = jax.lax.scan(
            epoch, (runner.params, runner.opt_state), jax.random.split(k_epochs, config.epochs)
        )
        runner = runner._replace(
            params=params, opt_state=opt_state, rng=rng, update=runner.update + 1
        )
        return runner, losses

    def update(runner: ippo.RunnerState):
        runner, batch, hidden0, stats = collect(runner)
        runner, losses = learn(runner, batch, hidden0)
        trainer_steps = ippo.psum(stats["agent_steps"].sum(), axis_name).astype(jnp.int32)
        ghost = selfplay.after_update(
            runner.ghost, runner.params["actor"], trainer_steps, ghost_config
        )
        runner = runner._replace(ghost=ghost)
        metrics = {
            "loss": jax.tree.map(jnp.mean, losses),
            "terms": ippo.psum(stats["terms"].sum(0), axis_name),
            "agent_steps": ippo.psum(stats["agent_steps"].sum(), axis_name),
            "results": ippo.psum(stats["results"].sum(0), axis_name),
        }
        return runner, metrics

    def train(rng):
        num_updates = math.ceil(config.total_steps / config.steps_per_update)
        return jax.lax.scan(lambda r, _: update(r), init(rng), None, num_updates)

    return ippo.Trainer(config, env, network, groups, init, update, train, collect, learn)


# ================================ RUN ================================


def run(
    config, out: str | Path, resume=False, steps: int | None = None, show=True, cls=MAPPOConfig
):
    """Train or resume a MAPPO run in `out` as training.ippo.run does (ghost pool, curriculum,
    validation checks: training.run_schedule); `cls` is the config class a run without
    `config` reads or defaults to. The exported policy file holds the actor only. Returns
    (final RunnerState, path of the exported policy checkpoint)."""
    return run_schedule.run_scheduled(
        make_train, cls, algorithm_name, config, out, resume, steps, show,
        policy_params=lambda runner: runner.params["actor"],
    )  # fmt: skip


def run_rnn(config, out: str | Path, resume=False, steps: int | None = None, show=True):
    """`run` for recurrent MAPPO (`mbg train mappo-rnn`): MAPPORNNConfig by default."""
    return run(config, out, resume, steps, show, cls=MAPPORNNConfig)
