"""Observations in the team frame, both information regimes, and the critic world state (RULES 5).

A unit row is built once per unit in world terms (`world_rows`) and then re-expressed for each
observer: mirrored when the observer's team spawned east, offsets and the previous target taken
relative to the observer, and zeroed unless seen or relayed.
"""

import jax.numpy as jnp
import numpy as np

from engine import combat, legality, lifecycle, movement
from engine import constants as C
from engine.types import CONTEXT_DIM, ROW, ROW_DIM, Config, Obs, State

RELATIVE_ORDER = jnp.asarray(C.RELATIVE_ORDER)
TEAM_OF_SLOT = jnp.asarray(C.TEAM_OF_SLOT)
TARGET_SLOT = jnp.asarray(C.TARGET_SLOT)
MIRROR_MOVE = jnp.asarray(C.MIRROR_MOVE)
NUM_CLASS_COLS = C.NUM_CLASSES - 1


def world_rows(config: Config, state: State) -> jnp.ndarray:
    """Observer-independent part of every unit's row, world frame: (10, ROW_DIM) float32.

    Observer-relative columns (dx, dy, distance, is_self, is_ally, relayed) are left at zero
    here and filled in by `observe`.
    """
    cls = state.class_id
    max_health = jnp.asarray(C.MAX_HEALTH)[cls]
    live = legality.acting(state)
    _, _, aura_out, aura_in = combat.auras(state)
    spd = movement.speed(
        state.status, state.shield, cls, live, config.shield_speed, config.move_scale
    )
    class_hot = cls[:, None] == jnp.arange(1, C.NUM_CLASSES)[None, :]
    zeros = jnp.zeros((C.NUM_SLOTS, 1))
    columns = [
        state.pos,  # x, y
        zeros, zeros, zeros, zeros, zeros,  # dx, dy, distance, is_self, is_ally
        state.alive[:, None],
        zeros,  # relayed
        class_hot,
        jnp.stack([state.health, max_health, state.health / jnp.maximum(max_health, 1.0)], 1),
        jnp.stack([state.cooldown.astype(jnp.float32), spd], 1),
        state.status,
        jnp.stack([state.shield, state.ooc], 1),
        jnp.stack([aura_out, aura_in], 1),
        lifecycle.in_red_zone(state)[:, None],
    ]  # fmt: skip
    rows = jnp.concatenate([c.astype(jnp.float32) for c in columns], axis=1)
    assert rows.shape[1] == ROW_DIM
    return rows


def _to_slots(team_table: jnp.ndarray) -> jnp.ndarray:
    """A (2 teams, ...) table -> (10 slots, ...): each team's entry broadcast to its five slots."""
    shape = (C.TEAM_SIZE,) + team_table.shape[1:]
    return jnp.concatenate([jnp.broadcast_to(t, shape) for t in team_table])


def _team_history(state: State, team_east):
    """Last accepted actions as each team sees them: (2 teams, 10 units, 3) int32 (RULES 5.5).

    team_east (2,) bool: whether team A / team B observes mirrored. The move is mirrored for a
    team playing from the east; the target is re-expressed as that team's category (none / its
    allies 0-4 / its enemies 0-4). -1 before any tick. Every observer of a team sees the same
    history, so it is built per team, not per observer.
    """
    move = state.prev_action[:, 0]
    framed_move = jnp.where(team_east[:, None], MIRROR_MOVE[move][None, :], move[None, :])
    recipient = TARGET_SLOT[jnp.arange(C.NUM_SLOTS), state.prev_action[:, 1]]  # (10,)
    same = jnp.arange(2)[:, None] == TEAM_OF_SLOT[jnp.clip(recipient, 0)][None, :]
    category = jnp.where(same, 1, 6) + jnp.clip(recipient, 0)[None, :] % C.TEAM_SIZE
    category = jnp.where(recipient[None, :] < 0, 0, category)
    ult = jnp.broadcast_to(state.prev_action[None, :, 2], (2, C.NUM_SLOTS))
    history = jnp.stack([framed_move, category, ult], -1).astype(jnp.int32)
    return jnp.where(state.has_prev, history, -1)


