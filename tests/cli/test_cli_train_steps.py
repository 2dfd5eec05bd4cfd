"""`mbg train ippo --steps N` says on stderr when N is rounded up to whole updates (chunks)."""

import json
from types import SimpleNamespace

import pytest

from cli import train as cli_train
from cli.main import main
from cli.train import ALGORITHMS
from training.runs import rounding_note


@pytest.mark.parametrize(
    ("steps", "per_update", "chunk", "note"),
    [
        (64, 2048, 1, "64 steps is less than one update of 2048 env-steps; training 2048"),
        (3000, 2048, 1, "3000 steps is not a whole number of updates of 2048 env-steps; "
         "training 4096"),
        (4096, 2048, 2, None),
        (4096, 2048, 1, None),
        (0, 2048, 5, None),
        (4096, 2048, 5, "4096 steps is not a whole number of chunks of 10240 env-steps; training "
         "10240 (5 updates, whole chunks of updates_per_log = 5)"),
    ],
)  # fmt: skip
def test_rounding_note(steps, per_update, chunk, note):
    assert rounding_note(steps, per_update, chunk) == note


@pytest.fixture
def fake_run(monkeypatch):
    """ippo.run replaced by a recorder: these tests check the command line, not training."""
    from training import ippo

    calls = []

    def run(config, out, resume, steps, show=True):
        calls.append(steps)
        return SimpleNamespace(update=1), f"{out}/policy.msgpack"

    monkeypatch.setattr(ippo, "run", run)
    monkeypatch.setattr(cli_train, "enable_compile_cache", lambda: None)
    return calls


def test_train_says_how_it_rounds_steps(fake_run, tmp_path, capsys):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"num_envs": 64, "rollout": 32, "updates_per_log": 1}))
    argv = ["train", "ippo", "--config", str(config), "--out", str(tmp_path / "r"), "--quiet"]
    assert main([*argv, "--steps", "64"]) == 0
    err = capsys.readouterr().err
    expected = "mbg train: 64 steps is less than one update of 2048 env-steps; training 2048"
    assert err.strip() == expected
    assert main([*argv, "--steps", "4096"]) == 0
    assert capsys.readouterr().err == ""
    assert fake_run == [64, 4096]  # the steps still go to training unchanged


def test_resume_uses_the_runs_saved_config(fake_run, tmp_path, capsys):
    run_dir = tmp_path / "r"
    run_dir.mkdir()
    saved = {"num_envs": 8, "rollout": 16, "updates_per_log": 1}
    (run_dir / "config.json").write_text(json.dumps(saved))
    assert main(["train", "ippo", "--out", str(run_dir), "--resume", "--steps", "200"]) == 0
    assert capsys.readouterr().err.strip() == (
        "mbg train: 200 steps is not a whole number of updates of 128 env-steps; training 256"
    )


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("steps", ["0", "-1"])
def test_steps_under_one_are_refused_for_every_learner(algorithm, steps, tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["train", algorithm, "--out", str(out), "--steps", steps]) == 2
    assert capsys.readouterr().err == (
        f"mbg train: error: --steps {steps}: train at least 1 env-step (ticks x games); "
        "leave --steps out for the config's total_steps\n"
    )
    assert not out.exists()  # nothing written: no untrained run


def test_an_existing_run_is_refused_before_any_note_on_steps(fake_run, tmp_path, capsys):
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "config.json").write_text("{}")
    argv = ["train", "ippo", "--out", str(tmp_path / "r"), "--quiet", "--steps", "64"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "a run exists here; pass --resume or choose another --out" in err
    assert "less than one update" not in err
    assert fake_run == []


def test_devices_are_read_before_any_config_is_built(tmp_path):
    from argparse import Namespace

    from cli.train import _requested_devices
    from training import common

    config = tmp_path / "c.json"
    config.write_text(json.dumps({"devices": 2, "num_envs": 8}))
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"devices": 4}))

    def ask(**kw):
        args = dict(devices=None, config=None, out=str(run), resume=False) | kw
        return _requested_devices(Namespace(**args), common)

    assert ask() is None
    assert ask(devices=3, config=str(config)) == 3  # --devices wins
    assert ask(config=str(config)) == 2
    assert ask(resume=True) == 4  # a resumed run keeps its own
    with pytest.raises(ValueError, match="missing.json: cannot read a config"):
        ask(config=str(tmp_path / "missing.json"))


def test_devices_on_resume_is_refused(fake_run, tmp_path, capsys):
    argv = ["train", "ippo", "--out", str(tmp_path / "r"), "--resume", "--devices", "2"]
    assert main(argv) == 2
    assert "--devices: a resumed run keeps its devices" in capsys.readouterr().err


def test_select_names_a_folder_that_holds_no_run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no runs/ippo here: the default --out is not a run either
    dest = tmp_path / "best.msgpack"
    assert main(["train", "ippo", "--select", str(dest)]) == 2
    assert "--out runs/ippo: no run here (no config.json)" in capsys.readouterr().err
    assert main(["train", "ippo", "--out", str(tmp_path / "none"), "--select", str(dest)]) == 2
    assert f"--out {tmp_path / 'none'}: no run here" in capsys.readouterr().err
    assert not dest.exists()
