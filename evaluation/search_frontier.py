"""The line finder's bookkeeping on the host (`evaluation.scenario_search`): joint actions,
the frontier of open positions, the merge of one depth's children, first-tick roots and paths.

Memory is bounded by the distinct open positions: a depth's children stream in batches
(`child_batches`), and `Merge` keeps of each batch only the ongoing children whose 64-bit
fingerprint is new at this depth. The frontier lives in host numpy arrays without the line
System's carry (the finder writes that carry afresh before every tick) and without the game
key (one key for every node: `match._tick` never changes it). First-tick roots (which
first-tick joint actions reach a position) are exact sets held as one integer id per position
(`Roots`), and lines as per-depth back-pointers (`Paths`), not one copy per position.
"""

import functools
import os
import resource
import time

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from evaluation import match
from evaluation.search_probe import spread_order


def _slot_options(move_row: np.ndarray, pair_row: np.ndarray) -> np.ndarray:
    """(k, 3) int32 (move, target, ult) of one slot: legal moves outer, legal pairs inner."""
    moves = np.flatnonzero(move_row)
    pairs = np.argwhere(pair_row)
    out = np.empty((len(moves) * len(pairs), 3), np.int32)
    out[:, 0] = np.repeat(moves, len(pairs))
    out[:, 1:] = np.tile(pairs, (len(moves), 1))
    return out


def joint_actions(mask_move, mask_pair, slots) -> np.ndarray:
    """Every legal joint action of `slots` (team-frame masks (10, 9), (10, 11, 2)) as an
    (n, 10, 3) int32 array in `itertools.product` order (the last slot varies fastest); other
    slots hold the no-op. n is the product of each slot's legal moves times its legal pairs."""
    options = [_slot_options(mask_move[s], mask_pair[s]) for s in slots]
    counts = [len(o) for o in options]
    out = np.zeros((int(np.prod(counts, dtype=np.int64)), C.NUM_SLOTS, 3), np.int32)
    if not slots:
        return out
    grid = np.indices(counts).reshape(len(slots), -1)
    for s, o, pick in zip(slots, options, grid, strict=True):
        out[:, s] = o[pick]
    return out


def option_counts(move: np.ndarray, pair: np.ndarray, slots) -> np.ndarray:
    """(n,) int64 joint actions of each of n positions (masks (n, 10, 9), (n, 10, 11, 2))."""
    counts = np.ones(len(move), np.int64)
    for s in slots:
        counts *= move[:, s].sum(-1, dtype=np.int64) * pair[:, s].sum((-1, -2), dtype=np.int64)
    return counts


class Nodes:
    """Positions on the host, (state, obs, the other Systems' carries) with a leading axis:
    numpy leaves, bool leaves of two or more axes bit-packed along their last axis
    (np.packbits: exact, 8x smaller; the pathfinding carry and the masks are mostly bools)."""

    def __init__(self, treedef, leaves, sizes):
        self.treedef, self.leaves, self.sizes = treedef, leaves, sizes

    @classmethod
    def pack(cls, tree) -> "Nodes":
        leaves, treedef = jax.tree.flatten(tree)
        sizes = [x.shape[-1] if x.dtype == bool and x.ndim > 1 else None for x in leaves]
        packed = [np.packbits(x, axis=-1) if n else x for x, n in zip(leaves, sizes, strict=True)]
        return cls(treedef, packed, sizes)

    def __len__(self) -> int:
        return len(self.leaves[0])

    def take(self, idx: np.ndarray) -> "Nodes":
        return Nodes(self.treedef, [x[idx] for x in self.leaves], self.sizes)

    @staticmethod
    def concat(parts: list) -> "Nodes":
        """The parts joined; each leaf of the parts is let go once joined (one copy at most)."""
        leaves = []
        for i in range(len(parts[0].leaves)):
            leaves.append(np.concatenate([p.leaves[i] for p in parts]))
            for p in parts:
                p.leaves[i] = None
        return Nodes(parts[0].treedef, leaves, parts[0].sizes)

    def unpack(self, idx: np.ndarray):
        """The positions `idx` as a pytree of numpy arrays (bools unpacked)."""
        leaves = [
            x[idx] if n is None else np.unpackbits(x[idx], axis=-1, count=n).astype(bool)
            for x, n in zip(self.leaves, self.sizes, strict=True)
        ]
        return jax.tree.unflatten(self.treedef, leaves)

    def nbytes(self) -> int:
        return sum(x.nbytes for x in self.leaves)


