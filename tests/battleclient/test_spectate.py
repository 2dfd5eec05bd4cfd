"""Zero humans: the Oracle view plays to the end by itself; pause, step, speed; failing Systems."""

import numpy as np
import pygame
import pytest

from battleclient.controls import SPEEDS
from evaluation.replay import read_replay
from policies.slotspec import register_kind
from policies.system import as_system
from tests.battleclient.driver import GAME_TICKS, RANDOM, frame, key, setup, wait_for


def spectating(app):
    return app.screen.phase == "spectate" and not app.screen.waiting


def test_spectate_runs_to_the_end_in_the_oracle_view(apps):
    app = apps(setup(RANDOM, seed=4))
    wait_for(app, lambda: app.screen.snap is not None)
    assert app.screen.viewers == {None: "oracle"}
    assert len(app.screen.scenes[None].units) == 10  # the Oracle sees every unit
    wait_for(app, lambda: app.screen.replay_path is not None, dt=0.3)
    replay = read_replay(app.screen.replay_path)
    assert replay.ticks == GAME_TICKS and replay.header["systems"] == ["random"] * 10
    assert app.screen.phase == "over"


def test_pause_step_and_speed(apps):
    app = apps(setup(RANDOM, seed=4))
    wait_for(app, lambda: spectating(app))
    frame(app, [key(pygame.K_SPACE)])
    assert app.screen.paused
    wait_for(app, lambda: spectating(app))
    tick = app.screen.snap.tick
    for _ in range(5):
        frame(app, dt=1.0)  # a paused game does not move on
    assert app.screen.snap.tick == tick
    frame(app, [key(pygame.K_n)])
    wait_for(app, lambda: spectating(app) and app.screen.snap.tick == tick + 1)
    speed = app.screen.speed_index
    frame(app, [key(pygame.K_PLUS)])
    frame(app, [key(pygame.K_PLUS)])
    frame(app, [key(pygame.K_MINUS)])
    assert app.screen.speed_index == speed + 1 and SPEEDS[speed + 1] > SPEEDS[speed]
    assert "ticks per second" in app.screen.message
    frame(app, [key(pygame.K_p)])
    assert not app.screen.paused


def _flaky(arg, slots):
    """A host System that answers twice, then raises every tick."""

    def act(obs, masks, carry, key):
        if carry >= 2:
            raise RuntimeError("lost the connection")
        zeros = np.zeros(10, np.int32)
        return (zeros, zeros, zeros), carry + 1

    return as_system(act, host=True, initial_carry=lambda: 0, name="flaky")


@pytest.fixture
def flaky_kind():
    register_kind("flaky", _flaky, "flaky")


def test_a_failing_system_plays_the_no_op_and_the_replay_marks_it(apps, flaky_kind):
    app = apps(setup("A*=random,B*=flaky", seed=1))
    wait_for(app, lambda: app.screen.replay_path is not None, dt=0.3)
    replay = read_replay(app.screen.replay_path)
    fallback = replay.events["fallback"]
    assert not fallback[:2].any()
    assert fallback[2:, 5:].all() and not fallback[:, :5].any()
    assert (replay.events["submitted"][2:, 5:] == 0).all()
    log = [text for _, text in app.screen.logs[None]]
    assert any("flaky (B0, B1, B2, B3, B4) failed at tick 2" in t for t in log)
    assert any("lost the connection" in t for t in log)
