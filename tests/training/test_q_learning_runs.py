"""Tiny QMIX and PQN-VDN runs through `mbg train`: stopped and resumed from their Orbax
checkpoints they equal uninterrupted runs bit for bit, and the exported policy file names the
Q network. (A Q-network file's slot spec plays greedily and legally in test_q_learning_math.py;
`mbg eval` of an exported policy file in test_ippo_resume.py.)"""

import importlib
import json

import jax
import numpy as np
import pytest

from cli.main import main as mbg
from cli.train import learner
from policies import checkpoints
from tests.helpers.runs import assert_same_tree, logged_rows
from training import common, pqn_vdn, qmix, run_schedule
from training import runs as run_files

pytestmark = pytest.mark.slow

SMALL = {"maps": ["0-3"], "embed": 8, "torso": 16, "hidden": 8, "updates_per_log": 1}
SMALL |= {"logs_per_checkpoint": 1, "opponents": [["self", 0.5], ["random", 0.5]]}
CONFIGS = {
    "pqn-vdn": (pqn_vdn, {**SMALL, "num_envs": 2, "rollout": 4, "minibatches": 1, "epochs": 1}),
    "qmix": (qmix, {**SMALL, "num_envs": 2, "horizon": 12, "buffer_games": 4, "batch_games": 2,
                    "gradient_steps": 1, "target_every": 2}),
}  # fmt: skip


def _train(algorithm, config_file, out, steps, resume=False):
    args = ["train", algorithm, "--config", str(config_file), "--steps", str(steps)]
    args += ["--out", str(out), "--quiet"] + (["--resume"] if resume else [])
    assert mbg(args) == 0


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def runs(request, tmp_path_factory):
    algorithm = request.param
    module, doc = CONFIGS[algorithm]
    root = tmp_path_factory.mktemp(algorithm)
    config_file = root / "tiny.json"
    config_file.write_text(json.dumps(doc))
    step = common.load_config(learner(algorithm)[0], config_file).steps_per_update
    _train(algorithm, config_file, root / "whole", 3 * step)
    _train(algorithm, config_file, root / "split", step)
    _train(algorithm, config_file, root / "split", 3 * step, resume=True)
    return algorithm, module, root, step


def _restore(algorithm, out):
    config_class, _ = learner(algorithm)
    module = importlib.import_module(config_class.__module__)
    config = common.load_config(config_class, out / "config.json")
    # the init program `mbg train` compiled in this process (the same config less total_steps)
    threshold = config.schedule.stages[0].score_threshold
    _, init, _ = run_schedule.stage_program(module.make_train, config, threshold)
    like = init(jax.random.PRNGKey(config.seed))
    store = run_files.RunCheckpoints(out / "checkpoints")
    try:
        return store.restore(like)
    finally:
        store.close()


def test_resume_equals_uninterrupted_bit_for_bit(runs):
    algorithm, module, root, step = runs
    whole, resumed = _restore(algorithm, root / "whole"), _restore(algorithm, root / "split")
    assert int(whole.update) == int(resumed.update) == 3
    assert_same_tree(whole, resumed)
    if module is qmix:  # three updates of two games, one self-play (2 teams): 9 stored
        assert int(whole.buffer.count) == 9


def test_logs_agree_and_the_policy_file_names_the_q_network(runs):
    algorithm, _, root, step = runs
    rows = {name: logged_rows(root / name) for name in ("whole", "split")}
    assert [r["env_steps"] for r in rows["whole"]] == [step, 2 * step, 3 * step]
    assert rows["whole"] == rows["split"]
    assert all(np.isfinite(r["loss/td"]) for r in rows["whole"])
    policy = checkpoints.load_policy(root / "whole" / f"policy_{3 * step}.msgpack")
    assert policy.kind == checkpoints.Q_NETWORK_KIND
    assert policy.training["algorithm"] == algorithm and policy.training["env_steps"] == 3 * step
