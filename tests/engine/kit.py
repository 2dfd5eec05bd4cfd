"""Shared helpers for the engine tests: hand-built scenes, actions and one jitted tick.

A test builds a scene with `game(...)` (an `engine.initial_state` on the default pads and Red
Zones), moves agents and sets counters with `edit(...)`, then plays ticks with `step(...)`.
Every test goes through the same jitted `step_env`, so the suite compiles the tick once.
Positions are world map units; Team A spawns west unless a test says otherwise, so Team A's
move heads are world directions and Team B's are mirrored (its E walks towards x = 0).
"""

import jax
import jax.numpy as jnp
import numpy as np

import engine
from engine import constants as C
from engine import pool as P
from engine.types import Actions, Config

CONFIG = Config()
STEP = jax.jit(engine.step_env, static_argnums=0)
OBSERVE = jax.jit(engine.observe, static_argnums=0)
PADS = P.default_pads()  # (2 ends, 5, 2)
ZONES = P.default_red_zones()  # (2 ends, 4)
STAY, N, S, E, W, NE, NW, SE, SW = range(C.NUM_MOVES)
NOOP = (STAY, 0, 0)
TOL = 1e-4  # float32 hit points / map units after a handful of operations


def ally(k: int) -> int:
    """Target category of the actor's own team-local slot k (RULES 3.3)."""
    return 1 + k


def enemy(k: int) -> int:
    """Target category of the other team's team-local slot k (RULES 3.3)."""
    return 6 + k


def pillar(x: float, y: float, r: float) -> list[float]:
    return [C.OBSTACLE_PILLAR, x, y, r, 0.0, 0.0, 0.0, 1.0]


def wall(x: float, y: float, w: float, h: float, theta: float = 0.0) -> list[float]:
    return [C.OBSTACLE_WALL, x, y, 0.0, w, h, theta, 1.0]


