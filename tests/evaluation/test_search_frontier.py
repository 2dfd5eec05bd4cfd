"""The line finder's host bookkeeping (evaluation/search_frontier.py) against direct references:
joint actions in `itertools.product` order, batches that cover every child once in order, and
first-tick roots that stay the exact sets of the finder's first version (frozensets)."""

import itertools
from typing import NamedTuple

import jax
import numpy as np
import pytest

from engine import constants as C
from evaluation import match
from evaluation import search_frontier as F

rng = np.random.default_rng(17)


def _reference_joint_actions(mask_move, mask_pair, slots):
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


def _masks(n, density):
    move = rng.random((n, C.NUM_SLOTS, 9)) < density
    pair = rng.random((n, C.NUM_SLOTS, 11, 2)) < density / 2
    move[:, :, 0] = True  # Stay is always legal; the no-op pair too (RULES 3.5)
    pair[:, :, 0, 0] = True
    return move, pair


@pytest.mark.parametrize("slots", [(0,), (0, 1, 2), (5, 7), ()])
def test_joint_actions_match_itertools_product_order(slots):
    move, pair = _masks(6, 0.3)
    move[1, slots[:1], 1:] = False  # one position where a slot has only Stay
    pair[2, slots[-1:]] = False  # and one where a slot has nothing legal: no children
    for i in range(len(move)):
        got = F.joint_actions(move[i], pair[i], slots)
        want = _reference_joint_actions(move[i], pair[i], slots)
        assert got.dtype == np.int32 and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    counts = F.option_counts(move, pair, slots)
    assert counts.tolist() == [
        len(_reference_joint_actions(m, p, slots)) for m, p in zip(move, pair, strict=True)
    ]
    assert counts[2] == (0 if slots else 1)


class _Masks:
    def __init__(self, move, pair):
        self.move, self.pair = move, pair


@pytest.mark.parametrize(("chunk", "most"), [(1, 1), (7, 64), (512, 2), (512, 64)])
def test_child_batches_cover_every_child_once_in_order(chunk, most):
    move, pair = _masks(9, 0.25)
    slots = (0, 2)
    order = np.array([4, 0, 8, 3])
    children = F.all_children(_Masks(move, pair), slots)
    batches = list(F.child_batches(children, order, chunk, most))
    assert all(0 < len(p) <= chunk and len(set(p.tolist())) <= most for p, _, _ in batches)
    if most == 64:  # full batches but the last
        assert all(len(p) == chunk for p, _, _ in batches[:-1])
    parents = np.concatenate([p for p, _, _ in batches])
    actions = np.concatenate([a for _, a, _ in batches])
    rows = np.concatenate([r for _, _, r in batches])
    want = [_reference_joint_actions(move[i], pair[i], slots) for i in order]
    np.testing.assert_array_equal(parents, np.repeat(order, [len(w) for w in want]))
    np.testing.assert_array_equal(actions, np.concatenate(want))
    np.testing.assert_array_equal(rows, np.concatenate([np.arange(len(w)) for w in want]))


def test_roots_merge_exactly_like_sets():
    # Three depths of a random DAG; positions merge by a random fingerprint. The reference is
    # the finder's first version: a frozenset of first-tick indices per position.
    first = 40
    roots = F.Roots(first)
    ref_nodes = [frozenset([i]) for i in range(first)]
    node_ids = None
    won_ref: set = set()
    for depth in range(3):
        n_parents = first if depth == 0 else len(ref_nodes)
        parents = np.arange(first) if depth == 0 else rng.integers(0, n_parents, 120)
        children = np.arange(len(parents))
        ref_children = ref_nodes if depth == 0 else [ref_nodes[p] for p in parents]
        ids = roots.child_ids(parents, children)
        win = rng.random(len(parents)) < 0.05
        roots.mark_won(ids[win])
        won_ref |= set().union(*[ref_children[i] for i in np.flatnonzero(win)])
        prints = rng.integers(0, 25, len(parents)).astype(np.uint64)  # many merges
        alive = np.flatnonzero(~win)
        merge = F.Merge(False, 0, 10, None)
        merge.add(None, prints, alive, parents, None, ids[alive])
        seen, ref_next = {}, []
        for i in alive:
            j = seen.setdefault(int(prints[i]), len(ref_next))
            if j == len(ref_next):
                ref_next.append(set())
            ref_next[j] |= ref_children[i]
        assert len(merge) == len(ref_next)
        node_ids = np.asarray(merge.ids, np.int64)
        for j, more in merge.extra.items():
            node_ids[j] = roots.union([node_ids[j], *more])
        roots.advance(node_ids)
        ref_nodes = [frozenset(s) for s in ref_next]
        assert [set(roots.members(int(s)).tolist()) for s in node_ids] == [
            set(s) for s in ref_nodes
        ]
        assert set(np.flatnonzero(roots.won).tolist()) == won_ref
    assert len(roots.sets) <= len(ref_nodes)  # sets no position names are freed


