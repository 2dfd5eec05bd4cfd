"""The lobby's progress bar tells the same as its line: empty while the rules the lobby shows
are not compiled ("Not compiled yet", or queued), full green once they are; the line is drawn
at 16 px, where pygame's default font draws "%" as one glyph (at 15 px it reads "%" over a 0)."""

import pygame

from battleclient import layout as L
from battleclient.app import App
from tests.battleclient.driver import (
    frame,
    lobby_with_fake_compiles,
    post_events,
    wait_for,
)
from ui.theme import COLOURS


def _key(k, char=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=char, scancode=0)


def _bar_colour(app):
    bar = pygame.Rect(L.PROGRESS)
    return tuple(frame(app).get_at((bar.x + bar.width // 2, bar.centery)))[:3]


def test_the_bar_is_empty_until_the_shown_rules_compile(monkeypatch, display):
    jobs, compiled = [], {6}
    app = lobby_with_fake_compiles(monkeypatch, compiled, jobs)
    try:
        lobby = app.screen
        green, empty = tuple(COLOURS["health"])[:3], tuple(COLOURS["panel"])[:3]
        assert _bar_colour(app) == green  # the lobby's rules are compiled
        entry = lobby.entries["horizon"]
        post_events(app, [*_click(entry.rect.center), _key(pygame.K_BACKSPACE)])
        post_events(app, [pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in "50"])
        text, fraction, done = app.progress_view(lobby.rules_shown())
        assert text.startswith("Not compiled yet for Max ticks 50") and (fraction, done) == (
            0,
            False,
        )
        assert _bar_colour(app) == empty
        width = pygame.Rect(L.PROGRESS_TEXT).width - 8  # ui.panels.draw_lines keeps 4 px a side
        assert app.progress_font.size(text)[0] <= width  # one line: none of it cut off
        post_events(app, [_key(pygame.K_RETURN)])
        wait_for(app, lambda: jobs, 60)
        assert app.progress_text(lobby.rules_shown()).endswith("waiting for the engine thread")
        assert _bar_colour(app) == empty  # queued: not started yet
        compiled.add(50)
        assert _bar_colour(app) == green
    finally:
        app.close()


def _click(pos):
    kinds = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
    return [pygame.event.Event(kind, pos=pos, button=1) for kind in kinds]


def test_a_stage_in_brackets_takes_its_percentage_inside_them():
    from types import SimpleNamespace

    def line(text):
        progress = SimpleNamespace(error="", done=False, text=text, fraction=0.8)
        return App.progress_view(SimpleNamespace(progress=progress))[0]

    assert line("Compiling the engine (up to a minute)") == (
        "Compiling the engine (up to a minute, 80%)"
    )
    assert line("Importing JAX") == "Importing JAX (80%)"
