"""`mbg play` says when deterministic Systems will play the same game several times, and checks
its options (seed, rosters) before any game."""

import pytest

from cli.play import _repeat_note
from evaluation.match import schedule

BOTS = ("scripted:kiter",) * 5 + ("scripted:tactician",) * 5


def test_deterministic_bots_on_one_layout_get_a_note():
    # Map 47, one roster, ends swapped in pairs: 6 games are 2 different ones.
    note = _repeat_note(BOTS, schedule(47, ["MWHRP/MWHRP"], 6, seed=0))
    assert "the 6 games are only 2 different ones" in note
    assert "--roster random" in note


def test_no_note_when_something_varies_the_games():
    assert _repeat_note(BOTS[:5] + ("random",) * 5, schedule(47, ["MWHRP/MWHRP"], 6, 0)) == ""
    assert _repeat_note(BOTS, schedule(47, ["MWHRP/MWHRP"], 2, seed=0)) == ""  # 2 ends, 2 games
    greedy = ("checkpoint:policies/released/ippo_v1.msgpack#greedy",) * 5 + ("",) * 5
    assert "only 2 different" in _repeat_note(greedy, schedule(47, ["MWHRP/MWHRP"], 4, 0))


def test_play_refuses_a_negative_seed(capsys):
    from cli.main import main

    assert main(["play", "--maps", "47", "--slots", "*=random", "--seed", "-1"]) == 2
    assert "--seed -1: must be 0 to 2147483647" in capsys.readouterr().err


def test_play_names_the_roster_option_of_a_bad_roster_and_takes_random(capsys):
    from cli.main import main
    from evaluation.match import roster_list

    assert main(["play", "--maps", "47", "--slots", "*=random", "--roster", "random,MWX"]) == 2
    assert "--roster random,MWX: roster 'MWX': unknown class letter 'X'" in capsys.readouterr().err
    assert roster_list(" random , MWHRP/MWHRP ", "--roster") == ["random", "MWHRP/MWHRP"]
    # An empty entry is a typo, not a shorter list: refused by position (mbg play and mbg eval).
    with pytest.raises(ValueError, match=r"--roster 'MW/HR,,': roster 2 of 3 is empty"):
        roster_list("MW/HR,,", "--roster")
    assert main(["play", "--maps", "47", "--slots", "*=random", "--roster", ",MWHRP"]) == 2
    assert "--roster ',MWHRP': roster 1 of 2 is empty" in capsys.readouterr().err


def test_a_roster_the_games_never_reach_gets_a_note():
    from evaluation.match import unplayed_rosters_note

    rosters = ["random", "MWHRP/MWHRP", "MMMMM"]
    # 3 maps, ends swapped: 6 games a roster, so 8 games reach the second roster only.
    note = unplayed_rosters_note(rosters, 8, 3, "--roster")
    assert note == (
        "--roster: 8 games play only random, MWHRP/MWHRP, not MMMMM (rosters change only after "
        "each of the 3 maps has been played); --games 13 gives MMMMM one game (Team A at the "
        "west end), --games 18 gives every roster both ends of each of the 3 maps"
    )
    assert unplayed_rosters_note(rosters, 13, 3, "--roster") is None  # game 13 is MMMMM's
    # Without swapped ends a roster lasts one game a map.
    assert unplayed_rosters_note(rosters, 7, 3, "--roster", swap_ends=False) is None
    assert unplayed_rosters_note(rosters, 3, 3, "-r", swap_ends=False).endswith(
        "not MWHRP/MWHRP, MMMMM (rosters change only after each of the 3 maps has been played); "
        "--games 4 gives MWHRP/MWHRP one game, --games 9 gives every roster one game on each of "
        "the 3 maps"
    )
    # The note's arithmetic is schedule's own: game 7 of 3 maps is the second roster's first.
    two = ["MWHRP/MWHRP", "MMMMM"]
    assert "--games 7 gives MMMMM one game " in unplayed_rosters_note(two, 6, 3, "--roster")
    setups = schedule([0, 1, 2], two, 7, seed=0)
    assert [s.roster.tolist()[:5] for s in setups[5:]] == [[1, 2, 3, 4, 5], [1] * 5]


def test_the_roster_note_of_mbg_eval_counts_both_sides():
    from evaluation.match import unplayed_rosters_note

    # mbg eval plays half its games a side, each half its own schedule (cli.train.evaluate):
    # on one map MMMMM's first game is a side's third, so --games 6 gives it one game a side
    # (Team A at the west end), and 8 both ends from each side.
    two = ["MWHRP", "MMMMM"]
    note = unplayed_rosters_note(two, 4, 1, "--roster", sides=2)
    assert note == (
        "--roster: 4 games play only MWHRP, not MMMMM (rosters change only after the map has "
        "been played); --games 6 gives MMMMM one game a side (Team A at the west end), "
        "--games 8 gives every roster both ends of the map from each side"
    )
    assert unplayed_rosters_note(two, 6, 1, "--roster", sides=2) is None
    assert [s.roster.tolist()[1] for s in schedule([47], two, 6 // 2, seed=0)] == [2, 2, 1]


def test_mbg_eval_checks_its_games_before_the_roster_note(capsys):
    from cli.main import main

    argv = ["eval", "policies/released/ippo_v1.msgpack", "--vs", "random", "--maps", "47"]
    assert main([*argv, "--games", "3", "--roster", "MWHRP,MMMMM"]) == 2
    err = capsys.readouterr().err
    assert "--games 3: must be an even number" in err and "note" not in err
