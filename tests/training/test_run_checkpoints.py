"""Run checkpoints keep every array of a runner state, zero-size ones included."""

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from training.runs import RunCheckpoints


class Runner(NamedTuple):
    params: dict
    empty: jnp.ndarray  # e.g. the per-game opponents of a run without pool games
    nothing: tuple
    update: jnp.ndarray


def test_zero_size_arrays_survive_a_save_and_restore(tmp_path):
    runner = Runner({"w": jnp.arange(3.0)}, jnp.zeros((0, 5, 2)), (), jnp.int32(7))
    store = RunCheckpoints(tmp_path / "c")
    store.save(7, runner)
    like = Runner({"w": jnp.zeros(3)}, jnp.zeros((0, 5, 2)), (), jnp.int32(0))
    back = store.restore(like)
    store.close()
    assert np.array_equal(back.params["w"], [0.0, 1.0, 2.0]) and int(back.update) == 7
    assert back.empty.shape == (0, 5, 2) and back.nothing == ()
