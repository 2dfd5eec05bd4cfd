"""Headless matches: N games between any slot -> System lineup, with per-game results.

When every System is JAX the games run as one jitted, vmapped batch (`lax.while_loop`, or
`lax.scan` over the horizon when recording); with a host System in the lineup each game is
stepped from the host (JAX Systems and the engine still jitted). Both paths give the same games:
a game's keys depend only on its seed, the tick and the System's index, never on the path.

Games run with `engine.step_env` (no auto-reset) until the outcome is decided (RULES 4.3).
"""

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import polars as pl

import engine
from engine import constants as C
from engine.pool import game_layout, roster_text
from engine.types import Config, Obs, State
from evaluation.replay_schema import DERIVED_STATE_FIELDS, LAYOUT_FIELDS
from evaluation.schedule import (  # noqa: F401  (re-exported: callers import them from here)
    RANDOM_ROSTER,
    GameSetup,
    load_maps,
    played_roster_count,
    roster_list,
    schedule,
    unplayed_rosters_note,
)
from policies.system import Lineup, as_actions, merge_actions, to_host

LAYOUT = LAYOUT_FIELDS + DERIVED_STATE_FIELDS  # fixed for a game: kept out of per-tick traces
# Inverse of C.RELATIVE_ORDER: observer-relative row -> global slot order.
TO_GLOBAL = np.argsort(C.RELATIVE_ORDER, axis=1)
BATCH_MIN = 48  # games from which "auto" prefers the vmapped batch over host stepping
WINNER = {C.ONGOING: "ongoing", C.A_WINS: "A", C.B_WINS: "B", C.DRAW: "draw"}


def initial_state(config: Config, setup: GameSetup) -> State:
    """Tick-0 State of a setup: each team on its end's pads and Red Zone (RULES 4.4), or the
    setup's own `state` when it has one."""
    if setup.state is not None:
        return setup.state
    spec, end = setup.map, int(setup.spawn_end)
    table, pads, zones = game_layout(spec, end)
    return engine.initial_state(config, table, pads, zones, setup.roster, end, spec.id)


class Rollout(NamedTuple):
    """A game in progress: state, its observation, each System's carry, the game's key."""

    state: State
    obs: Obs
    carries: tuple
    key: jax.Array


def system_keys(game_key: jax.Array, tick: jax.Array, n: int) -> jax.Array:
    """The key each of n Systems gets at `tick`: fold_in(fold_in(game key, tick), index)."""
    tick_key = jax.random.fold_in(game_key, tick)
    return jax.vmap(lambda i: jax.random.fold_in(tick_key, i))(jnp.arange(n))


def _select(done, old, new):
    return jax.tree.map(lambda a, b: jnp.where(done, a, b), old, new)


def global_rows(rows: jax.Array) -> jax.Array:
    """(..., 10 observers, 10 relative rows) -> (..., 10 observers, 10 global slots); NumPy in,
    NumPy out (a replay's first tick, cut from a batch per game, without a dispatch a game)."""
    if isinstance(rows, np.ndarray):
        return np.take_along_axis(rows, np.broadcast_to(TO_GLOBAL, rows.shape), axis=-1)
    order = jnp.asarray(TO_GLOBAL)
    return jnp.take_along_axis(rows, jnp.broadcast_to(order, rows.shape), axis=-1)


def _tick(config: Config, lineup: Lineup, game: Rollout, owners=None):
    """One tick of one game with JAX Systems; a finished game stays frozen.

    owners: an (n_systems, 10) bool table that replaces `lineup.owners` for this game (traced,
    so one compiled batch plays games whose slots are held by different Systems: cross-play).
    Returns the next Rollout and what a replay keeps of the tick: (events, state, visible,
    relayed) of the new state, with the fallback flags set.
    """
    keys = system_keys(game.key, game.state.tick, len(lineup.systems))
    parts, carries = [], []
    for i, system in enumerate(lineup.systems):
        actions, carry = system.act(game.obs, game.obs.mask, game.carries[i], keys[i])
        parts.append(as_actions(actions))
        carries.append(carry)
    actions, fallback = merge_actions(parts, lineup.owners if owners is None else owners)
    obs, state, _, events = engine.step_env(config, game.state, actions)
    events = events.replace(fallback=fallback)
    done = game.state.outcome != C.ONGOING
    nxt = Rollout(
        state=_select(done, game.state, state),
        obs=_select(done, game.obs, obs),
        carries=_select(done, game.carries, tuple(carries)),
        key=game.key,
    )
    trace = (events, _dynamic(state), global_rows(obs.visible), global_rows(obs.relayed))
    return nxt, trace


