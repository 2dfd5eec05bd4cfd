"""The line finder: breadth-first search over the focal team's legal joint actions.

The controller is deterministic, so the game after a sequence of focal joint actions is fixed
and a winning line is an open-loop sequence. Each depth takes the frontier's positions through
two passes (`evaluation.search_probe` says what each relies on, RULES 4):

- the *probe*: the positions are grouped by combat view (what a tick's outcome reads of them)
  and the first of each group steps one child per combat class (each living focal agent's
  legal (target, Ultimate) pair, RULES 3.5), every focal agent on Stay. A tick's outcome does
  not depend on its moves, so this says for every child of the depth whether it wins, is
  otherwise decided or goes on; wins and counts are those of stepping every child.
- the *expansion* (only when the depth has no win, or with `deeper`): every child of an
  ongoing class, each move combination, is stepped in chunks with the vmapped engine and
  controller (`match._tick`, one tick). Per chunk only the children whose position is new at
  this depth are kept (same state, observation and controller memory, by a 64-bit fingerprint
  computed on the device; duplicates across chunks merge on the host), so memory grows with
  the distinct open positions, not with the children.

When a pass would step more than `budget` children, the positions (the probe: the groups) are
cut to those `search_probe.spread_order` takes first, by five keys in turn (score lead, focal
hit points, closeness to an enemy, stunned enemies, a spread), whose children fit (at least
one): the search is then *pruned* and may miss lines; otherwise it is *exhaustive* and no
shorter line exists than the first it finds. At most about min(`budget`, `positions`) open
positions are ever stored (plus one batch; a depth that had more is reported pruned), and none
on the last depth searched or once a depth has a win (without `deeper`); the bookkeeping is in
`evaluation.search_frontier`.

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
from evaluation import search_probe as P
from evaluation.scenarios import Scenario
from policies.system import Lineup, as_system

SMALL_CHUNK = 64


def _fingerprint(game: match.Rollout) -> jax.Array:
    """(2,) uint32 fingerprint of one node's state, observation and carries (bit patterns)."""
    return P.tree_hash((game.state, game.obs, game.carries))


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
    pruned_at: list = field(default_factory=list)  # (depth, positions, kept) per cut depth
    hidden_from: int | None = None  # the first depth whose wins a cut may have hidden
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
        """No line shorter than the first win exists: no cut could hide a win before its depth
        (a probe cut at depth d may hide wins on tick d, an expansion cut from tick d + 1)."""
        return self.first_win_depth is not None and (
            self.hidden_from is None or self.hidden_from >= self.first_win_depth
        )


def _plan(table: np.ndarray, slots) -> tuple:
    """A line's combat plan: per tick, each focal slot's (target, ult); moves left out."""
    return tuple(tuple(int(v) for s in slots for v in table[t, s, 1:]) for t in range(len(table)))


def _best(keys: np.ndarray, counts: np.ndarray, budget: int) -> np.ndarray:
    """The items (sorted indices) a cut keeps: all when their `counts` children fit in `budget`,
    else those `search_probe.spread_order` takes first (by `keys`) whose children fit (at
    least one)."""
    if counts.sum() <= budget:
        return np.arange(len(counts))
    by_keys = P.spread_order(keys)
    keep = max(int(np.searchsorted(np.cumsum(counts[by_keys]), budget, side="right")), 1)
    return np.sort(by_keys[:keep])


def _cut(frontier: F.Frontier, counts: np.ndarray, budget: int, report, depth) -> np.ndarray:
    """The kept frontier positions to step (`_best` of the `counts` (k,) children); a cut, or
    positions `search_frontier.Merge` left out (k < `frontier.count`), is recorded in `report`
    as (depth, positions, kept)."""
    order = _best(frontier.value, counts, budget)
    if len(order) < frontier.count:
        _record_cut(report, depth, frontier.count, len(order), depth + 1)
    return order


def _record_cut(report, depth: int, positions: int, kept: int, hides: int) -> None:
    """Note a cut (depth, positions, kept) that may hide wins from depth `hides` on; a second
    cut of one depth replaces its first."""
    report.exhaustive = False
    report.hidden_from = min(hides, report.hidden_from or hides)
    if report.pruned_at and report.pruned_at[-1][0] == depth:
        report.pruned_at.pop()
    report.pruned_at.append((depth, positions, kept))


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


