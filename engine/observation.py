"""Observations in the team frame, both information regimes, and the critic world state (RULES 5).

A unit row is built once per unit in world terms (`world_rows`) and then re-expressed for each
observer: mirrored when the observer's team spawned east, offsets and the previous target taken
relative to the observer, and zeroed unless seen or relayed.
"""

import jax.numpy as jnp

from engine import combat, legality, lifecycle, movement
from engine import constants as C
from engine.types import CONTEXT_DIM, ROW, ROW_DIM, Config, Obs, State

RELATIVE_ORDER = jnp.asarray(C.RELATIVE_ORDER)
TEAM_OF_SLOT = jnp.asarray(C.TEAM_OF_SLOT)
TARGET_SLOT = jnp.asarray(C.TARGET_SLOT)
MIRROR_MOVE = jnp.asarray(C.MIRROR_MOVE)
NUM_CLASS_COLS = C.NUM_CLASSES - 1


def _block(name: str, width: int) -> slice:
    return slice(ROW[name], ROW[name] + width)


def world_rows(config: Config, state: State) -> jnp.ndarray:
    """Observer-independent part of every unit's row, world frame: (10, ROW_DIM) float32."""
    cls = state.class_id
    max_health = jnp.asarray(C.MAX_HEALTH)[cls]
    live = legality.acting(state)
    _, _, aura_out, aura_in = combat.auras(state)
    spd = movement.speed(
        state.status, state.shield, cls, live, config.shield_speed, config.move_scale
    )
    rows = jnp.zeros((C.NUM_SLOTS, ROW_DIM), jnp.float32)
    rows = rows.at[:, ROW["x"]].set(state.pos[:, 0]).at[:, ROW["y"]].set(state.pos[:, 1])
    rows = rows.at[:, ROW["alive"]].set(state.alive)
    class_hot = (cls[:, None] == jnp.arange(1, C.NUM_CLASSES)[None, :]).astype(jnp.float32)
    rows = rows.at[:, _block("class_mage", NUM_CLASS_COLS)].set(class_hot)
    rows = rows.at[:, ROW["health"]].set(state.health).at[:, ROW["max_health"]].set(max_health)
    rows = rows.at[:, ROW["health_frac"]].set(state.health / jnp.maximum(max_health, 1.0))
    rows = rows.at[:, ROW["cooldown"]].set(state.cooldown).at[:, ROW["speed"]].set(spd)
    rows = rows.at[:, _block("status_charge_slow", C.NUM_STATUS)].set(state.status)
    rows = rows.at[:, ROW["shield"]].set(state.shield).at[:, ROW["ooc"]].set(state.ooc)
    rows = rows.at[:, ROW["aura_out"]].set(aura_out).at[:, ROW["aura_in"]].set(aura_in)
    rows = rows.at[:, ROW["in_red_zone"]].set(lifecycle.in_red_zone(state))
    return rows


def _previous_action(state: State, observer_east):
    """One-hot previous accepted actions in each observer's frame: (10 obs, 10 units, 22)."""
    move = state.prev_action[:, 0]
    framed_move = jnp.where(observer_east[:, None], MIRROR_MOVE[move][None, :], move[None, :])
    move_hot = framed_move[..., None] == jnp.arange(C.NUM_MOVES)
    recipient = TARGET_SLOT[jnp.arange(C.NUM_SLOTS), state.prev_action[:, 1]]  # (10,)
    same = TEAM_OF_SLOT[:, None] == TEAM_OF_SLOT[jnp.clip(recipient, 0)][None, :]
    category = jnp.where(same, 1, 6) + jnp.clip(recipient, 0)[None, :] % C.TEAM_SIZE
    category = jnp.where(recipient[None, :] < 0, 0, category)
    target_hot = category[..., None] == jnp.arange(C.NUM_TARGETS)
    ult = state.prev_action[:, 2]
    lane = jnp.stack([(state.prev_action[:, 1] > 0) & (ult == 0), ult == 1], -1)
    lane = jnp.broadcast_to(lane[None], (C.NUM_SLOTS, C.NUM_SLOTS, 2))
    hot = jnp.concatenate([move_hot, target_hot, lane], -1).astype(jnp.float32)
    return hot * state.has_prev


def relay(config: Config, state: State, previous: State | None) -> jnp.ndarray:
    """Rows each observer gets from teammates' last-tick sightings (A8): (10, 10) bool by slot."""
    if previous is None or not config.shared_obs:
        return jnp.zeros((C.NUM_SLOTS, C.NUM_SLOTS), bool)
    live = legality.acting(state)
    mates = (TEAM_OF_SLOT[:, None] == TEAM_OF_SLOT[None, :]) & ~jnp.eye(C.NUM_SLOTS, dtype=bool)
    sources = mates & live[None, :]  # [observer, teammate]
    heard = jnp.any(sources[:, :, None] & previous.seen[None, :, :], axis=1)
    return heard & ~state.seen & live[:, None] & state.has_prev


