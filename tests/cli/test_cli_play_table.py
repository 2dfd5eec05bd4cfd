"""`mbg play`'s per-game table shows every column (polars' default hid the middle ones)."""

import polars as pl

from cli.play import print_results


def test_every_result_column_is_shown_and_outcome_is_left_out(capsys):
    row = dict(game=0, map_id=42, map_name="Twin Pillars", roster="MWHRP/MWHRP", spawn_end=1,
               seed=123456789, outcome=1, winner="A", score_a=20, score_b=4, ticks=180)  # fmt: skip
    print_results(pl.DataFrame([row] * 25))
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "game" in line)
    names = [cell.strip() for cell in header.strip("│").split("┆")]
    assert names == [{"spawn_end": "A_starts"}.get(k, k) for k in row if k != "outcome"]
    assert "east" in out
    assert "123456789" in out and "Twin Pillars" in out
    assert out.count("MWHRP/MWHRP") == 20  # 25 games: the first and last ten rows
