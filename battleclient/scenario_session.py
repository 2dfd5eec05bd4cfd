"""Playtesting an endgame scenario in the BattleClient: the game, Try again, the winning line.

A `ScenarioSession` is a BattleClient `GameSession` (same host-stepped engine, desks and replay
recording) that starts from a scenario's exact start state (`evaluation.scenarios`, issue 17
point 5) instead of tick 0. The player takes any of the focal team's slots (`human`), the
focal team's other slots play a slot spec (`others`, the scenario's controller by default) and
the other team plays the scenario's controller. The game's own Config ends it at the horizon
(start tick + ticks allowed), so the success rule is the outcome: the focal team won.

The engine step and the start's observation come from `battleclient.rule_programs` (a
scenario's horizon and score to win enter as numbers), and so do the machine Systems
(`shared_machines`: built over slots already compiled, else all ten): one compile each serves
every scenario, and the persistent compile cache serves later processes. `try_again` goes
back to the exact start at once: the same objects, the same
compiled step and System functions, so nothing is compiled again. Every attempt's replay
names the scenario and its start hash (`header["scenario"]`, as `mbg scenarios run` writes it), and
`winning_line_replay` is a stored verified line played out as a replay, tick by tick.
"""

from pathlib import Path

import jax
import numpy as np

from battleclient import human
from battleclient.game_setup import ClientSetup, roster_text
from battleclient.rule_programs import rules_observe, rules_step, shared_machines
from battleclient.session import GameSession
from engine import constants as C
from evaluation import scenario_lines
from evaluation.match import Rollout, host_game, result_row
from evaluation.record import build_replay
from evaluation.replay import Replay
from evaluation.scenarios import Scenario, slot_name
from policies.slotspec import parse_slots, resolve_slots
from policies.system import lineup_from_mapping


def start_rollout(scenario: Scenario, lineup, seed: int = 0, line=None) -> Rollout:
    """The scenario's start as a Rollout (`scenario_lines.start_rollout`'s values: fresh
    carries, `line` ((ticks, 10, 3)) in the line System's, the game's key) with the observation
    from the compiled program every scenario shares (`rule_programs.rules_observe`), not the
    eager one, whose ~400 one-operation compiles took half a minute on a loaded machine.
    Raises ValueError when the start is already decided (as evaluation.match.start)."""
    state = scenario.start
    if int(state.outcome) != C.ONGOING:
        raise ValueError(f"scenario {scenario.id}: its start state is already decided")
    carries = tuple(
        scenario_lines.line_carry(line) if line is not None and s is scenario_lines.line_system()
        else s.initial_carry()
        for s in lineup.systems
    )  # fmt: skip
    obs = rules_observe(scenario.config, state)
    return Rollout(state, obs, carries, jax.random.key(int(seed)))


def slot_spec(scenario: Scenario, human_slots, others: str = "") -> str:
    """The slot spec of a playtest: `human_slots` (global slots of the focal team) -> human,
    the focal team's other active slots -> `others` (default: the scenario's controller), the
    other team -> the controller. Raises ValueError naming a slot that is not a focal agent."""
    focal = set(scenario.focal_slots)
    chosen = sorted({int(s) for s in human_slots})
    for slot in chosen:
        if slot not in focal:
            names = ", ".join(slot_name(s) for s in sorted(focal))
            raise ValueError(f"slot {slot_name(slot)}: not a focal agent ({names})")
    items = [f"{slot_name(s)}=human" for s in chosen]
    mates = [s for s in sorted(focal) if s not in chosen]
    items += [f"{slot_name(s)}={others or scenario.controller}" for s in mates]
    other = "AB"[1 - scenario.focal_team]
    return ",".join(items + [f"{other}*={scenario.controller}"])


def client_setup(scenario: Scenario, spec: str, seed: int = 0) -> ClientSetup:
    """The lobby's description of a playtest (map id, roster, slots, rules); the game itself
    starts from the scenario's state, not from this setup's tick 0."""
    return ClientSetup(
        map=str(scenario.arena.id), roster=roster_text(np.asarray(scenario.start.class_id)),
        slots=spec, seed=int(seed),
        spawn_end=("west", "east")[int(scenario.start.spawn_end)],
        score_threshold=int(scenario.config.score_threshold),
        horizon=int(scenario.config.horizon),
    )  # fmt: skip


