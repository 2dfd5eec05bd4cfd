"""Cross-play: a team plays with strangers in some of its slots (seed 000, sections 7.7-7.8, S9).

For every team System T, opponent O and stranger S (any slot specs), the games are

- matched: T's whole team against O, in side-swapped pairs (Team A at the west end, then the
  east end, the tournament protocol) on the chosen maps;
- mixed: the same games (same maps, rosters, spawn ends and seeds) with the agents of k classes
  of T's team played by S instead, once for every set of k classes of the roster.

All games of one (T, O) block run in one compiled, vmapped batch: the Systems of the block (its
cast: T, O, then every stranger) are one `Lineup`, and each game carries its own (n, 10)
ownership table (`evaluation.match._tick`'s `owners`), so replacing another class or another
stranger is data, not a new compilation. A System's PRNG stream depends only on the game seed,
the tick and its index in the cast (match.system_keys), and T and O hold indices 0 and 1 in
every game, so a mixed game differs from its matched game only by the stranger's agents. A
stranger whose spec equals the team's is the team's own System: its games equal the matched
games and its cost is exactly zero.

Spacing (paper S9): at every tick an agent decided (ticks 0 to T-1 of its game), alive and with
at least one living teammate, its mean distance to its living teammates (map units); its
spacing in a game is the mean over those ticks (`spacing_terms`, `replay_spacing`).
"""

import itertools
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine.pool import CLASS_LETTERS, roster_text
from engine.types import Config
from evaluation import match
from evaluation.sharding import shard_games
from policies.slotspec import resolve_slots
from policies.system import Lineup

TEAM = 0  # the focal team plays Team A (slots 0-4); its opponent Team B
TEAM_SLOTS = np.arange(C.TEAM_SIZE)
OPPONENT_SLOTS = np.arange(C.TEAM_SIZE, C.NUM_SLOTS)
LETTER_OF = {v: k for k, v in CLASS_LETTERS.items()}


@dataclass(frozen=True)
class Plan:
    """What a cross-play run plays.

    teams / strangers / opponents: {name: slot spec}; maps: a map selection (ids, split names,
    files); roster: a mirrored roster such as "MWHRP" or "random" (evaluation.match.schedule);
    pairs: side-swapped pairs a block plays (2 * pairs matched games, the same again for every
    stranger and class set); replace: k, the number of the team's agents a stranger plays;
    seed: the first pair's seed (pair p uses seed + p).
    """

    teams: dict
    strangers: dict
    opponents: dict
    maps: str = "validation"
    roster: str = "MWHRP"
    pairs: int = 10
    replace: int = 1
    seed: int = 0

    def check(self) -> None:
        """Raise ValueError naming the field at fault."""
        for field in ("teams", "strangers", "opponents"):
            if not getattr(self, field):
                raise ValueError(f"crossplay: {field} is empty; give at least one NAME=SPEC")
        if self.pairs < 1:
            raise ValueError(f"crossplay: pairs {self.pairs} must be at least 1")
        if not 1 <= self.replace < C.TEAM_SIZE:
            raise ValueError(f"crossplay: replace {self.replace} must be 1-{C.TEAM_SIZE - 1}")

    def as_dict(self) -> dict:
        return dict(vars(self))


@dataclass(frozen=True)
class Game:
    """One game of a block: its setup, the stranger ("" for a matched game) and the team
    positions (0-4, Team A's slots) the stranger plays; `classes` names their classes."""

    setup: match.GameSetup
    stranger: str
    positions: tuple[int, ...]
    classes: str


def class_sets(roster: np.ndarray, k: int) -> list[tuple[int, ...]]:
    """The sets of k classes in Team A's half of a (10,) roster, sorted (class ids)."""
    present = sorted({int(c) for c in roster[: C.TEAM_SIZE] if c})
    if len(present) < k:
        raise ValueError(f"crossplay: roster {roster_text(roster)} has fewer than {k} classes")
    return list(itertools.combinations(present, k))


