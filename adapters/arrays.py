"""Array conversions shared by the adapters: flat observations, masks and actions (pure JAX).

Agent names follow JaxMARL's SMAX: Team A's slots 0-4 are "ally_0" .. "ally_4", Team B's slots
5-9 are "enemy_0" .. "enemy_4" (RULES 2.1).
"""

import jax.numpy as jnp

from adapters.spaces import FLAT_LAYOUT, check_action_type
from engine import constants as C
from engine import legality
from engine.types import Actions, Masks, Obs
from policies.random_system import decode_flat

AGENT_NAMES = tuple(f"ally_{i}" for i in range(C.TEAM_SIZE)) + tuple(
    f"enemy_{i}" for i in range(C.TEAM_SIZE)
)
SLOT_OF = {name: slot for slot, name in enumerate(AGENT_NAMES)}


def batchify(tree: dict, agents) -> jnp.ndarray:
    """{agent: (...)} -> (num_agents, ...), the agents' entries stacked in `agents` order: the
    helper JaxMARL's baselines call on every dict a step returns (`step_stacked` hands over the
    same arrays without the copy)."""
    return jnp.stack([tree[a] for a in agents])


def _flat_parts(obs: Obs) -> list[jnp.ndarray]:
    """The `spaces.FLAT_LAYOUT` fields of an Obs (..., 10): (..., 10, k) float32 each."""
    lead = obs.class_id.shape
    return [getattr(obs, name).astype(jnp.float32).reshape(*lead, -1) for name, _ in FLAT_LAYOUT]


def flatten_obs(obs: Obs) -> jnp.ndarray:
    """Obs with leading axes (..., 10) -> (..., 10, 680) float32 in `spaces.FLAT_LAYOUT` order."""
    return jnp.concatenate(_flat_parts(obs), axis=-1)


def agent_vectors(obs: Obs, slots) -> list[jnp.ndarray]:
    """One game's Obs (10, ...) -> the (680,) float32 `flatten_obs` row of each slot in `slots`.

    Each row is concatenated from the fields directly: sliced out of one (10, 680) block, XLA on
    a CPU writes the block and then copies every row out of it once the rows leave a jit or a
    `lax.scan` step as separate arrays (the dict of a JaxMARL-style step). The row is joined as
    (340, 2) pairs (`_pair_concat`) so that the slices and casts fuse into it."""
    parts = _flat_parts(obs)
    return [_pair_concat([part[slot] for part in parts]) for slot in slots]


def _pair_concat(pieces: list[jnp.ndarray]) -> jnp.ndarray:
    """(k,) float32 pieces -> their concatenation (sum of k,), with the same values.

    XLA on a CPU never fuses a concatenate along the minor axis (nor one of over 8 operands):
    it writes every operand out and copies it in (`CpuInstructionFusion::ShouldFuse`,
    xla/service/cpu/cpu_instruction_fusion.cc). Joined along the axis before a trailing pair
    axis, the pieces' slices and casts fuse into one loop that writes the row once; odd-sized
    neighbours (class_id, self_index) are paired first by a concatenate of 2-8 bytes, which
    XLA fuses. Raises ValueError when the pieces cannot be paired (an odd total)."""
    paired = []
    for piece in pieces:
        if paired and paired[-1].shape[-1] % 2:
            paired[-1] = jnp.concatenate([paired[-1], piece], axis=-1)
        else:
            paired.append(piece)
    if paired[-1].shape[-1] % 2:
        raise ValueError(f"_pair_concat: {sum(p.shape[-1] for p in pieces)} values, not even")
    joined = jnp.concatenate([p.reshape(*p.shape[:-1], -1, 2) for p in paired], axis=-2)
    return joined.reshape(*joined.shape[:-2], -1)


def action_mask(mask: Masks, action_type: str) -> jnp.ndarray:
    """Masks (..., 10, ...) -> (..., 10, 198) flat mask, or (..., 10, 22) move | target | ult."""
    return mask_from_heads(mask.move, mask.pair, action_type)


def mask_from_heads(move: jnp.ndarray, pair: jnp.ndarray, action_type: str) -> jnp.ndarray:
    """move (..., 9) and pair (..., 11, 2) bool (`engine.Masks`) -> (..., 198) flat mask
    (`legality.flat_mask`, RULES 3.7) or (..., 22) move | target | ult (RULES 3.5)."""
    if check_action_type(action_type) == "flat":
        return legality.flat_mask(move, pair)
    return jnp.concatenate([move, pair.any(-1), pair.any(-2)], axis=-1)


def to_actions(values: jnp.ndarray, action_type: str) -> Actions:
    """Per-slot actions (10,) flat indices or (10, 3) heads, any int dtype -> engine Actions."""
    if check_action_type(action_type) == "flat":
        return decode_flat(values)
    values = values.astype(jnp.int32)
    return Actions(values[..., 0], values[..., 1], values[..., 2])


def from_actions(actions: Actions, action_type: str) -> jnp.ndarray:
    """The inverse of `to_actions`: (10,) flat int32 indices (RULES 3.7) or (10, 3) heads."""
    if check_action_type(action_type) == "flat":
        return (actions.move * C.NUM_TARGETS + actions.target) * C.NUM_ULT + actions.ult
    return jnp.stack([actions.move, actions.target, actions.ult], axis=-1)
