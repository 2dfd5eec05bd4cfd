"""The line finder: breadth-first search over the focal team's legal joint actions.

The controller is deterministic, so the game after a sequence of focal joint actions is fixed
and a winning line is an open-loop sequence. Each depth expands every node of the frontier by
every legal joint action of the focal team (the product of each living focal agent's legal
moves and legal (target, Ultimate) pairs, RULES 3.5) and steps the children in chunks with the
vmapped engine and controller (`match._tick`, one tick). Children stream: per chunk the wins are
recorded, the games decided otherwise dropped, and only the ongoing children whose position is
new at this depth are kept (same state, observation and controller memory, by a 64-bit
fingerprint computed on the device; duplicates across chunks merge on the host), so memory
grows with the distinct open positions, not with the children.

When the children of a depth would exceed `budget`, the frontier is cut to the nodes with the
best heuristic value (score lead first, then the controller's hit points lost) whose children
fit (at least one node): the search is then *pruned* and may miss lines; otherwise it is
*exhaustive* and no shorter line exists than the first it finds. At most about
min(`budget`, `positions`) open positions are ever stored (plus one batch), the best by value
(a depth that had more is reported pruned), and none on the last depth searched or once a depth
has a win (without `deeper`); the bookkeeping is in `evaluation.search_frontier`.

Rarity: the fraction of first-tick joint actions from which the search found a win (exact:
each position carries the set of first-tick actions that reach it, merged sets united), and
the wins among the children of each depth.
"""

import dataclasses
import functools
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from evaluation import match
from evaluation import scenario_lines as lines
from evaluation import search_frontier as F
from evaluation.scenarios import Scenario
from policies.system import Lineup, as_system

_MIX = np.uint32(0x9E3779B1)
SMALL_CHUNK = 64


def _fingerprint(game: match.Rollout) -> jax.Array:
    """(2,) uint32 fingerprint of one node's state, observation and carries (bit patterns)."""
    leaves = [x for x in jax.tree.leaves((game.state, game.obs, game.carries)) if x.size]
    words = jnp.concatenate([jax.lax.bitcast_convert_type(
        x.astype(jnp.float32) if x.dtype != jnp.float32 else x, jnp.uint32
    ).ravel() for x in leaves])  # fmt: skip
    words = (words ^ (words >> 16)) * jnp.uint32(0x45D9F3B)
    words = words ^ (words >> 13)
    index = jnp.arange(words.size, dtype=jnp.uint32)
    a = jnp.sum(words * (index * _MIX + jnp.uint32(1)), dtype=jnp.uint32)
    b = jnp.sum(words * (index * jnp.uint32(0x85EBCA6B) + jnp.uint32(7)), dtype=jnp.uint32)
    return jnp.stack([a, b])


_GIVEN: dict[int, tuple] = {}


def _given_lineup(lineup: Lineup, control: int) -> Lineup:
    """`lineup` with System `control` swapped for one that plays what its carry holds:
    (its actions, its next carry), worked out once per parent by `_controller_moves`."""
    system = lineup.systems[control]
    if id(system) not in _GIVEN:
        given = as_system(lambda obs, masks, carry, key: (carry[0], carry), name=system.name)
        _GIVEN[id(system)] = (system, given)
    systems = list(lineup.systems)
    systems[control] = _GIVEN[id(system)][1]
    return dataclasses.replace(lineup, systems=tuple(systems))


@functools.partial(jax.jit, static_argnums=(0, 1))
def _controller_moves(lineup: Lineup, control: int, parents: match.Rollout):
    """The controller's (actions, next carry) in each parent position, as `match._tick` asks
    for them: the controller sees only the parent, so all its children share them."""
    system = lineup.systems[control]

    def one(game):
        keys = match.system_keys(game.key, game.state.tick, len(lineup.systems))
        return system.act(game.obs, game.obs.mask, game.carries[control], keys[control])

    return jax.vmap(one)(parents)


@functools.partial(jax.jit, static_argnums=(0, 1, 2))
def _expand(config, lineup: Lineup, control: int, games: match.Rollout, moves, parent_of):
    """One tick of each child (`match._tick`) with the controller's moves of its parent
    (`moves` rows `parent_of`); returns the next Rollouts and their fingerprints."""
    carries = list(games.carries)
    carries[control] = jax.tree.map(lambda x: x[parent_of], moves)
    step = jax.vmap(functools.partial(match._tick, config, _given_lineup(lineup, control)))
    nxt, _ = step(games._replace(carries=tuple(carries)))
    carries = list(nxt.carries)
    carries[control] = carries[control][1]
    nxt = nxt._replace(carries=tuple(carries))
    return nxt, jax.vmap(_fingerprint)(nxt)


