"""The header over the arena shows both teams' Systems, whatever their
checkpoint paths, and a long file name does not push them out."""

import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.panels import info_lines, short_spec, team_systems
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame, key, post

DEEP = "/home/someone/experiments/2026-11-29/run-with-a-long-name/checkpoints/step_000480000"
NAME = "game0001_map47_A-west_ippo-v1-against-scripted-tactician-seed-123456.mbgr"


def open_with(display, tmp_path, systems):
    from engine import constants as C

    replay = synthetic_replay(10, seed=5)
    replay.header["systems"] = systems
    replay.header["rules_version"] = C.RULES_VERSION  # no rules mark on the bar (own test)
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / NAME, replay))
    frame(viewer, [key(pygame.K_o, unicode="o")])
    return viewer


def drawn(viewer) -> list[str]:
    """The info lines as drawn: each must fit the bar on one line, all of them in its height."""
    font, width = viewer.info_font, L.INFO[2] - 8
    lines = info_lines(viewer.model, font, width)
    assert all(font.size(line)[0] <= width for line in lines)
    assert len(lines) * font.get_linesize() <= L.INFO[3]
    return lines


def test_both_teams_show_with_checkpoints_by_file_name(display, tmp_path):
    systems = ["human"] + [f"checkpoint:{DEEP}/policy.msgpack"] * 4
    systems += [f"checkpoint:{DEEP}/rival.msgpack#greedy"] * 5
    lines = drawn(open_with(display, tmp_path, systems))
    assert lines[0].startswith("game0001_map47") and "view: Oracle" in lines[0]
    assert lines[2] == (
        "A: human / 4x checkpoint:policy.msgpack   B: checkpoint:rival.msgpack#greedy"
    )


def test_five_different_long_names_are_shortened_each_team_in_its_half(display, tmp_path):
    systems = [f"checkpoint:/x/{'a' * 30}_{k}.msgpack" for k in range(5)]
    systems += [f"checkpoint:/y/{'b' * 30}_{k}.msgpack" for k in range(5)]
    line = drawn(open_with(display, tmp_path, systems))[2]
    a, _, b = line.partition("   B: ")
    assert a.startswith("A: checkpoint:aaa") and "..." in a and a.endswith("_4.msgpack")
    assert b.startswith("checkpoint:bbb") and "..." in b and b.endswith("_4.msgpack")


@pytest.mark.parametrize(
    ("spec", "short"),
    [
        ("checkpoint:/a/b/c.msgpack", "checkpoint:c.msgpack"),
        ("checkpoint:c.msgpack#greedy", "checkpoint:c.msgpack#greedy"),
        ("scripted:tactician", "scripted:tactician"),
        ("human", "human"),
    ],
)
def test_short_spec(spec, short):
    assert short_spec(spec) == short


def test_team_systems():
    assert team_systems(["random"] * 5) == "random"
    assert team_systems(["", "", "", "", ""]) == "-"
    assert team_systems(["human", "random", "random", "", ""]) == "human / 2x random"


def test_a_scenario_replay_fits_its_brief_in_the_bar(display, tmp_path):
    from engine import constants as C

    replay = synthetic_replay(10, seed=5)
    replay.header["rules_version"] = C.RULES_VERSION
    brief = "Team B leads 19-18 and needs one kill. " * 6  # a few sentences, longer than the bar
    replay.header["scenario"] = {"id": 6, "title": "The Patient Hunter", "horizon": 6,
                                 "skill": "opponent modelling", "focal_team": "A",
                                 "solved": False, "brief": brief}  # fmt: skip
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / NAME, replay))
    lines = drawn(viewer)
    assert "scenario 6 The Patient Hunter (opponent modelling)" in lines[1]
    assert "focal team A wins within the horizon: not met" in lines[1]  # Oracle view only
    assert lines[2].startswith("Team B leads 19-18") and lines[2].endswith("...")


