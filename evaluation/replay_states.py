"""The engine State at any tick of a replay, re-simulated (branching: "Play on from here").

A branch must start from the state the engine itself reaches, not from a recording that might
have been edited: `state_at_tick` steps the replay's SUBMITTED actions from its checked tick-0
state (`evaluation.record.initial_state`) with the same jitted step that host-stepped matches
and `mbg replay verify` use (`evaluation.match.jit_step`), then holds the result against the
recorded state of that tick, field by field (RULES 0: the engine is deterministic, so a replay
that re-simulates gives the same state bit for bit).
"""

import dataclasses

import jax
import numpy as np

from engine import constants as C
from engine.types import Actions, State
from evaluation.match import jit_step
from evaluation.record import initial_state, replay_config
from evaluation.replay import Replay
from evaluation.replay_schema import DERIVED_STATE_FIELDS


def _actions(submitted: np.ndarray) -> Actions:
    """(10, 3) int32 team-frame [move, target, ult] rows as engine Actions."""
    return Actions(move=submitted[:, 0], target=submitted[:, 1], ult=submitted[:, 2])


def recorded_difference(state: State, replay: Replay, tick: int) -> str | None:
    """The first stored State field (non-derived, replay_schema.DERIVED_STATE_FIELDS) in which
    `state` differs from `replay.states[...][tick]`, or None when every one is equal."""
    for field in dataclasses.fields(State):
        name = field.name
        if name in DERIVED_STATE_FIELDS or name not in replay.states:
            continue
        value = np.asarray(jax.device_get(getattr(state, name)))
        if not np.array_equal(value, np.asarray(replay.states[name][tick])):
            return name
    return None


def state_at_tick(replay: Replay, tick: int) -> State:
    """The engine State at replay index `tick` (0..replay.ticks; states[tick]), re-simulated.

    Steps the submitted actions events["submitted"][0:tick] ((T, 10, 3) int32) from the checked
    tick-0 state under the replay's own Config (record.replay_config). Raises ValueError when
    `tick` is outside 0..T (naming the range), when the tick-0 state does not check out
    (record.initial_state names the field), or when the re-simulated state differs from the
    recorded one at `tick` (naming the field): such a replay cannot be branched from.
    """
    tick = int(tick)
    if not 0 <= tick <= replay.ticks:
        raise ValueError(f"replay: tick {tick} is outside 0-{replay.ticks}")
    state = initial_state(replay)
    if tick:
        step = jit_step(replay_config(replay.header))
        submitted = np.asarray(replay.events["submitted"], np.int32)
        no_fallback = np.zeros(C.NUM_SLOTS, bool)  # fallback only marks events (record.py)
        for t in range(tick):
            _, state, _ = step(state, _actions(submitted[t]), no_fallback)
    found = recorded_difference(state, replay, tick)
    if found is not None:
        raise ValueError(
            f"replay: states.{found} at tick {tick} differs from the re-simulated game; "
            "the replay does not re-simulate (mbg replay verify says where it first differs)"
        )
    return state
