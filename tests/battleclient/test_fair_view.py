"""A human's screen never shows what its agents do not know (RULES 5.2, hotseat hand-over).

Two snapshots that differ only in the other team's hidden state (positions, health, statuses,
cooldowns, their masks, what they see, events among hidden units) must give the same pixels in
the human's view, during the resolution animation (numbers, banner, log) as well.
"""

import dataclasses

import numpy as np
import pygame
import pytest

from battleclient import layout as L
from battleclient.views import fair_scene
from tests.battleclient.driver import frame, key, make_app, orders_ready, setup, wait_for

HUMANS = "A0=human,A1=random,A2=human,A3-A4=random,B*=random"


@pytest.fixture(scope="module")
def game(display):
    """Three ticks of a game with humans on A0 and A2; returns (app, snapshots by tick)."""
    app = make_app(setup(HUMANS, seed=11))
    snaps = []
    for tick in range(4):
        wait_for(app, lambda t=tick: orders_ready(app) and app.screen.snap.tick == t)
        snaps.append(app.screen.snap)
        if tick < 3:
            frame(app, [key(pygame.K_SPACE)])
    yield app, snaps
    app.close()


def hidden_from_team_a(snap) -> list[int]:
    """Team B slots that no living human agent (A0, A2) saw or had relayed, now or a tick ago."""
    scene = fair_scene(snap, (0, 2))
    before = fair_scene(dataclasses.replace(snap, state=snap.prev_state), (0, 2))
    return [s for s in range(5, 10) if s not in scene.known and s not in before.known]


def perturb(snap, slots):
    """The same tick with different private facts about `slots` and the other team's sight."""
    state, prev = dict(snap.state), dict(snap.prev_state)
    for fields in (state, prev):
        fields["pos"] = fields["pos"].copy()
        fields["pos"][slots] += np.float32([-0.8, 0.6])
        for name, value in (("health", 0.5), ("cooldown", 17), ("status", 3)):
            fields[name] = fields[name].copy()
            fields[name][slots] = (fields[name][slots] * value) if name == "health" else value
    events = {k: v.copy() for k, v in snap.events.items()}
    a, b = slots[0], slots[-1]
    events["lane"][a], events["recipient"][a] = 1, b
    events["damage_raw"][a, b] = events["damage_recipient"][a, b] = 9.0
    events["damage_realised"][a, b] = 9.0
    events["heal_realised"][b, a] = 4.0
    events["status_applied"][b, 3] = True
    events["regen"][slots] = 2.5
    visible, relayed = snap.visible.copy(), snap.relayed.copy()
    visible[5:] = ~visible[5:]
    rng = np.random.default_rng(0)
    move, pair = snap.move_mask.copy(), snap.pair_mask.copy()
    move[5:] = rng.random(move[5:].shape) < 0.5
    pair[5:] = rng.random(pair[5:].shape) < 0.5
    return dataclasses.replace(
        snap,
        state=state,
        prev_state=prev,
        events=events,
        visible=visible,
        relayed=relayed,
        move_mask=move,
        pair_mask=pair,
    )


def render(app, before, snap, since=0.3):
    """The orders screen right after `snap` resolved (resolution numbers still up)."""
    screen = app.screen
    screen.logs, screen.scenes, screen.before = {}, {}, {}
    screen._accept(before)
    screen._accept(snap)
    screen.since = since
    surface = pygame.Surface(L.SIZE)
    app.draw(surface)
    return pygame.surfarray.array3d(surface)


def test_hidden_state_of_the_other_team_never_changes_the_picture(game):
    app, snaps = game
    before, snap = snaps[2], snaps[3]
    hidden = hidden_from_team_a(snap)
    assert len(hidden) >= 2, "the test needs two enemies out of sight"
    base = render(app, before, snap)
    for since in (0.3, 5.0):  # during the resolution and after it
        changed = render(app, before, perturb(snap, hidden), since)
        assert np.array_equal(render(app, before, snap, since), changed)
    assert base.shape[:2] == L.SIZE


def test_a_change_the_view_knows_about_does_change_the_picture(game):
    app, snaps = game
    before, snap = snaps[2], snaps[3]
    hurt = dict(snap.state, health=snap.state["health"].copy())
    hurt["health"][0] *= 0.5  # A0 is the human's own agent
    assert not np.array_equal(
        render(app, before, snap), render(app, before, dataclasses.replace(snap, state=hurt))
    )


def test_relayed_rows_are_marked(game):
    _, snaps = game
    for snap in snaps[1:]:
        scene = fair_scene(snap, (0, 2))
        for unit in scene.units:
            seen_now = snap.visible[[0, 2]][:, unit.slot].any() or unit.slot in (0, 2)
            assert unit.relayed == (not seen_now)


def test_a_team_that_cannot_act_locks_in_by_itself(game):
    app, snaps = game
    screen = app.screen
    snap = snaps[3]
    move, pair = snap.move_mask.copy(), snap.pair_mask.copy()
    move[[0, 2], 1:] = False  # both human agents stunned: only the no-op is legal
    pair[[0, 2]] = False
    pair[[0, 2], 0, 0] = True
    screen._accept(dataclasses.replace(snap, move_mask=move, pair_mask=pair))
    assert screen.phase == "orders"
    screen.update(0.5)
    assert screen.phase == "orders"  # the resolution is still on screen
    screen.update(2.0)
    assert screen.phase == "locked"
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick == 4)


def test_a_dead_teammate_shows_only_that_it_is_dead(game):
    """RULES 5.2, 5.6: no observation holds a dead unit's state (it sees nothing, no one sees
    it); that it is dead is public. A dead A1 (no relayed row) is not drawn in Team A's view,
    whatever its corpse, cooldown or statuses, and the side panel names it dead."""
    from battleclient.panels import score_lines

    _, snaps = game
    snap = snaps[2]
    state = {k: np.array(v) for k, v in snap.state.items()}
    state["alive"][1] = False
    visible, relayed = snap.visible.copy(), snap.relayed.copy()
    visible[1], visible[:, 1], relayed[1], relayed[:, 1] = False, False, False, False
    dead = dataclasses.replace(snap, state=state, visible=visible, relayed=relayed)
    other = {k: v.copy() for k, v in state.items()}
    other["pos"][1] += np.float32([1.1, -0.7])
    other["cooldown"][1], other["status"][1] = 9, 4
    twin = dataclasses.replace(dead, state=other)
    for sight in ("team", "agent"):
        scene = fair_scene(dead, (0, 2), sight=sight)
        assert 1 not in scene.known
        other_scene = fair_scene(twin, (0, 2), sight=sight)
        assert (scene.units, scene.floats) == (other_scene.units, other_scene.floats)
    assert "Dead: A1" in [str(x) for x in score_lines(dead, 300)]
