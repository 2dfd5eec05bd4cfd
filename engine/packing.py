"""Pytrees as a few flat buffers, one per dtype, for crossing the jit boundary cheaply.

A jitted call from Python pays for every leaf it takes and returns (argument checks, one
`jax.Array` made per output), and `Env.step` returns about 92 leaves: that count, more than
XLA's compute, sets the latency of one game stepped from a Python loop (docs/PERFORMANCE.md,
"One jitted step from Python").
`Layout` records a pytree's structure once; `pack` concatenates its ravelled leaves into one
buffer per dtype (bit for bit: no cast, so no value changes) and `unpack` cuts them out again.
Inside jit the cutting is slices XLA fuses away; on the host, over NumPy buffers, each leaf is
a view (no copy).
"""

from dataclasses import dataclass
from math import prod

import jax
import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class Slot:
    """Where one leaf lives: its buffer (index into `Layout.dtypes`), offset and size in
    elements of that buffer, and its own shape."""

    buffer: int
    offset: int
    size: int
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Layout:
    """A pytree's treedef, the dtypes of its buffers (in first-seen leaf order), each buffer's
    length in elements and each leaf's `Slot`, in `jax.tree_util` leaf order."""

    treedef: jax.tree_util.PyTreeDef
    dtypes: tuple[np.dtype, ...]
    sizes: tuple[int, ...]
    slots: tuple[Slot, ...]


def layout_of(tree) -> Layout:
    """The `Layout` of a pytree of arrays or `jax.ShapeDtypeStruct`s (e.g. `jax.eval_shape`).

    Leaves of one dtype share a buffer, in leaf order. Raises ValueError for a leaf without a
    shape and dtype (a Python scalar or None has no fixed layout)."""
    leaves, treedef = jax.tree_util.tree_flatten(tree)
    dtypes: list[np.dtype] = []
    sizes: list[int] = []
    slots = []
    for index, leaf in enumerate(leaves):
        if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
            raise ValueError(f"layout_of: leaf {index} ({type(leaf).__name__}) has no shape/dtype")
        dtype = np.dtype(leaf.dtype)
        if dtype not in dtypes:
            dtypes.append(dtype)
            sizes.append(0)
        buffer = dtypes.index(dtype)
        size = prod(leaf.shape)
        slots.append(Slot(buffer, sizes[buffer], size, tuple(leaf.shape)))
        sizes[buffer] += size
    return Layout(treedef, tuple(dtypes), tuple(sizes), tuple(slots))


def pack(layout: Layout, tree) -> tuple[jax.Array, ...]:
    """`tree` (of `layout`'s structure, shapes and dtypes) -> one 1-D buffer per dtype (jnp).

    Raises ValueError when the tree's structure, a shape or a dtype differs from the layout."""
    leaves, treedef = jax.tree_util.tree_flatten(tree)
    if treedef != layout.treedef:
        raise ValueError(f"pack: tree structure {treedef} is not the layout's {layout.treedef}")
    parts: list[list] = [[] for _ in layout.dtypes]
    for index, (leaf, slot) in enumerate(zip(leaves, layout.slots, strict=True)):
        leaf = jnp.asarray(leaf)
        if tuple(leaf.shape) != slot.shape or leaf.dtype != layout.dtypes[slot.buffer]:
            raise ValueError(
                f"pack: leaf {index} is {leaf.dtype}{tuple(leaf.shape)}, the layout has "
                f"{layout.dtypes[slot.buffer]}{slot.shape}"
            )
        parts[slot.buffer].append(leaf.reshape(-1))
    return tuple(jnp.concatenate(p) for p in parts)


def unpack(layout: Layout, buffers, xp=jnp):
    """The inverse of `pack`: one buffer per dtype -> the pytree. `xp=np` over NumPy buffers
    (e.g. `np.asarray` of a jitted call's packed outputs) gives read-only views, no copies.

    Raises ValueError when the number or the length of the buffers does not match the layout."""
    if len(buffers) != len(layout.dtypes):
        raise ValueError(f"unpack: {len(buffers)} buffers, the layout has {len(layout.dtypes)}")
    for buffer, size in zip(buffers, layout.sizes, strict=True):
        if buffer.shape != (size,):
            raise ValueError(f"unpack: a buffer of shape {buffer.shape}, expected ({size},)")
    return jax.tree_util.tree_unflatten(layout.treedef, _cut(layout.slots, buffers, xp))


def _cut(slots, buffers, xp) -> list:
    return [xp.reshape(buffers[s.buffer][s.offset : s.offset + s.size], s.shape) for s in slots]


def unpack_part(layout: Layout, buffers, part: int, xp=jnp):
    """Child `part` of a tuple- or list-rooted layout's tree, cut from the packed buffers
    (views with `xp=np`): `unpack(...)[part]` without making the other parts.

    Raises IndexError when the root has no such child."""
    children = layout.treedef.children()
    if not 0 <= part < len(children):
        raise IndexError(f"unpack_part: part {part} of a root with {len(children)} children")
    start = sum(child.num_leaves for child in children[:part])
    slots = layout.slots[start : start + children[part].num_leaves]
    return jax.tree_util.tree_unflatten(children[part], _cut(slots, buffers, xp))
