"""The terminal line of each training chunk."""


def test_log_lines_name_each_opponents_win_rate():
    from training.runs import summary_line

    keys = ("loss/entropy", "games/scripted:brawler/win", "games/random/win")
    values = {"loss/entropy": 2.4, "games/scripted:brawler/win": 0.5, "games/random/win": 0.9}
    assert summary_line(values, keys) == "entropy 2.4 | brawler win 0.5 | random win 0.9"
