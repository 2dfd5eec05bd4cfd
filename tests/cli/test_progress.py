"""Progress of game runs off a terminal: plain lines at each tenth, nothing for one game."""

from cli.progress import LogLines, game_progress


def test_log_lines_at_each_tenth_and_the_last(capsys):
    lines = LogLines(25, "mbg eval")  # a tenth of 25 is 2 games (rounded down)
    for _ in range(25):
        lines.advance()
    printed = capsys.readouterr().err.splitlines()
    assert printed[0] == "mbg eval: 2/25 games"
    assert printed[-2:] == ["mbg eval: 24/25 games", "mbg eval: 25/25 games"]
    assert len(printed) == 13  # 2, 4, ..., 24 and the last


def test_off_a_terminal_progress_is_lines_unless_quiet(capsys):
    # pytest captures stderr, so it is not a terminal here
    assert isinstance(game_progress(10, False, "mbg play"), LogLines)
    assert game_progress(10, True, "mbg play") is None  # --json to a log stays clean
    assert game_progress(1, False, "mbg play") is None
