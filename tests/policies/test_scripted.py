"""Scripted bots: legal over many random positions, deterministic, and they act as documented.

Positions below are world coordinates (map units); Team A spawns west, so its frame is the
world frame. Target categories: 1-5 own team slots 0-4, 6-10 the enemy's (RULES 3.3).
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import engine
from engine import constants as C
from engine.map_geometry import disc_overlaps
from engine.maps import load_map
from engine.types import Config
from policies.scripted import BOTS, scripted_policy, scripted_system

CONFIG = Config()
FAR = [(1.0 + k, 0.6) for k in range(5)] + [(19.0 - k, 9.4) for k in range(5)]


@functools.cache
def _policy(name):
    return jax.jit(scripted_policy(name))


@functools.cache
def _batched(name):
    return jax.jit(jax.vmap(scripted_policy(name)))


def scene(units, obstacles=None, spawn_end=0):
    """A state with the given units; units: {slot: (class, x, y, health or None)}. Slots not
    listed are empty; a team left empty gets one Warrior far out of sight in its first slot.
    Returns (state, obs)."""
    units = dict(units)
    for first, far in ((0, (1.0, 0.6)), (5, (19.0, 9.4))):
        if not any(first <= s < first + 5 for s in units):
            units[first] = (C.WARRIOR, *far, None)
    roster = np.zeros(10, np.int32)
    pads = np.array(FAR, np.float32)
    health = np.zeros(10, np.float32)
    for slot, (cls, x, y, hp) in units.items():
        roster[slot], pads[slot] = cls, (x, y)
        health[slot] = C.MAX_HEALTH[cls] if hp is None else hp
    table = np.zeros((32, 8), np.float32) if obstacles is None else obstacles
    zones = np.array([[0, 0, 4, 10], [16, 0, 20, 10]], np.float32)
    state = engine.initial_state(CONFIG, table, pads, zones, roster, spawn_end, 0)
    state = state.replace(health=jnp.asarray(health))
    return state, engine.observe(CONFIG, state)


def act(name, obs):
    actions = _policy(name)(obs, obs.mask)
    return [
        tuple(int(h[s]) for h in (actions.move, actions.target, actions.ult)) for s in range(10)
    ]


def test_brawler_hits_the_nearest_enemy_with_its_ultimate_at_once():
    # Warrior A0 at (5, 5); enemy Mage B0 1.0 away, enemy Rogue B1 1.2 away, both in Basic
    # range 1.5; Charge (range 5.75) is ready, and the brawler never saves it.
    _, obs = scene(
        {0: (C.WARRIOR, 5, 5, None), 5: (C.MAGE, 6, 5, None), 6: (C.ROGUE, 5, 6.2, None)}
    )
    move, target, ult = act("brawler", obs)[0]
    assert (target, ult) == (6, 1)


def test_kiter_shoots_the_weakest_and_saves_its_trap():
    # Hunter A0 at (5, 5): Warrior B0 (200 hp) 2.0 away, Mage B1 (50 of 80 hp) 3.4 away (inside
    # Basic range 3.5, outside Trap range 3.0): the kiter shoots the Mage with its Basic.
    units = {0: (C.HUNTER, 5, 5, None), 5: (C.WARRIOR, 7, 5, None), 6: (C.MAGE, 8.4, 5, 50.0)}
    _, obs = scene(units)
    move, target, ult = act("kiter", obs)[0]
    assert (target, ult) == (7, 0)
    # and it backs away from the Warrior 2.0 east of it: a westward move (W, NW or SW)
    assert move in (4, 6, 8)


def test_brawler_walks_into_melee_where_the_kiter_backs_off():
    # A Mage 3.0 from an enemy Warrior: the brawler closes in (east-ish); 1.5 from it, the
    # kiter steps back (west-ish) to keep its Basic range.
    _, obs = scene({0: (C.MAGE, 5, 5, None), 5: (C.WARRIOR, 8, 5, None)})
    assert act("brawler", obs)[0][0] in (3, 5, 7)
    _, obs = scene({0: (C.MAGE, 5, 5, None), 5: (C.WARRIOR, 6.5, 5, None)})
    assert act("kiter", obs)[0][0] in (4, 6, 8)


def test_tactician_priest_saves_holy_word_for_a_rescue():
    # Priest A0 heals; Warrior A1 at 30/200 hp, in combat, 4 away (Basic range 3.0 is too
    # short, Holy Word reaches 5.75): Holy Word on ally category 2.
    units = {0: (C.PRIEST, 5, 5, None), 1: (C.WARRIOR, 9, 5, 30.0), 5: (C.ROGUE, 10, 5, None)}
    state, _ = scene(units)
    state = state.replace(ooc=state.ooc.at[1].set(3))
    obs = engine.observe(CONFIG, state)
    assert act("tactician", obs)[0][1:] == (2, 1)
    # the same Warrior at 150/200 hp only gets the Basic heal, from closer in
    state, _ = scene({0: (C.PRIEST, 5, 5, None), 1: (C.WARRIOR, 7, 5, 150.0)})
    assert act("tactician", engine.observe(CONFIG, state))[0][1:] == (2, 0)


def test_tactician_rogue_poisons_for_the_kill_only():
    # Rogue A0 next to a 30 hp enemy Hunter (Poison does 36): Ultimate. At full health the
    # Hunter takes a Basic instead; the brawler fires Poison either way.
    for hp, want in ((30.0, 1), (100.0, 0)):
        _, obs = scene({0: (C.ROGUE, 5, 5, None), 5: (C.HUNTER, 6, 5, hp)})
        assert act("tactician", obs)[0][1:] == (6, want)
        assert act("brawler", obs)[0][1:] == (6, 1)


def test_tactician_focuses_one_target():
    # Mage and Hunter of Team A both reach enemy Warrior B0 (200 hp) and enemy Priest B1
    # (60 hp), both in range: both shoot the Priest, the shared focus.
    units = {
        0: (C.MAGE, 5, 4, None),
        1: (C.HUNTER, 5, 6, None),
        5: (C.WARRIOR, 7.5, 4, None),
        6: (C.PRIEST, 7.2, 5.5, 60.0),
    }
    state, _ = scene(units)
    state = state.replace(cooldown=state.cooldown.at[:2].set(10))  # no Burst, no Trap
    actions = act("tactician", engine.observe(CONFIG, state))
    assert actions[0][1:] == (7, 0) and actions[1][1:] == (7, 0)


def test_stunned_agent_only_stays():
    state, _ = scene({0: (C.WARRIOR, 5, 5, None), 5: (C.MAGE, 6, 5, None)})
    state = state.replace(status=state.status.at[0, C.TRAP_STUN].set(2))
    obs = engine.observe(CONFIG, state)
    for name in BOTS:
        assert act(name, obs)[0] == (0, 0, 0)


def test_east_team_plays_the_mirror_image():
    # The same fight with Team A spawning east, mirrored, gives the same team-frame actions.
    units = {0: (C.HUNTER, 5, 3, None), 1: (C.PRIEST, 3, 4, 40.0), 5: (C.ROGUE, 7, 3.5, None)}
    _, west = scene(units)
    mirrored = {s: (c, C.MAP_WIDTH - x, y, hp) for s, (c, x, y, hp) in units.items()}
    _, east = scene(mirrored, spawn_end=1)
    for name in BOTS:
        assert act(name, west)[:2] == act(name, east)[:2]


def _random_states(count: int, seed: int):
    """`count` random mid-game states on test map 47: random rosters (some slots empty),
    positions, health, deaths, statuses, cooldowns and shields."""
    rng = np.random.default_rng(seed)
    spec = load_map(47)
    table = np.zeros((32, 8), np.float32)
    table[: len(spec.obstacles)] = spec.obstacles
    pads = np.concatenate([spec.pads[0], spec.pads[1]])
    zones = np.stack([spec.red_zones[0], spec.red_zones[1]])
    states = []
    for _ in range(count):
        roster = rng.integers(1, 6, 10).astype(np.int32)
        roster[rng.integers(1, 6) : 5] = 0
        roster[5 + rng.integers(1, 6) :] = 0
        active = roster > 0
        alive = active & (rng.random(10) < 0.8)
        pos = np.zeros((10, 2), np.float32)
        for slot in np.flatnonzero(active):  # anywhere clear of the obstacles
            while True:
                pos[slot] = rng.uniform([0.5, 0.5], [19.5, 9.5])
                if not disc_overlaps(spec.obstacles, *pos[slot], C.BODY_RADIUS).any():
                    break
        status = rng.integers(0, 4, (10, 9)) * (rng.random((10, 9)) < 0.2)
        state = engine.authored_state(
            CONFIG,
            obstacles=table,
            pads=pads,
            red_zones=zones,
            class_id=roster,
            spawn_end=int(rng.integers(2)),
            map_id=47,
            pos=pos,
            alive=alive,
            health=np.where(alive, C.MAX_HEALTH[roster] * rng.uniform(0.05, 1.0, 10), 0.0),
            status=np.minimum(status, C.STATUS_DURATION) * alive[:, None],
            shield=rng.integers(0, 4, 10) * (rng.random(10) < 0.2) * alive,
            cooldown=np.minimum(rng.integers(0, 3, 10) * rng.integers(0, 30, 10), 30) * active,
            ooc=np.minimum(rng.integers(0, 6, 10), C.OOC_DELAY[roster]) * alive,
        )
        states.append(state)
    return jax.tree.map(lambda *xs: jnp.stack(xs), *states)


@pytest.mark.parametrize("name", BOTS)
def test_bots_never_choose_an_illegal_action(name):
    states = _random_states(96, seed=7)
    obs = jax.jit(jax.vmap(lambda s: engine.observe(CONFIG, s)))(states)
    actions = _batched(name)(obs, obs.mask)
    games = np.arange(96)[:, None]
    slots = np.arange(10)[None, :]
    move_ok = np.asarray(obs.mask.move)[games, slots, np.asarray(actions.move)]
    pair_ok = np.asarray(obs.mask.pair)[
        games, slots, np.asarray(actions.target), np.asarray(actions.ult)
    ]
    assert move_ok.all() and pair_ok.all()
    # the positions are varied enough to exercise the combat choices, not just the no-op
    assert (np.asarray(actions.target) > 0).sum() > 50


def test_bots_are_deterministic_and_ignore_the_key():
    _, obs = scene({0: (C.HUNTER, 5, 5, None), 5: (C.WARRIOR, 7, 5, None)})
    system = scripted_system("tactician")
    carry = system.initial_carry()
    first, _ = system.act(obs, obs.mask, carry, jax.random.key(0))
    second, _ = system.act(obs, obs.mask, carry, jax.random.key(1))
    assert jax.tree.all(jax.tree.map(jnp.array_equal, first, second))
    assert system.name == "scripted:tactician" and not system.host


def test_walking_distances_go_round_a_wall():
    from engine import geometry
    from policies import scripted_nav as nav

    # Open ground: from node (0.5, 4.5) to a goal at (18.5, 5.0) is 17 along the row to the
    # seed node (17.5, 4.5), which sees the goal 1.118 away. The running minimum lifts runs
    # by 2048, where float32 steps are 2.4e-4, hence the tolerance.
    empty = jnp.zeros((32, 8), jnp.float32)
    goal = jnp.array([18.5, 5.0])
    field = nav.distance_field(goal, nav.grid_links(empty), geometry.shapes(empty))
    assert float(field[4, 0]) == pytest.approx(17 + np.hypot(1.0, 0.5), abs=5e-4)
    # A wall at x = 10 from y = 0 to y = 8 (0.5 thick): from (7.5, 1.5) to (12.5, 1.5) one
    # walks up past its end and down again, far more than the straight 5.
    wall = empty.at[0].set(jnp.array([C.OBSTACLE_WALL, 10.0, 4.0, 0, 0.5, 8.0, 0, 1]))
    goal = jnp.array([12.5, 1.5])
    field = nav.distance_field(goal, nav.grid_links(wall), geometry.shapes(wall))
    assert float(field[1, 7]) > 14.0
    # and a bot there heads north, round the wall, instead of pushing into it
    units = {0: (C.WARRIOR, 7.5, 1.5, None), 5: (C.WARRIOR, 12.5, 1.5, None)}
    _, obs = scene(units, obstacles=np.asarray(wall))
    assert act("tactician", obs)[0][0] in (1, 5, 6)


def test_walking_grid_is_kept_until_the_map_changes():
    from policies import scripted_nav as nav

    empty = jnp.zeros((32, 8), jnp.float32)
    wall = empty.at[0].set(jnp.array([C.OBSTACLE_WALL, 10.0, 4.0, 0, 0.5, 8.0, 0, 1]))
    grid = nav.grid_links(wall)
    assert not bool(jnp.all(grid))  # the wall closes links, so `stale` below differs from it
    stale = jnp.ones_like(grid)  # no real map has every link open next to a wall
    stamp = nav.stamp(wall)
    # Same stamp: the kept grid comes back untouched (it is not rebuilt); another: rebuilt.
    assert bool(jnp.all(nav.refresh_links(stale, stamp, wall, stamp) == stale))
    assert bool(jnp.all(nav.refresh_links(stale, jnp.nan, wall, stamp) == grid))
    # Under nested vmaps, only the entry whose stamp changed is rebuilt.
    kept = jnp.broadcast_to(stale, (2, 3, *stale.shape))
    old = jnp.full((2, 3), stamp).at[1, 2].set(jnp.nan)
    tables = jnp.broadcast_to(wall, (2, 3, 32, 8))
    both = jax.jit(jax.vmap(jax.vmap(nav.refresh_links)))(
        kept, old, tables, jnp.full((2, 3), stamp)
    )
    rebuilt = np.asarray(jnp.all(both == grid, axis=(2, 3, 4)))
    untouched = np.asarray(jnp.all(both == stale, axis=(2, 3, 4)))
    assert rebuilt.tolist() == [[False] * 3, [False, False, True]]
    assert untouched.tolist() == [[True] * 3, [True, True, False]]