def _per_observer(team_table: jnp.ndarray) -> jnp.ndarray:
    """A (2 teams, 10 units, ...) table -> (10 observers, 10 units, ...) in RELATIVE_ORDER.

    Team B's rows are reordered once (own block first, as `legality.to_relative` does) and
    each team's table is broadcast to its five observers: XLA then writes the observers' copies
    by a select per element, where building per observer and reordering after cost 1.5x more.
    """
    half = C.TEAM_SIZE
    team_b = jnp.concatenate([team_table[1][half:], team_table[1][:half]], 0)
    return _to_slots(jnp.stack([team_table[0], team_b]))


def relay(config: Config, state: State, previous: State | None) -> jnp.ndarray:
    """Rows each observer gets from teammates' last-tick sightings (A8): (10, 10) bool by slot."""
    if previous is None or not config.shared_obs:
        return jnp.zeros((C.NUM_SLOTS, C.NUM_SLOTS), bool)
    live = legality.acting(state)
    mates = (TEAM_OF_SLOT[:, None] == TEAM_OF_SLOT[None, :]) & ~jnp.eye(C.NUM_SLOTS, dtype=bool)
    sources = mates & live[None, :]  # [observer, teammate]
    heard = jnp.any(sources[:, :, None] & previous.seen[None, :, :], axis=1)
    return heard & ~state.seen & live[:, None] & state.has_prev


def framed_obstacles(obstacles, east, world_frame: bool):
    """The obstacle table seen by each observer: (10, 32, 8), x mirrored and theta negated east."""
    mirrored = obstacles.at[:, C.OBS_X].set(C.MAP_WIDTH - obstacles[:, C.OBS_X])
    mirrored = mirrored.at[:, C.OBS_THETA].set(-obstacles[:, C.OBS_THETA])
    mirrored = jnp.where(obstacles[:, C.OBS_ACTIVE, None] > 0, mirrored, obstacles)
    use = east & (not world_frame)
    return jnp.where(use[:, None, None], mirrored[None], obstacles[None])


def context(config: Config, state: State) -> jnp.ndarray:
    """Per-observer context features (types.CONTEXT_FEATURES): (10, CONTEXT_DIM) float32.

    Built as one (2 teams, CONTEXT_DIM) table, own team first, then given to each team's slots
    (on a CPU 1.5x cheaper than twelve per-slot columns: one small kernel, not twelve).
    """
    half = C.TEAM_SIZE
    size = jnp.stack([state.active[:half].sum(), state.active[half:].sum()])
    alive = legality.acting(state)
    alive_count = jnp.stack([alive[:half].sum(), alive[half:].sum()])

    def both(value):
        return jnp.broadcast_to(value, (2,))

    cols = [
        both(state.tick),
        both(config.horizon - state.tick),
        state.score,
        state.score[::-1],
        both(config.score_threshold),
        size,
        size[::-1],
        alive_count,
        alive_count[::-1],
        state.wave_clock,
        state.wave_clock[::-1],
        both(float(config.shared_obs)),
    ]
    team = jnp.stack([c.astype(jnp.float32) for c in cols], axis=1)
    assert team.shape[1] == CONTEXT_DIM
    return _to_slots(team) * state.active[:, None]


def _place(columns: dict) -> jnp.ndarray:
    """Scatter named (10, 10) columns into zero rows (10, 10, ROW_DIM) by multiply-add.

    XLA on a CPU fuses this into one loop, unlike a concatenate along the feature axis.
    """
    total = 0.0
    for name, value in columns.items():
        basis = jnp.zeros(ROW_DIM, jnp.float32).at[ROW[name]].set(1.0)
        total = total + value.astype(jnp.float32)[..., None] * basis
    return total