def table(rows=()) -> np.ndarray:
    """Obstacle rows -> the (32, 8) float32 table, unused rows zero."""
    out = np.zeros((C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    if len(rows):
        out[: len(rows)] = np.asarray(rows, np.float32)
    return out


def game(roster: str, spawn_end: int = 0, obstacles=(), **changes):
    """Tick-0 state for a roster string such as "MW/HR", then `edit(**changes)`."""
    pads = np.concatenate([PADS[spawn_end], PADS[1 - spawn_end]])
    zones = np.stack([ZONES[spawn_end], ZONES[1 - spawn_end]])
    state = engine.initial_state(
        CONFIG, table(obstacles), pads, zones, P.parse_roster(roster), spawn_end, 0
    )
    return edit(state, **changes)


_PER_SLOT = ("pos", "health", "alive", "cooldown", "ooc", "shield")


def edit(state, status=None, has_prev=None, **changes):
    """Edit an authored state through `engine.authored_state` (derived fields recomputed,
    everything validated).

    pos/health/alive/cooldown/ooc/shield take {slot: value}; status takes {(slot, channel):
    ticks}; has_prev False drops the previous-action record (True keeps it, or zeros); any
    other authored field takes a whole value.
    """
    fields = engine.state_fields(state)
    for name, value in changes.items():
        if name in _PER_SLOT:
            new = np.array(fields[name])
            for slot, v in value.items():
                new[slot] = v
            value = new
        fields[name] = value
    if status:
        new = np.array(fields["status"])
        for (slot, channel), ticks in status.items():
            new[slot, channel] = ticks
        fields["status"] = new
    if has_prev is not None:
        prev = fields["prev_action"]
        fields["prev_action"] = (
            (np.zeros((C.NUM_SLOTS, 3)) if prev is None else prev) if has_prev else None
        )
    return engine.authored_state(CONFIG, **fields)


def actions(plan=None) -> Actions:
    """{slot: (move, target, ult)} -> Actions; missing slots play the no-op."""
    heads = np.zeros((3, C.NUM_SLOTS), np.int32)
    for slot, triple in (plan or {}).items():
        heads[:, slot] = triple
    return Actions(
        move=jnp.asarray(heads[0]), target=jnp.asarray(heads[1]), ult=jnp.asarray(heads[2])
    )


def step(state, plan=None, config: Config = CONFIG):
    """One tick: (obs, next state, reward, events); obs, reward and events on the host."""
    obs, nxt, reward, events = STEP(config, state, actions(plan))
    return jax.device_get(obs), nxt, np.asarray(reward), jax.device_get(events)


def run(state, plans):
    """Play several ticks; returns the list of states (first = input) and of events."""
    states, events = [state], []
    for plan in plans:
        _, state, _, ev = step(state, plan)
        states.append(state)
        events.append(ev)
    return states, events


def observe(state, previous=None, shared_obs: bool = True):
    """Observations of an authored state (host arrays)."""
    config = CONFIG if shared_obs else Config(shared_obs=False)
    return jax.device_get(OBSERVE(config, state, previous))


def pos(state, slot: int) -> np.ndarray:
    return np.asarray(state.pos[slot], np.float64)


def overlapping(positions, obstacles, tol: float = 1e-4) -> np.ndarray:
    """Independent float64 check (RULES 1.3): which bodies of radius 0.5 overlap an obstacle by
    more than `tol`? positions (n, 2), obstacles (32, 8) -> (n,) bool."""
    p = np.asarray(positions, np.float64)
    hit = np.zeros(len(p), bool)
    for row in np.asarray(obstacles, np.float64):
        if row[C.OBS_ACTIVE] <= 0:
            continue
        dx, dy = p[:, 0] - row[C.OBS_X], p[:, 1] - row[C.OBS_Y]
        if row[C.OBS_TYPE] == C.OBSTACLE_PILLAR:
            hit |= np.hypot(dx, dy) < row[C.OBS_RADIUS] + C.BODY_RADIUS - tol
        else:
            c, s = np.cos(row[C.OBS_THETA]), np.sin(row[C.OBS_THETA])
            lx, ly = dx * c + dy * s, -dx * s + dy * c
            hw, hh = row[C.OBS_WIDTH] / 2, row[C.OBS_HEIGHT] / 2
            gap = np.hypot(lx - np.clip(lx, -hw, hw), ly - np.clip(ly, -hh, hh))
            inside = (np.abs(lx) < hw - tol) & (np.abs(ly) < hh - tol)
            hit |= inside | (gap < C.BODY_RADIUS - tol)
    return hit


# --- Random legal rollouts (parity, symmetry, recompiles, property tests) -----------------------

TICKS = 12
_ENV = engine.Env(CONFIG, None)  # the pool is always passed explicitly
_FLAT = np.arange(C.NUM_FLAT)
# Favour combat choices (target > 0 or ult) so short games see fights, deaths and statuses.
COMBAT_BIAS = jnp.asarray(np.where(((_FLAT // 2) % C.NUM_TARGETS > 0) | (_FLAT % 2 == 1), 2.5, 0.0))


def sample_legal(key, flat_mask) -> Actions:
    """Actions drawn among legal flat indices (RULES 3.7), combat favoured: (..., 10, 198)."""
    logits = jnp.where(flat_mask, COMBAT_BIAS, -jnp.inf)
    flat = jax.random.categorical(key, logits, axis=-1).astype(jnp.int32)
    return Actions(move=flat // 22, target=(flat // 2) % C.NUM_TARGETS, ult=flat % 2)


def rollout(pool, state, key):
    """TICKS ticks of env.step (auto-reset from `pool`) with random legal actions.

    Returns a trace whose leaves have a leading axis of TICKS: `before` (the state each tick
    starts from), `actions`, `reward`, `done`, `events`, `obs` (after the tick), `after`.
    """

    def tick(carry, key):
        obs, state = carry
        k_act, k_step = jax.random.split(key)
        acts = sample_legal(k_act, obs.mask.flat)
        nobs, nxt, reward, done, info = _ENV.step(k_step, state, acts, pool)
        out = {
            "before": state,
            "actions": acts,
            "reward": reward,
            "done": done,
            "events": info["events"],
            "obs": nobs,
            "after": nxt,
            "last_tick": info["last_obs"].context[:, 0],
        }
        return (nobs, nxt), out

    obs = engine.observe(CONFIG, state)
    _, trace = jax.lax.scan(tick, (obs, state), jax.random.split(key, TICKS))
    return trace


ROLLOUT = jax.jit(rollout)


def map_game(spec, roster: str, spawn_end: int, **changes):
    """Tick-0 state on a loaded map (`engine.maps.MapSpec`), then `edit(**changes)`."""
    pads = np.concatenate([spec.pads[spawn_end], spec.pads[1 - spawn_end]])
    zones = np.stack([spec.red_zones[spawn_end], spec.red_zones[1 - spawn_end]])
    state = engine.initial_state(
        CONFIG, table(spec.obstacles), pads, zones, P.parse_roster(roster), spawn_end, spec.id
    )
    return edit(state, **changes)


def scatter(rng, obstacles, n: int, x_range=(5.0, 15.0)) -> list[tuple[float, float]]:
    """n random centres clear of every obstacle by at least 0.05 (bodies may overlap)."""
    out = []
    while len(out) < n:
        p = (rng.uniform(*x_range), rng.uniform(0.8, 9.2))
        if not overlapping([p], obstacles, tol=-0.05)[0]:
            out.append(p)
    return out


def host(tree):
    return jax.device_get(tree)


def index(tree, i):
    """Leaf-wise tree[i] (one tick of a trace)."""
    return jax.tree_util.tree_map(lambda x: x[i], tree)
