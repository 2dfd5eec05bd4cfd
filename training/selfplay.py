"""Ghost opponents and Elo during training, as Unity ML-Agents' self-play guide defines them
(seed 001), for any learner whose policy is a parameter pytree.

The terms keep the seed's meanings:

- trainer step: one step of one learning agent (counted per agent); ghost step: one step of
  one agent that follows a fixed policy and does not learn (the opponent of a pool game);
- `save_steps`: trainer steps between snapshots of the learner's parameters;
- `window`: how many of the latest snapshots are kept; a new one replaces the oldest;
- `play_against_latest_model_ratio`: the probability that a game's opponent is the latest
  parameters (still a ghost: it does not learn from that game) rather than a snapshot drawn
  uniformly from the window;
- `swap_steps`: ghost steps between opponent swaps. Here each vmapped game keeps its own
  opponent: once the game has played `swap_steps` ghost steps (scaled by the team sizes, see
  `swap_threshold`) its opponent is redrawn, but only when that game ends, so an opponent never
  changes mid-game and its recurrent state starts fresh with the next game;
- `team_change`: trainer steps between switching which side of an uneven roster learns
  (training.curriculum_runner flips the rosters).

Elo (seed 001: "in a proper training run, the ELO of the agent should steadily increase"): the
learner and every entrant it meets (each fixed opponent group, each snapshot) have a rating,
initially 1,200; after each finished game the online Elo update of evaluation.rating moves the
learner and that entrant by k (score - expected score), a draw scoring 1/2. Games against the
latest parameters (the learner itself) move nothing. A snapshot starts with the learner's rating
at the time it was taken. All games ending on one tick are rated against the ratings before it.

Everything here is a pure function of arrays (jit, scan and Orbax-friendly): a run checkpoints
the whole `GhostState` and resumes it exactly.
"""

from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from evaluation.rating import elo_update

LATEST = -1  # a game's `choice` when it plays the latest parameters


@dataclass(frozen=True)
class GhostFields:
    """The self-play fields of a learner's config, with the seed's meanings (module docstring):
    save_steps and team_change in trainer steps, swap_steps in ghost steps, window in
    snapshots, elo_k the Elo update's k; `ghost` builds the checked GhostConfig."""

    save_steps: int = 20_000
    team_change: int = 100_000
    swap_steps: int = 10_000
    play_against_latest_model_ratio: float = 0.5
    window: int = 10
    elo_k: float = 16.0

    @property
    def ghost(self) -> "GhostConfig":
        """GhostConfig of these fields; raises ValueError naming the config class and field."""
        fields = {f: getattr(self, f) for f in GhostFields.__dataclass_fields__}
        try:
            return GhostConfig(**fields)
        except ValueError as error:
            raise ValueError(f"{type(self).__name__}.{error}") from None


