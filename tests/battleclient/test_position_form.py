"""The in-game menu's "Save this position as a scenario", as a person uses it: one tick played,
Esc, the menu's button, Team B and a horizon of 4 typed, Save. The new file loads as a
scenario with exactly the position on screen, on a scenario-arena copy of the map, in the
user's scenario folder (not the shipped one), its brief naming a replay that exists, and the
Scenarios screen's list shows it; while the form is up Space does not end the turn."""

import numpy as np
import pygame
import pytest

from battleclient.scenario_screen import list_scenarios
from battleclient.settings import replay_dir
from evaluation import scenarios as S
from evaluation.replay import read_replay
from tests.battleclient.driver import click, frame, key, orders_ready, setup, wait_for
from ui.panels import short_path
from ui.paths import scenario_dir

pytestmark = pytest.mark.slow  # the save re-simulates the game (evaluation.scenario_save)


def _post(app, events) -> None:
    for event in events:
        pygame.event.post(event)
    frame(app, pygame.event.get())
    frame(app)


def test_save_this_position_as_a_scenario_from_the_menu(apps, tmp_path, monkeypatch):
    monkeypatch.setattr(S, "SCENARIOS_DIR", tmp_path / "scenarios")
    (tmp_path / "scenarios").mkdir()
    app = apps(setup("A0=human,A1-A4=random,B*=random"))
    wait_for(app, lambda: orders_ready(app))
    _post(app, [key(pygame.K_SPACE)])
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick == 1)
    play = app.screen
    _post(app, [key(pygame.K_ESCAPE)])
    _post(app, click(play.card_buttons["position"].rect.center))
    form = play.form
    assert form is not None and "position" not in play.card_buttons
    team_b = next(b for b, team in form.teams.items() if team == 1)
    _post(app, click(team_b.rect.center))
    _post(app, click(form.horizon.rect.center))
    _post(app, [key(pygame.K_END), key(pygame.K_BACKSPACE)])
    _post(app, [pygame.event.Event(pygame.TEXTINPUT, text="4")])
    assert form.team == 1 and form.horizon.get_text() == "4"
    _post(app, click(form.save.rect.center))
    wait_for(app, lambda: play.saved_position is not None or form.line.startswith("Not"))
    assert form.line.startswith("Saved as a scenario:"), form.line
    _post(app, [key(pygame.K_SPACE)])
    assert play.snap.tick == 1  # the form took the key: the turn did not end
    # saved once: Save is off, Enter and a click on it write no second file
    _post(app, [key(pygame.K_RETURN)])
    _post(app, click(form.save.rect.center))
    assert not form.save.is_enabled and not form.saving and form.cancel.text == "Close (Esc)"
    assert len(list(scenario_dir().glob("*.json"))) == 1

    scenario = S.load_scenario_file(play.saved_position)
    assert scenario.focal_team == 1 and scenario.horizon == 4 and scenario.lines == ()
    assert int(scenario.start.tick) == 1 and 900 <= scenario.arena.id <= 999
    for field in ("pos", "health", "cooldown", "status", "score"):
        np.testing.assert_array_equal(
            np.asarray(getattr(scenario.start, field)), play.snap.state[field], err_msg=field
        )
    assert [item.label for item in list_scenarios()] == [f"{scenario.id}. {scenario.title}"]
    mine = scenario_dir()  # the user's folder, not the shipped one
    assert play.saved_position.parent == mine and list((tmp_path / "scenarios").iterdir()) == []
    assert form.line == f"Saved as a scenario: {short_path(play.saved_position)}"
    pygame.image.save(frame(app), str(tmp_path / "position_saved.png"))
    # the brief names the game so far, kept as a replay in the replays folder (not a temporary
    # file): it opens in the Replay Viewer
    kept = list(replay_dir().glob("*.mbgr"))
    assert len(kept) == 1 and scenario.brief.startswith(f"Saved from {kept[0].name} at tick 1:")
    assert read_replay(kept[0]).ticks == 1
    _post(app, [key(pygame.K_ESCAPE)])  # Esc closes the form, the menu stays
    assert play.form is None and play.show_menu and "position" in play.card_buttons
