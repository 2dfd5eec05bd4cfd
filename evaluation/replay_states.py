"""The engine State of any tick of a replay, rebuilt by re-simulating it (branching a game).

`state_at_tick` steps the replay's submitted actions from its checked tick-0 state with the
jitted engine step that `evaluation.record.first_difference` (replay verification) uses, and
refuses a replay whose re-simulated state differs from the recorded one: a game played on from
that state is then the same game as the one recorded, up to that tick (RULES 0: the engine is
deterministic).
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
from evaluation.replay_verify import rules_problem


def tick_range(replay: Replay) -> tuple[int, int]:
    """(first, last) tick numbers of the states a replay holds (states["tick"]; a scenario or a
    branched game starts after tick 0)."""
    ticks = np.asarray(replay.states["tick"])
    return int(ticks[0]), int(ticks[-1])


def state_at_tick(replay: Replay, tick: int) -> State:
    """The engine State at tick `tick` (a tick number as states["tick"] counts them, so the
    state the replay's tick `tick` starts from), re-simulated from the replay's tick-0 state
    and submitted actions (events["submitted"], (T, 10, 3) int32 team-frame heads).

    Raises ValueError for a replay recorded under other rules (replay_verify.rules_problem),
    naming the replay's tick range when `tick` is outside it, naming the
    field when the tick-0 state does not check out (evaluation.record.initial_state), and
    naming the first differing field when the re-simulation does not reproduce the recorded
    state (a replay from other rules or a corrupted one)."""
    problem = rules_problem(replay.header)
    if problem:
        raise ValueError(f"replay: {problem}")
    first, last = tick_range(replay)
    whole = isinstance(tick, int | np.integer) and not isinstance(tick, bool)
    if not whole or not first <= tick <= last:
        raise ValueError(f"replay: tick {tick!r} is outside its ticks {first}-{last}")
    state = initial_state(replay)
    step = jit_step(replay_config(replay.header))
    submitted = np.asarray(replay.events["submitted"], np.int32)
    fallback = np.zeros(C.NUM_SLOTS, bool)
    for t in range(int(tick) - first):
        heads = submitted[t]
        actions = Actions(move=heads[:, 0], target=heads[:, 1], ult=heads[:, 2])
        _, state, _ = step(state, actions, fallback)
    _check_recorded(jax.device_get(state), replay, int(tick) - first)
    return state


def _check_recorded(state: State, replay: Replay, index: int) -> None:
    """Raises ValueError when the re-simulated `state` differs from replay.states[index]."""
    for field in dataclasses.fields(State):
        name = field.name
        if name in DERIVED_STATE_FIELDS:
            continue
        recorded = np.asarray(replay.states[name][index])
        if not np.array_equal(np.asarray(getattr(state, name)), recorded):
            tick = int(np.asarray(replay.states["tick"][index]))
            raise ValueError(
                f"replay: re-simulating to tick {tick} gives another states.{name} than the "
                "recorded one (other rules or a damaged file; `mbg replay verify` says more)"
            )
