"""`mbg play` says when deterministic Systems will play the same game several times, and checks
its options (seed, rosters) before any game."""

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

    assert main(["play", "--map", "47", "--slots", "*=random", "--seed", "-1"]) == 2
    assert "--seed -1: must be 0 or more" in capsys.readouterr().err


def test_play_names_the_roster_option_of_a_bad_roster_and_takes_random(capsys):
    from cli.main import main
    from evaluation.match import roster_list

    assert main(["play", "--map", "47", "--slots", "*=random", "--roster", "random,MWX"]) == 2
    assert "--roster random,MWX: roster 'MWX': unknown class letter 'X'" in capsys.readouterr().err
    assert roster_list(" random , MWHRP/MWHRP ,", "--roster") == ["random", "MWHRP/MWHRP"]


def test_a_roster_the_games_never_reach_gets_a_note():
    from evaluation.match import unplayed_rosters_note

    rosters = ["random", "MWHRP/MWHRP", "MMMMM"]
    # 3 maps, ends swapped: 6 games a roster, so 8 games reach the second roster only.
    note = unplayed_rosters_note(rosters, 8, 3, "--roster")
    assert note.startswith("--roster: 8 games play only random, MWHRP/MWHRP; MMMMM would")
    assert "start at game 13" in note and "use --games 18" in note
    assert unplayed_rosters_note(rosters, 13, 3, "--roster") is None  # game 13 is MMMMM's
    # Without swapped ends a roster lasts one game a map.
    assert unplayed_rosters_note(rosters, 7, 3, "--roster", swap_ends=False) is None
    assert "start at game 4" in unplayed_rosters_note(rosters, 3, 3, "-r", swap_ends=False)
    # The note's arithmetic is schedule's own: game 7 of 3 maps is the second roster's first.
    two = ["MWHRP/MWHRP", "MMMMM"]
    assert "start at game 7" in unplayed_rosters_note(two, 6, 3, "--roster")
    setups = schedule([0, 1, 2], two, 7, seed=0)
    assert [s.roster.tolist()[:5] for s in setups[5:]] == [[1, 2, 3, 4, 5], [1] * 5]
