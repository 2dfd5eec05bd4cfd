"""Study mode as a participant meets it: a short game through SDL's event queue (Space to lock
in orders), the questionnaire answered by mouse clicks on its buttons and slider arrows, and
what it leaves: a replay with the answers and the decision times, a study CSV row and `mbg
study summary` over the folder. Also: the Oracle view is refused, the agent POV is fair."""

import time

import numpy as np
import polars as pl
import pygame
import pytest

from battleclient.study import DecisionClock, StudyPreset
from battleclient.study_screen import Questionnaire
from evaluation import study
from evaluation.replay import read_replay
from tests.battleclient.driver import GAME_TICKS, frame, make_app, orders_ready, setup, wait_for

HUMAN = "A0=human,A1-A4=random,B*=random"


def _post(*events) -> list:
    for event in events:
        pygame.event.post(event)
    return pygame.event.get()


def _press(element) -> list:
    pos = element.rect.center
    return _post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    )


def _click(app, element) -> None:
    frame(app, _press(element))
    frame(app)


@pytest.fixture(scope="module")
def study_game(display, tmp_path_factory):
    import os

    root = tmp_path_factory.mktemp("study")
    os.environ["XDG_DATA_HOME"] = str(root / "data")
    os.environ["XDG_CONFIG_HOME"] = str(root / "config")
    preset = StudyPreset("P07", ai="random", folder=str(root / "study"))
    app = make_app(setup(HUMAN), start=False)
    app.start_study(preset, setup(HUMAN))
    for tick in range(GAME_TICKS):
        wait_for(app, lambda t=tick: orders_ready(app) and app.screen.snap.tick >= t)
        if isinstance(app.screen, Questionnaire):
            break
        time.sleep(0.05)  # the participant thinks
        space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ")
        frame(app, _post(space))
    wait_for(app, lambda: isinstance(app.screen, Questionnaire))
    form = app.screen
    picked = {"fluency": 2, "trust": 1, "predictability": 5}
    by_item = {(item, value): b for b, (item, value) in form.choices.items()}
    before_submit = form.submit.is_enabled
    for item, value in picked.items():
        _click(app, by_item[(item, value)])
    for n, slider in enumerate(form.sliders):
        for _ in range(n + 1):  # 50 + 5 (n + 1): every scale set by its arrow
            _click(app, slider.right_button)
    answers = form.answers()
    _click(app, form.submit)
    wait_for(app, lambda: not isinstance(app.screen, Questionnaire))
    return preset, picked, answers, before_submit, app


def test_the_questionnaire_is_answered_by_mouse(study_game):
    _, picked, answers, before_submit, _ = study_game
    assert before_submit is False  # nothing set yet: Submit waits
    assert {k: answers[k] for k in picked} == picked
    assert [answers[k] for k in study.TLX_ITEMS] == [55, 60, 65, 70, 75, 80]


def test_the_replay_holds_answers_and_decision_times(study_game):
    preset, picked, answers, _, app = study_game
    replay = read_replay(app.last_replay)
    record = replay.header["study"]
    assert record["participant"] == "P07" and record["condition"] == "beside"
    assert record["questionnaire"] == answers
    assert record["tlx_raw"] == pytest.approx(np.mean([55, 60, 65, 70, 75, 80]))
    times = [d for d in replay.decisions if d.get("system") == "human"]
    assert [d["slot"] for d in times] == [0] * len(times) and len(times) >= 1
    assert all(d["decision_s"] >= 0.05 for d in times)  # each waited at least the think time
    row = pl.read_csv(preset.csv_path).row(0, named=True)
    assert row["replay"] == app.last_replay.name and row["fluency"] == picked["fluency"]
    assert row["decisions"] == len(times)


