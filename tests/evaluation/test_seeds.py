"""Command-line seeds: one range, and the reason for it (evaluation.seeds)."""

import jax
import numpy as np
import pytest

from evaluation.seeds import ROOT_SEED_LIMIT, check_root_seed


def _key(seed: int) -> np.ndarray:
    return np.asarray(jax.random.key_data(jax.random.key(seed)))


def test_jax_keys_keep_32_bits_of_a_seed_so_larger_seeds_repeat_smaller_ones():
    # The fact the limit rests on: were it to change (64-bit types on), the limit could grow.
    assert np.array_equal(_key(2**32), _key(0))
    assert np.array_equal(_key(2**32 + 7), _key(7))
    assert not np.array_equal(_key(ROOT_SEED_LIMIT - 1), _key(0))
    with pytest.raises(OverflowError):
        _key(2**63)


@pytest.mark.parametrize("seed", [0, 1, ROOT_SEED_LIMIT - 1, None])
def test_a_seed_in_range_or_none_is_returned(seed):
    assert check_root_seed(seed) == seed


@pytest.mark.parametrize("seed", [-1, ROOT_SEED_LIMIT, 2**32, 2**63])
def test_a_seed_out_of_range_is_named_with_its_option(seed):
    with pytest.raises(ValueError) as raised:
        check_root_seed(seed, "--seed")
    assert str(raised.value) == (
        f"--seed {seed}: must be 0 to 2147483647 (JAX keeps 32 bits of a game's seed, and a "
        "run's games use the seeds above its root)"
    )
