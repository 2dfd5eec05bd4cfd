"""tests/helpers/run_processes.py: which pytest processes `make test` runs, in which order.

Lives outside tests/helpers because the runner skips its support folders.
"""

from pathlib import Path

from tests.helpers.run_processes import UNKNOWN_SECONDS, longest_first, targets


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")


def test_targets_split_the_named_folders_per_file_and_keep_their_subfolders(tmp_path):
    root = tmp_path / "tests"
    _touch(
        root,
        "engine/test_b.py",
        "engine/test_a.py",
        "evaluation/test_z.py",
        "evaluation/test_y.py",
        "evaluation/conftest.py",
        "evaluation/handgame.py",
        "evaluation/metrics/test_m.py",
        "evaluation/__pycache__/test_y.cpython-312.pyc",
        "helpers/test_runner.py",
        ".pytest_cache/x",
        "__pycache__/x",
    )
    found = targets(root, {"tests/helpers"}, {"tests/evaluation"})
    assert found == [
        "tests/engine",
        "tests/evaluation/test_y.py",
        "tests/evaluation/test_z.py",
        "tests/evaluation/metrics",
    ]


def test_longest_expected_first_unknown_in_between_ties_in_order():
    expected = {"long": 900, "mid": UNKNOWN_SECONDS + 1, "short": 3}
    todo = ["short", "new_a", "long", "new_b", "mid"]
    assert longest_first(todo, expected) == ["long", "mid", "new_a", "new_b", "short"]


def test_the_real_suite_splits_evaluation_and_starts_with_its_longest_process():
    from tests.helpers import run_processes as R

    root = Path(__file__).resolve().parents[1]
    found = targets(
        root, {"tests/fixtures", "tests/helpers"}, {"tests/training", "tests/evaluation"}
    )
    assert "tests/evaluation" not in found
    assert "tests/evaluation/test_scenario_batch.py" in found
    assert "tests/evaluation/metrics" in found
    assert "tests/runner" in found
    # every name in the table is a target that exists: a renamed file would silently lose its
    # place at the front
    assert set(R.EXPECTED_SECONDS) <= set(found)
    assert longest_first(found, R.EXPECTED_SECONDS)[0] == "tests/training/test_q_parallel.py"