joint_actions = F.joint_actions


@dataclass
class SearchReport:
    """What `solve` found: winning lines (combat plan -> one (ticks, 10, 3) line), the depth of
    the first win, whether every depth was searched in full, per-depth counts, rarity, and the
    wall time (seconds) and peak resident memory (MiB) of the search."""

    lines: dict = field(default_factory=dict)
    first_win_depth: int | None = None
    exhaustive: bool = True
    pruned_at: list = field(default_factory=list)
    depths: list = field(default_factory=list)  # dicts: depth, frontier, children, wins, unique
    first_tick_actions: int = 0
    first_tick_winning: int = 0
    seconds: float = 0.0
    peak_rss_mib: float = 0.0

    @property
    def first_tick_fraction(self) -> float:
        return self.first_tick_winning / max(self.first_tick_actions, 1)

    @property
    def shortest_proven(self) -> bool:
        """No line shorter than the first win exists: every depth before it was searched in
        full (a cut at the winning depth itself or later hides no shorter line)."""
        return self.first_win_depth is not None and all(
            depth >= self.first_win_depth for depth, _, _ in self.pruned_at
        )


def _value(state, focal: int) -> np.ndarray:
    """Heuristic of nodes (higher first): score lead, then the controller's hit points lost."""
    score = np.asarray(state.score)
    lead = score[:, focal] - score[:, 1 - focal]
    enemy = slice((1 - focal) * C.TEAM_SIZE, (2 - focal) * C.TEAM_SIZE)
    own = slice(focal * C.TEAM_SIZE, (focal + 1) * C.TEAM_SIZE)
    health = np.asarray(state.health)
    return lead * 1000.0 - health[:, enemy].sum(1) + 0.1 * health[:, own].sum(1)


def _plan(table: np.ndarray, slots) -> tuple:
    """A line's combat plan: per tick, each focal slot's (target, ult); moves left out."""
    return tuple(tuple(int(v) for s in slots for v in table[t, s, 1:]) for t in range(len(table)))


def _expansion_order(frontier: F.Frontier, slots, budget, report, depth) -> np.ndarray:
    """The kept frontier positions to expand, in order: all of them, or (when the children of
    all `frontier.count` positions would exceed `budget`) the best by value whose children fit
    (at least one); a cut is recorded in `report` as (depth, positions, kept)."""
    counts = F.option_counts(frontier.move, frontier.pair, slots)
    order = np.arange(len(counts))
    if len(counts) < frontier.count or counts.sum() > budget:
        by_value = np.argsort(-frontier.value, kind="stable")
        keep = max(int(np.searchsorted(np.cumsum(counts[by_value]), budget, side="right")), 1)
        if keep < frontier.count:
            order = by_value[:keep]
            report.exhaustive = False
            report.pruned_at.append((depth, frontier.count, keep))
    return order


def _step_chunk(scenario, lineup, frontier: F.Frontier, parents, actions, chunk, key):
    """One padded batch of children stepped one tick: (next Rollout on the device, (n,)
    outcome codes, (n,) uint64 fingerprints) for the n = len(parents) real children. Batches
    are `chunk` games, or SMALL_CHUNK when n is at most that (two compiled sizes); their
    parents (at most SMALL_CHUNK) get the controller's moves in one batch of SMALL_CHUNK."""
    size = chunk if len(parents) > SMALL_CHUNK else SMALL_CHUNK
    pad = size - len(parents)
    idx = np.concatenate([parents, np.full(pad, parents[0])])  # no new parent
    acts = np.concatenate([actions, np.zeros((pad, C.NUM_SLOTS, 3), np.int32)])
    distinct, parent_of = np.unique(idx, return_inverse=True)
    distinct = np.concatenate([distinct, np.zeros(SMALL_CHUNK - len(distinct), distinct.dtype)])
    control = _control_index(lineup)
    idle = _line_carries(np.zeros((SMALL_CHUNK, C.NUM_SLOTS, 3), np.int32))
    moves = _controller_moves(lineup, control, frontier.games(distinct, idle, key(SMALL_CHUNK)))
    games = frontier.games(idx, _line_carries(acts), key(size))
    nxt, prints = _expand(scenario.config, lineup, control, games, moves, parent_of)
    n = len(parents)
    outcome = np.asarray(nxt.state.outcome)[:n]
    prints = np.asarray(prints)[:n].astype(np.uint64)
    return nxt, outcome, (prints[:, 0] << np.uint64(32)) | prints[:, 1]


