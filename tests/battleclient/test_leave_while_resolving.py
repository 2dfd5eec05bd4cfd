"""Leaving a game while its last tick is still resolving on the engine thread: one replay,
holding that tick (the leave's save runs after the tick, the engine thread keeps job order)."""

import pygame

from evaluation.replay import read_replay
from tests.battleclient.driver import GAME_TICKS, frame, key, orders_ready, setup, wait_for


def test_leaving_during_the_last_tick_writes_one_replay(apps, tmp_path):
    app = apps(setup("A0=human,A1-A4=random,B*=random", seed=3, repeat_orders=False))
    for tick in range(GAME_TICKS - 1):
        wait_for(app, lambda t=tick: orders_ready(app) and app.screen.snap.tick >= t)
        frame(app, [key(pygame.K_SPACE)])
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick == GAME_TICKS - 1)
    screen = app.screen
    screen.end_turn()  # the last tick goes to the engine thread; the menu's L comes at once
    assert screen.waiting
    frame(app, [key(pygame.K_ESCAPE)])
    frame(app, [key(pygame.K_l)])
    wait_for(app, lambda: not app.worker.busy and not app.jobs)  # every callback has run
    saved = sorted((tmp_path / "data" / "marl-battlegrounds" / "replays").glob("*.mbgr"))
    assert len(saved) == 1, saved
    assert read_replay(saved[0]).ticks == GAME_TICKS