def _dynamic(state: State) -> dict:
    return {k: v for k, v in vars(state).items() if k not in LAYOUT}


def start(config: Config, lineup: Lineup, setup: GameSetup) -> Rollout:
    """Rollout at the start of one setup (observation without relay, fresh carries). Raises
    ValueError when the setup's own state is already decided."""
    state = initial_state(config, setup)
    if int(state.outcome) != C.ONGOING:
        raise ValueError(f"game {setup.index}: its starting state is already decided")
    carries = tuple(system.initial_carry() for system in lineup.systems)
    key = jax.random.key(int(setup.seed))
    return Rollout(state, engine.observe(config, state), carries, key)


@partial(jax.jit, static_argnums=(0, 1, 2))
def _run_batch(config: Config, lineup: Lineup, record: bool, games: Rollout):
    """Play a vmapped batch of games to the end; with record, also the per-tick trace."""
    step = jax.vmap(partial(_tick, config, lineup))
    if record:
        return jax.lax.scan(lambda g, _: step(g), games, None, length=config.horizon)

    def cond(g):
        return jnp.any(g.state.outcome == C.ONGOING)

    return jax.lax.while_loop(cond, lambda g: step(g)[0], games), None


def _stack(items):
    return jax.tree.map(lambda *xs: jnp.stack(xs), *items)


def result_row(setup: GameSetup, state) -> dict:
    """Per-game result: winner, scores, ticks (the final tick), map, roster, spawn end, seed."""
    outcome = int(state.outcome)
    return {
        "game": setup.index,
        "map_id": int(setup.map.id),
        "map_name": setup.map.name,
        "roster": roster_text(setup.roster),
        "spawn_end": int(setup.spawn_end),
        "seed": int(setup.seed),
        "outcome": outcome,
        "winner": WINNER[outcome],
        "score_a": int(state.score[0]),
        "score_b": int(state.score[1]),
        "ticks": int(state.tick),
    }


def game_trace(initial: Rollout, trace, g: int | None, ticks: int) -> dict:
    """Cut one game's arrays out of a scan trace: states (T+1), events (T), visible, relayed.

    initial: the tick-0 Rollout (batched when g is not None); trace: (events, dynamic state,
    visible, relayed) with a leading time axis (then the game axis when g is not None).
    """
    pick = (lambda x: np.asarray(x[g])) if g is not None else np.asarray
    cut = (lambda x: np.asarray(x[:ticks, g])) if g is not None else (lambda x: np.asarray(x))
    events, dynamic, visible, relayed = trace
    first = {k: pick(v) for k, v in vars(initial.state).items() if k not in DERIVED_STATE_FIELDS}
    states = {}
    for name, value in first.items():
        later = cut(dynamic[name]) if name in dynamic else np.repeat(value[None], ticks, 0)
        states[name] = np.concatenate([value[None], later])
    seen0 = global_rows(pick(initial.obs.visible))
    relay0 = global_rows(pick(initial.obs.relayed))
    return {
        "states": states,
        "events": {k: cut(v) for k, v in vars(events).items()},
        "visible": np.concatenate([seen0[None], cut(visible)]),
        "relayed": np.concatenate([relay0[None], cut(relayed)]),
    }


OnGame = Callable[[GameSetup, dict, dict | None], None]  # (setup, result row, trace or None)


def _play_jax(config, lineup, setups, record, batch, on_game):
    for lo in range(0, len(setups), batch):
        chunk = list(setups[lo : lo + batch])
        padded = chunk + [chunk[-1]] * (batch - len(chunk))  # one compiled batch size
        games = _stack([start(config, lineup, s) for s in padded])
        final, trace = _run_batch(config, lineup, record, games)
        final_state = jax.device_get(final.state)
        for g, setup in enumerate(chunk):
            state = jax.tree.map(lambda x, g=g: x[g], final_state)
            row = result_row(setup, state)
            played = row["ticks"] - int(games.state.tick[g])  # a setup may start mid-game
            on_game(setup, row, game_trace(games, trace, g, played) if record else None)


_ACTS: dict = {}