class Frontier:
    """The open positions of one depth kept for expansion, in order of first appearance:
    `nodes` (Nodes), their focal-frame masks `move` (k, 10, 9) and `pair` (k, 10, 11, 2) and
    heuristic `value` (k,) float; `count` is how many distinct open positions there were (more
    than k when `Merge` dropped the worst, see there)."""

    def __init__(self, nodes: Nodes, move, pair, value, line_index: int, count: int):
        self.nodes, self.move, self.pair, self.value = nodes, move, pair, value
        self.line_index, self.count = line_index, count

    @classmethod
    def of(cls, rollouts, line_index: int, value) -> "Frontier":
        """The frontier of `rollouts`; value: numpy states (n leading) -> (n,) float."""
        tree = host_nodes(match._stack(rollouts), line_index)
        mask = tree[1].mask
        return cls(
            Nodes.pack(tree), mask.move, mask.pair, value(tree[0]), line_index, len(rollouts)
        )

    def __len__(self) -> int:
        return self.count

    def take(self, rows: np.ndarray) -> "Frontier":
        """Only the kept positions `rows` (the others are let go); `count` stays."""
        return Frontier(
            self.nodes.take(rows), self.move[rows], self.pair[rows], self.value[rows],
            self.line_index, self.count,
        )  # fmt: skip

    def games(self, idx: np.ndarray, line_carry, keys) -> match.Rollout:
        """The Rollouts of kept positions `idx` with the line System's carry `line_carry`."""
        state, obs, others = self.nodes.unpack(idx)
        carries = list(others)
        carries.insert(self.line_index, line_carry)
        return match.Rollout(state, obs, tuple(carries), keys)


def host_nodes(games: match.Rollout, line_index: int):
    """A batch of Rollouts -> (state, obs, carries but the line System's) as numpy arrays."""
    others = tuple(c for i, c in enumerate(games.carries) if i != line_index)
    return jax.device_get((games.state, games.obs, others))


def batched_key(key: jax.Array):
    """size -> the game key `key` repeated `size` times (cached: two chunk sizes)."""
    return functools.cache(lambda size: jnp.broadcast_to(key, (size, *key.shape)))


def all_children(frontier: Frontier, slots):
    """position -> (its joint actions (n, 10, 3) as `joint_actions` lists them, arange(n))."""

    def of(i: int):
        acts = joint_actions(frontier.move[i], frontier.pair[i], slots)
        return acts, np.arange(len(acts))

    return of


def child_batches(children_of, order: np.ndarray, chunk: int, parents_at_most: int):
    """Yield (parents (m,) int64, actions (m, 10, 3) int32, rows (m,) int64) of every child of
    the positions in `order`, in order; children_of(i) gives position i's (actions, rows: their
    index in its full list of joint actions). Batches of `chunk` children of at most
    `parents_at_most` positions (the last one shorter)."""
    parents, actions, rows, held, held_parents = [], [], [], 0, 0
    for i in order.tolist():
        acts, index = children_of(i)
        lo = 0
        while lo < len(acts):
            if held_parents == parents_at_most:
                yield np.concatenate(parents), np.concatenate(actions), np.concatenate(rows)
                parents, actions, rows, held, held_parents = [], [], [], 0, 0
            take = min(chunk - held, len(acts) - lo)
            parents.append(np.full(take, i, np.int64))
            actions.append(acts[lo : lo + take])
            rows.append(index[lo : lo + take])
            held, lo, held_parents = held + take, lo + take, held_parents + 1
            if held == chunk:
                yield np.concatenate(parents), np.concatenate(actions), np.concatenate(rows)
                parents, actions, rows, held, held_parents = [], [], [], 0, 0
    if held:
        yield np.concatenate(parents), np.concatenate(actions), np.concatenate(rows)


