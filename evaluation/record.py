"""The recorder: play games into `evaluation.replay.Replay` objects, and re-simulate replays.

A game is played with `engine.step_env` (no auto-reset, see evaluation.match); every tick's
State, Events (submitted and accepted actions, the fallback flags, everything that happened) and
what each agent saw (`visible`, `relayed` as [observer slot, seen slot]) are kept as NumPy.
`verify_replay` feeds the SUBMITTED actions back through the engine from the recorded tick-0
state and compares every later state and event bit for bit.
"""

import dataclasses
import datetime

import jax
import numpy as np

from engine import constants as C
from engine.types import Actions, Config, State
from evaluation.match import GameSetup, jit_step, play_match
from evaluation.replay import FORMAT_VERSION, Replay
from evaluation.replay_schema import DERIVED_STATE_FIELDS
from evaluation.replay_verify import provenance, rules_version
from policies.system import Lineup


def build_header(
    config: Config,
    setup: GameSetup,
    specs,
    result: dict,
    first: dict,
    *,
    metrics_level: str = "none",
    seeds: dict | None = None,
) -> dict:
    """The replay header of one finished game (fields: evaluation/replay_schema.py HEADER_FIELDS).

    specs: 10 System spec strings ("" for empty slots); result: a row of match.result_row;
    first: the tick-0 state (field -> array), source of the obstacles, Red Zones and roster.
    The full engine Config is kept under "config" so a replay re-simulates with the same rules.
    """
    spec = setup.map
    roster = [int(c) for c in np.asarray(first["class_id"])]
    return {
        "format_version": FORMAT_VERSION,
        "rules_version": rules_version(),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "map": {
            "id": int(spec.id),
            "name": str(spec.name),
            "split": str(spec.split),
            "obstacles": np.asarray(first["obstacles"], np.float32).tolist(),
            "red_zones": np.asarray(first["red_zones"], np.float32).tolist(),
        },
        "roster": roster,
        "team_sizes": [sum(roster[s] > 0 for s in slots) for slots in C.TEAM_SLOTS],
        "systems": [str(s) if roster[i] else "" for i, s in enumerate(specs)],
        "info_regime": "shared_obs" if config.shared_obs else "no_shared_obs",
        "seeds": dict(seeds or {}, game=int(setup.seed), index=int(setup.index)),
        "spawn_end": int(first["spawn_end"]),
        "score_threshold": int(config.score_threshold),
        "horizon": int(config.horizon),
        "result": {
            "outcome": int(result["outcome"]),
            "outcome_name": C.OUTCOME_NAMES[int(result["outcome"])],
            "score": [int(result["score_a"]), int(result["score_b"])],
            "ticks": int(result["ticks"]) - int(first["tick"]),  # transitions recorded
        },
        "metrics_level": metrics_level,
        "config": dataclasses.asdict(config),
        "provenance": provenance(),
    }


def build_replay(
    config: Config, setup: GameSetup, specs, result: dict, trace: dict, **header_args
) -> Replay:
    """A Replay from one game's trace (evaluation.match.game_trace) and result row."""
    first = {name: values[0] for name, values in trace["states"].items()}
    header = build_header(config, setup, specs, result, first, **header_args)
    return Replay(
        header=header,
        states=trace["states"],
        events=trace["events"],
        visible=trace["visible"],
        relayed=trace["relayed"],
        decisions=trace.get("decisions"),
    )


def record_games(
    lineup: Lineup,
    setups,
    config: Config | None = None,
    *,
    on_replay=None,
    metrics_level: str = "none",
    seeds: dict | None = None,
    mode: str = "auto",
    batch: int | None = None,
    host_workers: int = 1,
):
    """Play `setups` and build a Replay of each game (mode, batch, host_workers: see
    match.play_match).

    on_replay(setup, row, replay) is called as each game finishes (write it, add metrics);
    without it the replays are returned in a list. Returns (results DataFrame, replays).
    """
    config = config or Config()
    kept: list[Replay] = []

    def on_game(setup, row, trace):
        replay = build_replay(
            config, setup, lineup.specs, row, trace, metrics_level=metrics_level, seeds=seeds
        )
        if on_replay is None:
            kept.append(replay)
        else:
            on_replay(setup, row, replay)

    results = play_match(
        lineup,
        setups,
        config,
        record=True,
        mode=mode,
        batch=batch,
        on_game=on_game,
        host_workers=host_workers,
    )
    return results, kept


