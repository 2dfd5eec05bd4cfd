"""Data-parallel IPPO on two host devices (training.parallel), checked in a fresh process
(tests/training/parallel_check.py) because XLA fixes the CPU device count when JAX starts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from training import ippo


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    script = Path(__file__).with_name("parallel_check.py")
    root = tmp_path_factory.mktemp("parallel")
    done = subprocess.run(
        [sys.executable, str(script), str(root)], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_two_devices_sum_to_the_one_device_gradient(report):
    assert report["gradient_gap"] < 1e-5


@pytest.mark.xfail(
    strict=True,
    reason="known regression (issue 21): with the self-play runner state, a resumed two-device "
    "run no longer equals the uninterrupted one; strict, so a fix makes this fail until removed",
)
def test_a_two_device_run_resumes_bit_for_bit_with_one_set_of_parameters(report):
    assert report["resume_equal"]
    assert report["same_params"]  # parameters, optimiser state, rng: the same on both devices
    assert report["devices"] == 2 and report["games"] == 4 and report["updates"] == 3
    assert report["halves_differ"]  # each device plays its own games


def test_devices_must_divide_the_games_and_leave_whole_minibatches():
    with pytest.raises(ValueError, match="devices: 3 must divide num_envs"):
        ippo.IPPOConfig(num_envs=64, devices=3)
    with pytest.raises(ValueError, match="of each of the 2 devices"):
        ippo.IPPOConfig(num_envs=2, devices=2, minibatches=4, opponents=(("random", 1.0),))
