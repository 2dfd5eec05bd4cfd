"""ui.animation: in-between positions along the real path, fair unit sets, effects."""

from pathlib import Path

import numpy as np
import pytest

from evaluation.replay import read_replay
from replay_viewer.model import ViewerModel
from tests.helpers.replays import synthetic_replay
from ui.animation import (
    CHARGE_SHARE,
    HALF,
    caption_lines,
    ease,
    marked,
    path_point,
    tick_effects,
    tween_scene,
)

REAL = (
    Path(__file__).resolve().parents[1] / "fixtures" / "replays" / "v1_real_5v5_full_metrics.mbgr"
)


def test_path_point_hand_computed():
    start, charge, move = (1.0, 2.0), (3.0, 0.0), (0.0, 1.0)
    assert path_point(start, charge, move, 0.0, True) == (1.0, 2.0)
    # the Charge is done at CHARGE_SHARE, ordinary movement not started
    assert path_point(start, charge, move, CHARGE_SHARE, True) == pytest.approx((4.0, 2.0))
    assert path_point(start, charge, move, 1.0, True) == pytest.approx((4.0, 3.0))
    # halfway through the movement share: smoothstep(0.5) = 0.5 of the move
    mid = CHARGE_SHARE + (1 - CHARGE_SHARE) / 2
    assert path_point(start, charge, move, mid, True) == pytest.approx((4.0, 2.5))
    # no Charge this tick: movement takes the whole tick
    assert path_point(start, (0, 0), move, 0.5, False) == pytest.approx((1.0, 2.5))
    assert ease(0.25) == pytest.approx(0.15625)


def test_real_game_path_ends_where_the_next_tick_starts():
    """The displacements of Events (RULES 4 steps 9-10) chain start -> charge -> move -> t+1,
    Charges included, for every living unit of a recorded engine game."""
    replay = read_replay(REAL)
    s, e = replay.states, replay.events
    charged_ticks = 0
    for t in range(replay.ticks):
        mover = s["alive"][t] & ~e["respawned"][t]
        charged = bool(np.abs(e["charge_move"][t]).max() > 0)
        charged_ticks += charged
        for slot in np.flatnonzero(mover):
            end = path_point(s["pos"][t][slot], e["charge_move"][t][slot], e["move"][t][slot], 1.0,
                             charged)  # fmt: skip
            assert end == pytest.approx(tuple(s["pos"][t + 1][slot]), abs=1e-4), (t, slot)
    assert charged_ticks >= 1  # the fixture really has a Charge


@pytest.mark.parametrize("view", ["oracle", ("agent", 2), ("agent", 7), ("team", 1)])
def test_tween_frames_show_only_units_of_a_real_scene_of_that_side(view):
    model = ViewerModel(synthetic_replay(30, seed=3))
    model.set_view(view)
    for t in range(model.ticks):
        before, after, events = model.scene(t), model.scene(t + 1), model.events(t)
        for u in (0.1, 0.49, HALF, 0.8):
            frame = tween_scene(before, after, events, u)
            side = before if u < HALF else after
            assert [x.slot for x in frame.units] == [x.slot for x in side.units]
            assert [x.health for x in frame.units] == [x.health for x in side.units]
            assert frame.floats == (() if u < HALF else after.floats)


def test_tween_glides_units_seen_at_both_ends_and_jumps_respawns():
    model = ViewerModel(synthetic_replay(40, seed=4))
    replay = model.replay
    respawn_t = next(t for t in range(replay.ticks) if replay.events["respawned"][t].any())
    slot = int(np.flatnonzero(replay.events["respawned"][respawn_t])[0])
    before, after = model.scene(respawn_t), model.scene(respawn_t + 1)
    events = model.events(respawn_t)
    early = tween_scene(before, after, events, 0.25).unit(slot)
    late = tween_scene(before, after, events, 0.75).unit(slot)
    assert early.pos == before.unit(slot).pos and late.pos == after.unit(slot).pos
    mover = next(x.slot for x in before.units if x.alive and np.abs(events["move"][x.slot]).sum())
    start, end = np.array(before.unit(mover).pos), np.array(after.unit(mover).pos)
    halfway = np.array(tween_scene(before, after, events, 0.5).unit(mover).pos)
    assert halfway == pytest.approx((start + end) / 2, abs=1e-5)


