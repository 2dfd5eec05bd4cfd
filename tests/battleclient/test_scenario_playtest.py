"""Playtesting scenario 1 as a person does, through SDL's event queue: the lobby's Scenarios
button, the scenario picked in the list, its one live focal slot taken, a losing attempt (Space
on every tick), "Not solved", "Show a winning line" (the verified line written as a replay and
handed to the Replay Viewer), Try again (the next orders screen measured), then the first
verified line played by keys (the Rogue's moves from the line, Q for NW and A for W, then 1 U T
Space: its Poison on the Warrior) to "Solved". The record then holds 2 attempts and 1 solve,
the replays name the scenario and its start hash. F12 screenshots of each screen are kept
under the test's tmp folder (and in $MBG_SHOTS when set, to be looked at)."""

import os
import shutil
import time

import pygame
import pytest

from battleclient import layout as L
from battleclient.controls import MOVE_KEYS
from battleclient.panels import log_rows
from battleclient.resolution import RESOLVE_S
from battleclient.scenario_play import ScenarioPlay
from battleclient.scenario_screen import ScenarioScreen
from engine import constants as C
from evaluation import scenarios as S
from evaluation.replay import read_replay
from tests.battleclient.driver import frame, make_app, setup, wait_for

pytestmark = pytest.mark.slow  # compiles scenario 1's rules, the tactician and the line check


def _post(*events) -> list:
    for event in events:
        pygame.event.post(event)
    return pygame.event.get()


def _press(app, element) -> None:
    pos = element.rect.center  # the test window is the layout's size: no scaling
    frame(app, _post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    ))  # fmt: skip
    frame(app)


def _key(app, key) -> None:
    frame(app, _post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)))


def _shot(app, name: str, keep: list) -> None:
    """F12 as a person presses it; the PNG is kept under `name`."""
    from ui.paths import screenshot_dir

    before = set(screenshot_dir().glob("*.png")) if screenshot_dir().exists() else set()
    _key(app, pygame.K_F12)
    (new,) = set(screenshot_dir().glob("*.png")) - before
    keep.append((name, new))
    if os.environ.get("MBG_SHOTS"):
        shutil.copy(new, os.path.join(os.environ["MBG_SHOTS"], f"{name}.png"))


def _orders_up(app) -> bool:
    screen = app.screen
    return isinstance(screen, ScenarioPlay) and screen.phase == "orders" and not app.jobs


def _over(app) -> bool:
    screen = app.screen
    return screen.phase == "over" and screen.replay_path is not None and not app.jobs


def _space_until_over(app) -> None:
    while not _over(app):
        wait_for(app, lambda: _orders_up(app) or _over(app))
        if app.screen.phase == "orders":
            _key(app, pygame.K_SPACE)


@pytest.fixture(scope="module")
def playtest(display, tmp_path_factory):
    root = tmp_path_factory.mktemp("playtest")
    saved = {k: os.environ.get(k) for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME")}
    os.environ["XDG_DATA_HOME"] = str(root / "data")
    os.environ["XDG_CONFIG_HOME"] = str(root / "config")
    app = make_app(setup(), start=False)
    shots, seen = [], {}
    try:
        _press(app, app.screen.buttons["scenarios"])
        wait_for(app, lambda: isinstance(app.screen, ScenarioScreen) and app.screen.items)
        listing = app.screen
        seen["labels"] = [item.label for item in listing.items]
        rows = [r["button_element"] for r in listing.list.item_list]
        _press(app, rows[1])  # scenario 2 first, then back to 1: the list follows clicks
        seen["second"] = listing.item.scenario.id
        _press(app, rows[0])
        seen["default_picked"] = sorted(listing.picked)
        seen["toggles"] = sorted(listing.toggles.values())  # the dead Hunter is listed too
        seen["picked"] = sorted(listing.picked)
        _shot(app, "scenarios_screen", shots)
        _press(app, listing.buttons["start"])
        wait_for(app, lambda: _orders_up(app))
        play = app.screen
        seen["heading"] = play.drawing.heading()
        _shot(app, "scenario_play_ticks_left", shots)
        _key(app, pygame.K_SPACE)  # the first tick: its banner joins the top bar
        wait_for(app, lambda: _orders_up(app) and play.snap.tick == 296, dt=0.0)
        seen["bar"] = (play.drawing._top(pygame.Surface(L.SIZE)), play.drawing._top_room())
        seen["banner"] = play.since < RESOLVE_S
        seen["log"] = log_rows(play.logs[0])
        _shot(app, "scenario_play_banner", shots)

        _space_until_over(app)  # attempt 1: every order the no-op
        seen["first"] = (play.session.solved, play.drawing.heading(), play.replay_path)
        wait_for(app, lambda: not play.record_line.startswith("being"))
        began = time.perf_counter()
        _press(app, play.card_buttons["line"])
        wait_for(app, lambda: play.line_path is not None and not app.jobs, seconds=900)
        seen["line_path"], seen["line_s"] = play.line_path, time.perf_counter() - began
        print(f"Show a winning line: handed to the viewer in {seen['line_s']:.2f} s (loaded)")
        _key(app, pygame.K_w)  # W again: scenario 1's second line
        wait_for(app, lambda: play.line_path != seen["line_path"] and not app.jobs, seconds=300)
        seen["line2_path"], seen["launched"] = play.line_path, list(app.launch.commands)
        _shot(app, "end_card_not_solved", shots)

        began = time.perf_counter()
        _press(app, play.card_buttons["again"])
        wait_for(app, lambda: _orders_up(app), dt=0.0)
        seen["again_s"] = time.perf_counter() - began
        seen["again_tick"] = play.snap.tick
        print(f"Try again: the next orders screen in {seen['again_s']:.3f} s (loaded machine)")

        # the verified line by keys
        hold = dict(S.load_scenario(1).lines)[
            "hold: step out of the Mage's reach twice, then Poison"
        ]
        letter = {}
        for key, move in MOVE_KEYS.items():  # the letter keys come first
            letter.setdefault(move, key)
        for tick in range(len(hold)):
            wait_for(app, lambda: _orders_up(app))
            _key(app, pygame.K_1)
            _key(app, letter[int(hold[tick, 0, 0])])  # Team A spawns west: world moves
            if tick == len(hold) - 1:
                for key in (pygame.K_1, pygame.K_u, pygame.K_t):
                    _key(app, key)
                order = play.books[0].orders[0]
                seen["last_order"] = (order.target, order.ult)
            _key(app, pygame.K_SPACE)
        wait_for(app, lambda: _over(app))
        seen["second_attempt"] = (play.session.solved, play.snap.tick)
        wait_for(app, lambda: not play.record_line.startswith("being"))
        seen["record_line"] = play.record_line
        _shot(app, "end_card_solved", shots)
        _press(app, play.card_buttons["scenarios"])
        wait_for(app, lambda: isinstance(app.screen, ScenarioScreen) and app.screen.items)
        back = app.screen
        seen["back_record"] = back.record_text(back.item)
        from battleclient.scenario_record import load_record
        from battleclient.settings import replay_dir

        seen["record"] = load_record()
        seen["replays"] = sorted(replay_dir().glob("*.mbgr"))
        yield seen, shots, play.scenario
    finally:
        app.close()
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)


