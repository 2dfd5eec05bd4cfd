"""Recurrent IPPO on Team Deathmatch: one GRU actor-critic shared by every agent, PPO updates.

The config is training.ippo_config.IPPOConfig, GAE and the PPO loss are training.ppo's (both
re-exported here). Read top to bottom: TRANSITION AND RUNNER STATE, MAKE_TRAIN (rollout with
`lax.scan` over vmapped games, then epochs x minibatches of PPO, all pure: `train(rng)` jits
once and vmaps over seeds), RUN (`mbg train ippo`: jitted chunks of updates driven by
training.runs: Orbax checkpoints, exact resume, progress bar, TensorBoard).

Games: `num_envs` games run in lock step with the engine's auto-reset, drawn from the
curriculum and train maps only, from the pool the runner carries (the curriculum stage's,
training.curriculum_runner). The learner always plays Team A (spawn end drawn per game, and
observations are in the team frame, so it sees both ends); Team B of each game is played by the
game's opponent group (fixed for the run): "self" (the current policy, whose Team B agents are
then learners too), "pool" (ghosts: a snapshot or the latest parameters per game, seed 001,
training.ghosts), "random", "scripted:NAME" or "checkpoint:PATH". Elo against every opponent
is kept in the runner (training.selfplay). Every agent of a team acts from its own
observation and recurrent state (independent learners, shared parameters, class id in the input).

Reward per agent: sum_k w_k * term_k over training.common.SHAPING_TERMS: the engine's sparse
outcome plus optional shaping from Events; each term is logged separately.
"""

import functools
import math
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

import engine
from engine import constants as C
from engine.maps import make_pool
from engine.types import Config, Obs, State
from policies import networks as nets
from training import common, curriculum_runner, ghosts, run_schedule, selfplay
from training.ippo_config import IPPOConfig
from training.ppo import (  # noqa: F401  (the PPO half, re-exported for tests and benches)
    Batch,
    chunk_loss,
    gae,
    loss_fn,
    make_epoch,
    make_grad,
    masked_mean,
    normalise,
    num_chunks,
    ppo_loss,
    psum,
    swap_leading_axes,
)

# ====================== TRANSITION AND RUNNER STATE ======================


class Transition(NamedTuple):
    """One tick of the learner's n agents (a fixed set of game slots): leading axis (n,)."""

    obs: Obs  # what each agent saw
    reset: jax.Array  # bool: the tick starts a new game (recurrent state zeroed first)
    move: jax.Array  # int32 move head
    pair: jax.Array  # int32 joint (target, ult) head, target * 2 + ult
    logp: jax.Array  # log pi(action) at acting time
    value: jax.Array  # critic estimate at acting time
    reward: jax.Array  # shaped reward
    done: jax.Array  # bool: the agent's game ended on this tick
    learn: jax.Array  # bool: the slot is active in this game (empty roster slots do not learn)


class RunnerState(NamedTuple):
    """Everything that changes during training; Orbax saves all of it for exact resume."""

    params: Any
    opt_state: Any
    env_state: State  # (num_envs,) games in flight
    obs: Obs  # (num_envs, 10) their current observations
    hidden: jax.Array  # (n learner agents, H) recurrent state
    reset: jax.Array  # (num_envs,) bool: obs is the first of a new game
    opponents: tuple  # per opponent group, its Systems' carries (e.g. path-finding memory)
    rng: jax.Array  # (2,) uint32 raw PRNG key
    update: jax.Array  # () int32 updates done
    # Self-play and curriculum state (training.selfplay, training.curriculum_runner); learners
    # without them (training.mappo) leave them empty.
    pool: Any = ()  # engine Pool new games are drawn from (the curriculum stage's)
    ghost: Any = ()  # selfplay.GhostState: snapshot pool, each pool game's opponent, Elo
    curriculum: Any = ()  # curriculum_runner.CurriculumState: stage, win window, learning side
    partners: tuple = ()  # per frozen partner System, its carries for every game


# ============================== MAKE_TRAIN ==============================