def _framed_units(config: Config, state: State, source: jnp.ndarray, relayed, east):
    """Per-observer unit rows (10, 10, ROW_DIM) in slot order: frame, offsets, identity.

    `source` (10, 10, ROW_DIM) holds world rows (observer-relative columns zero).
    """
    world_x = source[..., ROW["x"]]
    x, ox = world_x, state.pos[:, 0][:, None]
    if not config.world_frame:
        x = jnp.where(east[:, None], C.MAP_WIDTH - x, x)
        ox = jnp.where(east[:, None], C.MAP_WIDTH - ox, ox)
    dx, dy = x - ox, source[..., ROW["y"]] - state.pos[:, 1][:, None]
    same_team = TEAM_OF_SLOT[:, None] == TEAM_OF_SLOT[None, :]
    observer_cols = _place(
        {
            "x": x - world_x,
            "dx": dx,
            "dy": dy,
            "distance": jnp.sqrt(dx * dx + dy * dy),
            "is_self": jnp.eye(C.NUM_SLOTS),
            "is_ally": same_team,
            "relayed": relayed,
        }
    )
    return source + observer_cols


def observe(config: Config, state: State, previous: State | None = None) -> Obs:
    """Every slot's observation of `state` (RULES 5); `previous` feeds the shared_obs relay.

    Uses `state.seen` for direct sight, so `state` must come from `initial_state` or `step_env`.
    """
    east = combat.east_slots(state.spawn_end)
    frame_east = east & (not config.world_frame)
    rows = world_rows(config, state)
    relayed = relay(config, state, previous)
    if previous is None or not config.shared_obs:
        source = jnp.broadcast_to(rows[None], (C.NUM_SLOTS, C.NUM_SLOTS, ROW_DIM))
    else:
        source = jnp.where(relayed[..., None], world_rows(config, previous)[None], rows[None])
    shown = state.seen | relayed
    relayed_rel, shown_rel = legality.to_relative(relayed), legality.to_relative(shown)
    team_east = frame_east[:: C.TEAM_SIZE]  # (2,): the frame is the same for a whole team
    history = _per_observer(_team_history(state, team_east))
    if previous is not None and config.shared_obs:
        # A relayed row is the unit as it was a tick ago, its last action included.
        earlier = _per_observer(_team_history(previous, team_east))
        history = jnp.where(relayed_rel[..., None], earlier, history)
    history = jnp.where(shown_rel[..., None], history, -1)
    units = jnp.where(shown[..., None], _framed_units(config, state, source, relayed, east), 0.0)
    public = jnp.stack([state.active, state.alive, state.shield], -1).astype(jnp.float32)
    public = _per_observer(jnp.broadcast_to(public, (2,) + public.shape))
    return Obs(
        units=legality.to_relative(units),
        visible=legality.to_relative(state.seen),
        relayed=relayed_rel,
        public=public * state.active[:, None, None],
        obstacles=framed_obstacles(state.obstacles, east, config.world_frame),
        context=context(config, state),
        prev_action=history,
        class_id=state.class_id,
        self_index=jnp.asarray(np.arange(C.NUM_SLOTS) % C.TEAM_SIZE, jnp.int32),
        mask=legality.masks(state),
    )


def world_state(config: Config, state: State) -> jnp.ndarray:
    """Critic world state (A9): every unit unredacted in each agent's frame plus its context.

    Returns (10, 10 * ROW_DIM + CONTEXT_DIM) float32; for centralised critics only.
    """
    east = combat.east_slots(state.spawn_end)
    rows = jnp.broadcast_to(world_rows(config, state)[None], (C.NUM_SLOTS, C.NUM_SLOTS, ROW_DIM))
    nobody = jnp.zeros((C.NUM_SLOTS, C.NUM_SLOTS), bool)
    framed = _framed_units(config, state, rows, nobody, east) * state.active[None, :, None]
    flat = legality.to_relative(framed).reshape(C.NUM_SLOTS, -1)
    return jnp.concatenate([flat, context(config, state)], axis=1)
