"""QMIX and PQN-VDN on two host devices (training.parallel), checked in a fresh process
(tests/training/q_parallel_check.py) because XLA fixes the CPU device count when JAX starts:
the same gradient steps as one device on the same data, one set of parameters on both
devices, and a run started by `mbg train NAME --devices 2` resumes bit for bit."""

from pathlib import Path

import pytest

from tests.helpers.runs import check_script_report
from training import pqn_vdn, qmix

pytestmark = pytest.mark.slow  # four runs' compilations: minutes on the loaded machine


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("q_parallel")
    return check_script_report(Path(__file__).with_name("q_parallel_check.py"), root, timeout=2400)


def test_pqn_two_devices_learn_as_one_device_on_the_same_rollout(report):
    pqn = report["pqn-vdn"]
    assert pqn["learn_moved"] > 1e-4  # two gradient steps moved the parameters
    # each minibatch gradient the mean of the two halves' (four teams each): float rounding
    assert pqn["learn_gap"] < 1e-6


def test_qmix_two_devices_sum_to_the_one_device_gradient(report):
    q = report["qmix"]
    assert q["valid_ticks_per_half"] == [30, 36]  # uneven halves: a plain mean would differ
    assert q["gradient_gap"] < 1e-5 and q["loss_gap"] < 1e-5


@pytest.mark.parametrize("name", ["pqn-vdn", "qmix"])
def test_a_two_device_q_run_resumes_bit_for_bit(report, name):
    got = report[name]
    assert got["cli_code"] == 0 and got["saved_devices"] == 2
    assert got["resume_equal"] and got["updates"] == 3
    assert got["same_params"] and got["devices"] == 2  # parameters, optimiser state, rng
    step = got["agent_steps_per_update"]  # env-steps of both devices' games
    assert got["env_steps"] == [step, 2 * step, 3 * step]


def test_pqn_ghost_pool_is_one_pool_on_two_devices(report):
    pqn = report["pqn-vdn"]
    assert pqn["pool_same_on_devices"] and pqn["pool_games"] == 2  # one pool game a device
    # 160 trainer steps an update summed over both devices (= save_steps): the window of 2
    # full after the first update's snapshot
    assert pqn["pool_trainer_steps"] == 3 * 160
    assert pqn["pool_sizes"] == [2.0, 2.0, 2.0] and pqn["elo_logged"]


def test_qmix_stores_each_devices_games_in_its_share_of_the_buffer(report):
    # three updates of one device's two games (one self-play: three learner teams) = 9
    assert report["qmix"]["buffer_count"] == 9


def test_devices_must_divide_the_games_the_buffer_and_the_minibatches():
    with pytest.raises(ValueError, match="PQNConfig.devices: 3 must divide num_envs"):
        pqn_vdn.PQNConfig(num_envs=64, devices=3)
    with pytest.raises(ValueError, match="of each of the 2 devices"):
        pqn_vdn.PQNConfig(num_envs=4, devices=2, minibatches=4, opponents=(("random", 1.0),))
    with pytest.raises(ValueError, match="QMIXConfig.batch_games: 5 must be a multiple"):
        qmix.QMIXConfig(devices=2, batch_games=5)
