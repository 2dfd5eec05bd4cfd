"""Every `mbg` option that names an output file is checked before any work (fileio.output_file):
a path below a file, an existing file, a folder or an empty path is refused in one line naming
the option and the path, and nothing is played, read or written."""

import os
from pathlib import Path

import pytest

from cli.main import main

REPLAY = "tests/fixtures/replays/v1_real_2v2_no_metrics.mbgr"
SEASON = ["--entrants", "a=random", "b=random", "--out"]


COMMANDS = [
    (["rate", REPLAY], "--csv"),
    (["rate", REPLAY], "--json"),
    (["rate", REPLAY], "--png"),
    (["tournament", "run", *SEASON, "SEASON"], "--csv"),
    (["tournament", "run", *SEASON, "SEASON"], "--json"),
    (["tournament", "challenge", "--field", "SEASON", "--challenger", "c=random"], "--png"),
    (["tournament", "analyse", "SEASON"], "--csv"),
    (["tournament", "analyse", "SEASON"], "--png"),
    (["scenarios", "run", "--systems", "random", "--scenarios", "1", "--out", "SEASON"], "--csv"),
    (["scenarios", "run", "--systems", "random", "--scenarios", "1", "--out", "SEASON"],
     "--parquet"),
    (["metrics", REPLAY], "--out"),
    (["study", "summary", "SEASON"], "--csv"),
]  # fmt: skip


