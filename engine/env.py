"""The public engine API: `make`, `Env.reset`, `Env.step` with auto-reset, `step_env` (RULES 4)."""

import jax
import jax.numpy as jnp

from engine import combat, geometry, legality, lifecycle, movement, observation, validation
from engine import constants as C
from engine.types import Actions, Config, Events, Obs, Pool, State

MOVE_VECTORS = jnp.asarray(C.MOVE_VECTORS)
MIRROR_MOVE = jnp.asarray(C.MIRROR_MOVE)
MAX_HEALTH = jnp.asarray(C.MAX_HEALTH)


def initial_state(
    config: Config,
    obstacles,
    pads,
    red_zones,
    roster,
    spawn_end,
    map_id,
    sighted: bool = True,
) -> State:
    """A game at tick 0 (RULES 4.4): everyone on its pad at full health, Ultimates ready.

    obstacles (32, 8), pads (10, 2) each slot's own pad, red_zones (2, 4) by team,
    roster (10,) int32 class ids (0 = empty slot), spawn_end () int32 (0 = Team A west).
    Concrete (untraced) inputs are checked first: ValueError names the field, slot and value.
    """
    if validation.is_concrete(obstacles, pads, red_zones, roster, spawn_end):
        validation.check_layout(obstacles, pads, red_zones, roster, spawn_end)
    obstacles = jnp.asarray(obstacles, jnp.float32)
    roster = jnp.asarray(roster, jnp.int32)
    active = roster > 0
    zeros = jnp.zeros(C.NUM_SLOTS, jnp.int32)
    state = State(
        map_id=jnp.asarray(map_id, jnp.int32),
        obstacles=obstacles,
        pads=jnp.asarray(pads, jnp.float32),
        red_zones=jnp.asarray(red_zones, jnp.float32),
        spawn_end=jnp.asarray(spawn_end, jnp.int32),
        class_id=roster,
        active=active,
        pos=jnp.where(active[:, None], jnp.asarray(pads, jnp.float32), 0.0),
        health=MAX_HEALTH[roster],
        alive=active,
        cooldown=zeros,
        status=jnp.zeros((C.NUM_SLOTS, C.NUM_STATUS), jnp.int32),
        shield=zeros,
        ooc=zeros,
        wave_clock=jnp.full(2, config.wave_period - 1, jnp.int32),
        score=jnp.zeros(2, jnp.int32),
        tick=jnp.int32(0),
        outcome=jnp.int32(C.ONGOING),
        prev_action=jnp.zeros((C.NUM_SLOTS, 3), jnp.int32),
        has_prev=jnp.bool_(False),
        seen=jnp.zeros((C.NUM_SLOTS, C.NUM_SLOTS), bool),
    )
    return state.replace(seen=legality.visibility(state)) if sighted else state


def draw_state(config: Config, pool: Pool, key: jax.Array, sighted: bool = True) -> State:
    """Draw a map, roster and spawn end from the pool and set up tick 0 (RULES A10, A11).

    `sighted=False` leaves `seen` empty for a caller that computes it later.
    """
    k_map, k_roster, k_end = jax.random.split(key, 3)
    m = jax.random.randint(k_map, (), 0, pool.num_maps)
    r = jax.random.randint(k_roster, (), 0, pool.num_rosters)
    spawn_end = jax.random.bernoulli(k_end, pool.p_east).astype(jnp.int32)
    pads = jnp.concatenate([pool.pads[m, spawn_end], pool.pads[m, 1 - spawn_end]])
    zones = jnp.stack([pool.red_zones[m, spawn_end], pool.red_zones[m, 1 - spawn_end]])
    return initial_state(
        config,
        pool.obstacles[m],
        pads,
        zones,
        pool.rosters[r],
        spawn_end,
        pool.map_ids[m],
        sighted,
    )


