"""`mbg eval` plays half its games from each side, so it asks for an even count; its rosters
are checked before any game."""

import pytest

from cli.main import main


@pytest.mark.parametrize("games", ["3", "1", "0"])
def test_eval_refuses_an_odd_or_too_small_game_count(games, capsys):
    args = ["eval", "policies/released/ippo_v1.msgpack", "--vs", "random", "--games", games]
    assert main(args) == 2
    assert f"--games {games}: must be an even number, 2 or more" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rosters", "message"),
    [
        ("MWHRP,MWX", "--roster MWHRP,MWX: roster 'MWX': unknown class letter 'X'"),
        (" , ", "--roster ' , ': names no roster"),
    ],
)
def test_eval_names_the_rosters_option_of_a_bad_roster(rosters, message, capsys):
    args = ["eval", "policies/released/ippo_v1.msgpack", "--vs", "random", "--roster", rosters]
    assert main(args + ["--games", "2"]) == 2
    assert message in capsys.readouterr().err


def test_eval_takes_roster_as_mbg_play_and_the_older_rosters_still(capsys):
    """--roster, as `mbg play --roster`; --rosters, its older name, sets it too and is left
    out of --help."""
    args = ["eval", "policies/released/ippo_v1.msgpack", "--vs", "random", "--games", "2"]
    assert main([*args, "--rosters", "MWX"]) == 2
    assert "--roster MWX: roster 'MWX': unknown class letter 'X'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    shown = capsys.readouterr().out
    assert "--roster ROSTER" in shown and "--rosters" not in shown
