"""The adapter benchmarks' own arithmetic (bench/bench_adapters.py, bench/bench_adapter_pieces.py,
bench/bench_adapter_rows.py) and the world state the adapter hands over: the core's rows, with
no more HLO than the core's."""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import adapters
from adapters import arrays
from bench import bench_adapter_pieces as pieces
from bench import bench_adapters as whole

HLO = """
  %copy.1 = f32[8,10,680]{2,1,0} copy(%concatenate.342), control-predecessors={%copy.678}
  %copy.2 = pred[8,10]{1,0} copy(%p.1)
  %concatenate.342 = f32[8,10,680]{2,1,0} concatenate(%a, %b), dimensions={2}
  %gather.3 = s32[8,10]{1,0} gather(%x, %y), offset_dims={}
  %fusion.4 = f32[8]{0} fusion(%copy.1), kind=kLoop, calls=%fused_copy
"""


def test_hlo_counts_ops_and_the_bytes_the_copies_write():
    counts = pieces.hlo_counts(HLO)
    assert counts == {
        "copy": 2,
        "concatenate": 1,
        "gather": 1,
        "scatter": 0,
        "transpose": 0,
        "copy_bytes": 8 * 10 * 680 * 4 + 8 * 10,  # f32 and pred (one byte)
    }


def test_summaries_pair_each_reading_with_its_core_and_the_a_a_noise():
    # per-round seconds: the adapter 1.2x, 1.1x, 1.3x the core; the core's second timing 1.0x,
    # 1.1x, 0.9x of its first
    named = {
        "core_trajectory": [1.0, 2.0, 1.0],
        "core_trajectory_again": [1.0, 2.2, 0.9],
        "adapter_stacked": [1.2, 2.2, 1.3],
    }
    out = whole.summaries({"cpu": named}, ["stacked"])["cpu"]["stacked"]
    assert out["ratio"]["median"] == pytest.approx(1.2)
    assert (out["ratio"]["q1"], out["ratio"]["q3"]) == pytest.approx((1.15, 1.25))
    assert out["noise"]["median"] == pytest.approx(1.0)
    assert (out["noise"]["q1"], out["noise"]["q3"]) == pytest.approx((0.95, 1.05))


@pytest.fixture(scope="module")
def env_and_states():
    env = adapters.make("TeamDeathmatch")
    reset = jax.jit(jax.vmap(lambda k: env.reset(k)[1]))
    return env, reset(jax.random.split(jax.random.PRNGKey(2), 2))


def test_world_state_is_the_core_rows_of_the_agents(env_and_states):
    both, states = env_and_states
    core = jax.jit(jax.vmap(both.core.world_state))(states.game)
    hidden_b = adapters.make("HeuristicEnemyTeamDeathmatch", opponent="random")
    for env in (both, hidden_b):  # all ten slots; Team A's five (slots 0-4)
        rows = jax.jit(jax.vmap(env.world_state))(states)
        assert rows.shape == (2, env.num_agents, 342)
        np.testing.assert_array_equal(rows, core[:, : env.num_agents])


def test_world_state_compiles_to_no_more_than_the_core(env_and_states):
    """The agents' rows are a slice of the core's world state, which XLA reads in place: no
    gather or copy beyond the core's own (a gather by agent index added one of each)."""
    env, states = env_and_states
    text = {
        side: jax.jit(jax.vmap(fn)).lower(states).compile().as_text()
        for side, fn in (
            ("adapter", env.world_state),
            ("core", lambda s: env.core.world_state(s.game)),
        )  # fmt: skip
    }
    assert pieces.hlo_counts(text["adapter"]) == pieces.hlo_counts(text["core"])


def test_every_way_of_building_the_rows_gives_the_flat_rows():
    """Each construction `bench_adapter_rows` times hands over exactly `flatten_obs`'s rows, so
    its ratio is the construction's cost and nothing else; one team plays from each end (RULES
    A6), so both obstacle frames are checked."""
    from bench import bench_adapter_rows as rows

    core = adapters.make("TeamDeathmatch", maps=[12]).core
    obs = jax.jit(lambda key: core.reset(key)[0])(jax.random.PRNGKey(5))
    block = np.asarray(arrays.flatten_obs(obs))
    obstacles = slice(380, 636)  # spaces.FLAT_LAYOUT: the (32, 8) table
    assert not np.array_equal(block[0, obstacles], block[5, obstacles])  # the two frames differ
    slots = tuple(range(10))
    for way, build in rows.WAYS.items():
        built = np.stack([np.asarray(r) for r in build(obs, slots)])
        np.testing.assert_array_equal(built, block, err_msg=way)