def _frame(rows, observer_pos, east, world_frame: bool):
    """Mirror world rows into each observer's frame and add offsets: (10, 10, ROW_DIM)."""
    x = rows[..., ROW["x"]]
    ox = observer_pos[:, 0][:, None]
    if not world_frame:
        x = jnp.where(east[:, None], C.MAP_WIDTH - x, x)
        ox = jnp.where(east[:, None], C.MAP_WIDTH - ox, ox)
    dx, dy = x - ox, rows[..., ROW["y"]] - observer_pos[:, 1][:, None]
    rows = rows.at[..., ROW["x"]].set(x).at[..., ROW["dx"]].set(dx).at[..., ROW["dy"]].set(dy)
    return rows.at[..., ROW["distance"]].set(jnp.sqrt(dx * dx + dy * dy))


def framed_obstacles(obstacles, east, world_frame: bool):
    """The obstacle table seen by each observer: (10, 32, 8), x mirrored and theta negated east."""
    mirrored = obstacles.at[:, C.OBS_X].set(C.MAP_WIDTH - obstacles[:, C.OBS_X])
    mirrored = mirrored.at[:, C.OBS_THETA].set(-obstacles[:, C.OBS_THETA])
    mirrored = jnp.where(obstacles[:, C.OBS_ACTIVE, None] > 0, mirrored, obstacles)
    use = east & (not world_frame)
    return jnp.where(use[:, None, None], mirrored[None], obstacles[None])


def context(config: Config, state: State) -> jnp.ndarray:
    """Per-observer context features (types.CONTEXT_FEATURES): (10, CONTEXT_DIM) float32."""
    team = TEAM_OF_SLOT
    size = jnp.stack([state.active[:5].sum(), state.active[5:].sum()])
    alive = legality.acting(state)
    alive_count = jnp.stack([alive[:5].sum(), alive[5:].sum()])
    cols = [
        jnp.full(10, state.tick),
        jnp.full(10, config.horizon - state.tick),
        state.score[team],
        state.score[1 - team],
        jnp.full(10, config.score_threshold),
        size[team],
        size[1 - team],
        alive_count[team],
        alive_count[1 - team],
        state.wave_clock[team],
        state.wave_clock[1 - team],
        jnp.full(10, float(config.shared_obs)),
    ]
    ctx = jnp.stack([c.astype(jnp.float32) for c in cols], axis=1)
    assert ctx.shape[1] == CONTEXT_DIM
    return ctx * state.active[:, None]


def observe(config: Config, state: State, previous: State | None = None) -> Obs:
    """Every slot's observation of `state` (RULES 5); `previous` feeds the shared_obs relay."""
    east = combat.east_slots(state.spawn_end)
    rows = world_rows(config, state)
    relayed = relay(config, state, previous)
    source = (
        rows
        if previous is None
        else jnp.where(relayed[..., None], world_rows(config, previous)[None], rows[None])
    )
    source = jnp.broadcast_to(source, (C.NUM_SLOTS, C.NUM_SLOTS, ROW_DIM))
    framed = _frame(source, state.pos, east, config.world_frame)
    slots = jnp.arange(C.NUM_SLOTS)
    framed = framed.at[..., ROW["is_self"]].set(slots[:, None] == slots[None, :])
    framed = framed.at[..., ROW["is_ally"]].set(TEAM_OF_SLOT[:, None] == TEAM_OF_SLOT[None, :])
    framed = framed.at[..., ROW["relayed"]].set(relayed)
    framed = framed.at[..., _block("prev_move_Stay", 22)].set(_previous_action(state, east))
    shown = state.seen | relayed
    framed = jnp.where(shown[..., None], framed, 0.0)
    order = RELATIVE_ORDER
    public = jnp.stack([state.active, state.alive, state.shield], -1).astype(jnp.float32)
    return Obs(
        units=jnp.take_along_axis(framed, order[..., None], axis=1),
        visible=jnp.take_along_axis(state.seen, order, axis=1),
        relayed=jnp.take_along_axis(relayed, order, axis=1),
        public=public[order] * state.active[:, None, None],
        obstacles=framed_obstacles(state.obstacles, east, config.world_frame),
        context=context(config, state),
        class_id=state.class_id,
        self_index=(slots % C.TEAM_SIZE).astype(jnp.int32),
        mask=legality.masks(state),
    )


def world_state(config: Config, state: State) -> jnp.ndarray:
    """Critic world state (A9): every unit unredacted in each agent's frame plus its context.

    Returns (10, 10 * ROW_DIM + CONTEXT_DIM) float32; for centralised critics only.
    """
    east = combat.east_slots(state.spawn_end)
    rows = jnp.broadcast_to(world_rows(config, state), (C.NUM_SLOTS, C.NUM_SLOTS, ROW_DIM))
    framed = _frame(rows, state.pos, east, config.world_frame)
    framed = framed * state.active[None, :, None]
    framed = jnp.take_along_axis(framed, RELATIVE_ORDER[..., None], axis=1)
    flat = framed.reshape(C.NUM_SLOTS, -1)
    return jnp.concatenate([flat, context(config, state)], axis=1)
