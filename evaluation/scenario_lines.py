"""Winning lines and scenario games: parse lines, play a line or any System from a start, record.

A line is the focal team's actions tick by tick, in the team frame (what its agents submit,
RULES 3.1-3.4), written per tick as {"A0": "E B2 basic", ...}; a focal slot left out stays
and does nothing. The controller is deterministic (policies/scripted.py), so a line is an
open-loop sequence: replaying it gives the same game every time.

Scenario games run through the match's own tick (`evaluation.match._tick`, a `lax.scan` over
the horizon, vmapped over games). Lineups hold whole team blocks (all five slots of each team,
empty slots answering the no-op), so every scenario with the same focal team and rules shares
one compiled function, whatever its roster. The focal team's moves can come as data: the
`line_system` reads them from its carry, which the line finder and `verify` fill in.
"""

import functools
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine.types import Actions
from evaluation import match
from evaluation.scenarios import Scenario, action_text, parse_action, parse_slot, slot_name
from policies.system import Lineup, System, as_system, lineup_from_mapping

VERIFY_BATCH = 4  # lines re-simulated together (padded), so every scenario shares one compile
MAX_LINE = C.MAX_SCENARIO_TICKS  # ticks a line and a horizon may hold: the line System's table


def parse_lines(lines_doc, focal: int, active, horizon: int, problems: list[str]) -> tuple:
    """The `lines` field -> ((name, (ticks, 10, 3) int32), ...); active: (10,) bool, the slots
    the roster fills (`State.active`). Problems get one entry each."""
    out = []
    active = np.asarray(active)
    if horizon > MAX_LINE:
        problems.append(f"horizon = {horizon}: at most {MAX_LINE} ticks")
    for i, line in enumerate(lines_doc):
        where = f"lines[{i}]"
        if not isinstance(line, dict) or set(line) != {"name", "ticks"}:
            problems.append(f"{where}: must be {{'name': ..., 'ticks': [...]}}")
            continue
        ticks = line["ticks"]
        if not isinstance(ticks, list) or not 1 <= len(ticks) <= horizon:
            problems.append(f"{where}.ticks: needs 1-{horizon} ticks (the horizon)")
            continue
        table = np.zeros((len(ticks), C.NUM_SLOTS, 3), np.int32)
        for t, orders in enumerate(ticks):
            if not isinstance(orders, dict):
                problems.append(f"{where}.ticks[{t}] = {orders!r:.40}: must map slots to actions")
                continue
            for name, text in orders.items():
                try:
                    slot = parse_slot(name)
                    if slot // C.TEAM_SIZE != focal or not active[slot]:
                        raise ValueError(f"{name} is not an agent of the focal team")
                    table[t, slot] = parse_action(slot, text)
                except ValueError as error:
                    problems.append(f"{where}.ticks[{t}].{name}: {error}")
        out.append((str(line["name"]), table))
    return tuple(out)


def line_document(name: str, table, focal_slots) -> dict:
    """A line as written in a scenario file (see `parse_lines`)."""
    ticks = [
        {slot_name(s): action_text(s, table[t, s]) for s in focal_slots} for t in range(len(table))
    ]
    return {"name": name, "ticks": ticks}


def _line_act(obs, masks, carry, key):
    del obs, masks, key
    counter, table = carry
    row = jnp.where(counter < MAX_LINE, table[jnp.minimum(counter, MAX_LINE - 1)], 0)
    return Actions(move=row[:, 0], target=row[:, 1], ult=row[:, 2]), (counter + 1, table)


@functools.cache
def line_system() -> System:
    """A JAX System that plays the (MAX_LINE, 10, 3) action table in its carry, one row a tick
    (then the no-op); `line_carry(table)` fills it."""
    return as_system(_line_act, initial_carry=lambda: line_carry(np.zeros((0, 10, 3))), name="line")


def line_carry(table) -> tuple:
    padded = np.zeros((MAX_LINE, C.NUM_SLOTS, 3), np.int32)
    padded[: len(table)] = table
    return (jnp.int32(0), jnp.asarray(padded))


def team_slots(team: int) -> tuple[int, ...]:
    return C.TEAM_SLOTS[team]


def system_for(spec: str, team: int) -> System:
    """The System of a spec string for a whole team block (cached per spec by its factory)."""
    from policies import slotspec

    lineup = slotspec.resolve_slots(
        [spec if s in team_slots(team) else "" for s in range(C.NUM_SLOTS)]
    )
    return lineup.systems[0]


def scenario_lineup(scenario: Scenario, focal: System | str | None = None) -> Lineup:
    """Focal team block -> `focal` (a System, a spec, or None for the line System), the other
    block -> the scenario's controller."""
    if focal is None:
        focal = line_system()
    elif isinstance(focal, str):
        focal = system_for(focal, scenario.focal_team)
    control = system_for(scenario.controller, 1 - scenario.focal_team)
    mapping = {s: focal for s in team_slots(scenario.focal_team)}
    mapping |= {s: control for s in team_slots(1 - scenario.focal_team)}
    return lineup_from_mapping(mapping)


def setup(scenario: Scenario, seed: int = 0, index: int = 0) -> match.GameSetup:
    roster = np.asarray(scenario.start.class_id)
    end = int(scenario.start.spawn_end)
    return match.GameSetup(scenario.arena, roster, end, seed, index, state=scenario.start)


