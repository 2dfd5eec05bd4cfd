"""Leaving a lobby number box with Tab enters its value (pygame_gui keeps the focus on Tab):
the new rules start compiling in the background, as after Enter or a click elsewhere."""

import pygame

from battleclient.app import App
from tests.battleclient.driver import FakeLaunch, frame, post_events, setup, wait_for

HUMAN = "A0=human,A1-A4=random,B*=random"
TYPED_TICKS = 57  # any Max ticks no other test compiles (the compile itself is faked here)


def _key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def _typed(text):
    return [pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text]


def _click(pos):
    kinds = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
    return [pygame.event.Event(kind, pos=pos, button=1) for kind in kinds]


def test_tab_out_of_max_ticks_commits_it_and_moves_on(monkeypatch, display):
    jobs = []
    monkeypatch.setattr("battleclient.app.warm_up", lambda progress, s, maps: "")
    monkeypatch.setattr(
        "battleclient.app.prepare_rules", lambda progress, s, maps: jobs.append(s.horizon) or ""
    )
    app = App(setup(HUMAN), start=False, warm=True)
    app.launch = FakeLaunch()
    try:
        frame(app)
        lobby = app.screen
        ticks, clock = lobby.entries["horizon"], lobby.entries["turn_clock"]
        post_events(app, _click(ticks.rect.center))
        assert ticks.is_focused
        post_events(app, [_key(pygame.K_END)] + [_key(pygame.K_BACKSPACE)] * 4)
        post_events(app, _typed(str(TYPED_TICKS)))
        assert ticks.get_text() == str(TYPED_TICKS) and jobs == []  # still typing
        post_events(app, [_key(pygame.K_TAB)])
        assert clock.is_focused and not ticks.is_focused  # Tab went on to "Clock (s)"
        wait_for(app, lambda: TYPED_TICKS in jobs, seconds=300)
        assert lobby.current_setup().horizon == TYPED_TICKS
        post_events(app, [_key(pygame.K_TAB, pygame.KMOD_LSHIFT)])  # Shift+Tab: back
        assert ticks.is_focused
        for _ in range(3):
            frame(app)
        assert jobs == [TYPED_TICKS]  # entered once, compiled once
    finally:
        app.close()


def test_tab_into_a_box_selects_its_text_so_typing_replaces_it(monkeypatch, display):
    monkeypatch.setattr("battleclient.app.warm_up", lambda progress, s, maps: "")
    monkeypatch.setattr("battleclient.app.prepare_rules", lambda progress, s, maps: "")
    app = App(setup(HUMAN), start=False, warm=True)
    app.launch = FakeLaunch()
    try:
        frame(app)
        lobby = app.screen
        seed, score = lobby.entries["seed"], lobby.entries["score_threshold"]
        order = list(lobby.entries)
        assert order.index("score_threshold") == order.index("seed") + 1  # Tab: seed -> score
        old = score.get_text()
        assert old == "20"
        post_events(app, _click(seed.rect.center))
        post_events(app, [_key(pygame.K_TAB)])
        assert score.is_focused
        assert sorted(score.select_range) == [0, len(old)]  # the old value is selected
        post_events(app, _typed("7"))
        assert score.get_text() == "7"  # typing replaced it, not "207"
        post_events(app, [_key(pygame.K_TAB, pygame.KMOD_LSHIFT)])  # back to the seed
        post_events(app, _typed("9"))
        assert seed.get_text() == "9"
    finally:
        app.close()
