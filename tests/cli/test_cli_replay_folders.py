"""`mbg replay verify|info FOLDER` reads the folder's own replays; --recursive its subfolders'
too (a verify of /tmp must not walk every folder under it)."""

import json

import pytest

from evaluation.replay import write_replay
from tests.helpers.replays import synthetic_replay


@pytest.fixture
def tree(tmp_path):
    """top.mbgr in the folder, deep.mbgr two folders down, and a folder holding only a subfolder."""
    write_replay(tmp_path / "top.mbgr", synthetic_replay(3, seed=1))
    (tmp_path / "runs" / "old").mkdir(parents=True)
    write_replay(tmp_path / "runs" / "old" / "deep.mbgr", synthetic_replay(3, seed=2))
    return tmp_path


@pytest.fixture
def checked(monkeypatch):
    """The re-simulation itself is tested in tests/evaluation: here, which files reach it."""
    seen = []
    monkeypatch.setattr(
        "evaluation.replay_verify.verify", lambda replay, systems=False: seen.append(replay) or []
    )
    return seen


def test_verify_reads_only_the_folders_own_replays(tree, checked, capsys):
    from cli.main import main

    assert main(["replay", "verify", str(tree)]) == 0
    out = capsys.readouterr().out.splitlines()
    said = (
        "ok, header and 3 ticks reproduce; header.seeds and systems not checked "
        "(--systems re-runs them)"
    )
    assert out == [f"{tree / 'top.mbgr'}: {said}"] and len(checked) == 1
    assert main(["replay", "verify", "--recursive", str(tree)]) == 0
    out = capsys.readouterr().out
    assert out.count("ticks reproduce") == 2 and str(tree / "runs" / "old" / "deep.mbgr") in out


def test_a_folder_with_replays_only_below_names_the_option(tree, checked, capsys):
    from cli.main import main

    assert main(["replay", "verify", str(tree / "runs")]) == 2
    err = capsys.readouterr().err
    assert "no .mbgr files in this folder (its subfolders hold some: --recursive" in err
    assert checked == []
    assert main(["replay", "info", "-r", "--json", str(tree / "runs")]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 1
    assert main(["replay", "info", "--json", str(tree)]) == 0  # info reads folders alike
    assert len(capsys.readouterr().out.strip().splitlines()) == 1


def test_a_closed_pipe_blames_no_replay(tree, capsys):
    # `mbg replay info FOLDER | head`: head closes the pipe after its lines; printing the next
    # file used to be reported as that file failing ("[Errno 32] Broken pipe", "1 of 3 failed").
    from cli.replay import _run_all

    def closed(n, path, replay):
        raise BrokenPipeError(32, "Broken pipe")

    assert _run_all([str(tree)], "info", closed, recursive=True) == 1
    err = capsys.readouterr().err
    assert "Broken pipe" not in err and "failed" not in err and "top.mbgr" not in err


def test_info_shows_the_takebacks_and_parent_a_replay_records(tmp_path, capsys):
    from cli.main import main

    game = synthetic_replay(9, seed=4)
    submitted = game.events["submitted"][0].tolist()
    game.header["takebacks"] = [{"tick": 3, "submitted": submitted},
                                {"tick": 7, "submitted": submitted}]  # fmt: skip
    game.header["parent"] = {"replay": "old.mbgr", "sha256": "ab" * 32, "tick": 2}
    game.states["tick"] = game.states["tick"] + 2  # a branch's body starts at the parent's tick
    path = write_replay(tmp_path / "kept.mbgr", game)
    assert main(["replay", "info", str(path)]) == 0
    lines = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert lines["takebacks"] == "2 (undone: tick 3, 7)"
    assert lines["parent"] == "old.mbgr from tick 2 (sha256 abababababab)"
    assert main(["replay", "info", "--json", str(path)]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["takebacks"] == [3, 7] and facts["parent"]["tick"] == 2
