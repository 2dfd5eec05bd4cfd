"""The terminal line of each training chunk."""


def test_log_lines_name_each_opponents_win_rate():
    from training.runs import summary_line

    keys = ("loss/entropy", "games/scripted:brawler/win", "games/random/win")
    values = {"loss/entropy": 2.4, "games/scripted:brawler/win": 0.5, "games/random/win": 0.9}
    assert summary_line(values, keys) == "entropy 2.4 | brawler win 0.5 | random win 0.9"


def test_log_lines_show_elo_and_stage_in_whole_units():
    from training.runs import summary_line

    keys = ("games/pool/win", "elo/learner", "curriculum/stage")
    values = {"games/pool/win": 0.25, "elo/learner": 1238.86, "curriculum/stage": 2.0}
    assert summary_line(values, keys) == "pool win 0.25 | elo 1239 | stage 2"
