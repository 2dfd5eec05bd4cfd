"""`mbg metrics FOLDER` goes on past an unreadable replay, names it, and exits 2 (bad input, as
every refusal in cli.main)."""

import io

import polars as pl
import pytest

from cli.main import main
from engine.constants import RULES_VERSION
from evaluation.replay import encode_replay, write_replay
from tests.helpers.replays import synthetic_replay


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("mixed")
    for seed in (0, 1):
        replay = synthetic_replay(ticks=10, seed=seed)
        replay.header["rules_version"] = RULES_VERSION  # no "other rules" warning on stderr
        write_replay(root / f"game{seed}.mbgr", replay)
    (root / "game0_broken.mbgr").write_bytes(b"nope")  # sorts between the two good ones
    return root


def test_a_bad_replay_is_named_and_the_rest_are_measured(folder, capsys):
    code = main(["metrics", str(folder), "--level", "priority", "--format", "csv"])
    out, err = capsys.readouterr()
    assert code == 2
    games = pl.read_csv(io.StringIO(out))["game"].unique().sort().to_list()
    assert games == [str(folder / "game0.mbgr"), str(folder / "game1.mbgr")]
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"mbg metrics: skipped {folder / 'game0_broken.mbgr'}: ")
    assert len(lines[0]) > len(f"mbg metrics: skipped {folder / 'game0_broken.mbgr'}: ")
    assert lines[0].count("game0_broken.mbgr") == 1  # the reason does not repeat the path
    assert lines[1] == "mbg metrics: skipped 1 unreadable replay"


def test_stored_metrics_missing_is_a_reason_too(folder, capsys, tmp_path):
    out_file = tmp_path / "m.csv"
    code = main(["metrics", str(folder), "--stored", "--format", "csv", "--out", str(out_file)])
    err = capsys.readouterr().err
    assert code == 2 and not out_file.exists()  # nothing readable: nothing written
    assert "mbg metrics: no replay could be read (3 tried)" in err
    assert f"skipped {folder / 'game1.mbgr'}: metrics: none stored" in err


def test_truncated_replay_alone(tmp_path, capsys):
    data = encode_replay(synthetic_replay(ticks=5, seed=2))
    (tmp_path / "cut.mbgr").write_bytes(data[: len(data) // 2])
    code = main(["metrics", str(tmp_path / "cut.mbgr")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"mbg metrics: skipped {tmp_path / 'cut.mbgr'}: " in err


@pytest.mark.parametrize(
    ("extra", "where"),
    [(["--level", "priority"], "at --level priority"), (["--catalog"], "in the catalog")],
)
def test_a_search_that_keeps_nothing_says_so(folder, extra, where, capsys):
    paths = [] if "--catalog" in extra else [str(folder / "game0.mbgr")]
    assert main(["metrics", *paths, *extra, "--search", "zzzz", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert pl.read_csv(io.StringIO(out)).is_empty()
    assert err.strip() == (
        f"mbg metrics: no metric {where} matches --search 'zzzz'"
        " (mbg metrics --catalog lists every id)"
    )
    assert main(["metrics", *paths, *extra, "--search", "heal", "--format", "csv"]) == 0
    assert capsys.readouterr().err == ""  # a search that keeps rows says nothing