def _move(config: Config, state: State, accepted, lane, recipient):
    """Charge phase then ordinary movement; returns (pos, charge_move, move) (RULES 4, 8-10)."""
    live = legality.acting(state)
    radius = jnp.where(state.active, C.BODY_RADIUS, 0.0)
    east = combat.east_slots(state.spawn_end) & (not config.world_frame)
    world_move = jnp.where(east, MIRROR_MOVE[accepted[:, 0]], accepted[:, 0])
    spd = movement.speed(
        state.status, state.shield, state.class_id, live, config.shield_speed, config.move_scale
    )
    charging = (lane == combat.LANE_ULT) & (state.class_id == C.WARRIOR)
    near = geometry.obstacle_index(state.obstacles)
    charged = movement.charge_phase(
        state.pos, charging, recipient, live, live & (state.shield == 0), near, radius
    )
    pos = movement.ordinary_move(
        charged, MOVE_VECTORS[world_move], spd, live, state.shield, near, radius
    )
    return pos, charged - state.pos, pos - charged, world_move


def step_env(config: Config, state: State, actions: Actions):
    """Advance one game by one tick, without auto-reset (RULES 4).

    actions: team-frame heads, each (10,) int32. Returns (obs: Obs, state: State,
    reward (10,) float32, events: Events). Never raises inside jit; bad actions become no-ops.
    """
    stepped, reward, events = advance(config, state, actions)
    stepped = stepped.replace(seen=legality.visibility(stepped))
    return observation.observe(config, stepped, previous=state), stepped, reward, events


def _act(config: Config, state: State, actions: Actions):
    """RULES 4 steps 1-10: accept and route the actions, auras, combat, regeneration,
    cooldowns, Charge and movement. Returns (the new pos, health and cooldown and the world
    moves, a dict of the tick's Events fields so far)."""
    mask = legality.masks(state)
    submitted = jnp.stack([actions.move, actions.target, actions.ult], 1).astype(jnp.int32)
    accepted, rejected = combat.accept(actions, mask)
    lane, recipient = combat.route(accepted)
    mage_cover, warrior_cover, aura_out, aura_in = combat.auras(state)
    fight = combat.combat(state, lane, recipient, aura_out, aura_in)
    participant = combat.participants(state, fight["damage_raw"], fight["heal_raw"])
    health, regen = combat.regenerate(state, fight["health"], participant)
    cooldown, cd_started, cd_ready = combat.cooldowns(state, lane)
    pos, charge_move, move, world_move = _move(config, state, accepted, lane, recipient)
    new = {"pos": pos, "health": health, "cooldown": cooldown, "world_move": world_move}
    events = dict(
        submitted=submitted,
        accepted=accepted,
        rejected=rejected,
        lane=lane,
        recipient=recipient,
        aura_out=aura_out,
        aura_in=aura_in,
        mage_cover=mage_cover,
        warrior_cover=warrior_cover,
        **{k: v for k, v in fight.items() if k != "health"},
        regen=regen,
        ooc_reset=participant,
        cooldown_started=cd_started,
        cooldown_ready=cd_ready,
        charge_move=charge_move,
        move=move,
    )
    return new, events


def _settle(state: State, new: dict, events: dict):
    """RULES 4 steps 11-14: deaths, out-of-combat countdowns, statuses and spawn shields.
    Returns (the state with them, `events` with the deaths' and statuses' fields added)."""
    health = new["health"]
    died = state.alive & state.active & (health == 0)
    red_zone_death = died & lifecycle.in_red_zone(state)
    alive = state.alive & ~died
    hurt = jnp.any(events["damage_raw"] > 0, axis=0)
    fresh = lifecycle.fresh_statuses(state, events["lane"], events["recipient"])
    status, status_events = lifecycle.statuses(state, fresh, hurt, died)
    shield = jnp.where(alive, jnp.maximum(state.shield - 1, 0), 0).astype(jnp.int32)
    stepped = state.replace(
        pos=new["pos"],
        health=health,
        alive=alive,
        cooldown=new["cooldown"],
        status=status,
        shield=shield,
        ooc=lifecycle.ooc_countdown(state, events["ooc_reset"], alive),
    )
    events = events | dict(
        died=died,
        red_zone_death=red_zone_death,
        lethal=died[None, :] & (events["damage_recipient"] > 0),
        **status_events,
        shield_expired=(state.shield > 0) & (shield == 0) & alive,
    )
    return stepped, events