def positions_of(roster: np.ndarray, classes: tuple[int, ...]) -> tuple[int, ...]:
    """Team positions of the first agent of each class in `classes` (Team A's half)."""
    team = [int(c) for c in roster[: C.TEAM_SIZE]]
    return tuple(sorted(team.index(c) for c in classes))


def block_games(plan: Plan, team: str) -> list[Game]:
    """Every game of team `team`'s block against one opponent, in a fixed order: the matched
    games, then per stranger (plan order) and class set (sorted) the mixed games. The class
    sets come from the first pair's roster (a "random" roster keeps its classes)."""
    setups = match.schedule(plan.maps, [plan.roster], 2 * plan.pairs, plan.seed)
    games = [Game(s, "", (), "") for s in setups]
    for stranger in plan.strangers:
        for classes in class_sets(setups[0].roster, plan.replace):
            letters = "".join(LETTER_OF[c] for c in classes)
            for s in setups:
                games.append(Game(s, stranger, positions_of(s.roster, classes), letters))
    return [
        Game(
            match.GameSetup(g.setup.map, g.setup.roster, g.setup.spawn_end, g.setup.seed, i),
            g.stranger,
            g.positions,
            g.classes,
        )
        for i, g in enumerate(games)
    ]


def build_cast(plan: Plan, team: str, opponent: str) -> tuple[Lineup, dict[str, int]]:
    """The block's Systems as one Lineup (team, opponent, then the strangers whose spec differs
    from the team's) and each stranger's index in it (0 for the team's own spec)."""
    team_spec, cast = plan.teams[team], [(plan.teams[team], TEAM_SLOTS)]
    cast.append((plan.opponents[opponent], OPPONENT_SLOTS))
    index = {}
    for name, spec in plan.strangers.items():
        if spec == team_spec:
            index[name] = 0
            continue
        index[name] = len(cast)
        cast.append((spec, TEAM_SLOTS))
    systems = []
    for spec, slots in cast:
        specs = [spec if s in slots else "" for s in range(C.NUM_SLOTS)]
        systems.append(resolve_slots(specs).systems[0])
    owners = np.zeros((len(cast), C.NUM_SLOTS), bool)
    owners[0, TEAM_SLOTS], owners[1, OPPONENT_SLOTS] = True, True
    specs = tuple([team_spec] * C.TEAM_SIZE + [plan.opponents[opponent]] * C.TEAM_SIZE)
    return Lineup(systems=tuple(systems), owners=owners, specs=specs), index


def owners_table(size: int, stranger_index: int | None, positions) -> np.ndarray:
    """(size, 10) bool: the team (0) holds Team A but for `positions`, which the stranger
    (stranger_index) holds; the opponent (1) holds Team B."""
    owners = np.zeros((size, C.NUM_SLOTS), bool)
    owners[0, TEAM_SLOTS] = True
    owners[1, OPPONENT_SLOTS] = True
    if stranger_index is not None and positions:
        owners[0, list(positions)] = False
        owners[stranger_index, list(positions)] = True
    return owners


def spacing_terms(pos, alive) -> jax.Array:
    """Spacing of one tick: pos (10, 2) float32 map units, alive (10,) bool -> (10, 2) float32:
    each agent's mean distance to its living teammates, and 1.0 where the tick counts (the
    agent is alive and has a living teammate; both 0.0 elsewhere). Works on NumPy too."""
    pos, alive = jnp.asarray(pos, jnp.float32), jnp.asarray(alive, bool)
    team = jnp.asarray(C.TEAM_OF_SLOT)
    mate = (team[:, None] == team[None, :]) & ~jnp.eye(C.NUM_SLOTS, dtype=bool) & alive[None]
    dist = jnp.sqrt(jnp.sum((pos[:, None, :] - pos[None, :, :]) ** 2, axis=-1))
    count = jnp.sum(mate, axis=1)
    counted = alive & (count > 0)
    mean = jnp.sum(jnp.where(mate, dist, 0.0), axis=1) / jnp.maximum(count, 1)
    return jnp.stack([jnp.where(counted, mean, 0.0), counted.astype(jnp.float32)], axis=-1)