def test_each_reading_names_its_programs_once_the_stacked_one_against_the_core_trajectory():
    assert whole.program_names(whole.READINGS) == [
        "core_step", "adapter_step", "core_carried", "adapter_carried", "core_trajectory",
        "adapter_trajectory", "adapter_stacked", "core_learner", "adapter_learner",
    ]  # fmt: skip
    assert whole.program_names(["stacked"]) == ["core_trajectory", "adapter_stacked"]


def numbered_rows(n: int) -> dict:
    """{"a0" .. }: n (2, 3) float32 entries; entry i holds 100 * i + 0 .. 5 in row-major order."""
    return {f"a{i}": jnp.arange(6, dtype=jnp.float32).reshape(2, 3) + 100 * i for i in range(n)}


@pytest.mark.parametrize("n", [1, 5, 8, 9, 10, 11, 16, 20, 100])
def test_grouped_stack_is_batchify(n):
    tree = numbered_rows(n)
    agents = sorted(tree, key=lambda a: int(a[1:]))
    out = np.asarray(pieces.grouped_stack(tree, agents))
    assert out.shape == (n, 2, 3) and out.dtype == np.float32
    assert out[n - 1, 1, 2] == 100 * (n - 1) + 5 and (n < 7 or out[6, 1, 0] == 603)  # by hand
    np.testing.assert_array_equal(out, np.asarray(adapters.batchify(tree, agents)))
    with pytest.raises(KeyError, match="a999"):
        pieces.grouped_stack(tree, agents + ["a999"])


def _unfused_concatenates(stack, tree) -> int:
    """Concatenates left outside any fusion in the optimised HLO of jit(stack(tree) * 2)."""
    fn = jax.jit(lambda t: stack(t, list(t)) * 2.0)
    text = fn.lower(tree).compile().as_text()
    return len(re.findall(r"\} concatenate\(", text[text.index("ENTRY") :]))


def test_grouped_stack_of_ten_fuses_into_its_consumer_where_batchify_does_not():
    """Ten agents: `batchify`'s one jnp.stack is a 10-operand concatenate XLA:CPU writes out
    before its consumer reads it; two stacks of five fuse into the consumer."""
    tree = numbered_rows(10)
    assert _unfused_concatenates(adapters.batchify, tree) == 1
    assert _unfused_concatenates(pieces.grouped_stack, tree) == 0
    with pytest.raises(ValueError, match="no agents"):
        pieces.grouped_stack({}, [])


def test_agents_first_rows_are_the_rows_and_their_stack_folds_under_vmap():
    """`agents_first_rows` gives each slot's row, alone and under vmap; stacked under vmap (the
    learner's `batchify` in a per-game rollout) the rows fold into one slice of the block,
    where plain slices leave the ten-operand concatenate written out."""
    block = jnp.arange(3 * 10 * 4, dtype=jnp.float32).reshape(3, 10, 4)  # (games, slots, k)
    slots = range(10)
    alone = pieces.agents_first_rows(block[1], slots)
    assert [float(r[2]) for r in alone[:3]] == [42.0, 46.0, 50.0]  # 40 + 4 * slot + 2
    batched = jax.vmap(lambda b: pieces.agents_first_rows(b, slots))(block)
    for s, row in enumerate(batched):
        np.testing.assert_array_equal(row, block[:, s])

    def concatenates(cut) -> int:
        fn = jax.jit(jax.vmap(lambda b: jnp.stack(cut(b)) * 2.0))
        text = fn.lower(block).compile().as_text()
        return len(re.findall(r"\} concatenate\(", text[text.index("ENTRY") :]))

    assert concatenates(lambda b: [b[s] for s in slots]) == 1
    assert concatenates(lambda b: pieces.agents_first_rows(b, slots)) == 0