def test_paths_walk_back_pointers():
    paths = F.Paths()
    a1 = rng.integers(0, 9, (3, C.NUM_SLOTS, 3)).astype(np.int8)
    a2 = rng.integers(0, 9, (4, C.NUM_SLOTS, 3)).astype(np.int8)
    assert F.Paths().path(0).shape == (0, C.NUM_SLOTS, 3)
    paths.extend(np.array([0, 0, 0]), a1)
    paths.extend(np.array([2, 0, 1, 2]), a2)
    np.testing.assert_array_equal(paths.path(2), np.stack([a1[1], a2[2]]).astype(np.int32))


def test_watch_reports_a_peak_that_covers_a_fresh_allocation():
    watch = F.Watch()
    block = np.ones(64 * 2**20, np.uint8)  # 64 MiB, touched
    assert watch.peak_rss_mib() >= 64 and block.sum() == 64 * 2**20


class _Mask(NamedTuple):
    move: np.ndarray
    pair: np.ndarray


class _Obs(NamedTuple):
    mask: _Mask
    seen: np.ndarray


class _State(NamedTuple):
    value: np.ndarray


def _batch(values):
    n = len(values)
    move, pair = _masks(n, 0.4)
    obs = _Obs(_Mask(move, pair), rng.random((n, 3, 13)) < 0.5)
    return match.Rollout(_State(np.asarray(values, np.float32)), obs, ((), ()), None)


def test_nodes_round_trip_bit_for_bit():
    tree = (
        _State(rng.random((5, 3)).astype(np.float32)),
        _batch(range(5)).obs,
        (rng.random(5) < 0.5,),
    )
    nodes = F.Nodes.pack(tree)
    assert nodes.nbytes() < sum(x.nbytes for x in jax.tree.leaves(tree))
    idx = np.array([3, 0, 3])
    back = nodes.take(np.array([0, 3])).unpack(np.array([1, 0, 1]))
    for a, b in zip(jax.tree.leaves(back), jax.tree.leaves(tree), strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b[idx])


def test_merge_keeps_the_best_positions_in_order_of_first_appearance():
    # Cap 4: past 5 stored, only the best 4 by value stay (ties: the first seen), exactly the
    # positions a frontier cut to 4 children could expand; merged duplicates keep their roots.
    merge = F.Merge(True, 1, 4, lambda state: state.value)
    values = [[5, 1, 7, 7], [0, 9, 7, 2], [3, 8]]
    prints = [[10, 11, 12, 13], [14, 15, 16, 12], [17, 10]]  # 12 and 10 come back
    roots = F.Roots(10)
    seen = 0
    for vals, keys in zip(values, prints, strict=True):
        games = _batch(vals)
        alive = np.arange(len(vals))
        parents = np.arange(len(vals)) + 100 * seen
        actions = rng.integers(0, 9, (len(vals), C.NUM_SLOTS, 3)).astype(np.int32)
        merge.add(games, np.asarray(keys, np.uint64), alive, parents, actions, seen + alive)
        seen += len(vals)
    assert len(merge) == 8 and merge.alive == 10
    frontier, ids, parents, actions = merge.frontier(roots)
    # keys 10-16 first seen with values 5, 1, 7, 7, 0, 9, 7: seven stored > 5, so the best
    # four stay (keys 12, 13, 15, 16); key 17 (value 3) comes after the cut.
    assert len(frontier) == 8 and frontier.value.tolist() == [7, 7, 9, 7, 3]
    assert parents.tolist() == [2, 3, 401, 402, 800]
    assert [sorted(roots.members(int(s)).tolist()) for s in ids] == [[2, 7], [3], [5], [6], [8]]
    assert len(frontier.nodes) == 5 and frontier.move.shape == (5, C.NUM_SLOTS, 9)
