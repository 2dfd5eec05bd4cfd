"""The engine's random legal sampler: `pick_legal` maps one uniform draw to a legal value, and
`engine.random_legal_actions` returns legal actions, the same under jit, vmap and eagerly."""

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sampling import pick_legal

PICK = jax.jit(pick_legal)


def test_draws_split_the_unit_interval_evenly_among_legal_values():
    legal = jnp.asarray([[False, True, False, True, True]] * 6)
    draw = jnp.asarray([0.0, 0.3333, 0.3334, 0.6666, 0.6667, 0.9999])
    assert PICK(draw, legal).tolist() == [1, 1, 3, 3, 4, 4]


def test_a_row_without_legal_values_gives_zero():
    legal = jnp.zeros((2, 4), bool)
    assert PICK(jnp.asarray([0.2, 0.9]), legal).tolist() == [0, 0]


def test_frequencies_are_uniform_over_the_legal_values():
    legal = jnp.asarray([[True, False, True, False, False, True, False]] * 6000)
    draw = jax.random.uniform(jax.random.PRNGKey(3), (6000,))
    counts = np.bincount(np.asarray(PICK(draw, legal)), minlength=7)
    assert counts[[1, 3, 4, 6]].sum() == 0
    # 2000 expected each; 5 standard deviations is about 180.
    assert np.all(np.abs(counts[[0, 2, 5]] - 2000) < 180), counts


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.lists(st.booleans(), min_size=22, max_size=22), min_size=1, max_size=10),
    seed=st.integers(0, 2**31 - 1),
)
def test_the_pick_is_the_legal_value_its_draw_names(rows, seed):
    legal = np.asarray(rows)
    draw = np.asarray(jax.random.uniform(jax.random.PRNGKey(seed), (len(rows),)))
    picked = np.asarray(PICK(jnp.asarray(draw), jnp.asarray(legal)))
    for row, d, p in zip(legal, draw, picked, strict=True):
        choices = np.flatnonzero(row)
        expected = choices[int(d * len(choices))] if len(choices) else 0
        assert p == expected


def test_random_legal_actions_are_legal_and_jit_vmap_agree():
    import engine

    env = engine.make(maps=[0], rosters=["MWH/RP"])
    obs, _ = env.reset(jax.random.PRNGKey(0))
    keys = jax.random.split(jax.random.PRNGKey(3), 4)
    eager = [engine.random_legal_actions(k, obs.mask) for k in keys]
    batch = jax.vmap(jax.jit(engine.random_legal_actions), in_axes=(0, None))(keys, obs.mask)
    slots = np.arange(10)
    for i, act in enumerate(eager):
        for head in ("move", "target", "ult"):
            assert np.array_equal(
                np.asarray(getattr(batch, head)[i]), np.asarray(getattr(act, head))
            )
        move, target, ult = (np.asarray(x) for x in (act.move, act.target, act.ult))
        assert np.asarray(obs.mask.move)[slots, move].all()
        assert np.asarray(obs.mask.pair)[slots, target, ult].all()
