"""MARL-BattleGrounds Team Deathmatch engine, pure JAX (RULES.md is the rule book).

Public API (JaxMARL style; every function is pure and works under jit, vmap and lax.scan)::

    env = engine.make(maps="train", rosters=["MWHRP"], p_east=0.5, shared_obs=True)
    obs, state = env.reset(key)                       # Obs (with .mask), State
    obs, state, reward, done, info = env.step(key, state, actions)
    # reward (10,) float32, done () bool; info: terminated, truncated, outcome,
    # events (Events of the finished tick), last_obs (observation before auto-reset)

    obs, state, reward, events = engine.step_env(config, state, actions)   # no auto-reset
    obs = engine.observe(config, state)

`env.pool` holds the maps, rosters and spawn ends that auto-reset draws from, as arrays; pass a
different `pool=` to reset/step to change them without recompiling.
"""

from engine.env import Env, draw_state, initial_state, make, step_env
from engine.observation import observe, world_state
from engine.types import Actions, Config, Events, Masks, Obs, Pool, State

__all__ = [
    "Actions",
    "Config",
    "Env",
    "Events",
    "Masks",
    "Obs",
    "Pool",
    "State",
    "draw_state",
    "initial_state",
    "make",
    "observe",
    "step_env",
    "world_state",
]
