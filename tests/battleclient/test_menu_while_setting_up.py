"""The in-game menu while the game is still being set up (the "Setting up the game" card): it
offers no "Save position as a scenario", since no position is on screen yet, and P does
nothing there; once the first tick's position is up the menu offers it and P opens the form.
Driven as a person does: Esc and P through SDL's event queue, the game's build held back."""

import threading

import pygame

from tests.battleclient.driver import key, post_events, setup, wait_for


def test_the_setup_menu_offers_no_position_to_save(apps, monkeypatch):
    release = threading.Event()
    from battleclient import play_screen

    real_build = play_screen.build_game

    def held_build(*args):
        release.wait(120)  # the card stays up until the test lets the build go on
        return real_build(*args)

    monkeypatch.setattr(play_screen, "build_game", held_build)
    app = apps(setup("A0=human,A1-A4=random,B*=random"))
    play = app.screen
    assert (play.phase, play.snap) == ("starting", None)
    post_events(app, [key(pygame.K_ESCAPE)])
    assert play.show_menu
    assert sorted(play.card_buttons) == ["leave", "quit", "resume"]
    post_events(app, [key(pygame.K_p)])
    assert play.form is None and play.show_menu
    post_events(app, [key(pygame.K_ESCAPE)])
    assert not play.show_menu

    release.set()
    wait_for(app, lambda: play.snap is not None)
    post_events(app, [key(pygame.K_ESCAPE)])
    assert sorted(play.card_buttons) == ["leave", "position", "quit", "resume"]
    post_events(app, [key(pygame.K_p)])
    assert play.form is not None


def test_the_setup_card_shows_the_progress_as_a_bar(apps, monkeypatch):
    from battleclient import layout as L
    from battleclient import play_screen
    from tests.battleclient.driver import frame
    from ui.theme import COLOURS

    release = threading.Event()
    real_build = play_screen.build_game
    monkeypatch.setattr(play_screen, "build_game", lambda *a: release.wait(120) and real_build(*a))
    app = apps(setup("A0=human,A1-A4=random,B*=random"))
    try:
        app.progress.stage("Compiling the machine players (their first move)", 0.5)
        app.progress.done = False
        surface = frame(app)
        bar = pygame.Rect(L.SETUP_BAR)
        left, right = (bar.x + bar.width // 4, bar.centery), (bar.right - 8, bar.centery)
        assert tuple(surface.get_at(left))[:3] == COLOURS["accent"]  # half of it filled
        assert tuple(surface.get_at(right))[:3] == COLOURS["panel"]
        assert tuple(surface.get_at(bar.topleft))[:3] == COLOURS["panel_line"]
    finally:
        release.set()
