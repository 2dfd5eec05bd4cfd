"""A tiny IPPO run stopped and resumed from its Orbax checkpoint equals an uninterrupted one,
bit for bit; run directories refuse the wrong start; `mbg eval` prints a side-swapped record."""

import json

import jax
import numpy as np
import pytest

from cli.main import main as mbg
from policies.checkpoints import load_policy
from tests.helpers.runs import assert_same_tree, logged_rows
from training import ippo

TINY = ippo.IPPOConfig(
    maps=("0-3",),
    num_envs=4,
    rollout=4,
    minibatches=2,
    epochs=1,
    embed=8,
    torso=16,
    hidden=8,
    updates_per_log=1,
    logs_per_checkpoint=1,
    opponents=(("self", 0.5), ("scripted:brawler", 0.25), ("random", 0.25)),
)
STEP = TINY.steps_per_update  # one update = one chunk = one checkpoint


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    whole, _ = ippo.run(TINY, root / "whole", steps=3 * STEP, show=False)
    ippo.run(TINY, root / "split", steps=STEP, show=False)
    resumed, _ = ippo.run(None, root / "split", resume=True, steps=3 * STEP, show=False)
    return root, whole, resumed


def test_resume_equals_uninterrupted_bit_for_bit(runs):
    _, whole, resumed = runs
    assert int(whole.update) == int(resumed.update) == 3
    assert_same_tree(whole, resumed)


def test_logs_and_exported_policies_agree(runs):
    root, _, _ = runs
    lines = {name: logged_rows(root / name) for name in ("whole", "split")}
    assert [r["env_steps"] for r in lines["whole"]] == [STEP, 2 * STEP, 3 * STEP]
    assert lines["whole"] == lines["split"]
    a = load_policy(root / "whole" / f"policy_{3 * STEP}.msgpack")
    b = load_policy(root / "split" / f"policy_{3 * STEP}.msgpack")
    assert a.training["env_steps"] == 3 * STEP and a.network == TINY.network
    for x, y in zip(jax.tree.leaves(a.params), jax.tree.leaves(b.params), strict=True):
        assert np.array_equal(x, y)


def test_run_directories_refuse_the_wrong_start(runs, tmp_path):
    root, _, _ = runs
    with pytest.raises(FileExistsError, match="pass --resume"):
        ippo.run(TINY, root / "whole", steps=STEP, show=False)
    with pytest.raises(FileNotFoundError, match="no run to resume"):
        ippo.run(None, tmp_path / "empty", resume=True, show=False)
    other = ippo.IPPOConfig(**{**TINY.__dict__, "lr": 1e-3})
    with pytest.raises(ValueError, match="differs from the run's saved config"):
        ippo.run(other, root / "whole", resume=True, show=False)


def test_config_refuses_held_out_maps_and_bad_mixes():
    with pytest.raises(ValueError, match=r"\[42\] are validation/test maps"):
        ippo.IPPOConfig(maps=("40-42",))
    with pytest.raises(ValueError, match="unknown kind 'scripted:nobody'"):
        ippo.IPPOConfig(opponents=(("scripted:nobody", 1.0),))
    with pytest.raises(ValueError, match="minibatches: 7 must divide"):
        ippo.IPPOConfig(minibatches=7)


def test_mbg_eval_prints_a_side_swapped_record(runs, capsys):
    root, _, _ = runs
    policy = root / "whole" / f"policy_{3 * STEP}.msgpack"
    code = mbg(["eval", str(policy), "--vs", "random", "--maps", "42", "--games", "2", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["wins"] + out["draws"] + out["losses"] == 2
    assert out["by_side"]["A"]["games"] == 1 and out["by_side"]["B"]["games"] == 1
    lo, hi = out["win_ci95"]
    assert 0.0 <= lo <= out["win_rate"] <= hi <= 1.0
