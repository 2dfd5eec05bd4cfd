"""`mbg bench engine`'s pieces: our rollout worker over the pipe, the scaling table and plot."""

import importlib.util
import sys
from pathlib import Path

import pytest

from evaluation import engine_bench, interleaved

REPO = Path(__file__).resolve().parents[2]


def _scaling():
    spec = importlib.util.spec_from_file_location("bench_scaling", REPO / "bench/bench_scaling.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_worker_environment_sets_one_device_count():
    env = engine_bench._worker_env(2)
    flags = env["XLA_FLAGS"].split()
    assert flags.count("--xla_force_host_platform_device_count=2") == 1
    assert not [f for f in flags if f.endswith("count=1")]
    assert env["PYTHONPATH"].split(":")[0] == str(REPO)


@pytest.mark.slow
def test_engine_worker_compiles_once_and_answers_timings():
    command = [sys.executable, "-m", "evaluation.engine_bench", "--serve", "--batches", "2"]
    command += ["--ticks", "2", "--devices", "1"]
    with interleaved.PipeWorker(command, "engine", engine_bench._worker_env(1)) as worker:
        assert worker.info["engine"] == "marl-battlegrounds"
        assert worker.info["compile_s"]["2"] > 0
        # 2 games x 2 ticks are far under 0.25 s: the worker repeats them
        assert worker.info["calls"]["2"] > 1
        first, second = worker.seconds("2"), worker.seconds("2")
        assert 0 < first < 5 and 0 < second < 5


def test_scaling_table_and_plot():
    scaling = _scaling()
    points = [
        {"games": 1, "devices": 2, "skipped": True},
        {"games": 16, "devices": 1, "steps_per_s": 12345.6, "compile_s": 9.04,
         "xla_mib": 0.25, "peak_rss_mib": 600.4},
        {"games": 64, "devices": 1, "steps_per_s": 40000.0, "compile_s": 9.0,
         "xla_mib": 1.0, "peak_rss_mib": 610.0},
        {"games": 16, "devices": 2, "steps_per_s": 20000.0, "compile_s": 9.0,
         "xla_mib": 0.1, "peak_rss_mib": 620.0},
    ]  # fmt: skip
    lines = scaling.table(points).splitlines()
    assert lines[2] == "| 1 | 2 | - | - | - | - |"
    assert lines[3] == "| 16 | 1 | 12,346 | 0.2 | 600 | 9.0 |"
    png = scaling.plot(points)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_scaling_refuses_to_write_over_a_file(tmp_path, capsys):
    taken = tmp_path / "scaling.png"
    taken.write_bytes(b"mine")
    with pytest.raises(SystemExit):
        _scaling().main(["--png", str(taken)])
    assert "never writes over a file" in capsys.readouterr().err
    assert taken.read_bytes() == b"mine"


def test_print_table_gives_both_step_figures_and_the_target_verdict():
    import io

    ratio = interleaved.ratio_summary([2.0, 2.2, 1.8], [1.0, 1.0, 1.0])
    single = {"compile_s": 30.0, "us_per_step": 500.0, "host_stepper_us": 250.0}
    figures = {
        "jax": "x",
        "devices": 2,
        "ticks": 64,
        "rounds": 3,
        "batch_1_step": {**single, "ratio": ratio, "load_average": 4.0},
        "rollout": {},
        "peak_rss_mib": 700.0,
    }
    out = io.StringIO()
    engine_bench.print_table(figures, out)
    assert (
        "one jitted step from a Python loop: 250 us with engine.host.HostStepper, 500 us with "
        "jax.jit(env.step) (ratio 2.00x (IQR 1.90-2.10, 3 rounds)" in out.getvalue()
    )
    assert "load average 4.0; target < 300 us met)" in out.getvalue()


def test_more_host_devices_than_cores_get_a_note(monkeypatch, capsys):
    monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_foo=1")
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    monkeypatch.setattr(engine_bench.os, "cpu_count", lambda: 2)
    engine_bench.set_host_devices(2)
    assert capsys.readouterr().err == ""
    assert engine_bench.os.environ["XLA_FLAGS"].endswith("device_count=2")
    engine_bench.set_host_devices(4)
    assert "--devices 4 is more than this machine's 2 CPU cores" in capsys.readouterr().err
    assert engine_bench.os.environ["XLA_FLAGS"].endswith("device_count=4")


@pytest.mark.slow
def test_the_observations_reading_builds_what_the_default_rollout_drops():
    """By default XLA drops the observation's unit rows and obstacle tables (only the masks are
    read, as SMAX's rollout reads only its avail actions); --observations keeps them."""
    import jax

    from engine import Config, Env, maps

    env = Env(Config(), maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",)), keep_last_obs=False)
    keys = jax.random.split(jax.random.PRNGKey(0), 3)

    def optimised(observations):
        return jax.jit(engine_bench._rollout_fn(env, 2, observations)).lower(keys).compile()

    units, obstacles = "f32[3,10,10,33]", "f32[3,10,32,8]"
    default, read = optimised(False).as_text(), optimised(True).as_text()
    assert units not in default and obstacles not in default
    assert units in read and obstacles in read
    done_a, seen_a = jax.jit(engine_bench._rollout_fn(env, 2, True))(keys)
    done_b, seen_b = jax.jit(engine_bench._rollout_fn(env, 2, False))(keys)
    assert done_a == done_b and float(seen_b) == 0.0 and float(seen_a) > 0
