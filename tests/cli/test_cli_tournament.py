"""`mbg tournament run` across two jax.distributed processes on this machine, each sharding its
batches over two host devices: the merged table equals one process's, game for game."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from evaluation import tournament as T
from evaluation import tournament_store as store

ROOT = Path(__file__).resolve().parents[2]
RULES = {"horizon": 24, "score_threshold": 1}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_two_processes_split_the_games_and_merge_one_table(tmp_path):
    folder = tmp_path / "two" / "season"
    command = [
        sys.executable, "-m", "cli.main", "tournament", "run", "--entrants", "rand=random",
        "brawler=scripted:brawler", "--games-per-pair", "8", "--seed", "5", "--horizon", "24",
        "--score-threshold", "1", "--batch", "4", "--out", str(folder), "--devices", "2",
        "--processes", "2", "--coordinator", f"127.0.0.1:{_free_port()}", "--quiet",
        "--interval", "fisher",
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT), JAX_PLATFORMS="cpu", XLA_FLAGS="")
    env["MBG_JAX_CACHE"] = os.environ.get("JAX_COMPILATION_CACHE_DIR", "")
    runs = [
        subprocess.Popen(
            command + ["--process-id", str(i)],
            env=env,
            cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        for i in (0, 1)
    ]
    outputs = [run.communicate(timeout=600) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    parts = sorted(p.name for p in (folder / store.PARTS).glob("part-*.parquet"))
    assert parts == ["part-p00-m0000-g00000.parquet", "part-p01-m0000-g00004.parquet"]
    assert "8 games" in outputs[0][0] and "rand" in outputs[0][0]  # process 0 reports
    merged = pl.read_parquet(folder / store.MERGED)

    single = tmp_path / "one" / "season"  # the same tournament in this one process
    manifest = T.open_tournament(single, {"rand": "random", "brawler": "scripted:brawler"},
                                 "test", 8, 5, RULES)  # fmt: skip
    T.play_matchups(single, manifest, manifest["matchups"], T.Options(batch=4))
    assert merged.equals(store.merge(single))


def test_analyse_prints_the_table_and_writes_csv_and_png(tmp_path, capsys):
    from cli.main import main
    from evaluation.rating import simulate_field

    names = ["a", "b", "c", "d", "e"]
    table = simulate_field([1000, 1100, 1200, 1300, 1400], 0.3, 20, seed=4, names=names)
    rank = {n: i for i, n in enumerate(names)}
    table = table.with_columns(  # a measure that rises with strength, and one that never varies
        pl.col("entrant_a").replace_strict(rank, return_dtype=pl.Float64).alias("a__kills.team"),
        pl.col("entrant_b").replace_strict(rank, return_dtype=pl.Float64).alias("b__kills.team"),
        pl.lit(0.0).alias("a__deaths.team_red_zone"),
        pl.lit(0.0).alias("b__deaths.team_red_zone"),
    )
    store.write_part(tmp_path, 0, 0, 0, table.to_dicts())  # results parts need every column
    csv, png = tmp_path / "t.csv", tmp_path / "t.png"
    assert main(["tournament", "analyse", str(tmp_path), f"--csv={csv}", f"--png={png}"]) == 2
    assert "not a results part" in capsys.readouterr().err
    for part in (tmp_path / store.PARTS).glob("*.parquet"):
        part.unlink()
    full = table.with_columns(
        pl.lit("t").alias("tournament"), pl.lit(0).alias("matchup"),
        pl.int_range(pl.len()).alias("game"), pl.col("pair").alias("seed"),
        pl.lit(47).alias("map_id"), pl.lit("m").alias("map_name"), pl.lit(0).alias("spawn_end"),
        pl.lit("MWHRP/MWHRP").alias("roster"), pl.col("entrant_a").alias("spec_a"),
        pl.col("entrant_b").alias("spec_b"), pl.lit(0).alias("score_a"),
        pl.lit(0).alias("score_b"), pl.lit(1).alias("ticks"),
    )  # fmt: skip
    store.write_part(tmp_path, 0, 0, 0, full.to_dicts())
    assert main(["tournament", "analyse", str(tmp_path), f"--csv={csv}", f"--png={png}"]) == 0
    text = capsys.readouterr().out
    assert "1 team measures tested across 5 entrants" in text and "1 without variation" in text
    assert "kills.team" in text and "+1.00   0.0167   0.0167" in text
    assert pl.read_csv(csv)["measure"].to_list() == ["kills.team"]
    assert png.read_bytes()[:4] == b"\x89PNG"
