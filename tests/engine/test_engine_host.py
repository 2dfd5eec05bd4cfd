"""HostStepper gives `jax.jit(env.step)`'s results bit for bit over random play with resets."""

import jax
import numpy as np
import pytest

import engine
from engine import packing
from engine.host import HostStepper
from engine.sampling import random_legal_actions


def _leaves(tree):
    return [np.asarray(x) for x in jax.tree_util.tree_leaves(tree)]


def _assert_same(expected, got, what):
    assert jax.tree_util.tree_structure(expected) == jax.tree_util.tree_structure(got), what
    for i, (a, b) in enumerate(zip(_leaves(expected), _leaves(got), strict=True)):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), f"{what} leaf {i}"
        assert a.tobytes() == b.tobytes(), f"{what} leaf {i}: {np.argwhere(a != b)[:3]}"


def test_random_play_matches_env_step_bit_for_bit():
    # A 12-tick horizon, so that the 40 ticks cross several auto-resets (RULES A10).
    env = engine.make(maps="train", rosters=("MWHRP/MWHRP", "MWP/HRP"), horizon=12)
    stepper = HostStepper(env)
    step, sample = jax.jit(env.step), jax.jit(random_legal_actions)
    key = jax.random.PRNGKey(11)
    obs, state = jax.jit(env.reset)(key)
    _assert_same(obs, stepper.reset(key).obs, "reset obs")
    resets = 0
    for tick in range(40):
        key, k_act, k_step = jax.random.split(key, 3)
        actions = sample(k_act, obs.mask)
        obs, state, reward, done, info = step(k_step, state, actions)
        out = stepper.step(k_step, actions)
        for what, a, b in [
            ("obs", obs, out.obs),
            ("state", state, stepper.state),
            ("reward", reward, out.reward),
            ("done", done, out.done),
            ("info", info, out.info),
        ]:
            _assert_same(a, b, f"tick {tick} {what}")
        resets += int(done)
    assert resets == 3  # 40 ticks of 12-tick games: the fast path crossed real auto-resets


def test_packing_round_trip_and_bad_input():
    tree = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.array([True, False])}
    layout = packing.layout_of(tree)
    assert layout.sizes == (6, 2)
    buffers = packing.pack(layout, tree)
    back = packing.unpack(layout, [np.asarray(b) for b in buffers], np)
    assert back["a"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert back["b"].tolist() == [True, False]
    with pytest.raises(ValueError, match="leaf 0 is float32"):
        packing.pack(layout, {"a": np.zeros(6, np.float32), "b": tree["b"]})
    with pytest.raises(ValueError, match="1 buffers, the layout has 2"):
        packing.unpack(layout, buffers[:1])


def test_step_before_reset_raises():
    stepper = HostStepper(engine.make(maps=[0]))
    with pytest.raises(RuntimeError, match="no game yet"):
        stepper.step(jax.random.PRNGKey(0), None)
