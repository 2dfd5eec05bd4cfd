"""`mbg metrics` on replay files and folders, every output format, and the catalog."""

import io
import json

import polars as pl
import pytest

from cli.main import main
from engine.constants import RULES_VERSION
from evaluation.metrics import compute_metrics
from evaluation.replay import read_replay, write_replay
from tests.helpers.replays import synthetic_replay


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("replays")
    for seed in (0, 1):
        replay = synthetic_replay(ticks=25, seed=seed)
        # Measured from the recording, never re-simulated: marked as this engine's rules, so
        # no "other rules" warning (tests/cli/test_cli_old_rules.py) joins the parsed output.
        replay.header["rules_version"] = RULES_VERSION
        replay.metrics = compute_metrics(replay, "full", game="recorded")
        write_replay(root / f"game{seed}.mbgr", replay)
    return root


def run(capsys, *args) -> tuple[int, str]:
    code = main(["metrics", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out + err


def test_search_heal_lists_the_healing_metrics(folder, capsys):
    code, out = run(capsys, folder / "game0.mbgr", "--level", "full", "--search", "heal")
    assert code == 0
    assert "healing.received_realised" in out and "priest.holy_word_healing" in out
    assert "damage.dealt_raw" not in out


def test_folder_gives_one_table_for_all_games(folder, capsys):
    code, out = run(capsys, folder, "--level", "priority", "--format", "csv")
    frame = pl.read_csv(io.StringIO(out))
    assert code == 0 and frame.height == 32
    assert sorted(frame["game"].unique().to_list()) == [
        str(folder / f"game{s}.mbgr") for s in (0, 1)
    ]


def test_json_and_parquet(folder, capsys, tmp_path):
    code, out = run(capsys, folder / "game1.mbgr", "--level", "priority", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 16 and rows[0]["metric"] == "outcome.result"
    target = tmp_path / "m.parquet"
    assert run(capsys, folder, "--format", "parquet", "--out", target)[0] == 0
    frame = pl.read_parquet(target)
    expected = compute_metrics(read_replay(folder / "game0.mbgr"), "full", game="x").height
    assert frame.height == 2 * expected
    code, out = run(capsys, folder, "--format", "parquet", "--out", target)
    assert code == 2 and "already exists" in out
    code, out = run(capsys, folder, "--format", "parquet")
    assert code == 2 and "give --out FILE" in out


def test_stored_metrics(folder, capsys):
    code, out = run(
        capsys, folder / "game0.mbgr", "--stored", "--level", "priority", "--format", "csv"
    )
    frame = pl.read_csv(io.StringIO(out))
    assert code == 0 and frame.height == 16
    assert frame["game"].unique().to_list() == [str(folder / "game0.mbgr")]


def test_errors_name_the_path(capsys, tmp_path):
    code, out = run(capsys, tmp_path / "missing.mbgr")
    assert code == 2 and "missing.mbgr: no such file or folder" in out
    code, out = run(capsys, tmp_path)
    assert code == 2 and "no .mbgr files" in out
    code, out = run(capsys)
    assert code == 2 and "name at least one replay" in out


def test_catalog_listing(capsys):
    code, out = run(capsys, "--catalog", "--search", "rescue", "--format", "csv")
    frame = pl.read_csv(io.StringIO(out))
    assert code == 0 and frame["id"].to_list() == ["priest.rescues", "priest.rescues_total"]
    code, out = run(capsys, "--catalog", "--format", "md")
    assert code == 0 and out.startswith("# Metric catalog")
