"""The BattleClient's command line: a roster with a gap inside
a team, --slots over remembered lobby settings, --after-ticks past the game's end."""

import numpy as np

from battleclient.app import main, remembered_setup
from battleclient.cli import parse_args
from battleclient.game_setup import ClientSetup
from battleclient.settings import save_last_setup
from battleclient.wording import team_problem

GAME = ["--map", "47", "--seed", "3"]


def test_a_roster_with_a_gap_inside_a_team_is_refused_before_any_game(tmp_path, capsys):
    out = tmp_path / "game.mbgr"
    code = main(["--headless", "--roster", "MW-RP/H-R", "--replay-out", str(out), *GAME])
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "roster 'MW-RP/H-R': slot A2 is empty" in err and "RULES 2.1" in err


def test_the_lobby_names_the_gap():
    roster = np.array([1, 2, 0, 4, 5, 3, 0, 0, 0, 0])
    assert team_problem(roster).startswith("Slot A2 is empty but a later slot of Team A")
    roster[2] = 3
    assert team_problem(roster) == ""


def test_slots_without_lobby_play_the_documented_defaults():
    save_last_setup(ClientSetup(horizon=150, score_threshold=7, seed=9))
    started = parse_args(["--slots", "A*=random,B*=random"])
    assert remembered_setup(started) == (None, "")
    lobby = remembered_setup(parse_args(["--slots", "A*=random,B*=random", "--lobby"]))[0]
    assert (lobby.horizon, lobby.score_threshold, lobby.seed) == (150, 7, 9)
    assert remembered_setup(parse_args([]))[0].horizon == 150  # the plain lobby remembers


def test_after_ticks_past_the_game_end_is_refused(tmp_path, capsys):
    png = tmp_path / "shot.png"
    args = ["--slots", "A*=random,B*=random", "--horizon", "5", "--screenshot", str(png)]
    assert main([*args, "--after-ticks", "9", *GAME]) == 2
    assert "--after-ticks 9: the game ends by tick 5" in capsys.readouterr().err
    assert not png.exists()