@dataclass(frozen=True)
class GhostConfig(GhostFields):
    """GhostFields checked, with initial_elo every rating's start. Raises ValueError naming the
    field at fault."""

    initial_elo: float = 1200.0

    def __post_init__(self):
        for name in ("save_steps", "team_change", "swap_steps", "window"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: {getattr(self, name)!r} must be >= 1")
        if not 0.0 <= self.play_against_latest_model_ratio <= 1.0:
            ratio = self.play_against_latest_model_ratio
            raise ValueError(f"play_against_latest_model_ratio: {ratio!r} must be in [0, 1]")
        if self.elo_k <= 0:
            raise ValueError(f"elo_k: {self.elo_k!r} must be > 0")

    @property
    def ghost(self) -> "GhostConfig":
        return self


class GhostState(NamedTuple):
    """The pool and each pool game's opponent. W = window, G = pool games, F = fixed entrants."""

    params: Any  # snapshot parameters, every leaf (W, ...)
    rating: jax.Array  # (W,) float32 Elo of each snapshot
    taken: jax.Array  # (W,) int32 trainer steps when each snapshot was taken, -1 = empty
    size: jax.Array  # () int32 snapshots held (1..W)
    head: jax.Array  # () int32 the slot the next snapshot overwrites (the oldest when full)
    since_save: jax.Array  # () int32 trainer steps since the last snapshot
    trainer_steps: jax.Array  # () int32 trainer steps so far
    learner_elo: jax.Array  # () float32
    fixed_elo: jax.Array  # (F,) float32 Elo of each fixed opponent group
    choice: jax.Array  # (G,) int32 each pool game's opponent: LATEST or a window slot
    ghost_steps: jax.Array  # (G,) int32 ghost steps since that game's opponent was drawn
    carry: Any  # the ghosts' recurrent state, learner-defined (leading axes per game)
    key: jax.Array  # (2,) uint32 the opponent sampler's PRNG key


PER_GAME_FIELDS = ("choice", "ghost_steps", "carry")  # leading axis G: each device its games


def ghost_spec(same, split) -> GhostState:
    """Where each GhostState field lives on a device mesh (training.parallel): `split` (with
    its device's games) for PER_GAME_FIELDS, `same` (identical on every device) for the rest:
    the snapshots, ratings and counters are updated from psummed counts and the sampler's key
    is split alike everywhere (`draw_opponents`)."""
    return GhostState(**{f: split if f in PER_GAME_FIELDS else same for f in GhostState._fields})


def swap_threshold(swap_steps, num_agents, num_opponent_agents):
    """Ghost steps between swaps for a team of `num_agents` against `num_opponent_agents`.

    Seed 001: swap_steps = (num_agents / num_opponent_agents) * (team_change / x) for x swaps
    per team change; `swap_steps` here is that value for even teams (team_change / x), so a
    2v1 stage swaps the two-agent team's opponent after 2 x swap_steps ghost steps and the
    one-agent team's after swap_steps / 2. Works on ints, floats and arrays (an empty side
    counts as one agent)."""
    return swap_steps * num_agents / jnp.maximum(num_opponent_agents, 1)


def device_count(axis_name=None) -> int:
    """Devices of `axis_name` (training.parallel's mesh axis), 1 when None."""
    return 1 if axis_name is None else jax.lax.axis_size(axis_name)


def device_block(values, axis_name=None):
    """This device's block of `values`, drawn alike on every device for the pool games of all
    of them (leading axis devices x local games, device-major): each device then plays its
    games' share of one draw, as one device running all the pool games would draw them.
    `values` itself when `axis_name` is None."""
    if axis_name is None:
        return values
    count = values.shape[0] // device_count(axis_name)
    start = jax.lax.axis_index(axis_name) * count
    return jax.lax.dynamic_slice_in_dim(values, start, count)


def draw_opponents(key, size, ratio: float, count: int, axis_name=None):
    """(count,) int32 opponents: LATEST with probability `ratio`, else a window slot in
    [0, size) drawn uniformly. With `axis_name`, `count` is this device's pool games: the
    draw is made for every device's (same key on all) and this device keeps its block."""
    total = count * device_count(axis_name)
    k_latest, k_slot = jax.random.split(key)
    latest = jax.random.uniform(k_latest, (total,)) < ratio
    slot = jax.random.randint(k_slot, (total,), 0, jnp.maximum(size, 1))
    return device_block(jnp.where(latest, LATEST, slot).astype(jnp.int32), axis_name)


def init_ghost(
    config: GhostConfig, params, games: int, carry, fixed: int, key, axis_name=None
) -> GhostState:
    """A pool holding one snapshot (the initial parameters), every pool game's first opponent
    drawn, every rating at config.initial_elo. carry: the ghosts' fresh recurrent state;
    games: this device's pool games; key: the sampler's, the same on every device of
    `axis_name` (the pool is replicated, only choice, ghost_steps and carry are per game)."""
    w = config.window
    k_draw, key = jax.random.split(key)
    size = jnp.int32(1)
    elo = jnp.float32(config.initial_elo)
    return GhostState(
        params=jax.tree.map(lambda p: jnp.broadcast_to(p, (w, *p.shape)), params),
        rating=jnp.full(w, elo),
        taken=jnp.full(w, -1, jnp.int32).at[0].set(0),
        size=size,
        head=jnp.int32(1 % w),
        since_save=jnp.int32(0),
        trainer_steps=jnp.int32(0),
        learner_elo=elo,
        fixed_elo=jnp.full(fixed, elo),
        choice=draw_opponents(
            k_draw, size, config.play_against_latest_model_ratio, games, axis_name
        ),
        ghost_steps=jnp.zeros(games, jnp.int32),
        carry=carry,
        key=key,
    )


def take_snapshot(ghost: GhostState, params, window: int) -> GhostState:
    """Store `params` in the oldest slot (or the next empty one) with the learner's rating."""
    slot = ghost.head
    return ghost._replace(
        params=jax.tree.map(lambda w, p: w.at[slot].set(p), ghost.params, params),
        rating=ghost.rating.at[slot].set(ghost.learner_elo),
        taken=ghost.taken.at[slot].set(ghost.trainer_steps),
        size=jnp.minimum(ghost.size + 1, window),
        head=(slot + 1) % window,
    )


def after_update(ghost: GhostState, params, trainer_steps, config: GhostConfig) -> GhostState:
    """Count an update's trainer steps; take a snapshot of `params` (the updated learner) once
    save_steps have passed since the last one."""
    ghost = ghost._replace(
        since_save=ghost.since_save + trainer_steps,
        trainer_steps=ghost.trainer_steps + trainer_steps,
    )
    due = ghost.since_save >= config.save_steps
    saved = take_snapshot(ghost, params, config.window)._replace(
        since_save=ghost.since_save - config.save_steps
    )
    return jax.tree.map(lambda new, old: jnp.where(due, new, old), saved, ghost)


def rate_games(learner_elo, ratings, entrant, done, score, k: float, axis_name=None):
    """Elo after one tick's finished games: entrant (B,) int32 index into ratings (E,) of each
    game's opponent (-1: unrated, e.g. the learner itself), done (B,) bool, score (B,) float
    (1 learner won, 0.5 draw, 0 lost). Every game is rated against the ratings before the tick
    (evaluation.rating.elo_update per game, the changes summed, over the devices of
    `axis_name` too when given). Returns (learner, ratings)."""
    rated = done & (entrant >= 0)
    index = jnp.maximum(entrant, 0)
    new_learner, _ = elo_update(learner_elo, ratings[index], score, k)
    delta = jnp.where(rated, new_learner - learner_elo, 0.0)
    change = jnp.zeros_like(ratings).at[index].add(-delta)
    total = delta.sum()
    if axis_name is not None:
        change, total = jax.lax.psum((change, total), axis_name)
    return learner_elo + total, ratings + change


def learner_score(outcome, a_wins, draw):
    """(B,) float32 score of the learner playing Team A: 1 win, 0.5 draw, 0 loss."""
    return jnp.where(outcome == a_wins, 1.0, jnp.where(outcome == draw, 0.5, 0.0))


def after_tick(
    ghost: GhostState,
    config: GhostConfig,
    done,
    score,
    fixed_group,
    pool_games,
    agents,
    axis_name=None,
):
    """Ratings and opponent swaps after one tick of all B games.

    done (B,) bool: the game ended this tick; score (B,) float32 (`learner_score`);
    fixed_group (B,) int32: the fixed entrant each game's opponent is (-1 for self-play and
    pool games); pool_games (G,) int32: the batch index of each pool game; agents: (learner
    agents (G,), ghost agents (G,)) active on each pool game's sides this tick; axis_name:
    the devices whose games are rated together (each holds its own B games; the rest of
    `ghost` is the same on all, selfplay.ghost_spec).
    Returns (ghost, swapped (G,) bool: the pool game's next game has a new opponent).
    """
    learners, ghosts = agents
    f, w = ghost.fixed_elo.shape[0], ghost.rating.shape[0]
    done_pool = done[pool_games]
    learner, ratings = rate_games(
        ghost.learner_elo,
        jnp.concatenate([ghost.fixed_elo, ghost.rating]),
        jnp.concatenate([fixed_group, jnp.where(ghost.choice >= 0, f + ghost.choice, -1)]),
        jnp.concatenate([done, done_pool]),
        jnp.concatenate([score, score[pool_games]]),
        config.elo_k,
        axis_name,
    )
    steps = ghost.ghost_steps + ghosts
    swapped = done_pool & (steps >= swap_threshold(config.swap_steps, learners, ghosts))
    key, k_draw = jax.random.split(ghost.key)
    ratio, count = config.play_against_latest_model_ratio, ghost.choice.shape[0]
    fresh = draw_opponents(k_draw, ghost.size, ratio, count, axis_name)
    ghost = ghost._replace(
        learner_elo=learner,
        fixed_elo=ratings[:f],
        rating=ratings[f : f + w],
        choice=jnp.where(swapped, fresh, ghost.choice),
        ghost_steps=jnp.where(swapped, 0, steps).astype(jnp.int32),
        key=key,
    )
    return ghost, swapped


def opponent_params(ghost: GhostState, latest):
    """Each pool game's opponent parameters, every leaf (G, ...): its window slot's snapshot,
    or `latest` (the learner's current parameters) where it plays LATEST."""
    slot = jnp.maximum(ghost.choice, 0)
    is_latest = ghost.choice == LATEST

    def pick(window, now):
        mask = is_latest.reshape((-1,) + (1,) * now.ndim)
        return jnp.where(mask, now[None], window[slot])

    return jax.tree.map(pick, ghost.params, latest)


def ghost_scalars(ghost: GhostState, fixed_names) -> dict[str, float]:
    """Host-side log values: the learner's Elo, each fixed entrant's, the pool's mean Elo and
    size, and the share of pool games now playing the latest parameters."""
    ghost = jax.device_get(ghost)
    out = {"elo/learner": float(ghost.learner_elo)}
    for name, value in zip(fixed_names, ghost.fixed_elo, strict=True):
        out[f"elo/{name}"] = float(value)
    size = int(ghost.size)
    out["pool/size"] = float(size)
    held = ghost.taken >= 0
    out["elo/pool_mean"] = float(ghost.rating[held].mean()) if held.any() else float("nan")
    if ghost.choice.shape[0]:
        out["pool/latest_share"] = float((ghost.choice == LATEST).mean())
    return out
