"""Parity (eager, jit, vmap, scan), determinism, mirror symmetry, auto-reset and recompiles.

One random legal game is recorded with the scanned `env.step` rollout and replayed in other
ways; a replay must give the same states bit for bit (RULES A11), and the mirrored game the
mirrored states (RULES 1.7).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import engine
from engine import constants as C
from engine import maps as M
from engine import pool as P
from engine.types import Actions
from tests.engine.kit import (
    CONFIG,
    ROLLOUT,
    STEP,
    TICKS,
    edit,
    host,
    index,
    map_game,
    rollout,
    scatter,
)

pytestmark = pytest.mark.slow  # compiles the scanned rollout and a vmapped copy
MAP_ID = 8  # a curriculum map with pillars, mirror-symmetric like every shipped map
ROSTER = "MWHRP/HRPMW"
SWAP = np.array([5, 6, 7, 8, 9, 0, 1, 2, 3, 4])  # Team A <-> Team B slots
DYNAMIC = ("pos", "health", "alive", "cooldown", "status", "shield", "ooc", "wave_clock")


def scattered(spawn_end=0, seed=3, mirror=False, swap=False, map_id=MAP_ID):
    """The test game: agents scattered over the middle with random health.

    mirror: x -> 20 - x with the other spawn end; swap: Team A and B exchange slots (rosters,
    positions, health) and spawn ends.
    """
    spec = M.load_map(map_id)
    rng = np.random.default_rng(seed)
    spots = np.asarray(scatter(rng, spec.obstacles.reshape(-1, 8), 10))
    health = rng.uniform(20, 80, 10)
    roster = ROSTER
    if mirror:
        spots[:, 0] = 20.0 - spots[:, 0]
    if swap:
        spots, health = spots[SWAP], health[SWAP]
        roster = "/".join(ROSTER.split("/")[::-1])
    state = map_game(
        spec, roster, spawn_end, pos=dict(enumerate(map(tuple, spots))),
        health={k: float(h) for k, h in enumerate(health)},
    )  # fmt: skip
    pool = M.make_pool(maps=[map_id], rosters=[roster], p_east=float(spawn_end))
    return pool, state


def record(map_id):
    pool, state = scattered(map_id=map_id)
    trace = host(ROLLOUT(pool, state, jax.random.key(11)))
    assert not trace["done"].any()
    assert trace["events"].damage_raw.any()  # a real fight, not a walk
    return pool, state, trace


@pytest.fixture(scope="module")
def recorded():
    return record(MAP_ID)


@pytest.fixture(scope="module")
def recorded_open():
    return record(0)  # map 0 has no obstacles


def actions_at(trace, t, perm=None):
    a = index(trace["actions"], t)
    if perm is not None:
        a = Actions(move=a.move[perm], target=a.target[perm], ult=a.ult[perm])
    return a


def replay(state, trace, ticks=TICKS, perm=None, step=None):
    step = step or (lambda s, a: STEP(CONFIG, s, a))
    out = []
    for t in range(ticks):
        obs, state, reward, events = step(state, actions_at(trace, t, perm))
        out.append(host((obs, state, events)))
    return out


def assert_same(a, b):
    jax.tree_util.tree_map(np.testing.assert_array_equal, a, b)


def test_jit_loop_equals_scan(recorded):
    _, state, trace = recorded
    for t, (obs, st, ev) in enumerate(replay(state, trace)):
        assert_same(st, index(trace["after"], t))
        assert_same(obs, index(trace["obs"], t))
        assert_same(ev, index(trace["events"], t))


def test_vmap_equals_single_games(recorded):
    pool, state, trace = recorded
    _, other = scattered(spawn_end=1, seed=5)
    batch = jax.tree_util.tree_map(lambda *x: np.stack(x), state, other)
    keys = jnp.stack([jax.random.key(11), jax.random.key(5)])
    vtrace = host(jax.jit(jax.vmap(rollout, in_axes=(None, 0, 0)))(pool, batch, keys))
    for b, single in enumerate([trace, host(ROLLOUT(pool, other, keys[1]))]):
        batched = index(vtrace, b)
        # States, actions, events and masks are bit-identical; XLA may fuse the observation's
        # distance column differently once batched (measured: 1 ulp, 9.5e-7 map units).
        units = batched["obs"].units
        np.testing.assert_allclose(units, single["obs"].units, rtol=0, atol=1e-5)
        batched["obs"] = batched["obs"].replace(units=single["obs"].units)
        assert_same(batched, single)


def assert_close(a, b):
    """Integers and booleans equal, floats within 1e-5."""

    def check(x, y):
        if np.issubdtype(np.asarray(x).dtype, np.floating):
            np.testing.assert_allclose(x, y, rtol=0, atol=1e-5)
        else:
            np.testing.assert_array_equal(x, y)

    jax.tree_util.tree_map(check, a, b)


def test_eager_equals_jit(recorded):
    # Op-by-op execution rounds a few floats differently from the fused, compiled tick
    # (measured: positions 1 ulp apart, 7e-7 map units); every integer and flag is equal.
    _, state, trace = recorded
    with jax.disable_jit():
        eager = replay(state, trace, ticks=2, step=lambda s, a: engine.step_env(CONFIG, s, a))
    for t, (obs, st, ev) in enumerate(eager):
        assert_close(st, index(trace["after"], t))
        assert_close(ev, index(trace["events"], t))
        assert_close(obs, index(trace["obs"], t))


def test_two_runs_are_bit_identical(recorded):
    pool, state, trace = recorded
    assert_same(host(ROLLOUT(pool, state, jax.random.key(11))), trace)
    assert_same(replay(state, trace, ticks=4), replay(state, trace, ticks=4))


def check_mirrored(trace, map_id):
    # Same rosters and team-frame actions, every position mirrored, Team A now east: each
    # team's observations are the same as before, and the world is the mirror image.
    _, mirrored = scattered(spawn_end=1, mirror=True, map_id=map_id)
    for t, (obs, st, ev) in enumerate(replay(mirrored, trace)):
        ref = index(trace["after"], t)
        np.testing.assert_allclose(st.pos[:, 0], 20.0 - ref.pos[:, 0], atol=1e-4)
        np.testing.assert_allclose(st.pos[:, 1], ref.pos[:, 1], atol=1e-4)
        np.testing.assert_allclose(st.health, ref.health, atol=1e-4)
        for name in ("alive", "cooldown", "status", "shield", "ooc", "score", "wave_clock"):
            np.testing.assert_array_equal(getattr(st, name), getattr(ref, name), name)
        ref_obs = index(trace["obs"], t)
        np.testing.assert_allclose(obs.units, ref_obs.units, atol=1e-4)
        np.testing.assert_array_equal(obs.mask.flat, ref_obs.mask.flat)
        np.testing.assert_array_equal(ev.accepted, index(trace["events"], t).accepted)
        np.testing.assert_allclose(ev.move[:, 0], -index(trace["events"], t).move[:, 0], atol=1e-4)


def test_swapped_spawn_ends_give_the_mirrored_game(recorded_open):
    check_mirrored(recorded_open[2], 0)


def test_swapped_spawn_ends_give_the_mirrored_game_among_pillars(recorded):
    check_mirrored(recorded[2], MAP_ID)


def test_swapped_team_roles_give_the_same_world_with_slots_exchanged(recorded):
    # Team A takes B's roster, place and east end, and B's actions; Team B likewise.
    _, _, trace = recorded
    _, swapped = scattered(spawn_end=1, swap=True)
    for t, (obs, st, ev) in enumerate(replay(swapped, trace, perm=SWAP)):
        ref = index(trace["after"], t)
        np.testing.assert_allclose(st.pos, ref.pos[SWAP], atol=1e-4)
        np.testing.assert_allclose(st.health, ref.health[SWAP], atol=1e-4)
        for name in ("alive", "cooldown", "status", "shield", "ooc"):
            np.testing.assert_array_equal(getattr(st, name), getattr(ref, name)[SWAP], name)
        np.testing.assert_array_equal(st.score, ref.score[::-1])
        ref_obs = index(trace["obs"], t)
        np.testing.assert_allclose(obs.units, ref_obs.units[SWAP], atol=1e-4)
        np.testing.assert_array_equal(ev.died, index(trace["events"], t).died[SWAP])


def test_auto_reset_restarts_from_the_pool(recorded):
    # A game at tick 298: tick 299 -> 300 is truncated (draw: 3 - 1 < 20), the returned state
    # is a fresh game from the pool, and `last_obs` still shows tick 300.
    pool, state, _ = recorded
    late = edit(state, tick=298, score=np.array([3, 1]))
    trace = host(ROLLOUT(pool, late, jax.random.key(4)))
    assert trace["done"].tolist()[:3] == [False, True, False]
    ev = index(trace["events"], 1)
    assert bool(ev.truncated) and not bool(ev.terminated) and int(ev.outcome) == 3
    assert not trace["reward"][1].any()
    assert trace["last_tick"][1, 0] == 300.0
    fresh = index(trace["after"], 1)
    assert int(fresh.tick) == 0 and not bool(fresh.has_prev)
    assert fresh.score.tolist() == [0, 0] and fresh.wave_clock.tolist() == [4, 4]
    assert (fresh.health == np.asarray(C.MAX_HEALTH)[fresh.class_id]).all()
    assert not index(trace["obs"], 1).relayed.any()
    assert int(index(trace["before"], 2).tick) == 0


def test_no_recompile_when_map_roster_or_spawn_end_change(recorded):
    # One compiled executable serves every map, roster size and spawn end.
    pool, state, _ = recorded
    ROLLOUT(pool, state, jax.random.key(0))
    STEP(CONFIG, state, actions_at(recorded[2], 0))
    before = ROLLOUT._cache_size(), STEP._cache_size()
    for map_id, roster, end in [(0, "M/W", 1), (47, "HRP/MW", 0), (30, "MWHRP/R", 1)]:
        spec = M.load_map(map_id)
        other = map_game(spec, roster, end)
        other_pool = M.make_pool(maps=[map_id], rosters=[roster], p_east=float(end))
        ROLLOUT(other_pool, other, jax.random.key(1))
        STEP(CONFIG, other, actions_at(recorded[2], 0))
    assert (ROLLOUT._cache_size(), STEP._cache_size()) == before


def test_reset_draws_map_roster_and_spawn_end_from_the_pool():
    # RULES 4.4: state 0 has everyone alive on its pad at full health, Ultimates ready, no
    # statuses, shields or history, wave clocks 4. p_east 0 / 1 fixes the spawn end.
    env = engine.Env(CONFIG, None)
    reset = jax.jit(env.reset)
    sizes = []
    for p_east, end in ((0.0, 0), (1.0, 1)):
        pool = M.make_pool(maps=[0, 47], rosters=["MWH/RP", "W/HHRPM"], p_east=p_east)
        for seed in range(6):
            obs, s = host(reset(jax.random.key(seed), pool))
            assert int(s.spawn_end) == end and int(s.map_id) in (0, 47)
            spec = M.load_map(int(s.map_id))
            assert s.class_id.tolist() in (
                P.parse_roster("MWH/RP").tolist(),
                P.parse_roster("W/HHRPM").tolist(),
            )
            active = s.active
            np.testing.assert_array_equal(
                s.pos[active[:5].nonzero()[0]], spec.pads[end][active[:5]]
            )
            np.testing.assert_array_equal(s.alive, active)
            np.testing.assert_array_equal(s.health, np.asarray(C.MAX_HEALTH)[s.class_id])
            assert not (s.cooldown.any() or s.status.any() or s.shield.any() or s.ooc.any())
            assert s.wave_clock.tolist() == [4, 4] and s.score.tolist() == [0, 0]
            assert int(s.tick) == 0 and not bool(s.has_prev) and not obs.relayed.any()
        sizes.append(reset._cache_size())
    assert sizes == [1, 1]  # a new pool is data: no recompile
