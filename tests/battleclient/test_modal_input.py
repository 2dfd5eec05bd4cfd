"""Input while a box or card has the focus, as a person gives it: on the Scenarios screen Enter
in the System spec box starts (an unknown bot is refused there, the screen kept, not reported
later in the lobby) and Esc goes back to the lobby; in the menu's "Save position as a scenario"
form Esc cancels from inside the horizon box; while the in-game menu, its form or the controls
card is up, the top bar behind is veiled and a click on it does nothing; a second T or Enter
just after a scenario's Try again is not taken as the new attempt's first order (T cycles the
target, Enter ends the turn); a scenario that fails to start goes back to the Scenarios
screen with the error."""

import time
from types import SimpleNamespace

import pygame
import pytest
from pygame_gui import UIManager

from battleclient import layout as L
from battleclient import scenario_play
from battleclient.play_screen import PlayScreen
from battleclient.position_form import PositionForm
from battleclient.scenario_play import AGAIN_GUARD_S, ScenarioPlay
from battleclient.scenario_screen import ScenarioScreen
from tests.battleclient.driver import (
    click,
    frame,
    key,
    orders_ready,
    post_events,
    scenario_one_folder,
    setup,
    wait_for,
)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A scenarios folder holding shipped scenario 1 and its arenas."""
    return scenario_one_folder(tmp_path, monkeypatch)


def test_the_spec_box_takes_enter_and_esc_and_refuses_an_unknown_bot(apps, folder):
    app = apps(setup(), start=False)
    app.to_scenarios()
    screen = app.screen
    wait_for(app, lambda: screen.items is not None, seconds=120)
    post_events(app, click(screen.others.rect.center))
    assert screen.others.is_focused
    screen.others.set_text("scripted:nosuchbot")
    post_events(app, [key(pygame.K_RETURN)])
    assert app.screen is screen, type(app.screen).__name__
    assert screen.error and "'nosuchbot' does not exist" in screen.message, screen.message
    assert screen.message.startswith("System spec 'scripted:nosuchbot' for your team's other")
    post_events(
        app, click(screen.buttons["start"].rect.center)
    )  # the button refuses it the same way
    assert app.screen is screen and "nosuchbot" in screen.message

    post_events(app, click(screen.others.rect.center))
    assert screen.others.is_focused
    post_events(app, [key(pygame.K_ESCAPE)])
    assert type(app.screen).__name__ == "Lobby"


class _PlayScreen:
    """What PositionForm uses of the play screen: its manager, team, form slot and buttons."""

    team, form, synced = 0, None, 0

    def __init__(self):
        self.manager = UIManager(L.SIZE)

    def _sync_buttons(self) -> None:
        self.synced += 1


def test_esc_in_the_horizon_box_cancels_the_position_form(display):
    screen = _PlayScreen()
    screen.form = form = PositionForm(screen)
    pos = form.horizon.rect.center
    for event in click(pos):
        screen.manager.process_events(event)
    assert form.horizon.is_focused
    form.handle(key(pygame.K_ESCAPE))
    assert screen.form is None and screen.synced == 1
    assert not form.horizon.alive() and not form.save.alive()


def _brightness(surface, rect) -> float:
    """Mean of the R, G and B values of `surface` inside `rect`."""
    return float(pygame.surfarray.pixels3d(surface.subsurface(pygame.Rect(rect))).mean())


def test_the_bar_behind_the_menu_is_veiled_and_does_nothing(apps, tmp_path):
    app = apps(setup("A0=human,A1-A4=random,B*=random"))
    wait_for(app, lambda: orders_ready(app))
    play = app.screen
    end, menu = (play.buttons[n].rect for n in ("end", "menu"))
    lit = _brightness(frame(app), menu)
    post_events(app, [key(pygame.K_ESCAPE)])
    assert play.show_menu
    shot = frame(app)
    pygame.image.save(shot, str(tmp_path / "client_menu.png"))
    assert _brightness(shot, menu) < 0.5 * lit  # veiled like the arena, not drawn over it
    resume = play.card_buttons["resume"].rect
    assert _brightness(shot, resume) > 2 * _brightness(shot, menu)  # the card's own buttons
    post_events(app, click(end.center))
    assert (play.phase, play.waiting, play.snap.tick) == ("orders", False, 0)
    post_events(app, click(menu.center))  # the bar's Menu button is behind the card too
    assert play.show_menu
    post_events(app, [key(pygame.K_p)])  # the "Save position as a scenario" form
    assert play.form is not None
    shot = frame(app)
    pygame.image.save(shot, str(tmp_path / "client_position_form.png"))
    assert _brightness(shot, menu) < 0.5 * lit
    assert _brightness(shot, play.form.save.rect) > 2 * _brightness(shot, menu)
    post_events(app, click(end.center))
    assert play.form is not None and play.snap.tick == 0 and not play.waiting
    post_events(app, [key(pygame.K_ESCAPE)])  # closes the form, then the menu
    post_events(app, [key(pygame.K_ESCAPE)])
    assert play.form is None and not play.show_menu
    assert _brightness(frame(app), menu) > 0.8 * lit
    post_events(app, [key(pygame.K_h)])  # the controls card is modal as well
    post_events(app, click(end.center))
    assert play.show_help and play.snap.tick == 0 and not play.waiting
    post_events(app, [key(pygame.K_h)])
    post_events(app, click(end.center))
    assert play.phase == "locked" or play.snap.tick == 1


def test_try_agains_key_pressed_twice_gives_no_order_to_the_new_attempt(monkeypatch):
    given = []
    monkeypatch.setattr(PlayScreen, "_key_orders", lambda self, event: given.append(event.key))
    play = ScenarioPlay.__new__(ScenarioPlay)  # the key handling only: no game is compiled
    play.phase, play.show_help, play.show_menu, play.said = "orders", False, False, []
    play.say = lambda text, error=False: play.said.append(text)
    play.scenario = SimpleNamespace(start=SimpleNamespace(tick=295))
    play.snap = SimpleNamespace(tick=295)
    play.again_at = time.monotonic()  # Try again has just put the orders screen up
    for k in (pygame.K_t, pygame.K_RETURN, pygame.K_SPACE):
        play._key(key(k))
    assert given == [pygame.K_SPACE] and len(play.said) == 2, play.said
    play.again_at = time.monotonic() - AGAIN_GUARD_S  # a moment later T is an order again
    play._key(key(pygame.K_t))
    play.again_at, play.snap.tick = time.monotonic(), 296  # and at once on a later tick
    play._key(key(pygame.K_RETURN))
    assert given == [pygame.K_SPACE, pygame.K_t, pygame.K_RETURN]


def test_a_scenario_that_fails_to_start_returns_to_the_scenarios_screen(apps, folder, monkeypatch):
    def fail(progress, scenario, human_slots, others):
        raise ValueError("policy file: wrong shapes")

    monkeypatch.setattr(scenario_play, "build_scenario_game", fail)
    app = apps(setup(), start=False)
    app.to_scenarios()
    wait_for(app, lambda: app.screen.items is not None, seconds=120)
    post_events(app, click(app.screen.buttons["start"].rect.center))
    wait_for(app, lambda: isinstance(app.screen, ScenarioScreen) and app.screen.items, seconds=60)
    screen = app.screen
    assert screen.error and screen.item.scenario.id == 1
    assert screen.message == "Scenario 1 could not start: policy file: wrong shapes"
