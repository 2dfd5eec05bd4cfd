"""A short random legal game on every shipped map, all 52 at once (vmapped over per-map pools).

Each game gets its own one-map pool, so one compiled step serves every map: pools are data.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import engine
from engine import constants as C
from engine import maps as M
from engine.types import Actions

TICKS = 24
pytestmark = pytest.mark.slow  # one compile of a vmapped 24-tick scan: about 30 s on a CPU


def roster_for(spec):
    team = "MWHRP"[: spec.team_size or 5]
    return f"{team}/{team}"


def random_legal(key, flat_mask):
    """(..., 10, 198) bool -> Actions sampled uniformly among legal flat indices."""
    flat = jax.random.categorical(key, jnp.where(flat_mask, 0.0, -jnp.inf), axis=-1)
    return Actions(
        move=flat // (C.NUM_TARGETS * C.NUM_ULT),
        target=(flat // C.NUM_ULT) % C.NUM_TARGETS,
        ult=flat % C.NUM_ULT,
    )


@pytest.fixture(scope="module")
def games():
    specs = M.load_maps("all")
    pools = [M.make_pool([s], [roster_for(s)], p_east=0.5) for s in specs]
    pools = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *pools)
    env = engine.make(maps=0)
    n = len(specs)

    @jax.jit
    def play(key):
        k_reset, k_run = jax.random.split(key)
        obs, state = jax.vmap(env.reset)(jax.random.split(k_reset, n), pools)

        def tick(carry, key):
            obs, state = carry
            k_act, k_step = jax.random.split(key)
            actions = random_legal(k_act, obs.mask.flat)
            step = jax.vmap(env.step)
            obs, state, _, _, _ = step(jax.random.split(k_step, n), state, actions, pools)
            return (obs, state), (state.pos, state.alive)

        (_, last), (pos, alive) = jax.lax.scan(tick, (obs, state), jax.random.split(k_run, TICKS))
        return state, last, pos, alive

    first, last, pos, alive = play(jax.random.key(7))
    return specs, jax.device_get(first), jax.device_get(last), np.asarray(pos), np.asarray(alive)


def test_every_map_starts_on_its_pads(games):
    specs, first, _, _, _ = games
    np.testing.assert_array_equal(first.map_id, np.arange(52))
    for i, spec in enumerate(specs):
        end = int(first.spawn_end[i])
        pads = np.concatenate([spec.pads[end], spec.pads[1 - end]])
        active = first.active[i]
        assert active.sum() == 2 * (spec.team_size or 5)
        np.testing.assert_allclose(first.pos[i][active], pads[active])
        np.testing.assert_array_equal(first.obstacles[i][: spec.num_obstacles], spec.obstacles)


def test_agents_move_and_never_enter_an_obstacle(games):
    specs, first, last, pos, alive = games
    moved = np.abs(pos[-1] - first.pos).max(axis=-1)
    assert (moved[first.active] > 0.5).mean() > 0.5  # random play does leave the pads
    for i, spec in enumerate(specs):
        active = first.active[i]
        xy = pos[:, i][:, active].reshape(-1, 2)
        assert np.all(xy >= 0.5 - 1e-4) and np.all(xy[:, 0] <= 19.5 + 1e-4)
        assert np.all(xy[:, 1] <= 9.5 + 1e-4)
        # Allow 1e-3 for float32 projection to tangency (RULES 1.3).
        inside = M.disc_overlaps(spec.obstacles, xy[:, 0], xy[:, 1], 0.5 - 1e-3)
        assert not inside.any(), f"map {i}: an agent overlaps an obstacle"
    assert np.all(last.tick <= TICKS)


def test_auto_reset_draws_from_the_chosen_split():
    env = engine.make(maps="validation", rosters=["MWHRP/MWHRP"])
    _, state = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.key(1), 64))
    drawn = set(np.asarray(state.map_id).tolist())
    assert drawn <= set(range(42, 47)) and len(drawn) >= 4


def test_a_new_pool_does_not_recompile():
    env = engine.make(maps=0)
    traces = []

    @jax.jit
    def reset(key, pool):
        traces.append(1)  # runs only while tracing
        return env.reset(key, pool)[1].map_id

    key = jax.random.key(2)
    assert int(reset(key, M.make_pool("test", ["MWHRP"]))) in range(47, 52)
    assert int(reset(key, M.make_pool([3], ["MW/HR"], p_east=1.0))) == 3
    assert int(reset(key, M.make_pool("all", ["M", "MWHRP/P"]))) in range(52)
    assert len(traces) == 1
