"""The `random` System: a uniformly random legal action for every slot (RULES 3.5, A12)."""

import functools

import jax
import jax.numpy as jnp

from engine import constants as C
from engine.types import Actions, Masks, Obs
from policies.system import System, as_system


def decode_flat(flat: jax.Array) -> Actions:
    """Flat index (..., 10) int -> Actions; flat = (move * 11 + target) * 2 + ult (RULES A12)."""
    flat = flat.astype(jnp.int32)
    return Actions(
        move=flat // (C.NUM_TARGETS * C.NUM_ULT),
        target=(flat // C.NUM_ULT) % C.NUM_TARGETS,
        ult=flat % C.NUM_ULT,
    )


def random_act(obs: Obs, masks: Masks, carry: tuple, key: jax.Array) -> tuple[Actions, tuple]:
    """Sample each slot's flat action uniformly among its legal ones (masks.flat (10, 198))."""
    del obs
    logits = jnp.where(masks.flat, 0.0, -jnp.inf)
    # A row with no legal entry cannot happen (the no-op is always legal); guard anyway so
    # sampling never returns an out-of-range index: such a row gets the no-op (flat 0).
    logits = jnp.where(jnp.any(masks.flat, axis=-1, keepdims=True), logits, 0.0)
    flat = jax.random.categorical(key, logits, axis=-1)
    flat = jnp.where(jnp.any(masks.flat, axis=-1), flat, 0)
    return decode_flat(flat), carry


@functools.cache
def random_system(name: str = "random") -> System:
    """A JAX System playing uniformly random legal actions; stateless (cached per name)."""
    return as_system(random_act, name=name)