def _signatures(frontier: F.Frontier, lineup: Lineup, chunk: int, key) -> np.ndarray:
    """(k,) uint64 `search_probe.signatures` of the k kept frontier positions, in batches of
    `chunk` (padded with position 0)."""
    out, control, k = [], _control_index(lineup), len(frontier.move)
    idle = _line_carries(np.zeros((chunk, C.NUM_SLOTS, 3), np.int32))
    for lo in range(0, k, chunk):
        idx = np.arange(lo, lo + chunk)
        idx[idx >= k] = 0
        prints = np.asarray(P.signatures(lineup, control, frontier.games(idx, idle, key(chunk))))
        out.append(prints[: min(chunk, k - lo)].astype(np.uint64))
    prints = np.concatenate(out)
    return (prints[:, 0] << np.uint64(32)) | prints[:, 1]


def _probe(scenario, lineup, frontier, reps, slots, chunk, key) -> list:
    """Each representative position's class outcomes: a list of (c,) int32 outcome codes, one
    child per combat class (`search_probe.class_index` order) with every focal agent on Stay."""
    stay = P.stay_only(frontier.move)
    codes = {int(r): [] for r in reps}

    def classes(i):
        acts = F.joint_actions(stay[i], frontier.pair[i], slots)
        return acts, np.arange(len(acts))

    for parents, actions, _ in F.child_batches(classes, reps, chunk, SMALL_CHUNK):
        _, outcome, _ = _step_chunk(scenario, lineup, frontier, parents, actions, chunk, key)
        for r in np.unique(parents).tolist():
            codes[r].append(outcome[parents == r])
    return [np.concatenate(codes[int(r)]) for r in reps]


def _record_probe(report, roots, paths, frontier, group, outcomes, slots, win_code) -> tuple:
    """Add the lines and first-tick roots the probe's wins give every position of a winning
    group (positions in frontier order, classes in order: the first line of each combat plan,
    as stepping every child would find); returns (wins, decided otherwise) counted as children
    (each class times its position's move combinations)."""
    moves = P.move_counts(frontier.move, slots)
    n_win = np.array([(c == win_code).sum() for c in outcomes], np.int64)[group]
    n_done = np.array([(c != C.ONGOING).sum() for c in outcomes], np.int64)[group]
    stay = P.stay_only(frontier.move)
    for i in np.flatnonzero(n_win).tolist():
        won = np.flatnonzero(outcomes[group[i]] == win_code)
        acts = F.joint_actions(stay[i], frontier.pair[i], slots)[won]
        for act in acts:
            line = np.concatenate([paths.path(i), act[None]])
            report.lines.setdefault(_plan(line, slots), line)
        if roots.node_ids is None:  # first tick: the won first-tick actions are all move variants
            cls = P.class_index(frontier.move[i], frontier.pair[i], slots)
            roots.mark_won(np.flatnonzero(np.isin(cls, won)))
        else:
            roots.mark_won(roots.node_ids[[i]])
    wins = int((n_win * moves).sum())
    return wins, int(((n_done - n_win) * moves).sum())


def _ongoing_children(frontier, group, outcomes, slots):
    """position -> (its joint actions whose combat class goes on, their rows in its list)."""

    def of(i: int):
        acts = F.joint_actions(frontier.move[i], frontier.pair[i], slots)
        cls = P.class_index(frontier.move[i], frontier.pair[i], slots)
        rows = np.flatnonzero(outcomes[group[i]][cls] == C.ONGOING)
        return acts[rows], rows

    return of


def _take(frontier, paths, roots, rows):
    """Let the positions a cut leaves out go before stepping (`rows` kept, renumbered)."""
    paths.take(rows)
    if roots.node_ids is not None:
        roots.take(rows)
    return frontier.take(rows)


