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
