"""Scene building: views, point-of-view filtering (RULES 5.2, A8), trails, floating numbers."""

import numpy as np
import pytest

from tests.helpers.replays import synthetic_replay
from ui.scene import (
    known_masks,
    parse_view,
    scene_from_state,
    view_label,
    view_tag,
    view_trails,
)

ACTIVE = np.ones(10, bool)
ROSTER = (4, 3, 0, 0, 0, 1, 2, 3, 5, 0)  # class ids: A0 Rogue, A1 Hunter, B0 Mage, ..., B3 Priest


def masks():
    visible = np.zeros((10, 10), bool)
    relayed = np.zeros((10, 10), bool)
    visible[2, [2, 6]] = True  # agent A2 sees itself and B1
    visible[3, [3, 1]] = True  # agent A3 sees itself and A1
    relayed[2, 7] = True  # A2 has B2 relayed from a teammate's last-tick sighting
    return visible, relayed


@pytest.mark.parametrize(
    ("text", "view", "label", "tag"),
    [
        ("oracle", "oracle", "Oracle", "oracle"),
        ("agent:7", ("agent", 7), "B2 Hunter", "agent-b2"),
        ("agent:B3", ("agent", 8), "B3 Priest", "agent-b3"),
        ("agent:a0", ("agent", 0), "A0 Rogue", "agent-a0"),
        ("team:A", ("team", 0), "Team A", "team-a"),
        ("team:b", ("team", 1), "Team B", "team-b"),
        ("team:1", ("team", 1), "Team B", "team-b"),
    ],
)
def test_parse_view(text, view, label, tag):
    assert parse_view(text) == view
    assert view_label(view, ROSTER) == label  # the class from the roster, as the View menu
    assert view_tag(view) == tag


@pytest.mark.parametrize(
    "text", ["agent:10", "agent:x", "agent:B5", "agent:C1", "team:C", "god", ""]
)
def test_parse_view_rejects(text):
    with pytest.raises(ValueError, match="expected oracle"):
        parse_view(text)


def test_agent_view_draws_own_sight_and_relayed_rows():
    visible, relayed = masks()
    direct, relay = known_masks(("agent", 2), visible, relayed, ACTIVE, ACTIVE)
    assert np.flatnonzero(direct).tolist() == [2, 6]
    assert np.flatnonzero(relay).tolist() == [7]


def test_dead_agent_sees_nothing_not_even_itself():
    """RULES 5.2: a dead agent's unit rows are all zero and nothing is relayed to it."""
    visible, relayed = masks()
    alive = ACTIVE.copy()
    alive[2] = False
    direct, relay = known_masks(("agent", 2), visible, relayed, alive, ACTIVE)
    assert not direct.any()
    assert not relay.any()


def test_team_view_is_the_union_of_living_members_sight():
    visible, relayed = masks()
    alive = ACTIVE.copy()
    alive[3] = False  # A3 is dead: neither its sight of A1 nor its own state is observed
    direct, relay = known_masks(("team", 0), visible, relayed, alive, ACTIVE)
    assert np.flatnonzero(direct).tolist() == [0, 1, 2, 4, 6]
    assert np.flatnonzero(relay).tolist() == [7]


def test_team_view_knows_a_dead_member_only_from_a_relayed_row():
    """RULES 5.7: a member dead now that a living teammate saw last tick is relayed as it was."""
    visible, relayed = masks()
    alive = ACTIVE.copy()
    alive[3] = False
    relayed[2, 3] = True
    direct, relay = known_masks(("team", 0), visible, relayed, alive, ACTIVE)
    assert not direct[3]
    assert np.flatnonzero(relay).tolist() == [3, 7]


def test_oracle_draws_every_active_slot():
    active = np.array([1, 1, 0, 0, 0, 1, 0, 0, 0, 0], bool)
    direct, relay = known_masks("oracle", *masks(), active, active)
    assert np.flatnonzero(direct).tolist() == [0, 1, 5]
    assert not relay.any()


def _tick(replay, t):
    return {k: v[t] for k, v in replay.states.items()}


def test_scene_pov_relayed_unit_is_drawn_from_the_previous_tick():
    replay = synthetic_replay(3, seed=1)
    now, before = _tick(replay, 2), _tick(replay, 1)
    now["pos"][7] = [15.0, 2.0]
    before["pos"][7] = [12.5, 3.5]
    visible, relayed = masks()
    scene = scene_from_state(
        now, view=("agent", 2), visible=visible, relayed=relayed, prev_state=before
    )
    assert [u.slot for u in scene.units] == [2, 6, 7]
    echo = scene.unit(7)
    assert echo.relayed and echo.pos == (12.5, 3.5)
    assert not scene.unit(6).relayed


def test_scene_drops_selection_highlights_and_trails_of_unknown_units():
    replay = synthetic_replay(3, seed=1)
    visible, relayed = masks()
    scene = scene_from_state(
        _tick(replay, 2),
        view=("agent", 2),
        visible=visible,
        relayed=relayed,
        selected=9,
        highlights=[6, 9],
        trails={6: np.zeros((3, 2)), 9: np.zeros((3, 2))},
    )
    assert scene.selected is None
    assert scene.highlights == frozenset({6})
    assert list(scene.trails) == [6]
    assert scene.known == frozenset({2, 6})  # no prev_state: relayed rows left out


def test_scene_pov_needs_masks():
    replay = synthetic_replay(1, seed=1)
    with pytest.raises(ValueError, match="needs the visible and relayed"):
        scene_from_state(_tick(replay, 0), view=("agent", 0))


def test_floating_numbers_sum_realised_amounts_for_seen_units():
    replay = synthetic_replay(2, seed=1)
    events = {k: np.zeros_like(v[0]) for k, v in replay.events.items()}
    events["damage_realised"][0, 6] = 10.0
    events["damage_realised"][1, 6] = 4.4
    events["heal_realised"][4, 2] = 8.0
    events["damage_realised"][5, 9] = 30.0  # B4 is not seen by A2
    visible, relayed = masks()
    scene = scene_from_state(
        _tick(replay, 1), view=("agent", 2), visible=visible, relayed=relayed, events=events
    )
    assert {(f.slot, f.text, f.kind) for f in scene.floats} == {
        (6, "-14", "damage"),
        (2, "+8", "heal"),
    }


def test_view_trails_keep_known_ticks_only():
    positions = np.arange(3 * 10 * 2, dtype=np.float32).reshape(3, 10, 2)
    known = np.zeros((3, 10), bool)
    known[:, 0] = True
    known[[0, 2], 1] = True
    known[1, 2] = True
    trails = view_trails(positions, known)
    assert sorted(trails) == [0, 1]
    np.testing.assert_array_equal(trails[1], positions[[0, 2], 1])
