"""`mbg rate`: leaderboards from results tables and replay folders, with CSV, JSON and PNG."""

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from cli.main import main
from evaluation.rating import simulate_field

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replays"


def test_rate_prints_and_writes_the_leaderboard(tmp_path, capsys):
    table = simulate_field([1000, 1200, 1400], 0.3, 40, seed=2, names=["low", "mid", "top"])
    results = tmp_path / "results.parquet"
    table.write_parquet(results)
    out = {k: tmp_path / f"board.{k}" for k in ("csv", "json", "png")}
    args = ["rate", str(results), "--rounds", "50", "--rating-seed", "3"]
    assert main(args + [f"--{k}={v}" for k, v in out.items()]) == 0
    text = capsys.readouterr().out
    assert text.index(" top ") < text.index(" mid ") < text.index(" low ")
    assert "50 rounds, seed 3" in text and "draw parameter nu" in text
    board = pl.read_csv(out["csv"])
    assert board["entrant"].to_list() == ["top", "mid", "low"]
    assert board["games"].to_list() == [80, 80, 80]
    assert abs(board["elo"].mean() - 1200.0) < 1e-6
    doc = json.loads(out["json"].read_text())
    assert doc["rounds"] == 50 and doc["seed"] == 3 and 0.2 < doc["draw_nu"] < 0.45
    assert out["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # nothing is written over an existing file, and nothing is lost
    before = out["csv"].read_bytes()
    assert main(["rate", str(results), f"--csv={out['csv']}"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out["csv"].read_bytes() == before


def test_rate_reads_replays_and_rates_groups_that_never_met_apart(tmp_path, capsys):
    for name in ("v1_real_2v2_no_metrics.mbgr", "v1_real_5v5_full_metrics.mbgr"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    assert main(["rate", str(tmp_path), "--interval", "fisher"]) == 0
    captured = capsys.readouterr()
    assert "2 groups that never met" in captured.err
    assert "{random, scripted:brawler}" in captured.err
    assert "{scripted:kiter, scripted:tactician}" in captured.err
    assert "group 1" in captured.out and "group 2" in captured.out
    assert captured.out.count(" 1200 ") == 4  # one draw each: every rating at the centre


def test_rate_names_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "x.parquet"
    pl.DataFrame({"entrant_a": ["a"]}).write_parquet(bad)
    assert main(["rate", str(bad)]) == 2
    assert f"{bad}: not a results table; columns ['entrant_b', 'winner'] are missing" in (
        capsys.readouterr().err
    )


def _edited_copy(folder: Path, name: str, **header) -> Path:
    from dataclasses import replace

    from evaluation.replay import read_replay, write_replay

    replay = read_replay(FIXTURES / "v1_real_2v2_no_metrics.mbgr")
    return write_replay(folder / name, replace(replay, header=replay.header | header))


def test_rate_skips_self_play_and_refuses_scenario_replays(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(FIXTURES / "v1_real_2v2_no_metrics.mbgr", folder / "a.mbgr")
    mirror = ["random", "random", "", "", "", "random", "random", "", "", ""]
    _edited_copy(folder, "b.mbgr", systems=mirror)
    assert main(["rate", str(folder), "--interval", "fisher"]) == 0
    captured = capsys.readouterr()
    assert f"skipped 1 game(s) of an entrant against itself (first: {folder / 'b.mbgr'})" in (
        captured.err
    )
    assert captured.out.count(" 1 ") >= 2 and "scripted:brawler" in captured.out
    scenario = tmp_path / "scen"
    scenario.mkdir()
    _edited_copy(scenario, "s.mbgr", scenario={"id": 3, "title": "T", "start_hash": "ab"})
    assert main(["rate", str(scenario)]) == 2
    assert f"{scenario / 's.mbgr'}: a replay of scenario 3" in capsys.readouterr().err


def test_rate_names_the_rules_version_of_replays_of_other_rules(tmp_path, capsys):
    from engine.constants import RULES_VERSION

    shutil.copy(FIXTURES / "v1_real_2v2_no_metrics.mbgr", tmp_path / "a.mbgr")
    shutil.copy(FIXTURES / "v1_rules1_real_2v2_no_metrics.mbgr", tmp_path / "b_old.mbgr")
    assert main(["rate", str(tmp_path), "--interval", "fisher"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == (
        f"mbg: warning: {tmp_path}: 1 game(s) of other rules (first: {tmp_path / 'b_old.mbgr'}: "
        "recorded under rules version 1 (written 'marl-battlegrounds 0.1.0'); this engine runs "
        f"rules version {RULES_VERSION}: its result is rated as recorded, not re-simulated "
        "(RULES.md 8 lists the changes))"
    )


@pytest.mark.parametrize("command", [["rate", "results.parquet"], ["tournament", "run",
                         "--entrants", "a=random", "b=random", "--out", "season"]])  # fmt: skip
def test_too_few_bootstrap_rounds_are_refused_before_any_game(command, tmp_path, capsys,
                                                              monkeypatch):  # fmt: skip
    def fail(*args, **kwargs):
        raise AssertionError("the tournament started")

    monkeypatch.setattr("cli.tournament._start_jax", fail)
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--rounds", "1"]) == 2
    assert capsys.readouterr().err == (
        f"mbg {command[0]}: error: --rounds 1: the bootstrap needs at least 2 "
        "(--interval fisher needs none)\n"
    )
    assert not (tmp_path / "season").exists()


def test_fisher_intervals_take_any_rounds(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    _edited_copy(folder, "g.mbgr")
    assert main(["rate", str(folder), "--interval", "fisher", "--rounds", "1"]) == 0
    assert "intervals: Fisher information" in capsys.readouterr().out
