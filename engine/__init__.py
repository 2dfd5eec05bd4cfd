"""MARL-BattleGrounds Team Deathmatch engine, pure JAX (RULES.md is the rule book).

Public API (JaxMARL style; every function is pure and works under jit, vmap and lax.scan)::

    env = engine.make(maps="train", rosters=["MWHRP"], p_east=0.5, shared_obs=True)
    obs, state = env.reset(key)                       # Obs (with .mask), State
    obs, state, reward, done, info = env.step(key, state, actions)
    # reward (10,) float32, done () bool; info: terminated, truncated, outcome,
    # events (Events of the finished tick), last_obs (observation before auto-reset)

    obs, state, reward, events = engine.step_env(config, state, actions)   # no auto-reset
    obs = engine.observe(config, state)
    actions = engine.random_legal_actions(key, obs.mask)  # uniform among each head's legal values

    state = engine.authored_state(config, obstacles=..., pads=..., red_zones=..., class_id=...,
                                  spawn_end=0, pos=..., health=..., status=...)  # a mid-game start
    fields = engine.state_fields(state)               # plain lists, float32-exact; the inverse

    stepper = engine.HostStepper(env)                 # one game from a Python loop, env.step's
    stepper.reset(key); out = stepper.step(key, actions)  # results with its outputs packed:
    out.obs, out.reward, out.done, out.info, stepper.state  # NumPy views, read when used

`env.pool` holds the maps, rosters and spawn ends that auto-reset draws from, as arrays; pass a
different `pool=` to reset/step to change them without recompiling.

The names below load lazily, so `engine.constants` and `engine.maps` can be used by programs
that never import JAX (the Replay Viewer, the metrics).
"""

import importlib

_EXPORTS = {
    "authored_state": "engine.authored",
    "state_fields": "engine.authored",
    "Env": "engine.env",
    "HostStepper": "engine.host",
    "draw_state": "engine.env",
    "initial_state": "engine.env",
    "make": "engine.env",
    "step_env": "engine.env",
    "observe": "engine.observation",
    "pick_legal": "engine.sampling",
    "random_legal_actions": "engine.sampling",
    "world_state": "engine.observation",
    "check_state": "engine.validation",
    "StateProblems": "engine.validation",
    "Actions": "engine.types",
    "Config": "engine.types",
    "Events": "engine.types",
    "Masks": "engine.types",
    "Obs": "engine.types",
    "Pool": "engine.types",
    "State": "engine.types",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    import jax

    # The first access may happen inside a jit trace; the modules' constant tables must still
    # be concrete arrays, not tracers of that trace.
    with jax.ensure_compile_time_eval():
        module = importlib.import_module(_EXPORTS[name])
    return getattr(module, name)