class Roots:
    """Which first-tick joint actions reach each open position, exactly. Ids below `count`
    stand for the one first-tick action of that index; larger ids name merged sets (sorted
    int32 arrays). `won[i]`: a win was found from first-tick action i."""

    def __init__(self, count: int):
        self.count = count
        self.won = np.zeros(count, bool)
        self.sets: dict[int, np.ndarray] = {}
        self.node_ids: np.ndarray | None = None  # per frontier position; None on the first tick
        self._next = count

    def child_ids(self, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
        """Root ids of children: on the first tick their own index, later their parent's."""
        return children.astype(np.int64) if self.node_ids is None else self.node_ids[parents]

    def members(self, sid: int) -> np.ndarray:
        return np.array([sid], np.int64) if sid < self.count else self.sets[sid]

    def mark_won(self, ids: np.ndarray) -> None:
        self.won[ids[ids < self.count]] = True
        for sid in np.unique(ids[ids >= self.count]).tolist():
            self.won[self.sets[sid]] = True

    def union(self, ids) -> int:
        members = np.unique(np.concatenate([self.members(s) for s in ids]))
        if len(members) == 1:
            return int(members[0])
        sid, self._next = self._next, self._next + 1
        self.sets[sid] = members.astype(np.int32)
        return sid

    def take(self, rows: np.ndarray) -> None:
        """Keep only the frontier positions `rows`, renumbered 0.. in that order."""
        self.node_ids = self.node_ids[rows]

    def advance(self, node_ids: np.ndarray) -> None:
        """The next frontier's root ids; sets no position names any more are freed."""
        self.node_ids = node_ids
        live = np.unique(node_ids[node_ids >= self.count]).tolist()
        self.sets = {sid: self.sets[sid] for sid in live}


class Merge:
    """The distinct ongoing children of one depth, in order of first appearance: a child whose
    fingerprint was seen before merges its roots into the first one's. Stored for the next
    depth: while `keep`, each distinct child, but never more than about `cap`: past 1.25 cap
    only the `cap` that `search_probe.spread_order` takes first by value (ties: first
    appearance) stay. Every position has at least one joint action (every mask row allows the
    no-op, RULES 3.5), so a next depth cut to `budget` children steps at most `budget`
    positions anyway; a depth whose positions were not all stored is reported pruned
    (`scenario_search`)."""

    def __init__(self, keep: bool, line_index: int, cap: int, value):
        self.keep, self.line_index, self.cap, self.value = keep, line_index, cap, value
        self.seen: dict[int, int] = {}  # fingerprint -> index among the distinct children
        self.ids: list[int] = []  # root id of each distinct child's first occurrence
        self.extra: dict[int, list[int]] = {}  # distinct child -> root ids merged into it
        self.parts: list[dict] = []  # stored children: index, parent, action, masks, value, nodes
        self.stored = 0
        self.alive = 0

    def __len__(self) -> int:
        return len(self.seen)

    def add(self, nxt, prints, alive, parents, actions, child_ids) -> None:
        """Take one batch: nxt (its stepped Rollouts), prints (n,) uint64, alive (indices of
        the ongoing children), parents, actions and root ids (of the alive ones)."""
        self.alive += len(alive)
        new, index = [], []
        for i, key, sid in zip(
            alive.tolist(), prints[alive].tolist(), child_ids.tolist(), strict=True
        ):
            first = self.seen.get(key)
            if first is None:
                self.seen[key] = len(self.ids)
                index.append(len(self.ids))
                self.ids.append(sid)
                new.append(i)
            elif sid != self.ids[first]:
                self.extra.setdefault(first, []).append(sid)
        if not new or not self.keep:
            return
        new = np.asarray(new)
        tree = jax.tree.map(lambda x: x[new], host_nodes(nxt, self.line_index))
        self.parts.append({
            "index": np.asarray(index, np.int64), "parent": parents[new].astype(np.int32),
            "action": actions[new].astype(np.int8), "move": tree[1].mask.move,
            "pair": tree[1].mask.pair, "value": self.value(tree[0]), "nodes": Nodes.pack(tree),
        })  # fmt: skip
        self.stored += len(new)
        if self.stored > self.cap + self.cap // 4:
            self._cut()

    def _joined(self) -> dict:
        joined = {
            k: np.concatenate([p[k] for p in self.parts]) for k in self.parts[0] if k != "nodes"
        }
        joined["nodes"] = Nodes.concat([p["nodes"] for p in self.parts])
        return joined

    def _cut(self) -> None:
        """Keep the `cap` stored children `spread_order` takes first by value, in order of first
        appearance (each part keeps its own rows before they are joined: one copy of the kept
        ones at most)."""
        values = np.concatenate([p["value"] for p in self.parts])
        best = np.zeros(len(values), bool)
        best[spread_order(values)[: self.cap]] = True
        parts, lo = [], 0
        for p in self.parts:
            rows = np.flatnonzero(best[lo : lo + len(p["value"])])
            lo += len(p["value"])
            parts.append({k: v.take(rows) if k == "nodes" else v[rows] for k, v in p.items()})
            p.clear()  # frees this part's positions before the next one is copied
        self.parts = [p for p in parts if len(p["value"])]
        self.stored = int(best.sum())

    def frontier(self, roots: Roots) -> tuple[Frontier, np.ndarray, np.ndarray, np.ndarray]:
        """The next frontier, its (k,) root ids (merged sets made in `roots`), and each kept
        position's parent (k,) int32 and joint action (k, 10, 3) int8."""
        whole = self._joined()
        self.parts = []
        ids = np.asarray(self.ids, np.int64)
        for first, more in self.extra.items():
            ids[first] = roots.union([ids[first], *more])
        nodes = Frontier(
            whole["nodes"], whole["move"], whole["pair"], whole["value"], self.line_index, len(self)
        )
        return nodes, ids[whole["index"]], whole["parent"], whole["action"]


class Paths:
    """Back-pointers of the frontier positions: per depth, each position's parent and the
    (10, 3) joint action (int8) that reached it."""

    def __init__(self):
        self.parents: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []

    def extend(self, parents: np.ndarray, actions: np.ndarray) -> None:
        self.parents.append(parents)
        self.actions.append(actions)

    def take(self, rows: np.ndarray) -> None:
        """Keep only the frontier positions `rows`, renumbered 0.. in that order."""
        if not self.parents:  # the start position: nothing to renumber
            return
        self.parents[-1], self.actions[-1] = self.parents[-1][rows], self.actions[-1][rows]

    def path(self, node: int) -> np.ndarray:
        """(depth, 10, 3) int32: the joint actions from the start to frontier position `node`."""
        rows = []
        for parents, actions in zip(reversed(self.parents), reversed(self.actions), strict=True):
            rows.append(actions[node])
            node = int(parents[node])
        return np.array(rows[::-1], np.int32).reshape(-1, C.NUM_SLOTS, 3)


class Watch:
    """Wall time and peak resident memory from its creation: the kernel's peak (VmHWM) is reset
    through /proc/self/clear_refs (Linux, proc(5)) where it can be, else the process's peak
    since it started (`resource.getrusage`)."""

    def __init__(self):
        self.started = time.perf_counter()
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def peak_rss_mib(self) -> float:
        try:
            with open("/proc/self/status") as f:
                for row in f:
                    if row.startswith("VmHWM:"):
                        return int(row.split()[1]) / 1024
        except OSError:
            pass
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return rss / (1024 * 1024 if os.uname().sysname == "Darwin" else 1024)