def _control_index(lineup: Lineup) -> int:
    """The controller's index in a scenario lineup (the System that is not the line System)."""
    (control,) = [i for i, s in enumerate(lineup.systems) if s is not lines.line_system()]
    return control


def _line_carries(acts: np.ndarray):
    table = np.zeros((len(acts), lines.MAX_LINE, C.NUM_SLOTS, 3), np.int32)
    table[:, 0] = acts
    return (jnp.zeros(len(acts), jnp.int32), jnp.asarray(table))


def _record_wins(report, roots, paths, parents, actions, win, slots, start):
    """Add the winning children's lines (first of each combat plan) and their first-tick roots."""
    for i in np.flatnonzero(win):
        line = np.concatenate([paths.path(int(parents[i])), actions[i][None]])
        report.lines.setdefault(_plan(line, slots), line)
    roots.mark_won(roots.child_ids(parents[win], start + np.flatnonzero(win)))


def solve(
    scenario: Scenario,
    depth: int | None = None,
    budget: int = 20000,
    chunk: int = 512,
    deeper: bool = False,
    positions: int = 50_000,
):
    """Search for winning lines up to `depth` ticks (default the horizon). budget: children
    stepped per depth at most (beyond it the frontier is pruned, see the module doc); chunk:
    games per compiled batch (at least SMALL_CHUNK); deeper: go on past the first depth with
    a win (default: stop there, the shortest lines); positions: distinct open positions kept
    for the next depth at most (about 30 KB each on the host; the best by value, and a depth
    that had more is reported pruned). Returns a SearchReport."""
    watch = F.Watch()
    depth = depth or scenario.horizon
    lineup = lines.scenario_lineup(scenario)
    line_index = lineup.systems.index(lines.line_system())
    slots = scenario.focal_slots
    start = lines.start_rollout(scenario, lineup)
    value = functools.partial(_value, focal=scenario.focal_team)
    frontier = F.Frontier.of([start], line_index, value)
    key = F.batched_key(start.key)
    paths = F.Paths()
    report = SearchReport()
    roots = None
    for d in range(1, depth + 1):
        order = _expansion_order(frontier, slots, budget, report, d)
        if len(order) < len(frontier.move):  # let the cut positions go before stepping
            frontier = frontier.take(order)
            paths.take(order)
            roots.take(order)
            order = np.arange(len(order))
        total = int(F.option_counts(frontier.move[order], frontier.pair[order], slots).sum())
        if d == 1:
            report.first_tick_actions = total
            roots = F.Roots(total)
        last = d == depth
        merge = F.Merge(not last, line_index, min(budget, positions), value)
        wins = seen = 0
        for parents, actions in F.child_batches(frontier, slots, order, chunk, SMALL_CHUNK):
            nxt, outcome, prints = _step_chunk(
                scenario, lineup, frontier, parents, actions, chunk, key
            )
            win = outcome == scenario.win_code
            _record_wins(report, roots, paths, parents, actions, win, slots, seen)
            wins += int(win.sum())
            merge.keep &= not (wins and not deeper)  # this depth is the last: keep no positions
            alive = np.flatnonzero(outcome == C.ONGOING)
            merge.add(
                nxt, prints, alive, parents, actions, roots.child_ids(parents[alive], seen + alive)
            )
            seen += len(parents)
        if wins and report.first_win_depth is None:
            report.first_win_depth = d
        report.first_tick_winning = int(roots.won.sum())
        report.depths.append(
            {"depth": d, "frontier": len(frontier), "children": total, "wins": wins,
             "decided_otherwise": total - wins - merge.alive, "unique_open": len(merge)}
        )  # fmt: skip
        if not len(merge) or (wins and not deeper) or last:
            break
        frontier, ids, parents, actions = merge.frontier(roots)
        paths.extend(parents, actions)
        roots.advance(ids)
    report.seconds = watch.seconds()
    report.peak_rss_mib = watch.peak_rss_mib()
    return report
