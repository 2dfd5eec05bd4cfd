"""A tiny self-play run with a ghost pool and a two-stage curriculum, killed after one update
and resumed, equals an uninterrupted one bit for bit: snapshot parameters and ratings, the
window, each game's opponent, the sampler's key, Elo and its logged history, the stage."""

import json

import pytest

from tests.helpers.runs import assert_same_tree, logged_rows
from training import ippo

pytestmark = pytest.mark.slow  # two compilations, minutes on the loaded development machine

STAGES = {"stages": [
    {"name": "1v1", "maps": "0,1", "team_sizes": [1], "score_threshold": 5},
    {"name": "2v2", "maps": "2,3", "team_sizes": [2], "score_threshold": 5},
]}  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("selfplay")
    stages = root / "stages.json"
    stages.write_text(json.dumps(STAGES))
    config = ippo.IPPOConfig(
        num_envs=4, rollout=8, minibatches=2, epochs=1, embed=8, torso=16, hidden=8,
        updates_per_log=1, logs_per_checkpoint=1,
        opponents=(("pool", 0.5), ("random", 0.5)),
        save_steps=16, swap_steps=4, window=2, play_against_latest_model_ratio=0.5,
        curriculum=str(stages), stage_budget=64, partners="A1=random",
    )  # fmt: skip
    step = config.steps_per_update
    whole, _ = ippo.run(config, root / "whole", steps=3 * step, show=False)
    ippo.run(config, root / "split", steps=step, show=False)  # "killed" after update 1
    resumed, _ = ippo.run(None, root / "split", resume=True, steps=3 * step, show=False)
    return root, whole, resumed


def test_killed_and_resumed_equals_uninterrupted(runs):
    _, whole, resumed = runs
    assert_same_tree(whole, resumed)
    # the run did what it is checked for: snapshots taken, the window full, stage advanced
    assert int(whole.ghost.size) == 2 and int(whole.curriculum.stage) == 1
    assert int(whole.ghost.trainer_steps) > 0


def test_logged_elo_and_stage_history_agree(runs):
    root, _, _ = runs
    rows = {name: logged_rows(root / name) for name in ("whole", "split")}
    assert rows["whole"] == rows["split"]
    assert [r["curriculum/stage"] for r in rows["whole"]] == [0.0, 1.0, 1.0]
    assert all("elo/learner" in r and "elo/random" in r for r in rows["whole"])
