"""The line finder's exact reductions and its cut (`evaluation.scenario_search`).

Reductions (exact: no line and no count changes, RULES 4):

- **A tick's outcome ignores its moves.** Damage, healing, regeneration and deaths (4 steps
  2-6, 11) are worked out from the tick-start state and the accepted (target, Ultimate) pairs;
  the score (16) from the deaths and the Red Zone at tick start; the outcome (18) from the
  score and the tick. Movement (steps 9-10) only places the bodies. So whether a child wins,
  is otherwise decided or goes on depends on its *combat class* (each focal agent's pair) and
  not on its moves: the finder steps one child per class with every focal agent on Stay
  (always legal, RULES 3.5), counts each class as its number of move combinations, and steps
  the other moves only of the classes that go on.
- **Positions with one combat view share their classes' outcomes.** Positions enter those
  steps only through the aura factors (2.4), the Red Zone flags (1.6) and the legality masks
  (3.5, which read positions and sight); the controller through the (target, Ultimate) heads
  it submits (and whether its move head is in range, 3.6). Positions whose `combat_view`
  hashes alike are probed once, through the first of them.

The cut, where a depth must be pruned: the positions are ranked by several keys at once
(`position_keys`) and taken in turn from each key's order (`spread_order`), so a position
that holds fire or takes a place first is kept by the keys that do not reward damage.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from engine import combat, legality, lifecycle
from engine import constants as C
from evaluation import match
from policies.system import as_actions

_MIX = np.uint32(0x9E3779B1)
KEY_NAMES = ("score lead", "focal hit points", "focal agents' closeness to an enemy",
             "stunned enemies", "spread")  # fmt: skip


def tree_hash(tree) -> jax.Array:
    """(2,) uint32 hash of the bit patterns of every leaf of `tree` (bools and ints as
    float32 values, float32 as they are)."""
    leaves = [x for x in jax.tree.leaves(tree) if x.size]
    words = jnp.concatenate([jax.lax.bitcast_convert_type(
        x.astype(jnp.float32) if x.dtype != jnp.float32 else x, jnp.uint32
    ).ravel() for x in leaves])  # fmt: skip
    words = (words ^ (words >> 16)) * jnp.uint32(0x45D9F3B)
    words = words ^ (words >> 13)
    index = jnp.arange(words.size, dtype=jnp.uint32)
    a = jnp.sum(words * (index * _MIX + jnp.uint32(1)), dtype=jnp.uint32)
    b = jnp.sum(words * (index * jnp.uint32(0x85EBCA6B) + jnp.uint32(7)), dtype=jnp.uint32)
    return jnp.stack([a, b])


def combat_view(state, actions, owned) -> tuple:
    """What one tick's outcome reads of a position (see the module doc): every field of the
    state the combat, regeneration, death and score steps use, the aura factors (10,) and Red
    Zone flags (10,) in place of the positions, the (10, 11, 2) pair masks, and the owned
    slots' (`owned` (10,) bool) submitted target, ult and move-in-range heads."""
    s = state
    _, _, aura_out, aura_in = combat.auras(s)
    heads = jnp.stack([actions.target, actions.ult, (actions.move >= 0) & (actions.move < 9)], 1)
    return (
        s.health, s.alive, s.active, s.class_id, s.cooldown, s.status, s.shield, s.ooc,
        s.score, s.tick, aura_out, aura_in, lifecycle.in_red_zone(s), legality.masks(s).pair,
        jnp.where(owned[:, None], heads, 0),
    )  # fmt: skip


@functools.partial(jax.jit, static_argnums=(0, 1))
def signatures(lineup, control: int, games: match.Rollout) -> jax.Array:
    """(n, 2) uint32 hash of each game's `combat_view`, with the controller (System `control`
    of `lineup`) asked for its actions as `match._tick` asks."""
    system = lineup.systems[control]
    owned = jnp.asarray(np.asarray(lineup.owners, bool)[control])

    def one(game):
        keys = match.system_keys(game.key, game.state.tick, len(lineup.systems))
        acts, _ = system.act(game.obs, game.obs.mask, game.carries[control], keys[control])
        return tree_hash(combat_view(game.state, as_actions(acts), owned))

    return jax.vmap(one)(games)