def test_a_scenario_clock_counts_down_and_names_the_end():
    from replay_viewer.panels import scenario_lines

    info = {"id": 1, "title": "Hold the Trap", "skill": "planning", "horizon": 5,
            "focal_team": "A", "solved": False, "brief": "b"}  # fmt: skip
    assert scenario_lines(info, 0, False)[0].endswith(": 5 ticks left")
    assert scenario_lines(info, 4, False)[0].endswith(": 1 tick left")
    # a game that ended at state 4 of a 5-tick horizon has no tick left to play
    assert scenario_lines(info, 4, False, over=True)[0].endswith(": game over after 4 of 5 ticks")


def test_a_header_result_edited_by_hand_is_flagged_and_the_games_shown(display, tmp_path):
    replay = synthetic_replay(10, seed=5)
    true = dict(replay.header["result"])
    replay.header["result"] = dict(true, outcome=2, outcome_name="B wins", score=[0, 20])
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / "edited.mbgr", replay))
    frame(viewer)
    assert viewer.message_is_error
    played = f"{true['outcome_name']} {true['score'][0]}-{true['score'][1]} in 10 ticks"
    assert viewer.message == (  # no result in it: an agent's view must not learn the end
        "edited.mbgr: its header's result disagrees with its recorded game; the Oracle view "
        "shows the game's (mbg replay verify names the fields)"
    )
    frame(viewer, [key(pygame.K_o, unicode="o")])  # another message; the info line still says
    assert drawn(viewer)[1].startswith(f"result (the game's; its header says otherwise): {played}")
    untouched = open_with(display, tmp_path, replay.header["systems"])
    assert untouched.model.header_problems == []
    assert drawn(untouched)[1].startswith("result: ")


def test_a_replay_of_other_rules_says_it_is_shown_as_recorded(display):
    from engine import constants as C

    viewer = App(L.SIZE)
    old = "tests/fixtures/replays/v1_rules1_real_2v2_no_metrics.mbgr"
    assert viewer.open_path(old)
    frame(viewer)
    ticks = viewer.model.ticks
    assert viewer.message == (
        f"Opened v1_rules1_real_2v2_no_metrics.mbgr: {ticks} ticks. It was recorded under rules "
        f"version 1 (written 'marl-battlegrounds 0.1.0'); this engine runs rules version "
        f"{C.RULES_VERSION}: "
        "shown as recorded, not re-simulated (RULES.md 8 lists the changes). ? lists the keys."
    )
    assert not viewer.message_is_error
    assert viewer.open_path("tests/fixtures/replays/v1_real_2v2_no_metrics.mbgr")
    assert viewer.message == (
        f"Opened v1_real_2v2_no_metrics.mbgr: {viewer.model.ticks} ticks. ? lists the keys."
    )


def test_other_rules_stay_on_the_info_bar_after_the_message_fades(display):
    """The status message fades after MESSAGE_SECONDS; the info bar keeps saying, in every view
    and whatever the user does, that the replay is of other rules and shown as recorded."""
    from engine import constants as C
    from replay_viewer.app import MESSAGE_SECONDS, RESTING_HINT

    viewer = App(L.SIZE)
    assert viewer.open_path("tests/fixtures/replays/v1_rules1_real_2v2_no_metrics.mbgr")
    mark = (
        "other rules: recorded under rules version 1, this engine runs rules version "
        f"{C.RULES_VERSION} (shown as recorded)"
    )
    frame(viewer, dt=MESSAGE_SECONDS + 0.5)
    assert viewer.message == RESTING_HINT[1]  # the toast is gone ...
    lines = drawn(viewer)
    assert lines[2] == f"A: scripted:brawler   B: random   {mark}"  # ... the bar still says
    post(viewer, key(pygame.K_RIGHT), key(pygame.K_v, unicode="v"))  # a tick on, the next view
    lines = drawn(viewer)
    assert viewer.model.tick == 1 and viewer.model.view != "oracle"
    assert lines == [
        lines[0],
        "point of view: only what this view knew at this tick is shown",
        mark,
    ]
    assert viewer.open_path("tests/fixtures/replays/v1_real_2v2_no_metrics.mbgr")
    assert not any("other rules" in line for line in drawn(viewer))