def forget_compiled() -> None:
    """Drop every compiled batch program and jitted `act` this process holds.

    Why: each lineup is a static argument of `_run_batch`, so a field of nine entrants compiles
    36 programs whose executables (and the Systems they close over) would stay in memory to the
    end of a tournament; a caller that will not see a lineup again frees them here.
    """
    _run_batch.clear_cache()
    _ACTS.clear()


def jitted_act(system):
    """One jitted `act` per JAX System object for the whole process (the System is kept with
    it, so its id is never reused while cached)."""
    if id(system) not in _ACTS:
        _ACTS[id(system)] = (system, jax.jit(system.act))
    return _ACTS[id(system)][1]


def decide_systems(lineup: Lineup, game: Rollout, asked=None, on_error=None):
    """Ask the lineup's Systems for the tick of `game`, from the host: a host System (human,
    LLM, NumPy bot) gets the observation as NumPy (`to_host`, converted once a tick), a JAX
    System its jitted `act`; System i gets key `system_keys(game.key, tick, n)[i]`.

    asked: per System bool (default all); a System not asked keeps its carry and gives the part
    None (the caller fills it in, e.g. with a human's orders). on_error(i, error): called when
    System i raises (it then plays the no-op, `as_actions(None)`, and keeps its carry);
    without it the error propagates. Returns (parts: list of Actions or None, carries: tuple),
    ready for `host_step`.
    """
    keys = system_keys(game.key, game.state.tick, len(lineup.systems))
    host_obs, parts, carries = None, [], []
    for i, system in enumerate(lineup.systems):
        actions, carry = None, game.carries[i]
        if asked is None or asked[i]:
            try:
                if system.host:
                    host_obs = to_host(game.obs) if host_obs is None else host_obs
                    obs, act = host_obs, system.act
                else:
                    obs, act = game.obs, jitted_act(system)
                actions, carry = act(obs, obs.mask, game.carries[i], keys[i])
                actions = as_actions(actions)
            except Exception as error:  # on_error decides; without one it propagates
                if on_error is None:
                    raise
                on_error(i, error)
                actions, carry = as_actions(None), game.carries[i]
        parts.append(actions)
        carries.append(carry)
    return parts, tuple(carries)


def host_step(config: Config, lineup: Lineup, game: Rollout, parts, carries):
    """Step one tick from the host: merge the Systems' parts by slot ownership (a slot with no
    legal answer plays the no-op, flagged in `Events.fallback`: policies.system.merge_actions)
    and run the process-wide jitted step of `config` (`jit_step`). Returns (the next Rollout,
    the tick's Events)."""
    actions, fallback = merge_actions(parts, lineup.owners)
    obs, state, events = jit_step(config)(game.state, actions, fallback)
    return Rollout(state, obs, tuple(carries), game.key), events


def host_game(config: Config, lineup: Lineup, setup: GameSetup, record: bool = False, game=None):
    """Play one game stepping from the host (`decide_systems`, `host_step`): (final State,
    trace dict or None, result columns of `report_columns`). With record, a System's decision
    records (System.report) are in trace["decisions"]. game: the Rollout to start from
    (default `start(config, lineup, setup)`; e.g. a scenario's start with its carries)."""
    game = start(config, lineup, setup) if game is None else game
    first, traces = game, []
    while int(game.state.outcome) == C.ONGOING:
        game, events = host_step(config, lineup, game, *decide_systems(lineup, game))
        if record:
            obs = game.obs
            traces.append(
                (events, _dynamic(game.state), global_rows(obs.visible), global_rows(obs.relayed))
            )
    columns, records = report_columns(lineup, game.carries)
    if not record:
        return game.state, None, columns
    stacked = jax.tree.map(lambda *xs: np.stack(xs), *jax.device_get(traces))
    played = int(game.state.tick) - int(first.state.tick)
    trace = game_trace(first, stacked, None, played)
    if records is not None:
        trace["decisions"] = records
    return game.state, trace, columns


