"""`adapters.batchify` / `arrays.stack_rows`: exactly `jnp.stack`'s values, built so that XLA's CPU
compiler fuses the stack into its consumer (at most 8 operands a concatenate, issue 25)."""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import adapters
from adapters import arrays


def numbered_rows(n: int) -> list:
    """n (2, 3) float32 rows; row i holds 100 * i + 0 .. 5 in row-major order."""
    return [jnp.arange(6, dtype=jnp.float32).reshape(2, 3) + 100 * i for i in range(n)]


@pytest.mark.parametrize("n", [1, 5, 8, 9, 10, 11, 16, 20, 100])
def test_stack_rows_puts_row_i_at_index_i(n):
    out = np.asarray(arrays.stack_rows(numbered_rows(n)))
    assert out.shape == (n, 2, 3) and out.dtype == np.float32
    assert out[n - 1, 1, 2] == 100 * (n - 1) + 5  # the last row's last entry, by hand
    assert out[0, 0, 1] == 1 and (n < 7 or out[6, 1, 0] == 603)
    np.testing.assert_array_equal(out, np.stack([np.asarray(r) for r in numbered_rows(n)]))


def test_batchify_stacks_in_agent_order_not_dict_order():
    tree = {"enemy_0": jnp.float32(7.0)} | {f"ally_{i}": jnp.float32(i) for i in range(9)}
    agents = [f"ally_{i}" for i in range(9)] + ["enemy_0"]
    np.testing.assert_array_equal(adapters.batchify(tree, agents), [0, 1, 2, 3, 4, 5, 6, 7, 8, 7])
    with pytest.raises(KeyError, match="enemy_1"):
        adapters.batchify(tree, agents + ["enemy_1"])


def test_stack_rows_names_an_empty_list():
    with pytest.raises(ValueError, match="no rows"):
        arrays.stack_rows([])


def _unfused_concatenates(fn, rows) -> int:
    """Concatenates left outside any fusion in the optimised HLO of jit(fn)(rows)."""
    text = jax.jit(fn).lower(rows).compile().as_text()
    return len(re.findall(r"\} concatenate\(", text[text.index("ENTRY") :]))


def test_ten_rows_stack_fuses_into_the_consumer_where_jnp_stack_does_not():
    """Ten agents' rows: one jnp.stack is a 10-operand concatenate that XLA:CPU writes out
    before its consumer reads it; stack_rows's two stacks of 5 fuse into the consumer."""
    rows = numbered_rows(10)
    assert _unfused_concatenates(lambda r: jnp.stack(r) * 2.0, rows) == 1
    assert _unfused_concatenates(lambda r: arrays.stack_rows(r) * 2.0, rows) == 0
