"""One System's games on many scenarios in shared batches (`mbg scenarios run`).

`scenario_lines.play_games` compiles a `lax.scan` of the whole tick (`match._tick`) for each
lineup and horizon, so S Systems on N scenarios compiled up to S x N game programs, each one a
copy of the engine. Here a tick is jitted programs that do not depend on the scenario, stepped
from a Python loop (a scenario lasts at most C.MAX_SCENARIO_TICKS ticks):

- `_decide(system)`, one per System: its act over the batch, each game's key as
  `match.system_keys` gives it (fold_in(fold_in(game key, tick), the System's index in the
  game's lineup)), its carry frozen once the game is over;
- `_advance(family)`, one per rules family (evaluation.rule_numbers): the two answers merged
  by each game's slot owners (policies.system.merge_actions), `engine.step_env` with the
  game's horizon and score to win as numbers, finished games frozen.

So a run compiles the engine once and each System's act once (per batch size), whatever the
scenarios, focal teams and horizons in a batch. A game keeps its scenario's start state, focal
team, the System order of its lineup (hence its keys) and its tick limit (the scenario's
horizon), so the games are those of `play_games`, bit for bit
(tests/evaluation/test_scenario_batch.py).
"""

import functools
from dataclasses import dataclass
from typing import NamedTuple

import jax
import numpy as np

import engine
from engine import constants as C
from evaluation import match
from evaluation import scenario_lines as lines
from evaluation.rule_numbers import numbers, rules_family, with_numbers
from evaluation.scenarios import Scenario
from evaluation.sharding import shard_games
from policies.system import System, as_actions, merge_actions

BATCH = 256  # games a compiled batch holds (the last batch of a System is padded to it)
PER_AGENT_KINDS = ("scripted",)  # answer per slot whatever slots they hold (policies/scripted.py)


def role_system(spec: str, team: int) -> System:
    """The System that plays `spec` for the slots of `team` in a batch.

    A scripted bot is compiled for its tuple of slots (policies.scripted.scripted_system) and
    decides per agent, so the bot over all ten slots answers each slot as the team's own bot
    does: one System (one compile) serves both focal teams; merge_actions keeps only the owned
    slots. Other kinds come as `scenario_lines.system_for` builds them. Raises what
    policies.slotspec.resolve_slots raises."""
    from policies.slotspec import resolve_slots

    if spec.partition(":")[0].strip() in PER_AGENT_KINDS:
        return resolve_slots([spec] * C.NUM_SLOTS).systems[0]
    return lines.system_for(spec, team)


@dataclass(frozen=True, eq=False)
class Entry:
    """A scenario as a batch plays it: the start (state and first observation as NumPy, the
    observation computed once, as `match.start` computes it), the lineup of the per-scenario
    path (its specs go in the replay header, its System order gives the keys), each role's
    index in that lineup, the slot owners (2, 10) bool (focal, controller), the horizon and
    score to win as int32 and the tick limit (start tick + horizon)."""

    scenario: Scenario
    lineup: object
    state: object
    obs: object
    index: tuple[int, int]
    owners: np.ndarray
    numbers: tuple
    limit: int


def entry(scenario: Scenario, spec: str, start=None) -> Entry:
    """The Entry of one System spec on one scenario; `start`: its (state, obs) already made."""
    lineup = lines.scenario_lineup(scenario, spec)
    if start is None:
        game = lines.start_rollout(scenario, lineup)
        start = jax.device_get((game.state, game.obs))
    focal, control = (C.TEAM_SLOTS[t][0] for t in (scenario.focal_team, 1 - scenario.focal_team))
    index = (int(np.argmax(lineup.owners[:, focal])), int(np.argmax(lineup.owners[:, control])))
    team = np.arange(C.NUM_SLOTS) // C.TEAM_SIZE
    owners = np.stack([team == scenario.focal_team, team != scenario.focal_team])
    limit = int(scenario.start.tick) + scenario.horizon
    return Entry(scenario, lineup, *start, index, owners, numbers(scenario.config), limit)


def _key_data(seed: int) -> np.ndarray:
    return np.asarray(jax.random.key_data(jax.random.key(int(seed))))


@functools.cache
def _decide(system: System):
    """The batched act of `system`: (obs, carry, game key, tick, index in the lineup, done) per
    game -> (Actions, the next carry; the old one where the game is done)."""

    def one(obs, carry, key, tick, index, done):
        key = jax.random.fold_in(jax.random.fold_in(key, tick), index)
        actions, new = system.act(obs, obs.mask, carry, key)
        return as_actions(actions), match._select(done, carry, new)

    return jax.jit(jax.vmap(one))


def _over(state, limit):
    """Whether a game is finished: decided (RULES 4.3) or at its scenario's tick limit."""
    return (state.outcome != C.ONGOING) | (state.tick >= limit)