class ScenarioSession(GameSession):
    """One playtest of `scenario`: `human_slots` played by the person (at least one focal
    slot), the rest as `slot_spec` says. Raises ValueError for a bad slot or slot spec."""

    def __init__(self, scenario: Scenario, human_slots, others: str = "", seed: int = 0,
                 progress=None):  # fmt: skip
        say = progress or (lambda text: None)
        if not list(human_slots):
            raise ValueError("choose at least one focal slot to play")
        self.scenario = scenario
        self.spec = slot_spec(scenario, human_slots, others)
        self.seed = int(seed)
        self.setup = client_setup(scenario, self.spec, self.seed)
        self.map_id = scenario.arena.id
        self.config = scenario.config
        say("Building the Systems")
        roster = np.asarray(scenario.start.class_id)
        self.lineup = shared_machines(resolve_slots(parse_slots(self.spec), roster))
        self.desks = {}
        for system, owned in zip(self.lineup.systems, self.lineup.owners, strict=True):
            desk = human.desk_of(system)
            for slot in np.flatnonzero(owned) if desk is not None else ():
                self.desks[int(slot)] = desk
        self.game = scenario_lines.setup(scenario, self.seed)
        say("Compiling the start position's observation (once for all scenarios)")
        self.first = start_rollout(scenario, self.lineup, self.seed)
        self.step = rules_step(self.config)
        self.monitors, self.monitor_teams = [], []  # LLM slots are not offered in a playtest
        self.attempt = 0
        self._restart()

    def _restart(self) -> None:
        self.rollout = self.first
        self.trace: list = []
        self.history: list = []  # GameSession's take-back stack and record, fresh each attempt
        self.takebacks: list = []
        self.parent = None
        self.pending = None
        state, obs = jax.device_get((self.first.state, self.first.obs))
        self.snapshot = self._snapshot(state, obs, None, None, ())

    def try_again(self) -> None:
        """Back to the exact start (same state, carries and key): the next attempt. Nothing is
        compiled again; the humans' desks keep no orders from the last attempt."""
        for desk in set(self.desks.values()):
            desk.submit({})
        self.attempt += 1
        self._restart()

    @property
    def controller(self):
        """The System playing the other team's slots (the scenario's controller), already
        compiled by this game's first decision (`winning_line_replay` reuses it)."""
        other = list(C.TEAM_SLOTS[1 - self.scenario.focal_team])
        plays = np.asarray(self.lineup.owners, bool)[:, other].any(axis=1)
        return self.lineup.systems[int(np.flatnonzero(plays)[0])]

    @property
    def ticks_left(self) -> int:
        """Ticks the focal team still has (0 once the horizon is reached)."""
        return max(0, int(self.config.horizon) - self.snapshot.tick)

    @property
    def solved(self) -> bool:
        """Whether the success rule is met: the focal team has won the game."""
        return self.snapshot.outcome == self.scenario.win_code

    def replay(self) -> Replay | None:
        """The attempt so far as a Replay naming the scenario and its start hash (None before
        the first tick)."""
        replay = super().replay()
        if replay is not None:
            played = self.snapshot.tick - int(self.scenario.start.tick)
            header = scenario_lines.scenario_header(self.scenario, self.snapshot.outcome, played)
            replay.header["scenario"] = header
        return replay


def attempt_path(folder: Path, scenario: Scenario, attempt: int) -> Path:
    """A new replay path for an attempt: scenario id, start hash and attempt number, never an
    existing file (a suffix is added)."""
    return _new_path(folder, scenario, f"attempt{attempt + 1}")


def _new_path(folder: Path, scenario: Scenario, what: str) -> Path:
    from battleclient.settings import timestamp
    from fileio import unused_path

    stem = f"scenario{scenario.id:02d}_{scenario.start_hash[:8]}_{what}"
    return unused_path(Path(folder), f"{stem}_{timestamp()}.mbgr")


def save_winning_line(folder: Path, scenario: Scenario, index: int = 0, controller=None) -> Path:
    """Verified line `index` as a new replay file in `folder` (named by the scenario, its
    start hash and the line), for the Replay Viewer; raises what `winning_line_replay` raises."""
    from evaluation.replay import write_replay

    path = _new_path(folder, scenario, f"line{index + 1}")
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_replay(path, winning_line_replay(scenario, index, controller))


def winning_line_replay(scenario: Scenario, index: int = 0, controller=None) -> Replay:
    """Verified line `index` of the scenario played out against its controller, as a Replay
    (header["scenario"] included). Raises IndexError when the scenario has no such line and
    ValueError when the line no longer wins (the rules changed: `mbg scenarios verify`).

    controller: the System object to play the other team (default: the scenario's controller
    built for that team's block); a playtest passes its own (`ScenarioSession.controller`),
    whose jitted act has already run, so nothing compiles. The game is stepped from the host
    with the process-wide jitted step of the scenario's Config (`match.host_game`), which the
    playtest compiled too, not `verify`'s batched scan (a fresh compile of a minute on a
    loaded machine); the line is open-loop and the controller deterministic and per agent
    (policies/scripted.py), so the game is the same tick for tick (tested against `verify`)."""
    name, table = scenario.lines[index]
    if controller is None:
        lineup = scenario_lines.scenario_lineup(scenario)
    else:
        focal, other = (C.TEAM_SLOTS[t] for t in (scenario.focal_team, 1 - scenario.focal_team))
        mapping = {s: scenario_lines.line_system() for s in focal} | dict.fromkeys(
            other, controller
        )
        lineup = lineup_from_mapping(mapping)
    first = start_rollout(scenario, lineup, 0, table)
    final, trace, _ = host_game(scenario.config, lineup, None, record=True, game=first)
    final = jax.device_get(final)
    played, outcome = int(final.tick) - int(scenario.start.tick), int(final.outcome)
    if outcome != scenario.win_code or played > len(table):  # scenario_lines.line_holds
        raise ValueError(f"scenario {scenario.id}: line {name!r} no longer wins")
    game = scenario_lines.setup(scenario)
    replay = build_replay(scenario.config, game, lineup.specs, result_row(game, final), trace)
    replay.header["scenario"] = scenario_lines.scenario_header(scenario, outcome, played)
    return replay


def focal_slot_names(scenario: Scenario) -> list[str]:
    """The focal agents' slot names with their classes, e.g. ["A0 Rogue", "A1 Mage"]."""
    ids = np.asarray(scenario.start.class_id)
    return [f"{slot_name(s)} {C.CLASS_NAMES[ids[s]]}" for s in scenario.focal_slots]