class Trainer(NamedTuple):
    """The pure functions of a run: init(rng) -> RunnerState; update(runner) -> (runner,
    metrics) = collect then learn; train(rng) -> (runner, metrics stacked over all updates)."""

    config: IPPOConfig
    env: Any
    network: nets.ActorCritic
    groups: tuple
    init: Any
    update: Any
    train: Any
    collect: Any  # collect(runner) -> (runner, Batch, hidden0, stats): rollout and GAE
    learn: Any  # learn(runner, batch, hidden0) -> (runner, losses): the PPO epochs


def make_env(config: IPPOConfig):
    """The training Env: curriculum/train maps only, no pre-reset observation (not needed:
    a finished game is terminal, never bootstrapped)."""
    game = Config(score_threshold=config.score_threshold, horizon=config.horizon)
    pool = make_pool(list(config.maps), list(config.rosters), config.p_east)
    return engine.Env(game, pool, keep_last_obs=False)


def make_optimizer(config: IPPOConfig):
    return optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.lr, eps=1e-5)
    )


def _game_results(groups, done, outcome):
    """(groups, 3) counts of finished games by the learner's (Team A's) win, draw, loss."""
    res = jnp.stack([outcome == C.A_WINS, outcome == C.DRAW, outcome == C.B_WINS], -1)
    res = (res & done[:, None]).astype(jnp.float32)
    return jnp.stack([res[g.lo : g.hi].sum(0) for g in groups])