def start_rollout(scenario: Scenario, lineup: Lineup, seed: int = 0, line=None) -> match.Rollout:
    """The scenario's start as a Rollout; `line` ((ticks, 10, 3)) fills the line System's carry."""
    game = match.start(scenario.config, lineup, setup(scenario, seed))
    if line is None:
        return game
    carries = tuple(
        line_carry(line) if s is line_system() else c
        for s, c in zip(lineup.systems, game.carries, strict=True)
    )
    return game._replace(carries=carries)


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3))
def run_games(config, lineup: Lineup, ticks: int, record: bool, games: match.Rollout):
    """`ticks` ticks of a vmapped batch of Rollouts (finished games stay frozen); with record,
    also the per-tick trace of `match._tick`."""
    step = jax.vmap(functools.partial(match._tick, config, lineup))
    final, trace = jax.lax.scan(lambda g, _: step(g), games, None, length=ticks)
    return final, trace if record else None


@dataclass(frozen=True)
class Played:
    """One finished scenario game: solved, the outcome code, ticks played, the score, the slot
    that died first ("" if none) and, when recorded, the replay."""

    solved: bool
    outcome: int
    ticks: int
    score: tuple
    first_death: str
    replay: object = None


def _first_death(trace_died: np.ndarray, focal: int) -> str:
    """ "focal A2" / "controller B0" for the first slot to die (lowest slot on a tie), or ""."""
    for row in trace_died:
        if row.any():
            slot = int(np.argmax(row))
            side = "focal" if slot // C.TEAM_SIZE == focal else "controller"
            return f"{side} {slot_name(slot)}"
    return ""


def play_games(scenario: Scenario, lineup: Lineup, rollouts: list, record=False, seeds=None):
    """Play Rollouts of one scenario to its horizon; returns a list of `Played`."""
    config = scenario.config
    games = match._stack(rollouts)
    final, trace = run_games(config, lineup, scenario.horizon, True, games)
    final_state = jax.device_get(final.state)
    died = np.asarray(trace[0].died)  # (ticks, games, 10)
    out = []
    for g in range(len(rollouts)):
        state = jax.tree.map(lambda x, g=g: x[g], final_state)
        body = match.game_trace(games, trace, g, ticks_played(scenario, state)) if record else None
        seed = int(seeds[g]) if seeds is not None else 0
        out.append(finished(scenario, lineup, state, died[:, g], body, seed, g))
    return out


def ticks_played(scenario: Scenario, state) -> int:
    return int(state.tick) - int(scenario.start.tick)


def finished(scenario, lineup, state, died, body=None, seed=0, index=0) -> Played:
    """One game of `scenario` as `Played`: state its final State (NumPy), died its (ticks, 10)
    bool deaths a tick; with body (its arrays, `match.game_trace`) also its replay, whose header
    names the lineup's specs, the seed and the game's index."""
    played = ticks_played(scenario, state)
    outcome = int(state.outcome)
    replay = None
    if body is not None:
        replay = _replay(scenario, lineup, seed, index, body, state, played)
    return Played(
        solved=outcome == scenario.win_code, outcome=outcome, ticks=played,
        score=tuple(int(v) for v in state.score),
        first_death=_first_death(died[:played], scenario.focal_team), replay=replay,
    )  # fmt: skip


def _replay(scenario, lineup, seed, index, body, state, played):
    from evaluation.record import build_replay

    game = setup(scenario, seed, index)
    row = match.result_row(game, state)
    replay = build_replay(scenario.config, game, lineup.specs, row, body)
    replay.header["scenario"] = scenario_header(scenario, int(state.outcome), played)
    return replay


def scenario_header(scenario: Scenario, outcome: int, played: int) -> dict:
    """What a replay records of its scenario: id, title, skill, brief, hash, file, focal team,
    horizon, start tick and whether the success rule was met."""
    return {
        "id": scenario.id, "title": scenario.title, "skill": scenario.skill,
        "brief": scenario.brief, "start_hash": scenario.start_hash,
        "file": scenario.source.name, "focal_team": "AB"[scenario.focal_team],
        "horizon": scenario.horizon, "start_tick": int(scenario.start.tick),
        "success_rule": "the focal team wins within the horizon",
        "solved": outcome == scenario.win_code, "ticks_played": played,
    }  # fmt: skip


def verify(scenario: Scenario, record: bool = False) -> list[tuple[str, Played]]:
    """Re-simulate every stored line: (name, Played) each; a line holds when `solved` and it
    won within its own length (`Played.ticks <= len(line)`)."""
    lineup = scenario_lineup(scenario)
    rollouts = [start_rollout(scenario, lineup, 0, table) for _, table in scenario.lines]
    if not rollouts:
        return []
    padded = rollouts + [rollouts[-1]] * (-len(rollouts) % VERIFY_BATCH)  # one compiled size
    played = play_games(scenario, lineup, padded, record=record)
    return [(name, p) for (name, _), p in zip(scenario.lines, played[: len(rollouts)], strict=True)]


def line_holds(scenario: Scenario, name: str, played: Played) -> bool:
    length = len(dict(scenario.lines)[name])
    return played.solved and played.ticks <= length
