"""Systems: whatever decides the actions of some slots (scripted bot, network, human, LLM).

The whole contract is one record of two functions, with no base class to inherit::

    actions, carry = system.act(obs, masks, carry, key)
    carry = system.initial_carry()

`obs` is the engine's `Obs` for all ten observer slots (leading axis 10), `masks` its `Masks`
(the same as `obs.mask`), `key` a JAX PRNG key. `act` returns `Actions` with three int32 heads of
shape (10,) in each slot's team frame; only the slots the System controls are used. A JAX System
is a pure, jittable function (a match vmaps it over games and runs it inside `lax.scan`); a host
System is any Python callable and gets NumPy leaves. A host System that has no answer for a slot
writes `NO_ANSWER` (-1) in that slot's move head, or returns `None` for all of its slots: the
match then plays the no-op (Stay, no target, no Ultimate; always legal, RULES 3.5) and marks
`Events.fallback` for that slot.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine.types import Actions, Masks, Obs

NO_ANSWER = -1  # move head value of a slot whose System gave no answer


def _empty_carry() -> tuple:
    return ()


@dataclass(frozen=True, eq=False)
class System:
    """One decision maker. `act(obs, masks, carry, key) -> (Actions, carry)`; see the module doc.

    name: the slot-spec string it was built from ("scripted:tactician") or a free label;
    host: True when `act` is host Python (stepped from the host, NumPy inputs), False when it is
    a pure JAX function (jit, vmap and lax.scan safe); report: optional, for host Systems,
    `report(final carry) -> {"stats": {column: value}, "records": [plain dicts]}`, what the
    System tells about a finished game (result columns, replay decision records).
    """

    act: Callable[[Obs, Masks, Any, jax.Array], tuple[Actions | None, Any]]
    initial_carry: Callable[[], Any] = field(default=_empty_carry)
    host: bool = False
    name: str = ""
    report: Callable[[Any], dict] | None = None


def as_system(
    fn: Callable[[Obs, Masks, Any, jax.Array], tuple[Actions | None, Any]],
    *,
    host: bool = False,
    initial_carry: Callable[[], Any] | None = None,
    name: str = "",
    report: Callable[[Any], dict] | None = None,
) -> System:
    """Wrap a function with the `act` signature into a System.

    fn: `(obs, masks, carry, key) -> (actions, carry)`; a jittable JAX function (host=False) or
    any Python callable (host=True). initial_carry: returns the carry at the start of a game
    (default: the empty tuple, for stateless Systems); report: see `System`. Raises TypeError
    if fn is not callable.
    """
    if not callable(fn):
        raise TypeError(f"as_system: {fn!r} is not callable")
    if initial_carry is not None and not callable(initial_carry):
        raise TypeError(f"as_system: initial_carry {initial_carry!r} is not callable")
    label = name or getattr(fn, "__name__", "system")
    return System(
        act=fn, initial_carry=initial_carry or _empty_carry, host=host, name=label, report=report
    )


def noop_actions(batch: Sequence[int] = ()) -> Actions:
    """The always-legal no-op (Stay, no target, no Ultimate) for every slot: heads (*batch, 10)."""
    zeros = jnp.zeros((*batch, C.NUM_SLOTS), jnp.int32)
    return Actions(move=zeros, target=zeros, ult=zeros)


def as_actions(value: Any) -> Actions:
    """Normalise what a System returned to `Actions` of int32 (10,) heads.

    Accepts `Actions`, a (move, target, ult) triple, a (10, 3) array, or None (no answer: every
    head NO_ANSWER). Raises ValueError naming the head and shape when the shape is wrong.
    """
    if value is None:
        none = jnp.full((C.NUM_SLOTS,), NO_ANSWER, jnp.int32)
        return Actions(move=none, target=none, ult=none)
    if isinstance(value, Actions):
        heads = (value.move, value.target, value.ult)
    elif isinstance(value, tuple | list) and len(value) == 3:
        heads = tuple(value)
    else:
        array = jnp.asarray(value)
        if array.shape[-2:] != (C.NUM_SLOTS, 3):
            raise ValueError(f"actions: expected Actions or (10, 3) array, got {array.shape}")
        heads = (array[..., 0], array[..., 1], array[..., 2])
    out = []
    for name, head in zip(("move", "target", "ult"), heads, strict=True):
        head = jnp.asarray(head).astype(jnp.int32)
        if head.shape[-1:] != (C.NUM_SLOTS,):
            raise ValueError(f"actions.{name}: expected shape (10,), got {head.shape}")
        out.append(head)
    return Actions(*out)


def merge_actions(parts: Sequence[Actions], owners: jax.Array) -> tuple[Actions, jax.Array]:
    """Join the answers of several Systems into one joint action.

    parts: one `Actions` per System, heads (..., 10); owners: (n_systems, 10) bool, which
    System controls each slot (at most one; unowned slots play the no-op). Returns the joint
    `Actions` and `fallback` (..., 10) bool: owned slots whose System gave no answer
    (move head < 0), which play the no-op instead. Works under jit and vmap.
    """
    owners = jnp.asarray(owners, bool)
    stacked = jax.tree.map(lambda *heads: jnp.stack(heads), *parts)  # heads (n, ..., 10)
    shape = stacked.move.shape
    own = jnp.broadcast_to(
        owners.reshape(owners.shape[:1] + (1,) * (len(shape) - 2) + (-1,)), shape
    )

    def pick(head):
        return jnp.sum(jnp.where(own, head, 0), axis=0)

    joint = Actions(move=pick(stacked.move), target=pick(stacked.target), ult=pick(stacked.ult))
    owned = jnp.any(own, axis=0)
    fallback = owned & (joint.move < 0)
    keep = ~fallback

    def clean(head):
        return jnp.where(keep, head, 0).astype(jnp.int32)

    return jax.tree.map(clean, joint), fallback


def to_host(tree: Any) -> Any:
    """Copy a pytree of device arrays to NumPy (what host Systems receive)."""
    return jax.tree.map(np.asarray, jax.device_get(tree))


@dataclass(frozen=True, eq=False)
class Lineup:
    """Who plays which slot: Systems, an (n_systems, 10) bool ownership table and 10 spec strings.

    Each slot has at most one owner; a slot without one plays the no-op (empty roster slots).
    `specs[s]` is the slot-spec string of slot s's System ("" for an unowned slot), what replays
    record as `systems`.
    """

    systems: tuple[System, ...]
    owners: np.ndarray  # (n_systems, 10) bool
    specs: tuple[str, ...]

    def _key(self) -> tuple:
        # Equal when the same System objects hold the same slots, so a jitted match compiled
        # for one Lineup is reused by an equal one (Systems are cached per spec).
        return (tuple(map(id, self.systems)), np.asarray(self.owners, bool).tobytes())

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other) -> bool:
        return isinstance(other, Lineup) and self._key() == other._key()

    @property
    def all_jax(self) -> bool:
        """True when every System is a JAX System (the match can vmap and scan them)."""
        return not any(system.host for system in self.systems)

    def owner_of(self, slot: int) -> System | None:
        """The System controlling `slot`, or None."""
        hits = np.flatnonzero(self.owners[:, slot])
        return self.systems[int(hits[0])] if len(hits) else None


def lineup_from_mapping(mapping: dict[int, System]) -> Lineup:
    """A slot -> System mapping (global slots 0-9) -> Lineup; one System object may hold many
    slots. Raises ValueError for a slot outside 0-9 or a value that is not a System."""
    systems: list[System] = []
    owners: list[np.ndarray] = []
    specs = [""] * C.NUM_SLOTS
    for slot, system in sorted(mapping.items()):
        if not 0 <= int(slot) < C.NUM_SLOTS:
            raise ValueError(f"lineup: slot {slot!r} is outside 0-9")
        if not isinstance(system, System):
            raise ValueError(f"lineup: slot {slot} maps to {system!r}, not a System")
        index = next((i for i, s in enumerate(systems) if s is system), None)
        if index is None:
            systems.append(system)
            owners.append(np.zeros(C.NUM_SLOTS, bool))
            index = len(systems) - 1
        owners[index][int(slot)] = True
        specs[int(slot)] = system.name
    table = np.stack(owners) if owners else np.zeros((0, C.NUM_SLOTS), bool)
    return Lineup(systems=tuple(systems), owners=table, specs=tuple(specs))