def stay_only(move: np.ndarray) -> np.ndarray:
    """Move masks (..., 10, 9) with only Stay left (legal for everyone, RULES 3.5)."""
    out = np.zeros_like(move)
    out[..., 0] = True
    return out


def class_index(move_row: np.ndarray, pair_row: np.ndarray, slots) -> np.ndarray:
    """(n,) int64: the combat class of each joint action `search_frontier.joint_actions` lists
    for one position (masks (10, 9), (10, 11, 2)), numbered as it lists the joint actions of
    `stay_only` moves (so class c is row c of that list)."""
    pairs = [int(pair_row[s].sum()) for s in slots]
    counts = [int(move_row[s].sum()) * p for s, p in zip(slots, pairs, strict=True)]
    grid = np.indices(counts).reshape(len(slots), -1) if slots else np.zeros((0, 1), np.int64)
    out = np.zeros(grid.shape[1], np.int64)
    for pick, p in zip(grid, pairs, strict=True):
        out = out * p + pick % p  # within a slot moves are outer, pairs inner
    return out


def move_counts(move: np.ndarray, slots) -> np.ndarray:
    """(n,) int64 move combinations of the focal slots in each of n positions ((n, 10, 9))."""
    out = np.ones(len(move), np.int64)
    for s in slots:
        out *= move[:, s].sum(-1, dtype=np.int64)
    return out


def groups(prints: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, group): the index of the first position of each distinct value of `prints`
    (n,), in order of first appearance, and each position's group number (n,)."""
    _, first, inverse = np.unique(prints, return_index=True, return_inverse=True)
    rank = np.empty(len(first), np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return np.sort(first), rank[inverse.ravel()]


def position_keys(state, focal: int) -> np.ndarray:
    """(n, 5) float64 keys of n positions (numpy states), higher is better: the score lead (x
    1000) less the enemy hit points plus a tenth of the focal ones; the focal hit points; minus
    the sum over living focal agents of the distance (map units) to the nearest living enemy;
    the number of stunned enemies (RULES 2.3 channels 3-5); a deterministic spread (a hash of
    the positions)."""
    team = np.arange(C.NUM_SLOTS) // C.TEAM_SIZE
    own, enemy = team == focal, team != focal
    score, health = np.asarray(state.score), np.asarray(state.health)
    alive, pos = np.asarray(state.alive) & np.asarray(state.active), np.asarray(state.pos)
    lead = score[:, focal] - score[:, 1 - focal]
    value = lead * 1000.0 - health[:, enemy].sum(1) + 0.1 * health[:, own].sum(1)
    gap = np.linalg.norm(pos[:, own, None] - pos[:, None, enemy], axis=-1)
    gap = np.where(alive[:, None, enemy], gap, np.inf).min(-1)
    near = -np.where(alive[:, own] & np.isfinite(gap), gap, 0.0).sum(1)
    stunned = ((np.asarray(state.status)[:, :, 3:6] > 0).any(-1) & alive)[:, enemy].sum(1)
    bits = np.ascontiguousarray(pos, np.float32).view(np.uint32).astype(np.uint64)
    spread = (bits.reshape(len(bits), -1) * np.uint64(0x9E3779B1)).sum(1) % np.uint64(1 << 31)
    return np.stack([value, health[:, own].sum(1), near, stunned, spread.astype(float)], 1)


def spread_order(keys: np.ndarray) -> np.ndarray:
    """(n,) int64: positions in the order a cut takes them, interleaving the keys' orders
    (columns of (n, k); a (n,) array is one key): by the best rank a position has under any
    key, ties to the earlier key, then the earlier position. The first k are the best under
    each key; one key gives its plain descending order."""
    keys = keys.reshape(len(keys), -1)
    k = keys.shape[1]
    rank = np.empty(keys.shape, np.int64)
    for j in range(k):
        rank[np.argsort(-keys[:, j], kind="stable"), j] = np.arange(len(keys))
    return np.argsort((rank * k + np.arange(k)).min(1), kind="stable")
