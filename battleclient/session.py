"""One BattleClient game on the jitted engine, stepped tick by tick (runs on the engine thread).

The game is played like evaluation.match's host-stepped games (same per-System keys, same
jitted step, `engine.step_env` without auto-reset), but one tick at a time: `decide` lets every
machine System answer for the current tick, `resolve(orders)` adds the humans' locked-in orders,
merges, steps the engine and records the tick. A System that raises, or answers with the wrong
shape, plays the no-op for that tick and the tick's `Events.fallback` marks its slots. The UI
thread only ever sees `Snapshot`s: plain NumPy copies.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jax
import numpy as np

from battleclient import human
from battleclient.branching import Branch
from battleclient.game_setup import ClientSetup, parse_roster, pick_map, slot_name, spawn_end_code
from battleclient.map_catalog import load_choice
from battleclient.rule_programs import remember_machines
from engine import constants as C
from engine.env import initial_state
from engine.observation import observe
from engine.pool import game_layout
from engine.types import Config
from evaluation.match import (
    LAYOUT,
    TO_GLOBAL,
    GameSetup,
    Rollout,
    decide_systems,
    game_trace,
    host_step,
    jit_step,
    report_columns,
    result_row,
)
from evaluation.record import build_replay
from evaluation.replay import Replay, write_replay
from policies.slotspec import parse_slots, resolve_slots
from policies.system import as_actions, merge_actions

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Snapshot:
    """One tick as the UI gets it (NumPy only). `state`: every State field without a time axis;
    `prev_state`/`events`: the tick before and the transition into this one (None at tick 0);
    visible/relayed: (10, 10) bool [observer, seen slot]; move_mask (10, 9) and pair_mask
    (10, 11, 2): legal actions, team frame, actor-relative target categories (RULES 3.5);
    notes: what went wrong with a System during the transition."""

    state: dict
    prev_state: dict | None
    events: dict | None
    visible: np.ndarray
    relayed: np.ndarray
    move_mask: np.ndarray
    pair_mask: np.ndarray
    notes: tuple[str, ...] = ()

    @property
    def tick(self) -> int:
        return int(self.state["tick"])

    @property
    def outcome(self) -> int:
        return int(self.state["outcome"])

    @property
    def over(self) -> bool:
        return self.outcome != C.ONGOING


_FIRST: dict = {}
_OBSERVE: dict = {}
_STEPPED: set = set()  # Configs whose jitted step has run in this process (so is compiled)


def config_of(setup: ClientSetup) -> Config:
    """The engine's static Config of a setup (RULES A2): a new one is a fresh XLA compile."""
    return Config(
        score_threshold=setup.score_threshold,
        horizon=setup.horizon,
        shared_obs=setup.info_regime == "shared_obs",
    )


def rules_compiled(setup: ClientSetup) -> bool:
    """Whether a game of this setup's rules has stepped in this process (its step compiled)."""
    return config_of(setup) in _STEPPED


def first_fn(config: Config):
    """Jitted tick-0 set-up `(obstacles, pads, zones, roster, end, map_id) -> (state, obs)`;
    eager set-up costs seconds of per-operation dispatch, so it is compiled once per Config."""
    if config not in _FIRST:

        def first(obstacles, pads, zones, roster, end, map_id):
            state = initial_state(config, obstacles, pads, zones, roster, end, map_id)
            return state, observe(config, state)

        _FIRST[config] = jax.jit(first)
    return _FIRST[config]


def observe_fn(config: Config):
    """Jitted `state -> obs` (RULES 5), once per Config: a branch's first observation."""
    if config not in _OBSERVE:
        _OBSERVE[config] = jax.jit(lambda state: observe(config, state))
    return _OBSERVE[config]


def global_rows(rows: np.ndarray) -> np.ndarray:
    """(10 observers, 10 observer-relative rows) -> (10 observers, 10 global slots)."""
    return np.take_along_axis(np.asarray(rows), TO_GLOBAL, axis=1)


def slots_label(slots) -> str:
    return ", ".join(slot_name(s) for s in slots)


