"""`mbg eval` plays half its games from each side, so it asks for an even count; its rosters
are checked before any game."""

import numpy as np
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
        ("MW/HR,,", "--roster 'MW/HR,,': roster 2 of 3 is empty"),
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


@pytest.mark.parametrize(("games", "played"), [(2, ["MW/HR"]), (4, ["MW/HR"]), (6, None)])
def test_eval_lists_only_the_rosters_that_played(games, played, monkeypatch):
    """On one map a roster lasts a side's pair of games, so 2 or 4 games never reach MWHRP
    and 6 give it one game a side; "rosters" holds what the schedules played."""
    import evaluation.match
    from cli.train import evaluate
    from engine.pool import parse_roster

    rosters, seen = ["MW/HR", "MWHRP"], []

    def play_match(lineup, setups, on_game=None):  # records the setups, every game a draw
        seen.extend(s.roster.tolist() for s in setups)
        n = len(setups)
        return {"winner": np.array(["draw"] * n), "score_a": np.zeros(n), "score_b": np.zeros(n)}

    monkeypatch.setattr(evaluation.match, "play_match", play_match)
    result = evaluate("random", "random", "47", games, rosters)
    played = played or rosters
    assert result["rosters"] == played
    assert result["unplayed_rosters"] == [r for r in rosters if r not in played]
    assert sorted({tuple(r) for r in seen}) == sorted(
        tuple(parse_roster(r).tolist()) for r in played
    )
    assert len(seen) == games and result["games"] == games