def report_columns(lineup: Lineup, carries) -> tuple[dict, list | None]:
    """The reports of a finished game's Systems (System.report on each final carry): result
    columns and decision records (None when no System reports). With several reporting
    Systems each one's columns get the prefix of the teams it plays ("A_", "B_", "AB_")."""
    reports = [
        (i, system.report(carries[i]))
        for i, system in enumerate(lineup.systems)
        if system.report is not None
    ]
    if not reports:
        return {}, None
    columns, records = {}, []
    for i, report in reports:
        teams = "".join(
            C.TEAM_NAMES[t]
            for t in range(C.NUM_TEAMS)
            if lineup.owners[i, t * C.TEAM_SIZE : (t + 1) * C.TEAM_SIZE].any()
        )
        prefix = "" if len(reports) == 1 else f"{teams}_"
        while any(k.startswith(prefix) for k in columns) and prefix:
            prefix = f"{prefix[:-1]}{i}_"
        columns.update({f"{prefix}{k}": v for k, v in report.get("stats", {}).items()})
        records += list(report.get("records", ()))
    return columns, sorted(records, key=lambda r: (r.get("tick", 0), r.get("slot", 0)))


STEP_CACHE: dict = {}


def jit_step(config: Config):
    """The jitted one-game step `(state, actions, fallback) -> (obs, state, events)`, one per
    Config for the whole process (host-stepped games and replay verification share it)."""
    if config not in STEP_CACHE:

        def step(state, actions, fallback):
            obs, state, _, events = engine.step_env(config, state, actions)
            return obs, state, events.replace(fallback=fallback)

        STEP_CACHE[config] = jax.jit(step)
    return STEP_CACHE[config]


def play_match(
    lineup: Lineup,
    setups: Sequence[GameSetup],
    config: Config | None = None,
    *,
    record: bool = False,
    mode: str = "auto",
    batch: int | None = None,
    on_game: OnGame | None = None,
    host_workers: int = 1,
) -> pl.DataFrame:
    """Play every setup with `lineup`; return one result row a game (see `result_row`).

    record: also build each game's trace (states, events, visible, relayed as NumPy, the
    arrays of an evaluation.replay.Replay) and pass it to on_game(setup, row, trace).
    mode: "batch" (vmapped, every System must be JAX), "host" (one game at a time, stepped
    from the host) or "auto": batch for JAX lineups with at least BATCH_MIN games (the batch
    compiles longer but runs several times faster), host otherwise. batch: games per vmapped
    batch (default 64, 16 when recording). on_game is called as each game finishes, in order.
    host_workers: host-stepped games played at once on threads (a host System that waits on
    a server, such as an LLM, then overlaps games). Columns that Systems report (System.report,
    e.g. the LLM call statistics) join each game's row. Both modes play identical games.
    Raises ValueError for a bad mode or host_workers < 1.
    """
    config = config or Config()
    rows: list[dict] = []

    def collect(setup, row, trace):
        rows.append(row)
        if on_game is not None:
            on_game(setup, row, trace)

    if host_workers < 1:
        raise ValueError(f"host_workers: {host_workers} must be at least 1")
    if mode not in ("auto", "batch", "host"):
        raise ValueError(f"mode {mode!r}: use auto, batch or host")
    if mode == "batch" and not lineup.all_jax:
        hosts = [s.name for s in lineup.systems if s.host]
        raise ValueError(f"mode 'batch' needs JAX Systems only; host Systems: {hosts}")
    if mode == "auto":
        mode = "batch" if lineup.all_jax and len(setups) >= BATCH_MIN else "host"
    if mode == "batch":
        size = batch or (16 if record else 64)
        _play_jax(config, lineup, list(setups), record, min(size, len(setups)), collect)
    else:
        play = partial(host_game, config, lineup, record=record)
        with ThreadPoolExecutor(host_workers, thread_name_prefix="game") as pool:
            games = pool.map(play, setups) if host_workers > 1 else map(play, setups)
            for setup, (state, trace, columns) in zip(setups, games, strict=True):
                collect(setup, result_row(setup, jax.device_get(state)) | columns, trace)
    return pl.DataFrame(rows)


def summary(results: pl.DataFrame) -> dict:
    """Totals of a results table: games, A wins, B wins, draws, mean ticks and scores."""
    count = results.height
    return {
        "games": count,
        "a_wins": int((results["winner"] == "A").sum()),
        "b_wins": int((results["winner"] == "B").sum()),
        "draws": int((results["winner"] == "draw").sum()),
        "mean_ticks": float(results["ticks"].mean()) if count else 0.0,
        "mean_score_a": float(results["score_a"].mean()) if count else 0.0,
        "mean_score_b": float(results["score_b"].mean()) if count else 0.0,
    }


__all__ = ["GameSetup", "initial_state", "play_match", "schedule", "summary"]
