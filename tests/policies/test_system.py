"""The System contract: the wrapper, answers normalised to Actions, joining Systems by slot."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from engine.types import Actions
from policies.random_system import decode_flat
from policies.system import (
    NO_ANSWER,
    as_actions,
    as_system,
    lineup_from_mapping,
    merge_actions,
    noop_actions,
)


def _heads(move, target, ult):
    return Actions(*(jnp.asarray(h, jnp.int32) for h in (move, target, ult)))


def test_as_system_defaults_and_errors():
    system = as_system(lambda o, m, c, k: (None, c))
    assert system.initial_carry() == () and not system.host and system.name == "<lambda>"
    with pytest.raises(TypeError, match="not callable"):
        as_system(3)
    with pytest.raises(TypeError, match="initial_carry"):
        as_system(lambda o, m, c, k: (None, c), initial_carry=5)


def test_as_actions_accepts_triples_arrays_and_none():
    triple = as_actions((np.arange(10), np.ones(10), np.zeros(10)))
    assert triple.move.dtype == jnp.int32 and triple.target.tolist() == [1] * 10
    array = as_actions(np.stack([np.arange(10), np.arange(10) % 11, np.zeros(10)], 1))
    assert array.move.tolist() == list(range(10))
    assert as_actions(None).move.tolist() == [NO_ANSWER] * 10
    with pytest.raises(ValueError, match=r"actions.move: expected shape \(10,\)"):
        as_actions((np.arange(9), np.arange(9), np.arange(9)))
    with pytest.raises(ValueError, match=r"\(10, 3\)"):
        as_actions(np.zeros((10, 2)))


def test_merge_takes_each_slot_from_its_owner_and_marks_no_answers():
    a = _heads([1] * 10, [2] * 10, [0] * 10)
    b = _heads([3, 3, -1, 3, 3, 3, 3, 3, 3, 3], [6] * 10, [1] * 10)
    owners = np.zeros((2, 10), bool)
    owners[0, [0, 1]] = True
    owners[1, [2, 3, 5]] = True  # slot 4 and 6-9 have no owner: no-op, not a fallback
    joint, fallback = merge_actions([a, b], owners)
    assert joint.move.tolist() == [1, 1, 0, 3, 0, 3, 0, 0, 0, 0]
    assert joint.target.tolist() == [2, 2, 0, 6, 0, 6, 0, 0, 0, 0]
    assert joint.ult.tolist() == [0, 0, 0, 1, 0, 1, 0, 0, 0, 0]
    assert fallback.tolist() == [False, False, True] + [False] * 7


def test_merge_is_jittable_and_batched():
    a = Actions(*(jnp.ones((4, 10), jnp.int32),) * 3)
    owners = np.ones((1, 10), bool)
    joint, fallback = jax.jit(merge_actions)([a], owners)
    assert joint.move.shape == (4, 10) and not fallback.any()


def test_lineup_from_mapping_groups_shared_systems():
    one = as_system(lambda o, m, c, k: (noop_actions(), c), name="one")
    two = as_system(lambda o, m, c, k: (noop_actions(), c), host=True, name="two")
    lineup = lineup_from_mapping({0: one, 1: one, 5: two})
    assert lineup.systems == (one, two)
    assert lineup.owners.astype(int).sum(axis=1).tolist() == [2, 1]
    assert lineup.specs[:2] == ("one", "one") and lineup.specs[5] == "two"
    assert lineup.specs[2] == "" and not lineup.all_jax
    with pytest.raises(ValueError, match="outside 0-9"):
        lineup_from_mapping({10: one})
    with pytest.raises(ValueError, match="not a System"):
        lineup_from_mapping({0: "random"})


def test_decode_flat_inverts_the_flat_index():
    # RULES A12: flat = (move * 11 + target) * 2 + ult
    flat = jnp.array([0, 1, 2, 21, 22, 197, 5 * 22 + 7 * 2 + 1, 0, 0, 0])
    actions = decode_flat(flat)
    assert actions.move.tolist()[:7] == [0, 0, 0, 0, 1, 8, 5]
    assert actions.target.tolist()[:7] == [0, 0, 1, 10, 0, 10, 7]
    assert actions.ult.tolist()[:7] == [0, 1, 0, 1, 0, 1, 1]