def _run(argv, option, value, tmp_path, capsys):
    argv = [str(tmp_path / "season") if a == "SEASON" else a for a in argv]
    code = main([*argv, f"{option}={value}"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "Errno" not in err
    return err


@pytest.mark.parametrize(("argv", "option"), COMMANDS)
def test_an_output_file_below_a_file_is_refused_before_any_work(argv, option, tmp_path, capsys,
                                                                no_work):  # fmt: skip
    afile = tmp_path / "somefile.txt"
    afile.write_text("keep me")
    target = afile / "out.csv"
    command = f"mbg {argv[0]}"
    err = _run(argv, option, target, tmp_path, capsys)
    assert err == f"{command}: error: {option} {target}: {afile} is a file, not a folder\n"
    assert afile.read_text() == "keep me" and not (tmp_path / "season").exists()


@pytest.mark.parametrize(("argv", "option"), COMMANDS)
def test_an_existing_output_file_is_refused_before_any_work(argv, option, tmp_path, capsys,
                                                            no_work):  # fmt: skip
    taken = tmp_path / "taken.csv"
    taken.write_text("keep me")
    err = _run(argv, option, taken, tmp_path, capsys)
    assert err == f"mbg {argv[0]}: error: {option} {taken}: already exists; choose another name\n"
    assert taken.read_text() == "keep me"


@pytest.mark.parametrize(("argv", "option"), COMMANDS)
def test_an_empty_or_folder_output_file_is_refused_before_any_work(argv, option, tmp_path, capsys,
                                                                   no_work):  # fmt: skip
    err = _run(argv, option, "", tmp_path, capsys)
    assert err == f"mbg {argv[0]}: error: {option}: is empty; give a path\n"
    err = _run(argv, option, tmp_path, tmp_path, capsys)
    assert err == f"mbg {argv[0]}: error: {option} {tmp_path}: is a folder; give a file name\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("argv", "option"), COMMANDS)
def test_a_tilde_or_too_long_output_file_is_refused_before_any_work(
    argv, option, tmp_path, capsys, no_work, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # where a "~" folder would have been made
    err = _run(argv, option, "~/out.csv", tmp_path, capsys)
    home = Path("~").expanduser()
    assert err == (f"mbg {argv[0]}: error: {option} ~/out.csv: a '~' is not expanded here; write "
                   f"the folder out ({home}) or put a space after the option\n")  # fmt: skip
    err = _run(argv, option, f"new/{'b' * 256}/out.csv", tmp_path, capsys)
    assert err == (f"mbg {argv[0]}: error: {option} 'bbbbbbbbbbbbbbbbbbbbb...': a name of 256 "
                   "bytes; the file system allows 255\n")  # fmt: skip
    assert list(tmp_path.iterdir()) == []


PROC_WRITABLE_BY_BITS = Path("/proc").is_dir() and os.access("/proc", os.W_OK | os.X_OK)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize(("argv", "option"), COMMANDS)
def test_an_output_file_in_proc_is_refused_before_any_work(argv, option, tmp_path, capsys,
                                                           no_work):  # fmt: skip
    """As root, access(2) grants /proc (PROC_WRITABLE_BY_BITS), yet no file can be made
    there: the check makes one, so the refusal comes before the work, not after it."""
    err = _run(argv, option, "/proc/x.csv", tmp_path, capsys)
    why = (
        "making a file there: no such file or directory"
        if PROC_WRITABLE_BY_BITS
        else ("permission denied")
    )
    assert err == f"mbg {argv[0]}: error: {option} /proc/x.csv: cannot write in /proc ({why})\n"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
def test_an_output_folder_in_proc_is_refused_before_any_game(capsys, no_work):
    assert main(["play", "--maps", "47", "--slots", "*=random", "--out=/proc/runs"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mbg play: error: --out /proc/runs: cannot write in /proc (")
    assert len(err.splitlines()) == 1 and not Path("/proc/runs").exists()


def test_replay_export_refuses_an_empty_to_before_any_video(tmp_path, capsys, monkeypatch,
                                                            no_work):  # fmt: skip
    monkeypatch.chdir(tmp_path)  # where an empty --to would have put the video
    replay = str(Path(REPLAY).resolve())
    assert main(["replay", "export", replay, "--to="]) == 2
    assert capsys.readouterr().err == "mbg replay export: --to: is empty; give a path\n"
    assert list(tmp_path.iterdir()) == []


def test_replay_export_refuses_a_to_it_cannot_write_in_before_any_video(
    tmp_path, capsys, monkeypatch, no_work
):
    """The tests run as root, who may write anywhere: access(2) is refused for one folder."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != locked and real_access(p, mode))
    videos = locked / "videos"
    assert main(["replay", "export", REPLAY, f"--to={videos}"]) == 2
    assert capsys.readouterr().err == (
        f"mbg replay export: --to {videos}: cannot write in {locked} (permission denied)\n"
    )
    assert list(locked.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--maps", "47", "--slots", "*=random"],
        ["train", "ippo", "--steps", "2048"],
        ["scenarios", "run", "--systems", "random", "--scenarios", "1"],
        ["tournament", "run", "--entrants", "a=random", "b=random"],
    ],
)
def test_an_empty_out_folder_is_refused_not_read_as_the_default(argv, tmp_path, capsys,
                                                                 monkeypatch, no_work):  # fmt: skip
    monkeypatch.chdir(tmp_path)  # where runs/ or replays would have gone
    assert main([*argv, "--out="]) == 2
    assert capsys.readouterr().err == f"mbg {argv[0]}: error: --out: is empty; give a path\n"
    assert list(tmp_path.iterdir()) == []


def test_train_select_is_checked_as_an_output_file(tmp_path, capsys, no_work):
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    inside = afile / "best.msgpack"
    cases = [
        ("", "--select: is empty; give a path"),
        (inside, f"--select {inside}: {afile} is a file, not a folder"),
        (afile, f"--select {afile}: exists; choose another --select path"),
    ]
    for value, said in cases:
        argv = ["train", "ippo", "--out", str(tmp_path / "run"), f"--select={value}"]
        assert main(argv) == 2
        assert capsys.readouterr().err == f"mbg train: error: {said}\n"
    assert afile.read_text() == "keep me"


def test_replay_export_refuses_a_to_named_like_a_video(tmp_path, capsys, no_work):
    to = tmp_path / "out.mp4"
    assert main(["replay", "export", REPLAY, f"--to={to}"]) == 2
    assert capsys.readouterr().err == (
        f"mbg replay export: --to {to}: is the folder the videos go into (each is named after "
        "its replay); name a folder, or export one replay with `replay-viewer FILE --export OUT`\n"
    )
    assert not to.exists()
