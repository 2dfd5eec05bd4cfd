"""Comparing two training runs: their saved state leaf by leaf, and their logs."""

import json
from pathlib import Path

import jax
import numpy as np


def assert_same_tree(expected, actual) -> None:
    """Every leaf of two pytrees has the same dtype and the same values, bit for bit; the
    failure names the leaf's path."""
    paths = jax.tree_util.tree_flatten_with_path(expected)[0]
    for (path, a), b in zip(paths, jax.tree.leaves(actual), strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and np.array_equal(a, b), jax.tree_util.keystr(path)


def logged_rows(run: Path) -> list[dict]:
    """The rows of a run's metrics.jsonl without the timing ("perf/") values, which differ
    between any two runs."""
    lines = (Path(run) / "metrics.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(x).items() if not k.startswith("perf/")} for x in lines]


def check_script_report(script: Path, root: Path, timeout: float) -> dict:
    """Run a check script in a fresh Python process (XLA fixes the CPU device count when JAX
    starts) as `python SCRIPT ROOT`, and return the JSON object on its last stdout line; the
    assertion shows the end of its stderr when it fails."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, str(script), str(root)], capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
