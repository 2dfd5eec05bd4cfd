"""Invariants over random legal rollouts of every roster size from 1v1 to 5v5.

Each example scatters the agents over the middle of a shipped map with random health and
cooldowns, plays TICKS ticks of `env.step` with random legal actions (one compiled scan for
all examples), and checks every transition on the host.
"""

import jax
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import constants as C
from engine import maps as M
from tests.engine.kit import ROLLOUT, TICKS, host, index, map_game, overlapping, scatter

pytestmark = pytest.mark.slow  # one compile of the scanned rollout (~30-60 s on 2 cores)

MAP_IDS = (0, 1, 8, 11, 12, 30, 47)
SPECS = {i: M.load_map(i) for i in MAP_IDS}
MAX_HEALTH = np.asarray(C.MAX_HEALTH)


def scenario(map_id, team_a, team_b, spawn_end, seed):
    """A scattered game and the one-map pool it restarts from."""
    spec = SPECS[map_id]
    roster = f"{team_a}/{team_b}"
    rng = np.random.default_rng(seed)
    slots = [k for k in range(len(team_a))] + [5 + k for k in range(len(team_b))]
    spots = scatter(rng, spec.obstacles.reshape(-1, 8), len(slots))
    cls = np.zeros(10, np.int32)
    cls[slots] = [" MWHRP".index(c) for c in team_a + team_b]
    health = {k: float(rng.uniform(1, MAX_HEALTH[cls[k]])) for k in slots}
    cooldown = {k: int(rng.integers(0, 4)) for k in slots}
    state = map_game(
        spec, roster, spawn_end, pos=dict(zip(slots, spots, strict=True)), health=health,
        cooldown=cooldown,
    )  # fmt: skip
    pool = M.make_pool(maps=[map_id], rosters=[roster], p_east=float(spawn_end))
    return pool, state


def check_transition(b, a, ev):
    """Every invariant of one tick: `b` the state it starts from, `a` the state after."""
    active = b.active
    alive0, alive1 = b.alive & active, a.alive & active
    # Health stays in [0, max]; the dead hold 0.
    top = MAX_HEALTH[b.class_id]
    assert (a.health >= 0).all() and (a.health <= top).all()
    assert (a.health[~alive1] == 0).all()
    # Nobody alive ends inside an obstacle or off the map.
    p = a.pos[alive1]
    assert not overlapping(p, a.obstacles).any()
    assert (p >= 0.5 - 1e-5).all() and (p[:, 0] <= 19.5 + 1e-5).all()
    assert (p[:, 1] <= 9.5 + 1e-5).all()
    # The dead never act, move, deal or receive anything.
    dead0 = active & ~alive0
    assert (ev.accepted[dead0] == 0).all() and (ev.lane[dead0] == 0).all()
    assert not ev.move[dead0].any() and not ev.charge_move[dead0].any()
    assert not ev.damage_raw[dead0].any() and not ev.heal_raw[dead0].any()
    assert not ev.damage_raw[:, ~alive0].any() and not ev.heal_raw[:, ~alive0].any()
    stay_dead = dead0 & ~ev.respawned
    np.testing.assert_array_equal(a.pos[stay_dead], b.pos[stay_dead])
    # Deaths and respawns are the alive flips; scores never fall and match the deaths.
    np.testing.assert_array_equal(ev.died, alive0 & ~alive1)
    np.testing.assert_array_equal(ev.respawned, ~alive0 & alive1)
    assert (a.score >= b.score).all()
    np.testing.assert_array_equal(ev.score_delta, a.score - b.score)
    points = np.where(ev.red_zone_death, 2, 1) * ev.died
    assert ev.score_delta.tolist() == [points[5:].sum(), points[:5].sum()]
    # Health change = realised heal - realised damage + regeneration (RULES 6.1).
    change = ev.heal_realised.sum(0) - ev.damage_realised.sum(0) + ev.regen
    alive_start = np.flatnonzero(alive0)
    np.testing.assert_allclose(
        np.where(alive1, a.health, 0.0)[alive_start],
        (b.health + change)[alive_start],
        atol=2e-3,
    )
    # Displacements explain the new positions of everyone alive at start.
    moved = a.pos - b.pos
    np.testing.assert_allclose(
        moved[alive0], (ev.charge_move + ev.move)[alive0], atol=1e-4
    )  # fmt: skip
    # Actions were legal: nothing rejected, accepted = submitted.
    assert not ev.rejected.any()
    np.testing.assert_array_equal(ev.accepted, ev.submitted)
    # Counters: no statuses on the dead; a shield and a stun never coexist; ooc 0 when dead.
    assert not a.status[~alive1].any() and (a.ooc[~alive1] == 0).all()
    stunned = (a.status[:, list(np.flatnonzero(C.IS_STUN))] > 0).any(-1)
    assert not (stunned & (a.shield > 0)).any()
    assert ((a.cooldown >= 0) & (a.cooldown <= C.ULT_COOLDOWN)).all()
    assert int(a.tick) == int(b.tick) + 1


def finite(tree) -> bool:
    leaves = jax.tree_util.tree_leaves(tree)
    return all(np.isfinite(x).all() for x in leaves if np.issubdtype(x.dtype, np.floating))


@settings(max_examples=15, deadline=None)
@given(
    team_a=st.text("MWHRP", min_size=1, max_size=5),
    team_b=st.text("MWHRP", min_size=1, max_size=5),
    map_id=st.sampled_from(MAP_IDS),
    spawn_end=st.integers(0, 1),
    seed=st.integers(0, 2**31 - 1),
)
def test_random_legal_rollouts_keep_every_invariant(team_a, team_b, map_id, spawn_end, seed):
    pool, state = scenario(map_id, team_a, team_b, spawn_end, seed)
    trace = host(ROLLOUT(pool, state, jax.random.key(seed)))
    assert not trace["done"].any()  # TICKS ticks from 0 - 0 never end a game
    assert finite(trace)  # obs, states, events, reward: no NaN or inf anywhere
    for t in range(TICKS):
        check_transition(
            index(trace["before"], t), index(trace["after"], t), index(trace["events"], t)
        )


def test_rollouts_do_fight():
    # The bias towards combat makes the property test meaningful: across a few seeds the
    # rollouts contain damage, heals, deaths and respawns.
    seen = {"damage": 0, "heal": 0, "died": 0, "respawned": 0, "status": 0}
    for seed in range(4):
        pool, state = scenario(8, "MWHRP", "MWHRP", seed % 2, seed)
        ev = host(ROLLOUT(pool, state, jax.random.key(seed)))["events"]
        seen["damage"] += int((ev.damage_raw > 0).sum())
        seen["heal"] += int((ev.heal_raw > 0).sum())
        seen["died"] += int(ev.died.sum())
        seen["respawned"] += int(ev.respawned.sum())
        seen["status"] += int(ev.status_applied.sum())
    assert all(v > 0 for v in seen.values()), seen
