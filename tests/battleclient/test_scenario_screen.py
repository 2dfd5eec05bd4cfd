"""The Scenarios screen without an engine game: a user's broken file is listed with its error
(the file, the field and the value) and cannot be started; slot toggles keep at least one;
Esc goes back to the lobby; the scenario end card's buttons and the position form's widgets
sit inside their cards without overlapping."""

import json
import shutil
from pathlib import Path

import pygame
import pytest

from battleclient import layout as L
from battleclient import position_form as F
from battleclient.scenario_play import OVER_BUTTONS, verdict
from battleclient.scenario_screen import ScenarioScreen, detail_lines, list_scenarios
from evaluation import scenarios as S
from policies.scripted import BOTS
from tests.battleclient.driver import (
    click,
    key,
    post_events,
    scenario_one_folder,
    setup,
    wait_for,
)

SHIPPED = Path(S.__file__).resolve().parents[1] / "scenarios"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A scenarios folder with shipped scenario 1 (and its arenas) and a user's bad file."""
    target = scenario_one_folder(tmp_path, monkeypatch)
    doc = json.loads((SHIPPED / "001_hold_the_trap.json").read_text())
    doc |= {"id": 12, "horizon": 0}
    (target / "012_mine.json").write_text(json.dumps(doc))
    return target


def test_a_bad_user_file_is_listed_with_its_error_and_cannot_start(apps, folder):
    app = apps(setup(), start=False)
    app.to_scenarios()
    screen = app.screen
    wait_for(app, lambda: screen.items is not None, seconds=120)
    assert [item.label for item in screen.items] == [
        "1. Hold the Trap",
        "(does not load) 012_mine.json",
    ]
    assert screen.picked == {0}, (screen.message, screen.index)
    assert sorted(screen.toggles.values()) == [0, 1]  # the Rogue and the dead Hunter
    assert screen.others.get_text() == "scripted:tactician"
    assert screen.record_text(screen.item) == "not tried yet"
    rows = [r["button_element"] for r in screen.list.item_list]
    post_events(app, click(rows[1].rect.center))
    bad = screen.item
    assert bad.scenario is None and bad.error.startswith("horizon = 0: must be at least 1")
    assert not screen.buttons["start"].is_enabled and not screen.toggles
    post_events(app, [key(pygame.K_RETURN)])
    assert isinstance(app.screen, ScenarioScreen) and screen.message == "Pick a scenario that loads"

    post_events(app, click(rows[0].rect.center))
    rogue = next(b for b, slot in screen.toggles.items() if slot == 0)
    post_events(app, click(rogue.rect.center))  # the only slot taken stays taken
    assert screen.picked == {0} and screen.message == "Play at least one focal slot"
    post_events(app, [key(pygame.K_ESCAPE)])
    assert type(app.screen).__name__ == "Lobby"


def test_the_end_card_buttons_and_the_position_form_fit_their_cards():
    for rects, card in (
        ([r for _, r in OVER_BUTTONS.values()], L.OVER_CARD),
        ([*F.TEAM_BUTTONS.values(), F.HORIZON, F.MESSAGE, F.SAVE, F.CANCEL], F.FORM),
    ):
        rects = [pygame.Rect(r) for r in rects]
        assert all(pygame.Rect(card).contains(r) for r in rects), card
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])


def test_the_verdict_names_the_ticks():
    assert verdict(True, 3) == "Solved in 3 ticks" and verdict(True, 1) == "Solved in 1 tick"
    assert verdict(False, 5) == "Not solved"


def test_a_scenarios_menu_counts_its_own_ticks_and_leaves_to_the_scenarios():
    from types import SimpleNamespace

    from battleclient.play_draw import PlayDrawing, menu_line
    from battleclient.scenario_play import ScenarioDrawing

    scenario = S.load_scenario(1)
    start = int(scenario.start.tick)
    screen = SimpleNamespace(snap=SimpleNamespace(tick=start + 1), scenario=scenario)
    drawing = ScenarioDrawing.__new__(ScenarioDrawing)
    drawing.s = screen
    assert drawing.ticks_played() == 1
    assert menu_line(drawing.ticks_played(), False) == (
        "The game so far (1 tick) is saved as a replay when you leave."
    )
    assert ScenarioDrawing.menu_buttons["leave"][0] == "Leave to the scenarios (L)"
    assert ScenarioDrawing.menu_buttons["leave"][1] == L.MENU_BUTTONS["leave"][1]
    assert PlayDrawing.menu_buttons["leave"][0] == "Leave to the lobby (L)"


def test_every_live_focal_slot_is_taken_by_default(apps, tmp_path, monkeypatch):
    # Scenario 2's verified line moves the Rogue, the Mage and the Hunter: a playtester who
    # solves it plays all three, so all three start taken (a click gives one up).
    target = scenario_one_folder(tmp_path, monkeypatch)
    shutil.copy(SHIPPED / "002_borrowed_power.json", target)
    app = apps(setup(), start=False)
    app.to_scenarios()
    screen = app.screen
    wait_for(app, lambda: screen.items is not None, seconds=120)
    rows = [r["button_element"] for r in screen.list.item_list]
    post_events(app, click(rows[1].rect.center))
    scenario = screen.item.scenario
    assert scenario.id == 2
    live = [s for s in scenario.focal_slots if bool(scenario.start.alive[s])]
    assert len(live) == 3 and screen.picked == set(live)
    mage = next(b for b, slot in screen.toggles.items() if slot == live[1])
    post_events(app, click(mage.rect.center))
    assert screen.picked == set(live) - {live[1]}


def test_a_row_clicked_in_starts_frame_is_the_scenario_that_starts(apps, tmp_path, monkeypatch):
    # A slow frame (the machine busy compiling) can hold a click on a row and the click on
    # Start: pygame_gui selects the row at once but says so a frame later, after Start ran.
    target = scenario_one_folder(tmp_path, monkeypatch)
    shutil.copy(SHIPPED / "002_borrowed_power.json", target)
    app = apps(setup(), start=False)
    started = []
    monkeypatch.setattr(app, "start_scenario", lambda s, slots, others="": started.append(s.id))
    app.to_scenarios()
    screen = app.screen
    wait_for(app, lambda: screen.items is not None, seconds=120)
    rows = [r["button_element"] for r in screen.list.item_list]
    start = screen.buttons["start"].rect.center
    post_events(app, [*click(rows[1].rect.center), *click(start)])
    assert started == [2] and screen.item.scenario.id == 2


def test_a_file_with_several_problems_gives_the_pane_a_line_each(tmp_path):
    # one string with newlines in it was drawn as overlapping rows (ui.panels.wrap splits on
    # spaces only); the file is named once, in the first line
    doc = json.loads((SHIPPED / "001_hold_the_trap.json").read_text())
    doc |= {"id": 13, "horizon": 0, "score_to_win": "twenty", "controller": "scripted:nobody"}
    doc["arena"] = str(SHIPPED / doc["arena"])
    (tmp_path / "013_broken.json").write_text(json.dumps(doc))
    (item,) = list_scenarios([tmp_path])
    lines = detail_lines(item, "not tried yet")
    assert lines[0][0] == "013_broken.json does not load:"
    assert lines[1:] == [
        "score_to_win = 'twenty': wrong type, must be a whole number",
        "horizon = 0: must be at least 1",
        "controller = 'scripted:nobody': no scripted bot 'nobody'; choose one of "
        + ", ".join(BOTS),
    ]