@functools.cache
def _advance(family):
    """The batched rest of `match._tick` for the rules `family`: (horizon, score to win, tick
    limit, state, obs, focal and controller Actions, owners (2, 10)) per game -> (state, obs,
    done, the tick's trace as `match._tick` gives it)."""

    def one(horizon, score, limit, state, obs, focal, control, owners):
        actions, fallback = merge_actions((focal, control), owners)
        config = with_numbers(family, horizon, score)
        new_obs, new, _, events = engine.step_env(config, state, actions)
        events = events.replace(fallback=fallback)
        done = _over(state, limit)
        state, obs = match._select(done, state, new), match._select(done, obs, new_obs)
        trace = (
            events,
            match._dynamic(new),
            match.global_rows(new_obs.visible),
            match.global_rows(new_obs.relayed),
        )
        return state, obs, _over(state, limit), trace

    return jax.jit(jax.vmap(one))


class Game(NamedTuple):
    """One game to play: its Entry, seed and index (the game's number on its scenario, as the
    replay header's `game` gives it)."""

    entry: Entry
    seed: int
    index: int


def play(spec: str, games: list, record: bool = False, batch: int = BATCH):
    """Play `games` (a list of Game) with the System `spec` as the focal team, in batches of
    `batch` (the last one padded); yields (Game, Played) in order, a batch at a time. Games
    whose roles are held by other System objects (an other controller, a kind not in
    PER_AGENT_KINDS on the other team) go in batches of their own."""
    groups: dict = {}
    for game in games:
        s = game.entry.scenario
        roles = (role_system(spec, s.focal_team), role_system(s.controller, 1 - s.focal_team))
        groups.setdefault((*roles, rules_family(s.config)), []).append(game)
    for (focal, control, family), group in groups.items():
        for lo in range(0, len(group), batch):
            part = group[lo : lo + batch]
            padded = part + [part[-1]] * (batch - len(part))  # one compiled batch size
            yield from zip(part, _play_batch(focal, control, family, padded, record), strict=False)


def _stack(trees):
    return jax.tree.map(lambda *xs: np.stack(xs), *trees)


def _start(focal: System, control: System, games: list) -> tuple:
    """The batch's start: (Rollout of NumPy arrays: state, obs, both carries, keys; the per-game
    numbers: horizon, score to win, tick limit, owners, the focal and the controller System's
    index in the lineup), every array with the games on axis 0."""
    entries = [g.entry for g in games]
    state, obs = _stack([e.state for e in entries]), _stack([e.obs for e in entries])
    carries = tuple(
        jax.tree.map(lambda x: np.broadcast_to(x, (len(games), *np.shape(x))), s.initial_carry())
        for s in (focal, control)
    )
    keys = jax.random.wrap_key_data(np.stack([_key_data(g.seed) for g in games]))
    horizon, score = (np.array([e.numbers[i] for e in entries], np.int32) for i in (0, 1))
    limit = np.array([e.limit for e in entries], np.int32)
    owners = np.stack([e.owners for e in entries])
    index = tuple(np.array([e.index[r] for e in entries], np.int32) for r in (0, 1))
    return match.Rollout(state, obs, carries, keys), (horizon, score, limit, owners, index)


def _play_batch(focal: System, control: System, family, games: list, record: bool) -> list:
    """Play one full batch tick by tick to the longest horizon in it; a list of Played."""
    first, per_game = _start(focal, control, games)  # `first` stays NumPy for the replays
    (state, obs, (carry_f, carry_c), keys), per_game = shard_games((first, per_game))
    horizon, score, limit, owners, index = per_game
    decide_f, decide_c, advance = _decide(focal), _decide(control), _advance(family)
    done = shard_games(np.zeros(len(games), bool))
    traces = []
    for _ in range(max(g.entry.scenario.horizon for g in games)):
        act_f, carry_f = decide_f(obs, carry_f, keys, state.tick, index[0], done)
        act_c, carry_c = decide_c(obs, carry_c, keys, state.tick, index[1], done)
        state, obs, done, trace = advance(horizon, score, limit, state, obs, act_f, act_c, owners)
        traces.append(trace if record else trace[0].died)
    final = jax.device_get(state)
    traces = _stack(jax.device_get(traces))  # (ticks, games, ...)
    died = traces[0].died if record else traces
    out = []
    for g, game in enumerate(games):
        s = game.entry.scenario
        end = jax.tree.map(lambda x, g=g: x[g], final)
        body = match.game_trace(first, traces, g, lines.ticks_played(s, end)) if record else None
        out.append(
            lines.finished(s, game.entry.lineup, end, died[:, g], body, game.seed, game.index)
        )
    return out
