"""`mbg scenarios run` splits each batch of games over the host devices (evaluation.sharding):
the games are those of one device, bit for bit, checked in a fresh process with two devices
(tests/evaluation/scenario_sharding_check.py)."""

from pathlib import Path

import pytest

from cli.scenarios import _use_devices
from tests.helpers.runs import check_script_report


@pytest.mark.slow
def test_a_batch_split_over_two_devices_plays_the_one_device_games(tmp_path):
    report = check_script_report(
        Path(__file__).with_name("scenario_sharding_check.py"), tmp_path, 900
    )
    assert report["devices"] == 2 and report["split_over"] == 2
    assert report["differences"] == []
    assert len(report["ticks"]) == 4 and all(1 <= t <= 6 for t in report["ticks"])


def test_the_device_count_must_divide_the_batch(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "")
    with pytest.raises(ValueError, match=r"--devices 3: must be 1 or more and divide 256"):
        _use_devices(3)
    with pytest.raises(ValueError, match=r"--devices 0"):
        _use_devices(0)
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    _use_devices(None)
    import os

    assert os.environ["XLA_FLAGS"].endswith("--xla_force_host_platform_device_count=4")
