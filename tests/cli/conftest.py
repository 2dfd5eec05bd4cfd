"""The repository root on sys.path, for tests.helpers; `no_work`, for checks that must come
before any work."""

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# The first piece of real work of each command: a check that must come before it is tested by
# making every one of them fail the test.
FIRST_WORK = (
    "cli.play._play",  # mbg play's games
    "cli.train._run_config",  # mbg train, before the learner is built
    "cli.train.evaluate",  # mbg eval's games
    "cli.tournament._start_jax",  # tournament run and challenge
    "cli.tournament._play",
    "evaluation.tournament.open_tournament",
    "evaluation.tournament_store.load_results",  # mbg rate
    "evaluation.tournament_analysis.analyse_folder",
    "evaluation.scenario_run.run_all",
    "cli.metrics._games_data",
    "cli.study.study_rows",
    "replay_viewer.export_cli.export_one",
    "training.validation.select_policy",
)


@pytest.fixture
def no_work(monkeypatch):
    """Every command's first piece of work (FIRST_WORK, and building a learner) fails the test."""

    def fail(*args, **kwargs):
        raise AssertionError("work started before the options were checked")

    for target in FIRST_WORK:
        monkeypatch.setattr(target, fail)
    monkeypatch.setattr("cli.train.learner", lambda name: (object, fail))