def test_the_scenarios_screen_lists_the_eight_and_takes_focal_slots(playtest):
    seen, shots, _ = playtest
    assert seen["labels"][:2] == ["1. Hold the Trap", "2. Borrowed Power"]
    assert len(seen["labels"]) == 8
    assert seen["second"] == 2
    assert seen["default_picked"] == seen["picked"] == [0] and seen["toggles"] == [0, 1]
    assert seen["heading"] == "Scenario 1, ticks left: 5"
    assert [name for name, _ in shots][:2] == ["scenarios_screen", "scenario_play_ticks_left"]


def test_the_top_bar_and_its_banner_end_before_the_repeat_button(playtest):
    seen, _, _ = playtest
    end, room = seen["bar"]
    assert seen["banner"]  # measured while "Tick 295 resolved" showed
    assert room == L.PLAY_BUTTONS["repeat"][1][0] - 8  # Repeat is the first button shown
    assert end <= room, (end, room)


def test_the_log_numbers_three_digit_ticks_apart_from_their_t(playtest):
    seen, _, _ = playtest
    assert seen["log"] == ["t 295  Mage B1 hit Rogue A0: 15 damage"]  # not "t295": "1295"


def test_a_losing_attempt_then_try_again_within_half_a_second(playtest):
    seen, _, scenario = playtest
    solved, heading, path = seen["first"]
    assert solved is False and heading == "After tick 296 (end)"  # the idle Rogue died
    assert path.name.startswith(f"scenario01_{scenario.start_hash[:8]}_attempt1_")
    assert seen["again_tick"] == int(scenario.start.tick) == 295
    assert seen["again_s"] < 0.5, seen["again_s"]  # issue 17: the next orders screen in 0.5 s


def test_the_line_played_by_keys_solves_it_and_the_record_counts_both(playtest):
    seen, _, scenario = playtest
    assert seen["last_order"] == (5, True)  # Poison (the Rogue's Ultimate) on B0
    assert seen["second_attempt"] == (True, 298)  # the third tick resolved: state 298
    assert seen["record"][scenario.start_hash]["attempts"] == 2
    assert seen["record"][scenario.start_hash]["solves"] == 1
    assert seen["record"][scenario.start_hash]["best_ticks"] == 3
    assert seen["back_record"] == seen["record_line"] == "2 attempts, 1 solved (best 3 ticks)"
    attempts = [p for p in seen["replays"] if "_attempt" in p.name]
    assert [p.name.split("_")[2] for p in attempts] == ["attempt1", "attempt2"]
    headers = [read_replay(p).header["scenario"] for p in attempts]
    assert [h["start_hash"] for h in headers] == [scenario.start_hash] * 2
    assert [h["solved"] for h in headers] == [False, True]


def test_show_a_winning_line_opens_the_verified_line_in_the_viewer(playtest):
    seen, _, scenario = playtest
    path = seen["line_path"]
    # nothing compiles for it (the playtest's step and controller): seconds, not minutes
    assert seen["line_s"] < 20, seen["line_s"]
    assert path.name.startswith(f"scenario01_{scenario.start_hash[:8]}_line1_")
    assert [command[-1] for command in seen["launched"]] == [str(path), str(seen["line2_path"])]
    assert seen["line2_path"].name.startswith(f"scenario01_{scenario.start_hash[:8]}_line2_")
    assert read_replay(seen["line2_path"]).header["scenario"]["solved"] is True
    replay = read_replay(path)
    assert replay.header["scenario"]["solved"] is True
    assert int(replay.states["outcome"][-1]) == C.A_WINS
    assert int(replay.states["tick"][-1]) == 298
