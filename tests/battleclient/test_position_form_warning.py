"""The Save-position form warns, as the horizon is typed, when the focal team cannot reach the
score to win in time (ui.score_reach); the warning does not stop Save. Driven with real SDL
events through the form's pygame_gui manager, on a position without an engine game."""

from types import SimpleNamespace

import numpy as np
import pygame
import pygame_gui

from battleclient import layout as L
from battleclient.position_form import PositionForm
from engine.types import Config
from ui.theme import COLOURS


def _position(score):
    return {"score": np.array(score), "active": np.ones(10, bool), "alive": np.ones(10, bool),
            "shield": np.zeros(10, np.int32), "wave_clock": np.array([4, 4])}  # fmt: skip


def _screen(score):
    manager = pygame_gui.UIManager(L.SIZE)
    return SimpleNamespace(
        manager=manager, team=None, saved_position=None, _sync_buttons=lambda: None,
        snap=SimpleNamespace(tick=40, state=_position(score)),
        session=SimpleNamespace(config=Config()),  # 20 to win
    )  # fmt: skip


def _events(screen, form, events):
    for event in events:
        pygame.event.post(event)
    for _ in range(2):  # pygame_gui answers a click by posting UI_BUTTON_PRESSED
        for event in pygame.event.get():
            screen.manager.process_events(event)
            form.handle(event)
        screen.manager.update(0.0)


def _type_horizon(screen, form, text):
    rect = form.horizon.rect
    kinds = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
    _events(screen, form, [pygame.event.Event(k, pos=rect.center, button=1) for k in kinds])
    keys = [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="")] * 3
    _events(screen, form, keys + [pygame.event.Event(pygame.TEXTINPUT, text=c) for c in text])
    assert form.horizon.get_text() == text


def test_the_form_warns_of_a_position_that_cannot_be_won(display, tmp_path):
    screen = _screen((0, 0))
    form = PositionForm(screen)
    _type_horizon(screen, form, "5")
    assert form.warning() == (
        "Cannot be won: in 5 ticks Team A can score at most 10 more points (0 + 10 < 20 to win)"
    )
    fonts = (pygame.font.Font(None, 18), pygame.font.Font(None, 26))
    surface = pygame.Surface(L.SIZE)
    form.draw(surface, fonts)
    screen.manager.draw_ui(surface)
    pygame.image.save(surface, str(tmp_path / "position_warning.png"))
    message = pygame.Rect(L.CARD[0] + 16, L.CARD[1] - 60 + 204, L.CARD[2] - 32, 20)
    red = tuple(COLOURS["damage"])[:3]
    assert any(
        tuple(surface.get_at((x, y)))[:3] == red
        for x in range(message.x, message.right)
        for y in range(message.y, message.bottom)
    )  # the warning is drawn, in the problem colour
    _type_horizon(screen, form, "10")  # killable again after the tick-4 wave: 20 points
    assert form.warning() == ""
    team_b = next(b for b, team in form.teams.items() if team == 1)
    kinds = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
    _events(screen, form, [pygame.event.Event(k, pos=team_b.rect.center, button=1) for k in kinds])
    assert form.team == 1 and form.warning() == ""
    _type_horizon(screen, form, "1")
    assert form.warning().startswith("Cannot be won: in 1 tick Team B can score at most 10")


def test_the_form_warns_of_a_horizon_longer_than_a_scenario_may_be(display):
    screen = _screen((19, 0))  # one kill from the win: only the length is wrong
    form = PositionForm(screen)
    _type_horizon(screen, form, "33")
    assert form.warning() == "Too long: a scenario's horizon is at most 32 ticks"
    _type_horizon(screen, form, "32")
    assert form.warning() == ""


def test_the_form_says_a_horizon_that_is_no_number_as_it_is_typed(display):
    """As the Replay Viewer's window does (one text, ui.score_reach.horizon_problem): 0 and -3
    said nothing until Enter, while 33 was told at once."""
    screen = _screen((19, 0))
    form = PositionForm(screen)
    for text in ("0", "-3", "x"):
        _type_horizon(screen, form, text)
        assert form.warning() == f"Horizon {text!r}: type a number of ticks, 1 or more"
    _type_horizon(screen, form, "")
    assert form.warning() == ""  # nothing typed yet: nothing to say
    form.submit()
    assert form.line == "Horizon '': type a number of ticks, 1 or more" and not form.saving
    _type_horizon(screen, form, "2")
    assert form.warning() == ""
