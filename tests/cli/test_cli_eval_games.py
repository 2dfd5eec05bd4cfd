"""`mbg eval` plays half its games from each side, so it asks for an even count."""

import pytest

from cli.main import main


@pytest.mark.parametrize("games", ["3", "1", "0"])
def test_eval_refuses_an_odd_or_too_small_game_count(games, capsys):
    args = ["eval", "policies/released/ippo_v1.msgpack", "--vs", "random", "--games", games]
    assert main(args) == 2
    assert f"--games {games}: must be an even number, 2 or more" in capsys.readouterr().err