def test_study_summary_tabulates_the_folder(study_game, capsys):
    from cli.main import main

    preset = study_game[0]
    assert main(["study", "summary", preset.folder]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "beside" in printed and "1 game, 1 participant" in printed
    assert "tlx_raw │ 67.50" in printed


def test_the_oracle_view_is_refused_for_a_human_slot():
    with pytest.raises(ValueError, match="never plays in the Oracle view"):
        StudyPreset("P07", sight="oracle")
    with pytest.raises(ValueError, match="participant 'a b'"):
        StudyPreset("a b")


def test_the_clock_counts_from_the_orders_screen_to_the_lock_in():
    now = iter([10.0, 12.5, 20.0, 21.0]).__next__
    clock = DecisionClock(now)
    clock.start()
    clock.stop(0, (0, 1))
    clock.start()
    clock.stop(1, (0, 1))
    assert clock.times == {(0, 0): 2.5, (0, 1): 2.5, (1, 0): 1.0, (1, 1): 1.0}
    clock.take_back(1)
    assert [r["tick"] for r in clock.records()] == [0, 0]


def test_the_agent_pov_shows_only_what_the_agent_observed(study_game):
    from battleclient.views import fair_scene

    app = study_game[4]
    snap = app.screen.snap if hasattr(app.screen, "snap") else None
    if snap is None:  # back in the lobby: rebuild a snapshot from the saved replay
        replay = read_replay(app.last_replay)
        t = 2
        snap = type("Snap", (), {})()
        snap.state = {k: v[t] for k, v in replay.states.items()}
        snap.prev_state = {k: v[t - 1] for k, v in replay.states.items()}
        snap.events = {k: v[t - 1] for k, v in replay.events.items()}
        snap.visible, snap.relayed = replay.visible[t], replay.relayed[t]
    agent = fair_scene(snap, (0,), sight="agent")
    team = fair_scene(snap, (0,), sight="team")
    observed = set(np.flatnonzero(snap.visible[0] | snap.relayed[0])) | {0}
    assert set(agent.known) <= observed
    assert set(agent.known) <= set(team.known)


def test_questionnaire_answers_are_checked():
    with pytest.raises(ValueError, match="questionnaire.trust: 9 is not a whole number in 1-7"):
        study.check_answers(dict.fromkeys(study.PARTNER_ITEMS, 1) | {"trust": 9}
                            | dict.fromkeys(study.TLX_ITEMS, 50))  # fmt: skip
    with pytest.raises(ValueError, match="not a multiple of 5"):
        study.check_answers(dict.fromkeys(study.PARTNER_ITEMS, 1)
                            | dict.fromkeys(study.TLX_ITEMS, 52))  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--study", ""], "--study: participant '': use 1-32 letters"),
        (["--study", "P09", "--study-ai", "nosuch:x"], "--study-ai nosuch:x: unknown kind"),
        (["--study", "P09", "--study-ai", ""], "--study-ai: is empty; give a slot spec or leave"),
        (["--study", "P09", "--study-dir", ""], "--study-dir: is empty; give a path"),
        (["--study", "P09", "--study-dir", "{file}/study"],
         "--study-dir {file}/study: {file} is a file, not a folder"),
        (["--study", "P09", "--study-dir", "{file}"],
         "--study-dir {file}: exists and is not a folder"),
    ],
)  # fmt: skip
def test_a_bad_study_option_is_refused_before_the_window_opens(capsys, tmp_path, extra, message):
    from battleclient.app import main

    file = tmp_path / "notes.txt"
    file.write_text("kept")
    extra = [part.format(file=file) for part in extra]
    assert main(extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("battleclient: ") and message.format(file=file) in err
    assert file.read_text() == "kept"


@pytest.mark.parametrize(
    ("extra", "option"),
    [
        (["--slots", "*=random"], "--slots"),
        (["--roster", "MW/HR"], "--roster"),
        (["--info-regime", "no_shared_obs"], "--info-regime"),
        (["--turn-clock", "30"], "--turn-clock"),
        (["--metrics", "none"], "--metrics"),
        (["--no-repeat-orders"], "--no-repeat-orders"),
        (["--replay-out", "game.mbgr"], "--replay-out"),
        (["--lobby"], "--lobby"),
        (["--view", "team"], "--view"),
    ],
)
def test_an_option_the_study_preset_decides_is_refused_not_dropped(
    capsys, tmp_path, monkeypatch, extra, option
):
    from battleclient.app import main

    monkeypatch.chdir(tmp_path)  # where --replay-out would have gone
    monkeypatch.setattr("battleclient.app._run", lambda *a: pytest.fail("the window opened"))
    assert main(["--study", "P09", "--study-dir", str(tmp_path / "study"), *extra]) == 2
    assert capsys.readouterr().err == (
        f"battleclient: {option}: a study game is set by the study preset (--condition, "
        "--study-ai, --study-view, --map, --seed, --horizon, --score-threshold, --study-dir); "
        f"drop {option}\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("extra", "option"),
    [
        (["--study-dir", "elsewhere"], "--study-dir"),
        (["--study-ai", "random"], "--study-ai"),
        (["--condition", "against"], "--condition"),
        (["--study-view", "team"], "--study-view"),
    ],
)
def test_a_study_option_without_study_is_refused_not_dropped(capsys, extra, option):
    from battleclient.app import main

    assert main(extra) == 2
    assert capsys.readouterr().err == f"battleclient: {option}: only with --study PARTICIPANT\n"
