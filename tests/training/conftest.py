"""Shared helpers of the training tests: random observations with random legal masks.

The repository root goes first on sys.path: tests/ holds folders named like the packages
(tests/engine, ...) that would otherwise shadow them as namespace packages.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pytest  # noqa: E402

from engine import constants as C  # noqa: E402
from engine.types import CONTEXT_DIM, ROW_DIM, Masks, Obs  # noqa: E402


def make_random_obs(key, n: int) -> Obs:
    """n random observations with random masks in which the no-op is always legal."""
    keys = jax.random.split(key, 8)
    move = jax.random.bernoulli(keys[0], 0.5, (n, C.NUM_MOVES)).at[:, 0].set(True)
    pair = jax.random.bernoulli(keys[1], 0.3, (n, C.NUM_TARGETS, C.NUM_ULT)).at[:, 0, 0].set(True)
    flat = (move[:, :, None, None] & pair[:, None]).reshape(n, C.NUM_FLAT)
    return Obs(
        units=jax.random.uniform(keys[2], (n, C.NUM_SLOTS, ROW_DIM)) * 10,
        visible=jax.random.bernoulli(keys[3], 0.5, (n, C.NUM_SLOTS)),
        relayed=jnp.zeros((n, C.NUM_SLOTS), bool),
        public=jnp.ones((n, C.NUM_SLOTS, 3)),
        obstacles=jax.random.uniform(keys[4], (n, C.MAX_OBSTACLES, C.OBSTACLE_FEATURES)),
        context=jax.random.uniform(keys[5], (n, CONTEXT_DIM)),
        prev_action=jax.random.randint(keys[6], (n, C.NUM_SLOTS, 3), -1, 2),
        class_id=jax.random.randint(keys[7], (n,), 1, C.NUM_CLASSES),
        self_index=jnp.zeros(n, jnp.int32),
        mask=Masks(move=move, pair=pair, target=pair.any(-1), ult=pair.any(-2), flat=flat),
    )


@pytest.fixture
def random_obs():
    return make_random_obs
