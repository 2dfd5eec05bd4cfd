"""The examples run at tiny sizes, so they keep working."""

import importlib.util
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SMAX_PYTHON = ROOT / ".venv-smax" / "bin" / "python"  # `make bench-smax-venv`; .ci/run builds it


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # compiles the whole training run with the scripted bot inside
def test_ippo_example_trains_against_the_scripted_bot(capsys):
    example = load("ippo_jaxmarl_style")
    argv = ["--num-envs", "2", "--num-steps", "8", "--updates", "2", "--maps", "0"]
    stats = example.main(argv)
    assert set(stats) == {"loss", "games", "return", "wins"}
    assert len(stats["loss"]) == 2 and np.isfinite(stats["loss"]).all()
    assert "env-steps" in capsys.readouterr().out


@pytest.mark.slow  # compiles JaxMARL's SMAX inside the whole training run
@pytest.mark.skipif(not SMAX_PYTHON.exists(), reason="no JaxMARL venv: make bench-smax-venv")
def test_ippo_example_trains_on_jaxmarl_smax_with_only_the_env_name_changed():
    # JaxMARL's own venv, which lacks this project: the learner needs nothing of ours
    argv = ["--env", "HeuristicEnemySMAX", "--num-envs", "2", "--num-steps", "8", "--updates", "2"]
    run = subprocess.run(
        [str(SMAX_PYTHON), str(EXAMPLES / "ippo_jaxmarl_style.py"), *argv],
        capture_output=True, text=True, timeout=900, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    rows = re.findall(r"^update +(\d+) .*loss +(\S+)", run.stdout, re.M)
    assert [int(i) for i, _ in rows] == [0, 1]
    assert all(np.isfinite(float(loss)) for _, loss in rows)
    assert "32 env-steps in" in run.stdout  # 2 envs x 8 steps x 2 updates


def test_ippo_example_names_an_unknown_env_without_jaxmarl():
    if importlib.util.find_spec("jaxmarl") is not None:
        pytest.skip("JaxMARL is installed: it answers for names that are not ours")
    with pytest.raises(ValueError, match=r"--env TeamDeathMatch: not one of .*TeamDeathmatch"):
        load("ippo_jaxmarl_style").make_env("TeamDeathMatch")


def test_ippo_helpers_compute_gae_by_hand():
    import jax.numpy as jnp

    example = load("ippo_jaxmarl_style")
    # two steps, one actor: rewards 1 then 0, values 0.5 then 0.25, the episode ends at step 2
    traj = example.Transition(
        obs=None, avail=None, action=None, log_prob=None,
        value=jnp.array([[0.5], [0.25]]), reward=jnp.array([[1.0], [0.0]]),
        done=jnp.array([[0.0], [1.0]]),
    )  # fmt: skip
    adv, target = example.gae(traj, jnp.array([9.0]), gamma=0.9, lam=0.5)
    # step 2: delta = 0 - 0.25 (done: no bootstrap); step 1: delta = 1 + 0.9 * 0.25 - 0.5
    second = -0.25
    first = (1 + 0.9 * 0.25 - 0.5) + 0.9 * 0.5 * second
    np.testing.assert_allclose(np.asarray(adv)[:, 0], [first, second], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(target)[:, 0], [first + 0.5, second + 0.25], rtol=1e-6)


def test_pettingzoo_example_plays_and_saves_frames(tmp_path, capsys):
    example = load("pettingzoo_random")
    rows = example.main(
        ["--games", "1", "--maps", "0", "--horizon", "40", "--frames", str(tmp_path)]
    )
    row = rows[0]
    assert row["ticks"] == 40  # the horizon truncated it (RULES 4.3)
    # every death scores 1 or 2 for the other team (RULES 1.6); nobody respawns undead
    assert row["deaths"] <= sum(row["score"]) <= 2 * row["deaths"]
    assert row["respawns"] <= row["deaths"]
    assert (tmp_path / "game_000.png").stat().st_size > 1000
    with pytest.raises(FileExistsError, match="game_000.png"):
        example.main(["--games", "1", "--maps", "2", "--frames", str(tmp_path)])
    assert "game 0" in capsys.readouterr().out


@pytest.mark.parametrize(
    "name, argv, message",
    [
        ("pettingzoo_random", ["--maps", "99"], r"--maps 99: unknown map id 99; valid ids: 0-51"),
        (
            "pettingzoo_random",
            ["--maps", "no.json"],
            r"--maps no.json: no.json: cannot read the file: No such file",
        ),
        ("pettingzoo_random", ["--horizon", "0"], r"--horizon 0: Config.horizon: 0 is out"),
        ("pettingzoo_random", ["--games", "0"], r"--games 0: expected at least 1 game"),
        ("ippo_jaxmarl_style", ["--maps", "7-99"], r"--maps 7-99: unknown map ids 52, 53, "),
        ("ippo_jaxmarl_style", ["--opponent", "scripted:nobody"], r"--opponent scripted:nob"),
        ("ippo_jaxmarl_style", ["--updates", "0"], r"--updates 0: expected >= 1"),
        (
            "ippo_jaxmarl_style",
            ["--num-envs", "3", "--num-steps", "3"],
            r"--num-envs 3 x --num-steps 3 x 5 agents = 45",
        ),
    ],
)
def test_examples_name_the_bad_option_and_what_is_valid(name, argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        load(name).main(argv)
    assert exited.value.code == 2  # argparse's usage error, not a traceback
    assert re.search(f"error: {message}", capsys.readouterr().err)
