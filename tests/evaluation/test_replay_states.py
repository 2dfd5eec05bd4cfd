"""state_at_tick re-simulates a replay to any tick: equal, bit for bit, to the recorded state
(and to record.state_at), and a tampered recording or an outside tick is refused by name."""

import copy
from pathlib import Path

import jax
import numpy as np
import pytest

from evaluation.record import state_at
from evaluation.replay import read_replay
from evaluation.replay_states import state_at_tick

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "replays" / "v1_real_2v2_no_metrics.mbgr"
)


@pytest.fixture(scope="module")
def replay():
    return read_replay(FIXTURE)


def test_every_field_equals_the_recorded_state(replay):
    for tick in (0, 1, replay.ticks // 2, replay.ticks):
        again, recorded = state_at_tick(replay, tick), state_at(replay, tick)
        pairs = zip(jax.tree.leaves(again), jax.tree.leaves(recorded), strict=True)
        for a, b in pairs:
            a, b = np.asarray(a), np.asarray(b)
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        assert int(np.asarray(again.tick)) == int(replay.states["tick"][tick])


def test_a_tick_outside_the_replay_is_refused(replay):
    outside = rf"tick {replay.ticks + 1} is outside its ticks 0-{replay.ticks}"
    with pytest.raises(ValueError, match=outside):
        state_at_tick(replay, replay.ticks + 1)
    with pytest.raises(ValueError, match="tick -1 is outside"):
        state_at_tick(replay, -1)


def test_an_edited_recording_is_refused_naming_the_field(replay):
    edited = copy.deepcopy(replay)
    edited.states["health"][3] = edited.states["health"][3] + 1.0
    with pytest.raises(ValueError, match=r"tick 3 gives another states.health"):
        state_at_tick(edited, 3)
    assert state_at_tick(edited, 2) is not None  # the ticks before the edit still branch
