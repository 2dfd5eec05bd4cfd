"""The window's scaling (ui.window_fit) with real mouse events, and `battleclient
--from-replay FILE --tick N` end to end through the command line."""

import pygame
import pygame_gui
import pytest
from pygame_gui.elements import UIButton

from battleclient.app import main
from evaluation.replay import read_replay
from evaluation.replay_verify import verify
from tests.battleclient.driver import GAME_TICKS
from ui.window_fit import FittedManager, WindowFit


def test_the_frame_is_scaled_and_centred_and_clicks_map_back():
    fit = WindowFit((1280, 800))
    assert fit.to_logical((100, 50)) == (100, 50)
    fit.resize((1920, 1000))  # wider than 16:10: bars left and right
    assert fit.scale == 1.25 and fit.rect == pygame.Rect(160, 0, 1600, 1000)
    assert fit.to_logical((160 + 125, 250)) == (100, 200)
    fit.resize((640, 800))  # taller: bars above and below
    assert fit.rect == pygame.Rect(0, 200, 640, 400)
    assert fit.to_logical((320, 400)) == (640, 400)
    frame, display = pygame.Surface((1280, 800)), pygame.Surface((640, 800))
    frame.fill((200, 10, 10))
    fit.present(frame, display)
    assert display.get_at((320, 100))[:3] == (0, 0, 0)  # the bar
    assert display.get_at((320, 400))[:3] == (200, 10, 10)


def test_a_button_in_a_scaled_window_is_clicked_where_it_is_shown(display):
    fit = WindowFit((1280, 800))
    manager = FittedManager(fit)
    button = UIButton(pygame.Rect(600, 380, 80, 40), "OK", manager)
    fit.resize((640, 400))  # half size: the button shows at (300-340, 190-210)
    pygame.event.clear()
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=(320, 200), button=1))
    pressed = []
    for _ in range(3):
        for event in pygame.event.get():
            manager.process_events(event)
            if event.type == pygame_gui.UI_BUTTON_PRESSED:
                pressed.append(event.ui_element)
        manager.update(0.01)
    assert pressed == [button]


def test_from_replay_plays_on_from_the_tick(tmp_path, capsys):
    parent = tmp_path / "parent.mbgr"
    args = ["--map", "47", "--seed", "2", "--horizon", str(GAME_TICKS), "--metrics", "none"]
    args += ["--slots", "A*=random,B*=random", "--headless", "--replay-out", str(parent)]
    assert main(args) == 0
    child, shot = tmp_path / "child.mbgr", tmp_path / "shot.png"
    code = main(["--from-replay", str(parent), "--tick", "4", "--replay-out", str(child),
                 "--screenshot", str(shot), "--after-ticks", str(GAME_TICKS)])  # fmt: skip
    assert code == 0 and shot.is_file()
    old, new = read_replay(parent), read_replay(child)
    assert new.header["parent"]["tick"] == 4 and new.header["parent"]["replay"] == str(parent)
    assert new.ticks == GAME_TICKS - 4 and new.header["metrics_level"] == "full"
    assert (new.states["pos"] == old.states["pos"][4:]).all()
    assert verify(new) == []


@pytest.fixture(scope="module")
def short_replay(tmp_path_factory):
    parent = tmp_path_factory.mktemp("branch") / "p.mbgr"
    args = ["--map", "47", "--horizon", str(GAME_TICKS), "--metrics", "none", "--headless"]
    assert main([*args, "--replay-out", str(parent)]) == 0
    return parent


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "give the tick to play on from with --tick N"),
        (["--tick", "99"], "holds ticks 0-6"),
        (["--tick", "1", "--map", "3"], "--map: a game played on from a replay keeps"),
    ],
)
def test_from_replay_refuses_what_it_cannot_do(short_replay, capsys, extra, message):
    assert main(["--from-replay", str(short_replay), *extra]) == 2
    assert message in capsys.readouterr().err


STUDY = "a study game starts from the study's own setup, not from a replay; drop --from-replay"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--study", "p07"], f"--study: {STUDY} or --study"),
        (["--study-ai", "random"], f"--study-ai: {STUDY} or --study-ai"),
        (["--condition", "against"], f"--condition: {STUDY} or --condition"),
        (["--study-dir", "study"], f"--study-dir: {STUDY} or --study-dir"),
        (["--lobby"], "--lobby: a game played on from a replay opens at --tick, not the lobby"),
        (["--turn-clock", "-1"], "--turn-clock -1: must be a whole number from 0 to 3,600"),
        (["--slots", " "], "--slots: is empty; e.g. 'A*=human,B*=scripted:kiter'"),
        (["--after-ticks", "-1"], "--after-ticks -1: must be 0 or more"),
        (["--after-ticks", "99"], f"--after-ticks 99: the game ends by tick {GAME_TICKS} (the "
         "replay's horizon); choose 0 to that"),
    ],
)  # fmt: skip
def test_from_replay_refuses_an_option_it_would_drop(short_replay, capsys, monkeypatch, extra,
                                                     message):  # fmt: skip
    """Each was dropped unseen: the study (its preset, questionnaire and study.csv), the lobby,
    the empty --slots (read as the parent's Systems); the numbers went unchecked."""
    monkeypatch.setattr("battleclient.app._run", lambda *a: pytest.fail("the game started"))
    assert main(["--from-replay", str(short_replay), "--tick", "1", *extra]) == 2
    assert capsys.readouterr().err == f"battleclient: {message}\n"


def test_from_replay_names_both_rules_versions_of_an_old_replay(capsys, monkeypatch):
    from engine.constants import RULES_VERSION

    old = "tests/fixtures/replays/v1_rules1_real_2v2_no_metrics.mbgr"
    monkeypatch.setattr("battleclient.app._run", lambda *a: pytest.fail("the window opened"))
    assert main(["--from-replay", old, "--tick", "3"]) == 2
    assert capsys.readouterr().err == (
        f"battleclient: --from-replay {old}: recorded under rules version 1 (written "
        f"'marl-battlegrounds 0.1.0'); this engine runs rules version {RULES_VERSION}, so it "
        "cannot re-simulate it (RULES.md 8 lists the changes)\n"
    )


def test_from_replay_keeps_its_own_turn_clock(short_replay):
    from battleclient.cli import branch_from_args, parse_args

    args = parse_args(["--from-replay", str(short_replay), "--tick", "1", "--turn-clock", "30"])
    setup, branch = branch_from_args(args)
    assert setup.turn_clock == 30 and branch.tick == 1  # was dropped: no clock


def test_from_replay_names_the_option_and_file_when_the_file_is_missing(tmp_path, capsys):
    missing = tmp_path / "nosuch.mbgr"
    assert main(["--from-replay", str(missing), "--tick", "2"]) == 2
    assert f"--from-replay {missing}: no such file" in capsys.readouterr().err
