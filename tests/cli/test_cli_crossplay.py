"""`mbg crossplay run | report` end to end on a tiny plan: the report's files, its printed
matrix, and the errors a user meets (a bad --replace, another plan in the same folder)."""

import json

import polars as pl

from cli.main import main


def _run(out, *extra):
    return main([
        "crossplay", "run", "--teams", "rnd=random", "--strangers", "twin=random",
        "--opponents", "rnd=random", "--maps", "47", "--pairs", "1", "--out", str(out),
        "--quiet", *extra,
    ])  # fmt: skip


def test_run_writes_the_report_and_prints_the_matrix(tmp_path, capsys):
    out = tmp_path / "xp"
    assert _run(out) == 0
    printed = capsys.readouterr().out
    assert "Cross-play matrix (12 games)" in printed
    cost = pl.read_csv(out / "cost.csv")
    assert cost.height == 5 and cost["cost"].to_list() == [0.0] * 5  # twin = the team's spec
    assert set(pl.read_csv(out / "matrix.csv")["stranger"]) == {"rnd", "twin"}
    assert json.loads((out / "report.json").read_text())["games"] == 12
    assert (out / "crossplay_cost.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["crossplay", "report", str(out)]) == 0  # the report alone, from the folder

    assert _run(out, "--seed", "5") == 2
    assert "plan.seed is 0, this command asks for 5" in capsys.readouterr().err


def test_bad_replace_names_the_field(tmp_path, capsys):
    assert _run(tmp_path / "bad", "--replace", "5") == 2
    assert "replace 5 must be 1-4" in capsys.readouterr().err


def test_a_bad_stranger_is_named_with_its_option_and_leaves_no_manifest(tmp_path, capsys):
    out = tmp_path / "xp"
    bad = [
        "crossplay",
        "run",
        "--teams",
        "rnd=random",
        "--strangers",
        "b=scripted:zz",
        "--opponents",
        "rnd=random",
        "--maps",
        "47",
        "--pairs",
        "1",
        "--out",
        str(out),
    ]
    assert main(bad) == 2
    err = capsys.readouterr().err
    assert "--strangers entrant 'b=scripted:zz': scripted bot 'zz' does not exist" in err
    assert not (out / "manifest.json").exists()  # the corrected command may use the folder


def test_an_unknown_map_id_is_named_with_the_valid_ids(tmp_path, capsys):
    assert _run(tmp_path / "xp", "--maps", "99") == 2
    assert "--maps 99: unknown map id 99; valid ids: 0-51" in capsys.readouterr().err
    assert not (tmp_path / "xp").exists()
