"""The line finder: breadth-first search over the focal team's legal joint actions.

The controller is deterministic, so the game after a sequence of focal joint actions is fixed
and a winning line is an open-loop sequence. Each depth expands every node of the frontier by
every legal joint action of the focal team (the product of each living focal agent's legal
moves and legal (target, Ultimate) pairs, RULES 3.5), steps all children at once with the
vmapped engine and controller (`scenario_lines.run_games`, one tick), keeps the wins, drops
the games decided otherwise, and merges children that reached the same position (same state,
observation and controller memory, by a 64-bit fingerprint computed on the device).

When the children of a depth would exceed `budget`, the frontier is cut to the nodes with the
best heuristic value (score lead first, then the controller's hit points lost): the search is
then *pruned* and may miss lines; otherwise it is *exhaustive* and no shorter line exists than
the first it finds. Rarity: the fraction of first-tick joint actions from which the search
found a win, and the fraction of children that win at each depth.
"""

import functools
import itertools
import time
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from evaluation import match
from evaluation import scenario_lines as lines
from evaluation.scenarios import Scenario

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


@functools.partial(jax.jit, static_argnums=(0, 1))
def _expand(config, lineup, games: match.Rollout):
    step = jax.vmap(functools.partial(match._tick, config, lineup))
    nxt, _ = step(games)
    return nxt, jax.vmap(_fingerprint)(nxt)


def joint_actions(mask_move, mask_pair, slots) -> np.ndarray:
    """Every legal joint action of `slots` (team-frame masks (10, 9), (10, 11, 2)) as an
    (n, 10, 3) int32 array; slots without a legal choice but the no-op contribute only it."""
    per_slot = []
    for s in slots:
        moves = np.flatnonzero(mask_move[s])
        pairs = np.argwhere(mask_pair[s])
        per_slot.append([(m, t, u) for m in moves for t, u in pairs])
    out = np.zeros((int(np.prod([len(p) for p in per_slot])), C.NUM_SLOTS, 3), np.int32)
    for i, combo in enumerate(itertools.product(*per_slot)):
        for s, action in zip(slots, combo, strict=True):
            out[i, s] = action
    return out


@dataclass
class SearchReport:
    """What `solve` found: winning lines (combat plan -> one (ticks, 10, 3) line), the depth of
    the first win, whether every depth was searched in full, per-depth counts and rarity."""

    lines: dict = field(default_factory=dict)
    first_win_depth: int | None = None
    exhaustive: bool = True
    pruned_at: list = field(default_factory=list)
    depths: list = field(default_factory=list)  # dicts: depth, frontier, children, wins, unique
    first_tick_actions: int = 0
    first_tick_winning: int = 0
    seconds: float = 0.0

    @property
    def first_tick_fraction(self) -> float:
        return self.first_tick_winning / max(self.first_tick_actions, 1)


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


def _children(frontier, masks, slots, budget, report, depth, focal):
    """(parent index, action) of every child, after cutting the frontier to fit `budget`."""
    move, pair = (np.asarray(m) for m in masks)
    options = [joint_actions(move[i], pair[i], slots) for i in range(len(move))]
    counts = np.array([len(o) for o in options])
    order = np.arange(len(options))
    if counts.sum() > budget:
        order = np.argsort(-_value(jax.device_get(frontier.state), focal), kind="stable")
        keep = np.searchsorted(np.cumsum(counts[order]), budget, side="right")
        order = order[: max(int(keep), 1)]
        report.exhaustive = False
        report.pruned_at.append((depth, len(options), len(order)))
    parents = np.concatenate([np.full(counts[i], i) for i in order])
    actions = np.concatenate([options[i] for i in order])
    return parents, actions