def replay_spacing(pos: np.ndarray, alive: np.ndarray) -> np.ndarray:
    """Spacing sums of a recorded game: pos (T+1, 10, 2), alive (T+1, 10) (a replay's states)
    -> (10, 2) float64 [sum of per-tick mean teammate distance, ticks counted] over ticks 0 to
    T-1 (the ticks at which the agents decided). Spacing = sum / ticks."""
    terms = jax.vmap(spacing_terms)(pos[:-1], alive[:-1])
    return np.asarray(terms, np.float64).sum(axis=0)


@partial(jax.jit, static_argnums=(0, 1))
def _play_block(config: Config, lineup: Lineup, games: match.Rollout, owners: jax.Array):
    """Play a vmapped batch to the end with per-game owners (batch, n, 10); returns the final
    Rollout and the spacing sums (batch, 10, 2) of every game."""
    step = jax.vmap(partial(match._tick, config, lineup))

    def cond(carry):
        return jnp.any(carry[0].state.outcome == C.ONGOING)

    def body(carry):
        game, sums = carry
        live = (game.state.outcome == C.ONGOING)[:, None, None]
        terms = jax.vmap(spacing_terms)(game.state.pos, game.state.alive)
        return step(game, owners)[0], sums + jnp.where(live, terms, 0.0)

    sums = jnp.zeros((owners.shape[0], C.NUM_SLOTS, 2), jnp.float32)
    return jax.lax.while_loop(cond, body, (games, sums))


def play_games(config: Config, lineup: Lineup, index: dict, games: list[Game], size: int):
    """Play `games` (at most `size`) of one block as one batch of `size` games (padded, sharded
    over the local devices); host Systems are stepped game by game. Returns, in order, a list of
    (match.result_row dict, (10, 2) spacing sums)."""
    owners = [owners_table(len(lineup.systems), index.get(g.stranger), g.positions) for g in games]
    if not lineup.all_jax:
        return [_host_game(config, lineup, g, o) for g, o in zip(games, owners, strict=True)]
    padded = list(games) + [games[-1]] * (size - len(games))
    owners = owners + [owners[-1]] * (size - len(games))
    rollouts = match._stack([match.start(config, lineup, g.setup) for g in padded])
    rollouts, owners = shard_games((rollouts, jnp.asarray(owners)))
    final, sums = _play_block(config, lineup, rollouts, owners)
    state, sums = jax.device_get(final.state), np.asarray(sums, np.float64)
    return [
        (match.result_row(g.setup, jax.tree.map(lambda x, i=i: x[i], state)), sums[i])
        for i, g in enumerate(games)
    ]


def _host_game(config, lineup, game: Game, owners):
    from dataclasses import replace

    mixed = replace(lineup, owners=owners)
    state, trace, _ = match.host_game(config, mixed, game.setup, record=True)
    states = trace["states"]
    return match.result_row(game.setup, state), replay_spacing(states["pos"], states["alive"])


def game_row(plan_names: tuple[str, str], game: Game, result: dict, sums) -> dict:
    """One results row: who played (team, stranger, classes, opponent), the game's setup and
    result from the team's side (margin = team points - opponent points; result 1 win, 0.5
    draw, 0 loss) and each team position's spacing sum and ticks (`spacing_terms`)."""
    team, opponent = plan_names
    winner = result["winner"]
    row = {
        "team": team,
        "stranger": game.stranger,
        "classes": game.classes,
        "positions": ",".join(map(str, game.positions)),
        "opponent": opponent,
        "game": int(game.setup.index),
        "seed": int(game.setup.seed),
        "map_id": result["map_id"],
        "map_name": result["map_name"],
        "spawn_end": result["spawn_end"],
        "roster": result["roster"],
        "score_team": result["score_a"],
        "score_opponent": result["score_b"],
        "margin": result["score_a"] - result["score_b"],
        "result": 1.0 if winner == "A" else 0.5 if winner == "draw" else 0.0,
        "ticks": result["ticks"],
    }
    for p in range(C.TEAM_SIZE):
        row[f"spacing_sum_{p}"] = float(sums[p, 0])
        row[f"spacing_ticks_{p}"] = int(round(sums[p, 1]))
    return row
