"""fileio.atomic: whole-or-nothing writes, never over a file, ordinary mode, no heavy imports."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fileio import (
    publish_new_file,
    replace_file,
    unused_path,
    write_new_file,
    write_new_file_with,
)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_write_new_file_writes_the_bytes_with_the_ordinary_mode(tmp_path):
    path = write_new_file(tmp_path / "sub" / "a.bin", b"abc")
    assert path.read_bytes() == b"abc"
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert sorted(p.name for p in path.parent.iterdir()) == ["a.bin"]  # no temporary left


def test_write_new_file_refuses_an_existing_file_and_keeps_it(tmp_path):
    path = tmp_path / "a.bin"
    path.write_bytes(b"old")
    with pytest.raises(FileExistsError, match=r"a\.bin: kept"):
        write_new_file(path, b"new", "kept")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.bin"]


def test_publish_refuses_a_name_taken_after_the_check_and_removes_the_temp(tmp_path):
    tmp, path = tmp_path / ".t.tmp", tmp_path / "t.bin"
    tmp.write_bytes(b"late")
    path.write_bytes(b"first")  # another writer won the race
    with pytest.raises(FileExistsError):
        publish_new_file(tmp, path)
    assert path.read_bytes() == b"first" and not tmp.exists()


def test_write_new_file_with_gives_the_writer_a_name_with_the_suffix(tmp_path):
    seen = []

    def write(name):
        seen.append(name)
        with open(name, "w") as handle:
            handle.write("x,y\n1,2\n")

    path = write_new_file_with(tmp_path / "t.csv", write)
    assert path.read_text() == "x,y\n1,2\n" and seen[0].endswith(".csv")
    assert not os.path.exists(seen[0])


def test_a_failing_writer_leaves_nothing(tmp_path):
    def write(name):
        raise RuntimeError("encoder failed")

    with pytest.raises(RuntimeError, match="encoder failed"):
        write_new_file_with(tmp_path / "t.png", write)
    assert list(tmp_path.iterdir()) == []


def test_replace_file_replaces_on_purpose(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("old")
    assert replace_file(path, b"new").read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


def test_unused_path_counts_up_from_two(tmp_path):
    assert unused_path(tmp_path, "g.mbgr") == tmp_path / "g.mbgr"
    (tmp_path / "g.mbgr").touch()
    (tmp_path / "g-2.mbgr").touch()
    assert unused_path(tmp_path, "g.mbgr") == tmp_path / "g-3.mbgr"


def test_fileio_imports_nothing_heavy():
    heavy = "('jax', 'numpy', 'pygame', 'polars')"
    code = f"import sys, fileio; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_output_file_refuses_before_writing_and_names_the_option(tmp_path):
    from fileio import output_file

    taken = tmp_path / "taken.csv"
    taken.write_text("keep")
    assert output_file(tmp_path / "new" / "a.csv", "--csv") == tmp_path / "new" / "a.csv"
    assert output_file(taken, "--png", force=True) == taken  # replaced on purpose
    cases = [
        (taken, FileExistsError, f"--csv {taken}: already exists; choose another name"),
        (
            taken / "x.csv",
            FileExistsError,
            f"--csv {taken / 'x.csv'}: {taken} is a file, not a folder",
        ),
        (tmp_path, IsADirectoryError, f"--csv {tmp_path}: is a folder; give a file name"),
        ("", ValueError, "--csv: is empty; give a path"),
    ]
    for path, kind, message in cases:
        with pytest.raises(kind) as error:
            output_file(path, "--csv")
        assert str(error.value) == message
    assert taken.read_text() == "keep" and not (tmp_path / "new").exists()


def test_output_paths_too_long_or_with_a_tilde_are_refused_naming_the_option(tmp_path):
    from fileio import output_file, output_folder

    long = "a" * 300
    cases = [
        (output_file, tmp_path / f"{long}.csv", "--csv 'aaaaaaaaaaaaaaaaaaaaa...': a name of 304 "
         "bytes; the file system allows 255"),
        (output_file, tmp_path / "new" / long / "x.csv", "--csv 'aaaaaaaaaaaaaaaaaaaaa...': a "
         "name of 300 bytes; the file system allows 255"),
        (output_folder, tmp_path / long, "--csv 'aaaaaaaaaaaaaaaaaaaaa...': a name of 300 bytes; "
         "the file system allows 255"),
        (output_file, "~/x.csv", f"--csv ~/x.csv: a '~' is not expanded here; write the folder "
         f"out ({Path('~').expanduser()}) or put a space after the option"),
        (output_folder, "~/runs", f"--csv ~/runs: a '~' is not expanded here; write the folder "
         f"out ({Path('~').expanduser()}) or put a space after the option"),
    ]  # fmt: skip
    for check, path, message in cases:
        with pytest.raises(ValueError) as error:
            check(path, "--csv")
        assert str(error.value) == message
    assert output_file(tmp_path / "./~x" / "é.csv", "--csv") == tmp_path / "~x" / "é.csv"
    assert list(tmp_path.iterdir()) == []


def test_an_output_path_in_a_folder_that_cannot_be_written_is_refused(tmp_path, monkeypatch):
    """access(2) is the check; the tests run as root, which may write anywhere, so the
    refusal is simulated for one folder."""
    from fileio import output_file, output_folder

    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != locked and real_access(p, mode))
    for check, path in [(output_file, locked / "x.csv"), (output_folder, locked / "a" / "b"),
                        (output_folder, locked)]:  # fmt: skip
        with pytest.raises(PermissionError) as error:
            check(path, "--out")
        assert str(error.value) == f"--out {path}: cannot write in {locked} (permission denied)"
    assert output_file(tmp_path / "free.csv", "--out") == tmp_path / "free.csv"
    assert list(locked.iterdir()) == []


def test_a_folder_whose_bits_allow_writing_but_that_takes_no_file_is_refused(tmp_path, monkeypatch):
    """access(2) grants root a read-only mount or /proc (tests/cli/test_cli_output_files.py
    tries /proc itself); a read-only mount is simulated by making file creation fail there
    with EROFS. A folder that does take the trial file keeps none."""
    import errno
    import tempfile

    from fileio import output_file, output_folder

    mounted = tmp_path / "ro"
    mounted.mkdir()
    real_mkstemp = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if Path(dir) == mounted:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dir))
        return real_mkstemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    assert os.access(mounted, os.W_OK | os.X_OK)  # the bits say yes
    for check, path in [(output_file, mounted / "x.csv"), (output_folder, mounted / "a"),
                        (output_folder, mounted)]:  # fmt: skip
        with pytest.raises(PermissionError) as error:
            check(path, "--csv")
        assert str(error.value) == (
            f"--csv {path}: cannot write in {mounted} (making a file there: read-only file system)"
        )
    assert output_file(tmp_path / "free.csv", "--csv") == tmp_path / "free.csv"
    assert output_folder(tmp_path / "new" / "runs", "--out") == tmp_path / "new" / "runs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro"]  # no trial file is left
    assert list(mounted.iterdir()) == []


def test_output_options_checks_each_given_option_by_its_flag(tmp_path):
    from argparse import Namespace

    from fileio import output_options

    taken = tmp_path / "taken.mp4"
    taken.write_bytes(b"keep")
    args = Namespace(replay_out=str(tmp_path / "new.mbgr"), screenshot=None)
    assert output_options(args, ("replay_out", "screenshot")) == {
        "replay_out": tmp_path / "new.mbgr"
    }
    args.screenshot = str(taken)
    with pytest.raises(FileExistsError) as raised:
        output_options(args, ("replay_out", "screenshot"), refusal="kept")
    assert str(raised.value) == f"--screenshot {taken}: kept"
    assert taken.read_bytes() == b"keep"
