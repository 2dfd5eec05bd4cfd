"""ViewerModel and Timeline: ticks, views, per-view facts, plot series, pair matrices."""

import numpy as np
import pytest

from replay_viewer.model import SPEEDS, Timeline, ViewerModel
from tests.helpers.replays import synthetic_replay
from ui.scene import known_masks


@pytest.fixture(scope="module")
def replay():
    return synthetic_replay(30, seed=4)


def test_timeline_clamps_steps_and_seeks():
    tl = Timeline(30)
    assert tl.step(-1) == 0
    assert tl.step(10) == 10
    assert tl.seek(99) == 30
    tl.toggle()  # at the end, play restarts from tick 0
    assert tl.playing and tl.tick == 0


def test_timeline_advances_at_its_speed_and_stops_at_the_end():
    tl = Timeline(30)
    tl.speed_index = SPEEDS.index(4)
    tl.toggle()
    assert not tl.advance(0.2)  # 0.8 of a tick
    assert tl.advance(0.1) and tl.tick == 1  # 1.2 ticks in all
    tl.advance(100.0)
    assert tl.tick == 30 and not tl.playing


def test_timeline_speed_presets_saturate():
    tl = Timeline(5)
    tl.faster(100)
    assert tl.speed == SPEEDS[-1]
    tl.faster(-100)
    assert tl.speed == SPEEDS[0]


def test_masks_follow_the_scene_rules(replay):
    model = ViewerModel(replay)
    model.set_view(("team", 1))
    for t in (0, 7, 30):
        s = model.state(t)
        want = known_masks(
            ("team", 1), replay.visible[t], replay.relayed[t], s["alive"], s["active"]
        )
        np.testing.assert_array_equal(model.masks(t)[0], want[0])
        np.testing.assert_array_equal(model.masks(t)[1], want[1])


def test_log_at_tick_zero_and_after(replay):
    model = ViewerModel(replay)
    assert model.log_lines(0)[0].startswith("Tick 0")
    model.timeline.seek(5)
    assert model.log_lines() == model.log_lines(5)


def test_selection_is_dropped_when_the_view_cannot_see_it(replay):
    model = ViewerModel(replay)
    model.timeline.seek(0)
    model.selected = 9  # B4, on its pad across the map at tick 0
    model.set_view(("agent", 0))
    assert model.selected is None


def test_agent_panel_hides_others_submitted_orders_in_a_pov(replay):
    model = ViewerModel(replay)
    t = next(t for t in range(1, 31) if model.masks(t, ("agent", 0))[0][5])  # A0 sees B0
    model.timeline.seek(t)
    oracle = model.agent_lines(5)
    assert any(line.startswith("Submitted:") for line in oracle)
    assert any(line.startswith("System:") for line in oracle)
    model.set_view(("agent", 0))
    pov = model.agent_lines(5)
    assert not any(line.startswith(("Submitted:", "System:")) for line in pov)
    assert any(line.startswith("Accepted:") for line in pov)
    own = model.agent_lines(0)
    assert any(line.startswith("Submitted:") for line in own)


def test_agent_panel_for_an_unknown_unit_asks_for_a_selection(replay):
    model = ViewerModel(replay)
    model.set_view(("agent", 0))
    hidden = next(s for s in range(10) if s not in model.known(0))
    assert model.agent_lines(hidden) == [
        "The selected unit is out of this view's sight at this tick. "
        "Click a unit shown in this view to select it.",
        "Keys 0-9 switch to another agent's point of view, o back to the Oracle.",
    ]


def test_health_series_hides_unknown_and_future_values(replay):
    model = ViewerModel(replay)
    model.timeline.seek(12)
    model.set_view(("agent", 2))
    health = model.health_series()
    direct = model.all_masks()[0]
    assert np.isnan(health[13:]).all()
    assert np.isnan(health[:13][~direct[:13]]).all()
    np.testing.assert_array_equal(
        health[:13][direct[:13]], replay.states["health"][:13][direct[:13]]
    )
    assert np.isnan(model.score_series()[13:]).all()
    assert np.isnan(model.damage_series()[12:]).all()


def test_oracle_series_are_whole_game(replay):
    model = ViewerModel(replay)
    assert not np.isnan(model.health_series()).any()
    damage = model.damage_series()
    dealt = replay.events["damage_realised"].sum(axis=2)
    np.testing.assert_allclose(damage[:, 0], dealt[:, :5].sum(1), rtol=1e-5)


def test_pair_matrices_and_peak_tick(replay):
    model = ViewerModel(replay)
    pairs = model.pair_matrices()
    np.testing.assert_allclose(pairs["damage"], replay.events["damage_realised"].sum(0), rtol=1e-5)
    s, r = np.unravel_index(np.argmax(pairs["damage"]), (10, 10))
    peak = model.peak_tick("damage", s, r)
    series = replay.events["damage_realised"][:, s, r]
    assert series[peak - 1] == series.max()
    assert model.peak_tick("control", s, r) is None


def test_control_matrix_counts_hand_built_poison():
    replay = synthetic_replay(2, seed=1)
    for name in ("lane", "recipient", "status_applied", "status_refreshed"):
        replay.events[name][:] = -1 if name == "recipient" else 0
    replay.events["lane"][1, 8] = 2  # Rogue B3's Poison on Priest A4 at tick 1
    replay.events["recipient"][1, 8] = 4
    replay.events["status_applied"][1, 4, [2, 5, 6]] = True  # slow 5, stun 1, anti-heal 4
    control = ViewerModel(replay).pair_matrices()["control"]
    assert control[8, 4] == 6  # slow 5 + stun 1; anti-heal is not control
    assert control.sum() == 6