def replay_config(header: dict) -> Config:
    """The engine Config a replay was played with (header "config", else threshold, horizon
    and information regime over the defaults). Raises ValueError on bad values."""
    fields = {f.name for f in dataclasses.fields(Config)}
    stored = {k: v for k, v in (header.get("config") or {}).items() if k in fields}
    stored.setdefault("score_threshold", header["score_threshold"])
    stored.setdefault("horizon", header["horizon"])
    stored.setdefault("shared_obs", header["info_regime"] == "shared_obs")
    return Config(**stored)


def initial_state(replay: Replay) -> State:
    """The replay's recorded tick-0 State, rebuilt and checked by `engine.authored_state`;
    the stored derived fields (active, seen, has_prev, outcome) must agree with the rebuilt
    ones. Raises ValueError naming the field."""
    import engine
    from engine.authored import AUTHORED_FIELDS

    for field in dataclasses.fields(State):
        if field.name not in DERIVED_STATE_FIELDS and field.name not in replay.states:
            raise ValueError(f"replay: states.{field.name} is missing; cannot re-simulate")
    first = {name: np.asarray(values[0]) for name, values in replay.states.items()}
    fields = {name: first[name] for name in AUTHORED_FIELDS}
    if not bool(first["has_prev"]):
        fields["prev_action"] = None
    try:
        state = engine.authored_state(replay_config(replay.header), **fields)
    except ValueError as error:
        raise ValueError(f"replay: states[0].{error}") from None
    for name in ("active", "seen", "has_prev", "outcome"):
        if not np.array_equal(np.asarray(getattr(state, name)), first[name]):
            raise ValueError(f"replay: states[0].{name} disagrees with the rest of the state")
    return state


def state_at(replay: Replay, index: int) -> State:
    """The engine State recorded at index `index` (0..T) of `replay`; tick 0 is checked as
    `initial_state` checks it, later states are the engine's own output and are taken as
    recorded (derived fields rebuilt). Raises ValueError for a missing field or an index
    outside the replay."""
    if not 0 <= index <= replay.ticks:
        raise ValueError(f"replay: tick index {index} is outside 0-{replay.ticks}")
    if index == 0:
        return initial_state(replay)
    import jax.numpy as jnp

    values = {}
    for field in dataclasses.fields(State):
        if field.name in DERIVED_STATE_FIELDS:
            continue
        if field.name not in replay.states:
            raise ValueError(f"replay: states.{field.name} is missing")
        values[field.name] = jnp.asarray(np.asarray(replay.states[field.name][index]))
    return State(**values)


def first_difference(replay: Replay) -> tuple[int, str] | None:
    """Re-simulate `replay`; (first tick whose state or events differ, field name) or None.

    The tick is the index of the first differing state (1..T); a difference in events[t]
    counts as tick t + 1. Each tick is stepped with the jitted engine step that host-stepped
    matches use, so verifying after playing compiles nothing new.
    """
    config = replay_config(replay.header)
    step = jit_step(config)
    state = initial_state(replay)
    submitted = np.asarray(replay.events["submitted"], np.int32)
    fallback = np.zeros(C.NUM_SLOTS, bool)
    for t in range(replay.ticks):
        action = submitted[t]
        actions = Actions(move=action[:, 0], target=action[:, 1], ult=action[:, 2])
        _, state, events = step(state, actions, fallback)
        fresh = jax.device_get((state, events))
        checks = (
            ("states", vars(fresh[0]), replay.states, t + 1),
            ("events", vars(fresh[1]), replay.events, t),
        )
        for group, values, stored, index in checks:
            for name, value in values.items():
                # fallback is set by the caller, derived fields are not stored
                if name == "fallback" or name in DERIVED_STATE_FIELDS:
                    continue
                if not np.array_equal(np.asarray(value), np.asarray(stored[name][index])):
                    return t + 1, f"{group}.{name}"
    return None


def verify_replay(replay: Replay) -> int | None:
    """Re-simulate from the recorded tick-0 state and submitted actions: the first tick whose
    state differs from the recording, or None when every tick matches."""
    found = first_difference(replay)
    return None if found is None else found[0]