def test_effects_keep_to_what_the_view_saw():
    model = ViewerModel(synthetic_replay(40, seed=4))
    for view in ("oracle", ("agent", 1), ("agent", 6)):
        model.set_view(view)
        for t in range(model.ticks):
            before, after = model.scene(t), model.scene(t + 1)
            fx = tick_effects(model.events(t), before, after)
            seen_t, seen_t1 = model.masks(t)[0], model.masks(t + 1)[0]
            assert all(seen_t[s] and seen_t[r] for s, r, _ in fx.beams)
            assert all(seen_t1[s] for s in (*fx.deaths, *fx.respawns))
            assert all(seen_t1[s] for s, _, _ in fx.statuses)
            if view == "oracle":  # every landed ability has its beam
                lane, rec = model.events(t)["lane"], model.events(t)["recipient"]
                assert len(fx.beams) == int(((lane > 0) & (rec >= 0)).sum())


def test_status_marks_name_fresh_statuses_and_broken_traps():
    model = ViewerModel(synthetic_replay(4, seed=1))
    before, after = model.scene(0), model.scene(1)
    events = {k: np.array(v, copy=True) for k, v in model.events(0).items()}
    for name in ("status_applied", "status_refreshed", "status_broken"):
        events[name][:] = False
    events["status_applied"][3, 3] = True  # charge_stun on A3
    events["status_broken"][6, 4] = True  # B1's Trap ended by damage
    marks = tick_effects(events, before, after).statuses
    assert marks == ((3, "stunned", 3), (6, "trap broken", 4))


def test_a_unit_gets_one_stun_mark_and_one_of_each_word():
    from ui.rules import C

    def fresh(*names):
        out = np.zeros(C.NUM_STATUS, bool)
        out[[C.STATUS_ID[n] for n in names]] = True
        return out

    ids = C.STATUS_ID
    # a Charge lands a slow and a stun: two effects, two words
    assert marked(fresh("charge_slow", "charge_stun")) == [ids["charge_slow"], ids["charge_stun"]]
    # a Trap (4 ticks) and a Poison stun (1 tick) at once: one stun, the Trap's
    both = fresh("poison_slow", "trap_stun", "poison_stun", "anti_heal")
    assert marked(both) == [ids["poison_slow"], ids["trap_stun"], ids["anti_heal"]]
    # a Charge slow and a Poison slow both read "slowed": said once
    assert marked(fresh("charge_slow", "poison_slow")) == [ids["charge_slow"]]
    assert marked(fresh()) == []


def test_a_real_double_stun_is_marked_once():
    """The real game of REAL (map 47, tactician vs kiter), transition 50: B1 is Trapped and
    Poison-stunned in the same tick; its marks under the unit name one stun."""
    model = ViewerModel(read_replay(REAL))
    events = model.events(50)
    fresh = np.asarray(events["status_applied"]) | np.asarray(events["status_refreshed"])
    from ui.rules import C

    (slot,) = np.flatnonzero(fresh[:, C.IS_STUN].sum(axis=1) > 1)
    words = [w for s, w, _ in tick_effects(events, model.scene(50), model.scene(51)).statuses
             if s == slot]  # fmt: skip
    assert slot == 6 and words == ["slowed", "trapped", "anti-heal"]


def test_caption_lines_count_the_rest():
    assert caption_lines(["a", "b"]) == ["a", "b"]
    assert caption_lines(["a", "b", "c", "d"]) == ["a", "b  (+ 2 more)"]
