"""New rules (Max ticks, Score to win, Information) compile before the first tick, said on screen.

The engine's Config is static, so rules other than those compiled mean a fresh XLA compile; it
must happen while the "Setting up the game" card shows it, not silently at the first tick, and
the lobby starts it in the background once a value is entered.
"""

import pygame

from battleclient.app import App
from battleclient.game_setup import ClientSetup
from battleclient.wording import rules_words
from tests.battleclient.driver import FakeLaunch, frame, key, orders_ready, setup, wait_for

HUMAN = "A0=human,A1-A4=random,B*=random"
NEW_TICKS = 50  # a Config no other test here uses: this game compiles its own step


def test_rules_words_name_what_differs_from_the_defaults():
    assert rules_words(ClientSetup()) == ""
    changed = ClientSetup(horizon=50, score_threshold=3, info_regime="no_shared_obs")
    assert rules_words(changed) == " for Score to win 3, Max ticks 50, Information no_shared_obs"


def test_new_rules_compile_before_the_first_tick(apps):
    app = apps(setup(HUMAN).replace(horizon=NEW_TICKS))
    wait_for(app, lambda: orders_ready(app))
    stages = [text for _, text in app.progress.log]
    assert "Compiling the engine for Max ticks 50 (up to a minute)" in stages
    assert (
        app.progress.done
        and app.progress_text() == "Ready: the engine is compiled for Max ticks 50"
    )
    step = app.screen.session.step
    assert step._cache_size() == 1  # compiled while the card said so, before any tick
    frame(app, [key(pygame.K_SPACE)])  # lock in: the first tick
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick == 1)
    assert step._cache_size() == 1  # the first tick used that compiled step: no second compile


def test_lobby_compiles_entered_rules_in_the_background(monkeypatch, display):
    jobs = []
    monkeypatch.setattr("battleclient.app.warm_up", lambda progress, s, maps: "")
    monkeypatch.setattr(
        "battleclient.app.prepare_rules", lambda progress, s, maps: jobs.append(s.horizon) or ""
    )
    app = App(setup(HUMAN), start=False, warm=True)
    app.launch = FakeLaunch()
    try:
        frame(app)
        assert jobs == []  # the start-up warm-up compiles the lobby's first rules
        entry = app.screen.entries["horizon"]
        entry.focus()
        entry.set_text("5")
        frame(app)
        assert jobs == []  # still typing: "5" may become "50"
        entry.set_text(str(NEW_TICKS))
        entry.unfocus()
        # The job runs on the engine thread after the start-up import of JAX (seconds when
        # cold): wait for it. Jobs run in order, so a job sent for "5" would come first.
        wait_for(app, lambda: NEW_TICKS in jobs, seconds=300)
        for _ in range(5):
            frame(app)
        assert jobs == [NEW_TICKS]  # only once the value is entered, and once per rules
    finally:
        app.close()