def advance(config: Config, state: State, actions: Actions):
    """The rules of one tick: (state with `seen` still stale, reward (10,), events)."""
    new, events = _act(config, state, actions)
    stepped, events = _settle(state, new, events)
    # RULES 4 steps 15-18: respawn waves, score, bookkeeping, outcome
    stepped, respawned, wave = lifecycle.respawn(config, stepped, state.alive)
    delta = lifecycle.score_delta(events["died"], events["red_zone_death"])
    score = state.score + delta
    code, terminated, truncated = lifecycle.outcome(config, score, state.tick + 1)
    history = events["accepted"].at[:, 0].set(new["world_move"])
    stepped = stepped.replace(
        score=score, tick=state.tick + 1, outcome=code, prev_action=history, has_prev=True
    )
    events = Events(
        **events,
        fallback=jnp.zeros(C.NUM_SLOTS, bool),
        respawned=respawned,
        wave=wave,
        score_delta=delta,
        outcome=code,
        terminated=terminated,
        truncated=truncated,
    )
    return stepped, lifecycle.reward(stepped, code), events


def _select(done, a, b):
    return jax.tree_util.tree_map(lambda x, y: jnp.where(done, x, y), a, b)


class Env:
    """A Team Deathmatch environment: static `config` plus the auto-reset `pool` (RULES A10)."""

    def __init__(self, config: Config, pool: Pool, keep_last_obs: bool = True):
        self.config = config
        self.pool = pool
        # The pre-reset observation costs a second observation pass every tick; learners that
        # bootstrap only from non-final states can switch it off.
        self.keep_last_obs = keep_last_obs

    def reset(self, key: jax.Array, pool: Pool | None = None) -> tuple[Obs, State]:
        """Draw a fresh game from the pool: (obs, state)."""
        state = draw_state(self.config, self.pool if pool is None else pool, key)
        return observation.observe(self.config, state), state

    def step(
        self,
        key: jax.Array,
        state: State,
        actions: Actions,
        pool: Pool | None = None,
        restart: State | None = None,
    ):
        """One tick with auto-reset: (obs, state, reward (10,), done (), info).

        A finished game restarts from a game drawn from the pool, or from `restart` when given
        (an authored scenario, RULES A10).

        info holds terminated, truncated, outcome, events (the finished tick) and, unless
        `keep_last_obs` is off, last_obs (the observation of the stepped state before reset).
        """
        stepped, reward, events = advance(self.config, state, actions)
        done = events.terminated | events.truncated
        fresh = restart
        if fresh is None:
            fresh = draw_state(self.config, self.pool if pool is None else pool, key, sighted=False)
        info = {
            "terminated": events.terminated,
            "truncated": events.truncated,
            "outcome": events.outcome,
            "events": events,
        }
        if self.keep_last_obs:
            stepped = stepped.replace(seen=legality.visibility(stepped))
            info["last_obs"] = observation.observe(self.config, stepped, previous=state)
        nxt = _select(done, fresh, stepped)
        nxt = nxt.replace(seen=legality.visibility(nxt))
        # A fresh game has has_prev False, so `previous` relays nothing into it.
        return observation.observe(self.config, nxt, previous=state), nxt, reward, done, info

    def observe(self, state: State, previous: State | None = None) -> Obs:
        """Observations of any state (e.g. an authored scenario)."""
        return observation.observe(self.config, state, previous)

    def world_state(self, state: State) -> jnp.ndarray:
        """Critic world state (A9): (10, 10 * ROW_DIM + CONTEXT_DIM) float32."""
        return observation.world_state(self.config, state)


def make(
    maps="train",
    rosters=("MWHRP/MWHRP",),
    p_east: float = 0.5,
    **config,
) -> Env:
    """Build an `Env`. maps: a split name, a map id or a list of ids (engine.maps);
    rosters: roster strings such as "MWHRP/MWHRP" or (10,) class-id arrays; p_east: chance
    that Team A spawns east; config: `Config` fields. Raises ValueError on bad values.
    """
    from engine import maps as map_files  # the map loader reads files; keep it off the hot path

    return Env(Config(**config), map_files.make_pool(maps=maps, rosters=rosters, p_east=p_east))