class BatchLayout(NamedTuple):
    """What a policy-gradient run's functions close over, fixed for the run (training.ippo and
    training.mappo): the opponent groups and their Systems, the learner's agents (a static set
    of flat game * 10 + slot indices: the network runs on these only, a bot's slots cost
    nothing, and they are the sequences PPO learns from), the frozen partners' lineup, the
    shaping weights (7,) float32, b games and n learner agents, the ghost layout and config,
    and the first curriculum stage's map pool."""

    groups: tuple
    systems: tuple
    learn_idx: np.ndarray
    partners: Any
    weights: jax.Array
    b: int
    n: int
    layout: Any
    ghost_config: Any
    first_pool: Any

    def learners(self, tree):
        """(b, 10, ...) leaves -> (n, ...): the learner agents' rows."""
        flat = (self.b * C.NUM_SLOTS,)
        return jax.tree.map(lambda x: x.reshape(flat + x.shape[2:])[self.learn_idx], tree)

    def per_learner(self, game_values):
        """(b,) -> (n,): each learner agent's game's value."""
        return game_values[self.learn_idx // C.NUM_SLOTS]


def batch_layout(config: IPPOConfig) -> BatchLayout:
    """The run's BatchLayout from its config (common.opponent_groups, common.learner_slots)."""
    groups = common.opponent_groups(config.opponents, config.num_envs)
    learn_idx = np.flatnonzero(common.learner_slots(groups, config.num_envs, config.partners))
    return BatchLayout(
        groups, common.opponent_systems(groups), learn_idx,
        common.partner_lineup(config.partners), jnp.asarray(config.weights), config.num_envs,
        len(learn_idx), ghosts.ghost_layout(groups, config.num_envs), config.ghost,
        config.schedule.pool(curriculum_runner.initial_state()),
    )  # fmt: skip


def own_key(key, axis_name: str | None):
    """A device's own random draws (the carried rng stays the same on every device)."""
    return key if axis_name is None else jax.random.fold_in(key, jax.lax.axis_index(axis_name))


def play_tick(fixed: BatchLayout, env, actor, actor_params, runner, mine, hidden, rng, k_opp, k_env,
              axis_name):  # fmt: skip
    """One rollout tick after the learner agents chose `mine` ((n,) Actions heads): the other
    slots' actions (opponent groups, frozen partners, ghosts of `actor`), the vmapped env step
    (b games), the ghosts' bookkeeping, and what the learners got. Returns (runner after the
    tick, with `hidden` and `rng` carried in; shaping terms (n, 7) float32; active (n,) bool,
    empty roster slots do not learn; done (b,) bool; the tick's stats dict)."""
    b, learn_idx = fixed.b, fixed.learn_idx
    joint = jax.tree.map(
        lambda x: jnp.zeros(b * C.NUM_SLOTS, jnp.int32).at[learn_idx].set(x).reshape(b, -1), mine
    )
    joint, carries = common.opponent_actions(
        fixed.groups, fixed.systems, runner.obs, joint, runner.opponents, runner.reset, k_opp
    )
    joint, partner_carries = common.partner_actions(
        fixed.partners, runner.obs, joint, runner.partners, runner.reset, k_opp
    )
    ghost_key, k_ghost = jax.random.split(runner.ghost.key)
    joint, ghost = ghosts.ghost_actions(
        actor, fixed.layout, runner.ghost._replace(key=ghost_key), actor_params, runner.obs,
        runner.reset, joint, k_ghost, axis_name,
    )  # fmt: skip
    step = functools.partial(env.step, pool=runner.pool)
    obs2, state, reward, done, info = jax.vmap(step)(
        jax.random.split(k_env, b), runner.env_state, joint
    )
    ghost = ghosts.after_tick(
        fixed.ghost_config, fixed.layout, ghost, runner.env_state, done, info["outcome"], axis_name
    )
    events_terms = jax.vmap(common.reward_terms)(info["events"], reward)
    terms = fixed.learners(jnp.moveaxis(events_terms, 1, 2))
    active = fixed.learners(runner.env_state.active)
    stats = {
        "terms": jnp.einsum("k,nk,n->k", fixed.weights, terms, active),
        "agent_steps": active.sum().astype(jnp.float32),
        "results": _game_results(fixed.groups, done, info["outcome"]),
    }
    after = runner._replace(
        env_state=state, obs=obs2, hidden=hidden, reset=done, opponents=carries, rng=rng,
        ghost=ghost, partners=partner_carries,
    )  # fmt: skip
    return after, terms, active, done, stats


def make_train(config: IPPOConfig, axis_name: str | None = None) -> Trainer:
    """Build the pure, jittable functions of a run (see Trainer). With config.devices > 1 they
    run on that many host devices (training.parallel). With `axis_name` (used there), they
    are one device's part: its own games and random draws, gradients and counts summed
    across the devices of `axis_name`."""
    if config.devices > 1 and axis_name is None:
        from training import parallel

        return parallel.make_parallel_train(config)
    env, network = make_env(config), nets.ActorCritic(config.network)
    tx = make_optimizer(config)
    fixed = batch_layout(config)
    groups, systems, _, partners, weights, b, n, layout, ghost_config, first_pool = fixed
    learners, per_learner = fixed.learners, fixed.per_learner
    own = functools.partial(own_key, axis_name=axis_name)

    def init(rng) -> RunnerState:
        rng, k_env, k_net = jax.random.split(rng, 3)
        k_env = own(k_env)
        pool = first_pool
        obs, state = jax.vmap(lambda k: env.reset(k, pool))(jax.random.split(k_env, b))
        params = nets.init_params(config.network, k_net, learners(obs))
        hidden = nets.initial_hidden(config.network, n)
        reset = jnp.ones(b, bool)
        carries = common.initial_carries(groups, systems)
        opt = tx.init(params)
        # The ghosts draw from their own key, so runs without a pool keep their random stream;
        # it is the same on every device (the pool is replicated; each device plays its
        # block of each draw, selfplay.device_block).
        k_ghost = jax.random.fold_in(k_net, 1)
        ghost = ghosts.init_state(ghost_config, config.network, params, layout, k_ghost, axis_name)
        return RunnerState(params, opt, state, obs, hidden, reset, carries, rng, jnp.int32(0),
                           pool, ghost, curriculum_runner.initial_state(),
                           common.partner_carries(partners, b))  # fmt: skip

    # ---- ROLLOUT ----
    def env_step(runner: RunnerState, _):
        rng, k_act, k_opp, k_env = jax.random.split(runner.rng, 4)
        k_act, k_opp, k_env = own(k_act), own(k_opp), own(k_env)
        obs, reset = learners(runner.obs), per_learner(runner.reset)
        hidden, heads = network.apply(runner.params, runner.hidden, obs, reset)
        move, pair = nets.sample_actions(k_act, heads, obs)
        mine = nets.to_actions(move, pair)  # (n,) heads; other slots start as the no-op
        after, terms, active, done, stats = play_tick(
            fixed, env, network, runner.params, runner, mine, hidden, rng, k_opp, k_env, axis_name
        )
        tr = Transition(
            obs, reset, move, pair, nets.joint_log_prob(heads, move, pair), heads.value,
            terms @ weights, per_learner(done), active,
        )  # fmt: skip
        return after, (tr, stats)

    # ---- LEARN ----
    run_epoch = make_epoch(config, network, tx, axis_name)

    def collect(runner: RunnerState):
        """Rollout and GAE: (runner, Batch (T, n), hidden0 (n, H), per-tick stats)."""
        hidden0 = runner.hidden
        runner, (traj, stats) = jax.lax.scan(env_step, runner, None, config.rollout)
        obs, reset = learners(runner.obs), per_learner(runner.reset)
        _, last = network.apply(runner.params, runner.hidden, obs, reset)
        adv, ret = gae(
            traj.reward, traj.value, traj.done, last.value, config.gamma, config.gae_lambda
        )
        batch = Batch(traj.obs, traj.reset, traj.move, traj.pair, traj.logp, traj.value, adv, ret,
                      traj.learn)  # fmt: skip
        return runner, batch, hidden0, stats

    def learn(runner: RunnerState, batch: Batch, hidden0):
        """config.epochs PPO epochs on one batch: (runner, losses (epochs, minibatches))."""
        rng, k_epochs = jax.random.split(runner.rng)
        epoch = functools.partial(run_epoch, hidden0=hidden0, batch=swap_leading_axes(batch))
        carry = (runner.params, runner.opt_state)
        (params, opt_state), losses = jax.lax.scan(
            epoch, carry, jax.random.split(k_epochs, config.epochs)
        )
        runner = runner._replace(
            params=params, opt_state=opt_state, rng=rng, update=runner.update + 1
        )
        return runner, losses

    def update(runner: RunnerState):
        runner, batch, hidden0, stats = collect(runner)
        runner, losses = learn(runner, batch, hidden0)
        trainer_steps = psum(stats["agent_steps"].sum(), axis_name).astype(jnp.int32)
        ghost = selfplay.after_update(runner.ghost, runner.params, trainer_steps, ghost_config)
        runner = runner._replace(ghost=ghost)
        metrics = {
            "loss": jax.tree.map(jnp.mean, losses),
            "terms": psum(stats["terms"].sum(0), axis_name),
            "agent_steps": psum(stats["agent_steps"].sum(), axis_name),
            "results": psum(stats["results"].sum(0), axis_name),
        }
        return runner, metrics

    def train(rng):
        num_updates = math.ceil(config.total_steps / config.steps_per_update)
        runner = init(rng)
        return jax.lax.scan(lambda r, _: update(r), runner, None, num_updates)

    return Trainer(config, env, network, groups, init, update, train, collect, learn)


# ================================ RUN ================================


def run(
    config: IPPOConfig | None,
    out: str | Path,
    resume: bool = False,
    steps: int | None = None,
    show: bool = True,
):
    """Train (or resume, exactly) a run in directory `out` until config.total_steps env-steps
    (`steps` overrides it), rounded up to whole chunks; see training.runs.train_loop. Between
    chunks training.run_schedule advances the curriculum, logs Elo and runs validation checks.

    Returns (final RunnerState, path of the exported policy checkpoint).
    """
    return run_schedule.run_scheduled(make_train, IPPOConfig, "ippo", config, out, resume,
                                      steps, show)  # fmt: skip