class GameSession:
    """A game from a ClientSetup. Raises ValueError (bad map, roster or slot spec, a System
    that cannot be built: unknown kind, unreadable checkpoint, ...) from the constructor.

    The map is a map id or a map file's path (any file in the map format, checked like a
    shipped map); `map_id` is the loaded map's id, which the replay records along with the
    obstacles, pads and Red Zones (so a replay re-simulates without the file)."""

    def __init__(
        self,
        setup: ClientSetup,
        maps_by_split: dict,
        progress: Progress | None = None,
        start: "Branch | None" = None,
    ):
        say = progress or (lambda text: None)
        self.setup = setup
        say("Loading the map")
        spec = load_choice(pick_map(setup, maps_by_split))
        self.map_id = spec.id
        roster = parse_roster(setup.roster)
        self.config = config_of(setup)
        say("Building the Systems")
        self.lineup = resolve_slots(parse_slots(setup.slots), roster)
        remember_machines(self.lineup)  # a scenario's machines reuse these compiles
        self.desks = {}
        for system, owned in zip(self.lineup.systems, self.lineup.owners, strict=True):
            desk = human.desk_of(system)
            for slot in np.flatnonzero(owned) if desk is not None else ():
                self.desks[int(slot)] = desk
        end = spawn_end_code(setup)
        self.game = GameSetup(map=spec, roster=roster, spawn_end=end, seed=setup.seed)
        say("Compiling the first observation")
        table, pads, zones = game_layout(spec, end)
        if start is None:
            state, obs = first_fn(self.config)(
                table, pads, zones, roster, np.int32(end), np.int32(spec.id)
            )
        else:  # a branch: the parent replay's state of its tick, checked against this layout
            state = start.checked_state(table, roster, end, spec.id)
            obs = observe_fn(self.config)(state)
        self.parent = None if start is None else dict(start.parent)
        carries = tuple(system.initial_carry() for system in self.lineup.systems)
        self.rollout = Rollout(state, obs, carries, jax.random.key(setup.seed))
        self.first = self.rollout
        self.trace: list = []
        # (rollout, snapshot) before each resolved tick, so take_back restores them exactly
        self.history: list = []
        self.takebacks: list = []  # the replay header's "takebacks" (evaluation.replay_schema)
        self.pending: tuple | None = None  # (tick, parts, carries, notes) of machine Systems
        self.step = jit_step(self.config)
        # LLM Systems' live status (policies.llm.Monitor: thread-safe, plain Python), read by
        # the UI thread while the engine thread waits on the endpoint
        owned = zip(self.lineup.systems, np.asarray(self.lineup.owners, bool), strict=True)
        with_monitor = [(s.act.monitor, row) for s, row in owned if getattr(s.act, "monitor", None)]
        self.monitors = [m for m, _ in with_monitor]
        # the teams each monitor's System plays: its endpoint failures are said to those only
        self.monitor_teams = [
            {int(slot) // C.TEAM_SIZE for slot in np.flatnonzero(row)} for _, row in with_monitor
        ]
        self.snapshot = self._snapshot(jax.device_get(state), jax.device_get(obs), None, None, ())

    @property
    def human_slots(self) -> tuple[int, ...]:
        return tuple(sorted(self.desks))

    @property
    def machine_count(self) -> int:
        """How many Systems of the lineup are machine players (not a human's desk)."""
        return sum(human.desk_of(system) is None for system in self.lineup.systems)

    def llm_status(self) -> dict:
        """What the LLM slots are doing, safe to call from the UI thread: {"thinking": {slot:
        seconds}, "replies": {slot: (tick, reply text, outcome)}, "error": last endpoint
        failure or "", "errors": {team: that team's last endpoint failure}}."""
        merged = {"thinking": {}, "replies": {}, "error": "", "errors": {}}
        for monitor, teams in zip(self.monitors, self.monitor_teams, strict=True):
            view = monitor.view()
            merged["thinking"].update(view["thinking"])
            merged["replies"].update(view["replies"])
            merged["error"] = merged["error"] or view["error"]
            for team in teams if view["error"] else ():
                merged["errors"].setdefault(team, view["error"])
        return merged

    def cancel_thinking(self) -> bool:
        """Stop waiting for the LLM slots' current calls (they play the no-op this tick);
        True when some slot was thinking. Safe from the UI thread."""
        busy = [m for m in self.monitors if m.view()["thinking"]]
        for monitor in busy:
            monitor.cancel()
        return bool(busy)

    # --- playing ---------------------------------------------------------------------------
    def compile_step(self) -> None:
        """Compile the jitted engine step of this game's Config (20-70 s for new rules on a
        small CPU) by stepping a throw-away no-op tick; the game itself does not move."""
        if self.config in _STEPPED:
            return
        parts = [as_actions(None) for _ in self.lineup.systems]
        actions, fallback = merge_actions(parts, self.lineup.owners)
        jax.block_until_ready(self.step(self.rollout.state, actions, fallback))
        _STEPPED.add(self.config)

    @property
    def host_machines(self) -> bool:
        """Whether a machine System is host Python (an LLM waiting on its endpoint)."""
        return any(s.host and human.desk_of(s) is None for s in self.lineup.systems)

    def decide(self, ask_hosts: bool = True) -> None:
        """Machine Systems answer for the current tick (human ones wait for `resolve`).
        ask_hosts False: host machine Systems are not asked and give no answer (compiling the
        JAX ones without calling an LLM endpoint, for throw-away and warm-up ticks)."""
        game, tick = self.rollout, self.snapshot.tick
        if self.pending is not None and self.pending[0] == tick:
            return
        notes = []

        def failed(i, error):  # a failing System must never end the game
            system, slots = self.lineup.systems[i], np.flatnonzero(self.lineup.owners[i])
            notes.append(
                f"{system.name} ({slots_label(slots)}) failed at tick {tick}: "
                f"{type(error).__name__}: {error}; its slots play the no-op"
            )

        systems = self.lineup.systems
        humans = [human.desk_of(s) is not None for s in systems]
        asked = [not h and (ask_hosts or not s.host) for s, h in zip(systems, humans, strict=True)]
        parts, carries = decide_systems(self.lineup, game, asked, failed)
        # an unasked machine System plays the no-op; a human's part waits for `resolve`
        parts = [
            as_actions(None) if not (a or h) else p
            for p, a, h in zip(parts, asked, humans, strict=True)
        ]
        self.pending = (tick, parts, list(carries), notes)

    def resolve(self, orders: dict[int, tuple[int, int, int]]) -> Snapshot:
        """Step one tick with the humans' orders: global slot -> (move, target, ult) in the
        slot's team frame. Human slots without an order play the no-op (fallback flagged).
        Raises RuntimeError when the game is over."""
        if self.snapshot.over:
            raise RuntimeError("the game is over")
        self.decide()
        _, parts, carries, notes = self.pending
        parts, notes = list(parts), list(notes)
        for i, system in enumerate(self.lineup.systems):
            desk = human.desk_of(system)
            if desk is not None:
                desk.submit({s: o for s, o in orders.items() if s in desk.slots})
                parts[i] = as_actions(desk(None, None, None, None)[0])
        before = self.rollout
        self.rollout, events = host_step(self.config, self.lineup, self.rollout, parts, carries)
        obs, state = self.rollout.obs, self.rollout.state
        _STEPPED.add(self.config)
        self.history.append((before, self.snapshot))  # what a take back restores
        self.pending = None
        host_obs, host_state, host_events = jax.device_get((obs, state, events))
        previous = self.snapshot
        self.snapshot = self._snapshot(host_state, host_obs, previous, host_events, notes)
        self.trace.append(
            (
                host_events,
                {k: v for k, v in vars(host_state).items() if k not in LAYOUT},
                self.snapshot.visible,
                self.snapshot.relayed,
            )
        )
        return self.snapshot

    @property
    def can_take_back(self) -> bool:
        """Whether a resolved tick of this game can be taken back (the game is not over)."""
        return bool(self.history) and not self.snapshot.over

    def take_back(self) -> Snapshot:
        """Undo the last resolved tick: the game returns to the State, observations, System
        carries and Snapshot it had before that tick (kept, not recomputed: the engine is
        deterministic, so stepping again with the same actions gives the same tick). The
        undone tick leaves the trace, so the replay holds only the kept line and re-simulates
        as it is; its header's "takebacks" lists each undone tick with the actions that were
        submitted then. Raises RuntimeError when no tick was played or the game is over."""
        if not self.can_take_back:
            raise RuntimeError("no tick to take back" if not self.history else "the game is over")
        events = self.trace.pop()[0]
        self.rollout, self.snapshot = self.history.pop()
        self.pending = None
        submitted = np.asarray(events.submitted, np.int32).tolist()
        self.takebacks.append({"tick": self.snapshot.tick, "submitted": submitted})
        return self.snapshot

    def _snapshot(self, state, obs, previous, events, notes) -> Snapshot:
        fields = {k: np.asarray(v) for k, v in vars(state).items()}
        return Snapshot(
            state=fields,
            prev_state=None if previous is None else previous.state,
            events=None if events is None else {k: np.asarray(v) for k, v in vars(events).items()},
            visible=global_rows(obs.visible),
            relayed=global_rows(obs.relayed),
            move_mask=np.asarray(obs.mask.move),
            pair_mask=np.asarray(obs.mask.pair),
            notes=tuple(notes),
        )

    # --- recording -------------------------------------------------------------------------
    def replay(self) -> Replay | None:
        """The game so far as a Replay (None before the first tick), with the metrics of the
        setup's level (evaluation.metrics; "full" by default)."""
        ticks = len(self.trace)
        if ticks == 0:
            return None
        stacked = jax.tree.map(lambda *xs: np.stack(xs), *self.trace)
        trace = game_trace(self.first, stacked, None, ticks)
        final = jax.device_get(self.rollout.state)
        row = result_row(self.game, final)
        seeds = {"client": int(self.setup.seed)}
        _, records = report_columns(self.lineup, self.rollout.carries)
        if records is not None:
            trace["decisions"] = records
        level = self.setup.metrics
        replay = build_replay(
            self.config, self.game, self.lineup.specs, row, trace, seeds=seeds, metrics_level=level
        )
        if level != "none":  # every Replay Viewer panel reads them (setup field "metrics")
            from evaluation.metrics import compute_metrics

            replay.metrics = compute_metrics(replay, level, game="0")
        if self.takebacks:
            replay.header["takebacks"] = [dict(t) for t in self.takebacks]
        if self.parent is not None:
            replay.header["parent"] = dict(self.parent)
        return replay

    def save(self, path) -> Path | None:
        """Write the replay (atomic, never over a file); None when no tick was played."""
        replay = self.replay()
        return None if replay is None else write_replay(Path(path), replay)
