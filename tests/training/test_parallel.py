"""Data-parallel IPPO on two host devices (training.parallel) with the ghost pool
(training.selfplay), checked in a fresh process (tests/training/parallel_check.py) because XLA
fixes the CPU device count when JAX starts."""

from pathlib import Path

import pytest

from tests.helpers.runs import check_script_report
from training import ippo


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("parallel")
    return check_script_report(Path(__file__).with_name("parallel_check.py"), root, timeout=900)


def test_two_devices_sum_to_the_one_device_gradient(report):
    assert report["gradient_gap"] < 1e-5


def test_a_two_device_run_resumes_bit_for_bit_with_one_set_of_parameters(report):
    # the whole runner (games, ghost pool, Elo, curriculum) after 1 + 2 updates in two
    # sessions, the first of them `mbg train ippo --devices 2`, equals 3 updates in one
    assert report["cli_code"] == 0
    assert report["resume_equal"]
    assert report["same_params"]  # parameters, optimiser state, rng: the same on both devices
    assert report["devices"] == 2 and report["games"] == 6 and report["updates"] == 3
    assert report["halves_differ"]  # each device plays its own games


def test_the_ghost_pool_is_one_pool_on_two_devices(report):
    # snapshots, ratings, counters and the sampler's key identical on both devices
    assert report["pool_same_on_devices"]
    assert report["pool_games"] == 2  # one per device
    # As on one device with all 6 games: 40 learner agents x 4 ticks = 160 trainer steps an
    # update (psummed), = save_steps: a snapshot after every update into the window of 3 (slot
    # 0 holds the initial parameters, taken at 0), the third update's overwriting the oldest.
    assert report["pool_trainer_steps"] == 480 and report["pool_since_save"] == 0
    assert report["pool_taken"] == [480, 160, 320] and report["pool_head"] == 1
    assert report["pool_sizes"] == [2.0, 3.0, 3.0] and report["pool_size"] == 3
    assert report["elo_finite"]


def test_two_devices_draw_and_rate_the_pool_games_as_one_device(report):
    # one tick over 12 games, 8 of them pool games (swap_steps 4, some at their swap point)
    assert report["pool_swaps"] > 0 and report["pool_elo_moved"] > 0  # the check has teeth
    assert report["pool_tick_equal"]  # each game's new opponent, ghost steps, the sampler key
    # Elo: the same per-game changes, summed per device then across devices (psum) instead of
    # in one sum: float32 rounding at ratings near 1,200 (ulp 1.2e-4), a few ulps at most
    assert report["pool_elo_gap"] < 1e-3


def test_devices_must_divide_the_games_and_leave_whole_minibatches():
    with pytest.raises(ValueError, match="devices: 3 must divide num_envs"):
        ippo.IPPOConfig(num_envs=64, devices=3)
    with pytest.raises(ValueError, match="of each of the 2 devices"):
        ippo.IPPOConfig(num_envs=2, devices=2, minibatches=4, opponents=(("random", 1.0),))