def _step_chunks(scenario, lineup, frontier, parents, actions, chunk):
    """Step every child one tick, in padded chunks of `chunk` games (or SMALL_CHUNK when fewer
    are left: two compiled sizes)."""
    outs, prints = [], []
    lo = 0
    while lo < len(parents):
        size = chunk if len(parents) - lo > SMALL_CHUNK else SMALL_CHUNK
        idx = parents[lo : lo + size]
        acts = actions[lo : lo + size]
        lo += size
        pad = size - len(idx)
        idx = np.concatenate([idx, np.zeros(pad, int)])
        acts = np.concatenate([acts, np.zeros((pad, C.NUM_SLOTS, 3), np.int32)])
        games = jax.tree.map(lambda x, idx=idx: x[idx], frontier)
        carries = tuple(
            _line_carries(acts) if s is lines.line_system() else c
            for s, c in zip(lineup.systems, games.carries, strict=True)
        )
        nxt, fp = _expand(scenario.config, lineup, games._replace(carries=carries))
        keep = size - pad
        outs.append(jax.tree.map(lambda x, keep=keep: x[:keep], nxt))
        prints.append(np.asarray(fp)[:keep])
    merged = jax.tree.map(lambda *xs: jnp.concatenate(xs), *outs)
    return merged, np.concatenate(prints)


def _line_carries(acts: np.ndarray):
    table = np.zeros((len(acts), lines.MAX_LINE, C.NUM_SLOTS, 3), np.int32)
    table[:, 0] = acts
    return (jnp.zeros(len(acts), jnp.int32), jnp.asarray(table))


def solve(
    scenario: Scenario,
    depth: int | None = None,
    budget: int = 20000,
    chunk: int = 512,
    deeper: bool = False,
):
    """Search for winning lines up to `depth` ticks (default the horizon). budget: children
    stepped per depth at most (beyond it the frontier is pruned, see the module doc); chunk:
    games per compiled batch; deeper: go on past the first depth with a win (default: stop
    there, the shortest lines). Returns a SearchReport."""
    started = time.perf_counter()
    depth = depth or scenario.horizon
    lineup = lines.scenario_lineup(scenario)
    slots = scenario.focal_slots
    frontier = match._stack([lines.start_rollout(scenario, lineup)])
    paths = [np.zeros((0, C.NUM_SLOTS, 3), np.int32)]
    roots: list[frozenset] = [frozenset()]
    report = SearchReport()
    won_roots: set = set()
    for d in range(1, depth + 1):
        masks = (frontier.obs.mask.move, frontier.obs.mask.pair)
        parents, actions = _children(frontier, masks, slots, budget, report, d, scenario.focal_team)
        if d == 1:
            report.first_tick_actions = len(actions)
        child, prints = _step_chunks(scenario, lineup, frontier, parents, actions, chunk)
        outcome = np.asarray(child.state.outcome)
        win = outcome == scenario.win_code
        child_roots = [
            frozenset([i]) if d == 1 else roots[p] for i, p in enumerate(parents.tolist())
        ]
        winning_roots: set = set()
        for i in np.flatnonzero(win):
            line = np.concatenate([paths[parents[i]], actions[i][None]])
            report.lines.setdefault(_plan(line, slots), line)
            winning_roots |= child_roots[i]
        if win.any() and report.first_win_depth is None:
            report.first_win_depth = d
        won_roots |= winning_roots
        report.first_tick_winning = len(won_roots)
        alive = np.flatnonzero(outcome == C.ONGOING)
        unique: dict[bytes, int] = {}
        merged_roots: dict[int, set] = {}
        for i in alive.tolist():
            key = prints[i].tobytes()
            first = unique.setdefault(key, i)
            merged_roots.setdefault(first, set()).update(child_roots[i])
        kept = np.array(sorted(unique.values()), int)
        report.depths.append(
            {"depth": d, "frontier": int(len(paths)), "children": int(len(actions)),
             "wins": int(win.sum()),
             "decided_otherwise": int(len(actions) - win.sum() - len(alive)),
             "unique_open": int(len(kept))}
        )  # fmt: skip
        if not len(kept) or (win.any() and not deeper):
            break
        paths = [np.concatenate([paths[parents[i]], actions[i][None]]) for i in kept]
        roots = [frozenset(merged_roots[i]) for i in kept]
        frontier = jax.tree.map(lambda x, kept=kept: x[kept], child)
    report.seconds = time.perf_counter() - started
    return report