def _probe_depth(scenario, lineup, frontier, paths, roots, budget, chunk, key, report, d):
    """The probe of one depth: positions grouped by combat view, one child per combat class of
    each group's first position, the groups cut (`_best`) to `budget` such children. Returns
    (frontier, group (k,), outcomes per group, children stepped)."""
    slots = scenario.focal_slots
    first, group = P.groups(_signatures(frontier, lineup, chunk, key))
    classes = F.option_counts(P.stay_only(frontier.move[first]), frontier.pair[first], slots)
    kept = _best(frontier.value[first], classes, budget)
    if len(kept) < len(first) or len(frontier.move) < frontier.count:
        rows = np.flatnonzero(np.isin(group, kept))
        _record_cut(report, d, frontier.count, len(rows), d)
        frontier = _take(frontier, paths, roots, rows)
        first, group = P.groups(group[rows])
    outcomes = _probe(scenario, lineup, frontier, first, slots, chunk, key)
    return frontier, group, outcomes, int(classes[kept].sum())


def _expand_depth(scenario, lineup, held, probed, merge, budget, chunk, key, report, d) -> int:
    """Step every child of the kept positions whose combat class the probe found ongoing (cut
    to `budget` children) into `merge`; returns the children stepped. Raises RuntimeError if
    one of them is decided after all (the probe's reduction would be wrong)."""
    frontier, paths, roots = held
    group, outcomes = probed
    slots = scenario.focal_slots
    going = np.array([(c == C.ONGOING).sum() for c in outcomes], np.int64)[group]
    order = _cut(frontier, going * P.move_counts(frontier.move, slots), budget, report, d)
    stepped = 0
    children = _ongoing_children(frontier, group, outcomes, slots)
    for parents, actions, rows in F.child_batches(children, order, chunk, SMALL_CHUNK):
        nxt, outcome, prints = _step_chunk(scenario, lineup, frontier, parents, actions, chunk, key)
        if (outcome != C.ONGOING).any():
            raise RuntimeError(
                f"scenario {scenario.id} depth {d}: a child of an ongoing combat class was "
                "decided; a tick's outcome must not depend on its moves (RULES 4)"
            )
        ids = rows if roots.node_ids is None else roots.node_ids[parents]
        merge.add(nxt, prints, np.arange(len(parents)), parents, actions, ids)
        stepped += len(parents)
    return stepped


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
    for the next depth at most (about 30 KB each on the host; those `spread_order` takes
    first, and a depth that had more is reported pruned). Returns a SearchReport."""
    watch = F.Watch()
    depth = depth or scenario.horizon
    lineup = lines.scenario_lineup(scenario)
    line_index = lineup.systems.index(lines.line_system())
    slots = scenario.focal_slots
    start = lines.start_rollout(scenario, lineup)
    value = functools.partial(P.position_keys, focal=scenario.focal_team)
    frontier = F.Frontier.of([start], line_index, value)
    key = F.batched_key(start.key)
    paths = F.Paths()
    report = SearchReport()
    report.first_tick_actions = int(F.option_counts(frontier.move, frontier.pair, slots)[0])
    roots = F.Roots(report.first_tick_actions)
    for d in range(1, depth + 1):
        frontier, group, outcomes, stepped = _probe_depth(
            scenario, lineup, frontier, paths, roots, budget, chunk, key, report, d
        )
        total = int(F.option_counts(frontier.move, frontier.pair, slots).sum())  # the probed
        wins, other = _record_probe(
            report, roots, paths, frontier, group, outcomes, slots, scenario.win_code
        )
        report.first_tick_winning = int(roots.won.sum())
        row = {"depth": d, "frontier": len(frontier), "children": total, "wins": wins,
               "decided_otherwise": other, "unique_open": None, "stepped": stepped}  # fmt: skip
        report.depths.append(row)
        if wins and report.first_win_depth is None:
            report.first_win_depth = d
        if (wins and not deeper) or d == depth:
            break
        merge = F.Merge(True, line_index, min(budget, positions), value)
        row["stepped"] += _expand_depth(
            scenario, lineup, (frontier, paths, roots), (group, outcomes), merge, budget, chunk,
            key, report, d,
        )  # fmt: skip
        row["unique_open"] = len(merge)
        if not len(merge):
            break
        frontier, ids, parents, actions = merge.frontier(roots)
        paths.extend(parents, actions)
        roots.advance(ids)
    report.seconds = watch.seconds()
    report.peak_rss_mib = watch.peak_rss_mib()
    return report
